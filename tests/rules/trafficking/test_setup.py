"""Trafficking 3 Preparation and 4a the order of play."""
from __future__ import annotations

from rules.base import Rng, fold
from rules.trafficking import RULESET as T
from rules.trafficking.setup import roll_off, turn_order
from tests.rules.trafficking.support import first, play, refused, rng_where, types


def test_the_lowest_roller_is_the_narc_and_a_tie_for_lowest_rolls_again():
    # Trafficking 3c: "all players roll both dice with the lowest roller becoming the Narc" (ties: roll again)
    rng = rng_where(lambda r: len(roll_off(4, r)[0]) > 1, prefix="tie")
    rounds, narc, totals = roll_off(4, rng)
    first_round = {int(s): sum(d) for s, d in rounds[0].items()}
    low = min(first_round.values())
    tied = sorted(s for s, t in first_round.items() if t == low)
    assert len(tied) > 1 and sorted(int(s) for s in rounds[1]) == tied   # only the tied roll again
    assert narc in tied and totals[narc] == min(totals[s] for s in tied)


def test_dealers_start_with_1000_and_lids_equal_to_their_roll_and_play_runs_counter_clockwise():
    # Trafficking 3g: "$1,000" and "A quantity of Lids equal to the number thrown"; 4a: "The player on the
    # right hand side of the Narc begins ... counter clockwise"
    events = T.setup({}, 5, Rng("setup", 0))
    started = first(events, "GameStarted")
    state = fold(T, events)
    narc = started["narc"]
    last = {int(s): sum(d) for rnd in started["rolls"] for s, d in rnd.items()}
    for seat, p in enumerate(state["players"]):
        if seat != narc:
            assert p["cash"] == 1000 and p["lids"] == last[seat]
    assert started["order"] == turn_order(5, narc) and started["order"][0] == (narc - 1) % 5
    assert turn_order(5, 2) == [1, 0, 4, 3, 2]
    # 3d: "high roller chooses first"
    assert [last[s] for s in started["choosers"]] == sorted((last[s] for s in started["choosers"]), reverse=True)


def test_dealers_choose_characters_and_start_on_their_hang_out_then_the_narc_picks_a_cop_shop():
    # Trafficking 3d-3f
    state = fold(T, T.setup({}, 3, Rng("setup", 0)))
    one, two = state["choosers"]
    assert T.awaiting(state) == {one: "move"}
    _, state = play(state, one, {"type": "ChooseDealer", "dealer": "janet"})
    assert state["players"][one]["square"] == "cosmic-carrot"
    refused(state, two, {"type": "ChooseDealer", "dealer": "janet"}, rule="3d")
    _, state = play(state, two, {"type": "ChooseDealer", "dealer": "biff"})
    narc = state["narc"]
    refused(state, narc, {"type": "PlaceNarc", "square": "marcus"}, rule="3f")
    events, state = play(state, narc, {"type": "PlaceNarc", "square": "cop-shop-west"})
    assert types(events)[:2] == ["NarcPlaced", "TurnStarted"]
    assert first(events, "TurnStarted")["seat"] == state["order"][0]
