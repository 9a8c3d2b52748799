"""The legal-move memo under gunicorn's threads: every answer is the one a fresh, single-threaded
call gives.

A ruleset object is shared by every request thread of a process, so whatever it remembers about the
last state asked (a bot's moves, then `decide`'s legality check of the same state) is shared too.
Over states of seeded random games of every ruleset: threads asking at once about different states
(and the same ones) get exactly the moves, legality verdicts and random bot moves a fresh call on a
deep copy gives (a copy: another object, so nothing remembered applies); and a caller that changes
the list it was handed, or a move in it, changes nobody else's answer, in its own thread or another.
"""
from __future__ import annotations

import copy
import random
import sys
import threading
from functools import cache

import pytest

from rules import EVERY_RULESET
from rules.base import Rng, fold
from rules.ruleset import RulesetBase

THREADS = 4
PASSES = 3


@cache
def positions(name: str) -> tuple:
    """(state, seat) pairs of two seeded random games, every few commands, for awaited seats."""
    ruleset = EVERY_RULESET[name]
    out = []
    for game in range(2):
        chooser = random.Random(f"memo-{name}-{game}")
        seats = chooser.randint(ruleset.min_seats, ruleset.max_seats)
        state = fold(ruleset, ruleset.setup({}, seats, Rng(f"memo-{name}-{game}", 1)))
        for step in range(160):
            awaiting = ruleset.awaiting(state)
            if not awaiting:
                break
            if step % 4 == 0:
                out += [(state, seat) for seat in sorted(awaiting)]
            seat = chooser.choice(sorted(awaiting))
            move = ruleset.bot_move(state, seat, "random", Rng(f"memo-bot-{game}", step))
            state = ruleset.decide_and_apply(state, seat, move, Rng(f"memo-{name}-{game}", step + 2))[1]
    return tuple(out)


def near_misses(ruleset, moves: list[dict]) -> list[dict]:
    """Well-formed commands one change away from listed moves (a count nudged), and argument-free
    commands of every type (what `decide` asks `is_legal` about: a command that passed its shape check)."""
    out = [{"type": kind} for kind, arguments in ruleset.commands.items() if not arguments]
    for move in moves[:3]:
        for key, value in move.items():
            if isinstance(value, int) and not isinstance(value, bool):
                out.append({**move, key: value + 1})
    return out


@cache
def expected(name: str) -> tuple:
    """Per position: (moves, [(command, legal)], the random bot's move), each from a deep copy of the state."""
    ruleset = EVERY_RULESET[name]
    out = []
    for n, (state, seat) in enumerate(positions(name)):
        fresh = copy.deepcopy(state)
        moves = ruleset.legal_moves(fresh, seat)
        commands = moves[:6] + near_misses(ruleset, moves)
        verdicts = [(cmd, RulesetBase.is_legal(ruleset, copy.deepcopy(state), seat, cmd)) for cmd in commands]
        bot = ruleset.bot_move(copy.deepcopy(state), seat, "random", Rng("memo-threads", n))
        out.append((copy.deepcopy(moves), verdicts, bot))
    return tuple(out)


def run_threads(name: str, careless: bool) -> list[str]:
    """THREADS threads over every position in their own orders; the wrong answers they saw."""
    ruleset, places, answers = EVERY_RULESET[name], positions(name), expected(name)
    wrong: list[str] = []
    start = threading.Barrier(THREADS)

    def ask(worker: int) -> None:
        try:
            answer(worker)
        except Exception as error:  # noqa: BLE001 - a thread's exception is a wrong answer too
            wrong.append(f"thread {worker} raised {error!r}")

    def answer(worker: int) -> None:
        order = list(range(len(places))) * PASSES
        random.Random(worker).shuffle(order)
        start.wait()
        for n in order:
            state, seat = places[n]
            moves, verdicts, bot = answers[n]
            got = ruleset.legal_moves(state, seat)
            if list(got) != moves:
                wrong.append(f"legal_moves at position {n}, seat {seat} (thread {worker})")
            if careless and worker % 2 and got:  # a caller that edits what it was handed
                got[0]["type"] = "Edited"
                got.append({"type": "Appended"})
            for cmd, legal in verdicts:
                if ruleset.is_legal(state, seat, cmd) != legal:
                    wrong.append(f"is_legal({cmd}) at position {n} (thread {worker})")
            move = ruleset.bot_move(state, seat, "random", Rng("memo-threads", n))
            if move != bot or not ruleset.is_legal(state, seat, move):
                wrong.append(f"bot_move at position {n} (thread {worker})")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows: races show sooner
    try:
        threads = [threading.Thread(target=ask, args=(w,)) for w in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    return wrong


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_threads_asking_at_once_get_the_answers_of_a_fresh_call(name):
    assert len(positions(name)) >= 20
    wrong = run_threads(name, careless=False)
    assert wrong == [], f"{name}: {len(wrong)} wrong answers, e.g. {wrong[:3]}"


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_a_caller_that_edits_its_moves_changes_no_other_answer(name):
    wrong = run_threads(name, careless=True)
    assert wrong == [], f"{name}: {len(wrong)} wrong answers, e.g. {wrong[:3]}"
