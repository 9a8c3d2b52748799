"""How long bot games are under two rules versions of a ruleset, on the same seeds: the commands a game took
(median, max, unfinished past the progress bound of tests/rules/test_progress.py) and how often chosen event
types happened.  Games are played as the worker plays them (the lowest awaited seat moves, rules.bot_seat).

    nice -n 19 python3 -m bench.version_lengths --ruleset druglord --versions 3,4 --levels random,greedy \
        --seats 2,5,6 --games 10 --count SwayOpened,StorageChosen
"""
from __future__ import annotations

import argparse
import statistics
from collections import Counter

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import bot_command, bot_key


def bound(seats: int) -> int:
    """tests/rules/test_progress.py's bound: the commands a game of `seats` must end in."""
    return 1000 + 300 * seats


def play(ruleset, lineup: tuple[str, ...], seed: str, counted: set[str], cap: int) -> tuple[int | None, Counter]:
    """(commands to the end or None past `cap`, the counted event types)."""
    events = ruleset.setup(normalize_options(ruleset.options, None), len(lineup), Rng(seed, 2))
    state, version, key, seen = fold(ruleset, events), 1 + len(events), bot_key(seed), Counter()
    for played in range(cap):
        if ruleset.outcome(state) is not None:
            return played, seen
        seat = min(ruleset.awaiting(state))
        command = bot_command(ruleset, state, seat, lineup[seat], key, version)
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        seen.update(e.type for e in events if e.type in counted)
        state, version = fold(ruleset, events, state), version + len(events)
    return None, seen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--versions", required=True, help="two or more rules versions, e.g. 3,4")
    parser.add_argument("--levels", default="random,greedy")
    parser.add_argument("--seats", default="2")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--count", default="", help="event types to count, comma-separated")
    args = parser.parse_args(argv)
    counted = {t for t in args.count.split(",") if t}
    base = EVERY_RULESET[args.ruleset]
    for level in args.levels.split(","):
        for seats in map(int, args.seats.split(",")):
            for version in map(int, args.versions.split(",")):
                ruleset = base.at(version)
                cap = 3 * bound(seats)
                results = [play(ruleset, (level,) * seats, f"version-lengths-{args.ruleset}-{level}-{seats}-{n}",
                                counted, cap) for n in range(args.games)]
                lengths = [n for n, _ in results if n is not None]
                seen = sum((c for _, c in results), Counter())
                print(f"{args.ruleset} {level} x{seats} version {version}: {args.games} games, median "
                      f"{statistics.median(lengths) if lengths else '-'} commands, max {max(lengths, default='-')}, "
                      f"past the progress bound {sum(n > bound(seats) for n in lengths)}, unfinished at {cap} "
                      f"{len(results) - len(lengths)}; {dict(sorted(seen.items()))}", flush=True)


if __name__ == "__main__":
    main()
