"""Trafficking 6 Dealing with the bank, 7 Marcus M. Mark, 8 The Pusher, 10 THC Subway, 11 the 11-7 stores,
12 Cab Stands, 14 Jack Pot, 15 the gambling square."""
from __future__ import annotations

from tests.rules.trafficking.support import (
    T,
    at,
    dice,
    ev,
    first,
    game,
    given,
    kinds,
    p,
    play,
    refused,
    roll_to,
    types,
)


def on_mcdoobies(**kw):
    _, state = roll_to(game(**kw), 3, 1)
    return state


def test_buy_rolls_one_die_for_lids_at_50_each_and_is_the_one_transaction():
    # Trafficking 6c: "He then receives a quantity of Lids equal to the number showing ... $50 for each"; 6i
    state = on_mcdoobies(lids={3: 1})
    assert {"Buy", "Sell", "EndTurn"} <= kinds(state, 3)
    events, after = play(state, 3, {"type": "Buy"}, dice(4))
    assert first(events, "LidsBought")["paid"] == 200 and p(after, 3)["lids"] == 5
    assert after["turn"]["seat"] != 3   # nothing left to do here: the turn passes


def test_a_dealer_who_cannot_afford_the_roll_gets_no_deal_and_no_second_chance():
    # Trafficking 6c: "no deal can be made and no second chance is given to roll the die"
    events, after = play(on_mcdoobies(cash={3: 100}), 3, {"type": "Buy"}, dice(3))
    assert types(events)[0] == "BuyFailed" and p(after, 3)["lids"] == 0 and after["turn"]["seat"] != 3


def test_sell_rolls_one_die_and_sells_any_amount_up_to_it_at_100():
    # Trafficking 6d: "He can then sell any amount up to the number showing on the die ... $100 for each Lid"
    _, state = play(on_mcdoobies(lids={3: 5}), 3, {"type": "Sell"}, dice(3))
    assert [m["count"] for m in T.legal_moves(state, 3)] == [1, 2, 3]
    refused(state, 3, {"type": "SellLids", "count": 4}, rule="6d")
    events, after = play(state, 3, {"type": "SellLids", "count": 2})
    assert (p(after, 3)["lids"], p(after, 3)["cash"], p(after, 3)["sold"]) == (3, 1200, 2)


def test_marcus_buys_at_150_times_the_die_or_all_the_dealer_has():
    # Trafficking 7a/7b
    _, state = roll_to(game(at={3: "dont-fret"}, lids={3: 2}), 3, 2)
    assert at(state, 3) == "marcus" and "Buy" not in kinds(state, 3)
    events, after = play(state, 3, {"type": "Sell"}, dice(5))
    assert first(events, "LidsSold") == {"seat": 3, "die": 5, "lids": 2, "each": 150, "to": "marcus"}


def test_the_pusher_must_be_paid_or_the_dealer_is_out():
    # Trafficking 8a/8b: "MUST buy Lids from The Pusher @ $100 X the roll of one die"
    events, after = roll_to(game(at={3: "flip-out-3"}), 3, 1, 4)
    assert first(events, "LidsBought")["paid"] == 400 and p(after, 3)["lids"] == 4
    events, after = roll_to(game(at={3: "flip-out-3"}, cash={3: 300}), 3, 1, 4)
    assert p(after, 3)["out"] == "bankrupt"


def test_a_vacant_hang_out_is_a_dealing_square_an_absent_or_busted_dealers_is_not():
    # Trafficking 6h and 6g
    _, state = roll_to(game(at={3: "jc-flowers"}), 3, 2)
    assert at(state, 3) == "sonnys-cycles" and "Buy" in kinds(state, 3)   # nobody plays Sonny Sgurd
    _, state = roll_to(game(at={2: "street-3", 3: "sour-grapes-1"}), 3, 1)
    assert at(state, 3) == "cosmic-carrot" and "Buy" not in kinds(state, 3)
    busted = given(game(at={3: "sour-grapes-1"}), ev("Busted", seat=2, cause="t", offense=3, lids=0, fee=0,
                                                      to=None, out=True))
    _, state = roll_to(busted, 3, 1)
    assert "Buy" not in kinds(state, 3)


def test_the_11_7_store_gives_a_free_lid_on_7_or_11_else_sells_one_at_10_times_the_dice():
    # Trafficking 11a
    _, state = roll_to(game(), 3, 2)
    events, after = play(state, 3, {"type": "PickUpLid"}, dice(3, 4))
    assert first(events, "LidPickedUp")["free"] and p(after, 3)["cash"] == 1000
    events, after = play(state, 3, {"type": "PickUpLid"}, dice(2, 3))
    assert first(events, "LidPickedUp")["paid"] == 50 and p(after, 3)["lids"] == 1
    _, poor = roll_to(game(cash={3: 40}), 3, 2)
    events, after = play(poor, 3, {"type": "PickUpLid"}, dice(2, 3))
    assert p(after, 3)["out"] == "bankrupt"   # 11b


def test_a_thc_transit_pass_costs_50_at_an_11_7_and_rides_the_subway():
    # Trafficking 10a/10d/11d
    _, state = roll_to(game(), 3, 2)
    events, after = play(state, 3, {"type": "BuyPass"})
    assert p(after, 3)["pass"] and p(after, 3)["cash"] == 950 and after["passes"] == 7
    with_pass = given(game(at={3: "eleven-seven-1"}), ev("PassBought", seat=3, paid=50, why="11-7"))
    _, state = roll_to(with_pass, 3, 1)
    assert {"type": "RideSubway", "to": "subway-south"} in T.legal_moves(state, 3)
    _, after = play(state, 3, {"type": "RideSubway", "to": "subway-south"})
    assert at(after, 3) == "subway-south"


def test_no_subway_ride_without_a_pass():
    # Trafficking 10e: "Dealers not holding a THC Subway Pass must stay put"
    state = given(game(at={3: "subway-north"}), ev("Moved", seat=3, to="subway-north", path=[], how="roll"))
    refused(state, 3, {"type": "RideSubway", "to": "subway-south"}, rule="10e")


def test_a_cab_costs_10_a_square_along_the_arrows_and_the_landing_counts():
    # Trafficking 12a: "move for $10 a square (following the directions of the arrows) to any square"
    _, state = roll_to(game(at={3: "zombieland"}, lids={3: 2}), 3, 2)
    events, after = play(state, 3, {"type": "TakeCab", "to": "marcus"})
    assert first(events, "CabTaken")["fare"] == 40 and "Sell" in kinds(after, 3)
    _, poor = roll_to(game(at={3: "zombieland"}, cash={3: 30}), 3, 2)
    refused(poor, 3, {"type": "TakeCab", "to": "marcus"}, rule="12a")


def test_jack_pot_gives_the_number_rolled_but_nothing_to_a_cab_rider():
    # Trafficking 14a and 14c
    events, after = roll_to(game(at={3: "sour-grapes-1"}), 3, 3)
    assert first(events, "LidsGained") == {"seat": 3, "lids": 3, "why": "Jack Pot"}
    _, state = roll_to(game(at={3: "zombieland"}), 3, 2)
    events, _ = play(state, 3, {"type": "TakeCab", "to": "jack-pot"})
    assert "LidsGained" not in types(events)


def test_a_bet_is_declared_now_and_settled_by_the_next_roll():
    # Trafficking 15b/15c: EXACT NUMBER at 5-1, EVENS OR ODDS at even money, both at once
    _, state = roll_to(game(at={3: "eleven-seven-3"}), 3, 1)
    bets = {"exact": {"number": 4, "stake": 100}, "parity": {"pick": "even", "stake": 50}}
    refused(state, 3, {"type": "Gamble", "bets": {"exact": {"number": 4, "stake": 2000}}}, rule="15b")
    events, after = play(state, 3, {"type": "Gamble", "bets": bets})
    assert first(events, "BetPlaced")["stake"] == 150 and p(after, 3)["cash"] == 850
    again = given(after, ev("TurnStarted", seat=3))
    events, after = roll_to(again, 3, 4)
    assert first(events, "BetSettled")["payout"] == 700 and p(after, 3)["cash"] == 1550
