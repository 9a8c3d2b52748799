"""One write path per evolver, two ways the base runs it (rules/folding.py).

Every evolver changes the state it is given and changes a container inside it only through `own`:
`evolve` and a short fold copy on write, a long fold (or one from nothing) changes its own clone in
place.  Over seeded random games of every ruleset:

- the in-place fold equals `evolve` after every event, dict order included (rules iterate dicts, and a
  process's cached state must be byte-identical to a cold fold's);
- a fold from any prefix's state equals event-by-event evolving, by either path, and changes neither
  the state it is given nor any event's data;
- `evolve` writes only through `own`: given a state and data that refuse every change, it still gives
  the same state (a write the evolver did not own, or one into the event's data, raises);
- a fold from nothing changes no event's data either (what it keeps from an event it copied first);
- a clone shares no container a fold may change.
"""
from __future__ import annotations

import copy
import random
from functools import cache

import pytest

from rules import EVERY_RULESET, folding
from rules.base import Event, Rng, fold
from rules.examples.pig import Pig
from rules.folding import fold_owned

NAMES = sorted(EVERY_RULESET)
GAMES = 2


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


def evolved_states(ruleset, events) -> list:
    """The state after each event, by `evolve` (copy on write)."""
    states, state = [], None
    for event in events:
        state = ruleset.evolve(state, event)
        states.append(state)
    return states


def played(name: str, n: int) -> tuple:
    """The ruleset, the events of random game n, a deep copy of their data, and the evolved states."""
    ruleset, events = EVERY_RULESET[name], random_game(name, n)
    return ruleset, events, copy.deepcopy([e.data for e in events]), evolved_states(ruleset, events)


# -- read-only containers: a change the evolver did not own raises -----------------------------
def refuse(self, *args, **kwargs):
    raise TypeError("changed a container it did not own (own(parent, key) first, or copy the event's data)")


class ReadOnlyDict(dict):
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = refuse


class ReadOnlyList(list):
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = refuse
    __iadd__ = __imul__ = refuse


def read_only(value):
    """A deep copy in which every dict and list refuses changes (its .copy() is a plain, changeable one)."""
    if isinstance(value, dict):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    if isinstance(value, list):
        return ReadOnlyList(read_only(item) for item in value)
    return value


@pytest.mark.parametrize("n", range(GAMES))
@pytest.mark.parametrize("name", NAMES)
def test_in_place_equals_copy_on_write_after_every_event_in_dict_order_too(name, n):
    ruleset, events, data_before, states = played(name, n)
    assert len(events) > 20
    state = None
    for k, event in enumerate(events):
        state = fold_owned(ruleset.evolvers, ruleset.noun, state, [event], ruleset.first_event)
        assert repr(state) == repr(states[k]), f"{name} game {n}: differs after event {k} {event.type}"
    assert [e.data for e in events] == data_before  # no event's data was changed
    assert evolved_states(ruleset, events) == states  # nor anything the evolved states share with them


@pytest.mark.parametrize("n", range(GAMES))
@pytest.mark.parametrize("name", NAMES)
def test_fold_from_any_prefix_equals_evolving_and_leaves_its_input(name, n):
    ruleset, events, data_before, states = played(name, n)
    assert repr(fold(ruleset, events)) == repr(ruleset.fold(None, list(events))) == repr(states[-1])
    prefixes = sorted({1, 2, len(events) // 3, len(events) // 2, len(events) - 3, len(events) - 1} |
                      {k for k in (len(events) - ruleset.clone_after - 1, len(events) - ruleset.clone_after)
                       if k > 0} |
                      set(random.Random(n).sample(range(1, len(events)), 10)))
    for k in prefixes:
        start = states[k - 1]
        before = copy.deepcopy(start)
        rest = events[k:]  # a tuple: fold takes any sequence
        assert repr(ruleset.fold(start, rest)) == repr(states[-1]), f"{name} game {n}: fold from event {k}"
        assert fold(ruleset, iter(rest), start) == states[-1]  # an iterator too (rules.base.fold)
        assert start == before, f"{name} game {n}: fold changed the state it was given (event {k})"
        middle = min(k + 5, len(events))
        assert repr(ruleset.fold(start, events[k:middle])) == repr(states[middle - 1])
        assert start == before
    assert [e.data for e in events] == data_before


@pytest.mark.parametrize("name", NAMES)
def test_evolve_changes_only_what_it_owns(name):
    ruleset, events, _, states = played(name, 0)
    for k, event in enumerate(events[1:], start=1):
        locked = Event(event.type, read_only(event.data))
        after = ruleset.evolve(read_only(states[k - 1]), locked)
        assert after == states[k], f"{name}: event {k} {event.type}"


@pytest.mark.parametrize("name", NAMES)
def test_a_fold_from_nothing_changes_no_events_data(name):
    ruleset, events, _, states = played(name, 1)
    locked = [Event(e.type, read_only(e.data)) for e in events]
    assert ruleset.fold(None, locked) == states[-1]


def test_a_change_an_evolver_did_not_own_is_caught():
    # the checks above catch an evolver that writes around `own` (here Pig's bank, changed in place)
    def banked_around_own(state, d, own):
        state["banks"][d["seat"]] += d["pot"]
        state["pot"] = 0
        return state

    class Careless(Pig):
        evolvers = {**Pig.evolvers, "PotBanked": banked_around_own}

    ruleset = Careless()
    state = ruleset.fold(None, [Event("GameStarted", {"seats": 2, "target": 50, "first": 0})])
    state = ruleset.evolve(state, Event("DieRolled", {"seat": 0, "face": 5}))
    banked = Event("PotBanked", {"seat": 0, "pot": 5})
    with pytest.raises(TypeError, match="did not own"):
        ruleset.evolve(read_only(state), banked)
    assert Pig().evolve(read_only(state), banked)["banks"] == [5, 0]  # the game's own evolver owns it
    before = copy.deepcopy(state)
    ruleset.evolve(state, banked)
    assert state != before  # what the check guards against: the caller's state changed under it


def test_owning_below_a_container_the_evolver_did_not_own_is_caught():
    # own(parent, key) puts its copy in `parent`: a parent reached without `own` is the caller's
    def sneaky(state, d, own):
        own(state["players"], d["seat"])["bank"] = 0
        return state

    class Sneaky(Pig):
        evolvers = {**Pig.evolvers, "PotBanked": sneaky}

    ruleset = Sneaky()
    state = {**ruleset.fold(None, [Event("GameStarted", {"seats": 2, "target": 50, "first": 0})]),
             "players": [{"bank": 3}, {"bank": 4}]}
    with pytest.raises(TypeError, match="did not own"):
        ruleset.evolve(read_only(state), Event("PotBanked", {"seat": 0, "pot": 0}))
    ruleset.evolve(state, Event("PotBanked", {"seat": 0, "pot": 0}))
    assert state["players"][0] == {"bank": 0}  # what the check guards against: the caller's state changed


def test_a_long_fold_changes_one_clone_in_place_and_a_short_one_copies_on_write(monkeypatch):
    ruleset, events = EVERY_RULESET["kingpin"], random_game("kingpin", 0)
    start, expected = ruleset.fold(None, events[:10]), evolved_states(ruleset, events)
    calls = []
    for name in ("fold_owned", "fold_copying", "clone"):
        real = getattr(folding, name)
        monkeypatch.setattr(folding, name, lambda *args, real=real, name=name: calls.append(name) or real(*args))
    long = events[10:10 + ruleset.clone_after]
    assert ruleset.fold(start, long) == expected[9 + len(long)] and calls == ["clone", "fold_owned"]
    calls.clear()
    assert ruleset.fold(start, long[:-1]) == expected[8 + len(long)] and calls == ["fold_copying"]
    calls.clear()
    assert ruleset.fold(None, events) == expected[-1] and calls == ["fold_owned"]  # from nothing: no clone


@pytest.mark.parametrize("name", NAMES)
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
