"""Folding: how the base applies events to states, and the one write path every evolver follows.

An evolver is `evolver(state, data, own) -> state`, one per event type.  It changes `state` in place
and returns it (the first event's evolver is given None and returns the new state).  It may set and
delete `state`'s own keys freely; a container below them it changes only through `own(parent, key)`,
which returns `parent[key]` as the evolver's to change:

    own(state, "bankrolls")[d["seat"]] -= d["price"]
    own(own(state, "players"), d["seat"])["score"] += d["stacks"]

Replacing a container (`state["turn"] = {...}`) needs no `own`.  Own a container once and change it
through what `own` returned (owning it again hands back another copy, and what is changed through
the earlier one is lost: `cards = own(state, "cards")` before a loop over cards).  What an evolver stores
from the event's data that a later evolver may change it copies (`list(d["dice"])`).  It never rolls
and reads nothing but the state and the data.

The base decides what `own` does, so each evolver has one write path and a rule is fixed in one place:

- `evolve`, and a short fold from a state (a command's consequences, a step of `settle`): **copy on
  write**.  The fold changes a shallow copy of the state, and `own` puts a copy of the container in
  its parent's place and returns it, so the state the fold was given, and every state it shares
  containers with, never changes: what each event changes is copied, as a pure evolver would.
- a long fold (a game loaded without a snapshot, a history's state at a version), or one from nothing:
  the base clones the state once (every container new, `shared_in_clone` aside) and `own` is
  `operator.getitem`: the evolvers change that private state in place, with no copy per event.

Either way the fold returns a new state object and never changes one it handed out before, which is
what lets the legal-move memo (rules/memo.py) key answers by a state's identity.
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Iterable, Mapping, Sequence

from rules.base import Event

Own = Callable[[Any, Any], Any]  # own(parent, key) -> parent[key], the evolver's to change
Evolver = Callable[[Any, Mapping[str, Any], Own], Any]

IN_PLACE: Own = operator.getitem  # a fold's own state: every container is already the fold's


def clone_state(value: Any) -> Any:
    """A copy of a JSON-like value in which every dict and list is new (strings, numbers, tuples shared)."""
    # each container copied whole (in C), then only its containers replaced: a third faster than
    # comprehensions, which cost a frame each
    kind = type(value)
    if kind is dict:
        out = value.copy()
        for key, item in out.items():
            if type(item) in _CONTAINERS:
                out[key] = clone_state(item)
        return out
    if kind is list:
        out = value.copy()
        for i, item in enumerate(out):
            if type(item) in _CONTAINERS:
                out[i] = clone_state(item)
        return out
    return value


_CONTAINERS = (dict, list)


def clone(state: Mapping[str, Any], shared: frozenset = frozenset()) -> dict:
    """A copy of a state in which an in-place fold may change anything but the `shared` top-level keys."""
    return {key: value if key in shared else clone_state(value) for key, value in state.items()}


def COPY(parent: Any, key: Any) -> Any:
    """`own` when copying on write: a copy of parent[key] (a dict or a list), put in its place and returned."""
    value = parent[key] = parent[key].copy()
    return value


def changed(state: dict, change: Callable[[dict, Own], Any]) -> dict:
    """A new state: `change(state, own)` applied, as an evolver is, to a copy on write of `state` (which
    never changes): how code that is not an evolver (a test's given situation) reuses an evolver's helpers."""
    new = state.copy()
    change(new, COPY)
    return new


def _starter(evolvers: Mapping[str, Callable[..., Any]], first_event: str) -> dict:
    """The evolvers with the first event's wrapped to record its `rules_version` (absent: 1) in the
    state, for the rules that branch on it."""
    table = dict(evolvers)
    started = table.get(first_event)
    if started is not None:
        def start(old: Any, data: Mapping[str, Any], own: Own) -> Any:
            new = started(old, data, own)
            if isinstance(new, dict):
                new["rules_version"] = data.get("rules_version", 1)
            return new
        table[first_event] = start
    return table


def _unknown(noun: str, event: Event, table: Mapping[str, Any], first_event: str, state: Any) -> ValueError | None:
    """The error for an event this fold cannot apply, or None."""
    if event.type not in table:
        return ValueError(f"unknown {noun} event {event.type!r}")
    if state is None and event.type != first_event:
        return ValueError(f"the first {noun} event must be {first_event}")
    return None


def fold_copying(evolvers: Mapping[str, Evolver], noun: str, state: dict, events: Iterable[Event],
                 first_event: str = "GameStarted") -> dict:
    """The state after `events` from an existing `state`, copying on write: `state` is never changed."""
    new = state.copy()
    for event in events:
        evolver = evolvers.get(event.type)
        if evolver is None or event.type == first_event:
            if evolver is None:
                raise _unknown(noun, event, evolvers, first_event, new)
            evolver = _starter(evolvers, first_event)[first_event]
        new = evolver(new, event.data, COPY)
    return new


def fold_owned(evolvers: Mapping[str, Evolver], noun: str, state: Any, events: Iterable[Event],
               first_event: str = "GameStarted") -> Any:
    """The state after `events`, changing `state` in place: None, or a state the caller owns (a clone)."""
    # The loop is the whole cost of a long fold: one lookup and one call per event.  The checks are
    # hoisted: the first event's (state None) before the loop, rules_version in the first event's
    # wrapper, an unknown type when the lookup fails.
    table, own = _starter(evolvers, first_event), IN_PLACE
    events = iter(events)
    event = None
    try:
        if state is None:
            for event in events:
                if event.type != first_event:
                    raise _unknown(noun, event, table, first_event, None)  # type: ignore[misc]
                state = table[first_event](None, event.data, own)
                break
        for event in events:
            state = table[event.type](state, event.data, own)
    except KeyError:
        if event is not None and event.type not in table:
            raise ValueError(f"unknown {noun} event {event.type!r}") from None
        raise  # an evolver's own KeyError (malformed data) surfaces as it is
    return state


def fold(evolvers: Mapping[str, Evolver], noun: str, state: Any, events: Sequence[Event] | Iterable[Event],
         first_event: str = "GameStarted", clone_after: int = 64, shared: frozenset = frozenset()) -> Any:
    """The state after `events`; never changes `state` (nor the events' data): from nothing, or with
    `clone_after` events or more, one clone and an in-place fold; else copying on write."""
    if state is None:
        return fold_owned(evolvers, noun, None, events, first_event)
    events = events if isinstance(events, (list, tuple)) else list(events)
    if not events:
        return state
    if len(events) >= clone_after:
        return fold_owned(evolvers, noun, clone(state, shared), events, first_event)
    return fold_copying(evolvers, noun, state, events, first_event)


def evolve(evolvers: Mapping[str, Evolver], noun: str, state: Any, event: Event,
           first_event: str = "GameStarted") -> Any:
    """The state after one event, a new object; `state` is never changed."""
    evolver = evolvers.get(event.type)
    if evolver is None or state is None or event.type == first_event:  # the checks, the version
        if state is None:
            return fold_owned(evolvers, noun, None, (event,), first_event)
        return fold_copying(evolvers, noun, state, (event,), first_event)
    return evolver(state.copy(), event.data, COPY)


# -- what a game's own modules call ----------------------------------------------------------------
def rules_version(state: Mapping[str, Any]) -> int:
    """The version of the rules a game is played under (its first event's, kept in the state: `_starter`)."""
    return state.get("rules_version", 1)


def evolve_by_type(evolvers: Mapping[str, Evolver], noun: str, state: Any, event: Event,
                   first_event: str = "GameStarted") -> Any:
    """The state after one event (`evolve`), for a game's module that has its evolvers, not its ruleset."""
    return evolve(evolvers, noun, state, event, first_event)


def evolve_all(evolvers: Mapping[str, Evolver], noun: str, state: Any, events: Iterable[Event],
               first_event: str = "GameStarted") -> Any:
    """The state after `events` (`fold`; `state` never changes): for a rule that must read the state
    part-way through its own events (a game's modules have its evolvers, not its ruleset)."""
    return fold(evolvers, noun, state, events, first_event)


__all__ = ["COPY", "IN_PLACE", "Evolver", "Own", "changed", "clone", "clone_state", "evolve", "evolve_all",
           "evolve_by_type", "fold", "fold_copying", "fold_owned", "rules_version"]
