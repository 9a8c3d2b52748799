"""Given/when/then helpers for Lords of Cannabis rule tests.

A table is a real GameStarted (chosen chips and Crop deck) folded by the ruleset, then put in the
situation a test needs by helpers that keep every count conserved (cards come from the bank, Crop
cards from the deck, buildings from the stock), so `invariants` holds throughout.  Dice are chosen by
searching for an Rng whose next roll is the one wanted, never by patching the rules.
"""
from __future__ import annotations

from rules.base import Event, Rng, fold
from rules.folding import changed
from rules.lords_of_cannabis import RULESET as L
from rules.lords_of_cannabis import evolve as E
from rules.lords_of_cannabis.board import BRICK_NODES, NODE_PATHS, PATHS, RESOURCE_INDEX
from rules.lords_of_cannabis.cards import crop_deck
from tests.rules.support import NAMES, assert_refused, ev, first, label_of, rng_where, types  # noqa: F401 (re-exported)

ANY = Rng("cannabis-tests", 1)
# Chips by brick for tests: brick 12 (the middle row) shows 6, brick 11 shows 8, the rest as below.
CHIPS = [2, 3, 4, 5, 9, 10, 11, 12, 4, 5, 9, 8, 6, 10, 3, 4, 5, 6, 8, 9, 10, 11, 6, 8]


def new_game(seats: int = 3, seed: str = "cannabis") -> dict:
    """A freshly set-up game by the ruleset's own setup."""
    return fold(L, L.setup({}, seats, Rng(seed, 0)))


def table(seats: int = 3, current: int = 0, phase: str = "roll", deck: list[str] | None = None) -> dict:
    """A game past placement with an empty board, seat `current` to act in `phase`."""
    deck = deck or crop_deck()
    state = fold(L, [ev("GameStarted", seats=seats, chips=CHIPS, rolls=[[0, 6, 6]], first=0,
                        secret={"deck": list(deck)})])
    state = {**state, "phase": phase, "setup": None, "current": current, "rolled": phase != "roll"}
    assert L.invariants(state) == []
    return state


def greenhouse(state: dict, seat: int, node: int, level: int = 1) -> dict:
    """Given a Greenhouse (level 2: a Plantation) of `seat` on `node`, from its stock."""
    state = changed(state, lambda new, own: E._build_site(new, own, seat, node))
    if level == 2:
        state = changed(state, lambda new, own: E.plantation_built(new, {"seat": seat, "at": node, "free": True}, own))
    return state


def tunnel(state: dict, seat: int, *paths: int) -> dict:
    for path in paths:
        state = changed(state, lambda new, own, path=path: E._build_tunnel(new, own, seat, path))
    return state


def cards(state: dict, seat: int, **counts: int) -> dict:
    """Given Stash cards taken from the bank into a hand."""
    hands, bank = [list(h) for h in state["hands"]], list(state["bank"])
    for name, n in counts.items():
        hands[seat][RESOURCE_INDEX[name]] += n
        bank[RESOURCE_INDEX[name]] -= n
    return {**state, "hands": hands, "bank": bank}


def crops(state: dict, seat: int, *card_ids: str) -> dict:
    """Given Crop cards taken from the deck into a hand."""
    deck, held = list(state["deck"]), [list(c) for c in state["crops"]]
    for card in card_ids:
        deck.remove(card)
        held[seat].append(card)
    return {**state, "deck": deck, "crops": held}


def play(state: dict, seat: int, command: dict, rng: Rng = ANY) -> tuple[list[Event], dict]:
    """When seat sends command: (events, state after)."""
    events = L.decide(state, seat, command, rng)
    after = fold(L, events, state)
    assert L.invariants(after) == [], L.invariants(after)
    return events, after


def legal(state: dict, seat: int) -> list[dict]:
    return L.legal_moves(state, seat)


def refused(state: dict, seat: int, command: dict, rule: str | None = None, match: str | None = None):
    return assert_refused(lambda: L.decide(state, seat, command, ANY), rule, match)


def path_between(a: int, b: int) -> int:
    return next(p for p in NODE_PATHS[a] if set(PATHS[p]) == {a, b})


def route(*nodes: int) -> list[int]:
    """The paths along a walk of adjacent intersections."""
    return [path_between(a, b) for a, b in zip(nodes, nodes[1:])]


def corners(brick: int) -> tuple[int, ...]:
    return BRICK_NODES[brick]


def label(state: dict, seat: int, move: dict) -> str:
    """The label `seat` reads for `move` (from its view, players named as NAMES)."""
    return label_of(L, state, seat, move)
