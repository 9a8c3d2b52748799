"""Fuzzed commands into every ruleset's `decide`, from random reachable states.

Whatever a client sends, `decide` answers with IllegalMove (or its BadCommand
subclass) or with events that `evolve` applies and that stay JSON: never any
other exception.  States come from seeded random playouts; commands are legal
moves with arguments mutated, swapped between moves, dropped or replaced by
arbitrary JSON, and wholly arbitrary objects.
"""
from __future__ import annotations

import json
import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import EVERY_RULESET
from rules.base import IllegalMove, Rng, fold

STATES_PER_RULESET = 24

json_leaf = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12)
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4) |
                          st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=8)


@cache
def reachable(name: str) -> tuple:
    """(state, seat, legal moves) samples along seeded random playouts of `name`."""
    ruleset, samples = EVERY_RULESET[name], []
    for n in range(4):
        seats = random.Random(n).randint(ruleset.min_seats, ruleset.max_seats)
        options = {k: o.default for k, o in ruleset.options.items()}
        state = fold(ruleset, ruleset.setup(options, seats, Rng(f"fuzz-{n}", 2)))
        chooser = random.Random(n)
        for step in range(400):
            awaiting = ruleset.awaiting(state)
            if not awaiting:
                break
            seat = chooser.choice(sorted(awaiting))
            moves = ruleset.legal_moves(state, seat)
            if step % 17 == 0:
                samples.append((json.dumps(state), seat, json.dumps(moves)))
            state = fold(ruleset, ruleset.decide(state, seat, chooser.choice(moves), Rng("fuzz", step)), state)
    return tuple(samples[:: max(1, len(samples) // STATES_PER_RULESET)])


@st.composite
def fuzzed(draw, name: str):
    state, seat, moves = draw(st.sampled_from(reachable(name)))
    moves = json.loads(moves)
    base = draw(st.sampled_from(moves)) if moves else {"type": "Anything"}
    other = draw(st.sampled_from(moves)) if moves else {}
    kind = draw(st.sampled_from(["mutate", "swap", "drop", "arbitrary", "foreign seat"]))
    command = dict(base)
    if kind == "mutate" and len(command) > 1:
        key = draw(st.sampled_from(sorted(k for k in command if k != "type")))
        command[key] = draw(json_value)
    elif kind == "swap":
        command = {**command, **{k: v for k, v in other.items() if k != "type"}}
    elif kind == "drop" and len(command) > 1:
        command.pop(draw(st.sampled_from(sorted(k for k in command if k != "type"))))
    elif kind == "arbitrary":
        command = draw(st.dictionaries(st.sampled_from(["type", "seat", "card", "region", "kind", "units"]) |
                                       st.text(max_size=6), json_value, max_size=5))
    if kind == "foreign seat":
        seat = draw(st.integers(-2, 8))
    return json.loads(state), seat, command


def check(name: str, case) -> None:
    ruleset = EVERY_RULESET[name]
    state, seat, command = case
    try:
        events = ruleset.decide(state, seat, command, Rng("fuzzed", 1))
    except IllegalMove as refusal:
        assert refusal.reason, "a refusal must say why"
        return
    after = fold(ruleset, events, state)
    json.dumps(after)
    json.dumps([e.data for e in events])


def make_test(name: str):
    @settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=fuzzed(name))
    def test(case):
        check(name, case)
    test.__name__ = f"test_fuzzed_commands_into_{name}_only_ever_raise_illegal_move"
    return test


for _name in sorted(EVERY_RULESET):
    globals()[f"test_fuzzed_commands_into_{_name}_only_ever_raise_illegal_move"] = make_test(_name)
