"""A response window: several seats must each answer before play goes on.

A window is `{"kind": str, "waiting": [seats], "answers": {seat: answer}, ...}`
(seat keys as strings, so the window survives a JSON round trip).  Games open
one with their own fields (what is being answered), record each answer, and
close it when nobody is waiting; the clock's default answer is the game's.
"""
from __future__ import annotations

from typing import Any, Iterable

from rules.base import IllegalMove


def open_window(kind: str, seats: Iterable[int], **fields: Any) -> dict:
    """A window of `kind` that every seat in `seats` must answer, in seat order."""
    return {"kind": kind, "waiting": sorted(set(seats)), "answers": {}, **fields}


def awaiting(waiting: Iterable[int]) -> dict[int, str]:
    """Who a window waits for, as a ruleset's `awaiting` names them."""
    return {seat: "response" for seat in waiting}


def answered(window: dict, seat: int, answer: Any = True) -> dict:
    """The window after `seat` answered (the caller checked `require_waiting`)."""
    return {**window, "waiting": [s for s in window["waiting"] if s != seat],
            "answers": {**window["answers"], str(seat): answer}}


def is_closed(window: dict) -> bool:
    """Everybody answered."""
    return not window["waiting"]


def require_waiting(waiting: Iterable[int], seat: int, what: str, rule: str) -> None:
    """IllegalMove unless `seat` is among those a window waits for."""
    waiting = list(waiting)
    if seat not in waiting:
        who = ", ".join(f"seat {s}" for s in waiting) or "nobody"
        raise IllegalMove(f"seat {seat} has no {what} to answer; waiting for {who}", rule=rule)
