"""What a command costs at version ~10 vs ~10,000 (snapshots and the state cache keep it flat).

Per ruleset, two games between human seats on the same server, both playing
the ruleset's cheap legal cycle from the same seed (bench/plans.py): A is
young, B has 10,000 events (played in-process through the same runner first).
Commands alternate A, B, A, B... through HTTP on gunicorn; a second table
loads each game in a fresh runner (no cache: snapshot + tail), as a restarted
web worker would.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import Http, percentile, ratio, report, stack, verdict, web_env
from bench.plans import PlayedGame, play
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS

TARGET = 1.1


class PlanPlayer:
    """Sends a pre-played game's commands, in order, for the seat each one is for."""

    def __init__(self, http: Http, plan: PlayedGame):
        self.http, self.plan = http, plan
        status, body = http.call("POST", "/v1/games", {"ruleset": plan.ruleset.name, "seed": plan.seed,
                                                       "options": plan.options,
                                                       "seats": [{"kind": "human"}] * plan.seats})
        assert status == 201, body
        self.game_id, self.tokens = body["id"], [seat["token"] for seat in body["seats"]]
        self.next = 0

    def step(self) -> None:
        batch = self.plan.commands[self.next]
        status, body = self.http.call("POST", f"/v1/games/{self.game_id}/commands", batch.command,
                                      {"Authorization": f"Bearer {self.tokens[batch.seat]}"})
        if status != 200:
            raise RuntimeError(f"{batch.command} -> {status} {body}")
        self.next += 1


def grow(runner: GameRunner, player: PlanPlayer, target: int) -> int:
    """Apply the plan's commands in-process, through the runner, until the game has `target` events."""
    game = runner.load(player.game_id)
    while game.version < target:
        batch = player.plan.commands[player.next]
        game = runner.execute(player.game_id, batch.seat, batch.command, loaded=game).game
        player.next += 1
    return game.version


def measure(name: str, web_url: str, redis_client, long_version: int, commands: int) -> list[dict] | str:
    ruleset = RULESETS[name]
    plan = play(ruleset, ruleset.min_seats, f"bench-version-{name}", policy="cheap",
                until_version=long_version + 4 * commands + 100)
    if plan.version < long_version + 2 * commands:
        return f"{name}: its cheap cycle ends the game at version {plan.version}, before {long_version}: skipped"
    http = Http(web_url)
    young, old = PlanPlayer(http, plan), PlanPlayer(http, plan)
    runner = GameRunner(EventStore(redis_client), RULESETS)
    reached = grow(runner, old, long_version)
    timings = {young.game_id: [], old.game_id: []}
    for _ in range(commands):
        for player in (young, old):
            start = time.perf_counter()
            player.step()
            timings[player.game_id].append(time.perf_counter() - start)
    loads = {young.game_id: [], old.game_id: []}
    store = EventStore(redis_client)
    for _ in range(100):
        for game_id in loads:
            fresh = GameRunner(store, RULESETS)  # an empty cache on a warm connection
            start = time.perf_counter()
            fresh.load(game_id)
            loads[game_id].append(time.perf_counter() - start)
    young_at = runner.load(young.game_id).version
    med = {k: statistics.median(v) for k, v in timings.items()}
    cold = {k: statistics.median(v) for k, v in loads.items()}
    y, o = young.game_id, old.game_id
    hot_ratio, cold_ratio = ratio(med[o], med[y]), ratio(cold[o], cold[y])
    return [
        {"ruleset": name, "what": f"HTTP command, young game (v4 → v{young_at}; baseline)",
         "median_ms": round(med[y] * 1000, 3), "p99_ms": round(percentile(timings[y], 99) * 1000, 3), "ratio": 1.0},
        {"ruleset": name, "what": f"HTTP command, game at ~{reached:,} events",
         "median_ms": round(med[o] * 1000, 3), "p99_ms": round(percentile(timings[o], 99) * 1000, 3),
         "ratio": hot_ratio, "target": verdict(hot_ratio, TARGET, higher_is_better=False)},
        {"ruleset": name, "what": "cold load (fresh runner), young game (baseline)",
         "median_ms": round(cold[y] * 1000, 3), "p99_ms": round(percentile(loads[y], 99) * 1000, 3), "ratio": 1.0},
        {"ruleset": name, "what": f"cold load (fresh runner), game at ~{reached:,} events",
         "median_ms": round(cold[o] * 1000, 3), "p99_ms": round(percentile(loads[o], 99) * 1000, 3),
         "ratio": cold_ratio, "target": verdict(cold_ratio, TARGET, higher_is_better=False)},
    ]


def run(long_version: int = 10_000, commands: int = 300, rulesets: tuple[str, ...] | None = None,
        rate_limits: bool = True) -> dict:
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as tmp, stack(Path(tmp), web_env=web_env(rate_limits)) as (redis_server, web):
        for name in rulesets or sorted(RULESETS):
            measured = measure(name, web.url, redis_server.client(), long_version, commands)
            if isinstance(measured, str):
                notes.append(measured)
            else:
                rows += measured
    notes.append(f"{commands} commands on each game, alternating, one keep-alive connection; medians")
    return report("version_cost", rows, {"commands_each": commands, "long_version": long_version}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long-version", type=int, default=10_000, help="events in the old game (10000)")
    parser.add_argument("--commands", type=int, default=300, help="timed commands on each game (300)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    parser.add_argument("--no-rate-limits", action="store_true", help="turn the rate limiter off")
    args = parser.parse_args(argv)
    run(args.long_version, args.commands, tuple(filter(None, args.rulesets.split(","))) or None,
        not args.no_rate_limits)


if __name__ == "__main__":
    main()
