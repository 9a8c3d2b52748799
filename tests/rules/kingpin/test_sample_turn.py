"""Kingpin "Sample Turn", replayed command by command."""
from __future__ import annotations

from tests.rules.kingpin.support import (
    K,
    ev,
    game_with_first,
    given,
    play,
    rng_where,
    rolled,
    take,
    types,
)


def test_sandras_sample_turn():
    # Kingpin "Sample Turn": 7 Basic Cards and no active Special Cards -> 7 dice.
    state = game_with_first(0)
    state, truck5 = take(state, 0, "truck5")
    state, dealer6 = take(state, 0, "dealer6")
    state, dealer3b = take(state, 0, "dealer3")
    state, sample = take(state, 0, "junkie800")  # the Junkie with the $400 Payday (OD 1)
    state = given(state, ev("ShipmentMade", seat=0, truck=truck5, hits=5))
    rolled_events, _ = play(state, 0, {"type": "RollDice"})
    assert len(rolled_events[0].data["dice"]) == 7
    state = rolled(state, [2, 1, 2, 3, 2, 6, 6])
    bank = state["bankrolls"][0]

    # "first use a [2] to distribute her 5 Hit Chips onto her Dealer (6)"
    _, state = play(state, 0, {"type": "Distribute", "truck": truck5})
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": dealer6, "hits": 5})
    assert types(events) == ["HitsPlaced", "DistributionFinished"]
    # "She then chooses to use [1] to add 5 Hit Chips to her Supply Truck (5)."
    _, state = play(state, 0, {"type": "Ship", "truck": truck5})
    assert state["cards"][truck5]["hits"] == 5
    # "another [2] ... 1 to Dealer (6), 3 to a Dealer (3) and 1 to the other Dealer (3)"
    _, state = play(state, 0, {"type": "Distribute", "truck": truck5})
    _, state = play(state, 0, {"type": "PlaceHits", "dealer": dealer6, "hits": 1})
    _, state = play(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 3})
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": dealer3b, "hits": 1})
    assert types(events) == ["HitsPlaced", "DistributionFinished"] and events[1].data["discarded"] == 0
    assert [state["cards"][d]["hits"] for d in (dealer6, "dealer3-1", dealer3b)] == [6, 3, 1]
    # "She then uses the [3] to sell 2 Hit Chips to her Junkie with the $400 Payday. She collects $800."
    _, state = play(state, 0, {"type": "PurchaseHits", "junkie": sample, "dealer": dealer6})
    # "She needs to make an OD roll for her Junkie with three dice. All the dice were higher than [3]"
    rng = rng_where(lambda r: all(d > 3 for d in r.roll(3)), "sandra")
    events, state = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 800}, rng)
    assert types(events) == ["HitsSold", "ODRolled", "JunkieDied"]
    assert len(events[1].data["dice"]) == 3
    # "She uses the [6 6] to collect $200."
    _, state = play(state, 0, {"type": "CollectDouble", "face": 6})
    assert state["bankrolls"][0] == bank + 800 + 200
    # "The third [2] she rolled goes to waste for this turn"
    assert [f for f, u in zip(state["dice"], state["used"]) if not u] == [2]
    _, state = play(state, 0, {"type": "EndTurn"})
    # "...she'll only get to roll 6 dice because she lost a card."
    assert K.view(state, 0)["players"][0]["dice_pool"] == 6
    assert K.invariants(state) == []
