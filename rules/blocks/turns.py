"""Turn order and phases."""
from __future__ import annotations

from typing import Collection, Sequence


def next_seat(seats: int, current: int, skip: Collection[int] = ()) -> int | None:
    """The next seat clockwise after `current` that is not skipped; None when every seat is."""
    for step in range(1, seats + 1):
        seat = (current + step) % seats
        if seat not in skip:
            return seat
    return None


def order_from(first: int, seats: int) -> list[int]:
    """Every seat once, clockwise from `first` (the order of a round)."""
    return [(first + step) % seats for step in range(seats)]


def next_phase(phases: Sequence[str], phase: str) -> str | None:
    """The phase after `phase` in a fixed sequence; None after the last."""
    index = list(phases).index(phase)
    return phases[index + 1] if index + 1 < len(phases) else None
