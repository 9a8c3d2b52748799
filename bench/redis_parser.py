"""What hiredis (redis-py's C reply parser) saves the client: CPU per read of a game's event stream,
with hiredis and with redis-py's own pure-Python parser, alternately in one run on one redis-server.

A command's own Redis replies are small (the append's script answers a number), so there hiredis is
within the noise (bench.http_commands with and without `--web-env PYTHONPATH=bench/variants/no_hiredis`);
a game loaded without a snapshot, a history export or a stream's catch-up reads whole streams, and that
is what this measures.

    python3 -m bench.redis_parser [--entries 3000] [--rounds 5]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import redis
from redis._parsers import _HiredisParser, _RESP2Parser

from bench.common import ratio, redis_only, report

PARSERS = {"hiredis": _HiredisParser, "redis-py (pure Python)": _RESP2Parser}
# an event as the store keeps it (events/store.py): a few short fields
ENTRY = {"type": "DiceRolled", "data": '{"dice":[3,4],"seat":1,"total":7}', "actor": "seat:1",
         "at": "1700000000000", "command_id": "c1"}


def read_cpu_ms(url: str, parser: type, reads: int) -> float:
    """CPU milliseconds of this process per XRANGE of the whole stream, through `parser`."""
    pool = redis.ConnectionPool.from_url(url, decode_responses=True, parser_class=parser)
    client = redis.Redis(connection_pool=pool)
    try:
        client.xrange("events")  # connected and warm
        started = time.process_time()
        for _ in range(reads):
            client.xrange("events")
        return (time.process_time() - started) / reads * 1000
    finally:
        pool.disconnect()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=3000, help="events in the stream (3000: a long game)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each reading with every parser (5)")
    parser.add_argument("--reads", type=int, default=20, help="reads a parser a round (20)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        writer = redis.Redis.from_url(server.url, decode_responses=True)
        for _ in range(args.entries):
            writer.xadd("events", ENTRY)
        samples: dict[str, list[float]] = {name: [] for name in PARSERS}
        for _ in range(args.rounds):
            for name, parser_class in PARSERS.items():
                samples[name].append(read_cpu_ms(server.url, parser_class, args.reads))
    base = statistics.median(samples["hiredis"])
    rows = [{"parser": name, "cpu_ms_per_read": round(statistics.median(values), 2),
             "vs hiredis": ratio(statistics.median(values), base),
             "rounds": ", ".join(f"{v:.1f}" for v in values)} for name, values in samples.items()]
    report("redis_parser", rows, {"entries": args.entries},
           [f"XRANGE of a {args.entries}-entry stream, {args.reads} reads a round, {args.rounds} rounds alternating "
            "the parsers; CPU of this process (time.process_time), median of the rounds"])


if __name__ == "__main__":
    main()
