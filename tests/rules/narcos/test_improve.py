"""Narcos 6.3 Phase 3, Improvements: one investment a turn; leftovers bought by others for 1 million more."""
from __future__ import annotations

from tests.rules.narcos.support import first, legal, managing, play, plays, refused, types


def improving(front, seats=2, **player):
    state = managing(0, seats=seats, front=front, **player)
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    return state


def test_buying_a_card_replaces_yours_and_keeps_the_merchandise():
    # 6.3: "Si compras una carta mejorada, sustituye tu carta original por la nueva, manteniendo la mercancía que
    # tuvieras en dicha carta" / "it replaces your original card, and you keep any merchandise"
    state = improving(["lab-kitchen"], money=5, lab=3)
    events, state = play(state, 0, {"type": "Buy", "card": "lab-kitchen"})
    bought = first(events, "CardBought")
    assert bought == {"seat": 0, "card": "lab-kitchen", "price": 2, "replaced": "start-laboratory", "out_of_turn": False}
    p = state["players"][0]
    assert p["laboratory"] == "lab-kitchen" and p["lab"] == 3 and p["money"] == 3
    assert "start-laboratory" not in state["discard"]  # a starting card leaves the game (ruling)


def test_only_one_investment_a_turn():
    # 6.3: "En cualquier caso sólo puedes hacer 1 inversión por turno" / "only 1 investment per turn"
    state = improving(["storage-8-1", "speedboat-1"], money=10)
    _, state = play(state, 0, {"type": "Buy", "card": "storage-8-1"})
    refused(state, 0, {"type": "Buy", "card": "speedboat-1"}, rule="6.3")
    refused(state, 0, {"type": "AddCrop"})


def test_a_crop_for_the_price_on_the_plantation():
    # 6.3: "Puedes mejorar tu carta de Plantaciones añadiendo 1 cultivo por el precio indicado en la carta"
    state = improving(["storage-8-1"], money=2)
    events, state = play(state, 0, {"type": "AddCrop"})
    assert first(events, "CropAdded")["price"] == 2 and state["players"][0]["crops"] == 2


def test_others_buy_leftovers_in_turn_order_for_a_million_more():
    # 6.3: "pueden comprarlas otros jugadores en orden de turno, pagando 1 millón extra por realizar la operación
    # fuera de su turno" / "in turn order, paying 1 million extra"
    state = improving(["speedboat-1", "storage-8-1"], seats=3)
    _, state = play(state, 0, {"type": "PassImprovement"})
    assert state["turn"]["queue"] == [1, 2]
    refused(state, 2, {"type": "Buy", "card": "speedboat-1"}, rule="6.3")
    events, state = play(state, 1, {"type": "Buy", "card": "speedboat-1"})
    assert first(events, "CardBought")["price"] == 3 and state["players"][1]["transport"] == "speedboat-1"
    assert {"type": "Buy", "card": "speedboat-1"} not in legal(state, 2)
    events, state = play(state, 2, {"type": "Buy", "card": "storage-8-1"})
    assert types(events)[1:3] == ["TurnEnded", "TurnStarted"] and state["turn"]["seat"] == 1
    assert "speedboat-1" not in state["discard"] and "storage-8-1" not in state["discard"]


def test_a_replaced_deck_card_goes_to_the_discard_pile():
    # 6.3: "retiras tu Laboratorio a la pila de descartes" / "put your old Laboratory on the discard pile"
    state = improving(["storage-10-1"], money=5, storage="storage-8-2")
    events, state = play(state, 0, {"type": "Buy", "card": "storage-10-1"})
    _, state = play(state, 1, {"type": "PassBuy"}) if state["turn"]["phase"] == "buys" else (None, state)
    assert "storage-8-2" in state["discard"]


def test_a_storage_too_small_for_your_merchandise_cannot_be_bought():
    # 6.2 Storage: "Nunca puedes tener en la carta más mercancías de lo indicado" (ruling: such a purchase is refused)
    state = improving(["storage-8-1"], money=5, storage="storage-10-2", stored=9)
    refused(state, 0, {"type": "Buy", "card": "storage-8-1"}, rule="6.3", match="cannot hold")
