"""Narcos 3 Components: the box's cubes. White (merchandise, 50) and brown (crops, 12) are hard limits on
production and planting (rulings K1, K2); green and gold cubes are change: money is unlimited (K3)."""
from __future__ import annotations

from tests.rules.narcos.support import N, draws, first, legal, managing, play, plays, refused, table, with_player


def test_production_stops_at_the_white_cubes_left():
    # 3: "50 cubos blancos (cargamentos de droga)" / "50 white cubes (drug shipments)" -- a hard limit
    state = with_player(managing(3), 0, crops=4, lab=44)  # seat 1 holds 1: 45 in play, 5 left; the table makes 4
    events, state = play(state, 0, {"type": "Produce"})
    assert first(events, "Produced")["units"] == 4
    events, state = play(state, 0, {"type": "Produce"})
    assert first(events, "Produced")["units"] == 1 and N.view(state, 1)["supply"]["merchandise"] == 0
    assert {"type": "Produce"} not in legal(state, 0)
    refused(state, 0, {"type": "Produce"}, rule="3", match="white cube")


def test_merchandise_sold_goes_back_to_the_supply():
    # 6.2 Dealers: "Retira la mercancía del traficante" / "Remove the merchandise from the Dealer"
    state = with_player(managing(2, front=["dealer-chicago-1"]), 0, lab=40, stored=9)
    assert N.view(state, 0)["supply"]["merchandise"] == 0
    _, state = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    assert N.view(state, 0)["supply"]["merchandise"] == 9 and {"type": "Produce"} in legal(state, 0)


def test_basic_mode_confiscated_merchandise_goes_back_to_the_supply_when_the_turn_ends():
    # 6.1 Police: "Déjalo sobre la carta de policía, y cuando termine la fase de juego, envíalo al almacén
    # policial (avanzado)" -- on the card until then; with no Warehouse (basic) it leaves the table
    state = table(["police-1", "snitch-1"])
    _, state = draws(state, 2)
    assert state["turn"]["confiscated"]["goods"] == 1 and N.view(state, 0)["supply"]["merchandise"] == 48
    _, state = plays(state, 0, {"type": "Stop"}, {"type": "EndActions"}, {"type": "CollectSales"},
                     {"type": "PassImprovement"})
    assert state["turn"]["seat"] == 1 and N.view(state, 0)["supply"]["merchandise"] == 49


def improving(seats: int = 4, **player) -> dict:
    state = managing(0, seats=seats, **player)
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    return state


def test_no_crop_is_planted_once_the_twelve_brown_cubes_are_on_plantations():
    # 3: "12 cubos marrones (cultivos)" / "12 brown cubes (crops)" -- four full Plantations would need 16
    state = improving(money=9)
    for seat, crops in ((1, 4), (2, 4), (3, 3)):
        state = with_player(state, seat, crops=crops)
    assert N.view(state, 2)["supply"]["crops"] == 0
    assert {"type": "AddCrop"} not in legal(state, 0)
    refused(state, 0, {"type": "AddCrop"}, rule="3", match="brown cube")
    state = with_player(state, 3, crops=2)  # a burned crop goes back to the supply
    events, state = play(state, 0, {"type": "AddCrop"})
    assert first(events, "CropAdded") and N.view(state, None)["supply"]["crops"] == 0


def test_money_is_not_limited_by_the_green_and_gold_cubes():
    # 3: "20 cubos verdes (millones de dólares) > 10 cubos dorados (oro, 1 oro vale por 5 millones)" -- 70 million
    # in the box; "Ganarás 1 millón por cada mercancía" is owed whatever the bank holds (ruling K3)
    state = with_player(managing(1, front=["dealer-chicago-1"]), 0, money=69, stored=6)
    state = with_player(state, 1, money=30)
    _, state = plays(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0},
                     {"type": "EndActions"}, {"type": "CollectSales"})
    assert state["players"][0]["money"] == 75
    assert N.view(state, 1)["players"][0]["cubes"] == {"gold": 15, "green": 0}
