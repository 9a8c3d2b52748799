"""Redis memory of ended games before and after archiving (events/retention.py).

N games between random bots are played to their end through the real runner
into a fresh redis-server (in-process, no web server), then archived to a
temporary directory by `events.retention.archive_game`, as a worker's sweeper
does.  Measured: INFO `used_memory` after the games, after archiving them, and
with no game at all (the baseline of an empty server, subtracted); and the sum
of MEMORY USAGE (SAMPLES 0) of each game's stream, meta and snapshot, against
what Redis keeps of an archived game (its `{lobby}:archived` row, and its
members in the four lobby sorted sets, which it keeps either way).

ratio = bytes per game after archiving / before (lower is better).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.common import ratio, redis_only, report, verdict
from bench.memory import play_through_runner
from events import retention
from events.archive import DirectoryArchive
from events.keys import ARCHIVED_INDEX
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS

TARGET = 0.1  # an archived game keeps at most a tenth of what it held in Redis


def used_memory(client) -> int:
    return int(client.info("memory")["used_memory"])


def run(games: int = 30, rulesets: tuple[str, ...] | None = None) -> dict:
    rows = []
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        client = server.client()
        for name in rulesets or sorted(RULESETS):
            client.flushall()
            archive = DirectoryArchive(Path(tmp) / "archive" / name)
            runner = GameRunner(EventStore(client), RULESETS, archive=archive)
            empty = used_memory(client)
            ruleset = RULESETS[name]
            ids = [play_through_runner(runner, name, ruleset.max_seats, f"bench-retention-{name}-{n}", {}, "random")
                   for n in range(games)]
            events = sum(runner.load(game_id).version for game_id in ids)
            keys_before = sum(runner.store.game_keys_bytes(game_id) for game_id in ids)
            played = used_memory(client)
            outcomes = [retention.archive_game(runner, game_id) for game_id in ids]
            assert outcomes.count("archived") == games, outcomes
            keys_after = sum(runner.store.game_keys_bytes(game_id) for game_id in ids)
            row_bytes = int(client.memory_usage(ARCHIVED_INDEX, samples=0))
            archived = used_memory(client)
            before, after = (played - empty) / games, (archived - empty) / games
            disk = sum(len(archive.get(game_id).encode()) for game_id in ids) / games
            rows.append({"ruleset": name, "games": games, "events_per_game": round(events / games),
                         "used_memory_per_game_before": round(before), "used_memory_per_game_after": round(after),
                         "ratio": ratio(after, before), "target": verdict(ratio(after, before), TARGET, False),
                         "game_keys_per_game_before": round(keys_before / games),
                         "game_keys_per_game_after": round(keys_after / games),
                         "archived_row_per_game": round(row_bytes / games), "archive_bytes_per_game": round(disk)})
    notes = ["used_memory per game = (INFO used_memory - the empty server's) / games; it also counts the lobby "
             "sorted sets, which an archived game keeps (its listing)",
             "game keys = MEMORY USAGE SAMPLES 0 of g:{id}:events + :meta + :snap; archived row = MEMORY USAGE of "
             "the {lobby}:archived hash / games; archive bytes = the history file per game (JSON Lines, uncompressed)"]
    return report("retention", rows, {"games": games}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="finished games per ruleset (30)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    args = parser.parse_args(argv)
    run(args.games, tuple(filter(None, args.rulesets.split(","))) or None)


if __name__ == "__main__":
    main()
