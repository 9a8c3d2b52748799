"""Redis memory per event: MEMORY USAGE of a game's stream key / its events.

Per ruleset, two long games are played through the real runner into a fresh
redis-server (in-process, no web server): the longest of a few seeded games
between random bots at the ruleset's longest setting (a realistic mix of
events), and a game of the cheap legal cycle to 10,000 events (Kingpin: rolls
and turn ends, small events).  MEMORY USAGE ... SAMPLES 0 counts every entry.

Baseline: the payload, i.e. the bytes of the field names and values the
engine hands to XADD, per event; ratio = stored bytes / payload bytes.

What-if rows (not the engine's encoding, for the report): the same entries
re-added to scratch streams (a) with the same field names in every entry
(`cmd` present, empty, on events that carry no command), so that Redis stores
field names once per listpack node instead of per entry, (b) that plus no
per-event `s` (schema) and `c` (command id) fields when they repeat the
previous entry's, and (c) the engine's encoding with stream-node-max-bytes
16384 instead of Redis's default 4096.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.common import ratio, redis_only, report, verdict
from bench.plans import LONG_GAME_OPTIONS, longest_game, play
from events.keys import meta_key, snapshot_key, stream_key
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS
from rules.bot_seat import bot_command, bot_key

TARGET = 300


def play_through_runner(runner: GameRunner, name: str, seats: int, seed: str, options: dict, policy: str,
                        until_version: int | None = None) -> str:
    """Create a game and play it in-process through the runner (random bots or the cheap cycle)."""
    from bench.plans import cheap_move
    kind = "bot" if policy == "random" else "human"
    spec = {"kind": "bot", "level": "random"} if kind == "bot" else {"kind": "human"}
    game = runner.create_game(name, [spec] * seats, options, seed)
    while game.awaiting() and (until_version is None or game.version < until_version):
        seat = min(game.awaiting())
        if policy == "random":
            command = bot_command(game.ruleset, game.state, seat, "random", bot_key(game.effective_seed), game.version)
        else:
            command = cheap_move(game.ruleset, game.state, seat)
        game = runner.execute(game.id, seat, command, actor_kind="bot" if kind == "bot" else "seat", loaded=game).game
    return game.id


def stream_stats(client, key: str) -> dict:
    entries = client.xrange(key, "-", "+")
    payload = sum(len(k.encode()) + len(v.encode()) for _, fields in entries for k, v in fields.items())
    return {"events": len(entries), "memory": int(client.memory_usage(key, samples=0)), "payload": payload,
            "entries": entries}


def what_if(client, key: str, entries: list, variant: str) -> int:
    """Bytes of a scratch stream holding the same entries encoded another way."""
    client.delete(key)
    previous: dict = {}
    pipe = client.pipeline(transaction=False)
    for entry_id, original in entries:
        fields = dict(original)
        if variant in ("same-fields", "lean"):
            fields.setdefault("cmd", "")
        if variant == "lean":  # a reader would carry s and c forward from the previous entry
            for name in ("s", "c"):
                if previous.get(name) == original.get(name):
                    fields[name] = ""
        previous = original
        pipe.xadd(key, fields, id=entry_id)
    pipe.execute()
    return int(client.memory_usage(key, samples=0))


def run(long_version: int = 10_000, seeds: int = 6, rulesets: tuple[str, ...] | None = None) -> dict:
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        client = server.client()
        runner = GameRunner(EventStore(client), RULESETS)
        for name in rulesets or sorted(RULESETS):
            ruleset = RULESETS[name]
            options = LONG_GAME_OPTIONS.get(name, {})
            longest = longest_game(ruleset, ruleset.max_seats, [f"bench-memory-{name}-{n}" for n in range(seeds)], options)
            games = [("random bots", play_through_runner(runner, name, ruleset.max_seats, longest.seed, options, "random"))]
            cheap = play(ruleset, ruleset.min_seats, f"bench-memory-cheap-{name}", policy="cheap",
                         until_version=long_version)
            if cheap.version >= long_version:
                games.append(("cheap cycle", play_through_runner(runner, name, ruleset.min_seats, cheap.seed, {},
                                                                 "cheap", long_version)))
            else:
                notes.append(f"{name}: the cheap cycle ends the game at version {cheap.version}: no cheap-cycle row")
            for label, game_id in games:
                stats = stream_stats(client, stream_key(game_id))
                per_event = stats["memory"] / stats["events"]
                payload = stats["payload"] / stats["events"]
                other = int(client.memory_usage(meta_key(game_id), samples=0) or 0) + \
                    int(client.memory_usage(snapshot_key(game_id), samples=0) or 0)
                what = f"{label}, {stats['events']:,} events"
                rows.append({"ruleset": name, "what": f"{what}: payload handed to XADD (baseline)",
                             "bytes_per_event": round(payload, 1), "ratio": 1.0})
                rows.append({"ruleset": name, "what": f"{what}: MEMORY USAGE of the stream",
                             "bytes_per_event": round(per_event, 1), "ratio": ratio(per_event, payload),
                             "target": verdict(per_event, TARGET, higher_is_better=False),
                             "total_bytes": stats["memory"], "meta_and_snapshot_bytes": other})
                for variant, description in (("same-fields", "what-if: same field names in every entry"),
                                             ("lean", "what-if: same fields, s and c only when they change"),
                                             ("node-16k", "what-if: stream-node-max-bytes 16384")):
                    if variant == "node-16k":
                        client.config_set("stream-node-max-bytes", 16384)
                        size = what_if(client, f"scratch:{game_id}", stats["entries"], "engine")
                        client.config_set("stream-node-max-bytes", 4096)
                    else:
                        size = what_if(client, f"scratch:{game_id}", stats["entries"], variant)
                    client.delete(f"scratch:{game_id}")
                    rows.append({"ruleset": name, "what": f"{what}: {description}",
                                 "bytes_per_event": round(size / stats["events"], 1),
                                 "ratio": ratio(size / stats["events"], payload), "total_bytes": size})
    notes.append("MEMORY USAGE <key> SAMPLES 0 on redis-server with default stream-node-max-bytes (4096) and "
                 "stream-node-max-entries (100); target ≤ 300 bytes/event for the stream")
    return report("memory", rows, {"long_version": long_version}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long-version", type=int, default=10_000, help="events in the cheap-cycle game (10000)")
    parser.add_argument("--seeds", type=int, default=6, help="seeded random games to pick the longest from (6)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    args = parser.parse_args(argv)
    run(args.long_version, args.seeds, tuple(filter(None, args.rulesets.split(","))) or None)


if __name__ == "__main__":
    main()
