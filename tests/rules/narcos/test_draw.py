"""Narcos 6.1 Phase 1, Actions: turning cards one by one, dangers, Plata o plomo, Snitch, Press, DEA, advantages."""
from __future__ import annotations

from tests.rules.narcos.support import (
    N,
    draws,
    first,
    legal,
    play,
    plays,
    refused,
    table,
    types,
    with_player,
)


def paid(events) -> list[tuple]:
    """Each DangerPaid: (card, where it was paid from)."""
    return [(e.data["card"], e.data["paid"]) for e in events if e.type == "DangerPaid"]


def test_one_action_per_card_turned_when_you_stop():
    # 6.1: "a razón de tantas acciones como cartas hayas levantado. Así, si te plantaste con 4 cartas
    # sobre la mesa, realizarás 4 acciones" / "one action per card turned over ... 4 cards ... 4 actions"
    state = table(["storage-8-1", "dealer-chicago-1", "snitch-1", "speedboat-1"])
    _, state = draws(state, 3)
    _, state = play(state, 0, {"type": "Peek"})
    _, state = play(state, 0, {"type": "PlaceCard"})
    events, state = play(state, 0, {"type": "Stop"})
    assert first(events, "DrawEnded")["actions"] == 4 and state["turn"]["phase"] == "manage"


def test_at_least_one_card_must_be_turned():
    # 6.1 DEA: "no eximen al jugador de levantar al menos una carta" / "do not exempt ... at least one card"
    state = table()
    refused(state, 0, {"type": "Stop"}, rule="6.1 DEA")
    assert {"type": "Stop"} not in legal(state, 0)


def test_third_siren_flees_with_one_action_and_no_advantage():
    # 6.1: "Si llegas a levantar 3 sirenas, tendrás que huir y sólo podrás realizar una acción" and
    # "Si excedes el nivel de peligro ... no obtendrás ninguna ventaja" / "flee ... only one action"; "no advantage"
    state = table(["dealer-chicago-1", "dealer-chicago-2", "storage-8-1", "snitch-1", "snitch-2", "snitch-3"])
    events, state = draws(state, 6)
    ended = first(events, "DrawEnded")
    assert ended["bust"] and ended["actions"] == 1 and ended["bonus"] is None
    assert "CartelDealt" not in types(events) and state["turn"]["actions"] == 1


def test_third_siren_cannot_be_eliminated():
    # 6.1 (**): "En el instante en que aparezca una tercera sirena, pierdes; no tendrás oportunidad de eliminar
    # esa tercera carta" / "no chance to eliminate that third danger card"
    state = table(["snitch-1", "snitch-2", "police-1"])
    events, state = draws(state, 3)
    assert first(events, "DrawEnded")["bust"] and {"type": "Eliminate"} not in legal(state, 0)


def test_police_at_two_sirens_confiscates_a_shipment_from_the_laboratory():
    # 6.1 Police: "en cuanto éste aumente (cuando aparezcan 2 sirenas) te requisará 1 cargamento de droga*
    # (o 1 millón de dólares si no tienes mercancía) cada policía" / "each Police card confiscates 1 drug shipment"
    state = table(["police-1", "storage-8-1", "snitch-1"])
    events, state = draws(state, 3)
    assert first(events, "DangersActivated")["owed"] == ["police-1"]
    assert paid(events) == [("police-1", "laboratory")]  # only the Laboratory holds merchandise: no choice
    assert state["players"][0]["lab"] == 0 and state["players"][0]["money"] == 3


def test_police_takes_a_million_when_there_is_no_merchandise():
    # 6.1 Police: "(o 1 millón de dólares si no tienes mercancía)" / "or 1 million dollars if you have no merchandise"
    state = with_player(table(["police-1", "snitch-1"]), 0, lab=0)
    events, state = draws(state, 2)
    assert paid(events) == [("police-1", "money")] and state["players"][0]["money"] == 2


def test_one_police_alone_is_evaded():
    # 6.1 Police: "Podrás esquivar un policía si es el único peligro en la mesa" / "evade a Police card if it is
    # the only danger"
    state = table(["police-1", "storage-8-1"])
    events, state = draws(state, 2)
    assert "DangersActivated" not in types(events) and state["players"][0]["lab"] == 1


def test_unpaid_police_does_not_count_and_drawing_stops():
    # 6.1 Plata o plomo: "Si no les puedes pagar, NO contarás esas carta para tus acciones y NO podrás seguir
    # levantando nuevas cartas" / "you do NOT count those cards ... and you can NOT continue turning"
    state = with_player(table(["storage-8-1", "police-1", "snitch-1"]), 0, lab=0, money=0)
    events, state = draws(state, 3)
    assert paid(events) == [("police-1", None)]
    ended = first(events, "DrawEnded")
    assert ended["reason"] == "unpaid" and ended["actions"] == 2  # the Storage and the Snitch


def test_paid_police_counts_as_an_action():
    # 6.1 Plata o plomo: "Si les has pagado podrás contarlos como acción" / "If you have paid them, you may count them"
    state = table(["storage-8-1", "police-1", "snitch-1"])
    _, state = draws(state, 3)
    events, state = play(state, 0, {"type": "Stop"})
    assert first(events, "DrawEnded")["actions"] == 3


def test_police_eliminated_at_the_instant_it_appears_with_one_sicario():
    # 6.1 Plata o plomo: "Puedes ELIMINAR la carta de policía enviando 1 sicario ... en el instante en que
    # aparecen. En este caso elimina el sicario y la carta, que no cuenta ya como acciones"
    state = table(["snitch-1", "police-1", "storage-8-1"])
    _, state = draws(state, 2)
    events, state = play(state, 0, {"type": "Eliminate"})
    assert first(events, "DangerEliminated") == {"seat": 0, "card": "police-1", "sicarios": 1, "by": "sicarios"}
    assert state["players"][0]["sicarios"] == 1 and state["supply"] == 5
    events, state = plays(state, 0, {"type": "Draw"}, {"type": "Stop"})
    assert "DangersActivated" not in types(events)  # eliminated: no longer a siren (ruling)
    assert first(events, "DrawEnded")["actions"] == 2


def test_a_danger_cannot_be_eliminated_once_more_cards_came_out():
    # 6.1 example: "no podemos eliminarlo con los sicarios porque ya han salido más cartas" / "more cards have
    # already come out since it appeared"
    state = table(["police-1", "storage-8-1"])
    _, state = draws(state, 2)
    refused(state, 0, {"type": "Eliminate"}, rule="6.1 Plata o plomo")


def test_military_costs_a_million_each_and_two_sicarios_to_eliminate():
    # 6.1 Military: "te requisará 1 millón de dólares cada militar"; "la de militar enviando 2 sicarios"
    state = table(["snitch-1", "military-1"])
    state = {**state, "deck": ["snitch-1", "military-1", "storage-8-1"]}
    _, state = draws(state, 2)
    assert {"type": "Eliminate"} in legal(state, 0)
    poorer = with_player(state, 0, sicarios=1)
    refused(poorer, 0, {"type": "Eliminate"}, match="2 sicario")
    events, state = play(state, 0, {"type": "Stop"})
    assert paid(events) == [("military-1", "money")]
    assert state["players"][0]["money"] == 2


def test_press_forces_another_card_unless_eliminated():
    # 6.1 Press: "te obliga a levantar una nueva carta, quieras o no, salvo que elimines la prensa con 1 sicario"
    state = table(["press-1", "storage-8-1"])
    _, state = draws(state, 1)
    refused(state, 0, {"type": "Stop"}, rule="6.1 Press")
    _, eliminated = play(state, 0, {"type": "Eliminate"})
    events, _ = play(eliminated, 0, {"type": "Stop"})  # a card was turned; the eliminated one is no action
    assert first(events, "DrawEnded")["actions"] == 0
    _, state = draws(state, 1)
    assert {"type": "Stop"} in legal(state, 0)


def test_seven_cards_end_the_phase():
    # 6.1: "Dejarás de levantar cartas cuando: Se acumulen 7 cartas en la mesa" / "7 cards are on the table"
    front = ["storage-8-1", "storage-8-2", "storage-8-3", "dealer-chicago-1", "dealer-chicago-2", "speedboat-1",
             "snitch-1", "storage-10-1"]
    state = table(front)
    events, state = draws(state, 7)
    assert first(events, "DrawEnded")["reason"] == "seven cards" and state["turn"]["actions"] == 7


def test_press_as_seventh_card_forces_an_eighth_that_counts_only_if_a_siren():
    # 6.1 (*): "Si la séptima carta fuera una carta de prensa ... obligatoriamente se levantará una carta adicional
    # que sólo contará si es una carta del bando legal; de otro modo será eliminada"
    six = ["storage-8-1", "storage-8-2", "storage-8-3", "dealer-chicago-1", "dealer-chicago-2", "speedboat-1"]
    state = table(six + ["press-1", "storage-10-1"])
    events, after = draws(state, 8)
    ended = first(events, "DrawEnded")
    assert ended["reason"] == "seven cards" and ended["actions"] == 7
    assert after["turn"]["table"][-1] == {"card": "storage-10-1", "status": "removed"}
    state = table(six + ["press-1", "snitch-1"])
    events, after = draws(state, 8)
    assert after["turn"]["table"][-1]["status"] == "on" and first(events, "DrawEnded")["actions"] == 7
    assert first(events, "DangersActivated")  # the eighth, a siren, counts: 2 sirens


def test_snitch_lets_the_seat_look_privately_and_declining_ends_drawing_leaving_the_card_on_top():
    # 6.1 Snitch: "permite mirar en privado la siguiente carta del mazo para decidir si quieres colocarla en la
    # mesa o no" / "look privately at the next card ... decide whether or not to place it" (ruling: declining ends)
    state = table(["snitch-1", "police-1"])
    _, state = draws(state, 1)
    events, state = play(state, 0, {"type": "Peek"})
    assert events[0].data == {"seat": 0, "secret": {"card": "police-1"}} and N.visible_to(events[0]) == {0}
    assert N.view(state, 0)["turn"]["peeked"] == "police-1" and "peeked" not in N.view(state, 1)["turn"]
    assert legal(state, 0) == [{"type": "PlaceCard"}, {"type": "DeclineCard"}]
    events, state = play(state, 0, {"type": "DeclineCard"})
    assert first(events, "DrawEnded")["reason"] == "declined" and state["deck"][0] == "police-1"


def test_three_guns_give_a_cartel_card_four_a_choice():
    # 6.1: "Si acumulas 3 pistolas en la mesa consigues 1 carta de Cartel"; "Si acumulas 4 pistolas ... elige entre
    # conseguir 1 sicario o 2 cartas de Cartel"
    state = table(["storage-8-1", "storage-8-2", "storage-8-3", "storage-10-1"], cartel=["lawyer-1", "tip-off-1"])
    _, three = draws(state, 3)
    events, three = play(three, 0, {"type": "Stop"})
    assert first(events, "CartelDealt") == {"seat": 0, "count": 1, "secret": {"cards": ["lawyer-1"]}}
    _, four = draws(state, 4)
    events, four = play(four, 0, {"type": "Stop"})
    assert four["turn"]["phase"] == "bonus"
    assert sorted(m["choice"] for m in legal(four, 0) if m["type"] == "ChooseBonus") == ["cartel", "sicario"]
    events, after = play(four, 0, {"type": "ChooseBonus", "choice": "cartel"})
    assert after["players"][0]["hand"] == ["lawyer-1", "tip-off-1"]
    _, after = play(four, 0, {"type": "ChooseBonus", "choice": "sicario"})
    assert after["players"][0]["sicarios"] == 3


def test_dea_action_agent_follows_five_actions_and_adds_a_siren_and_an_action_next_turn():
    # 6.1 DEA: "si un jugador llega a realizar 5 o más acciones, se dará cuenta ... de forma que en su siguiente
    # turno empezará con 1 sirena de peligro antes de levantar cartas. El agente se irá tras dicho turno"
    state = table(["dea-actions", "storage-8-1"])
    events, state = plays(state, 0, {"type": "Draw"}, {"type": "Draw"}, {"type": "Stop"})
    assert first(events, "DeaAgentMoved") == {"agent": "actions", "seat": None} and state["dea"]["actions"] == "watching"
    state = {**state, "turn": {**state["turn"], "actions": 5}}
    for _ in range(5):
        _, state = play(state, 0, {"type": "Produce"})
    events, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    assert first(events, "DeaAgentMoved") == {"agent": "actions", "seat": 0}


def test_a_dea_agent_counts_as_a_siren_and_an_action_and_leaves_after_the_turn():
    # 6.1 DEA: "Tener agentes de la DEA añade peligro y cuenta como acciones" / "add danger and count as actions"
    state = table(["storage-8-1", "snitch-1", "snitch-2"])
    state = {**state, "dea": {"actions": 0, "money": None}}
    state = {**state, "turn": {**state["turn"], "dea": 1, "agents": ["actions"]}}
    events, state = draws(state, 2)
    assert first(events, "DangersActivated")  # DEA + Snitch = 2 sirens
    events, state = play(state, 0, {"type": "Stop"})
    assert first(events, "DrawEnded")["actions"] == 3
    events, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})
    _, state = play(state, 1, {"type": "PassBuy"})  # seat 1 may still buy the Storage left on the rack
    assert state["dea"]["actions"] == "watching" and state["turn"]["agents"] == []


def test_dea_money_agent_goes_to_the_richest():
    # 6.1 DEA: "se irá automáticamente al jugador que tenga más dinero ... salvo que otro jugador acumule después
    # más dinero" / "goes automatically to the player with the most money"
    state = with_player(table(["dea-money", "storage-8-1"]), 1, money=9)
    events, state = plays(state, 0, {"type": "Draw"}, {"type": "Stop"})
    assert first(events, "DeaAgentMoved") == {"agent": "money", "seat": 1}
    state = with_player(state, 0, money=20)
    events, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})
    assert first(events, "DeaAgentMoved") == {"agent": "money", "seat": 0}
    assert events[-1].type == "TurnStarted" and events[-1].data == {"seat": 1, "agents": []}


def test_the_seat_chooses_to_pay_a_police_from_the_storage_or_the_laboratory():
    # 6.1 Plata o plomo: "* el jugador puede pagar con droga de cualquier posición de su red, sea del almacén o del
    # laboratorio" / "may pay with drugs from any position in their network, whether the Storage or the Laboratory"
    state = with_player(table(["storage-8-1", "police-1", "snitch-1"]), 0, lab=1, stored=2)
    events, state = draws(state, 3)
    assert "DangerPaid" not in types(events) and state["turn"]["owed"] == ["police-1"]
    assert legal(state, 0) == [{"type": "PayPolice", "source": "laboratory"}, {"type": "PayPolice", "source": "storage"}]
    assert N.awaiting(state) == {0: "move"}
    refused(state, 0, {"type": "Stop"}, rule="6.1 Plata o plomo", match="PayPolice")
    events, state = play(state, 0, {"type": "PayPolice", "source": "storage"})
    assert first(events, "DangerPaid") == {"seat": 0, "card": "police-1", "paid": "storage", "chosen": True}
    p = state["players"][0]
    assert (p["lab"], p["stored"], p["money"]) == (1, 1, 3) and state["turn"]["confiscated"]["goods"] == 1
    assert {"type": "Stop"} in legal(state, 0) and state["turn"]["owed"] == []


def test_money_pays_a_police_only_when_the_seat_has_no_merchandise():
    # 6.1 Police: "(o 1 millón de dólares si no tienes mercancía)" / "or 1 million dollars if you have no merchandise"
    state = with_player(table(["storage-8-1", "police-1", "snitch-1"]), 0, lab=1, stored=2)
    _, state = draws(state, 3)
    refused(state, 0, {"type": "PayPolice", "source": "money"}, rule="6.1 Plata o plomo", match="money only")
    assert {"type": "PayPolice", "source": "money"} not in legal(state, 0)


def test_the_payment_a_fresh_police_raises_is_asked_before_the_next_card():
    # 6.1 Plata o plomo: "en cuanto éste aumente (cuando aparezcan 2 sirenas)" -- the seat may first eliminate the
    # card "en el instante en que aparecen"; moving on activates the danger, and the seat says how it pays
    state = with_player(table(["snitch-1", "police-1", "storage-8-1"]), 0, stored=3)
    _, state = draws(state, 2)
    assert {"type": "Eliminate"} in legal(state, 0)
    events, state = play(state, 0, {"type": "Draw"})
    assert types(events) == ["DangersActivated"] and state["deck"][0] == "storage-8-1"  # no card turned yet
    assert N.timeout_default(state, 0) == {"type": "PayPolice", "source": "laboratory"}  # the clock's default
    _, state = play(state, 0, {"type": "PayPolice", "source": "laboratory"})
    events, state = play(state, 0, {"type": "Draw"})
    assert first(events, "CardDrawn")["card"] == "storage-8-1"


def test_each_police_is_paid_in_rack_order_and_a_single_way_is_settled_by_itself():
    # 6.1 Police: "te requisará 1 cargamento de droga* ... cada policía" / "each Police card confiscates 1 shipment"
    state = with_player(table(["police-1", "storage-8-1", "police-2"]), 0, lab=1, stored=1)
    _, state = draws(state, 3)
    events, state = play(state, 0, {"type": "Stop"})
    assert types(events) == ["DangersActivated"] and state["turn"]["owed"] == ["police-1", "police-2"]
    events, state = play(state, 0, {"type": "PayPolice", "source": "laboratory"})
    assert paid(events) == [("police-1", "laboratory"), ("police-2", "storage")]  # the second had one way left
    assert first(events, "DangerPaid")["chosen"] and not events[1].data["chosen"]
    assert state["turn"]["phase"] == "draw" and {"type": "Stop"} in legal(state, 0)
    events, state = play(state, 0, {"type": "Stop"})
    assert first(events, "DrawEnded")["actions"] == 3
