"""Druglord Rule 1.2 Draft (from turn 2), Rule 2.2 Expand, and the 14 Region Markers."""
from __future__ import annotations

from rules.druglord.data import REGION_IDS
from tests.rules.druglord.support import (
    D,
    dice,
    ev,
    first,
    given,
    legal,
    play,
    refused,
    table,
    types,
    with_score,
)


def to_next_turn(state, rng=None):
    """Everyone passes to the end of the turn; the last pass opens the next Region Phase."""
    events = []
    while state["phase"] == "action":
        seat = next(iter(D.awaiting(state)))
        last = state["wtype"] == "opiates" and state["pos"] == len(state["order"]) - 1
        new, state = play(state, seat, {"type": "Pass"}, rng if last else None)
        events += new
    return events, state


def test_draft_of_players_plus_one_cards_lowest_score_first():
    # Druglord 1.2: "the high scoring Player draws and places new Region Cards face up. The number of cards for the
    # Draft equals the number of Players + 1. Players draft from these new Region Cards, in order from lowest
    # scoring player to highest scoring Player."
    state = with_score(with_score(table([["FS1"], ["AE1"], ["AR4"]]), 0, 7), 2, 3)
    deck_top = state["deck"][:4]
    events, state = to_next_turn(state)
    opened = first(events, "DraftOpened")
    assert opened["new"] == deck_top and opened["order"] == [1, 2, 0] and opened["drawer"] == 0
    assert state["phase"] == "draft" and D.awaiting(state) == {1: "move"}
    assert legal(state, 1) == [{"type": "DraftRegion", "region": r} for r in deck_top] + [{"type": "DeclineDraft"}]
    # Rule 2.2: "Place new Region Marker on corresponding Region after Region Card Draft"
    _, state = play(state, 1, {"type": "DraftRegion", "region": deck_top[2]})
    assert state["owner"][deck_top[2]] == 1 and D.awaiting(state) == {2: "move"}
    # "A Player may choose not to draft a card."
    _, state = play(state, 2, {"type": "DeclineDraft"})
    events, state = play(state, 0, {"type": "DraftRegion", "region": deck_top[0]})
    closed = first(events, "DraftClosed")
    # "The extra card(s) is shuffled back into the Regions Deck."
    assert sorted(closed["returned"]) == sorted([deck_top[1], deck_top[3]])
    assert D.visible_to(next(e for e in events if e.type == "DeckShuffled")) == set()
    assert "LoadingStarted" in types(events) and state["phase"] == "load"
    assert len(state["deck"]) == len(REGION_IDS) - 5


def test_tied_scores_roll_off_high_roll_drafts_first():
    # Druglord 1.2: "If multiple Players have the same score, roll off for who draws first. High roll may draw
    # first"
    events, state = to_next_turn(table([["FS1"], ["AE1"]]), dice(3, 5))
    opened = first(events, "DraftOpened")
    assert opened["rolloffs"] == [{"who": [0, 1], "dice": [3, 5]}] and opened["order"] == [1, 0]
    assert D.awaiting(state) == {1: "move"} and state["draft"]["drawer"] == 0


def test_violence_winner_claims_the_lost_region_before_anyone_else():
    # Druglord 1.2: "If a Region was forcibly put back into the Draft through Violence (Rule 9), the winning
    # belligerent has the option of drawing that specific Region before anyone else."
    state = table([["FS1"], ["FS3", "AE1"]])
    state = given(state, ev("RegionLost", region="FS3", seat=1, priority=0, cause="violence"))
    state = with_score(state, 0, 5)
    events, state = to_next_turn(state)
    opened = first(events, "DraftOpened")
    assert opened["lost"] == [{"region": "FS3", "priority": 0}] and "FS3" in state["draft"]["offer"]
    assert D.awaiting(state) == {0: "move"}                           # before seat 1, the lowest score
    assert legal(state, 0) == [{"type": "ClaimRegion", "region": "FS3"}, {"type": "DeclineDraft"}]
    refused(state, 0, {"type": "DraftRegion", "region": "FS3"}, rule="1.2", match="Violence")
    _, state = play(state, 0, {"type": "ClaimRegion", "region": "FS3"})
    assert state["owner"]["FS3"] == 0 and D.awaiting(state) == {1: "move"}
    assert "FS3" not in state["draft"]["offer"]


def test_a_declined_claim_stays_in_the_draft_for_everyone():
    # Druglord 9: "can be Drafted by the Attacker (or someone else, if the Attacker chooses not to Draft it)".
    state = given(table([["FS1"], ["FS3", "AE1"]]), ev("RegionLost", region="FS3", seat=1, priority=0,
                                                       cause="violence"))
    _, state = to_next_turn(state, dice(2, 5))                         # seat 1 drafts first
    _, state = play(state, 0, {"type": "DeclineDraft"})
    assert {"type": "DraftRegion", "region": "FS3"} in legal(state, 1)


def test_a_region_lost_at_trial_goes_into_the_draft_without_priority():
    # Druglord 8.1: "Region goes into next Turn's Draft (Rule 1.2)."
    state = given(table([["FS1", "FS5"], ["AE1"]]), ev("RegionLost", region="FS5", seat=0, priority=None,
                                                       cause="trial"))
    _, state = to_next_turn(state)
    assert state["draft"]["claims"] == [] and "FS5" in state["draft"]["offer"]
    assert len(state["draft"]["offer"]) == 4


def test_no_marker_left_no_draft():
    # Druglord components: "Region Markers: 14" per player, one of them the Score Marker.  Versions 1 and 2
    # count the racetrack's markers as they are now (version 3 sets a game's aside: test_rules_version_3.py).
    thirteen = sorted(REGION_IDS)[:13]
    state = table([thirteen, ["SE5"]], version=2)
    assert D.view(state, 0)["players"][0]["markers_free"] == 0
    events, state = to_next_turn(state, dice(5, 2))                    # seat 0 would draft first
    assert first(events, "DraftDeclined") == {"seat": 0, "reason": "no marker"}
    assert D.awaiting(state) == {1: "move"}
    assert D.on_timeout(state, 1) == {"type": "DeclineDraft"}
