"""Placement: the highest roll places first or defers (first round only), two rounds of one Greenhouse
and one connected Tunnel, the second round in reverse, then each player's starting Stash."""
from __future__ import annotations

import json

from rules.base import Rng, redact
from rules.lords_of_cannabis.board import BRICK_RESOURCE, NODE_BRICKS, NODE_PATHS, RESOURCES
from tests.rules.lords_of_cannabis.support import L, first, legal, new_game, play, refused, types


def place(state, seat):
    """Seat places a Greenhouse on its first legal spot and a Tunnel from it."""
    at = next(m["at"] for m in legal(state, seat) if m["type"] == "PlaceGreenhouse")
    _, state = play(state, seat, {"type": "PlaceGreenhouse", "at": at})
    _, state = play(state, seat, {"type": "PlaceTunnel", "path": NODE_PATHS[at][0]})
    return state


def test_the_highest_roll_goes_first_and_ties_roll_again():
    # Placement: "Each player takes a turn rolling the dice. The player with the highest roll decides ..."
    ties = 0
    for seed in range(30):
        events = L.setup({}, 4, Rng(f"first-{seed}", 0))
        rolls, chosen = events[0].data["rolls"], events[0].data["first"]
        opening = {seat: a + b for seat, a, b in rolls[:4]}
        assert opening[chosen] == max(opening.values())            # among the highest first rolls
        last = {seat: a + b for seat, a, b in rolls[4:]}           # the tied re-roll until one is highest
        assert not last or last[chosen] == max(last.values())
        ties += bool(last)
    assert ties  # some seed needed a re-roll


def test_the_crop_deck_is_shuffled_in_secret():
    # Game Setup: "Crop Cards are shuffled and placed face-down into one single pile."
    event = L.setup({}, 3, Rng("first", 0))[0]
    assert sorted(event.data["secret"]["deck"]) == sorted(new_game(3)["deck"])
    assert L.visible_to(event) == set() and "secret" not in redact(L, event, 0).data
    assert json.dumps(event.data["secret"]["deck"]) not in json.dumps(L.view(new_game(3), 0))
    assert all("crops" not in p for p in L.view(new_game(3), None)["players"])


def test_a_greenhouse_and_a_connected_tunnel_then_the_next_player():
    # Placement: "one Tunnel and one Greenhouse (they must be connected to each other)"
    state = new_game(3)
    me = state["current"]
    events, state = play(state, me, {"type": "PlaceGreenhouse", "at": 29})
    assert types(events) == ["GreenhousePlaced"] and legal(state, me) == [
        {"type": "PlaceTunnel", "path": p} for p in NODE_PATHS[29]]
    refused(state, me, {"type": "PlaceTunnel", "path": NODE_PATHS[0][0]}, "Placement", "connected")
    _, state = play(state, me, {"type": "PlaceTunnel", "path": NODE_PATHS[29][0]})
    assert state["current"] == (me + 1) % 3 and state["points"][me] == 1


def test_the_distance_rule_holds_in_placement():
    # Greenhouse: "only if all three of the adjacent intersections are all vacant"
    state = new_game(3)
    me = state["current"]
    _, state = play(state, me, {"type": "PlaceGreenhouse", "at": 29})
    _, state = play(state, me, {"type": "PlaceTunnel", "path": NODE_PATHS[29][0]})
    refused(state, state["current"], {"type": "PlaceGreenhouse", "at": 23}, "Greenhouse")
    assert {"type": "PlaceGreenhouse", "at": 23} not in legal(state, state["current"])


def test_deferring_moves_you_after_the_others_and_before_earlier_deferrers():
    # Placement: "he may defer his turn to the next player ... he will then place his game pieces before any
    # other previous players who have also decided to defer"; "Deferment is only allowed during the first
    # placement round."
    state = new_game(4)
    a = state["current"]
    b, c, d = (a + 1) % 4, (a + 2) % 4, (a + 3) % 4
    _, state = play(state, a, {"type": "Defer"})
    _, state = play(state, b, {"type": "Defer"})
    assert state["current"] == c
    state = place(state, c)
    assert {"type": "Defer"} not in legal(state, d)          # the last to choose has no one to defer to
    state = place(state, d)
    assert state["current"] == b                              # the later deferrer places first
    assert {"type": "Defer"} not in legal(state, b)
    state = place(state, b)
    state = place(state, a)
    assert state["setup"]["round"] == 2 and state["current"] == a     # round 2 runs back: a, b, d, c
    order = []
    for _ in range(4):
        order.append(state["current"])
        assert {"type": "Defer"} not in legal(state, state["current"])
        state = place(state, state["current"])
    assert order == [a, b, d, c] and state["phase"] == "stash"


def test_each_player_takes_one_card_of_each_resource_around_one_of_their_greenhouses():
    # Placement: "All players then decide from one of their two placements, which resources that they would like
    # to receive their first Stash Cards from (one of each resource bordering a player's Greenhouse)."
    state = new_game(2)
    for _ in range(4):
        state = place(state, state["current"])
    assert L.awaiting(state) == {0: "move", 1: "move"}
    mine = [m["at"] for m in legal(state, 0)]
    assert len(mine) == 2
    events, state = play(state, 0, {"type": "TakeStartingStash", "at": mine[1]})
    around = {RESOURCES[BRICK_RESOURCE[b]] for b in NODE_BRICKS[mine[1]]}
    got = {RESOURCES[r] for r, n in enumerate(first(events, "StartingStashTaken")["cards"]) if n}
    assert got == around and sum(state["hands"][0]) == len(around)
    refused(state, 0, {"type": "TakeStartingStash", "at": mine[0]}, "Placement")
    _, state = play(state, 1, legal(state, 1)[0])
    # Turn Overview: "The player who had the highest roll starts the game by rolling both dice."
    assert state["phase"] == "roll" and state["current"] == state["first"]
