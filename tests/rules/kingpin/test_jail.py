"""Kingpin "Jail" (bail, step 5)."""
from __future__ import annotations

import pytest

from tests.rules.kingpin.support import (
    K,
    cash,
    ev,
    game_with_first,
    given,
    play,
    refused,
    rolled,
    take,
    types,
)


def jailed(kind: str, money: int = 2000):
    """Seat 0 owns a card of `kind` that sits in Jail, has `money` extra, and has rolled."""
    state, card = take(game_with_first(0), 0, kind)
    state = given(state, ev("CardJailed", card=card, owner=0, cash=state["cards"][card].get("cash", 0)))
    return rolled(cash(state, 0, money), [2, 5]), card


@pytest.mark.parametrize("kind,price", [("junkie800", 400), ("junkie200", 100), ("dealer6", 600),
                                        ("dealer12", 1200), ("cop", 1000), ("immunity", 1000)])
def test_bail_prices(kind, price):
    # Kingpin "Jail": Junkies — Payday amount; Dealers — $100 x circle; Special Cards — $1000.
    state, card = jailed(kind)
    events, after = play(state, 0, {"type": "Bail", "card": card})
    assert events[0].type == "CardBailed" and events[0].data["price"] == price
    assert after["bankrolls"][0] == state["bankrolls"][0] - price
    assert after["cards"][card]["where"] == "play"


def test_bail_is_step_5_one_card_then_the_turn_passes():
    # Kingpin "On Your Turn": "5. Bail a card out of Jail  6. Play moves to the player on your left."
    state, card = jailed("dealer6")
    events, after = play(state, 0, {"type": "Bail", "card": card})
    assert types(events) == ["CardBailed", "TurnEnded", "TurnStarted"]
    assert after["current"] == 1


def test_bail_not_before_rolling_not_others_cards_not_unaffordable():
    # Kingpin "Jail" and "On Your Turn": bail is step 5, for your own jailed card, at the printed price.
    state, card = jailed("dealer12", money=0)
    refused(state, 0, {"type": "Bail", "card": card}, rule="Jail", match="you have $200 but bailing out")
    refused(state, 0, {"type": "Bail", "card": "dealer3-1"}, rule="Jail", match="not one of your cards in Jail")
    state2, card2 = take(game_with_first(0), 0, "junkie200")
    state2 = given(state2, ev("CardJailed", card=card2, owner=0, cash=200))
    refused(state2, 0, {"type": "Bail", "card": card2}, rule="Jail", match="before you roll")


def test_a_bailed_junkie_comes_back_with_no_cash():
    # Kingpin "Jail": a jailed Junkie's money went back to the bank; it returns empty.
    state, card = jailed("junkie1000")
    _, after = play(state, 0, {"type": "Bail", "card": card})
    assert after["cards"][card]["cash"] == 0
    assert K.invariants(after) == []


def test_jail_holds_several_cards_of_several_owners():
    # rules-gaps 2.9: the Jail can hold several cards, from several owners.
    state, a = take(game_with_first(0), 0, "junkie400")
    state, b = take(state, 1, "junkie400")
    state = given(state, ev("CardJailed", card=a, owner=0, cash=400), ev("CardJailed", card=b, owner=1, cash=400))
    view = K.view(state, None)
    assert sorted(c["id"] for c in view["jail"]) == sorted([a, b])
    assert all(c["status"] == "jailed" for c in view["jail"])
