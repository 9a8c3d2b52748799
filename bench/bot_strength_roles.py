"""How strong role-aware bots are, for games with roles (Trafficking: one Narc against the Dealers): win
rates by role over seeded games, rules only (no Redis).

Rows, each against its own baseline measured the same way with a "random" bot in the seat:
  * the Narc: greedy Narc vs random Dealers, and vs greedy Dealers;
  * a Dealer: one greedy Dealer (the Dealer seats take turns) vs a random Narc and random Dealers,
    and vs a greedy Narc and random Dealers.
ratio = the greedy seat's win rate / the random seat's win rate in the same line-up (nan when the
baseline never wins; the difference is then the margin).  A game's roles come from its own roll for
the Narc, so the seat measured is chosen after setup.
"""
from __future__ import annotations

import argparse
import multiprocessing
import time

from bench.common import ratio, report
from rules import RULESETS
from rules.base import Rng, fold

MAX_COMMANDS = 20_000
ROLE_RULESETS = ("trafficking",)   # games whose state names a "narc" seat


def with_roles(rulesets: tuple[str, ...] | None) -> tuple[str, ...]:
    """The rulesets (default: all) that have roles this bench measures."""
    return tuple(r for r in (rulesets or ROLE_RULESETS) if r in ROLE_RULESETS)
LINEUPS = (  # (row, the measured role, its level, the Narc's level if not measured, other Dealers' level)
    ("greedy Narc vs random Dealers", "narc", "random"),
    ("greedy Narc vs greedy Dealers", "narc", "greedy"),
    ("1 greedy Dealer vs random Narc and random Dealers", "dealer", "random"),
    ("1 greedy Dealer vs greedy Narc and random Dealers", "dealer", "greedy"),
)


def play(args: tuple) -> tuple[bool, int]:
    """One game: (did the measured seat win alone, commands)."""
    name, seats, n, role, level, others = args
    ruleset = RULESETS[name]
    seed = f"roles-{name}-{seats}-{n}"
    state = fold(ruleset, ruleset.setup({}, seats, Rng(seed, 1)))
    narc = state["narc"]
    dealers = [s for s in state["order"] if s != narc]
    measured = narc if role == "narc" else dealers[n % len(dealers)]

    def level_of(seat: int) -> str:
        if seat == measured:
            return level
        if role == "narc":
            return others                      # the Dealers' line-up
        return others if seat == narc else "random"

    version = 2
    for commands in range(MAX_COMMANDS):
        outcome = ruleset.outcome(state)
        if outcome is not None:
            return outcome["winners"] == [measured], commands
        seat = min(ruleset.awaiting(state))
        command = ruleset.bot_move(state, seat, level_of(seat), Rng(seed, f"bot:{seat}:{version}"))
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    raise RuntimeError(f"{name} game {n} did not end in {MAX_COMMANDS} commands")


def rate(pool, name: str, seats: int, games: int, role: str, level: str, others: str) -> tuple[float, int]:
    results = pool.map(play, [(name, seats, n, role, level, others) for n in range(games)])
    return sum(won for won, _ in results) / games, sorted(c for _, c in results)[games // 2]


def run(games: int = 200, seats: int = 4, rulesets: tuple[str, ...] = ("trafficking",)) -> dict:
    rows = []
    with multiprocessing.Pool() as pool:
        for name in rulesets:
            for what, role, others in LINEUPS:
                started = time.perf_counter()
                greedy, median = rate(pool, name, seats, games, role, "greedy", others)
                baseline, baseline_median = rate(pool, name, seats, games, role, "random", others)
                rows.append({"ruleset": name, "what": f"{what}, {seats} seats, {games} games", "role": role,
                             "greedy_win_rate": round(greedy, 3), "random_win_rate": round(baseline, 3),
                             "margin": round(greedy - baseline, 3), "ratio": ratio(greedy, baseline),
                             "median_commands": median, "random_median_commands": baseline_median,
                             "seconds": round(time.perf_counter() - started, 1)})
    notes = ["random_win_rate: the same line-up with a random bot in the measured seat (the baseline)",
             "median_commands: game length with the greedy bot in the seat; random_median_commands: with the random one",
             "seeds roles-<ruleset>-<seats>-<n>; the measured Dealer seat rotates over the Dealers"]
    return report("bot_strength_roles", rows, {"games": games, "seats": seats}, notes)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rulesets", default="trafficking")
    args = parser.parse_args()
    run(args.games, args.seats, tuple(r for r in args.rulesets.split(",") if r))
