"""What a command costs at version ~10 vs ~10,000 (snapshots and the state cache keep it flat).

Two Kingpin games between two humans on the same server: A is young, B has
10,000 events (played in-process through the same runner first).  Commands
alternate A, B, A, B... through HTTP on gunicorn; a second table loads each
game in a fresh runner (no cache: snapshot + tail), as a restarted web worker would.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import Http, percentile, report, stack
from bench.http_commands import KingpinPlayer, create_game
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS


def grow(runner: GameRunner, game_id: str, target: int) -> int:
    """Play RollDice/EndTurn in-process until the game has `target` events."""
    game = runner.load(game_id)
    while game.version < target:
        seat = next(iter(game.awaiting()))
        moves = game.ruleset.legal_moves(game.state, seat)
        command = {"type": "EndTurn"} if {"type": "EndTurn"} in moves else {"type": "RollDice"}
        game = runner.execute(game_id, seat, command, loaded=game).game
    return game.version


def run(long_version: int = 10_000, commands: int = 300) -> dict:
    with tempfile.TemporaryDirectory() as tmp, stack(Path(tmp)) as (redis_server, web):
        http = Http(web.url)
        young, young_tokens = create_game(http, "young")
        old, old_tokens = create_game(http, "old")
        runner = GameRunner(EventStore(redis_server.client()), RULESETS)
        reached = grow(runner, old, long_version)
        players = {young: KingpinPlayer(http, young, young_tokens), old: KingpinPlayer(http, old, old_tokens)}
        timings = {young: [], old: []}
        for _ in range(commands):
            for game_id, player in players.items():
                start = time.perf_counter()
                player.step()
                timings[game_id].append(time.perf_counter() - start)
        loads = {young: [], old: []}
        store = EventStore(redis_server.client())
        for _ in range(100):
            for game_id in loads:
                fresh = GameRunner(store, RULESETS)  # an empty cache on a warm connection
                start = time.perf_counter()
                fresh.load(game_id)
                loads[game_id].append(time.perf_counter() - start)
        young_at = runner.load(young).version
    med = {k: statistics.median(v) for k, v in timings.items()}
    cold = {k: statistics.median(v) for k, v in loads.items()}
    rows = [
        {"what": f"HTTP command, game at ~10 events (now {young_at})", "median_ms": round(med[young] * 1000, 3),
         "p99_ms": round(percentile(timings[young], 99) * 1000, 3), "ratio": 1.0},
        {"what": f"HTTP command, game at ~{reached} events", "median_ms": round(med[old] * 1000, 3),
         "p99_ms": round(percentile(timings[old], 99) * 1000, 3), "ratio": round(med[old] / med[young], 3)},
        {"what": "cold load (fresh runner), young game", "median_ms": round(cold[young] * 1000, 3),
         "p99_ms": round(percentile(loads[young], 99) * 1000, 3), "ratio": 1.0},
        {"what": f"cold load (fresh runner), game at ~{reached} events", "median_ms": round(cold[old] * 1000, 3),
         "p99_ms": round(percentile(loads[old], 99) * 1000, 3), "ratio": round(cold[old] / cold[young], 3)},
    ]
    return report("version_cost", rows, {"commands_each": commands, "long_version": reached})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--long-version", type=int, default=10_000)
    parser.add_argument("--commands", type=int, default=300)
    args = parser.parse_args()
    run(args.long_version, args.commands)
