"""One HTTP command bench, several trees of the code, in one run: what a change costs a command's server CPU.

Each tree is a checkout of this project (e.g. `git worktree add /tmp/before <commit>`); its own
`bench.http_commands` runs with the tree as the working directory (so gunicorn imports that tree's
code), on the same machine, alternating the trees for `--rounds` rounds.  The figure compared is the
server's CPU per command (gunicorn and redis-server, from /proc: bench.common.CpuMeter), which on a
shared machine moves far less than throughput; each tree's is the median of its rounds, and every
tree is set against the first.  Each tree writes its own bench/results/http_commands.*; this
writes bench/results/trees.json here.

    python -m bench.trees --tree before=/tmp/before --tree after=/tmp/after --rulesets kingpin,druglord
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from bench.common import ratio, report


def measure(tree: Path, rulesets: str, seconds: float, connections: int) -> dict[str, float]:
    """{what: server CPU µs per request} of one http_commands run (gthread) in `tree`."""
    subprocess.run([sys.executable, "-m", "bench.http_commands", "--classes", "gthread", "--rulesets", rulesets,
                    "--seconds", str(seconds), "--connections", str(connections)],
                   cwd=tree, check=True, stdout=subprocess.DEVNULL)
    rows = json.loads((tree / "bench" / "results" / "http_commands.json").read_text())["rows"]
    for row in rows:
        if not str(row.get("check", "")).startswith(("ok", "before")):
            raise RuntimeError(f"{tree}: {row['what']}: {row['check']}")
    return {row["what"].split(" (")[0]: row["web_cpu_us"] + row["redis_cpu_us"] for row in rows}


def run(trees: dict[str, Path], rulesets: str, rounds: int, seconds: float, connections: int) -> dict:
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            for what, cpu in measure(tree, rulesets, seconds, connections).items():
                samples[name].setdefault(what, []).append(cpu)
    first = next(iter(trees))
    rows = []
    for name in trees:
        for what, values in samples[name].items():
            median = statistics.median(values)
            rows.append({"tree": name, "what": what, "server_cpu_us": round(median, 1),
                         f"vs {first}": ratio(median, statistics.median(samples[first][what])),
                         "rounds": ", ".join(f"{v:.0f}" for v in values)})
    notes = [f"{name}: {tree}" for name, tree in trees.items()]
    notes.append(f"bench.http_commands --classes gthread --rulesets {rulesets} --seconds {seconds:g} "
                 f"--connections {connections} in each tree, {rounds} rounds alternating the trees; "
                 f"server CPU = gunicorn + redis-server per request, median of the rounds")
    return report("trees", rows, {"trees": {k: str(v) for k, v in trees.items()}}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH",
                        help="a checkout to measure (repeatable; the first is the reference)")
    parser.add_argument("--rulesets", default="kingpin,druglord", help="comma-separated rulesets (kingpin,druglord)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, each measuring every tree once (2)")
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each measured wrk run (6)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (32)")
    args = parser.parse_args(argv)
    trees = {name: Path(path).resolve() for name, path in (item.split("=", 1) for item in args.tree)}
    run(trees, args.rulesets, args.rounds, args.seconds, args.connections)


if __name__ == "__main__":
    main()
