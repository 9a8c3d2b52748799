"""The reconstructed board (board.json) and cards (cards.json): validated against the rulebook at import."""
from __future__ import annotations

import copy
import json

import pytest

from rules.trafficking import board
from rules.trafficking.data import BOARD, CARDS_DATA, SQUARES, validate_board, validate_cards


def count(kind):
    return sum(1 for s in SQUARES.values() if s["kind"] == kind)


def test_every_square_the_rulebook_names_in_its_counts():
    # Trafficking 3e / 6a / 9 / 11: 8 Hang Outs, 8 Dealing squares, 4 Cop Shops, 4 11-7 stores;
    # 13: "either one of the two Expressway squares"; 16d: "The West End Cop Shop"
    assert (count("hang_out"), count("dealing"), count("cop_shop"), count("eleven_seven")) == (8, 8, 4, 4)
    assert count("expressway") == 2 and board.WEST_END == "cop-shop-west"
    for kind in ("jack_pot", "marcus", "pusher", "buddy_jims", "roxy", "no_bust_zone", "customs", "gambling"):
        assert count(kind) == 1, kind
    assert min(count(k) for k in ("subway", "cab_stand", "roll_again", "miss_turn", "sour_grapes", "flip_out")) >= 1
    assert "reconstructed" in BOARD["source"]


def test_one_arrow_out_of_every_square_and_a_second_only_at_a_cop_shop():
    # Trafficking 4c: "Should a Dealer land on a COP SHOP square, he has ... a choice of two directions"
    for square in SQUARES:
        assert len(board.arrows(square)) == (2 if board.kind(square) == "cop_shop" else 1), square


def test_every_square_is_reachable_along_the_arrows_and_drawable():
    # Deliver 1: every square reachable; 2D coordinates for a frontend
    for square in SQUARES:
        assert set(board.arrow_distances(square)) == set(SQUARES)
    assert len({(s["x"], s["y"]) for s in SQUARES.values()}) == len(SQUARES)


def test_airport_customs_closest_en_route_cop_shop_is_the_west_end():
    # Trafficking 16d: "the closest en route Cop Shop (i.e. The West End Cop Shop)"
    assert board.en_route_cop_shop("airport-customs") == "cop-shop-west"


def test_a_board_with_a_branch_off_a_cop_shop_or_an_unreachable_square_is_refused():
    bad = copy.deepcopy(json.loads(json.dumps(BOARD)))
    street = next(s for s in bad["squares"] if s["id"] == "street-1")
    street["branch"] = "marcus"
    with pytest.raises(ValueError, match="second arrow only at a Cop Shop"):
        validate_board(bad)
    bad = copy.deepcopy(json.loads(json.dumps(BOARD)))
    cop = next(s for s in bad["squares"] if s["id"] == "cop-shop-north")   # nothing leads to alley-ne-1 any more
    cop["branch"] = "alley-ne-2"
    with pytest.raises(ValueError, match="reachable"):
        validate_board(bad)


def test_the_decks_hold_16_and_16_cards_and_the_known_card():
    # Trafficking 2: "16 Sour Grapes", "16 Flip Out"; 4h: a Sour Grapes card lets the Narc enter the Time Warp
    bad = copy.deepcopy(json.loads(json.dumps(CARDS_DATA)))
    bad["cards"] = [c for c in bad["cards"] if c["effect"]["kind"] != "narc_time_warp"]
    with pytest.raises(ValueError):
        validate_cards(bad)
    assert sum(c["source"] == "reconstructed" for c in CARDS_DATA["cards"]) == 31
