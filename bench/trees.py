"""One bench, several trees of the code, in one run: what a change costs.

Each tree is a checkout of this project (e.g. `git worktree add /tmp/before <commit>`); its own bench runs
with the tree as the working directory and on PYTHONPATH (so it, and the gunicorn it starts, import that
tree's code), on the same machine, alternating the trees for `--rounds` rounds.  Each tree's figure is the
median of its rounds, and every tree is set against the first.  Each tree writes its own
bench/results/<bench>.*; this writes bench/results/trees.json here.

- `--bench http_commands` (default): the server's CPU per command (gunicorn and redis-server, from /proc:
  bench.common.CpuMeter), which on a shared machine moves far less than throughput.
- `--bench simulate`: commands/s of whole random games per ruleset (rules only), and the bench's own
  ratio to its minimal Decider measured in the same run, which the neighbours' load moves far less.
- `--bench replay`: events/s of `rules.base.fold`, the event-by-event `evolve` and `verify_history` on a
  long game per ruleset, and their ratio to the bench's own floor (a dict copy per event, same run).

    python -m bench.trees --tree before=/tmp/before --tree after=/tmp/after --rulesets kingpin,druglord
    python -m bench.trees --bench replay --tree before=/tmp/before --tree after=. --rounds 3 --seconds 2
    python -m bench.trees --bench simulate --cpu --tree before=/tmp/before --tree after=.   # CPU seconds
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Callable

from bench.common import ratio, report

Figures = dict[str, tuple[float, float | None]]  # what -> (figure, the bench's own in-run ratio or None)


def _http_figures(rows: list[dict]) -> Figures:
    for row in rows:
        if not str(row.get("check", "")).startswith(("ok", "before")):
            raise RuntimeError(f"{row['what']}: {row['check']}")
    return {row["what"].split(" (")[0]: (row["web_cpu_us"] + row["redis_cpu_us"], None) for row in rows}


def _simulate_figures(rows: list[dict]) -> Figures:
    return {row["what"].split(" (")[0]: (row["commands_per_s"], row["ratio"]) for row in rows}


def _replay_figures(rows: list[dict]) -> Figures:
    return {f"{row['ruleset']}: {row['what'].split(' (')[0]}": (row["events_per_s"], row["ratio"])
            for row in rows if "events_per_s" in row}


# bench -> (its options, its figures, the figure's name)
BENCHES: dict[str, tuple[Callable[[argparse.Namespace], list[str]], Callable[[list[dict]], Figures], str]] = {
    "http_commands": (lambda a: ["--classes", "gthread", "--rulesets", a.rulesets, "--seconds", str(a.seconds),
                                 "--connections", str(a.connections)], _http_figures, "server_cpu_us"),
    "simulate": (lambda a: ["--rulesets", a.rulesets, "--seconds", str(a.seconds), "--seats", str(a.seats)]
                 + ["--cpu"] * a.cpu, _simulate_figures, "commands_per_s"),
    "replay": (lambda a: ["--rulesets", a.rulesets, "--seconds", str(a.seconds), "--seeds", str(a.seeds),
                          "--no-steps"] + ["--cpu"] * a.cpu, _replay_figures, "events_per_s"),
}


def measure(bench: str, tree: Path, options: list[str]) -> Figures:
    """{what: (figure, in-run ratio)} of one run of `bench` in `tree`."""
    subprocess.run([sys.executable, "-m", f"bench.{bench}", *options], cwd=tree, check=True,
                   env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.DEVNULL)
    rows = json.loads((tree / "bench" / "results" / f"{bench}.json").read_text())["rows"]
    return BENCHES[bench][1](rows)


def run(trees: dict[str, Path], bench: str, options: list[str], rounds: int) -> dict:
    samples: dict[str, dict[str, list[tuple[float, float | None]]]] = {name: {} for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            for what, figure in measure(bench, tree, options).items():
                samples[name].setdefault(what, []).append(figure)
    first, figure_name = next(iter(trees)), BENCHES[bench][2]
    rows = []
    for name in trees:
        for what, values in samples[name].items():
            median = statistics.median(v for v, _ in values)
            row = {"tree": name, "what": what, figure_name: round(median, 1),
                   f"vs {first}": ratio(median, statistics.median(v for v, _ in samples[first][what])),
                   "rounds": ", ".join(f"{v:.0f}" for v, _ in values)}
            if values[0][1] is not None:  # the bench's own same-run ratio, set against the first tree's too
                own = statistics.median(r for _, r in values)
                row.update({"in-run ratio": own,
                            f"in-run vs {first}": ratio(own, statistics.median(r for _, r in samples[first][what]))})
            rows.append(row)
    notes = [f"{name}: {tree}" for name, tree in trees.items()]
    notes.append(f"bench.{bench} {' '.join(options)} in each tree, {rounds} rounds alternating the trees; "
                 f"each figure the median of the rounds")
    return report("trees", rows, {"bench": bench, "trees": {k: str(v) for k, v in trees.items()}}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH",
                        help="a checkout to measure (repeatable; the first is the reference)")
    parser.add_argument("--bench", choices=sorted(BENCHES), default="http_commands", help="the bench (http_commands)")
    parser.add_argument("--rulesets", default="kingpin,druglord", help="comma-separated rulesets (kingpin,druglord)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, each measuring every tree once (2)")
    parser.add_argument("--seconds", type=float, default=6.0, help="the bench's --seconds (6)")
    parser.add_argument("--connections", type=int, default=32, help="http_commands: wrk connections (32)")
    parser.add_argument("--seats", type=int, default=3, help="simulate: seats a game (3)")
    parser.add_argument("--seeds", type=int, default=6, help="replay: seeded games to pick the longest from (6)")
    parser.add_argument("--cpu", action="store_true", help="simulate, replay: per CPU second of the bench's process "
                        "(a shared machine's neighbours move the wall clock's figures far more)")
    args = parser.parse_args(argv)
    trees = {name: Path(path).resolve() for name, path in (item.split("=", 1) for item in args.tree)}
    run(trees, args.bench, BENCHES[args.bench][0](args), args.rounds)


if __name__ == "__main__":
    main()
