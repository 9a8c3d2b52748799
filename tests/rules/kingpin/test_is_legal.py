"""Kingpin's `is_legal` lists only the part of the legal moves a command's type can be in; it must
agree with `cmd in legal_moves(state, seat)` for every command, listed or not.

States come from seeded games between random and greedy bots (both rules versions); at each,
every seat is asked about every listed move of every seat and about perturbed moves: another
card, another face, one Hit or $100 more or less, another target seat, another command type with
the same arguments.
"""
from __future__ import annotations

import random
from functools import cache

import pytest

from rules.base import Rng, fold
from rules.kingpin import RULESET as K

SEEDS = range(4)


@cache
def states(seed: int) -> tuple:
    """States along a seeded game (4-6 players, random and greedy bots, to $3,000)."""
    chooser = random.Random(seed)
    ruleset = K.at(1 + seed % 2)
    seats = chooser.randint(2, 6)
    state = fold(ruleset, ruleset.setup({"target": 3000}, seats, Rng(f"legal-{seed}", 0)))
    out = [state]
    for step in range(1500):
        awaiting = ruleset.awaiting(state)
        if not awaiting:
            break
        seat = chooser.choice(sorted(awaiting))
        move = ruleset.bot_move(state, seat, chooser.choice(["random", "greedy"]), Rng(f"bot-{seed}", step))
        state = fold(ruleset, ruleset.decide(state, seat, move, Rng(f"legal-{seed}", step + 1)), state)
        out.append(state)
    return tuple(out)


def perturbed(state: dict, move: dict, chooser: random.Random) -> list[dict]:
    """Commands near a listed move: each argument changed, and the type swapped."""
    out = []
    cards = sorted(state["cards"])
    for key, value in move.items():
        if key == "type":
            continue
        if isinstance(value, str):
            out += [{**move, key: chooser.choice(cards)} for _ in range(2)]
            out.append({**move, key: chooser.choice(sorted(state["catalog"]["kinds"]))})
        elif isinstance(value, int):
            out += [{**move, key: value + delta} for delta in (-100, -1, 1, 100)]
        elif value is None:
            out.append({**move, key: chooser.choice(sorted(state["catalog"]["kinds"]))})
    for other in ("Ship", "Distribute", "Chloroform", "Bail", "UseImmunity", "DoubleBounty", "BribeRegulator",
                  "ActivateCard", "UseTriple", "UseQuadruple", "PurchaseCard", "RollDice", "EndTurn", "AcceptJail"):
        shape = K.commands[other]
        if set(shape) <= set(move) - {"type"}:
            out.append({"type": other, **{k: move[k] for k in shape}})
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_is_legal_agrees_with_the_listed_moves(seed):
    chooser = random.Random(seed)
    checked = {True: 0, False: 0}
    game = states(seed)
    assert len(game) > 100
    for state in game[:: max(3, len(game) // 150)]:
        ruleset = K.at(state.get("rules_version", 1))
        listed = {seat: ruleset.legal_moves(state, seat) for seat in range(state["seats"])}
        candidates = [m for moves in listed.values() for m in moves]
        candidates += [p for m in candidates for p in perturbed(state, m, chooser)]
        candidates += [{"type": "RollDice"}, {"type": "EndTurn"}, {"type": "Payday"}, {"type": "AcceptHit"}]
        for seat, moves in listed.items():
            for cmd in candidates:
                expected = cmd in moves
                assert ruleset.is_legal(state, seat, cmd) == expected, (seat, cmd, state["phase"])
                checked[expected] += 1
    assert checked[True] > 500 and checked[False] > 5000  # both answers were put to the test
