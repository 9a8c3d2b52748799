"""A fitted `evaluate`: each seat's chance to win, from a few numbers about its position.

A search guided by a policy (ismcts.py `guided`) compares its candidate moves by the state a short
playout of that policy reaches, so what it needs of `evaluate` is the chance each seat wins from that
state if everyone goes on playing the policy.  A game describes each seat by a few numbers
(`features(state) -> one row per seat`: its score, what it holds, what it will produce ...) and how far
the game has gone (`progress(state)`, 0 at the start to 1 at the end); a seat's strength is a weighted
sum of its numbers, each number's weight moving from its weight at the start to its weight at the end
with the progress (so a point can count for more near the end, production for less), and its chance to
win is its share of exp(strength): the conditional logit,
McFadden's model of who is chosen among several (here: who wins), fitted on the policy's own games
(bench/fit_evaluate.py writes the weights to the game's data file, with the command that made them).

The weights are data, reconstructed by measurement like the games' reconstructed cards: fitted, not
written by hand, and re-fitted when the policy or the rules change.

A search optimizes against its evaluate, so it finds every weight whose sign is wrong: a fit on the
policy's games learns what goes with winning, and Traphouse weight that went untraded, or a hand one card
short of a build, goes with losing or winning for reasons the number itself does not cause.  Fitted
freely, the search then spent weight to be rid of it, or kept a full hand rather than build.  So each
game gives each number the sign the rules give it (`SIGNS`: more of an asset never hurts its holder, +1;
a liability never helps, -1; 0 for no constraint), and the fit holds both its weights to that sign.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def expand(row: Sequence[float], progress: float) -> list[float]:
    """The model's inputs: a seat's numbers weighted for the start of the game (1 - progress) and for its
    end (progress), so each number's weight moves in a straight line from its weight at the start to
    its weight at the end."""
    return [*(x * (1 - progress) for x in row), *(x * progress for x in row)]


def strengths(rows: Sequence[Sequence[float]], progress: float, weights: Sequence[float]) -> list[float]:
    """Each seat's strength: its weighted inputs summed."""
    return [sum(w * x for w, x in zip(weights, expand(row, progress))) for row in rows]


def softmax(values: Sequence[float]) -> list[float]:
    """Shares of exp(value), computed stably."""
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def win_shares(rows: Sequence[Sequence[float]], progress: float, weights: Sequence[float],
               out: Sequence[bool] = ()) -> list[float]:
    """Each seat's chance to win, summing to 1; a seat `out` (out of the game: it can no longer win) none."""
    shares = softmax(strengths(rows, progress, weights))
    if any(out):
        left = [0.0 if gone else share for share, gone in zip(shares, out)]
        total = sum(left)
        shares = [share / total for share in left] if total else shares
    return shares


def input_names(features: Sequence[str]) -> list[str]:
    """The names of the model's inputs: each feature at the start, then each at the end."""
    return [*(f"{name} at the start" for name in features), *(f"{name} at the end" for name in features)]


def weights(data: Mapping[str, Any], features: Sequence[str], source: str) -> list[float]:
    """The fitted weights of a game's data file (`data`, as its data module read it from `source`), checked
    against the game's feature names (a weights file for other features is a bug: the numbers would weigh
    the wrong things)."""
    if data["inputs"] != input_names(features):
        raise ValueError(f"{source}: fitted for {data['inputs']}, the game describes {input_names(features)}")
    return [float(w) for w in data["weights"]]
