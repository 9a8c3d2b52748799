"""The legal-move memo under gunicorn's threads: every answer is the one a fresh, single-threaded
call gives.

A ruleset object is shared by every request thread of a process, so whatever it remembers about the
last state asked (a bot's moves, then `decide`'s legality check of the same state) is shared too.
Over states of seeded random games of every ruleset: threads asking at once about different states
(and the same ones) get exactly the moves, legality verdicts and random bot moves a fresh call on a
deep copy gives (a copy: another object, so nothing remembered applies); and a caller that changes
the list it was handed, or a move in it, changes nobody else's answer, in its own thread or another.

Run against the per-game caches the memo replaced (main at a0222f9: Druglord's `_last_listing` and
`_last_pick`, Lords of Cannabis's `_last`, Druglord's trade options), the first test passes (each entry
was one tuple, read once, so no thread saw another's half-written entry) and the second fails: Lords of
Cannabis handed every caller its one list, and 1,620 answers were another caller's edits.  The memo's own
properties (one entry per thread, held states, copies) are tested below.
"""
from __future__ import annotations

import copy
import random
import sys
import threading
from functools import cache

import pytest

from rules import EVERY_RULESET, memo
from rules.base import Rng, fold
from rules.examples.pig import Pig
from rules.ruleset import Ruleset

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
        verdicts = [(cmd, Ruleset.is_legal(ruleset, copy.deepcopy(state), seat, cmd)) for cmd in commands]
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
            if careless and worker % 2:  # the bot's move is the caller's too (a bot may pick a listed move)
                move.clear()

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


# -- the memo itself (rules/memo.py) -------------------------------------------------------------
ASKED: list[tuple[int, int, int]] = []  # (thread, id(state), seat): each time the game's own legal_moves runs
CHECKED: list[dict] = []  # each time the game's own is_legal runs


class Counting(Pig):
    """Pig whose pure legal_moves and fast is_legal record that they ran."""

    versions = ((1, "as first released"), (2, "Hold needs 2 in the pot (a test's rule)"))

    def legal_moves(self, state, seat):
        ASKED.append((threading.get_ident(), id(state), seat))
        if self.outcome(state) or seat != state["current"]:
            return []
        return [{"type": "Roll"}] + ([{"type": "Hold"}] if state["pot"] >= self.version else [])

    def is_legal(self, state, seat, cmd):
        CHECKED.append(cmd)
        return Ruleset.is_legal(self, state, seat, cmd)


def pig_state(current: int = 0, pot: int = 0) -> dict:
    return {"seats": 2, "target": 50, "banks": [0, 0], "current": current, "pot": pot, "rules_version": 2}


def test_a_question_asked_again_is_answered_from_the_memo():
    memo.forget()
    ruleset, state, twin = Counting(), pig_state(pot=3), pig_state(pot=3)
    ASKED.clear()
    assert ruleset.legal_moves(state, 0) == ruleset.legal_moves(state, 0) == [{"type": "Roll"}, {"type": "Hold"}]
    assert len(ASKED) == 1
    ruleset.legal_moves(state, 1)  # another seat
    ruleset.legal_moves(twin, 1)  # an equal state, another object
    ruleset.at(1).legal_moves(twin, 1)  # another rules version
    assert len(ASKED) == 4


def test_each_thread_keeps_its_own_answer():
    # gunicorn's threads share the ruleset: one thread's questions must not evict another's entry
    memo.forget()
    ruleset, states, turns = Counting(), [pig_state(pot=1), pig_state(pot=2)], threading.Barrier(2)
    ASKED.clear()

    def ask(n):
        for _ in range(3):
            ruleset.legal_moves(states[n], 0)
            turns.wait()  # both threads ask in turn, three times: a shared entry would flip every time

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ASKED) == 2 and len({thread for thread, _, _ in ASKED}) == 2


def test_an_entry_holds_its_state_so_no_new_state_can_take_its_identity():
    # each state below is dropped as soon as the next is made: CPython would give the next one the freed
    # object's id, and a memo keyed by the id alone would answer it with the dropped state's moves
    memo.forget()
    ruleset, wrong = Counting(), []
    for n in range(300):
        state = pig_state(pot=n % 3)
        listed = len(ruleset.listed_moves(state, 0))
        del state  # freed now, unless the memo holds it: the next state's dict would take its place
        if listed != (2 if n % 3 == 2 else 1):
            wrong.append(n)
    assert wrong == []


def test_decide_checks_a_move_the_thread_just_listed_without_asking_the_game_again():
    memo.forget()
    ruleset = Counting()
    CHECKED.clear()
    ruleset.decide(pig_state(pot=5), 0, {"type": "Hold"}, Rng("memo", 1))  # nothing listed: the game's is_legal
    assert CHECKED == [{"type": "Hold"}]
    ASKED.clear()
    state = pig_state(pot=5)
    move = ruleset.bot_move(state, 0, "random", Rng("memo", 2))  # the bot lists the moves...
    ruleset.decide(state, 0, move, Rng("memo", 3))  # ...and decide reads the memo's answer
    assert len(ASKED) == 1 and CHECKED == [{"type": "Hold"}]
    assert ruleset.listed_moves(state, 0) == ({"type": "Roll"}, {"type": "Hold"}) and len(ASKED) == 1


def test_a_caller_gets_its_own_copy_down_to_the_lists_and_dicts_inside_a_move():
    memo.forget()
    ruleset = EVERY_RULESET["lords_of_cannabis"]
    state, seat = next((s, seat) for s, seat in positions("lords_of_cannabis")
                       if any(m["type"] == "OfferToAll" for m in ruleset.legal_moves(s, seat)))
    before = copy.deepcopy(ruleset.legal_moves(state, seat))
    mine = ruleset.legal_moves(state, seat)
    offers = [m for m in mine if m["type"] in ("MakeOffer", "OfferToAll")]
    # the game lists one example terms for every offer; the copy keeps that sharing, among its own moves
    assert len({id(m["terms"]) for m in offers}) == 1
    offers[0]["terms"]["give"]["SOIL"] = 9
    mine.clear()
    assert ruleset.legal_moves(state, seat) == before
    assert all(m is not n for m in ruleset.listed_moves(state, seat) for n in ruleset.legal_moves(state, seat))
