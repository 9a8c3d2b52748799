"""Game Setup and the board (reconstructed): a brick wall of 24 resource bricks in rows 4-5-6-5-4,
geometry derived by code and validated at import; the numbered chips placed from the game's Rng."""
from __future__ import annotations

import json

import pytest

from rules.base import Rng
from rules.lords_of_cannabis import board as B
from rules.lords_of_cannabis.placement import place_chips
from tests.rules.lords_of_cannabis.support import new_game


def test_the_board_data_says_it_is_reconstructed_and_splits_resources_about_evenly():
    # issue: "resources about evenly split", values "marked reconstructed"
    data = json.loads(B.BOARD_FILE.read_text(encoding="utf-8"))
    assert "reconstructed" in data["reconstructed"] and data["rows"] == [4, 5, 6, 5, 4]
    counts = sorted(data["resources"].count(r) for r in B.RESOURCES)
    assert counts == [4, 5, 5, 5, 5] and B.BRICKS == 24 and len(B.CHIPS) == 24


def test_adjacency_invariants_every_intersection_touches_at_most_three_bricks_and_nothing_is_orphaned():
    # Greenhouse: "only if all three of the adjacent intersections are all vacant": three bricks meet at an
    # intersection, as on hexes
    assert all(1 <= len(bricks) <= 3 for bricks in B.NODE_BRICKS)
    assert all(len(set(p)) == 2 for p in B.PATHS)
    assert {n for p in B.PATHS for n in p} == set(range(B.NODES))           # no orphan intersection
    assert all(len(B.BRICK_NODES[b]) == 6 for b in range(B.BRICKS))
    assert all(1 <= len(B.NODE_NEIGHBOURS[n]) <= 3 for n in range(B.NODES))
    inner = [b for b in range(B.BRICKS) if len(B.BRICK_NEIGHBOURS[b]) == 6]
    assert len(inner) == 10                                                   # the rest are on the coast
    for b in range(B.BRICKS):                                                 # neighbours share two corners
        for other in B.BRICK_NEIGHBOURS[b]:
            assert len(set(B.BRICK_NODES[b]) & set(B.BRICK_NODES[other])) == 2
    q_r_s = [(q, r, -q - r) for q, r in B.BRICK_COORDS]
    assert all(max(abs(c) for c in cube) <= 3 for cube in q_r_s)             # cube coordinates


def test_docks_sit_on_the_coast_one_two_for_one_per_resource_and_four_question_marks():
    # Trade: "a 3:1 trade if you have a loading dock with a '?' ... a 2:1 trade if you have a loading dock with a
    # resource symbol"
    docks = [d for d in B.NODE_DOCK if d is not None]
    assert docks.count("?") == 8 and sorted(d for d in docks if d != "?") == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    coastal = {n for p in B.COAST for n in B.PATHS[p]}
    assert all(n in coastal for n, d in enumerate(B.NODE_DOCK) if d is not None)


def test_a_dock_off_the_coast_is_refused_at_import():
    data = B.board_data()
    data["docks"][0] = {"kind": "?", "brick": 12, "side": "E"}
    with pytest.raises(ValueError, match="not on the coast"):
        B.validate(data, B.derive(data["rows"]))


@pytest.mark.parametrize("seed", range(25))
def test_chips_are_placed_randomly_and_equal_numbers_never_touch(seed):
    # Game Setup: "Mix up the numbered coins and place them randomly ... duplicate numbers should not be placed
    # adjacent to one another."
    chips = place_chips(Rng(f"chips-{seed}", 0))
    assert sorted(chips) == sorted(B.CHIPS)
    assert all(chips[b] != chips[o] for b in range(B.BRICKS) for o in B.BRICK_NEIGHBOURS[b])


def test_the_chips_come_from_the_games_rng_and_the_same_board_serves_every_player_count():
    assert new_game(2, "a")["chips"] == new_game(2, "a")["chips"] != new_game(2, "b")["chips"]
    assert len(new_game(6)["sites"]) == len(new_game(2)["sites"]) == B.NODES
