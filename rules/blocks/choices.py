"""Simultaneous secret choices: every seat chooses in secret, then all are revealed at once.

The game keeps one slot per seat (None until that seat has chosen); the chosen
value travels in the event's `data["secret"]`, visible to its seat only, and the
reveal is a public event once every slot is filled.  Nobody sees another's
choice before the reveal, and the order of answering changes nothing.
"""
from __future__ import annotations

from typing import Any, Sequence

from rules.base import Event, IllegalMove


def awaiting(slots: Sequence[Any]) -> dict[int, str]:
    """Every seat that has not chosen yet: all of them act at once."""
    return {seat: "move" for seat, chosen in enumerate(slots) if chosen is None}


def all_chosen(slots: Sequence[Any]) -> bool:
    return all(chosen is not None for chosen in slots)


def require_unchosen(slots: Sequence[Any], seat: int, what: str, rule: str) -> None:
    """IllegalMove if `seat` chose already (a secret choice is made once)."""
    if slots[seat] is not None:
        raise IllegalMove(f"seat {seat} has chosen its {what} already", rule=rule)


def chosen_event(event_type: str, seat: int, **secret: Any) -> Event:
    """The event recording one seat's choice; its content is secret to that seat."""
    return Event(event_type, {"seat": seat, "secret": dict(secret)})


def chosen_with(slots: Sequence[Any], seat: int, choice: Any) -> list:
    """The slots after `seat` chose `choice`."""
    return [choice if s == seat else chosen for s, chosen in enumerate(slots)]
