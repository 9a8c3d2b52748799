"""Every served bot level is reproducible (issue 39): the move a bot seat sends is a function of what the
seat may know and the game's bot key, so verification can re-run it.  A search level searches a fixed
number of iterations (`search_settings.iterations` for "ismcts"), never a wall-clock cut.

Checked the way a bot seat is played (rules.bot_seat.bot_command: the seat's determinization, the bot
key's stream), for every level of every ruleset, the search at its served budget: from a true state and
from a twin the seat cannot tell from it (its hidden parts resampled), and again in another process whose
string hashing differs (PYTHONHASHSEED), so neither the hidden truth nor a set's iteration order nor
the clock can change a move.  Pure: no Redis."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import bot_command, bot_key

KEY = bot_key("reproducible")
WARM_UP = 60  # random commands before the position: past the openings, into the game's own choices
ROOT = Path(__file__).resolve().parents[2]


def position(name: str) -> tuple:
    """(state, seat, version): the first state after WARM_UP random commands where the awaited seat has a
    choice (in a game shorter than that, the last such state)."""
    ruleset = EVERY_RULESET[name]
    events = ruleset.setup(normalize_options(ruleset.options, None), ruleset.min_seats, Rng(f"reproducible-{name}", 2))
    state, version, found = fold(ruleset, events), 1 + len(events), None
    for played in range(10 * WARM_UP):
        if ruleset.outcome(state) is not None:
            break
        seat = min(ruleset.awaiting(state))
        if len(ruleset.legal_moves(state, seat)) > 1:
            found = state, seat, version
            if played >= WARM_UP:
                break
        command = bot_command(ruleset, state, seat, "random", KEY, version)
        events = ruleset.decide(state, seat, command, Rng(f"reproducible-{name}", version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    assert found is not None, f"{name}: no seat ever had a choice"
    return found


def moves(name: str) -> dict[str, dict]:
    """Every level's move at the ruleset's position."""
    ruleset = EVERY_RULESET[name]
    state, seat, version = position(name)
    return {level: bot_command(ruleset, state, seat, level, KEY, version) for level in ruleset.bot_levels}


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_level_moves_the_same_from_the_same_view_and_key(name):
    ruleset = EVERY_RULESET[name]
    state, seat, version = position(name)
    chosen = moves(name)
    twin = ruleset.determinize(state, seat, Rng("twin", 1))  # a true state the seat cannot tell from this one
    assert ruleset.view(twin, seat) == ruleset.view(state, seat)
    for level in ruleset.bot_levels:
        ruleset.decide(state, seat, chosen[level], Rng("legal", 1))  # a legal move (offers' terms are open)
        assert bot_command(ruleset, twin, seat, level, KEY, version) == chosen[level], level


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_level_moves_the_same_in_another_process(name):
    env = {**os.environ, "PYTHONHASHSEED": "39" if os.environ.get("PYTHONHASHSEED") != "39" else "40"}
    script = f"import json; from tests.rules.test_bot_reproducible import moves; print(json.dumps(moves({name!r})))"
    there = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True)
    assert json.loads(there.stdout) == json.loads(json.dumps(moves(name)))


CLOCKS = ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
          "process_time_ns")


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_no_served_level_reads_a_clock(name, monkeypatch):
    # a cut by the clock mostly leaves a guided search with its policy's move, which the comparisons above
    # would not tell from the full search's: so every clock is made to fail while each level chooses
    import time
    ruleset = EVERY_RULESET[name]
    state, seat, version = position(name)

    def clock():
        raise AssertionError(f"a served {name} bot read the clock")
    for reading in CLOCKS:
        monkeypatch.setattr(time, reading, clock)
    for level in ruleset.bot_levels:
        bot_command(ruleset, state, seat, level, KEY, version)
