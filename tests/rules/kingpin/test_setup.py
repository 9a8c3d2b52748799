"""Kingpin "Initial Setup"."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Rng
from rules.kingpin import RULESET as K
from tests.rules.kingpin.support import new_game, types


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_each_player_starts_with_truck3_dealer3_junkie200_and_100_per_player(seats):
    # Kingpin "Initial Setup": a Supply Truck with a 3, a Dealer with a 3, a Junkie with Cash on Hand $200;
    # $100 x [number of players] bankroll; three Hit Chips on the Truck; $200 under the Junkie.
    state = new_game(seats)
    assert state["bankrolls"] == [100 * seats] * seats
    for seat in range(seats):
        mine = [c for c in state["cards"].values() if c["owner"] == seat]
        assert sorted(c["kind"] for c in mine) == ["dealer3", "junkie200", "truck3"]
        by_type = {c["type"]: c for c in mine}
        assert by_type["truck"]["hits"] == 3
        assert by_type["dealer"]["hits"] == 0
        assert by_type["junkie"]["cash"] == 200
    assert state["stacks"]["truck3"] == [f"truck3-{i}" for i in range(seats + 1, 9)]
    assert K.invariants(state) == []


def test_setup_events_and_first_turn():
    # Kingpin "Initial Setup": "Roll a die; highest roll will go first."
    events = K.setup({}, 3, Rng("setup", 0))
    assert types(events) == ["GameStarted", "FirstPlayerRolled", "TurnStarted"]
    rolled = events[1].data
    last = rolled["rounds"][-1]
    assert max(last["dice"]) == last["dice"][last["seats"].index(rolled["seat"])]
    assert last["dice"].count(max(last["dice"])) == 1
    assert events[2].data == {"seat": rolled["seat"], "turn": 1}


def test_first_player_ties_are_rerolled_among_the_tied_and_recorded():
    # Kingpin "Initial Setup": highest roll goes first; a tie for highest is re-rolled (rules-gaps: recorded).
    for i in range(500):
        events = K.setup({}, 4, Rng(f"tie-{i}", 0))
        rounds = events[1].data["rounds"]
        if len(rounds) > 1:
            break
    else:
        pytest.fail("no tied first roll found")
    first, second = rounds[0], rounds[1]
    top = max(first["dice"])
    assert second["seats"] == [s for s, d in zip(first["seats"], first["dice"]) if d == top]
    assert len(second["seats"]) >= 2
    assert events[1].data["seat"] in rounds[-1]["seats"]


def test_setup_rejects_bad_seat_counts_and_options():
    # rules-gaps 2.12: 2-6 players; options "target" is 3000/5000/10000.
    with pytest.raises(BadCommand):
        K.setup({}, 1, Rng("x", 0))
    with pytest.raises(BadCommand):
        K.setup({}, 7, Rng("x", 0))
    with pytest.raises(BadCommand):
        K.setup({"target": 4000}, 2, Rng("x", 0))
    assert new_game(2, options={"target": 3000})["options"]["target"] == 3000


def test_nothing_is_secret_and_the_seed_is_not_in_state():
    # Kingpin's table is open information: every event is public.
    events = K.setup({}, 2, Rng("the-secret-seed", 0))
    assert all(K.visible_to(e) == "public" for e in events)
    assert "the-secret-seed" not in repr(new_game(2, "the-secret-seed"))
