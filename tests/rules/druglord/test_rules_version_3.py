"""Druglord rules version 3 (issue 24, "Rules round 3"): one section per item, each quoting the sentence it
follows, and the older versions' behaviour where it differs (docs/rules/druglord.md, Changelog)."""
from __future__ import annotations

from rules.druglord import load, storage
from rules.druglord.data import REGION_IDS
from rules.druglord.state import MOST_STACKS_A_TURN, free_markers, markers_in_use, track_reserve
from rules.ruleset import latest_version
from tests.rules.druglord.support import (
    D,
    dice,
    ev,
    first,
    given,
    legal,
    play,
    refused,
    stash,
    store,
    table,
    types,
    with_score,
)
from tests.rules.druglord.test_draft import to_next_turn


def test_version_3_is_listed():
    assert latest_version(D) >= 3 and [n for n, _ in D.versions][:3] == [1, 2, 3]  # version 4: test_rules_version_4.py
    assert "roll-off" in dict(D.versions)[3]


def sway(die, units, weight="reefer"):
    return {"type": "Sway", "die": die, "weight": weight, "units": units}


END = {"type": "EndSway"}


# --- 1. Sway on the action-order roll and the roll-offs ---------------------------------------------------------

def loaded(empires, version=3):
    """Every seat of these empires has loaded by default (the action-order roll comes next)."""
    state = table(empires, version=version)
    state = given(state, load.loading_started(state))
    for seat in range(len(empires)):
        if state["loading"][seat] is not None:
            _, state = play(state, seat, {"type": "LoadDefault"})
    return state


def test_version_3_the_action_order_roll_opens_a_sway_window():
    # Druglord 7: "Sway is the act of modifying any die roll … Opposing players may contribute to or counter-Sway
    # any die roll with their Traphouse weight."  4: "Players roll for Action order, highest rolling player acting
    # first."  Traphouse weight buys the first action.
    state = table([["FS1"], ["AE2"]], version=3)
    state = stash(stash(given(state, load.loading_started(state)), 0, "pills", 4), 1, "pills", 1)
    _, state = play(state, 0, {"type": "LoadDefault"})
    events, state = play(state, 1, {"type": "LoadDefault"})
    assert types(events)[-1] == "RollStarted" and "ActionOrderRolled" not in types(events)
    roll = state["roll"]
    assert roll["kind"] == "rolloff" and roll["dice"] == ["seat0", "seat1"] and roll["context"]["for"] == "action"
    assert D.awaiting(state) == {0: "move"} and state["phase"] == "load"
    refused(state, 0, sway("seat0", -1, "pills"), rule="7")             # your own die only upwards
    _, state = play(state, 0, sway("seat0", 3, "pills"))
    _, state = play(state, 0, END)
    assert D.awaiting(state) == {1: "response"}
    _, state = play(state, 1, sway("seat0", -1, "pills"))               # the opponent counter-Sways
    events, state = play(state, 1, END, dice(2, 4))                     # naturals: seat 0 rolls 2, seat 1 rolls 4
    cast = first(events, "RollCast")
    assert cast["totals"] == {"seat0": 4, "seat1": 4}                   # 2 + 3 - 1: a tie, rolled again
    assert types(events)[-1] == "RollStarted" and state["roll"]["context"]["rounds"] == [
        {"who": [0, 1], "dice": [4, 4]}]
    assert state["players"][0]["traphouse"]["pills"] == 1 and state["players"][1]["traphouse"]["pills"] == 0
    events, state = play(state, 0, sway("seat0", 1, "pills"), dice(3, 3))  # nothing left on either side: cast
    rolled = first(events, "ActionOrderRolled")
    assert rolled["rounds"] == [{"who": [0, 1], "dice": [4, 4]}, {"who": [0, 1], "dice": [4, 3]}]
    assert rolled["order"] == [0, 1] and state["phase"] == "action" and state["roll"] is None


def test_version_3_a_roll_off_nobody_can_sway_is_rolled_at_once():
    state = loaded([["FS1"], ["AE2"]])
    assert state["phase"] == "action" and state["roll"] is None and state["rolloffs"]["action"]


def test_version_3_the_draft_roll_off_is_swayable():
    # Druglord 1.2: "If multiple Players have the same score, roll off for who draws first. High roll may draw
    # first" -- a die roll, so Rule 7's Sway applies.
    state = stash(table([["FS1"], ["AE1"]], wtype="opiates", version=3), 1, "reefer", 2)
    events, state = to_next_turn(state)
    assert state["roll"]["kind"] == "rolloff" and state["roll"]["context"]["for"] == "draft"
    assert D.awaiting(state) == {1: "response"}                          # seat 0 has nothing: declared for it
    _, state = play(state, 1, sway("seat1", 2))
    events, state = play(state, 1, END, dice(4, 3))
    opened = first(events, "DraftOpened")
    assert opened["rolloffs"] == [{"who": [0, 1], "dice": [4, 5]}] and opened["order"] == [1, 0]
    assert state["phase"] == "draft" and state["roll"] is None


def test_version_3_the_endgame_roll_off_is_swayable_and_the_greedy_bot_spends_on_it():
    # Druglord 12: "In the event of a tie, victory is determined by a roll-off."
    state = with_score(with_score(table([["FS1"], ["AE1"]], wtype="opiates", version=3), 0, 21), 1, 21)
    state = stash(given(state, ev("EndgameTriggered", seat=0, score=21)), 0, "pills", 5)
    _, state = play(state, 0, {"type": "Pass"})
    events, state = play(state, 1, {"type": "Pass"})
    assert "GameEnded" not in types(events) and state["roll"]["context"]["for"] == "endgame"
    assert D.awaiting(state) == {0: "move"} and D.on_timeout(state, 0) == END
    move = D.choose_bot_move(state, 0, "greedy", dice())
    assert move["type"] == "Sway" and move["die"] == "seat0" and move["units"] == 5
    events, state = play(state, 0, move, dice(2, 5))                    # all spent, seat 1 has none: cast
    ended = first(events, "GameEnded")
    assert ended["winners"] == [0] and ended["rolloff"] == [{"who": [0, 1], "dice": [7, 5]}]
    assert D.outcome(state)["winners"] == [0]


def test_versions_1_and_2_roll_the_endgame_roll_off_at_once():
    state = with_score(with_score(table([["FS1"], ["AE1"]], wtype="opiates", version=2), 0, 21), 1, 21)
    state = stash(given(state, ev("EndgameTriggered", seat=0, score=21)), 0, "pills", 5)
    _, state = play(state, 0, {"type": "Pass"})
    events, state = play(state, 1, {"type": "Pass"}, dice(2, 5))
    assert first(events, "GameEnded")["winners"] == [1] and "RollStarted" not in types(events)


# --- 3. Storing weight locally: the player's choice, for a Region that only produces 1 ------------------------------

def pass_phase(state):
    """Everyone passes this action phase; the events and the state after."""
    events, wtype = [], state["wtype"]
    while state["phase"] == "action" and state["wtype"] == wtype:
        seat = next(iter(D.awaiting(state)))
        new, state = play(state, seat, {"type": "Pass"})
        events += new
    return events, state


def to_loaded(version, choice=None):
    """Seat 0 holds Mediterranean Europe (AE5: Weight Value 1, produces reefer, demands 2); both load."""
    state = table([["AE5"], ["FS1"]], version=version)
    state = given(state, load.loading_started(state))
    _, state = play(state, 0, {"type": "LoadDefault"})
    _, state = play(state, 1, {"type": "LoadDefault"})
    if choice is not None:
        assert D.awaiting(state) == {0: "move"} and state["phase"] == "load"
        assert legal(state, 0) == [{"type": "StoreLocally", "regions": ["AE5"]},
                                   {"type": "StoreLocally", "regions": []}]
        events, state = play(state, 0, {"type": "StoreLocally", "regions": choice})
        assert first(events, "StorageChosen") == {"seat": 0, "stored": choice, "offered": ["AE5"]}
    assert state["phase"] == "action" and state["weight"]["AE5"]["reefer"] == 1
    return state


def test_version_3_a_region_that_only_produces_1_may_store_it_or_send_it_to_the_traphouse():
    # Druglord 5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight
    # may be stored locally and combined with weight from subsequent turns to later complete the Domestic Trade."
    # Druglord 5: "Any Weight not traded may be moved to the Traphouse (Rule 7.)".
    events, kept = pass_phase(to_loaded(3, ["AE5"]))
    assert first(events, "PhaseEnded")["sweep"] == [[0, "AE5", 0, 1]] and kept["stored"]["AE5"]["reefer"] == 1
    events, moved = pass_phase(to_loaded(3, []))
    assert first(events, "PhaseEnded")["sweep"] == [[0, "AE5", 1, 0]] and moved["stored"]["AE5"]["reefer"] == 0
    assert moved["players"][0]["traphouse"]["reefer"] == 1


def test_version_2_stored_the_lone_unit_for_the_player():
    events, state = pass_phase(to_loaded(2))
    assert first(events, "PhaseEnded")["sweep"] == [[0, "AE5", 0, 1]]


def test_version_3_stores_one_unit_even_beside_an_untraded_pair_and_only_on_a_weight_value_1_region():
    # "only produces 1": read from the Region's card (Weight Value 1), not from what is left at the phase's end.
    state = store(to_loaded(3, ["AE5"]), "AE5", "reefer")                 # last turn's unit + this turn's
    events, state = pass_phase(state)
    assert first(events, "PhaseEnded")["sweep"] == [[0, "AE5", 1, 1]]
    lone = given(table([["FS5"], ["AE1"]], version=3),                    # Southwest: Weight Value 3
                 ev("BonusWeight", seat=0, card="-", region="FS5", weight="reefer", rolled=1, units=1))
    assert storage.offered(lone, 0) == []
    events, _ = pass_phase(lone)
    assert first(events, "PhaseEnded")["sweep"] == [[0, "FS5", 1, 0]]     # version 2 stored it (test_rules_version_2)


def test_version_3_storage_choice_is_refused_out_of_turn_and_for_other_regions():
    state = table([["AE5"], ["FS1"]], version=3)
    state = given(state, load.loading_started(state))
    refused(state, 0, {"type": "StoreLocally", "regions": ["FS1"]}, rule="5.A")
    _, state = play(state, 0, {"type": "LoadDefault"})
    assert D.on_timeout(state, 0) == {"type": "StoreLocally", "regions": ["AE5"]}
    refused(state, 1, {"type": "StoreLocally", "regions": []}, rule="5.A")   # seat 1 holds no such Region
    refused(table([["AE5"], ["FS1"]], version=2), 0, {"type": "StoreLocally", "regions": []}, rule="5.A")


# --- 4. The 14 Region Markers bind: the racetrack's markers are set aside -----------------------------------------

def test_version_3_the_racetrack_markers_for_the_game_are_set_aside_from_the_14():
    # Druglord components: "Region Markers: 14 Sapphires, …"; 2: "Place another Region Marker at the Start space on
    # the Racetrack"; 12: "When a player exceeds 20 stacks, place a Score Marker on the Loop space" and "A game of
    # 40 (or more) may be played by placing additional Score Markers on the loop space on the Racetrack, adding 20
    # for each Score Marker."
    assert MOST_STACKS_A_TURN == 13 < 20
    assert [track_reserve(g) for g in (20, 40, 60, 80, 100)] == [2, 3, 4, 5, 6]
    eight = sorted(REGION_IDS)[:8]
    state = table([eight, ["SE5"]], options={"game_to": 100}, version=3)
    assert free_markers(state, 0) == 0 and D.view(state, 0)["players"][0]["markers_free"] == 0
    events, state = to_next_turn(state, dice(5, 2))                      # seat 0 would draft first
    assert first(events, "DraftDeclined") == {"seat": 0, "reason": "no marker"}
    # the situation of the audit: the last turn's highest score still finds its Loop markers
    final = with_score(state, 0, 100 - 1 + MOST_STACKS_A_TURN)
    assert markers_in_use(final, 0) == 14 and D.invariants(final) == []


def test_version_2_let_the_draft_use_markers_the_racetrack_needed_later():
    eight = sorted(REGION_IDS)[:8]
    state = table([eight, ["SE5"]], options={"game_to": 100}, version=2)
    assert free_markers(state, 0) == 5
    thirteen = with_score(table([sorted(REGION_IDS)[:13], ["SE5"]], version=2), 0, 21)
    assert markers_in_use(thirteen, 0) == 15 and D.invariants(thirteen) == []   # 15 of 14, unnoticed
    over = with_score(table([sorted(REGION_IDS)[:12], ["SE5"]], version=3), 0, 41)
    assert markers_in_use(over, 0) == 15 and any("Region Markers" in bad for bad in D.invariants(over))
