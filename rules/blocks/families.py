"""Move families: a legal-move list written compactly, for games whose moves differ in a count.

Druglord lists one Trade, LoadWeight or Sway per unit count ("units": 1, 2, ... N): building
every one of those dicts only to pick one at random, or to check that one command is among
them, is most of a rules-only game's time.  A family is one move with (at most) one argument
left open and the values that argument takes, in the order the full list has them; a game's
listing is a list of families.  `expand` is the legal-move list itself, and the rest answer
the same questions without building it:

    expand(listing)          the legal moves, each a fresh dict (a caller may change it)
    count(listing)           len(expand(listing))
    nth(listing, i)          expand(listing)[i]
    pick(listing, rng)       rng.choice(expand(listing)): the same draw, so the same move
    contains(listing, cmd)   cmd in expand(listing)

and `choose` / `locate` name a move as (family, value) without building it: `build` makes it,
`is_move` compares a command with it (a game may keep the move its bot chose to check it cheaply).

A family's move holds only scalars and lists, never its open argument; the values are any
sequence (a range for 1..N).  Listings are read-only: a game may keep one for a state.
"""
from __future__ import annotations

from rules.base import Rng

# A family: (move, arg, values) -- `move` with `arg` set to each of `values` in turn; (move, None, ONE)
# is the one move itself.  Plain tuples: a game builds dozens per state, a NamedTuple's constructor
# would double the cost.
Family = tuple  # tuple[dict, str | None, Sequence]
ONE = (None,)
_ABSENT = object()


def one(move: dict) -> Family:
    """The family of a single move."""
    return (move, None, ONE)


def each(moves: list[dict]) -> list[Family]:
    """A listing of single moves (lists too short or too varied to be worth a family)."""
    return [(move, None, ONE) for move in moves]


def _fresh(move: dict) -> dict:
    """A copy with its own lists (a KeepRegions' regions), so the listing stays as it was."""
    out = move.copy()
    for key, value in move.items():
        if type(value) is list:
            out[key] = list(value)
    return out


def expand(listing: list[Family]) -> list[dict]:
    out: list[dict] = []
    for move, arg, values in listing:
        if arg is None:
            out.append(_fresh(move))
        else:
            out += [{**_fresh(move), arg: value} for value in values]
    return out


def count(listing: list[Family]) -> int:
    return sum([len(values) for _, _, values in listing])


def nth(listing: list[Family], index: int) -> dict:
    return build(*locate(listing, index))


def locate(listing: list[Family], index: int) -> tuple[Family, object]:
    """(family, value of its open argument) of expand(listing)[index]."""
    for family in listing:
        values = family[2]
        if index < len(values):
            return family, values[index]
        index -= len(values)
    raise IndexError("no such move in the listing")


def build(family: Family, value: object) -> dict:
    """The move of `family` with its open argument set to `value`, a fresh dict."""
    move, arg, _ = family
    out = _fresh(move)
    if arg is not None:
        out[arg] = value  # never among the move's own keys: last, as in expand
    return out


def pick(listing: list[Family], rng: Rng) -> dict:
    """One move uniformly: the draw `rng.choice(expand(listing))` makes, without the list."""
    return build(*choose(listing, rng))


def choose(listing: list[Family], rng: Rng) -> tuple[Family, object]:
    """`pick`, as (family, value) (see `locate`)."""
    return locate(listing, rng.randbelow(count(listing)))


def is_move(family: Family, value: object, cmd: dict) -> bool:
    """Whether `cmd` equals build(family, value) (dict equality, without building it)."""
    move, arg, _ = family
    if arg is None:
        return cmd == move
    return len(cmd) == len(move) + 1 and cmd.get(arg, _ABSENT) == value and _agrees(cmd, move)


def contains(listing: list[Family], cmd: dict) -> bool:
    """Whether `cmd` equals a listed move (dict equality, as `cmd in expand(listing)`)."""
    kind = cmd.get("type", _ABSENT)
    for move, arg, values in listing:
        if move.get("type", _ABSENT) != kind:
            continue
        if arg is None:
            if cmd == move:
                return True
        elif len(cmd) == len(move) + 1 and arg in cmd and _agrees(cmd, move) and cmd[arg] in values:
            return True
    return False


def _agrees(cmd: dict, move: dict) -> bool:
    """Every argument of `move` is in `cmd` with an equal value."""
    for key, value in move.items():
        if cmd.get(key, _ABSENT) != value:
            return False
    return True


__all__ = ["ONE", "Family", "one", "build", "choose", "contains", "count", "each", "expand", "is_move", "locate",
           "nth", "pick"]
