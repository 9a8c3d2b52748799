"""Cost against the number of games in play: 1, 10, 100 and 1,000 games at once through the API.

For each count a fresh redis-server and gunicorn are started, that many games
are created through the API (humans' seats), and wrk plays them all at once:
min(games, 32) connections, each sending its next request to the next of its
games in turn (`rotate` in bench/wrk/commands.lua), so every game moves on
together.  The commands are those random bots choose (the longest of a few
seeded bot games, pre-played in-process by bench/plans.py), sent by the client
with the seats' tokens: what bots playing through the API send.

Reported per count: commands/s, p50/p99, the server's CPU per command (gunicorn
and redis-server, from /proc), redis-server's INFO used_memory, and what the
games' keys hold (MEMORY USAGE ... SAMPLES 0 of every game's stream and meta
hash): one straight line, bytes = a + b × payload, is fitted to every game of
every run (payload: the bytes of the field names and values of the game's events
as the store hands them to XADD, so that a game's big events count for what they
are), and each run's total is compared with the line's.

What "scales as it should" means here:
  - throughput: from 32 games up every connection has a game to play, so
    commands/s should be flat: at 1,000 games at least 0.8× the figure at 100.
    Below 32 games the games themselves are the limit (a game takes one
    command at a time), so 1 and 10 games are latency-bound: reported, not judged;
  - memory: linear in events, a constant number of bytes per event whatever
    the number of games, plus a constant per game (its meta hash and stream
    header): every run's games hold what the one line predicts, give or take
    one stream node per game (Redis keeps a stream's entries in listpack nodes of
    up to stream-node-max-bytes, 4,096 bytes by default, each allocated whole:
    a game whose last node is partly filled holds up to that much more or less
    than a straight line says).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.common import CpuMeter, Http, ratio, report, require_wrk, run_wrk, stack, verdict, web_env, wrk_problems
from bench.http_commands import SCRIPT, GameFleet
from bench.plans import LONG_GAME_OPTIONS, PlayedGame, longest_game
from events.envelope import encode_fields
from rules import RULESETS

COUNTS = (1, 10, 100, 1000)
MAX_CONNECTIONS = 32
THROUGHPUT_TARGET = 0.8  # commands/s at 1,000 games over that at 100
STREAM_NODE_BYTES = 4096  # stream-node-max-bytes, Redis's default: the memory target's slack per game


def bot_plan(name: str, seeds: int = 4) -> PlayedGame:
    """The longest of a few games between random bots (played by the clients, as bots would)."""
    ruleset = RULESETS[name]
    played = longest_game(ruleset, ruleset.min_seats, [f"bench-scale-{n}" for n in range(seeds)],
                          LONG_GAME_OPTIONS.get(name), policy="random")
    # played with bot seats; the API games' seats are humans' played by the client, with the same commands
    # (a game's randomness depends on its seed and version only)
    return played


def used_memory(client) -> int:
    return int(client.info("memory")["used_memory"])


def measure(name: str, plan: PlayedGame, games: int, seconds: float, warmup: float, web_workers: int,
            web_threads: int) -> dict:
    connections = min(games, MAX_CONNECTIONS)
    env = web_env(True, WEB_WORKER_CLASS="gthread", WEB_THREADS=str(web_threads))
    with tempfile.TemporaryDirectory() as tmp, stack(Path(tmp), web_workers=web_workers, web_env=env) as (
            redis_server, web):
        client = redis_server.client()
        empty = used_memory(client)
        fleet = GameFleet(Http(web.url), plan, connections, 1, Path(tmp), total=games)
        created = used_memory(client)
        fleet.write_games(fleet.settled(client))
        args = ["rotate", str(fleet.plan_file), str(fleet.games_file)]
        run_wrk(web.url, SCRIPT, args, connections, warmup)
        start = fleet.settled(client)
        fleet.write_games(start)
        before = used_memory(client)
        result = CpuMeter(web, redis_server).run(lambda: run_wrk(web.url, SCRIPT, args, connections, seconds))
        end = fleet.settled(client)
        after = used_memory(client)
        events = _events_at(plan, end) - _events_at(plan, start)
        held = game_memory(client, fleet, plan, end)
    applied = sum(end) - sum(start)
    problems = wrk_problems(result, applied, connections, "with every game over")
    return {"games": games, "connections": connections, "commands_per_s": result["per_second"],
            "p50_ms": round(result["p50_ms"], 2), "p99_ms": round(result["p99_ms"], 2),
            "cpu_us_per_command": round(result["web_cpu_us"] + result["redis_cpu_us"], 1),
            "events_appended": events,
            "redis_used_memory_mb": round(after / 2 ** 20, 1),
            "used_memory_per_game_created": round((created - empty) / games),
            "used_memory_per_event_in_run": round((after - before) / events, 1) if events else float("nan"),
            "events_stored": _events_at(plan, end), "game_keys_mb": round(sum(b for _, b in held) / 2 ** 20, 2),
            "game_keys_per_event": round(sum(b for _, b in held) / _events_at(plan, end), 1),
            "check": "; ".join(problems) or f"ok: {applied} commands applied", "_games": held}


def payload_after(plan: PlayedGame) -> list[int]:
    """Payload bytes of a game's events after k commands of the plan (index k)."""
    def size(batch) -> int:
        return sum(len(field.encode()) for i, event in enumerate(batch.events) for field in encode_fields(
            event, batch.actor, 1_700_000_000_000, "0123456789abcdef", batch.command if i == 0 else None))
    totals = [size(plan.batches[0]) + size(plan.batches[1])]
    for batch in plan.commands:
        totals.append(totals[-1] + size(batch))
    return totals


def game_memory(client, fleet: GameFleet, plan: PlayedGame, applied: list[int]) -> list[tuple[int, int]]:
    """(payload bytes of its events, bytes of its stream and meta hash) of every game."""
    pipe = client.pipeline(transaction=False)
    for _, game_id, _ in fleet.games:
        pipe.memory_usage(f"g:{{{game_id}}}:events", samples=0)
        pipe.memory_usage(f"g:{{{game_id}}}:meta", samples=0)
    usage = pipe.execute()
    payload = payload_after(plan)
    return [(payload[k], int(usage[2 * i] or 0) + int(usage[2 * i + 1] or 0)) for i, k in enumerate(applied)]


def fit_line(points: list[tuple[int, int]]) -> tuple[float, float]:
    """Least squares: bytes = a + b × payload."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    b = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx if sxx else 0.0
    return mean_y - b * mean_x, b


def _events_at(plan: PlayedGame, applied: list[int]) -> int:
    """The events stored by games that have applied these many commands of the plan."""
    version_after = [plan.batches[1].version + len(plan.batches[1].events) - 1]
    for batch in plan.commands:
        version_after.append(batch.version + len(batch.events) - 1)
    return sum(version_after[k] for k in applied)


def run(counts: tuple[int, ...] = COUNTS, rulesets: tuple[str, ...] = ("kingpin",), seconds: float = 4.0,
        warmup: float = 1.0, web_workers: int = 2, web_threads: int = 16) -> dict:
    require_wrk()
    rows, notes = [], []
    for name in rulesets:
        plan = bot_plan(name)
        notes.append(f"{name}: the plan is a {len(plan.commands)}-command game between random bots "
                     f"(seed {plan.seed})")
        measured = [{"ruleset": name, **measure(name, plan, games, seconds, warmup, web_workers, web_threads)}
                    for games in counts]
        by_count = {row["games"]: row for row in measured}
        for row in measured:
            reference = by_count.get(100)
            if reference and row["games"] >= 100:
                r = ratio(row["commands_per_s"], reference["commands_per_s"])
                row["throughput_vs_100_games"] = r
                if row["games"] == 1000:
                    row["throughput_target"] = verdict(r, THROUGHPUT_TARGET)
            elif row["games"] < MAX_CONNECTIONS:
                row["throughput_vs_100_games"] = "fewer games than connections: latency-bound"
        a, b = fit_line([point for row in measured for point in row["_games"]])
        worst = 0.0
        for row in measured:
            held = row.pop("_games")
            predicted = sum(a + b * payload for payload, _ in held)
            gap = sum(usage for _, usage in held) - predicted
            row["game_keys_vs_line"] = f"{gap / predicted:+.1%} ({gap / len(held):+,.0f} B a game)"
            worst = max(worst, abs(gap) / len(held))
        notes.append(f"{name}: the games' keys hold {a:,.0f} bytes per game + {b:.2f} bytes per byte of event "
                     f"payload (least squares over every game of every run); the largest gap between a run's games "
                     f"and that line is {worst:,.0f} bytes a game: "
                     f"{verdict(worst, STREAM_NODE_BYTES, higher_is_better=False)} (one stream node)")
        rows += measured
    notes.append(f"wrk with min(games, {MAX_CONNECTIONS}) connections, {seconds:g} s after {warmup:g} s warm-up; "
                 f"gunicorn {web_workers} workers × {web_threads} threads (gthread); rate limiter on, limits out "
                 "of reach; used_memory is redis-server's INFO used_memory (per event in run: its growth during "
                 "the measured run over the events appended in it); game keys: MEMORY USAGE of the streams and meta "
                 "hashes")
    return report("scale", rows, {"seconds": seconds, "counts": list(counts)}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", default=",".join(map(str, COUNTS)), help="numbers of games in play (1,10,100,1000)")
    parser.add_argument("--rulesets", default="kingpin", help="comma-separated rulesets (kingpin)")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each measured run (4)")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up before each run (1)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes (2)")
    parser.add_argument("--web-threads", type=int, default=16, help="threads per gunicorn process (16)")
    args = parser.parse_args(argv)
    run(tuple(int(c) for c in args.counts.split(",") if c), tuple(filter(None, args.rulesets.split(","))),
        args.seconds, args.warmup, args.web_workers, args.web_threads)


if __name__ == "__main__":
    main()
