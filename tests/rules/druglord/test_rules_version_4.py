"""Druglord rules version 4 (issue 39, "the last rules departures"): roll-offs without a declarer, 5.A's
"only produces 1 of a type" read per type, and the storage choice made at each action phase's end.  Each test
quotes the sentence it follows; version 3's behaviour is kept (test_rules_version_3.py, and the regressions
here) (docs/rules/druglord.md, Changelog)."""
from __future__ import annotations

from rules.druglord import load
from rules.ruleset import latest_version
from tests.rules.druglord.support import D, dice, first, given, legal, play, refused, stash, table, types

END = {"type": "EndSway"}


def sway(die, units, weight="pills"):
    return {"type": "Sway", "die": die, "weight": weight, "units": units}


def test_version_4_is_the_latest_and_listed():
    assert latest_version(D) == 4 and [n for n, _ in D.versions] == [1, 2, 3, 4]
    assert "roll-off" in dict(D.versions)[4] and "only produces 1" in dict(D.versions)[4]


# --- 1. Roll-offs: no declarer, everyone may answer every Sway ---------------------------------------------------

def rolling_for_action_order(version: int, seat0: int = 4, seat1: int = 2) -> tuple[list, dict]:
    """Two seats with Traphouse pills load; the action-order roll-off comes next."""
    state = table([["FS1"], ["AE2"]], version=version)
    state = stash(stash(given(state, load.loading_started(state)), 0, "pills", seat0), 1, "pills", seat1)
    _, state = play(state, 0, {"type": "LoadDefault"})
    return play(state, 1, {"type": "LoadDefault"})


def test_version_4_every_seat_sways_a_roll_off_at_once_and_the_lowest_seat_may_answer():
    # Druglord 7: "The amount of Sway and specific die must be declared before the roll. Opposing players may
    # contribute to or counter-Sway any die roll with their Traphouse weight." 4: "Players roll for Action order".
    # Every contender's die is rolled at once: nobody declares first, and nobody has the last word.
    events, state = rolling_for_action_order(4)
    assert types(events)[-2:] == ["RollStarted", "SwayOpened"]
    assert first(events, "SwayOpened") == {"seat": None, "responders": [0, 1]}
    assert D.awaiting(state) == {0: "response", 1: "response"} and D.on_timeout(state, 1) == END
    _, state = play(state, 0, END)                                       # seat 0 has nothing to add, yet
    events, state = play(state, 1, sway("seat1", 2))                     # seat 1 sways after it
    assert first(events, "SwayOpened") == {"seat": 1, "responders": [0]}  # seat 0 may answer
    assert D.awaiting(state) == {0: "response", 1: "response"}
    events, state = play(state, 0, sway("seat1", -1))                    # and counter-Sways seat 1's die
    assert "SwayOpened" not in types(events)                             # seat 1 has no weight left to answer
    _, state = play(state, 0, sway("seat0", 3))
    _, state = play(state, 0, END)
    events, state = play(state, 1, END, dice(2, 4))                      # naturals: seat 0 rolls 2, seat 1 rolls 4
    assert first(events, "RollCast")["totals"] == {"seat0": 5, "seat1": 5}  # 2 + 3, 4 + 2 - 1: a tie, again
    rolled = first(events, "ActionOrderRolled")                          # nobody has weight left: cast at once
    assert rolled["rounds"][0] == {"who": [0, 1], "dice": [5, 5]} and len(rolled["rounds"]) >= 2
    assert types(events).count("SwayOpened") == 0 and state["phase"] == "action"


def test_version_4_the_roll_is_cast_only_when_every_seat_asked_has_ended_since_the_last_sway():
    _, state = rolling_for_action_order(4, seat0=1, seat1=3)
    _, state = play(state, 1, sway("seat1", 1))
    _, state = play(state, 1, END)
    _, state = play(state, 0, sway("seat0", 1))                          # seat 0's last unit
    assert D.awaiting(state) == {0: "response", 1: "response"}           # seat 1 is asked again
    refused(state, 0, sway("seat0", 1), rule="7")                        # no weight left to sway with
    _, state = play(state, 0, END)
    assert D.awaiting(state) == {1: "response"} and state["roll"] is not None
    _, state = play(state, 1, sway("seat1", 2))
    assert D.awaiting(state) == {1: "response"}                          # seat 0 has nothing to answer with
    events, state = play(state, 1, END, dice(4, 3))
    assert first(events, "ActionOrderRolled")["rounds"] == [{"who": [0, 1], "dice": [5, 6]}]
    assert first(events, "ActionOrderRolled")["order"] == [1, 0]


def test_version_4_a_roll_off_nobody_can_sway_is_rolled_at_once():
    events, state = rolling_for_action_order(4, seat0=0, seat1=0)
    assert "ActionOrderRolled" in types(events) and state["roll"] is None
    assert "SwayOpened" not in types(events) and "DeclarationClosed" not in types(events)  # no declaration at all


def test_version_3_the_lowest_seat_declared_first_and_never_answered():
    # the departure version 4 fixes: seat 0 declares, seat 1 answers, and seat 0 is not asked again
    events, state = rolling_for_action_order(3)
    assert "SwayOpened" not in types(events) and D.awaiting(state) == {0: "move"}
    _, state = play(state, 0, END)
    events, state = play(state, 1, sway("seat1", 2))
    assert types(events) == ["SwayDeclared"] and D.awaiting(state) == {1: "response"}
    refused(state, 0, sway("seat0", 1), rule="7", match="not asked")


# --- 2. and 3. Storing weight locally: "only produces 1 of a type", chosen at the phase's end --------------------

def loaded(version: int, empire: list[str], placements: list[list] | None = None) -> dict:
    """Seat 0 (holding `empire`) loads `placements` (else by default), seat 1 (Appalachia) by default."""
    state = table([empire, ["FS1"]], version=version)
    state = given(state, load.loading_started(state))
    for source, to, wtype, units in placements or []:
        _, state = play(state, 0, {"type": "LoadWeight", "from": source, "to": to, "weight": wtype, "units": units})
    if state["loading"][0] is not None:
        _, state = play(state, 0, {"type": "LoadDefault"})
    _, state = play(state, 1, {"type": "LoadDefault"})
    return state


def acted(state: dict) -> tuple[list, dict]:
    """Every seat passes this action phase: the events, and the state once nobody is left to act."""
    events, wtype = [], state["wtype"]
    while state["phase"] == "action" and state["wtype"] == wtype and state["pos"] < len(state["order"]):
        new, state = play(state, state["order"][state["pos"]], {"type": "Pass"})
        events += new
    return events, state


LOADED_EACH = [["FS3", "FS3", "reefer", 1], ["FS3", "FS3", "pills", 1]]  # Texas: Weight Value 2, one of each type


def test_version_4_a_region_loaded_with_one_unit_of_each_of_two_types_may_store_either():
    # Druglord 5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight may
    # be stored locally and combined with weight from subsequent turns to later complete the Domestic Trade."
    # Texas (Weight Value 2, Demand reefer 1 and pills 2) produced 1 reefer and 1 pills: 1 of each type.
    state = loaded(4, ["FS3"], LOADED_EACH)
    assert state["phase"] == "action" and state["wtype"] == "reefer" and state["storing"] == [None, None]
    events, state = acted(state)
    assert "PhaseEnded" not in types(events) and D.awaiting(state) == {0: "move"}
    assert legal(state, 0) == [{"type": "StoreLocally", "regions": ["FS3"]}, {"type": "StoreLocally", "regions": []}]
    events, state = play(state, 0, {"type": "StoreLocally", "regions": ["FS3"]})
    assert first(events, "StorageChosen") == {"seat": 0, "stored": ["FS3"], "offered": ["FS3"]}
    assert first(events, "PhaseEnded")["sweep"] == [[0, "FS3", 0, 1]] and state["stored"]["FS3"]["reefer"] == 1
    assert state["wtype"] == "pills" and state["storing"] == [None, None]  # asked again at the pills phase's end
    _, state = acted(state)
    events, state = play(state, 0, {"type": "StoreLocally", "regions": []})
    assert [0, "FS3", 1, 0] in first(events, "PhaseEnded")["sweep"]
    assert state["players"][0]["traphouse"]["pills"] == 1 and state["stored"]["FS3"]["reefer"] == 1


def test_version_3_stored_neither_unit_of_a_weight_value_2_region():
    state = loaded(3, ["FS3"], LOADED_EACH)
    assert "StoreLocally" not in {m["type"] for m in legal(state, 0)}
    events, _ = acted(state)
    assert first(events, "PhaseEnded")["sweep"] == [[0, "FS3", 1, 0]]


# Southwest (Weight Value 3, Supply Capacity 2) fills itself with 2 reefer and its excess fills Mediterranean
# Europe's spare capacity; Mediterranean Europe (Weight Value 1, Demand reefer 2) adds its own reefer: 2 in all.
WITH_EXCESS = [["FS5", "FS5", "reefer", 2], ["FS5", "AE5", "reefer", 1], ["AE5", "AE5", "reefer", 1]]


def test_version_4_a_weight_value_1_region_loaded_with_a_second_unit_of_its_type_stores_neither():
    # 5.A stores the weight of a Region that "only produces 1" of the type, to "later complete the Domestic
    # Trade"; A: "Any Region supplying at least 2 of one kind of weight, with a market for same, may Domestic
    # Trade." With 2 reefer loaded this turn it supplies a pair now: untraded, the weight goes to the Traphouse.
    state = loaded(4, ["AE5", "FS5"], WITH_EXCESS)
    assert state["weight"]["AE5"]["reefer"] == 2
    events, state = acted(state)
    assert "StorageChosen" not in types(events) and state["wtype"] == "pills"  # nobody was asked
    assert [entry for entry in first(events, "PhaseEnded")["sweep"] if entry[0] == 0] == [[0, "AE5", 2, 0],
                                                                                          [0, "FS5", 2, 0]]


def test_version_3_stored_one_unit_of_a_weight_value_1_region_however_much_it_was_loaded_with():
    state = loaded(3, ["AE5", "FS5"], WITH_EXCESS)
    _, state = play(state, 0, {"type": "StoreLocally", "regions": ["AE5"]})  # version 3 asks at loading
    events, _ = acted(state)
    assert first(events, "PhaseEnded")["sweep"][0] == [0, "AE5", 1, 1]


def test_version_4_the_storage_choice_comes_at_the_phases_end_not_at_loading():
    # 5: "Any Weight not traded may be moved to the Traphouse (Rule 7.), for use in future Trades, or to modify die
    # rolls" -- whether to store is a choice about weight not traded, known once the phase's actions are over.
    state = loaded(4, ["AE5"])
    assert state["phase"] == "action" and state["storing"] == [None, None]  # nothing asked at loading
    assert "StoreLocally" not in {m["type"] for m in legal(state, 0)}
    refused(state, 0, {"type": "StoreLocally", "regions": ["AE5"]}, rule="5.A", match="end of an action phase")
    _, state = acted(state)
    assert D.awaiting(state) == {0: "move"} and D.on_timeout(state, 0) == {"type": "StoreLocally",
                                                                           "regions": ["AE5"]}
    assert D.choose_bot_move(state, 0, "greedy", dice()) == {"type": "StoreLocally", "regions": ["AE5"]}
    refused(state, 1, {"type": "StoreLocally", "regions": []}, rule="5.A")  # seat 1 holds no such Region


def test_version_3_chose_at_loading_before_the_untraded_weight_was_known():
    state = table([["AE5"], ["FS1"]], version=3)
    state = given(state, load.loading_started(state))
    _, state = play(state, 0, {"type": "LoadDefault"})
    _, state = play(state, 1, {"type": "LoadDefault"})
    assert state["phase"] == "load" and legal(state, 0)[0] == {"type": "StoreLocally", "regions": ["AE5"]}
