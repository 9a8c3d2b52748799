"""Game Setup and Placement: the numbered chips, the Crop deck, the roll for who starts, two rounds of
placing a Greenhouse and a Tunnel (the first round may be deferred), the starting Stash."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.lords_of_cannabis import guards
from rules.lords_of_cannabis.board import BRICK_NEIGHBOURS, BRICK_RESOURCE, BRICKS, CHIPS, NODE_BRICKS, NODE_PATHS
from rules.lords_of_cannabis.cards import crop_deck
from rules.lords_of_cannabis.guards import PLACEMENT, SETUP
from rules.lords_of_cannabis.state import is_free_spot


def place_chips(rng: Rng) -> list[int]:
    """ "Mix up the numbered coins and place them randomly ... duplicate numbers should not be placed
    adjacent": brick by brick a random chip among those no neighbour already shows; start over if stuck."""
    while True:
        pool, chips = list(CHIPS), [0] * BRICKS
        for b in range(BRICKS):
            beside = {chips[n] for n in BRICK_NEIGHBOURS[b]}
            allowed = [i for i, c in enumerate(pool) if c not in beside]
            if not allowed:
                break
            chips[b] = pool.pop(allowed[rng.randbelow(len(allowed))])
        else:
            return chips


def roll_for_first(seats: int, rng: Rng) -> tuple[list[list[int]], int]:
    """ "Each player takes a turn rolling the dice": the highest roll starts; tied highest roll again.
    Returns the rolls ([seat, die, die] per roll) and the first seat."""
    rolls, contenders = [], list(range(seats))
    while True:
        this = [[seat, *rng.roll(2)] for seat in contenders]
        rolls += this
        best = max(a + b for _, a, b in this)
        contenders = [seat for seat, a, b in this if a + b == best]
        if len(contenders) == 1:
            return rolls, contenders[0]


def opening(seats: int, rng: Rng) -> list[Event]:
    """The board's chips, the roll for who starts, and the shuffled Crop deck (its order is secret)."""
    chips = place_chips(rng)
    rolls, first = roll_for_first(seats, rng)
    deck = rng.shuffled(crop_deck())
    return [Event("GameStarted", {"seats": seats, "chips": chips, "rolls": rolls, "first": first,
                                  "secret": {"deck": deck}})]


def _placing(state: dict, seat: int) -> dict:
    guards.phase(state, ("place",), "placing", PLACEMENT)
    guards.my_turn(state, seat, PLACEMENT)
    return state["setup"]


def may_defer(state: dict, seat: int) -> bool:
    """First round, your first chance, nothing placed yet, and a player after you still to choose."""
    setup = state["setup"]
    return (state["phase"] == "place" and setup["round"] == 1 and setup["greenhouse"] is None
            and len(setup["queue"]) > 1 and setup["queue"][0] == seat)


def decide_defer(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "Otherwise, he may defer his turn to the next player" (first round only)."""
    _placing(state, seat)
    if not may_defer(state, seat):
        raise IllegalMove("deferment is only allowed once, in the first placement round, with a player after "
                          "you still to place", rule=PLACEMENT)
    return [Event("Deferred", {"seat": seat})]


def setup_spots(state: dict) -> list[int]:
    """Intersections where a first Greenhouse may go: the distance rule only."""
    sites = state["sites"]
    return [n for n in range(len(sites)) if is_free_spot(sites, n)]


def decide_place_greenhouse(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    setup = _placing(state, seat)
    at = guards.node(command["at"], PLACEMENT)
    if setup["greenhouse"] is not None:
        raise IllegalMove("place the Tunnel connected to your Greenhouse first", rule=PLACEMENT)
    if not is_free_spot(state["sites"], at):
        raise IllegalMove(f"intersection {at} is taken or next to a building", rule="Greenhouse")
    return [Event("GreenhousePlaced", {"seat": seat, "at": at})]


def decide_place_tunnel(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    setup = _placing(state, seat)
    path = guards.path(command["path"], PLACEMENT)
    if setup["greenhouse"] is None:
        raise IllegalMove("place your Greenhouse first", rule=PLACEMENT)
    if path not in NODE_PATHS[setup["greenhouse"]] or state["tunnels"][path] is not None:
        raise IllegalMove("the Tunnel must be connected to the Greenhouse just placed, on an empty path",
                          rule=PLACEMENT)
    return [Event("TunnelPlaced", {"seat": seat, "path": path})]


def starting_stash(at: int) -> list[int]:
    """ "one of each resource bordering a player's Greenhouse" """
    cards = [0] * 5
    for b in NODE_BRICKS[at]:
        cards[BRICK_RESOURCE[b]] = 1
    return cards


def decide_take_stash(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "All players then decide from one of their two placements, which resources ..." """
    guards.phase(state, ("stash",), "taking the starting Stash", SETUP)
    at = guards.node(command["at"], PLACEMENT)
    if seat not in state["stash_pending"]:
        raise IllegalMove("you have taken your starting Stash", rule=PLACEMENT)
    if state["sites"][at] is None or state["sites"][at][0] != seat:
        raise IllegalMove(f"intersection {at} is not one of your Greenhouses", rule=PLACEMENT)
    return [Event("StartingStashTaken", {"seat": seat, "at": at, "cards": starting_stash(at)})]


def moves(state: dict, seat: int) -> list[dict]:
    """Placement moves of the seat now."""
    if seat != state["current"]:
        return []
    setup = state["setup"]
    if setup["greenhouse"] is not None:
        return [{"type": "PlaceTunnel", "path": p} for p in NODE_PATHS[setup["greenhouse"]]
                if state["tunnels"][p] is None]
    out = [{"type": "PlaceGreenhouse", "at": n} for n in setup_spots(state)]
    return out + ([{"type": "Defer"}] if may_defer(state, seat) else [])


def stash_moves(state: dict, seat: int) -> list[dict]:
    if seat not in state["stash_pending"]:
        return []
    return [{"type": "TakeStartingStash", "at": n} for n, site in enumerate(state["sites"])
            if site is not None and site[0] == seat]
