"""Fit a game's search `evaluate` (rules/search/value.py): each seat's chance to win from its features,
a conditional logit fitted on games the policy plays against itself, rules only (no Redis).

    python3 -m bench.fit_evaluate --ruleset druglord --games 1500 --seats 2,3,4 --write

Games: every seat the search's policy (its `search_settings.policy`, "greedy"), seeds
fit-<ruleset>-<seats>-<n>; a state is sampled every `--every` commands (only where some seat has a
choice); its label is who won that game (a shared win shared).  One game in five is held out: the
report compares, on those games' states, the fitted model with the game's current `evaluate` and
with equal shares (log-loss: lower is better; accuracy: how often the seat it rates highest wins).
`--write` stores the weights in the game's data file (rules/<game>/search_weights.json) with the
command and the figures, which the game's `evaluate` reads.

Fitting: maximum likelihood with a small ridge penalty (`--ridge`), by Newton's method on
standardized inputs (pure Python: the rules never import numpy, and this is a few thousand states).
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import bot_command, bot_key
from rules.search import value

MAX_COMMANDS = 6000
HOLD_OUT = 5  # every fifth game is held out


def search_module(name: str):
    return importlib.import_module(f"rules.{name}.search")


def sample_game(job: tuple) -> dict:
    """One self-play game: its sampled (rows, progress, evaluate) and its winners."""
    name, seats, n, every, level = job
    ruleset, search = EVERY_RULESET[name], search_module(name)
    seed = f"fit-{name}-{seats}-{n}"
    events = ruleset.setup(normalize_options(ruleset.options, None), seats, Rng(seed, 2))
    state, version, key, samples = fold(ruleset, events), 1 + len(events), bot_key(seed), []
    for played in range(MAX_COMMANDS):
        if ruleset.outcome(state) is not None:
            break
        seat = min(ruleset.awaiting(state))
        if played % every == 0 and len(ruleset.legal_moves(state, seat)) > 1:
            current = ruleset.evaluate(state) if getattr(search, "WEIGHTS", ()) is not None else None
            samples.append((search.features(state), search.progress(state), current))
        command = bot_command(ruleset, state, seat, level, key, version)
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    outcome = ruleset.outcome(state)
    winners = outcome["winners"] if outcome else []
    return {"game": n, "seats": seats, "samples": samples, "winners": winners}


def labelled(games: list[dict]) -> list[tuple[list[list[float]], list[float], list[float]]]:
    """(inputs per seat, targets per seat, current evaluate) for every sampled state of ended games."""
    out = []
    for game in games:
        if not game["winners"]:
            continue
        target = [1 / len(game["winners"]) if s in game["winners"] else 0.0 for s in range(game["seats"])]
        for rows, progress, current in game["samples"]:
            out.append(([value.expand(row, progress) for row in rows], target, current))
    return out


# ------------------------------------------------------------------ fitting
def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def scaling(data: list) -> tuple[list[float], list[float]]:
    """Each input's mean and spread over every seat row (a constant input gets spread 1)."""
    rows = [x for inputs, _, _ in data for x in inputs]
    dims = len(rows[0])
    mean = [sum(r[k] for r in rows) / len(rows) for k in range(dims)]
    spread = [math.sqrt(sum((r[k] - mean[k]) ** 2 for r in rows) / len(rows)) or 1.0 for k in range(dims)]
    return mean, spread


def fit(data: list, ridge: float, signs: list[int] | None = None, rounds: int = 12) -> list[float]:
    """Conditional-logit weights (in the inputs' own units) maximizing the likelihood less ridge |w|^2 / 2,
    each weight of the sign `signs` gives its input (0: free): a weight fitted against its sign is held at
    0 and the others fitted again, until none is (an active set)."""
    mean, spread = scaling(data)
    scaled = [([[(x - m) / s for x, m, s in zip(row, mean, spread)] for row in inputs], target)
              for inputs, target, _ in data]
    dims = len(mean)
    signs = signs or [0] * dims
    free = list(range(dims))
    while True:
        w = newton(scaled, free, dims, ridge, rounds)
        wrong = [k for k in free if signs[k] * w[k] < 0]
        if not wrong:
            return [a / s for a, s in zip(w, spread)]
        free = [k for k in free if k not in wrong]


def newton(scaled: list, free: list[int], dims: int, ridge: float, rounds: int) -> list[float]:
    """The penalized maximum-likelihood weights of the `free` inputs (the others 0), by Newton's method."""
    w = [0.0] * dims
    for _ in range(rounds):
        grad = [-ridge * w[k] for k in free]
        hess = [[ridge if i == j else 0.0 for j in range(len(free))] for i in range(len(free))]
        for inputs, target in scaled:
            rows = [[row[k] for k in free] for row in inputs]
            p = value.softmax([sum(w[k] * x for k, x in zip(free, row)) for row in rows])
            m = [sum(p[i] * rows[i][a] for i in range(len(rows))) for a in range(len(free))]
            for i, row in enumerate(rows):
                coeff = target[i] - p[i]
                if coeff:
                    for a in range(len(free)):
                        grad[a] += coeff * row[a]
                if p[i] > 1e-12:
                    centred = [row[a] - m[a] for a in range(len(free))]
                    for a in range(len(free)):
                        pa = p[i] * centred[a]
                        if pa:
                            line = hess[a]
                            for b in range(len(free)):
                                line[b] += pa * centred[b]
        step = solve(hess, grad)
        for a, k in enumerate(free):
            w[k] += step[a]
        if max(abs(x) for x in step) < 1e-6:
            break
    return w


# ------------------------------------------------------------------ judging
def log_loss(data: list, predict) -> float:
    total = 0.0
    for inputs, target, current in data:
        q = predict(inputs, current)
        total -= sum(t * math.log(max(1e-6, qi)) for t, qi in zip(target, q))
    return total / len(data)


def accuracy(data: list, predict) -> float:
    hits = 0.0
    for inputs, target, current in data:
        q = predict(inputs, current)
        best = [i for i, qi in enumerate(q) if qi >= max(q) - 1e-12]  # a tie shares the hit
        hits += sum(target[i] for i in best) / len(best)
    return hits / len(data)


def judge(data: list, weights: list[float] | None) -> dict:
    predictors = {"equal shares": lambda inputs, current: [1 / len(inputs)] * len(inputs)}
    if all(current is not None for _, _, current in data):  # none while a game's features are being re-fitted
        predictors["current evaluate"] = lambda inputs, current: current
    if weights is not None:
        predictors["fitted"] = lambda inputs, current: value.softmax(
            [sum(w * x for w, x in zip(weights, row)) for row in inputs])
    return {name: {"log_loss": round(log_loss(data, p), 4), "accuracy": round(accuracy(data, p), 3)}
            for name, p in predictors.items()}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--games", type=int, default=1000, help="games per table size")
    parser.add_argument("--seats", default="", help="comma-separated table sizes (default: the least)")
    parser.add_argument("--every", type=int, default=4, help="sample a state every this many commands")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--write", action="store_true", help="store the weights in rules/<game>/search_weights.json")
    args = parser.parse_args(argv)
    ruleset, search = EVERY_RULESET[args.ruleset], search_module(args.ruleset)
    level = ruleset.search_settings.policy or "random"
    sizes = [int(s) for s in args.seats.split(",") if s] or [ruleset.min_seats]
    work = [(args.ruleset, seats, n, args.every, level) for seats in sizes for n in range(args.games)]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        games = pool.map(sample_game, work, chunksize=4)
    played = time.perf_counter() - started
    train = labelled([g for g in games if g["game"] % HOLD_OUT])
    test = labelled([g for g in games if g["game"] % HOLD_OUT == 0])
    signs = [int(sign) for sign in search.SIGNS] * 2  # the same sign at the start and at the end
    weights = fit(train, args.ridge, signs)
    names = value.input_names(search.FEATURES)
    report = {"command": "python3 -m bench.fit_evaluate " + " ".join(argv if argv is not None else sys.argv[1:]),
              "policy": level, "seats": sizes, "games": len(games),
              "unfinished": sum(1 for g in games if not g["winners"]),
              "states": {"train": len(train), "held_out": len(test)}, "held_out": judge(test, weights),
              "seconds": {"play": round(played, 1), "fit": round(time.perf_counter() - started - played, 1)}}
    for name, w in zip(names, weights):
        print(f"  {name:<36}{w:>12.5f}")
    print(json.dumps(report, indent=1))
    if args.write:
        path = Path(search.__file__).with_name("search_weights.json")
        path.write_text(json.dumps({"inputs": names, "weights": [round(w, 6) for w in weights],
                                    "fitted": report}, indent=1) + "\n")
        print(f"wrote {path}")
    return {**report, "weights": weights}


if __name__ == "__main__":
    main()
