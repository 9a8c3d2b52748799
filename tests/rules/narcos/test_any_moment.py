"""Issue 39, Narcos rules version 3: «en cualquier momento» where it changes what happens before the seat's
next decision (ruling C1): before an owed card goes unpaid the seat may still raise the money (the "unpaid"
window), and before the DEA agent of money follows the richest at a turn's end the seat whose turn comes next
may spend its way out of it (the "dea-money" window).  Version 2 games keep the old behaviour."""
from __future__ import annotations

from rules.base import Rng
from rules.narcos.flow import could_shed_agent
from tests.rules.narcos.support import N, draws, first, legal, managing, play, plays, refused, table, types, with_player
from tests.rules.narcos.test_round3 import at
from tests.rules.support import label_of

LAUNDERING = {"type": "PlayCartel", "card": "laundering-1", "target": -1}
PASS = {"type": "PassReaction"}


def test_new_games_are_played_under_version_3():
    assert [number for number, _ in N.versions] == [1, 2, 3] and N.version == 3
    assert N.setup({"mode": "basic"}, 2, Rng("v", 1))[0].data["rules_version"] == 3


# -- an owed card about to go unpaid ----------------------------------------------------------------------------------
def broke_at_two_sirens(version: int, hand: list[str]) -> tuple[list, dict]:
    """Seat 0, with no merchandise and no money, turns a Police then a Snitch: at 2 sirens the Police is owed and
    nothing can pay it."""
    state = at(version, table(["police-1", "snitch-1", "storage-8-1"], hands=[hand, []]))
    state = with_player(state, 0, lab=0, stored=0, money=0)
    return draws(state, 2)


def test_a_seat_that_could_raise_the_money_is_asked_before_its_police_goes_unpaid():
    # 7: «La carta de habilidad se puede usar en cualquier momento si la habilidad indicada lo permite (aun cuando no
    # sea tu turno), pagando el coste indicado»; 6.1: «Si no les puedes pagar, NO contarás esas carta para tus
    # acciones y NO podrás seguir levantando nuevas cartas» -- Money laundering (a worker for 2 million) played
    # before the payment is taken pays the Police: the card counts and drawing goes on
    events, state = broke_at_two_sirens(3, ["laundering-1"])
    asked = first(events, "ReactionAsked")
    assert asked == {"kind": "unpaid", "seat": 0, "attacker": -1, "card": "police-1"}
    assert "DangerPaid" not in types(events) and state["turn"]["owed"] == ["police-1"]
    assert N.awaiting(state) == {0: "move"} and sorted(m["type"] for m in legal(state, 0)) == ["PassReaction",
                                                                                                "PlayCartel"]
    refused(state, 0, {"type": "Draw"}, rule="6.1 Plata o plomo")
    assert N.timeout_default(state, 0) == PASS
    assert label_of(N, state, 0, PASS) == "Leave Police unpaid"  # from the seat's view, no card id
    events, state = play(state, 0, LAUNDERING)
    assert first(events, "DangerPaid") == {"seat": 0, "card": "police-1", "paid": "money", "chosen": False}
    assert state["window"] is None and state["players"][0]["money"] == 1 and state["players"][0]["workers"] == 4
    assert {"type": "Draw"} in legal(state, 0) and state["turn"]["phase"] == "draw"
    events, state = play(state, 0, {"type": "Stop"})
    assert first(events, "DrawEnded")["actions"] == 2  # the paid Police counts


def test_a_seat_that_raises_nothing_leaves_the_card_unpaid_and_stops_drawing():
    _, state = broke_at_two_sirens(3, ["laundering-1"])
    events, state = play(state, 0, PASS)
    assert types(events)[:2] == ["ReactionPassed", "DangerPaid"]
    assert first(events, "DangerPaid") == {"seat": 0, "card": "police-1", "paid": None, "chosen": True}
    ended = first(events, "DrawEnded")
    assert ended["reason"] == "unpaid" and ended["actions"] == 1 and state["window"] is None


def test_the_unpaid_window_opens_for_any_cartel_card_so_it_tells_nothing_of_the_hand():
    # the hand's size is public, its cards are not: asking only holders of Money laundering would tell them
    events, state = broke_at_two_sirens(3, ["lawyer-1"])
    assert first(events, "ReactionAsked")["kind"] == "unpaid" and legal(state, 0) == [PASS]
    # with no Cartel card (or no worker) nothing could raise the money: the card goes unpaid by itself
    events, _ = broke_at_two_sirens(3, [])
    assert "ReactionAsked" not in types(events) and first(events, "DrawEnded")["reason"] == "unpaid"


def test_version_2_takes_the_unpaid_card_by_itself():
    events, state = broke_at_two_sirens(2, ["laundering-1"])
    assert "ReactionAsked" not in types(events)
    assert first(events, "DangerPaid") == {"seat": 0, "card": "police-1", "paid": None, "chosen": False}
    assert first(events, "DrawEnded")["reason"] == "unpaid" and state["turn"]["phase"] == "manage"


# -- the DEA agent of money at a turn's end ---------------------------------------------------------------------------
def ending_a_turn(version: int, seats: int = 2, holder: int = 1, money: tuple = (3, 5)) -> tuple[list, dict]:
    """Seat 0 ends its turn (no action left, nothing to sell or buy) while `holder` carries the DEA agent of money."""
    state = at(version, managing(0, seats=seats, front=["dealer-chicago-1"]))
    state = {**state, "round": 2, "dea": {"actions": None, "money": holder}}
    for seat, amount in enumerate(money):
        state = with_player(state, seat, money=amount)
    return plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})


def test_the_next_seat_may_spend_its_way_out_of_the_dea_agent_before_it_follows_the_richest():
    # 6.1 DEA: «se irá automáticamente al jugador que tenga más dinero, suponiendo 1 sirena de peligro en todos sus
    # turnos siguientes, salvo que otro jugador acumule después más dinero»; 8: «Convierte un trabajador en Sicario
    # pagándole 2 millones en cualquier momento» -- seat 1 (5 million, the agent on it) would start its turn with
    # the agent's siren; two workers converted (4 million) leave seat 0 (3 million) the richest first
    events, state = ending_a_turn(3)
    assert first(events, "ReactionAsked") == {"kind": "dea-money", "seat": 1, "attacker": -1, "card": "dea-money"}
    assert "TurnStarted" not in types(events) and N.awaiting(state) == {1: "response"}
    assert {"type": "ConvertWorker"} in legal(state, 1) and PASS in legal(state, 1)
    assert N.timeout_default(state, 1) == PASS
    events, state = plays(state, 1, {"type": "ConvertWorker"}, {"type": "ConvertWorker"}, PASS)
    assert first(events, "DeaAgentMoved") == {"agent": "money", "seat": 0}
    assert first(events, "TurnStarted") == {"seat": 1, "agents": []} and state["players"][1]["sicarios"] == 4


def test_the_next_seat_that_keeps_its_money_keeps_the_agent():
    events, state = ending_a_turn(3)
    events, state = play(state, 1, PASS)
    assert "DeaAgentMoved" not in types(events) and first(events, "TurnStarted") == {"seat": 1, "agents": ["money"]}


def test_no_dea_window_when_spending_could_not_shed_it_or_the_agent_is_not_coming_to_the_next_seat():
    # seat 1 has 20 million: four sicarios left in the supply cost at most 8, still the richest
    events, state = ending_a_turn(3, money=(3, 20))
    assert "ReactionAsked" not in types(events) and first(events, "TurnStarted")["agents"] == ["money"]
    # three seats: seat 2 carries the agent, seat 1 plays next; nobody is asked
    events, _ = ending_a_turn(3, seats=3, holder=2, money=(3, 4, 5))
    assert "ReactionAsked" not in types(events) and first(events, "TurnStarted") == {"seat": 1, "agents": []}
    # but the agent passing to seat 1 at the check (it became the richest) asks seat 1
    events, _ = ending_a_turn(3, seats=3, holder=2, money=(3, 6, 5))
    assert first(events, "ReactionAsked")["seat"] == 1


def test_what_a_seat_could_spend_is_counted_from_public_facts():
    # no worker, one Cartel card (it might be Recruitment: 1 million): 4 - 1 = 3 only ties seat 0, and a tie keeps
    # the agent where it is (ruling D15); two cards could spend 2 and leave seat 0 the richest
    state = at(3, managing(0))
    state = {**state, "dea": {"actions": None, "money": 1}}
    state = with_player(with_player(state, 0, money=3), 1, money=4, workers=0, hand=["lawyer-1"])
    assert not could_shed_agent(state, 1)
    assert could_shed_agent(with_player(state, 1, hand=["lawyer-1", "lawyer-2"]), 1)
    assert not could_shed_agent({**with_player(state, 1, hand=["lawyer-1", "lawyer-2"]), "supply": 1}, 1)


def test_version_2_moves_the_dea_agent_at_the_turns_end_without_asking():
    events, state = ending_a_turn(2)
    assert "ReactionAsked" not in types(events) and first(events, "TurnStarted") == {"seat": 1, "agents": ["money"]}
    assert state["window"] is None
