"""Narcos 6.2 Phase 2, Network Management: production, transport, storage, Dealers and sales, extra actions."""
from __future__ import annotations

from tests.rules.narcos.support import (
    draws,
    first,
    legal,
    managing,
    play,
    plays,
    refused,
    table,
    types,
    with_player,
)


def test_laboratory_produces_by_its_table_and_the_crops():
    # 6.2 Laboratory: "el indicador 1cultivo=1 significa que 1 cultivo produce 1 mercancía por cada acción ...
    # Si en cambio tuvieras 2 cultivos ... la relación 2=2" / "1 crop = 1 ... 2 crops ... 2 = 2"
    state = managing(2)
    events, state = play(state, 0, {"type": "Produce"})
    assert first(events, "Produced") == {"seat": 0, "units": 1, "cost": 1} and state["players"][0]["lab"] == 2
    state = with_player(state, 0, crops=2)
    _, state = play(state, 0, {"type": "Produce"})
    assert state["players"][0]["lab"] == 4 and state["turn"]["actions"] == 0


def test_an_improved_laboratory_makes_three_with_two_crops():
    # 6.2 Laboratory: "Un laboratorio mejorado te indicaría en la tabla la relación 2=3" / "might show 2 = 3"
    state = managing(1, laboratory="lab-kitchen", crops=2)
    events, _ = play(state, 0, {"type": "Produce"})
    assert first(events, "Produced")["units"] == 3


def test_truck_moves_three_per_action_up_to_the_storage():
    # 6.2 Transport: "la carta de camión puede mover 3 mercancías del laboratorio al almacén en una acción";
    # Storage: "Nunca puedes tener en la carta más mercancías de lo indicado" / "never more than it shows"
    state = managing(3, lab=8, stored=1)
    events, state = play(state, 0, {"type": "Ship"})
    assert first(events, "Shipped")["units"] == 3 and state["players"][0]["stored"] == 4
    events, state = play(state, 0, {"type": "Ship"})
    assert first(events, "Shipped")["units"] == 2 and state["players"][0]["stored"] == 6  # the safe house holds 6
    refused(state, 0, {"type": "Ship"}, rule="6.2 Storage")
    assert {"type": "Ship"} not in legal(state, 0)


def test_mid_phase_delivery_costs_an_action_and_empties_the_storage():
    # 6.2 Dealers: "si quieres vaciar un almacén ... puedes moverla a un traficante durante la fase de acciones
    # gastando una acción" / "by spending one action"
    state = managing(2, front=["dealer-chicago-1", "dealer-chicago-2"], stored=5)
    events, state = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    sale = first(events, "Delivered")
    assert sale["cost"] == 1 and sale["paid"] == 5 and state["turn"]["actions"] == 1
    assert state["players"][0]["stored"] == 0 and state["players"][0]["uncollected"] == 5


def test_free_delivery_when_actions_are_done_then_sales_are_collected_at_a_million_a_unit():
    # 6.2: "Al terminar tu fase de acciones puedes mover toda la mercancía de un almacén a un traficante sin coste";
    # "Ganarás 1 millón por cada mercancía colocada a un traficante" / "1 million for each merchandise"
    state = managing(0, front=["dealer-chicago-1"], stored=4)
    _, state = play(state, 0, {"type": "EndActions"})
    events, state = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    assert first(events, "Delivered")["cost"] == 0
    assert [m["type"] for m in legal(state, 0)] == ["CollectSales", "ConvertWorker"]  # one free delivery
    events, state = play(state, 0, {"type": "CollectSales"})
    assert first(events, "SalesCollected") == {"seat": 0, "amount": 4} and state["players"][0]["money"] == 7


def test_one_sale_per_dealer():
    # 6.2: "Las ventas se producen de una en una ... necesitarás otro traficante disponible" / "you need another
    # available Dealer"
    state = managing(3, front=["dealer-chicago-1"], stored=4)
    _, state = play(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    state = with_player(state, 0, stored=2)
    refused(state, 0, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0}, rule="6.2 Dealers")


def test_fallback_dealer_pays_all_but_two_only_when_no_dealer_is_free():
    # 6.2: "Si en tu turno no hay traficantes disponibles, puedes vender la mercancía al traficante que quedó fijado
    # ... con una penalización de -2. Retira tu mercancía del juego directamente y cóbrala toda menos 2 unidades"
    with_dealer = managing(1, front=["dealer-chicago-1"], stored=5)
    refused(with_dealer, 0, {"type": "SellFallback", "workers": 0}, rule="6.2 Dealers")
    state = managing(1, stored=5)
    events, state = play(state, 0, {"type": "SellFallback", "workers": 0})
    sale = first(events, "Delivered")
    assert sale["dealer"] is None and sale["city"] == "Miami" and sale["paid"] == 3
    refused(with_player(state, 0, stored=3), 0, {"type": "SellFallback", "workers": 0})  # once a turn


def test_leftover_dealers_are_used_by_the_others_in_turn_order():
    # 6.2: "cuando un jugador termina la fase de gestión, si quedan traficantes disponibles, otros jugadores pueden
    # enviar mercancía desde sus almacenes a éstos traficantes, en orden de turno"
    state = managing(0, seats=3, front=["dealer-chicago-1"])
    state = with_player(with_player(state, 1, stored=3), 2, stored=6)
    events, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    assert types(events)[-1] == "ManagementEnded" and state["turn"]["queue"] == [1, 2]
    refused(state, 2, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    events, state = play(state, 1, {"type": "Deliver", "dealer": "dealer-chicago-1", "workers": 0})
    assert first(events, "SalesCollected") == {"seat": 1, "amount": 3}
    assert "SalesClosed" in types(events) and state["turn"]["phase"] == "improve"  # no Dealer left for seat 2


def test_workers_and_cartel_backs_give_extra_actions_beyond_the_cards():
    # 6.2 "Acciones adicionales": "utilizando cartas de Cártel por el dorso ... realizarás una acción en tu red.
    # También puedes gastar Trabajadores" / "Cartel cards by their back ... spend Workers"
    state = table(["storage-8-1"], hands=[["tip-off-1"], []])
    _, state = draws(state, 1)
    _, state = play(state, 0, {"type": "Stop"})
    events, state = plays(state, 0, {"type": "SpendWorker"}, {"type": "SpendCartel", "card": "tip-off-1"})
    assert state["turn"]["actions"] == 3 and state["players"][0]["workers"] == 4 and state["players"][0]["hand"] == []
    assert events[1].data == {"seat": 0, "secret": {"card": "tip-off-1"}}


def test_cartel_backs_are_usable_even_after_fleeing():
    # 7: "Siempre puedes gastar las cartas para realizar acciones adicionales ... incluso cuando hayas “perdido”
    # sacando 3 sirenas" / "even when you have lost by turning 3 sirens"
    state = table(["snitch-1", "snitch-2", "snitch-3"], hands=[["lawyer-1"], []])
    _, state = draws(state, 3)
    assert state["turn"]["bust"] and {"type": "SpendCartel", "card": "lawyer-1"} in legal(state, 0)


def test_a_worker_becomes_a_sicario_for_two_million():
    # 8: "Convierte un trabajador en Sicario pagándole 2 millones en cualquier momento"
    state = table(seats=2)
    events, state = play(state, 0, {"type": "ConvertWorker"})
    p = state["players"][0]
    assert (p["workers"], p["money"], p["sicarios"], state["supply"]) == (4, 1, 3, 3)
    full = {**state, "supply": 0}
    refused(full, 0, {"type": "ConvertWorker"}, rule="8")  # only 8 sicario meeples
