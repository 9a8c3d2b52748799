"""Folding in place (rules/ruleset.py fold_in_place) gives exactly what the pure `evolve` gives.

A ruleset that opts in (`evolves_in_place`) writes each evolver once: called by
`evolve` it copies what the event changes; called by `fold` on a state the fold
has made its own (owned=True) it changes that state in place.  Over random
games of every such ruleset: after every event the in-place state equals the
pure one, `fold` from any prefix's state equals the pure fold (the clone path
and the event-by-event path), and neither the state `fold` is given nor any
event's data is changed.
"""
from __future__ import annotations

import copy
import random
from functools import cache

import pytest

from rules import EVERY_RULESET
from rules.base import Event, Rng, fold
from rules.ruleset import fold_in_place

IN_PLACE = sorted(name for name, ruleset in EVERY_RULESET.items() if getattr(ruleset, "evolves_in_place", False))
GAMES = 3


def test_the_long_games_fold_in_place():
    # issue 16: the bench's long games are Kingpin's and Druglord's
    assert {"kingpin", "druglord"} <= set(IN_PLACE)


@cache
def random_game(name: str, n: int) -> tuple[Event, ...]:
    """Every event of a seeded game between random bots (cut off after 600 commands)."""
    ruleset = EVERY_RULESET[name]
    chooser = random.Random(f"{name}-{n}")
    seats = chooser.randint(ruleset.min_seats, ruleset.max_seats)
    events = ruleset.setup({}, seats, Rng(f"in-place-{name}-{n}", 2))
    state = None
    for event in events:
        state = ruleset.evolve(state, event)
    for step in range(600):
        awaiting = ruleset.awaiting(state)
        if not awaiting:
            break
        seat = chooser.choice(sorted(awaiting))
        move = ruleset.bot_move(state, seat, "random", Rng(f"bot-{n}", step))
        new = ruleset.decide(state, seat, move, Rng(f"in-place-{name}-{n}", step + 3))
        for event in new:
            state = ruleset.evolve(state, event)
        events += new
    return tuple(events)


def pure_states(ruleset, events) -> list:
    """The state after each event, by the pure evolve."""
    states, state = [], None
    for event in events:
        state = ruleset.evolve(state, event)
        states.append(state)
    return states


def played(name: str, n: int) -> tuple:
    """The ruleset, the events of random game n, a deep copy of their data, and the pure states."""
    ruleset, events = EVERY_RULESET[name], random_game(name, n)
    return ruleset, events, copy.deepcopy([e.data for e in events]), pure_states(ruleset, events)


@pytest.mark.parametrize("n", range(GAMES))
@pytest.mark.parametrize("name", IN_PLACE)
def test_in_place_equals_pure_after_every_event(name, n):
    ruleset, events, data_before, states = played(name, n)
    assert len(events) > 50
    state = None
    for k, event in enumerate(events):
        state = fold_in_place(ruleset.evolvers, ruleset.noun, state, [event], ruleset.first_event)
        assert state == states[k], f"{name} game {n}: differs after event {k} {event.type}"
    assert [e.data for e in events] == data_before  # no event's data was changed
    assert pure_states(ruleset, events) == states  # nor anything the pure states share with them


@pytest.mark.parametrize("n", range(GAMES))
@pytest.mark.parametrize("name", IN_PLACE)
def test_fold_from_any_prefix_equals_pure_and_leaves_its_input(name, n):
    ruleset, events, data_before, states = played(name, n)
    assert fold(ruleset, events) == ruleset.fold(None, list(events)) == states[-1]
    prefixes = sorted({1, 2, len(events) // 3, len(events) // 2, len(events) - ruleset.clone_after - 1,
                       len(events) - ruleset.clone_after, len(events) - 3, len(events) - 1} |
                      set(random.Random(n).sample(range(1, len(events)), 12)))
    for k in prefixes:
        start = states[k - 1]
        before = copy.deepcopy(start)
        rest = events[k:]  # a tuple: fold takes any sequence
        assert ruleset.fold(start, rest) == states[-1], f"{name} game {n}: fold from event {k}"
        assert fold(ruleset, iter(rest), start) == states[-1]  # an iterator too (rules.base.fold)
        assert start == before, f"{name} game {n}: fold changed the state it was given (event {k})"
        middle = min(k + 5, len(events))
        assert ruleset.fold(start, events[k:middle]) == states[middle - 1]
        assert start == before
    assert [e.data for e in events] == data_before


@pytest.mark.parametrize("name", IN_PLACE)
def test_clone_shares_nothing_it_may_change(name):
    ruleset, events = EVERY_RULESET[name], random_game(name, 0)
    state = ruleset.fold(None, events)
    clone = ruleset.clone(state)
    assert clone == state and clone is not state

    def containers(value, path=()):
        if isinstance(value, (dict, list)):
            yield path, value
            for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
                yield from containers(item, path + (key,))

    shared = {id(c) for path, c in containers(state) if path[:1] and path[0] in ruleset.shared_in_clone}
    mine = {id(c): path for path, c in containers(state)}
    for path, value in containers(clone):
        if path[:1] and path[0] in ruleset.shared_in_clone:
            continue
        assert id(value) not in mine or id(value) in shared, f"{name}: the clone shares {path}"
