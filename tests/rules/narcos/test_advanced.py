"""Narcos 9 Advanced mode: the board's cities, employees' majorities and tribute, tokens, the Police Warehouse."""
from __future__ import annotations

from rules.base import fold
from rules.narcos.data import CITIES
from tests.rules.narcos.support import ANY_RNG, N, draws, first, managing, play, plays, refused, table, with_player

TOKENS = {"Miami": "-2", "Chicago": ">=8", "New York": "speedboat", "Los Angeles": "plane"}


def cities(state, **counts):
    return {**state, "cities": {c: counts.get(c.replace(" ", "_"), state["cities"][c]) for c in CITIES}}


def test_tribute_to_every_rival_with_more_employees_the_chicago_example():
    # 9.1: "En Chicago hay 2 verdes y uno amarillo. El jugador 1 (rojo) no tiene nadie ... tendrá que pasar 2 unidades
    # de droga al jugador verde y una al jugador amarillo ... si el jugador 1 tenía 9 unidades de droga ... sólo le
    # quedarán 6 por cobrar (6 millones de dólares)"
    state = managing(1, seats=4, mode="advanced", front=["dealer-chicago-1"], stored=9)
    state = {**state, "tokens": {**TOKENS, "Chicago": "plane"}}
    state = cities(state, Chicago=[0, 2, 1, 0])
    events, state = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 1})
    sale = first(events, "Delivered")
    assert sale["tribute"] == [{"seat": 1, "units": 2, "kept": 2}, {"seat": 2, "units": 1, "kept": 1}]
    assert sale["paid"] == 6 and sale["bonus"] == 1  # +1 million for the employee sent
    assert state["players"][1]["stored"] == 2 and state["players"][2]["stored"] == 1
    # "A partir de ese momento sólo el jugador verde tendrá mayoría respecto al jugador 1"
    assert state["cities"]["Chicago"] == [1, 2, 1, 0] and state["players"][0]["workers"] == 4


def test_tribute_beyond_a_rivals_storage_is_lost():
    # rules-gaps 5.12 "what happens when majority tribute exceeds the receivers' Storage" (ruling: the surplus is lost)
    state = managing(1, seats=2, mode="advanced", front=["dealer-chicago-1"], stored=5)
    state = with_player(cities(state, Chicago=[0, 3]), 1, stored=5)
    events, _ = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    assert first(events, "Delivered")["tribute"] == [{"seat": 1, "units": 3, "kept": 1}]
    assert first(events, "Delivered")["paid"] == 2


def test_employees_go_to_cities_only_in_advanced_mode():
    # 9: "Cada vez que realices una venta, podrás enviar a uno de tus empleados a la ciudad" (advanced mode)
    state = managing(1, front=["dealer-chicago-1"], stored=3)
    refused(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 1}, rule="9.1")


def test_minus_two_city_is_always_open_even_with_dealers_on_the_table():
    # 9.3: "El «-2» indica que siempre puedes vender en esta ciudad aunque no haya traficantes de la misma sobre la
    # mesa, con una penalización de -2 mercancías"
    state = managing(1, mode="advanced", front=["dealer-chicago-1"], stored=5)
    state = {**state, "tokens": TOKENS}
    events, _ = play(state, 0, {"type": "SellFallback", "workers": 0})
    sale = first(events, "Delivered")
    assert sale["city"] == "Miami" and sale["paid"] == 3


def test_tokens_pay_for_a_speedboat_and_for_eight_or_more():
    # 9.3: "El token de la lancha indica que ganarás 2 millones extra si vendes en esa ciudad usando ese tipo de
    # transporte"; "El ≥8 indica que si vendes igual o más de 8 cargas ... cobras 2 millones extra"
    state = managing(2, mode="advanced", front=["dealer-newyork-1", "dealer-chicago-1"], stored=8,
                     transport="speedboat-1", storage="storage-8-1")
    state = {**state, "tokens": TOKENS}
    events, _ = play(state, 0, {"type": "Deliver", "dealer": "dealer-newyork-1", "workers": 0})
    assert first(events, "Delivered")["bonus"] == 2
    events, _ = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    assert first(events, "Delivered")["bonus"] == 2 and first(events, "Delivered")["paid"] == 8


def test_police_confiscations_go_to_the_warehouse_and_can_be_robbed():
    # 6.1 Police: "cuando termine la fase de juego, envíalo al almacén policial (avanzado)"; 9.2: "Si tienes la carta
    # de Cártel que planifica el robo y los sicarios necesarios, podrás robar en el Almacén y llevarte la mercancía
    # a tu Laboratorio"
    state = table(["police-1", "snitch-1"], mode="advanced", hands=[["rob-warehouse-1"], []])
    _, state = draws(state, 2)
    _, state = plays(state, 0, {"type": "Stop"}, {"type": "EndActions"}, {"type": "CollectSales"},
                     {"type": "PassImprovement"})
    assert state["warehouse"] == {"goods": 1, "money": 0}
    state = fold(N, [], state)
    state = {**state, "turn": {**state["turn"], "seat": 0, "phase": "manage", "actions": 1}}
    events, state = play(state, 0, {"type": "PlayCartel", "card": "rob-warehouse-1", "target": -1})
    assert state["warehouse"] == {"goods": 0, "money": 0} and state["players"][0]["lab"] == 1
    assert state["players"][0]["sicarios"] == 0 and ANY_RNG


def test_rob_the_warehouse_is_not_in_the_basic_deck():
    # 4: "(algunas cartas de este mazo —roba el almacén— sólo se utilizan en el modo avanzado)"
    events = N.setup({"mode": "basic"}, 2, ANY_RNG)
    order = next(e for e in events if e.type == "CartelShuffled").data["secret"]["order"]
    assert len(order) == 18 and not any(c.startswith("rob-warehouse") for c in order)
