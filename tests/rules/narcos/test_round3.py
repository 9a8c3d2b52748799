"""Issue 24 (rules round 3), Narcos, rules version 2: at least one card turned even by a seat the DEA
pursues (ruling D11), confiscations leave the Police cards when the Actions phase ends (A5), «≥8» counts
the units sold after tribute and the plane token pays planes only (A4), the "any moment" abilities while a
peek or a Police payment awaits (C1, M8); and, in every version, the final supply of white cubes (K1) and
what a search bot may sample (search.py).  Version 1 games keep the old behaviour (regression tests)."""
from __future__ import annotations

import pytest

from rules.base import Rng, fold
from rules.narcos.data import MERCHANDISE
from tests.rules.narcos.support import (
    N,
    draws,
    ev,
    first,
    legal,
    managing,
    play,
    plays,
    refused,
    table,
    types,
    with_player,
    with_turn,
)

TIP_OFF = {"type": "PlayCartel", "card": "tip-off-1", "target": -1}
ROB = {"type": "PlayCartel", "card": "rob-warehouse-1", "target": -1}
CHICAGO = {"Miami": "-2", "Chicago": ">=8", "New York": "speedboat", "Los Angeles": "plane"}


def at(version: int, state: dict) -> dict:
    """The same table, in a game of rules `version` (GameStarted records it from version 2)."""
    return {**state, "rules_version": version}


def pursued_with_tip_off(version: int) -> dict:
    """Seat 0 starts its Actions phase pursued by the DEA agent of actions (1 siren, 1 action), holding Tip-off."""
    state = at(version, table(["storage-8-1", "police-1"], hands=[["tip-off-1"], []]))
    state = {**state, "dea": {**state["dea"], "actions": 0}}
    return with_turn(state, dea=1, agents=["actions"])


def test_new_games_are_played_under_version_2_and_version_1_games_keep_theirs():
    # issue 24: "a new rules version of each game, old games continue and verify under their version"
    assert [number for number, _ in N.versions][:2] == [1, 2] and N.version >= 2  # version 3: test_any_moment.py
    assert N.at(2).setup({"mode": "basic"}, 2, Rng("v", 1))[0].data["rules_version"] == 2
    old = N.at(1).setup({"mode": "basic"}, 2, Rng("v", 1))
    assert "rules_version" not in old[0].data and fold(N, old)["rules_version"] == 1


# -- 1. «no eximen al jugador de levantar al menos una carta» (ruling D11) -----------------------------------
def test_a_seat_the_dea_pursues_cannot_tip_off_and_decline_its_way_past_turning_a_card():
    # 6.1 DEA: «Tener agentes de la DEA añade peligro y cuenta como acciones, pero no eximen al jugador de levantar
    # al menos una carta en su fase de Acciones» / "... do not exempt the player from turning over at least one card"
    state = pursued_with_tip_off(2)
    assert TIP_OFF not in legal(state, 0)  # a Tip-off, like a Snitch, comes after a card turned
    refused(state, 0, TIP_OFF, rule="7")
    # however a peek came about with nothing turned, declining it is refused: the card must be placed
    looking = with_turn(state, peeked="storage-8-1")
    assert {"type": "DeclineCard"} not in legal(looking, 0) and {"type": "PlaceCard"} in legal(looking, 0)
    refused(looking, 0, {"type": "DeclineCard"}, rule="6.1 DEA", match="at least one card")
    assert N.timeout_default(looking, 0) == {"type": "PlaceCard"}
    # after one card, the Tip-off is played and its card may be declined, as the Snitch's (ruling D8)
    _, state = draws(state, 1)
    assert TIP_OFF in legal(state, 0)
    events, state = plays(state, 0, TIP_OFF, {"type": "DeclineCard"})
    assert first(events, "DrawEnded")["reason"] == "declined" and state["deck"][0] == "police-1"


def test_version_1_keeps_tip_off_and_decline_before_any_card():
    state = pursued_with_tip_off(1)
    events, state = plays(state, 0, TIP_OFF, {"type": "DeclineCard"})
    ended = first(events, "DrawEnded")
    assert "CardDrawn" not in types(events) and ended["reason"] == "declined" and ended["actions"] == 1


# -- 2. «cuando termine la fase de juego, envíalo al almacén policial» (ruling A5) -----------------------------
def confiscated_then_stood(version: int, mode: str = "advanced") -> tuple[list, dict]:
    """Seat 0 (holding Rob the Police Warehouse in advanced mode) turns a Police then a Snitch: at 2 sirens the
    Police takes 1 merchandise from its Laboratory; then it stands."""
    hands = [["rob-warehouse-1"], []] if mode == "advanced" else [[], []]
    state = at(version, table(["police-1", "snitch-1"], mode=mode, hands=hands))
    _, state = draws(state, 2)
    return play(state, 0, {"type": "Stop"})


def test_confiscated_merchandise_reaches_the_warehouse_when_the_actions_phase_ends():
    # 6.1 Police: «te requisará 1 cargamento de droga ... Déjalo sobre la carta de policía, y cuando termine la fase
    # de juego, envíalo al almacén policial (avanzado)» / "leave it on the Police card, and when the phase of play
    # ends, send it to the Police Warehouse" -- the sentence is Phase 1's: the phase is the Actions phase
    _, state = confiscated_then_stood(2)
    assert state["players"][0]["lab"] == 0 and state["turn"]["phase"] == "manage"  # paid from the Laboratory
    assert state["warehouse"] == {"goods": 1, "money": 0} and state["turn"]["confiscated"] == {"goods": 0, "money": 0}
    in_play = sum(p["lab"] + p["stored"] for p in state["players"])
    assert N.view(state, 1)["supply"]["merchandise"] == MERCHANDISE - in_play - 1  # once: in the Warehouse
    # 9.2: «podrás robar en el Almacén y llevarte la mercancía a tu Laboratorio» -- in the same turn's Management
    assert ROB in legal(state, 0)
    _, state = play(state, 0, ROB)
    assert state["warehouse"] == {"goods": 0, "money": 0} and state["players"][0]["lab"] == 1


def test_basic_mode_confiscations_leave_the_table_when_the_actions_phase_ends():
    # «cuando termine la fase de juego, retíralo de la mesa» (the Military's money, likewise the Police's in basic
    # mode: there is no Warehouse, ruling K1): the white cube is back in the supply for this turn's Management
    _, state = confiscated_then_stood(2, mode="basic")
    assert state["turn"]["confiscated"] == {"goods": 0, "money": 0} and state["warehouse"] == {"goods": 0, "money": 0}
    in_play = sum(p["lab"] + p["stored"] for p in state["players"])
    assert in_play == 1 and N.view(state, 0)["supply"]["merchandise"] == MERCHANDISE - in_play


def test_version_1_keeps_confiscations_on_the_police_card_until_the_turn_ends():
    _, state = confiscated_then_stood(1)
    assert state["warehouse"] == {"goods": 0, "money": 0} and state["turn"]["confiscated"] == {"goods": 1, "money": 0}
    assert ROB not in legal(state, 0)
    refused(state, 0, ROB, rule="7")
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})
    assert state["warehouse"] == {"goods": 1, "money": 0}


# -- 5. the final supply of white cubes (ruling K1), every version -----------------------------------------------
@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_the_last_turns_confiscation_is_counted_once_in_the_final_supply(mode):
    # 3: «50 cubos blancos (cargamentos de droga)»: the cubes in play are the networks', the Warehouse's and those
    # on this turn's Police cards; once the turn is over they are on no Police card
    _, state = confiscated_then_stood(1, mode=mode)
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    assert state["turn"]["phase"] == "improve" and state["turn"]["confiscated"]["goods"] == 1
    in_play = sum(p["lab"] + p["stored"] for p in state["players"])
    assert N.view(state, None)["supply"]["merchandise"] == MERCHANDISE - in_play - 1
    # the game's last turn ends (the events a Round 2 deck's last card leads to), nothing else moves a cube
    last = fold(N, [ev("TurnEnded", seat=0, discarded=["police-1", "snitch-1"]),
                    ev("GameEnded", winners=[1], money=[3, 3], reason="the Round 2 deck ran out")], state)
    held = state["warehouse"]["goods"] + (1 if mode == "advanced" else 0)  # basic: the cube went back
    assert N.view(last, None)["supply"]["merchandise"] == MERCHANDISE - in_play - held
    assert last["turn"]["confiscated"] == {"goods": 0, "money": 0}


# -- 4. the tokens (ruling A4) ---------------------------------------------------------------------------------
def selling_in_chicago(version: int, stored: int, rival_employees: int) -> dict:
    state = managing(1, seats=2, mode="advanced", front=["dealer-chicago-1"], stored=stored,
                     storage="storage-10-1")
    state = {**at(version, state), "tokens": CHICAGO}
    return {**state, "cities": {**state["cities"], "Chicago": [0, rival_employees]}}


def chicago_sale(state: dict) -> dict:
    return first(play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})[0], "Delivered")


def test_eight_or_more_counts_the_units_sold_after_tribute():
    # 9.3: «El ≥8 indica que si vendes igual o más de 8 cargas de droga de una sola vez en esa ciudad, cobras 2
    # millones extra»; 9.1's Chicago example calls sold only what is left after tribute: «si el jugador 1 tenía 9
    # unidades de droga, habrá distribuido 3 a otros jugadores y sólo le quedarán 6 por cobrar»
    sale = chicago_sale(selling_in_chicago(2, stored=9, rival_employees=2))
    assert sale["units"] == 9 and sale["paid"] == 7 and sale["bonus"] == 0
    sale = chicago_sale(selling_in_chicago(2, stored=10, rival_employees=2))
    assert sale["paid"] == 8 and sale["bonus"] == 2


def test_version_1_counts_eight_or_more_before_tribute():
    sale = chicago_sale(selling_in_chicago(1, stored=9, rival_employees=2))
    assert sale["paid"] == 7 and sale["bonus"] == 2


def selling_in_los_angeles(version: int, transport: str) -> dict:
    state = managing(1, mode="advanced", front=["dealer-losangeles-1"], stored=4, transport=transport)
    return {**at(version, state), "tokens": CHICAGO}


@pytest.mark.parametrize("version, transport, bonus", [(2, "aircraft-1", 0), (2, "plane-1", 3),
                                                        (1, "aircraft-1", 3), (1, "plane-1", 3)])
def test_the_plane_token_pays_a_plane_not_a_light_aircraft(version, transport, bonus):
    # 9.3: «el del avión ofrece +3 millones por lo mismo» (selling «usando ese tipo de transporte»); the rulebook
    # names the light aircraft apart: «la de avioneta movería 9 unidades en una acción» (6.2 Transport)
    state = selling_in_los_angeles(version, transport)
    events, _ = play(state, 0, {"type": "Deliver", "dealer": "dealer-losangeles-1", "workers": 0})
    assert first(events, "Delivered")["bonus"] == bonus


# -- 3. «en cualquier momento» (rulings C1, M8) -------------------------------------------------------------------
def looking_at_a_peeked_card(version: int) -> dict:
    state = at(version, table(["snitch-1", "police-1"], hands=[["laundering-1", "recruit-1"], []]))
    _, state = draws(state, 1)
    return play(state, 0, {"type": "Peek"})[1]


def paying_a_police(version: int) -> dict:
    """Seat 0's Police at 2 sirens, its Laboratory and Storage both holding merchandise: it must say which pays."""
    state = at(version, table(["police-1", "snitch-1"], hands=[["laundering-1"], []]))
    state = with_player(state, 0, lab=2, stored=2)
    _, state = draws(state, 2)
    assert state["turn"]["owed"] == ["police-1"]
    return state


ANY_MOMENT = [{"type": "PlayCartel", "card": "laundering-1", "target": -1}, {"type": "ConvertWorker"}]


def test_any_moment_abilities_while_a_peeked_card_or_a_police_payment_awaits():
    # 7: «La carta de habilidad se puede usar en cualquier momento si la habilidad indicada lo permite (aun cuando no
    # sea tu turno)»; 8: «Convierte un trabajador en Sicario pagándole 2 millones en cualquier momento»
    looking = looking_at_a_peeked_card(2)
    assert all(m in legal(looking, 0) for m in ANY_MOMENT)
    assert {"type": "PlayCartel", "card": "recruit-1", "target": -1} in legal(looking, 0)
    events, after = play(looking, 0, {"type": "ConvertWorker"})
    assert types(events) == ["WorkerConverted"] and after["turn"]["peeked"] == "police-1"
    assert after["players"][0]["sicarios"] == 3 and legal(after, 0)[:2] == [{"type": "PlaceCard"},
                                                                             {"type": "DeclineCard"}]
    paying = paying_a_police(2)
    assert all(m in legal(paying, 0) for m in ANY_MOMENT)
    events, after = play(paying, 0, ANY_MOMENT[0])
    assert after["players"][0]["money"] == 5 and after["turn"]["owed"] == ["police-1"]
    assert N.timeout_default(after, 0) == {"type": "PayPolice", "source": "laboratory"}


def test_version_1_keeps_any_moment_abilities_out_of_a_peek_and_a_payment():
    for state in (looking_at_a_peeked_card(1), paying_a_police(1)):
        assert not any(m in legal(state, 0) for m in ANY_MOMENT)
        refused(state, 0, {"type": "ConvertWorker"})


# -- 6. what a search bot may sample (search.py), every version -------------------------------------------------
WORLDS = 40


def hidden_cartel(world: dict, seat: int) -> list[str]:
    """The Cartel cards a determinization put where `seat` cannot see: the deck, the others' hands and backs."""
    others = [p for s, p in enumerate(world["players"]) if s != seat]
    return world["cartel_deck"] + [c for p in others for c in p["hand"] + p.get("spent", [])]


def test_a_basic_world_deals_no_rob_the_police_warehouse():
    # 4: «algunas cartas de este mazo —roba el almacén— sólo se utilizan en el modo avanzado» (ruling S2)
    state = table(["storage-8-1"], seats=3, hands=[["tip-off-1"], ["lawyer-1"], ["recruit-1"]])
    for n in range(WORLDS):
        world = N.determinize(state, 0, Rng("worlds", n))
        assert not any(c.startswith("rob-warehouse") for c in hidden_cartel(world, 0))
        assert sorted(hidden_cartel(world, 0)) == sorted(hidden_cartel(state, 0))  # the same cards, resampled


def test_a_world_keeps_the_cards_the_seat_spent_face_down_out_of_the_others_hands():
    # 7: «por el dorso siempre hay un icono de acción» -- which card lies face down its owner knows
    state = table(["storage-8-1"], hands=[["tip-off-1", "lawyer-1"], ["recruit-1"]])
    _, state = draws(state, 1)
    _, state = plays(state, 0, {"type": "Stop"}, {"type": "SpendCartel", "card": "tip-off-1"})
    for n in range(WORLDS):
        world = N.determinize(state, 0, Rng("worlds", n))
        assert "tip-off-1" not in hidden_cartel(world, 0) and world["players"][0]["spent"] == ["tip-off-1"]
        # seat 1 does not know which card it was: its worlds deal seat 0's face-down card from the unseen ones
        other = N.determinize(state, 1, Rng("worlds", n))
        assert len(other["players"][0]["spent"]) == 1 and "recruit-1" not in hidden_cartel(other, 1)
    assert state["players"][0]["spent"] == ["tip-off-1"] and state["players"][0]["backs"] == 1
    assert {tuple(N.determinize(state, 1, Rng("worlds", n))["players"][0]["spent"]) for n in range(WORLDS)} != \
        {("tip-off-1",)}


def test_a_world_keeps_the_card_the_seat_looked_at_and_left_on_the_deck():
    # 6.1 Snitch: «permite mirar en privado la siguiente carta del mazo para decidir si quieres colocarla en la mesa
    # o no» (ruling D8: a declined card stays on top of the deck until it is turned)
    state = table(["snitch-1", "police-1"])
    _, state = draws(state, 1)
    _, state = plays(state, 0, {"type": "Peek"}, {"type": "DeclineCard"})
    assert state["deck"][0] == "police-1"
    assert all(N.determinize(state, 0, Rng("worlds", n))["deck"][0] == "police-1" for n in range(WORLDS))
    assert state["declined"] == {"seat": 0, "card": "police-1"}
    tops = {N.determinize(state, 1, Rng("worlds", n))["deck"][0] for n in range(WORLDS)}
    for n in range(WORLDS):
        world = N.determinize(state, 0, Rng("worlds", n))
        assert world["deck"][0] == "police-1" and world["declined"] == state["declined"]
        other = N.determinize(state, 1, Rng("worlds", n))
        assert other["declined"] == {"seat": 0, "card": other["deck"][0]}  # consistent, whatever it is
    assert len(tops) > 1  # seat 1 never saw it
    # once the card is turned, nobody knows the top any more
    _, turned = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})
    _, turned = play(turned, 1, {"type": "Draw"})
    assert turned["seen"][-1] == "police-1" and turned["declined"] is None
