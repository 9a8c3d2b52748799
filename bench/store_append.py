"""EventStore.append vs the raw append.lua script called directly with redis-py.

The batches are the commands of a seeded random Kingpin game (bench/plans.py),
appended in order to fresh games, one call per command, on one connection to
one redis-server.  The baseline calls the same script with EVALSHA and
arguments encoded before the clock starts, so the ratio is what EventStore
adds in Python (encoding the envelope fields, building the argument list,
redis-py's Script wrapper).  Both run in alternating rounds in the same process.
A third row, for scale, XADDs the same entries in a pipeline with no script
(no version check, no meta, no atomicity): what the compare-and-append costs.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.common import ratio, redis_only, report
from bench.plans import play
from events.envelope import encode_fields
from events.keys import idempotency_key, meta_key, stream_key
from events.store import EventStore, PendingEvent, _load_script
from rules import RULESETS


def batches_of(name: str, count: int, seed: str = "bench-store"):
    """(expected version, [PendingEvent]) for the first `count` commands of random games, in order."""
    ruleset = RULESETS[name]
    out, n = [], 0
    while len(out) < count:
        game = play(ruleset, ruleset.min_seats, f"{seed}-{n}", policy="random", actor_kind="bot")
        n += 1
        for batch in game.batches:
            pending = [PendingEvent(e, batch.actor, batch.command if i == 0 else None)
                       for i, e in enumerate(batch.events)]
            out.append((batch.version - 1, pending))
            if len(out) == count:
                break
    return out[:count]


def games_of(batches):
    """Split the batches into runs that each start a new game (expected version 0)."""
    games = []
    for expected, pending in batches:
        if expected == 0:
            games.append([])
        games[-1].append((expected, pending))
    return games


def run(appends: int = 3000, rounds: int = 5, ruleset: str = "kingpin") -> dict:
    batches = batches_of(ruleset, appends)
    events = sum(len(p) for _, p in batches)
    at = int(time.time() * 1000)
    spent = {"store": 0.0, "raw": 0.0, "xadd": 0.0}
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        client = server.client()
        store = EventStore(client)
        sha = client.script_load(_load_script("append.lua"))
        for round_ in range(rounds):
            for kind in (("store", "raw", "xadd") if round_ % 2 == 0 else ("xadd", "raw", "store")):
                prefix = f"{kind}-{round_}-"
                plans = []
                for n, game in enumerate(games_of(batches)):
                    game_id = f"{prefix}{n}"
                    for expected, pending in game:
                        plans.append((game_id, expected, pending))
                if kind == "store":
                    start = time.perf_counter()
                    for game_id, expected, pending in plans:
                        store.append(game_id, expected, pending, at=at, command_id="c",
                                     meta={"deadlines": "{}"})
                    spent[kind] += time.perf_counter() - start
                elif kind == "raw":
                    calls = []
                    for game_id, expected, pending in plans:
                        args = [expected, "0", 0, "", 1, "deadlines", "{}", len(pending)]
                        for p in pending:
                            fields = encode_fields(p.event, p.actor, at, "c", p.command)
                            args.append(len(fields) // 2)
                            args += fields
                        calls.append((stream_key(game_id), meta_key(game_id), idempotency_key(game_id, "-"), args))
                    start = time.perf_counter()
                    for stream, meta, idem, args in calls:
                        client.evalsha(sha, 3, stream, meta, idem, *args)
                    spent[kind] += time.perf_counter() - start
                else:
                    calls = []
                    for game_id, expected, pending in plans:
                        entries = []
                        for i, p in enumerate(pending):
                            fields = encode_fields(p.event, p.actor, at, "c", p.command)
                            entries.append((f"{expected + i + 1}-0", dict(zip(fields[::2], fields[1::2]))))
                        calls.append((stream_key(game_id), entries))
                    start = time.perf_counter()
                    for stream, entries in calls:
                        pipe = client.pipeline(transaction=False)
                        for entry_id, fields in entries:
                            pipe.xadd(stream, fields, id=entry_id)
                        pipe.execute()
                    spent[kind] += time.perf_counter() - start
        # the three must have stored the same thing
        check = [client.xlen(stream_key(f"{kind}-0-0")) for kind in ("store", "raw", "xadd")]
        assert len(set(check)) == 1, check
    rate = {k: appends * rounds / v for k, v in spent.items()}
    rows = [
        {"what": "append.lua by EVALSHA, pre-encoded arguments (baseline)", "appends_per_s": round(rate["raw"]),
         "events_per_s": round(rate["raw"] * events / appends), "us_per_append": round(1e6 / rate["raw"], 1),
         "ratio": 1.0},
        {"what": "EventStore.append", "appends_per_s": round(rate["store"]),
         "events_per_s": round(rate["store"] * events / appends), "us_per_append": round(1e6 / rate["store"], 1),
         "ratio": ratio(rate["store"], rate["raw"])},
        {"what": "for scale: XADD pipeline, no script (no check, no meta)", "appends_per_s": round(rate["xadd"]),
         "events_per_s": round(rate["xadd"] * events / appends), "us_per_append": round(1e6 / rate["xadd"], 1),
         "ratio": ratio(rate["xadd"], rate["raw"])},
    ]
    notes = [f"{appends} commands ({events} events, {events / appends:.2f} a command) of random {ruleset} games, "
             f"{rounds} alternating rounds, one connection, redis-server with AOF everysec"]
    return report("store_append", rows, {"appends": appends, "rounds": rounds, "events": events}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appends", type=int, default=3000, help="commands appended per round and kind (3000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (5)")
    parser.add_argument("--ruleset", default="kingpin", help="whose random games give the batches (kingpin)")
    args = parser.parse_args(argv)
    run(args.appends, args.rounds, args.ruleset)


if __name__ == "__main__":
    main()
