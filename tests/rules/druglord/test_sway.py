"""Druglord Rule 7 Sway: declared before the roll, opponents contribute or counter-Sway in a response window."""
from __future__ import annotations

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
    stash,
    table,
    trade,
    types,
)


def three_players():
    """Seat 0 trades reefer Appalachia -> Southwest over land (needs 2); seats 1 and 2 hold Traphouse weight."""
    state = put(table([["FS1", "FS5"], ["AE1"], ["AR4"]]), "FS1", "reefer", 2)
    state = stash(state, 0, "pills", 3)
    state = stash(state, 1, "reefer", 4)
    return stash(state, 2, "cocaine", 2)


def test_roller_declares_sway_before_the_roll_paying_one_unit_per_point():
    # Druglord 7: "Sway costs 1 unit of weight per modifier to the roll ... The amount of Sway and specific die must
    # be declared before the roll."
    _, state = play(three_players(), 0, trade("FS1", "FS5", "land", 2))
    assert state["roll"]["stage"] == "declare" and D.awaiting(state) == {0: "move"}
    assert {"type": "Sway", "die": "trade", "weight": "pills", "units": 2} in legal(state, 0)
    events, state = play(state, 0, {"type": "Sway", "die": "trade", "weight": "pills", "units": 2})
    assert types(events) == ["SwayDeclared"]
    assert state["players"][0]["traphouse"]["pills"] == 1 and state["supply"]["pills"] == 57
    refused(state, 0, {"type": "Sway", "die": "trade", "weight": "pills", "units": -1}, rule="7", match="upwards")
    refused(state, 0, {"type": "Sway", "die": "trade", "weight": "pills", "units": 5}, rule="7", match="1 unit")


def test_every_opponent_answers_at_once_then_the_die_is_cast():
    # Druglord 7: "Opposing players may contribute to or counter-Sway any die roll with their Traphouse weight."
    _, state = play(three_players(), 0, trade("FS1", "FS5", "land", 2))
    events, state = play(state, 0, {"type": "EndSway"})
    assert first(events, "DeclarationClosed")["responders"] == [1, 2]
    assert D.awaiting(state) == {1: "response", 2: "response"}        # several seats awaited at once
    _, state = play(state, 2, {"type": "Sway", "die": "trade", "weight": "cocaine", "units": 1})  # helps
    _, state = play(state, 1, {"type": "Sway", "die": "trade", "weight": "reefer", "units": -4})  # counters
    assert D.awaiting(state) == {1: "response", 2: "response"}
    _, state = play(state, 2, {"type": "EndSway"})
    assert D.awaiting(state) == {1: "response"}
    events, state = play(state, 1, {"type": "EndSway"}, dice(4))        # 4 + 1 - 4 = 1 < 2
    cast = first(events, "RollCast")
    assert cast["naturals"] == {"trade": 4} and cast["modifiers"] == {"trade": -3} and cast["totals"] == {"trade": 1}
    assert "TradeFailed" in types(events) and state["players"][0]["cases"]["reefer"] == 2


def test_a_natural_one_fails_whatever_the_sway():
    # Druglord 7: "There is no limit to how much Sway can be purchased, but a 1 always fails, and is treated as a 1."
    _, state = play(three_players(), 0, trade("FS1", "FS5", "land", 2))
    events, state = play(state, 0, {"type": "Sway", "die": "trade", "weight": "pills", "units": 3})
    assert types(events) == ["SwayDeclared", "DeclarationClosed"]      # nothing left to declare with
    _, state = play(state, 1, {"type": "Sway", "die": "trade", "weight": "reefer", "units": 4})
    _, state = play(state, 1, {"type": "EndSway"})
    events, _ = play(state, 2, {"type": "EndSway"}, dice(1))
    assert first(events, "RollCast")["totals"] == {"trade": 1} and "TradeFailed" in types(events)


def test_counter_sway_direction_is_kept_and_help_is_possible():
    # Druglord 7: opponents "contribute to or counter-Sway" -- one direction per seat and die.
    _, state = play(three_players(), 0, trade("FS1", "FS5", "land", 2))
    _, state = play(state, 0, {"type": "EndSway"})
    moves = legal(state, 1)
    assert {"type": "Sway", "die": "trade", "weight": "reefer", "units": 2} in moves
    assert {"type": "Sway", "die": "trade", "weight": "reefer", "units": -2} in moves
    _, state = play(state, 1, {"type": "Sway", "die": "trade", "weight": "reefer", "units": -1})
    refused(state, 1, {"type": "Sway", "die": "trade", "weight": "reefer", "units": 1}, rule="7", match="counter")
    assert {"type": "Sway", "die": "trade", "weight": "reefer", "units": -3} in legal(state, 1)


def test_seats_without_weight_or_cards_are_not_asked_and_the_roll_goes_on():
    # Druglord 7 / rules-gaps 6: only seats that could Sway (or hold a Baller card) are asked.
    state = put(table([["FS1", "FS5"], ["AE1"], ["AR4"]]), "FS1", "reefer", 1)
    events, state = play(state, 0, trade("FS1", "FS5", "land"), dice(5))
    assert types(events)[:4] == ["TradeDeclared", "DeclarationClosed", "RollCast", "TradeSucceeded"]
    assert first(events, "DeclarationClosed")["responders"] == []


def test_draw_two_weight_cannot_sway_before_its_phase():
    # Druglord 10: drawn weight "is usable on the next phase corresponding to that type of Weight".
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 1)
    state = given(state, ev("WeightDrawn", seat=1, weights=["reefer", "pills"]))
    events, state = play(state, 0, trade("FS1", "FS5", "land"))
    assert first(events, "DeclarationClosed")["responders"] == []       # nothing usable yet, no card
    assert state["roll"] is None


def test_timeout_in_a_window_is_no_sway():
    # Druglord 7: the window closes when every asked seat has answered or its clock ran out (on_timeout = no Sway).
    _, state = play(three_players(), 0, trade("FS1", "FS5", "land", 2))
    assert D.on_timeout(state, 0) == {"type": "EndSway"}
    _, state = play(state, 0, {"type": "EndSway"})
    assert D.on_timeout(state, 1) == {"type": "EndSway"} and D.on_timeout(state, 2) == {"type": "EndSway"}
    refused(state, 0, {"type": "EndSway"}, rule="7", match="not asked")


def test_sway_amounts_beyond_ten_are_listed_as_everything():
    # Druglord 7: "There is no limit to how much Sway can be purchased" -- 1..10 or all, repeatable.
    state = stash(three_players(), 0, "reefer", 14)
    _, state = play(state, 0, trade("FS1", "FS5", "land"))
    units = sorted(m["units"] for m in legal(state, 0) if m["type"] == "Sway" and m["weight"] == "reefer")
    assert units == list(range(1, 11)) + [14]
