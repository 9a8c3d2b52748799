"""Board queries: where a Dealer's roll can take him (the red arrows), where the Narc's can (any
direction, the exact count), the closest en route Cop Shop, cab fares, and distances for the bots."""
from __future__ import annotations

from collections import deque
from functools import cache

from rules.trafficking.data import SQUARES

SQUARE_IDS = tuple(SQUARES)
COP_SHOPS = tuple(s for s in SQUARE_IDS if SQUARES[s]["kind"] == "cop_shop")
WEST_END = next(s for s in SQUARE_IDS if SQUARES[s].get("west_end"))
ROXY = next(s for s in SQUARE_IDS if SQUARES[s]["kind"] == "roxy")
SUBWAY_STATIONS = tuple(s for s in SQUARE_IDS if SQUARES[s]["kind"] == "subway")


def kind(square: str) -> str:
    return SQUARES[square]["kind"]


def arrows(square: str) -> list[str]:
    """The red arrows out of a square: one, or two at a Cop Shop."""
    s = SQUARES[square]
    return [s["next"]] + ([s["branch"]] if "branch" in s else [])


def advance(square: str, count: int, first: str | None = None) -> list[str]:
    """The squares passed and landed on moving `count` along the arrows; `first` is the branch taken
    out of the starting square (a Cop Shop), the main arrow everywhere else."""
    path, here = [], square
    for step in range(count):
        here = first if step == 0 and first else SQUARES[here]["next"]
        path.append(here)
    return path


def dealer_destinations(square: str, count: int) -> dict[str, list[str]]:
    """Destination -> path for a Dealer's roll: one, or one per arrow starting from a Cop Shop."""
    return {advance(square, count, first)[-1]: advance(square, count, first) for first in arrows(square)}


@cache
def neighbours(square: str) -> tuple[str, ...]:
    """Squares one step away in any direction (the Narc walks the arrows both ways)."""
    out = set(arrows(square))
    out |= {s for s in SQUARE_IDS if square in arrows(s)}
    return tuple(sorted(out))


@cache
def narc_destinations(square: str, count: int) -> dict[str, tuple[str, ...]]:
    """Destination -> one path for the Narc: exactly `count` steps, never turning back within the move."""
    out: dict[str, tuple[str, ...]] = {}
    stack = [(square, None, ())]
    while stack:
        here, came_from, path = stack.pop()
        if len(path) == count:
            out.setdefault(here, path)
            continue
        for nxt in neighbours(here):
            if nxt != came_from:
                stack.append((nxt, here, path + (nxt,)))
    return dict(sorted(out.items()))


def en_route_cop_shop(square: str) -> str:
    """The closest Cop Shop along the red arrows (the square itself when it is one)."""
    here = square
    while SQUARES[here]["kind"] != "cop_shop":
        here = SQUARES[here]["next"]
    return here


@cache
def arrow_distances(square: str) -> dict[str, int]:
    """Fewest squares along the red arrows (either arrow at a Cop Shop) to every square: the cab's meter."""
    dist, todo = {square: 0}, deque([square])
    while todo:
        here = todo.popleft()
        for nxt in arrows(here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


@cache
def walk_distances(square: str) -> dict[str, int]:
    """Fewest steps in any direction (how far the Narc is)."""
    dist, todo = {square: 0}, deque([square])
    while todo:
        here = todo.popleft()
        for nxt in neighbours(here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist
