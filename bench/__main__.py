"""Run every benchmark: `python3 -m bench` (tables on stdout; JSON and Markdown in bench/results/).

Each bench is also a module of its own (`python3 -m bench.http_commands --help`).
`--quick` shortens every measurement (a smoke run, not for quoting).
"""
from __future__ import annotations

import argparse
import subprocess
import time

from bench import (
    bot_moves,
    bot_strength,
    bot_strength_roles,
    catan_peer,
    http_commands,
    memory,
    peer_boardgameio,
    replay,
    retention,
    scale,
    simulate,
    store_append,
    version_cost,
)
from bench.common import RESULTS, ROOT

BENCHES = ("http_commands", "scale", "peer_boardgameio", "store_append", "version_cost", "bot_moves", "replay",
           "simulate", "catan_peer", "memory", "retention", "bot_strength", "bot_strength_roles")


def revision() -> str:
    """The commit measured, and whether the engine's code differed from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "events", "rules", "service"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return f"{head}{' + uncommitted changes in events/, rules/ or service/' if dirty else ''}"
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help=f"comma-separated benches to run (default: all of {', '.join(BENCHES)})")
    parser.add_argument("--skip", default="", help="comma-separated benches to leave out")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: every one in rules.RULESETS)")
    parser.add_argument("--classes", default=",".join(http_commands.WORKER_CLASSES), help="gunicorn worker classes to try")
    parser.add_argument("--quick", action="store_true", help="short runs everywhere (a smoke test; numbers are noisy)")
    args = parser.parse_args(argv)
    only = [b for b in args.only.split(",") if b] or list(BENCHES)
    chosen = [b for b in only if b not in set(args.skip.split(","))]
    unknown = set(chosen) - set(BENCHES)
    if unknown:
        parser.error(f"unknown bench(es): {', '.join(sorted(unknown))}; choose from {', '.join(BENCHES)}")
    rulesets = tuple(r for r in args.rulesets.split(",") if r) or None
    q = args.quick
    runs = {
        "http_commands": lambda: http_commands.run(tuple(c for c in args.classes.split(",") if c),
                                                   seconds=2 if q else 6, warmup=1 if q else 2, rulesets=rulesets),
        "scale": lambda: scale.run(seconds=2 if q else 4, warmup=1),
        "peer_boardgameio": lambda: peer_boardgameio.run(seconds=2 if q else 5, warmup=1),
        "store_append": lambda: store_append.run(appends=500 if q else 3000, rounds=2 if q else 5),
        "version_cost": lambda: version_cost.run(long_version=2000 if q else 10_000, commands=50 if q else 300,
                                                 rulesets=rulesets),
        "bot_moves": lambda: bot_moves.run(games=4 if q else 16, noop_jobs=60 if q else 300, rulesets=rulesets),
        "replay": lambda: replay.run(seconds=0.3 if q else 2.0, seeds=2 if q else 6, rulesets=rulesets),
        "simulate": lambda: simulate.run(seconds=0.5 if q else 3.0, rulesets=rulesets),
        "catan_peer": lambda: catan_peer.run(seconds=1.5 if q else 6.0),
        "bot_strength": lambda: bot_strength.run(games=40 if q else 200, rulesets=rulesets),
        "bot_strength_roles": lambda: bot_strength_roles.run(
            games=40 if q else 200, rulesets=bot_strength_roles.with_roles(rulesets)),
        "memory": lambda: memory.run(long_version=2000 if q else 10_000, seeds=2 if q else 6, rulesets=rulesets),
        "retention": lambda: retention.run(games=5 if q else 30, rulesets=rulesets),
    }
    started = time.monotonic()
    sections = [f"# Benchmarks\n\nrevision {revision()}, {time.strftime('%Y-%m-%d %H:%M')}"
                f"{' (--quick: smoke run)' if q else ''}\n"]
    for name in chosen:
        print(f"## {name}", flush=True)
        began = time.monotonic()
        runs[name]()
        print(f"({name}: {time.monotonic() - began:.0f} s)\n", flush=True)
        sections.append((RESULTS / f"{name}.md").read_text())
    sections.append(f"total {time.monotonic() - started:.0f} s\n")
    (RESULTS / "summary.md").write_text("\n".join(sections))
    print(f"all tables: {RESULTS / 'summary.md'} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
