"""How strong the heuristic bots are: win rate of one "greedy" bot against three "random" ones,
rules only (no Redis), over seeded four-seat games with the greedy seat rotating.

Baseline: the share a bot no better than its opponents would win, 1/4; the ratio is
win rate / baseline (1.0 = no better than random, 4.0 = wins every game).
"""
from __future__ import annotations

import argparse
import multiprocessing
import time

from bench.common import ratio, report
from rules import RULESETS
from rules.base import Rng, fold

SEATS = 4
MAX_COMMANDS = 20_000
# rulesets measured once per option set (each must hold on its own: Narcos's two modes)
VARIANTS = {"narcos": ({"mode": "basic"}, {"mode": "advanced"})}


def play(args: tuple) -> tuple[bool, int]:
    """One game: (did the greedy seat win, how many commands it took)."""
    name, n, variant = args if len(args) == 3 else (*args, {})
    ruleset = RULESETS[name]
    greedy, seed = n % SEATS, f"strength-{name}-{n}" + "".join(f"-{v}" for v in variant.values())
    options = {**{k: o.default for k, o in ruleset.options.items()}, **variant}
    state, version = None, 1
    events = ruleset.setup(options, SEATS, Rng(seed, version + 1))
    state, version = fold(ruleset, events), version + len(events)
    for commands in range(MAX_COMMANDS):
        outcome = ruleset.outcome(state)
        if outcome is not None:
            return greedy in outcome["winners"] and len(outcome["winners"]) == 1, commands
        seat = min(ruleset.awaiting(state))
        level = "greedy" if seat == greedy else "random"
        command = ruleset.bot_move(state, seat, level, Rng(seed, f"bot:{seat}:{version}"))
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    raise RuntimeError(f"{name} game {n} did not end in {MAX_COMMANDS} commands")


def run(games: int = 200, rulesets: tuple[str, ...] | None = None) -> dict:
    rows = []
    names = [n for n in (rulesets or sorted(RULESETS)) if "greedy" in RULESETS[n].bot_levels]
    with multiprocessing.Pool() as pool:
        for name, variant in [(n, v) for n in names for v in VARIANTS.get(n, ({},))]:
            started = time.perf_counter()
            results = pool.map(play, [(name, n, variant) for n in range(games)])
            wins = sum(won for won, _ in results)
            rate = wins / games
            label = "".join(f", {k}={v}" for k, v in variant.items())
            rows.append({"ruleset": name + label, "what": f"1 greedy vs 3 random, {games} games (baseline 1/4)",
                         "wins": wins, "win_rate": round(rate, 3), "ratio": ratio(rate, 1 / SEATS),
                         "median_commands": sorted(c for _, c in results)[games // 2],
                         "seconds": round(time.perf_counter() - started, 1)})
    return report("bot_strength", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rulesets", default="")
    args = parser.parse_args()
    run(args.games, tuple(r for r in args.rulesets.split(",") if r) or None)
