"""Kingpin "OD"."""
from __future__ import annotations

from tests.rules.kingpin.support import (
    ev,
    game_with_first,
    given,
    play,
    rng_where,
    rolled,
    take,
    types,
)


def sale_to(kind: str, dealer_hits: int, dice=(3,)):
    """Seat 0 selling from a Dealer (12) holding `dealer_hits` Hits to its own Junkie of `kind`."""
    state, junkie = take(game_with_first(0), 0, kind)
    state, dealer = take(state, 0, "dealer12")
    state = given(state, ev("DistributionStarted", seat=0, truck="truck3-1", hits=dealer_hits),
                  ev("HitsPlaced", seat=0, dealer=dealer, hits=dealer_hits),
                  ev("DistributionFinished", seat=0, discarded=0))
    state = rolled(state, list(dice))
    _, state = play(state, 0, {"type": "PurchaseHits", "junkie": junkie, "dealer": dealer})
    return state, junkie


def high(n):
    """An Rng whose next n dice all show 4 or more."""
    return rng_where(lambda r: all(d > 3 for d in r.roll(n)), f"high{n}")


def test_at_or_below_the_od_value_there_is_no_roll():
    # Kingpin "OD": the risk starts when you give them more Hits than their OD value (junkie400: OD 3).
    state, junkie = sale_to("junkie400", 3)
    events, _ = play(state, 0, {"type": "SellHits", "hits": 3, "cash": 400})
    assert types(events) == ["HitsSold"]


def test_over_by_one_rolls_three_dice_and_survives_on_any_die_of_3_or_less():
    # Kingpin "OD": "Roll 3 dice if you exceed the OD value by one. If you roll a 3 or less on at least one
    # die the Junkie is fine."  (junkie800: OD 1)
    state, junkie = sale_to("junkie800", 2)
    rng = rng_where(lambda r: sorted(r.roll(3))[0] <= 3, "survive3")
    events, after = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 800}, rng)
    assert types(events) == ["HitsSold", "ODRolled"]
    od = events[1].data
    assert od["over"] == 1 and len(od["dice"]) == 3 and min(od["dice"]) <= 3 and od["survived"]
    assert after["cards"][junkie]["where"] == "play"


def test_over_by_one_dies_when_no_die_is_3_or_less_and_money_is_still_collected():
    # Kingpin "OD": "The Junkie dies and is removed from the game if you fail to roll a 3 or less."
    # "You still collect all of your money if the Junkie ODs." Remaining money goes to the bank.
    state, junkie = sale_to("junkie1000", 3)  # OD 2, Max pay 500, Cash 1000
    events, after = play(state, 0, {"type": "SellHits", "hits": 3, "cash": 900}, high(3))
    assert types(events) == ["HitsSold", "ODRolled", "JunkieDied"]
    assert len(events[1].data["dice"]) == 3 and not events[1].data["survived"]
    assert events[2].data["cash"] == 100
    assert after["bankrolls"][0] == 200 + 900
    assert after["cards"][junkie]["where"] == "removed" and after["cards"][junkie]["cash"] == 0
    assert junkie in after["removed"]


def test_each_additional_hit_over_rolls_one_die_less():
    # Kingpin "OD": "Roll 1 less die for each additional Hit over the OD value."
    state, _ = sale_to("junkie200", 4)  # OD 2
    events, _ = play(state, 0, {"type": "SellHits", "hits": 4, "cash": 200}, high(2))
    assert events[1].data["over"] == 2 and len(events[1].data["dice"]) == 2
    state, _ = sale_to("junkie200", 5)
    events, _ = play(state, 0, {"type": "SellHits", "hits": 5, "cash": 200}, high(1))
    assert events[1].data["over"] == 3 and len(events[1].data["dice"]) == 1
    assert types(events) == ["HitsSold", "ODRolled", "JunkieDied"]


def test_four_over_is_instant_death_without_a_roll():
    # Kingpin "OD": "4 Hits over the OD value means instant death."
    state, junkie = sale_to("junkie800", 5)  # OD 1
    events, after = play(state, 0, {"type": "SellHits", "hits": 5, "cash": 800})
    assert types(events) == ["HitsSold", "ODRolled", "JunkieDied"]
    assert events[1].data == {"seat": 0, "junkie": junkie, "over": 4, "dice": [], "survived": False}
    assert after["bankrolls"][0] == 1000


def test_od_applies_to_steal_a_deal_and_the_seller_rolls():
    # Kingpin "Roll Outcomes: Single Die": Steal a Deal — "all actions are the same as for Purchase Hits"
    # (rules-gaps 2.7: the seller rolls the OD dice).
    state, dealer = take(game_with_first(0), 0, "dealer6")
    state = given(state, ev("DistributionStarted", seat=0, truck="truck3-1", hits=3),
                  ev("HitsPlaced", seat=0, dealer=dealer, hits=3),
                  ev("DistributionFinished", seat=0, discarded=0))
    state = rolled(state, [5])
    _, state = play(state, 0, {"type": "StealDeal", "junkie": "junkie200-2", "dealer": dealer})
    events, after = play(state, 0, {"type": "SellHits", "hits": 3, "cash": 200}, high(3))
    assert events[1].data["seat"] == 0
    assert types(events)[-1] == "JunkieDied" and events[-1].data["owner"] == 1
    assert after["bankrolls"] == [400, 200]


def test_the_od_threshold_counts_per_sale_not_per_turn():
    # rules-gaps 2.7 ruling: the OD value is compared with the Hits of one sale (junkie200: OD 2).
    state, junkie = sale_to("junkie200", 4, dice=(3, 3))
    dealer = state["pending"]["dealer"]
    events, state = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 200})
    assert types(events) == ["HitsSold"]
    _, state = play(state, 0, {"type": "PurchaseHits", "junkie": junkie, "dealer": dealer})
    events, _ = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 0})
    assert types(events) == ["HitsSold"]
