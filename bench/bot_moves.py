"""Bot moves per second through the RQ workers vs RQ's own no-op job rate, same Redis, same run.

Bots: `--games` games between `--seats` random bots of each ruleset (Kingpin to
$3,000) are created at once through the engine (service.wiring.build_engine,
whose scheduler enqueues the first bot job) and played to their end by
`--workers` `python -m service.worker` processes.  moves/s = bot events / wall
time from just before the first creation to the last event's timestamp; bot
commands and RQ jobs per second are shown too.  Every finished game is
exported and verified (events/replay.py) before it counts.

Baseline: `--noop-jobs` jobs of a function that does nothing, enqueued first,
then run by as many `rq worker --burst` processes (RQ's default forking Worker:
one fork per job) on the same redis-server; rate = jobs / (last job's end -
first job's start) from RQ's own job timestamps.

The bot games run twice: with the workers as configured (a job plays a run of
bot moves, BOT_BATCH_MOVES), then with one move per job (BOT_BATCH_MOVES=1),
which is what the RQ round trip per move costs (a quarter of the games, to
keep it short).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from rq import Queue
from rq.job import Job

from bench.common import ROOT, ratio, redis_only, report, verdict
from bench.plans import BOT_GAME_OPTIONS
from events.history import history_header, history_lines, parse_history, verify_history
from rules import RULESETS
from tests.support.processes import Worker, python_env

TARGET = 10.0
NOOP_QUEUE = "bench-noop"


def noop_rate(redis_url: str, jobs: int, workers: int, tmp: Path) -> dict:
    connection = redis.Redis.from_url(redis_url)
    queue = Queue(NOOP_QUEUE, connection=connection)
    from bench.rq_noop import noop
    ids = [queue.enqueue(noop, result_ttl=3600).id for _ in range(jobs)]
    log = (tmp / "rq-noop.log").open("ab")
    processes = [subprocess.Popen([sys.executable, "-m", "rq.cli", "worker", "--burst", "-u", redis_url, NOOP_QUEUE],
                                  cwd=ROOT, env=python_env(redis_url), stdout=log, stderr=subprocess.STDOUT)
                 for _ in range(workers)]
    try:
        for process in processes:
            process.wait(timeout=300)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    done = [job for job in Job.fetch_many(ids, connection=connection) if job is not None]
    finished = [job for job in done if job.get_status() == "finished"]
    if len(finished) != jobs:
        raise RuntimeError(f"only {len(finished)} of {jobs} no-op jobs finished; see {tmp / 'rq-noop.log'}")
    first = min(job.started_at for job in finished)
    last = max(job.ended_at for job in finished)
    seconds = (last - first).total_seconds()
    return {"jobs": jobs, "seconds": seconds, "per_second": jobs / seconds}


def bot_games(redis_url: str, name: str, games: int, seats: int, timeout: float) -> dict:
    from service.wiring import build_engine

    engine = build_engine(redis_url)
    ruleset = RULESETS[name]
    seats = max(ruleset.min_seats, min(ruleset.max_seats, seats))
    options = BOT_GAME_OPTIONS.get(name, {})
    seeds = [f"bench-bots-{name}-{n}" for n in range(games)]
    started_ms = time.time() * 1000
    ids = [engine.runner.create_game(name, [{"kind": "bot", "level": "random"}] * seats, options, seed).id
           for seed in seeds]
    client = engine.store.redis
    deadline = time.monotonic() + timeout
    while True:
        statuses = [client.hget(f"g:{{{game_id}}}:meta", "status") for game_id in ids]
        if all(status == "finished" for status in statuses):
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"bot games not finished after {timeout:.0f} s: {statuses}")
        time.sleep(0.05)
    bot_events = bot_commands = 0
    last_ms = 0
    for game_id in ids:
        envelopes = list(engine.store.read_all(game_id))
        verified = verify(engine.runner.load(game_id), envelopes)
        if not verified["valid"]:
            raise RuntimeError(f"bot game {game_id} does not verify: {verified}")
        bot = [e for e in envelopes if e.actor.startswith("bot:")]
        bot_events += len(bot)
        bot_commands += sum(1 for e in bot if e.command is not None)
        last_ms = max(last_ms, envelopes[-1].at)
    seconds = (last_ms - started_ms) / 1000
    return {"games": games, "seats": seats, "options": options, "events": bot_events, "commands": bot_commands,
            "seconds": seconds}


def verify(game, envelopes) -> dict:
    """The finished game's history, exported as GET /v1/games/{id}/history does, re-derived from its seed."""
    return verify_history(parse_history("".join(history_lines(history_header(game), envelopes))), RULESETS)


def worker_jobs(redis_url: str) -> int:
    from rq import Worker as RqWorker
    connection = redis.Redis.from_url(redis_url)
    return sum(w.successful_job_count for w in RqWorker.all(connection=connection))


def run(games: int = 16, seats: int = 3, workers: int = 2, noop_jobs: int = 300, rulesets: tuple[str, ...] | None = None,
        timeout: float = 180.0, unbatched: bool = True) -> dict:
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        tmp = Path(tmp)
        baseline = noop_rate(server.url, noop_jobs, workers, tmp)
        rows.append({"what": f"RQ no-op jobs, {workers} × `rq worker --burst` (forking; baseline)",
                     "per_second": round(baseline["per_second"], 1), "count": noop_jobs,
                     "seconds": round(baseline["seconds"], 2), "ratio": 1.0})
        for batch in (None, 1) if unbatched else (None,):
            env = {"LOG_LEVEL": "INFO", **({"BOT_BATCH_MOVES": str(batch)} if batch else {})}
            config = "one move per job (BOT_BATCH_MOVES=1)" if batch else "as configured"
            processes = [Worker(server.url, tmp / f"worker-{batch}-{n}.log", extra_env=env) for n in range(workers)]
            for process in processes:
                process.start()
            try:
                time.sleep(1.5)  # let them import and register before the clock starts
                for name in rulesets or sorted(RULESETS):
                    jobs_before = worker_jobs(server.url)
                    result = bot_games(server.url, name, max(2, games // 4) if batch else games, seats, timeout)
                    jobs = worker_jobs(server.url) - jobs_before
                    moves = result["events"] / result["seconds"]
                    r = ratio(moves, baseline["per_second"])
                    label = f"{name}, {result['games']} games × {result['seats']} random bots, {config}"
                    rows.append({"what": f"{label}: bot events/s (moves/s)", "per_second": round(moves, 1),
                                 "count": result["events"], "seconds": round(result["seconds"], 2), "ratio": r,
                                 "target": verdict(r, TARGET)})
                    rows.append({"what": f"{label}: bot commands/s",
                                 "per_second": round(result["commands"] / result["seconds"], 1),
                                 "count": result["commands"], "seconds": round(result["seconds"], 2),
                                 "ratio": ratio(result["commands"] / result["seconds"], baseline["per_second"])})
                    rows.append({"what": f"{label}: RQ jobs/s", "per_second": round(jobs / result["seconds"], 1),
                                 "count": jobs, "seconds": round(result["seconds"], 2),
                                 "ratio": ratio(jobs / result["seconds"], baseline["per_second"])})
            finally:
                for process in processes:
                    process.stop()
    notes.append("moves/s = bot events / wall time (creation to last event); the target applies to it")
    notes.append("every finished game is checked with verify_history (every roll re-derived from its seed)")
    return report("bot_moves", rows, {"workers": workers, "games": games, "seats": seats, "noop_jobs": noop_jobs}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=16, help="bot games played at once, per ruleset (16)")
    parser.add_argument("--seats", type=int, default=3, help="random bots per game (3)")
    parser.add_argument("--workers", type=int, default=2, help="service.worker processes, and rq workers for the baseline (2)")
    parser.add_argument("--noop-jobs", type=int, default=300, help="no-op jobs for the baseline (300)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    parser.add_argument("--timeout", type=float, default=180.0, help="give up on the bot games after this (180 s)")
    parser.add_argument("--no-unbatched", action="store_true",
                        help="skip the second pass with one bot move per job (BOT_BATCH_MOVES=1)")
    args = parser.parse_args(argv)
    run(args.games, args.seats, args.workers, args.noop_jobs, tuple(filter(None, args.rulesets.split(","))) or None,
        args.timeout, not args.no_unbatched)


if __name__ == "__main__":
    main()
