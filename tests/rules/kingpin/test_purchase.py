"""Kingpin "Purchase Cards"."""
from __future__ import annotations

import pytest

from tests.rules.kingpin.support import (
    cash,
    ev,
    game_with_first,
    given,
    legal,
    play,
    refused,
    rolled,
    types,
)


@pytest.mark.parametrize("kind,price", [("junkie200", 100), ("junkie400", 200), ("junkie1000", 500),
                                        ("dealer3", 300), ("dealer6", 600), ("dealer12", 1200),
                                        ("truck3", 300), ("truck4", 400), ("truck5", 500),
                                        ("cop", 600), ("regulator", 600), ("hitman", 600), ("immunity", 600)])
def test_prices(kind, price):
    # Kingpin "Purchase Cards": Junkies half their Cash on Hand; Dealers and Trucks $100 x circle; Specials $600.
    state = cash(game_with_first(0), 0, 1200)
    events, after = play(state, 0, {"type": "PurchaseCard", "kind": kind})
    assert types(events) == ["CardPurchased"]
    assert events[0].data["price"] == price
    assert after["bankrolls"][0] == state["bankrolls"][0] - price
    card = after["cards"][events[0].data["card"]]
    assert card["owner"] == 0 and card["where"] == "play"


def test_a_new_junkie_gets_its_cash_on_hand_from_the_bank():
    # Kingpin "Basic Cards: Junkie": "When you place a Junkie, place cash equal to its Cash on Hand under the card."
    state = cash(game_with_first(0), 0, 400)
    events, after = play(state, 0, {"type": "PurchaseCard", "kind": "junkie800"})
    assert after["cards"][events[0].data["card"]]["cash"] == 800
    assert after["bankrolls"][0] == state["bankrolls"][0] - 400


def test_cannot_afford():
    # Kingpin "Purchase Cards": you pay the price from your bankroll.
    state = game_with_first(0)  # $200
    err = refused(state, 0, {"type": "PurchaseCard", "kind": "dealer6"}, rule="Purchase Cards")
    assert "you have $200 but a Dealer (6) costs $600" in err.reason


def test_no_two_identical_cards_in_a_turn_but_different_sizes_are_fine():
    # Kingpin "Purchase Cards": "You may not purchase two identical cards on a turn." (identical = same kind)
    state = cash(game_with_first(0), 0, 2000)
    _, state = play(state, 0, {"type": "PurchaseCard", "kind": "dealer3"})
    refused(state, 0, {"type": "PurchaseCard", "kind": "dealer3"}, rule="Purchase Cards", match="identical")
    assert {"type": "PurchaseCard", "kind": "dealer3"} not in legal(state, 0)
    _, state = play(state, 0, {"type": "PurchaseCard", "kind": "dealer6"})
    assert state["bought"] == ["dealer3", "dealer6"]


def test_identical_is_allowed_again_next_turn():
    # Kingpin "Purchase Cards": the limit is per turn.
    state = cash(game_with_first(0), 0, 2000)
    _, state = play(state, 0, {"type": "PurchaseCard", "kind": "junkie200"})
    state = given(state, ev("TurnEnded", seat=0, turn=1), ev("TurnStarted", seat=0, turn=3))
    assert {"type": "PurchaseCard", "kind": "junkie200"} in legal(state, 0)


def test_exhausted_stack_cannot_be_bought():
    # Kingpin "Basic Cards": "If a stack runs out of cards, you may no longer purchase that card type."
    state = game_with_first(0)
    state = given(state, ev("FreeCardTaken", seat=1, kind="immunity", card="immunity-1"))
    state = cash(state, 0, 1000)
    refused(state, 0, {"type": "PurchaseCard", "kind": "immunity"}, rule="Purchase Cards", match="run out")


def test_purchases_only_before_rolling():
    # Kingpin "Purchase Cards": "you must do so before rolling."
    state = rolled(cash(game_with_first(0), 0, 1000), [1, 2, 3])
    refused(state, 0, {"type": "PurchaseCard", "kind": "junkie200"}, rule="Purchase Cards", match="before rolling")


def test_not_your_turn():
    # Kingpin "On Your Turn": only the player whose turn it is acts.
    state = game_with_first(0)
    refused(state, 1, {"type": "PurchaseCard", "kind": "junkie200"}, match="seat 0's turn")


def test_unknown_kind():
    # Kingpin "Purchase Cards": only the card types of the box can be bought.
    state = game_with_first(0)
    refused(state, 0, {"type": "PurchaseCard", "kind": "dealer7"}, rule="Purchase Cards", match="no card kind")
