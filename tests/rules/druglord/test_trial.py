"""Druglord Rule 8 Trial: at 5 Cases (3 California Style), the Trial roll with Sway, the seven results."""
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
    stash,
    store,
    table,
    trade,
    types,
    with_cases,
)


def on_the_brink(cases=4, options=None, extra=2, version=None):
    """Seat 0 has `cases` reefer Cases and trades reefer Appalachia -> Southwest (land, needs 2)."""
    state = put(table([["FS1", "FS5"], ["AE1"]], options=options, version=version), "FS1", "reefer", extra)
    return with_cases(state, 0, "reefer", cases)


def bust_into_trial(state, trial_face, *more):
    """The trade fails on a 1; the Trial die shows `trial_face` (no Sway anywhere: both cast at once)."""
    return play(state, 0, trade("FS1", "FS5", "land"), dice(1, trial_face, *more))


def test_trial_at_five_cases_immediately_then_cases_reset_and_trading_goes_on():
    # Druglord 8: "When a player reaches 5 Cases ... immediately roll the Trial Die ... After the Trial, all busts
    # are removed, and Cases reset to zero. Player may complete any remaining trades after the Trial."
    events, state = bust_into_trial(on_the_brink(), 9)
    assert types(events) == ["TradeDeclared", "DeclarationClosed", "RollCast", "TradeFailed", "RollStarted",
                             "DeclarationClosed", "RollCast", "TrialResolved", "CasesReset"]
    assert first(events, "TrialResolved")["name"] == "Nothing"       # 9: "7+. Nothing. Player walks."
    assert state["players"][0]["cases"]["reefer"] == 0
    assert trade("FS1", "FS5", "land") in legal(state, 0)             # the rest of the action continues


def test_excess_busts_are_ignored():
    # Druglord 8: "If the number of Busts exceeds 5 ..., any excess Busts are ignored."
    state = on_the_brink(cases=4)
    events, _ = play(state, 0, trade("FS1", "FS5", "land", 2), dice(1, 9))
    assert first(events, "TradeFailed")["cases_added"] == 1
    assert first(events, "RollStarted")["context"]["cases"]["reefer"] == 5


def test_california_style_trial_at_three():
    # Druglord 8: "(3 if playing California Style)".
    state = on_the_brink(cases=2, options={"california_style": True})
    events, _ = bust_into_trial(state, 9)
    assert "TrialResolved" in types(events)
    events, _ = bust_into_trial(on_the_brink(cases=2), 9)
    assert "TrialResolved" not in types(events)


def test_result_1_local_boss_executed_loses_the_supplying_region_into_the_draft():
    # Druglord 8.1: "Lose final supplying Region responsible for bringing Player to Trial. Region goes into next
    # Turn's Draft (Rule 1.2)."
    events, state = bust_into_trial(on_the_brink(), 1)
    assert first(events, "TrialResolved")["name"] == "Local Boss Executed"
    assert first(events, "RegionLost") == {"region": "FS1", "seat": 0, "priority": None, "cause": "trial"}
    assert "FS1" not in state["owner"] and state["lost"] == [{"region": "FS1", "priority": None}]
    assert state["supply"]["reefer"] == 58                           # its weight went back to the supply


def test_result_2_crackdown_on_the_predominant_case_type_for_the_rest_of_the_game():
    # Druglord 8.2: "-1 Trade Roll penalty for most predominant type of Cases at time of Trial, applied to all
    # Regions, for remainder of game." A Dime Bag marks it.
    events, state = bust_into_trial(on_the_brink(), 2)
    assert first(events, "CrackdownImposed")["weight"] == "reefer"
    assert state["players"][0]["crackdowns"]["reefer"] == 1 and state["dime_bags"] == 9
    assert first(D.decide(state, 0, trade("FS1", "FS5", "land"), dice(3)), "TradeDeclared")["target"] == 3


def test_crackdown_ties_are_rolled_off():
    # Druglord 8.2: "(If 3-way California Style tie, roll randomly)" -- any tie is rolled off.
    state = with_cases(with_cases(on_the_brink(cases=0), 0, "pills", 2), 0, "cocaine", 2)
    events, state = bust_into_trial(state, 2, 5, 3)                  # pills rolls 5, cocaine rolls 3
    crackdown = first(events, "CrackdownImposed")
    assert crackdown["tie_rolls"] == [{"who": ["pills", "cocaine"], "dice": [5, 3]}]
    assert crackdown["weight"] == "pills"


def test_result_3_setback_three_spaces_start_at_most():
    # Druglord 8.3: "Move Score Marker back 3 spaces on Racetrack (Start Space at maximum)."
    state = on_the_brink()
    state = dict(state, players=[dict(state["players"][0], score=2), state["players"][1]])
    events, state = bust_into_trial(state, 3)
    assert first(events, "ScoreSetBack") == {"seat": 0, "from": 2, "to": 0}


def test_result_4_mass_raids_lose_this_phases_weight_everywhere():
    # Druglord 8.4: "Lose all remaining untraded Weight, all Regions, of this Phase's type only."
    state = put(put(on_the_brink(), "FS5", "reefer", 1), "FS5", "pills", 2)
    state = store(state, "FS5", "reefer")
    events, state = bust_into_trial(state, 4)
    assert first(events, "WeightRemoved")["cause"] == "mass_raids"
    assert state["weight"]["FS1"]["reefer"] == 0 and state["weight"]["FS5"]["reefer"] == 0
    assert state["stored"]["FS5"]["reefer"] == 0 and state["weight"]["FS5"]["pills"] == 2


def test_result_5_asset_seizure_takes_the_whole_traphouse():
    # Druglord 8.5: "All Traphouse Weight seized."
    state = given(on_the_brink(), ev("WeightDrawn", seat=0, weights=["pills", "cocaine"]))  # not usable yet
    events, state = bust_into_trial(state, 5)
    assert first(events, "WeightRemoved")["cause"] == "asset_seizure"
    assert state["players"][0]["traphouse"] == {"reefer": 0, "pills": 0, "cocaine": 0, "opiates": 0}
    assert state["players"][0]["locked"]["pills"] == 0


def test_result_6_local_busts_lose_two_of_the_most_prominent_weight_and_trial_sway():
    # Druglord 8.6: "Lose 2 of most prominent Weight from any Region or Traphouse." 8: "roll the Trial Die,
    # exerting any Sway (rule 7.)" -- a 5 swayed +1 is a 6.
    state = put(stash(on_the_brink(), 0, "reefer", 1), "FS5", "pills", 3)
    _, state = play(state, 0, trade("FS1", "FS5", "land"))
    events, state = play(state, 0, {"type": "EndSway"}, dice(1))
    assert state["roll"]["kind"] == "trial" and D.awaiting(state) == {0: "move"}
    events, state = play(state, 0, {"type": "Sway", "die": "trial", "weight": "reefer", "units": 1}, dice(5))
    assert first(events, "TrialResolved")["result"] == 6
    removed = first(events, "WeightRemoved")
    assert removed["cause"] == "local_busts" and removed["removed"] == [["FS5", "weight", "pills", 2]]
    assert state["weight"]["FS5"]["pills"] == 1


def test_opponents_may_counter_sway_a_trial():
    # Druglord 7: "Opposing players may contribute to or counter-Sway any die roll".
    state = stash(on_the_brink(), 1, "pills", 5)
    _, state = play(state, 0, trade("FS1", "FS5", "land"))
    _, state = play(state, 1, {"type": "EndSway"}, dice(1))              # the trade's window
    assert state["roll"]["kind"] == "trial" and D.awaiting(state) == {1: "response"}
    _, state = play(state, 1, {"type": "Sway", "die": "trial", "weight": "pills", "units": -5})
    events, _ = play(state, 1, {"type": "EndSway"}, dice(9))             # 9 - 5 = 4: Mass Raids
    assert first(events, "TrialResolved")["name"] == "Mass Raids"


def test_version_1_no_dime_bag_left_no_crackdown():
    # Version 1: Druglord components: "10 Dime Bags" -- our Crackdown markers; when all are in use a Crackdown has
    # no effect.  Version 2 drops the cap (test_rules_version_2).
    state = on_the_brink(version=1)
    others = dict(state["players"][1], crackdowns={"reefer": 10, "pills": 0, "cocaine": 0, "opiates": 0})
    state = dict(state, dime_bags=0, players=[state["players"][0], others])
    events, state = bust_into_trial(state, 2)
    assert first(events, "CrackdownImposed")["marker"] is False
    assert state["players"][0]["crackdowns"]["reefer"] == 0
