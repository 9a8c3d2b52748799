"""Trafficking 5 Busting and 9 Cop Shops and Graft Tax; the Narc's win (1b)."""
from __future__ import annotations

from tests.rules.trafficking.support import T, at, ev, first, game, given, p, play, roll_to, types


def narc_lands(state, to, die):
    _, state = roll_to(state, 0, die)
    return play(state, 0, {"type": "Move", "to": to}) if state["turn"]["stage"] == "move" else (_, state)


def test_the_narc_landing_on_a_dealer_with_lids_charges_an_offense():
    # Trafficking 5a/5b: confiscates all Lids, escorts to the closest en route Cop Shop, a quarter of cash
    state = game(turn=0, at={1: "miss-turn-1"}, lids={1: 6}, cash={1: 990})
    events, after = narc_lands(state, "miss-turn-1", 2)
    busted = first(events, "Busted")
    assert (busted["offense"], busted["lids"], busted["fee"], busted["to"]) == (1, 6, 240, "cop-shop-east")
    assert (p(after, 1)["lids"], p(after, 1)["cash"], at(after, 1)) == (0, 750, "cop-shop-east")


def test_the_second_offense_costs_half_and_the_third_puts_the_dealer_out():
    # Trafficking 5b iii: "half of his/her cash on hand for the second offense"; 5c: "ON THE THIRD OFFENSE ... out"
    before = game(turn=0, at={1: "miss-turn-1"}, lids={1: 6})
    once = given(before, ev("Busted", seat=1, cause="test", offense=1, lids=0, fee=0, to="miss-turn-1", out=False),
                 ev("LidsGained", seat=1, lids=2, why="test"))
    events, after = narc_lands(once, "miss-turn-1", 2)
    assert first(events, "Busted")["fee"] == 500 and p(after, 1)["offenses"] == 2
    twice = given(once, ev("Busted", seat=1, cause="test", offense=2, lids=0, fee=0, to="miss-turn-1", out=False),
                  ev("LidsGained", seat=1, lids=2, why="test"))
    events, after = narc_lands(twice, "miss-turn-1", 2)
    assert first(events, "Busted")["out"] and p(after, 1)["out"] == "busted" and p(after, 1)["cash"] == 0


def test_a_dealer_landing_on_the_narc_is_charged_and_makes_no_deal():
    # Trafficking 5a: "or should a Dealer land on a square where the Narc is situated"
    events, after = roll_to(game(narc_at="mcdoobies", lids={3: 4}), 3, 1)
    assert first(events, "Busted")["to"] == "cop-shop-north" and after["turn"]["seat"] != 3


def test_a_dealer_without_lids_is_not_charged():
    # Trafficking 5a: "and the Dealer has in his possession any quantity of Lids"
    events, after = roll_to(game(narc_at="mcdoobies"), 3, 1)
    assert "Busted" not in types(events) and {"type": "Buy"} in T.legal_moves(after, 3)


def test_own_hang_out_and_the_no_bust_zone_are_immune_but_another_dealers_hang_out_is_not():
    # Trafficking 5a: "his own "Hang Out" square ... and ... NO BUSTZONE"
    events, _ = narc_lands(game(turn=0, narc_at="flip-out-1", lids={3: 5}), "threads", 1)
    assert "Busted" not in types(events)
    events, _ = narc_lands(game(turn=0, narc_at="sour-grapes-3", at={3: "no-bust-zone"}, lids={3: 5}),
                           "no-bust-zone", 1)
    assert "Busted" not in types(events)
    events, _ = narc_lands(game(turn=0, narc_at="mcdoobies", at={3: "eleven-seven-1"}, lids={3: 5}),
                           "eleven-seven-1", 1)
    assert first(events, "Busted")["seat"] == 3


def test_graft_tax_at_a_cop_shop_by_offenses_and_none_without_lids():
    # Trafficking 9a: "NO OFFENSES-$50 NAME IN THE BOOK-$100 ON PROBATION-$200"
    state = game(narc_at="cop-shop-west", at={3: "dont-fret"}, lids={3: 3})
    events, after = roll_to(state, 3, 1)
    assert first(events, "CashPaid") == {"seat": 3, "amount": 50, "why": "Graft Tax"} and p(after, 3)["lids"] == 3
    booked = given(state, ev("Busted", seat=3, cause="t", offense=1, lids=0, fee=0, to="dont-fret", out=False),
                   ev("LidsGained", seat=3, lids=1, why="t"), ev("TurnStarted", seat=3))
    assert first(roll_to(booked, 3, 1)[0], "CashPaid")["amount"] == 100
    events, _ = roll_to(game(narc_at="cop-shop-west", at={3: "dont-fret"}), 3, 1)
    assert "CashPaid" not in types(events)


def test_with_the_narc_on_the_cop_shop_it_is_a_bust_and_no_graft_tax():
    # Trafficking 9b: "except of course, if the Narc is occupying the square. If this occurs, no Graft Tax is paid"
    events, _ = roll_to(game(at={3: "dont-fret"}, lids={3: 3}), 3, 1)
    assert "Busted" in types(events) and "CashPaid" not in types(events)


def test_a_dealer_who_cannot_pay_the_graft_tax_is_out():
    # Trafficking 17a: "Should a Dealer be unable to pay for a fine or penalty, he is automatically out"
    events, after = roll_to(game(narc_at="cop-shop-west", at={3: "dont-fret"}, lids={3: 3}, cash={3: 40}), 3, 1)
    assert first(events, "Bankrupt")["why"] == "Graft Tax" and p(after, 3)["out"] == "bankrupt"


def test_the_narc_wins_when_the_last_dealer_is_out():
    # Trafficking 1b: "you win the game by tracking down and busting all the Dealers"
    state = game(seats=3, turn=0, at={1: "miss-turn-1"}, lids={1: 2})
    state = given(state, ev("Bankrupt", seat=2, why="test", owed=0),
                  ev("Busted", seat=1, cause="t", offense=2, lids=0, fee=0, to="miss-turn-1", out=False),
                  ev("LidsGained", seat=1, lids=2, why="t"))
    events, after = narc_lands(state, "miss-turn-1", 2)
    assert types(events)[-1] == "GameWon" and T.outcome(after)["winners"] == [0]
