"""HTTP command throughput and latency under wrk, against GET /healthz of the same app.

For each gunicorn worker class (sync, gthread, gevent) a fresh redis-server and
gunicorn are started with the same settings.  wrk runs in its own process with
one thread per connection (32 by default); each connection owns a game between
human seats of one ruleset and sends the commands of a seeded, in-process
pre-played game (bench/plans.py: the ruleset's cheap legal cycle, for Kingpin
RollDice / EndTurn), so every request is a real command: rate limiter, auth,
load, decide, compare-and-append.  The baseline is GET /healthz through the same
wrk script on the same gunicorn, measured before and after the commands.

Each run also reports the server's CPU per request (gunicorn's processes and
redis-server, from /proc) and `cpu_ratio`, /healthz's CPU per request over the
command's: what the throughput ratio would be on a machine the server had to
itself.  On a shared machine the throughput ratio swings with the neighbours'
load; the CPU ratio hardly moves.

After each run the bench reads every game's version back from Redis and checks
it is one the pre-played game passes through, and that the commands applied
match the 200s wrk counted: a run that diverged or failed is reported as such.
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import tempfile
import time
from pathlib import Path

from bench.common import (
    BENCH,
    CpuMeter,
    Http,
    ratio,
    report,
    require_wrk,
    run_wrk,
    stack,
    verdict,
    web_env,
    wrk_problems,
)
from bench.plans import PlayedGame, play
from rules import RULESETS

SCRIPT = BENCH / "wrk" / "commands.lua"
WORKER_CLASSES = ("sync", "gthread", "gevent")
PLAN_COMMANDS = 4000  # the longest plan pre-played per ruleset (more games per connection if it ends sooner)
TARGET = 0.5


def plan_for(name: str, seed: str = "bench-http", max_commands: int = PLAN_COMMANDS) -> PlayedGame:
    ruleset = RULESETS[name]
    return play(ruleset, ruleset.min_seats, seed, policy="cheap", max_commands=max_commands, draw_keys=True)


class GameFleet:
    """Games created through the API, all with the plan's seed, assigned to wrk threads."""

    def __init__(self, http: Http, plan: PlayedGame, connections: int, games_per_connection: int, tmp: Path,
                 total: int | None = None):
        """`games_per_connection` games for each wrk thread, or `total` games dealt to the threads in turn."""
        self.plan = plan
        self.steps = plan.commands
        # version after k commands -> k
        self.applied_at = {plan.batches[1].version + len(plan.batches[1].events) - 1: 0}
        for k, batch in enumerate(self.steps, start=1):
            self.applied_at[batch.version + len(batch.events) - 1] = k
        self.games: list[tuple[int, str, list[str]]] = []
        for n in range(total if total is not None else connections * games_per_connection):
            thread = n % connections
            status, body = http.call("POST", "/v1/games", {
                "ruleset": plan.ruleset.name, "seed": plan.seed, "options": plan.options,
                "seats": [{"kind": "human"}] * plan.seats})
            if status != 201:
                raise RuntimeError(f"creating a {plan.ruleset.name} game: {status} {body}")
            self.games.append((thread, body["id"], [seat["token"] for seat in body["seats"]]))
        self.plan_file = tmp / f"plan-{plan.ruleset.name}.tsv"
        self.plan_file.write_text("".join(
            f"{b.seat}\t{_json(b.command)}\n" for b in self.steps))
        self.games_file = tmp / f"games-{plan.ruleset.name}.tsv"

    def applied(self, redis_client) -> list[int]:
        """Commands applied to each game so far (raises if a game left the pre-played path)."""
        out = []
        pipe = redis_client.pipeline(transaction=False)
        for _, game_id, _ in self.games:
            pipe.hget(f"g:{{{game_id}}}:meta", "version")
        for (_, game_id, _), version in zip(self.games, pipe.execute()):
            version = int(version)
            if version not in self.applied_at:
                raise RuntimeError(f"game {game_id} is at version {version}, which the pre-played "
                                   f"{self.plan.ruleset.name} game never reaches: the server diverged")
            out.append(self.applied_at[version])
        return out

    def settled(self, redis_client, pause: float = 0.2) -> list[int]:
        """`applied` once the server has finished the requests wrk left in flight when it stopped:
        read too early, a command still being appended is counted as not applied, and the next
        run re-sends it to a game that has moved on (an illegal move, failed for the whole run)."""
        before = self.applied(redis_client)
        while True:
            time.sleep(pause)
            after = self.applied(redis_client)
            if after == before:
                return after
            before = after

    def write_games(self, applied: list[int]) -> None:
        self.games_file.write_text("".join(
            f"{thread}\t{game_id}\t{done}\t{','.join(tokens)}\n"
            for (thread, game_id, tokens), done in zip(self.games, applied)))


def _json(value) -> str:
    import json
    return json.dumps(value, separators=(",", ":"))


def measure_class(worker_class: str, plans: dict[str, PlayedGame], connections: int, seconds: float,
                  warmup: float, web_workers: int, web_threads: int, rate_limits: bool,
                  extra_env: dict | None = None) -> list[dict]:
    env = web_env(rate_limits, WEB_WORKER_CLASS=worker_class, WEB_THREADS=str(web_threads), **(extra_env or {}))
    rows = []
    with tempfile.TemporaryDirectory() as tmp, stack(Path(tmp), web_workers=web_workers, web_env=env) as (redis_server, web):
        tmp = Path(tmp)
        client = redis_server.client()
        cpu = CpuMeter(web, redis_server)
        run_wrk(web.url, SCRIPT, ["healthz"], connections, warmup)
        before = cpu.run(lambda: run_wrk(web.url, SCRIPT, ["healthz"], connections, seconds))
        commands = {}
        for name, plan in plans.items():
            # enough pre-played commands per connection for the warm-up and the run at /healthz's rate
            needed = math.ceil(1.5 * before["per_second"] * (seconds + warmup + 2) / connections) + 50
            games_each = max(1, math.ceil(needed / len(plan.commands)))
            fleet = GameFleet(Http(web.url), plan, connections, games_each, tmp)
            fleet.write_games(fleet.applied(client))
            run_wrk(web.url, SCRIPT, ["plan", str(fleet.plan_file), str(fleet.games_file)], connections, warmup)
            start = fleet.settled(client)
            fleet.write_games(start)
            result = cpu.run(lambda: run_wrk(web.url, SCRIPT, ["plan", str(fleet.plan_file),
                                                         str(fleet.games_file)], connections, seconds))
            end = fleet.settled(client)
            applied = sum(end) - sum(start)
            problems = wrk_problems(result, applied, connections, "past the plan")
            result["check"] = "; ".join(problems) or f"ok: {applied} applied"
            commands[name] = result
        after = cpu.run(lambda: run_wrk(web.url, SCRIPT, ["healthz"], connections, seconds))
    baseline = (before["per_second"] + after["per_second"]) / 2
    baseline_cpu = sum(run["web_cpu_us"] + run["redis_cpu_us"] for run in (before, after)) / 2
    rows.append({"worker class": worker_class, "what": "GET /healthz (baseline: mean of before/after)",
                 "per_second": round(baseline, 1),
                 "p50_ms": round((before["p50_ms"] + after["p50_ms"]) / 2, 2),
                 "p99_ms": round((before["p99_ms"] + after["p99_ms"]) / 2, 2),
                 "ratio": 1.0, "target": "",
                 "web_cpu_us": round((before["web_cpu_us"] + after["web_cpu_us"]) / 2, 1),
                 "redis_cpu_us": round((before["redis_cpu_us"] + after["redis_cpu_us"]) / 2, 1), "cpu_ratio": 1.0,
                 "check": f"before {before['per_second']:.0f}/s, after {after['per_second']:.0f}/s"})
    for name, result in commands.items():
        cycle = "/".join(sorted({b.command["type"] for b in plans[name].commands}))
        r = ratio(result["per_second"], baseline)
        rows.append({"worker class": worker_class, "what": f"{name} command ({cycle})",
                     "per_second": result["per_second"], "p50_ms": round(result["p50_ms"], 2),
                     "p99_ms": round(result["p99_ms"], 2), "ratio": r, "target": verdict(r, TARGET),
                     "web_cpu_us": result["web_cpu_us"], "redis_cpu_us": result["redis_cpu_us"],
                     "cpu_ratio": ratio(baseline_cpu, result["web_cpu_us"] + result["redis_cpu_us"]),
                     "check": result["check"]})
    return rows


def run(classes: tuple[str, ...] = WORKER_CLASSES, connections: int = 32, seconds: float = 6.0,
        warmup: float = 2.0, web_workers: int = 2, web_threads: int = 16, rulesets: tuple[str, ...] | None = None,
        rate_limits: bool = True, extra_env: dict | None = None) -> dict:
    require_wrk()
    names = rulesets or tuple(sorted(RULESETS))
    plans = {name: plan_for(name) for name in names}
    rows, notes = [], []
    for worker_class in classes:
        if worker_class == "gevent" and importlib.util.find_spec("gevent") is None:
            notes.append("gevent skipped: not installed (python3 -m pip install gevent)")
            continue
        rows += measure_class(worker_class, plans, connections, seconds, warmup, web_workers, web_threads, rate_limits,
                              extra_env)
    # which class serves commands best: throughput relative to the shipped default, gthread, same run
    reference = {r["what"]: r["per_second"] for r in rows if r["worker class"] == "gthread"}
    for row in rows:
        if row["what"] in reference:
            row["vs gthread"] = ratio(row["per_second"], reference[row["what"]])
    best = {}
    for name in names:
        candidates = [r for r in rows if r["what"].startswith(f"{name} command")]
        if candidates:
            top = max(candidates, key=lambda r: r["per_second"])
            best[name] = top["worker class"]
            notes.append(f"best worker class for {name} commands: {top['worker class']} "
                         f"({top['per_second']:.0f} commands/s, p99 {top['p99_ms']} ms)")
    notes.append(f"wrk -t{connections} -c{connections}, {seconds:g} s per run after {warmup:g} s warm-up; gunicorn "
                 f"{web_workers} workers, {web_threads} threads (gthread); rate limiter "
                 f"{'on, limits out of reach' if rate_limits else 'off'}"
                 + (f"; extra environment {extra_env}" if extra_env else ""))
    return report("http_commands", rows, {"connections": connections, "seconds": seconds, "web_workers": web_workers,
                                          "web_threads": web_threads, "rate_limits": rate_limits, "best": best,
                                          "extra_env": extra_env or {}}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--classes", default=",".join(WORKER_CLASSES), help="gunicorn worker classes (sync,gthread,gevent)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections, one thread each (32)")
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each measured run (6)")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up before each measured run (2)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes (2, as WEB_CONCURRENCY)")
    parser.add_argument("--web-threads", type=int, default=16, help="threads per gthread process (16, as WEB_THREADS)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: every one in rules.RULESETS)")
    parser.add_argument("--no-rate-limits", action="store_true", help="turn the rate limiter off (default: on, out of reach)")
    parser.add_argument("--web-env", action="append", default=[], metavar="NAME=VALUE",
                        help="extra environment for gunicorn, repeatable (e.g. PYTHONPATH=dir to try a patch or a "
                             "package without installing it)")
    args = parser.parse_args(argv)
    extra_env = dict(item.split("=", 1) for item in args.web_env)
    run(tuple(filter(None, args.classes.split(","))), args.connections, args.seconds, args.warmup, args.web_workers,
        args.web_threads, tuple(filter(None, args.rulesets.split(","))) or None, not args.no_rate_limits, extra_env)


if __name__ == "__main__":
    main()
