"""Druglord rules version 2: the fixes of issue 9, each against the sentence it follows, and, where the
behaviour differs, the version-1 behaviour a game recorded before the fix keeps (docs/rules/druglord.md,
"Changelog").  The numbers are the issue's items."""
from __future__ import annotations

from itertools import permutations

import pytest

from rules.base import BadCommand, Rng
from rules.druglord import geo
from rules.druglord.board import BOARDS, board_at, extended_land_trade, extended_land_trade_either_way, neighbours
from rules.druglord.data import BOARD_DIGESTS, REGION_IDS
from rules.druglord.trade import options as trade_options
from tests.rules.druglord.support import (
    D,
    dice,
    ev,
    first,
    given,
    legal,
    new_game,
    play,
    put,
    stash,
    table,
    trade,
    types,
    with_cases,
    with_score,
)
from tests.rules.druglord.test_draft import to_next_turn

NONE: frozenset = frozenset()


def test_a_game_records_its_rules_version_and_the_map_it_is_played_on():
    # issue 9 "Versioned rulesets": a game is played under the version it was created with, for ever.
    assert [n for n, _ in D.versions][:2] == [1, 2]
    old, new = new_game(version=1), new_game(version=2)
    assert old["rules_version"] == 1 and new["rules_version"] == 2
    assert old["board"] == BOARD_DIGESTS[1] != new["board"] == BOARD_DIGESTS[2]


# --- 1. A Region won by Violence is the winner's pick ---------------------------------------------------------

def violence_draft(version):
    """Seat 0 (score 5) won FS3 from seat 1 through Violence; the next draft opens with its claim first."""
    state = given(table([["FS1"], ["FS3", "AE1"]], version=version),
                  ev("RegionLost", region="FS3", seat=1, priority=0, cause="violence"))
    _, state = to_next_turn(with_score(state, 0, 5))
    _, state = play(state, 0, {"type": "ClaimRegion", "region": "FS3"})
    _, state = play(state, 1, {"type": "DeclineDraft"})          # seat 1, the lowest score, picks next
    return state


def test_version_2_the_claimed_region_is_the_winners_pick_taken_first():
    # Druglord 1.2: "If a Region was forcibly put back into the Draft through Violence (Rule 9), the winning
    # belligerent has the option of drawing that specific Region before anyone else." Drawing it is the draw.
    state = violence_draft(2)
    assert state["owner"]["FS3"] == 0 and state["phase"] == "load"   # seat 0 had its pick: the draft closed
    assert sum(1 for owner in state["owner"].values() if owner == 0) == 2


def test_version_1_the_claim_came_on_top_of_the_pick():
    state = violence_draft(1)
    assert state["phase"] == "draft" and D.awaiting(state) == {0: "move"}
    assert {"type": "DraftRegion", "region": state["draft"]["offer"][0]} in legal(state, 0)


def test_version_2_a_declined_claim_keeps_the_normal_pick_and_a_second_claim_is_not_a_second_pick():
    # Druglord 1.2 "has the option": declining it leaves the winner's ordinary place in the draft order.
    state = given(table([["FS1"], ["FS3", "FS4", "AE1"]]),
                  ev("RegionLost", region="FS3", seat=1, priority=0, cause="violence"),
                  ev("RegionLost", region="FS4", seat=1, priority=0, cause="violence"))
    _, state = to_next_turn(with_score(state, 0, 5))
    events, state = play(state, 0, {"type": "ClaimRegion", "region": "FS3"})
    assert first(events, "ClaimDeclined") == {"seat": 0, "region": "FS4", "reason": "already drafted"}
    declined = given(table([["FS1"], ["FS3", "AE1"]]), ev("RegionLost", region="FS3", seat=1, priority=0,
                                                           cause="violence"))
    _, declined = to_next_turn(with_score(declined, 0, 5))
    _, declined = play(declined, 0, {"type": "DeclineDraft"})
    _, declined = play(declined, 1, {"type": "DeclineDraft"})
    assert D.awaiting(declined) == {0: "move"} and {"type": "DraftRegion", "region": "FS3"} in legal(declined, 0)


# --- 2. A failed Domestic Trade: one Case per unit of Weight lost -----------------------------------------------

def test_version_2_a_failed_domestic_trade_is_a_case_per_unit_lost():
    # Druglord 5: "An unsuccessful Trade becomes a Case (Rule 8.), one per unit of Weight." A Domestic Trade
    # exchanges "at a rate of 2 to 1": 2 units are lost, so 2 Cases (version 1: 1, see test_trade.py).
    state = put(table([["FS5"], ["AE1"]]), "FS5", "reefer", 2)
    events, after = play(state, 0, trade("FS5", "FS5", "domestic"), dice(1))
    assert first(events, "TradeFailed")["cases_added"] == 2 and after["players"][0]["cases"]["reefer"] == 2
    # ... and a Trial comes at 5 Cases as for any other bust (excess Cases ignored)
    events, _ = play(with_cases(state, 0, "pills", 4), 0, trade("FS5", "FS5", "domestic"), dice(1, 9))
    assert first(events, "TradeFailed")["cases_added"] == 1 and "TrialResolved" in types(events)


# --- 3. Storing weight locally ----------------------------------------------------------------------------------

def end_reefer_phase(state):
    """Both seats pass; returns the PhaseEnded sweep and the state after it."""
    _, state = play(state, 0, {"type": "Pass"})
    events, state = play(state, 1, {"type": "Pass"})
    return first(events, "PhaseEnded")["sweep"], state


@pytest.mark.parametrize("version,units,region,stored,to_traphouse", [
    (2, 1, "FS5", 1, 0),   # Southwest produces reefer and demands it: the lone unit waits for a Domestic Trade
    (2, 3, "FS5", 0, 3),   # 3 left over is not "only produces 1": it goes to the Traphouse
    (2, 1, "AE2", 0, 1),   # France demands reefer but does not produce it
    (1, 1, "FS5", 1, 0),   # version 1: one unit stays on any region with Demand for the type
    (1, 3, "FS5", 1, 2),
    (1, 1, "AE2", 1, 0),
])
def test_only_a_lone_produced_unit_is_stored_locally(version, units, region, stored, to_traphouse):
    # Druglord 5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight
    # may be stored locally and combined with weight from subsequent turns to later complete the Domestic Trade."
    state = put(table([[region], ["AE1"]], version=version), region, "reefer", units)
    sweep, state = end_reefer_phase(state)
    assert sweep == [[0, region, to_traphouse, stored]]
    assert state["stored"][region]["reefer"] == stored and state["players"][0]["traphouse"]["reefer"] == to_traphouse


# --- 4. Extended Land Trade goes both ways --------------------------------------------------------------------

def test_version_2_extended_land_trade_is_symmetric():
    # Druglord 5.B: "Regions bordering the Zone also may be Land traded with at +1 Penalty"; "Appalachia ... may
    # Extended Land Trade to all Regions bordering this Zone." Canada borders the Flyover States: weight moves
    # between Canada and Appalachia both ways (version 1: Canada -> Appalachia was Air at 4+).
    assert extended_land_trade(BOARDS[1], "FS1", "NP1", NONE) and not extended_land_trade(BOARDS[1], "NP1", "FS1", NONE)
    assert geo.routes("NP1", "FS1", NONE, frozenset({"NP1", "FS1"}), 1) == (("air", 4),)
    assert geo.routes("NP1", "FS1", NONE, frozenset({"NP1", "FS1"}), 2) == (("extended", 3),)
    state = put(table([["NP1", "FS1"], ["AE1"]], wtype="pills"), "NP1", "pills", 1)
    assert trade("NP1", "FS1", "extended") in legal(state, 0) and trade("NP1", "FS1", "air") not in legal(state, 0)
    old = put(table([["NP1", "FS1"], ["AE1"]], wtype="pills", version=1), "NP1", "pills", 1)
    assert trade("NP1", "FS1", "air") in legal(old, 0) and trade("NP1", "FS1", "extended") not in legal(old, 0)


def test_version_2_land_routes_are_the_same_both_ways_for_every_pair():
    board = board_at(2)
    for a, b in permutations(REGION_IDS, 2):
        assert extended_land_trade_either_way(board, a, b, NONE) == extended_land_trade_either_way(board, b, a, NONE)
        kinds = {route for route, _ in geo.routes(a, b, NONE, frozenset({a, b}), 2)}
        back = {route for route, _ in geo.routes(b, a, NONE, frozenset({a, b}), 2)}
        assert kinds == back, (a, b)


# --- 5. A game of 40 or more ----------------------------------------------------------------------------------

def test_version_2_games_longer_than_forty():
    # Druglord 12: "A game of 40 (or more) may be played by placing additional Score Markers on the loop space on
    # the Racetrack, adding 20 for each Score Marker."
    assert D.options["game_to"].choices == (20, 40, 60, 80, 100)
    assert new_game(options={"game_to": 100})["options"]["game_to"] == 100
    with pytest.raises(BadCommand, match="game_to"):
        D.at(1).setup({"game_to": 60}, 2, Rng("s", 0))
    state = with_score(table([["FS1"], ["AE1"]], options={"game_to": 60}), 0, 45)
    events, _ = play(state, 0, {"type": "Pass"})
    assert "EndgameTriggered" not in types(events)
    events, _ = play(with_score(state, 0, 60), 0, {"type": "Pass"})
    assert first(events, "EndgameTriggered") == {"seat": 0, "score": 60}
    assert D.view(with_score(state, 0, 61), None)["players"][0]["score_markers"] == 4   # 3 on the Loop space


# --- 6. Crackdown for the remainder of the game ---------------------------------------------------------------

def test_version_2_an_eleventh_crackdown_still_counts():
    # Druglord 8: "2. Crackdown: -1 Trade Roll penalty for most predominant type of Cases at time of Trial, applied
    # to all Regions, for remainder of game." No cap: the 10 Dime Bags only mark them (version 1: a cap).
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 2)
    state = with_cases(state, 0, "reefer", 4)
    others = dict(state["players"][1], crackdowns={"reefer": 10, "pills": 0, "cocaine": 0, "opiates": 0})
    state = dict(state, dime_bags=0, players=[state["players"][0], others])
    events, state = play(state, 0, trade("FS1", "FS5", "land"), dice(1, 2))
    assert first(events, "CrackdownImposed")["marker"] is True
    assert state["players"][0]["crackdowns"]["reefer"] == 1 and state["dime_bags"] == 0
    assert ("FS1", "FS5", "land", 3, 1) in trade_options(state, 0)   # the -1: Land Trade now needs 3


# --- 7. Trial result 1 after a Traphouse export ----------------------------------------------------------------

@pytest.mark.parametrize("version,lost", [(2, []), (1, ["FS5"])])
def test_a_traphouse_export_supplies_no_region_to_lose(version, lost):
    # Druglord 8: "1. Local Boss Executed: Lose final supplying Region responsible for bringing Player to Trial."
    # An export from the Traphouse was supplied by no Region (version 1 took the destination).
    state = with_cases(stash(table([["FS1", "FS5"], ["AE1"]], version=version), 0, "reefer", 1), 0, "reefer", 4)
    events, state = play(state, 0, trade("traphouse", "FS5", "export"), dice(1, 1))
    assert first(events, "TrialResolved")["name"] == "Local Boss Executed"
    assert [e.data["region"] for e in events if e.type == "RegionLost"] == lost
    assert ("FS5" in state["owner"]) is (version == 2)


# --- 8. The map: Oregon-Nevada, Antioquia's and the Levant's coasts ------------------------------------------------

def test_version_2_map_review():
    # Druglord 5.B "Any 2 Regions sharing a Land Border may move weight"; 5.C "Any 2 Regions sharing a common Ocean".
    # Oregon (Pacific Northwest) borders Nevada (Southwest); Choco (Antioquia) is on the Pacific; the Levant reaches
    # the Red Sea and the Gulf (Indian Ocean).  Version 1 keeps the map it was released with.
    old, new = board_at(1), board_at(2)
    assert "FS5" not in neighbours(old, "NP2") and "FS5" in neighbours(new, "NP2") and "NP2" in neighbours(new, "FS5")
    assert old.regions["CO1"].ports == ("atlantic",) and new.regions["CO1"].ports == ("atlantic", "pacific")
    assert old.regions["ME5"].ports == ("atlantic",) and new.regions["ME5"].ports == ("atlantic", "indian")
    assert not new.regions["CO1"].interoceanic and not new.regions["ME5"].interoceanic   # no icon: links nothing
    assert geo.routes("NP2", "FS5", NONE, frozenset({"NP2", "FS5"}), 2)[0] == ("land", 2)
    assert geo.routes("CO1", "PE3", NONE, frozenset({"CO1", "PE3"}), 2) != \
        geo.routes("CO1", "PE3", NONE, frozenset({"CO1", "PE3"}), 1)
    assert ("sea:indian", 3) in geo.routes("ME5", "IR4", NONE, frozenset({"ME5", "IR4"}), 2)
    assert geo.in_range("NP2", "FS5", NONE, 2) and not geo.in_range("NP2", "FS5", NONE, 1)


# --- 9. Sway and roll-offs (unchanged: ruling) --------------------------------------------------------------------

def test_roll_offs_and_the_action_order_roll_open_no_sway_window_in_either_version():
    # Ruling (docs/rules/druglord.md, Changelog item 9): Rule 7 "Sway is the act of modifying any die roll" is read
    # with "The amount of Sway and specific die must be declared before the roll": the action-order roll and the
    # roll-offs are rolled by the flow at once, with nobody's roll to declare on.
    for version in (1, 2):
        state = stash(table([["FS1"], ["AE1"]], wtype="opiates", version=version), 0, "reefer", 3)
        _, state = play(state, 0, {"type": "Pass"})
        events, state = play(state, 1, {"type": "Pass"}, dice(2, 2, 3, 5))   # the draft order's roll-off
        assert first(events, "DraftOpened")["rolloffs"] == [{"who": [0, 1], "dice": [2, 2]},
                                                            {"who": [0, 1], "dice": [3, 5]}]
        assert "RollStarted" not in types(events) and state["roll"] is None
