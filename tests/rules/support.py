"""Given/when/then helpers every game's rules tests share (each game's support.py binds its ruleset)."""
from __future__ import annotations

import itertools
from typing import Callable

import pytest

from rules.base import Event, IllegalMove, Rng
from rules.narration import Names

NAMES = Names(("Ana", "Bo", "Cy", "Di", "Ed", "Flo"))  # the players' names labels and sentences use in tests


def label_of(ruleset, state, seat: int, move: dict, names: Names = NAMES) -> str:
    """The label `seat` reads for `move`: written from its view, as the service writes it (rules/describe.py)."""
    return ruleset.label(ruleset.view(state, seat), seat, move, names)


def ev(type_: str, **data) -> Event:
    return Event(type_, data)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: list[Event], type_: str) -> dict:
    return next(dict(e.data) for e in events if e.type == type_)


def assert_refused(when: Callable[[], object], rule: str | None = None, match: str | None = None) -> IllegalMove:
    """Then `when()` raises IllegalMove (optionally citing `rule` / containing `match`)."""
    with pytest.raises(IllegalMove) as info:
        when()
    if rule is not None:
        assert info.value.rule == rule, (info.value.rule, info.value.reason)
    if match is not None:
        assert match in info.value.reason, info.value.reason
    return info.value


def rng_where(predicate: Callable[[Rng], bool], prefix: str = "search") -> Rng:
    """A fresh Rng for which `predicate` (run on a throwaway twin) holds: how tests pick dice."""
    for i in itertools.count():
        if predicate(Rng(f"{prefix}-{i}", 1)):
            return Rng(f"{prefix}-{i}", 1)
