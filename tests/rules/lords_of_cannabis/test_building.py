"""Building: Tunnels, Greenhouses, Plantations, the stock, and the Longest Tunnel."""
from __future__ import annotations

from rules.lords_of_cannabis.board import NODE_PATHS
from rules.lords_of_cannabis.state import public_points
from tests.rules.lords_of_cannabis.support import (
    cards,
    greenhouse,
    legal,
    play,
    refused,
    route,
    table,
    tunnel,
    types,
)

# A walk of five paths around brick 11, from seat 0's Greenhouse at 29.
WALK = (29, 22, 28, 35, 42, 36)


def built(seat=0):
    """Seat 0 after its roll with a Greenhouse on 29."""
    return greenhouse(table(3, current=seat, phase="main"), seat, 29)


def test_a_tunnel_costs_cement_and_water_and_connects_to_your_tunnel_or_establishment():
    # Tunnels: "requires 1 each of CEMENT and WATER"; "A new Tunnel must always connect to the player's existing
    # Tunnel or establishment." "Only one Tunnel can be built on a given path."
    state = cards(built(), 0, CEMENT=1, WATER=1)
    spots = sorted(m["path"] for m in legal(state, 0) if m["type"] == "BuildTunnel")
    assert spots == sorted(NODE_PATHS[29])
    refused(state, 0, {"type": "BuildTunnel", "path": route(35, 42)[0]}, "Tunnels", "connect")
    events, state = play(state, 0, {"type": "BuildTunnel", "path": route(29, 22)[0]})
    assert types(events) == ["TunnelBuilt"] and state["hands"][0] == [0] * 5 and state["stock"][0] == [13, 5]
    state = cards(state, 0, CEMENT=1, WATER=1)
    refused(state, 0, {"type": "BuildTunnel", "path": route(29, 22)[0]}, "Tunnels", "already")


def test_a_tunnel_does_not_run_on_through_another_players_building():
    # ruling (Longest Tunnel note: a Greenhouse "breaks" a Tunnel): a route cannot be extended through an
    # intersection another player has built on
    state = greenhouse(tunnel(built(), 0, *route(29, 22, 28)), 1, 28)
    state = cards(state, 0, CEMENT=1, WATER=1)
    spots = {m["path"] for m in legal(state, 0) if m["type"] == "BuildTunnel"}
    assert route(28, 35)[0] not in spots and route(28, 21)[0] not in spots and route(22, 16)[0] in spots


def test_a_greenhouse_needs_vacant_neighbours_and_one_of_your_tunnels():
    # Greenhouse: "requires 1 each of CEMENT, WATER, SEEDS, and SOIL"; "only if all three of the adjacent
    # intersections are all vacant. A Greenhouse must be connected to at least one of your tunnels."
    state = cards(tunnel(built(), 0, *route(29, 22, 28)), 0, CEMENT=1, WATER=1, SEEDS=1, SOIL=1)
    spots = [m["at"] for m in legal(state, 0) if m["type"] == "BuildGreenhouse"]
    assert spots == [28]                               # 22 is next to the Greenhouse on 29
    refused(state, 0, {"type": "BuildGreenhouse", "at": 22}, "Greenhouse", "next to")
    refused(state, 0, {"type": "BuildGreenhouse", "at": 0}, "Greenhouse", "connected")
    _, state = play(state, 0, {"type": "BuildGreenhouse", "at": 28})
    assert state["points"][0] == 2 and state["stock"][0][1] == 4 and state["hands"][0] == [0] * 5


def test_a_plantation_flips_your_greenhouse_for_3_fuel_and_2_soil_and_is_worth_two():
    # Plantation: "requires 3 FUEL and 2 SOIL"; "Each Plantation is worth 2 Victory Points"; "you flip the
    # Greenhouse marker of your choice over to its opposite side"
    state = cards(built(), 0, FUEL=3, SOIL=1)
    assert not any(m["type"] == "BuildPlantation" for m in legal(state, 0))
    refused(state, 0, {"type": "BuildPlantation", "at": 29}, "Plantation", "do not hold")
    state = cards(state, 0, SOIL=1)
    refused(state, 0, {"type": "BuildPlantation", "at": 23}, "Plantation", "not one of your Greenhouses")
    _, state = play(state, 0, {"type": "BuildPlantation", "at": 29})
    assert state["sites"][29] == [0, 2] and public_points(state, 0) == 2 and state["stock"][0] == [14, 5]


def test_you_cannot_build_what_is_out_of_stock():
    # Building: "You cannot build an item that is out of stock."  (14 Tunnels and 6 tiles per colour)
    state = cards(tunnel(built(), 0, *route(29, 22, 28)), 0, CEMENT=2, WATER=2, SEEDS=1, SOIL=1)
    state = {**state, "stock": [[0, 0], [14, 6], [14, 6]]}
    assert not {m["type"] for m in legal(state, 0)} & {"BuildTunnel", "BuildGreenhouse"}
    refused(state, 0, {"type": "BuildTunnel", "path": route(28, 35)[0]}, "Building", "no Tunnels left")
    refused(state, 0, {"type": "BuildGreenhouse", "at": 28}, "Building", "no Greenhouse tiles")


def test_five_continuous_tunnels_take_the_longest_tunnel_card_worth_two():
    # Tunnels: "As soon as a player creates a continuous Tunnel of five or more single Tunnels (forks do not
    # count), the player receives the Reward Card entitled 'Longest Tunnel'. This card is worth 2 Victory Points"
    state = tunnel(built(), 0, *route(*WALK[:5]), route(22, 16)[0])   # four in a row and a fork
    assert state["tunnel_length"][0] == 4 and state["longest"] is None
    state = cards(state, 0, CEMENT=1, WATER=1)
    _, state = play(state, 0, {"type": "BuildTunnel", "path": route(42, 36)[0]})
    assert state["tunnel_length"][0] == 5 and state["longest"] == 0 and public_points(state, 0) == 3


def test_a_tie_keeps_the_card_with_its_holder_and_a_longer_tunnel_takes_it():
    # Tunnels: "If another player builds a longer tunnel, ownership of the card transfers ... In the case of a tie,
    # the player that held the card first will retain it."
    state = tunnel(built(), 0, *route(*WALK))
    state = tunnel(greenhouse(state, 1, 3), 1, *route(3, 8, 13, 18, 12))   # seat 1 from its Greenhouse on 3
    assert state["tunnel_length"] == [5, 4, 0] and state["longest"] == 0
    state = tunnel(state, 1, route(12, 7)[0])
    assert state["tunnel_length"][1] == 5 and state["longest"] == 0
    state = tunnel(state, 1, route(7, 2)[0])
    assert state["longest"] == 1 and public_points(state, 0) == 1


def test_an_opponents_greenhouse_breaks_the_longest_tunnel_and_the_card_goes_back_or_on():
    # Tunnels, Note: "If another player builds a Greenhouse that 'breaks' the longest Tunnel ... the card is
    # returned to the table or it is reassigned if another player possesses the new longest Tunnel."
    state = tunnel(built(), 0, *route(*WALK))
    assert state["longest"] == 0
    broken = greenhouse(state, 1, 28)
    assert broken["tunnel_length"][0] == 3 and broken["longest"] is None
    state = tunnel(greenhouse(state, 2, 3), 2, *route(3, 8, 13, 18, 12, 7))
    assert state["longest"] == 0                       # seat 2 ties at 5: the holder keeps it
    broken = greenhouse(state, 1, 28)
    assert broken["longest"] == 2                      # reassigned to the new longest
