"""Helpers for `determinize`: resample what a seat cannot see, from what it can.

A determinization must depend only on what the searching seat may know.  The helpers therefore
take the *contents* of the hidden places (a multiset the seat can count: the cards neither in
its hand nor anywhere public) and sort them before shuffling, so where the cards truly lie
(which opponent holds which, the deck's order) cannot reach the result.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.base import Rng


def deal(pool: Iterable, sizes: Sequence[int], rng: Rng) -> list[list]:
    """The pool shuffled and cut into hands of `sizes` (a pool larger than the sizes' sum is an
    over-approximation of what may be hidden: the cards left over are simply not dealt)."""
    cards = rng.shuffled(sorted(pool))
    if sum(sizes) > len(cards):
        raise ValueError(f"cannot deal {list(sizes)} from {len(cards)} cards")
    hands, start = [], 0
    for size in sizes:
        hands.append(cards[start:start + size])
        start += size
    return hands


def others(state_seats: int, seat: int | None) -> list[int]:
    """The seats whose secrets `seat` does not read (a spectator, None, reads nobody's)."""
    return [s for s in range(state_seats) if s != seat]


def shares(values: Sequence[float]) -> list[float]:
    """Per-seat values (scores, money) as shares of one win: proportional, never negative;
    equal shares when nobody has anything yet."""
    floor = [max(0.0, float(v)) for v in values]
    total = sum(floor)
    if total <= 0:
        return [1.0 / len(values)] * len(values)
    return [v / total for v in floor]
