"""Kingpin "On Your Turn" (step order, end of turn), "Winning the Game", awaiting/timeouts and the view."""
from __future__ import annotations

from rules.base import Rng, fold
from tests.rules.kingpin.support import (
    K,
    cash,
    ev,
    game_with_first,
    given,
    legal,
    next_turn,
    play,
    refused,
    rolled,
    take,
    types,
)


def test_end_turn_passes_to_the_left():
    # Kingpin "On Your Turn": "6. Play moves to the player on your left." (seat + 1)
    state = rolled(game_with_first(2, seats=3), [1])
    events, state = play(state, 2, {"type": "EndTurn"})
    assert types(events) == ["TurnEnded", "TurnStarted"]
    assert state["current"] == 0 and state["turn"] == 2 and state["phase"] == "buy"


def test_version_1_end_turn_mid_distribute_discards():
    # Kingpin "Roll Outcomes: Single Die", version 1: Hits the Dealers did not take are discarded (ruling: EndTurn
    # mid-action).  Version 2 refuses it while the Dealers have room (test_dice.py).
    state = rolled(game_with_first(0, version=1), [2])
    _, state = play(state, 0, {"type": "Distribute", "truck": "truck3-1"})
    events, _ = play(state, 0, {"type": "EndTurn"})
    assert types(events) == ["DistributionFinished", "TurnEnded", "TurnStarted"]


def test_reaching_the_target_wins_immediately():
    # Kingpin "Winning the Game": "Be the first Kingpin to bankroll $5,000".
    state = cash(game_with_first(0), 0, 4600)  # $4800
    state = rolled(state, [3, 3, 1])
    events, state = play(state, 0, {"type": "CollectDouble", "face": 3})
    assert types(events) == ["DiceUsed", "DoubleCashed", "GameEnded"]
    assert K.outcome(state) == {"winners": [0], "reason": "bankroll reached $5,000", "bankrolls": [5000, 200]}
    assert K.awaiting(state) == {} and legal(state, 0) == [] and legal(state, 1) == []
    refused(state, 0, {"type": "EndTurn"}, rule="Winning the Game")


def test_a_bribe_received_out_of_turn_can_win():
    # rules-gaps 2.12 ruling: the target is checked after every command, whoever's turn it is.
    state, cop = take(game_with_first(0, options={"target": 3000}), 1, "cop")
    state = next_turn(state, 1)
    state = next_turn(state, 1)
    state = cash(cash(state, 1, 2800), 0, 400)
    state = given(state, ev("CardPurchased", seat=1, kind="junkie200", card="junkie200-3", price=100))
    assert state["bankrolls"] == [600, 2900]
    state = rolled(state, [1])
    _, state = play(state, 1, {"type": "UseCop", "cop": cop, "target": "junkie200-1"})
    events, state = play(state, 0, {"type": "BribeCop"})
    assert types(events) == ["CopBribed", "GameEnded"]
    assert K.outcome(state)["winners"] == [1] and state["bankrolls"] == [300, 3000]


def test_shorter_game_option():
    # Kingpin "Winning the Game": "For a shorter game, play to $3,000".
    state = cash(game_with_first(0, options={"target": 3000}), 0, 2600)
    state = rolled(state, [6, 6])
    events, state = play(state, 0, {"type": "CollectDouble", "face": 6})
    assert K.outcome(state)["reason"] == "bankroll reached $3,000"


def test_turn_limit_house_rule_gives_the_game_to_the_most_money():
    # Kingpin "Winning the Game": "or have the most money if it is impossible for anybody to gain any more
    # money" — never reachable (a double always pays $200), so an optional turn limit stands in for it.
    state = game_with_first(0, options={"turn_limit": 25})
    state = given(state, ev("TurnStarted", seat=1, turn=50))
    state = rolled(cash(state, 0, 200), [1])
    events, state = play(state, 1, {"type": "EndTurn"})
    assert types(events) == ["TurnEnded", "GameEnded"]
    assert K.outcome(state)["winners"] == [0]
    assert "turn limit" in K.outcome(state)["reason"]


def test_ties_share_the_win():
    # Kingpin "Winning the Game": "have the most money" — equal bankrolls share the win (turn-limit house rule).
    state = game_with_first(0, options={"turn_limit": 25})
    state = rolled(given(state, ev("TurnStarted", seat=1, turn=50)), [1])
    _, state = play(state, 1, {"type": "EndTurn"})
    assert K.outcome(state)["winners"] == [0, 1]


def test_awaiting_and_timeouts():
    # On a clock: roll if you have not, else end the turn; in a window, decline (no bribe, no double).
    state = game_with_first(0)
    assert K.awaiting(state) == {0: "move"}
    assert K.on_timeout(state, 0) == {"type": "RollDice"}
    assert legal(state, 1) == []
    state = rolled(state, [4])
    assert K.on_timeout(state, 0) == {"type": "EndTurn"}
    refused(state, 1, {"type": "EndTurn"}, rule="On Your Turn", match="seat 0's turn")


def test_view_shows_the_whole_table():
    # Kingpin is open information: the view shows every bankroll, card, stack, die and window.
    state, cop = take(game_with_first(0), 1, "cop")
    state = rolled(state, [4, 2])
    _, state = play(state, 0, {"type": "Payday"})
    view = K.view(state, 1)
    assert view["you"] == 1 and view["current"] == 0 and view["phase"] == "dice"
    assert view["dice"] == [{"face": 4, "action": "Payday", "used": True},
                            {"face": 2, "action": "Distribute", "used": False}]
    assert view["players"][0]["bankroll"] == 200 and view["players"][0]["dice_pool"] == 3
    junkie = next(c for c in view["players"][0]["cards"] if c["type"] == "junkie")
    assert junkie == {"id": "junkie200-1", "kind": "junkie200", "type": "junkie", "name": "Junkie ($200)",
                      "owner": 0, "where": "play", "cash": 300, "cash_on_hand": 200, "payday": 100,
                      "max_pay": 100, "od": 2}
    special = next(c for c in view["players"][1]["cards"] if c["type"] == "special")
    assert special["status"] == "active" and special["bribe"] == 300 and special["ready"] is False
    truck = next(c for c in view["players"][0]["cards"] if c["type"] == "truck")
    assert truck["hits"] == 3 and truck["size"] == 3
    assert view["stacks"]["cop"]["remaining"] == 1 and view["stacks"]["cop"]["price"] == 600
    assert view["window"] is None and view["pending"] is None and view["outcome"] is None
    assert K.view(state, None)["you"] is None


def test_a_whole_seeded_game_replays_identically():
    # The events are the trace: the same seed and commands give the same game; folding them rebuilds it.
    def run():
        events = K.setup({}, 3, Rng("replay", 0))
        state = fold(K, events)
        v = 1
        while K.outcome(state) is None and v < 3000:
            seat = next(iter(K.awaiting(state)))
            cmd = K.bot_move(state, seat, "greedy", Rng("replay-bot", v))
            new = K.decide(state, seat, cmd, Rng("replay", v))
            events += new
            state = fold(K, new, state)
            v += 1
        return events, state
    a, sa = run()
    b, sb = run()
    assert a == b and sa == sb and K.outcome(sa) is not None
