"""Argument and situation checks the handlers share: each raises IllegalMove with a human reason and
the rulebook heading, never anything else (a handler is also asked why a command was refused)."""
from __future__ import annotations

from rules.base import IllegalMove
from rules.lords_of_cannabis.board import BRICKS, NODES, PATHS, RESOURCE_INDEX

SETUP, PLACEMENT, TURN, TRADE, BUILDING = "Game Setup", "Placement", "Turn Overview", "Trade", "Building"
TUNNELS, GREENHOUSE, PLANTATION = "Tunnels", "Greenhouse", "Plantation"
CROPS, GANGSTA, PROGRESS, SPECIAL, WINNING = "Playing Crop Cards", "Gangsta Cards", "Progress Cards", \
    "Special Actions", "Winning the Game"


def node(value, rule: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < NODES:
        raise IllegalMove(f"there is no intersection {value!r} (0-{NODES - 1})", rule=rule)
    return value


def path(value, rule: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(PATHS):
        raise IllegalMove(f"there is no path {value!r} (0-{len(PATHS) - 1})", rule=rule)
    return value


def brick(value, rule: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < BRICKS:
        raise IllegalMove(f"there is no resource brick {value!r} (0-{BRICKS - 1})", rule=rule)
    return value


def resource(value, rule: str) -> int:
    if value not in RESOURCE_INDEX:
        raise IllegalMove(f"{value!r} is not a resource ({', '.join(RESOURCE_INDEX)})", rule=rule)
    return RESOURCE_INDEX[value]


def phase(state: dict, phases: tuple[str, ...], what: str, rule: str) -> None:
    if state["phase"] not in phases:
        raise IllegalMove(f"{what} is not possible now (the game is at {state['phase']!r})", rule=rule)


def my_turn(state: dict, seat: int, rule: str = TURN) -> None:
    if seat != state["current"]:
        raise IllegalMove(f"it is seat {state['current']}'s turn, not seat {seat}'s", rule=rule)


def no_open_offers(state: dict) -> None:
    if state["offers"]["open"]:
        raise IllegalMove("offers are waiting for answers", rule=TRADE)


def my_action(state: dict, seat: int, what: str, rule: str, after_roll: bool) -> None:
    """The active player's own move, with no offer waiting (and after the roll, when it must be)."""
    phase(state, ("main",) if after_roll else ("roll", "main"), what, rule)
    my_turn(state, seat)
    no_open_offers(state)
