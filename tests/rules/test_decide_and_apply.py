"""`decide_and_apply` (rules/ruleset.py) is `decide` plus the state its events lead to.

A replay's verification (events/history.py) takes the state after each command
from it instead of folding the command's events a second time, so it must be
exactly `decide` followed by `fold`: over random games of every ruleset, at
every step the same events (and the same rolls: each call gets its own Rng of
the same seed), the same state, the state it was given unchanged, and the same
refusal for a command that is not legal.
"""
from __future__ import annotations

import copy
import random

import pytest

from rules import EVERY_RULESET
from rules.base import BadCommand, IllegalMove, Rng, decide_and_apply, fold

STEPS = 150


def refusal(call):
    try:
        call()
    except IllegalMove as error:
        return type(error), error.reason, error.rule
    return None


@pytest.mark.parametrize("n", range(2))
@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_decide_and_apply_is_decide_then_fold(name, n):
    ruleset = EVERY_RULESET[name]
    chooser = random.Random(f"apply-{name}-{n}")
    seats = chooser.randint(ruleset.min_seats, ruleset.max_seats)
    state = fold(ruleset, ruleset.setup({}, seats, Rng(f"apply-{name}-{n}", 1)))
    steps = 0
    for step in range(STEPS):
        awaiting = ruleset.awaiting(state)
        if not awaiting:
            break
        seat = chooser.choice(sorted(awaiting))
        move = ruleset.bot_move(state, seat, "random", Rng(f"bot-{n}", step))
        before = copy.deepcopy(state)
        events = ruleset.decide(state, seat, move, Rng(f"apply-{name}-{n}", step + 2))
        produced, after = ruleset.decide_and_apply(state, seat, move, Rng(f"apply-{name}-{n}", step + 2))
        assert produced == events, f"{name}: other events at step {step}"
        assert after == fold(ruleset, events, state), f"{name}: another state at step {step}"
        assert state == before, f"{name}: decide_and_apply changed the state it was given at step {step}"
        assert decide_and_apply(ruleset, state, seat, move, Rng(f"apply-{name}-{n}", step + 2)) == (events, after)
        # a seat that is not awaited (or a malformed command) is refused exactly as decide refuses it
        for other, command in ((next((s for s in range(seats) if s not in awaiting), seat), move),
                               (seat, {"type": "NoSuchCommand"})):
            expected = refusal(lambda: ruleset.decide(state, other, command, Rng("x", 1)))
            assert refusal(lambda: ruleset.decide_and_apply(state, other, command, Rng("x", 1))) == expected
        state = after
        steps += 1
    assert steps >= 20
    assert refusal(lambda: ruleset.decide_and_apply(state, seats, {"type": "NoSuchCommand"}, Rng("x", 1)))[0] \
        is BadCommand
