"""Druglord Rule 4 Take Action (order, phases), Rule 10 Draw 2 Weight, Rule 12 Endgame."""
from __future__ import annotations

from rules.druglord import load
from tests.rules.druglord.support import (
    D,
    dice,
    ev,
    first,
    given,
    legal,
    play,
    put,
    refused,
    table,
    trade,
    types,
    with_score,
)


def pass_until(state, stop, rng_last=None):
    events = []
    while not stop(state):
        seat = next(iter(D.awaiting(state)))
        new, state = play(state, seat, {"type": "Pass"}, rng_last)
        events += new
    return events, state


def test_action_order_is_rolled_high_first_ties_rolled_off_then_clockwise():
    # Druglord 4: "Players roll for Action order, highest rolling player acting first. Ties are resolved through
    # roll-off. Every Turn has a new roll for Action order. Play proceeds in a clockwise manner, passing to the left."
    # Versions 1 and 2 roll without Sway (version 3's Sway window: test_rules_version_3.py).
    state = table([["FS5"], ["AE1"], ["AR4"]], version=2)
    state = given(state, load.loading_started(state))
    _, state = play(state, 0, {"type": "LoadDefault"})
    _, state = play(state, 1, {"type": "LoadDefault"})
    events, state = play(state, 2, {"type": "LoadDefault"}, dice(4, 9, 9, 2, 5))
    rolled = first(events, "ActionOrderRolled")
    assert rolled["rounds"] == [{"who": [0, 1, 2], "dice": [4, 9, 9]}, {"who": [1, 2], "dice": [2, 5]}]
    assert rolled["order"] == [2, 0, 1] and state["scoop"] == 2
    assert D.awaiting(state) == {2: "move"} and D.view(state, None)["actor"] == 2


def test_one_action_per_player_per_phase_then_the_next_phase():
    # Druglord 4: "Players complete any 1 of the 4 types of Actions"; phases Reefer, Pills, Coca, Opiates.
    state = table([["FS5"], ["AE1"]], order=[1, 0])
    refused(state, 0, {"type": "Pass"}, rule="4", match="seat 1's action")
    _, state = play(state, 1, {"type": "Pass"})
    assert D.awaiting(state) == {0: "move"} and D.on_timeout(state, 0) == {"type": "Pass"}
    events, state = play(state, 0, {"type": "Pass"})
    assert types(events) == ["Passed", "ActionEnded", "PhaseEnded", "PhaseStarted"]
    assert state["wtype"] == "pills" and D.awaiting(state) == {1: "move"}
    _, state = pass_until(state, lambda s: s["wtype"] == "opiates")
    events, state = pass_until(state, lambda s: s["phase"] != "action")
    assert "TurnEnded" in types(events) and first(events, "TurnStarted") == {"turn": 2}
    assert state["phase"] == "draft"


def test_draw_two_weight_goes_to_the_traphouse_usable_from_its_next_phase():
    # Druglord 10: "As an action, a player may draw any 2 units of Weight. Drawn Weight is moved to the Traphouse,
    # and is usable on the next phase corresponding to that type of Weight."
    state = table([["FS5", "AS2"], ["AE1"]])
    draws = [m["weights"] for m in legal(state, 0) if m["type"] == "DrawWeight"]
    assert len(draws) == 10 and ["reefer", "pills"] in draws and ["opiates", "opiates"] in draws
    events, state = play(state, 0, {"type": "DrawWeight", "weights": ["pills", "reefer"]})   # any order
    assert first(events, "WeightDrawn")["weights"] == ["reefer", "pills"]
    player = state["players"][0]
    assert player["traphouse"]["reefer"] == 1 and player["locked"] == {"reefer": 1, "pills": 1, "cocaine": 0,
                                                                       "opiates": 0}
    _, state = play(state, 1, {"type": "Pass"})                       # the Pills phase begins
    assert state["players"][0]["locked"]["pills"] == 0 and state["players"][0]["locked"]["reefer"] == 1
    assert trade("traphouse", "AS2", "export") in legal(state, 0)      # pills: usable this turn
    refused(table([["FS5"], ["AE1"]]), 0, {"type": "DrawWeight", "weights": ["reefer"]}, rule="10")


def test_endgame_at_twenty_finishes_the_turn_and_the_highest_score_wins():
    # Druglord 12: "The first player to score to 20 triggers the Endgame ... the current Turn will be the last ...
    # Other players complete all remaining phases, ending in Phase 5 (Opiates), as normal."
    state = with_score(put(table([["FS1", "FS5"], ["AE1"]], wtype="pills"), "FS1", "pills", 1), 0, 19)
    events, state = play(state, 0, trade("FS1", "FS5", "land"), dice(2))
    assert first(events, "EndgameTriggered") == {"seat": 0, "score": 20}
    assert D.outcome(state) is None and state["wtype"] == "pills"
    events, state = pass_until(state, lambda s: s["phase"] == "over")
    ended = first(events, "GameEnded")
    assert ended["winners"] == [0] and ended["scores"] == [20, 0]
    assert types(events)[-3:] == ["PhaseEnded", "TurnEnded", "GameEnded"]
    assert D.awaiting(state) == {} and D.legal_moves(state, 0) == [] and D.outcome(state)["winners"] == [0]


def test_endgame_ties_are_rolled_off():
    # Druglord 12: "In the event of a tie, victory is determined by a roll-off."
    state = with_score(with_score(table([["FS1"], ["AE1"]], wtype="opiates"), 0, 21), 1, 21)
    state = given(state, ev("EndgameTriggered", seat=0, score=21))
    _, state = play(state, 0, {"type": "Pass"})
    events, state = play(state, 1, {"type": "Pass"}, dice(2, 3))
    ended = first(events, "GameEnded")
    assert ended["winners"] == [1] and ended["rolloff"] == [{"who": [0, 1], "dice": [2, 3]}]


def test_a_game_of_forty():
    # Druglord 12: "A game of 40 (or more) may be played by placing additional Score Markers on the loop space".
    state = with_score(put(table([["FS1", "FS5"], ["AE1"]], options={"game_to": 40}), "FS1", "reefer", 1), 0, 20)
    events, state = play(state, 0, trade("FS1", "FS5", "land"), dice(2))
    assert "EndgameTriggered" not in types(events) and state["endgame"] is None
    view = D.view(state, None)["players"][0]
    assert view["score"] == 21 and view["laps"] == 1 and view["score_markers"] == 2   # the Loop marker
