"""Trafficking 1a: the first Dealer to sell a Kilo (36 Lids) is the Traffic King."""
from __future__ import annotations

from tests.rules.trafficking.support import T, dice, ev, game, given, play, roll_to, types


def test_selling_the_36th_lid_wins_at_once():
    # Trafficking 1a: "the first Dealer who can sell a Kilo of marijuana (36 ounces or "Lids")"
    state = given(game(lids={3: 36}), ev("LidsSold", seat=3, die=0, lids=34, each=100, to="card"))
    _, state = roll_to(state, 3, 1)
    _, state = play(state, 3, {"type": "Sell"}, dice(3))
    events, after = play(state, 3, {"type": "SellLids", "count": 2})
    assert types(events)[-1] == "GameWon" and T.outcome(after)["winners"] == [3]
    assert T.awaiting(after) == {} and T.legal_moves(after, 3) == []
