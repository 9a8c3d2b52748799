"""Issue 24 (rules round 3), Lords of Cannabis, rules version 2: played Progress cards come back face up
(ruling 21), Victory Point cards lie face down in front of their owner (ruling 25), and the coast paths
(ruling "Paths on the coast", no change).  Version 1 games keep the old behaviour (regression tests)."""
from __future__ import annotations

import json

from rules.base import Rng
from rules.lords_of_cannabis.board import NODE_BRICKS, NODE_DOCK, NODE_PATHS, NODES, PATHS
from rules.lords_of_cannabis.cards import VICTORY_CARDS, crop_deck
from tests.rules.lords_of_cannabis.support import L, cards, crops, first, play, table

FUEL_SEEDS_SOIL = {"FUEL": 1, "SEEDS": 1, "SOIL": 1}  # a Crop card's price
STRONG_ARM = {"type": "PlayStrongArm", "resource": "WATER"}


def at(version: int, seats: int = 3, deck: list[str] | None = None) -> dict:
    """Given seat 0's turn after the roll, in a game of rules `version`."""
    return {**table(seats, phase="main", deck=deck), "rules_version": version}


def deck_drawn_down_to(state: dict, *left: str) -> dict:
    """Given every Crop card but `left` drawn (face down) into seat 2's hand."""
    rest = list(state["deck"])
    for card in left:
        rest.remove(card)
    return crops(state, 2, *rest)


def strong_arm_played_with_one_card_left(version: int) -> tuple[list, dict]:
    """Seat 0 plays Strong-Arm when the deck holds one face-down card (Up-Sizing)."""
    state = deck_drawn_down_to(crops(at(version), 0, "strong_arm"), "up_sizing")
    return play(state, 0, STRONG_ARM)


def later_turn(state: dict) -> dict:
    """Given seat 0's next turn after the roll (it may play a Crop card again), the table as it is."""
    return {**state, "crop_played": False}


# ------------------------------------------------------------------ ruling 21: face up to the bottom
def test_a_played_progress_card_lies_face_up_at_the_bottom_of_the_deck_for_everyone_to_see():
    # Victory Point Cards: "All played Crop Cards are returned to the bottom of the deck face up."
    events, state = strong_arm_played_with_one_card_left(2)
    assert first(events, "StrongArmPlayed")["seat"] == 0  # which card was played is in the event's open part
    assert state["deck"] == ["up_sizing", "strong_arm"]
    for reader in (None, 0, 1, 2):
        assert L.view(state, reader)["crop_deck_face_up"] == ["strong_arm"]
    # the face-down card's place is no secret any more when it is the only one (nothing to order)
    assert L.hidden_from(state, 1) == []


def test_a_card_that_came_back_face_up_is_drawn_in_the_open_and_stays_shown_until_played():
    # "All played Crop Cards are returned to the bottom of the deck face up." Drawn again, everyone saw it
    _, state = strong_arm_played_with_one_card_left(2)
    state = cards(crops(state, 1, "up_sizing"), 0, **FUEL_SEEDS_SOIL)  # the face-down card is gone
    events, state = play(state, 0, {"type": "BuyCrop"})
    bought = first(events, "CropBought")
    assert bought == {"seat": 0, "card": "strong_arm"}
    assert L.visible_to(events[0]) == L.visible_to(type(events[0])("TurnEnded", {"next": 1}))  # public
    assert L.view(state, 1)["players"][0]["crops_shown"] == ["strong_arm"]
    assert L.view(state, 1)["crop_deck_face_up"] == []
    # played again, it is no longer shown in the hand: it is back at the bottom, face up
    _, state = play(later_turn(state), 0, STRONG_ARM)
    assert L.view(state, 2)["players"][0]["crops_shown"] == []
    assert L.view(state, 2)["crop_deck_face_up"] == ["strong_arm"]


def test_a_face_down_card_is_still_bought_in_secret_above_the_face_up_ones():
    # "If you buy a Crop Card, you must take one from the top of the shuffled pile. Conceal all of your Crop
    # Cards until they are played."
    _, state = strong_arm_played_with_one_card_left(2)
    events, state = play(cards(state, 0, **FUEL_SEEDS_SOIL), 0, {"type": "BuyCrop"})
    assert first(events, "CropBought") == {"seat": 0, "victory": False, "secret": {"card": "up_sizing"}}
    assert L.view(state, 1)["players"][0]["crops_shown"] == []
    assert L.view(state, 1)["crop_deck_face_up"] == ["strong_arm"]


def test_version_1_returned_cards_stay_secret():
    # regression: a version-1 game keeps the old reading (the deck's order all hidden, every draw secret)
    _, state = strong_arm_played_with_one_card_left(1)
    assert state["deck"] == ["up_sizing", "strong_arm"]
    assert "crop_deck_face_up" not in L.view(state, 1)
    assert L.hidden_from(state, 1) == [["up_sizing", "strong_arm"]]
    state = cards(crops(state, 1, "up_sizing"), 0, **FUEL_SEEDS_SOIL)
    events, state = play(state, 0, {"type": "BuyCrop"})
    assert first(events, "CropBought") == {"seat": 0, "secret": {"card": "strong_arm"}}
    assert "crops_shown" not in L.view(state, 1)["players"][0]
    assert "deck_face_up" not in state and "crops_shown" not in state  # version 1's state as it was


# ------------------------------------------------------------------ ruling 25: face down in front of you
def test_how_many_victory_point_cards_a_player_keeps_face_down_is_public_but_not_which():
    # Victory Point Cards: "Victory Point Cards are to be kept face down in front of you until the end of
    # the game."
    deck = crop_deck()
    deck.remove("close_call")
    state = cards(at(2, deck=["close_call"] + deck), 0, **FUEL_SEEDS_SOIL)
    events, state = play(state, 0, {"type": "BuyCrop"})
    assert first(events, "CropBought") == {"seat": 0, "victory": True, "secret": {"card": "close_call"}}
    seen = L.view(state, 1)
    assert seen["players"][0]["victory_cards"] == 1 and seen["players"][1]["victory_cards"] == 0
    assert "close_call" not in json.dumps(seen)  # which one stays hidden
    assert "hidden_points" not in seen["players"][0]


def test_version_1_hides_how_many_victory_point_cards_a_player_holds():
    # regression: version 1 showed only how many Crop cards a player holds
    deck = crop_deck()
    deck.remove("close_call")
    state = cards(at(1, deck=["close_call"] + deck), 0, **FUEL_SEEDS_SOIL)
    events, state = play(state, 0, {"type": "BuyCrop"})
    assert first(events, "CropBought") == {"seat": 0, "secret": {"card": "close_call"}}
    assert "victory_cards" not in L.view(state, 1)["players"][0]
    assert L.view(state, 1)["players"][0]["crop_count"] == 1


# ------------------------------------------------------------------ the search samples only what is face down
def test_the_search_keeps_face_up_cards_and_the_victory_card_counts_where_they_are():
    # a determinization deals anew only what lies face down: the deck's face-up bottom and each hand's
    # number of Victory Point cards (kept face down in front of it) are public
    state = crops(crops(at(2), 0, "strong_arm"), 1, "close_call", "gangsta", "up_sizing")
    state = deck_drawn_down_to(state, "deal_of_the_decade", "gangsta", "gangsta", "mass_production")
    _, state = play(state, 0, STRONG_ARM)
    assert state["deck"][-1] == "strong_arm"
    for i in range(30):
        for seat in (0, 1, 2, None):
            sample = L.determinize(state, seat, Rng("loc-round3", i))
            assert L.view(sample, seat) == L.view(state, seat)
            assert sample["deck"][-1] == "strong_arm"
            assert [sum(c in VICTORY_CARDS for c in hand) for hand in sample["crops"]] == [0, 1, 3]


def test_the_search_keeps_a_card_drawn_face_up_in_its_hand():
    _, state = strong_arm_played_with_one_card_left(2)
    state = crops(state, 1, "up_sizing")
    state = play(cards(state, 0, **FUEL_SEEDS_SOIL), 0, {"type": "BuyCrop"})[1]  # strong_arm, in the open
    for i in range(30):
        sample = L.determinize(state, 1, Rng("loc-round3-hand", i))
        assert sample["crops"][0] == ["strong_arm"] and L.view(sample, 1) == L.view(state, 1)


# ------------------------------------------------------------------ ruling "Paths on the coast" (no change)
def test_coast_paths_are_paths_and_most_docks_are_reached_only_along_them():
    # Tunnels: "Only one Tunnel can be built on a given path. (A path is where two resources meet.)" The
    # ruling keeps the brick's edges on the sea as paths: without them 12 of the 18 dock intersections
    # (and 20 intersections in all) could never be reached by a Tunnel.
    coast = {p for p, (a, b) in enumerate(PATHS) if len(set(NODE_BRICKS[a]) & set(NODE_BRICKS[b])) == 1}
    assert len(PATHS) == 89 and len(coast) == 34
    assert len([n for n in range(NODES) if len(NODE_BRICKS[n]) == 1]) == 20
    docks = [n for n in range(NODES) if NODE_DOCK[n] is not None]
    only_by_coast = [n for n in docks if set(NODE_PATHS[n]) <= coast]
    assert len(docks) == 18 and len(only_by_coast) == 12
    # a dock serves the two ends of its coast path; without the coast paths 3 of the 9 could not be reached
    dock_ends = [PATHS[p] for p in coast if all(NODE_DOCK[n] is not None for n in PATHS[p])]
    assert len(dock_ends) == 9
    assert len([ends for ends in dock_ends if set(ends) <= set(only_by_coast)]) == 3


def test_only_the_coast_paths_give_most_intersections_the_three_adjacent_intersections_the_greenhouse_rule_counts():
    # Greenhouse: "You may only build a Greenhouse on a vacant intersection, and only if all three of the adjacent
    # intersections are all vacant." -- the sentence presumes an intersection has three adjacent intersections.
    # With the coast paths 46 of the 66 do (the 20 rim corners of one brick have two); along the paths between two
    # bricks only, 32 do (fewer than half), 14 have one and 20 have none.
    coast = {p for p, (a, b) in enumerate(PATHS) if len(set(NODE_BRICKS[a]) & set(NODE_BRICKS[b])) == 1}

    def adjacent(paths) -> dict[int, int]:
        """How many intersections have 0, 1, 2, 3 adjacent intersections along these paths."""
        degree = [sum(n in PATHS[p] for p in paths) for n in range(NODES)]
        return {k: degree.count(k) for k in range(4) if degree.count(k)}

    assert adjacent(range(len(PATHS))) == {2: 20, 3: 46}
    assert adjacent(set(range(len(PATHS))) - coast) == {0: 20, 1: 14, 3: 32}
