"""SSE fan-out: how many live followers one node holds, and what they cost the rest of the API.

`nice python3 -m bench.sse_fanout [--followers 1000,5000 --games 100 --rounds 10 --concurrency 8
--recover-seconds 60 --settle 2]`
starts redis-server and gunicorn as shipped (2 gthread processes, SSE_MAX_FOLLOWERS each), opens
the followers spread over the games all at once (a connect burst), then plays a move in every game
per round from `concurrency` clients at once (the command load) and reports: followers held (and
refused), event delivery latency p50/p99 (command sent -> event read by a follower), a command's
p50/p99 under that load while the followers are open, the Redis connections and the servers'
memory per follower.  Each row is its own node, all in the same run (issue 28): `hub` (gunicorn
alone: a thread per stream on the feed hub) and `pushpin` (Pushpin in front holding the streams,
gunicorn answering each with a hold and publishing after each append, as `python -m
service.serve` runs it), each at 1 follower (its baseline: the same command load, no crowd) and
at every count of --followers.  The followers are raw HTTP/1.1 SSE requests on asyncio streams,
all in one event loop in a process of their own (no thread each, no dependency; not this process,
whose command clients would wait on that loop for the GIL), niced (--crowd-nice, +19 by default: they
stand for clients on other machines, and their reading must not be billed to the node); the open-file
limit is raised for them (and inherited by the servers it starts).
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from bench.common import Http, percentile, ratio, redis_only, report, verdict, web_env
from tests.support.processes import Gunicorn, Pushpin, stop_all


class Follower:
    """One SSE client on a raw HTTP/1.1 connection (asyncio streams: thousands in one event loop, no
    thread each); records when each event id arrives."""

    def __init__(self, port: int, game_id: str, after: int):
        self.port, self.game_id, self.after = port, game_id, after
        self.connected = False
        self.arrivals: dict[int, float] = {}
        self.failure: str | None = None

    async def follow(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
            writer.write(f"GET /v1/games/{self.game_id}/events?after={self.after} HTTP/1.1\r\n"
                         f"Host: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            self.failure = repr(error)
            return
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            self.failure = f"HTTP {status}: {(head + await _some(reader))[:300]!r}"
            writer.close()
            return
        self.connected = True
        partial = b""
        try:
            # whatever has arrived at once, split into lines in C: an await a line cost the load generator
            # as much CPU as the server spent on the fan-out, on the same 2 cores
            while chunk := await reader.read(1 << 16):
                lines = (partial + chunk).split(b"\n")
                partial = lines.pop()  # the last line may be cut: it is completed by the next chunk
                arrived = time.monotonic()
                for line in lines:  # a chunk-size line (hex) never starts with "id: "
                    if line.startswith(b"id: "):
                        self.arrivals[int(line[4:])] = arrived
        except (OSError, ValueError):
            return
        finally:
            writer.close()


async def _some(reader: asyncio.StreamReader) -> bytes:
    try:
        return await asyncio.wait_for(reader.read(300), 1)
    except (TimeoutError, OSError):
        return b""


class Crowd:
    """The followers, all in one asyncio event loop on a thread of its own (so the command clients
    stay plain threads): opened at once, held until closed."""

    def __init__(self, followers: list[Follower]):
        self.followers = followers
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: list[asyncio.Future] = []

    def open(self, timeout: float = 60) -> int:
        """Connect every follower at once (a burst); how many were answered 200 within `timeout`."""
        self.thread.start()
        self.tasks = [asyncio.run_coroutine_threadsafe(f.follow(), self.loop) for f in self.followers]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(f.connected or f.failure or t.done() for f, t in zip(self.followers, self.tasks)):
                break
            time.sleep(0.1)
        return sum(f.connected for f in self.followers)

    def close(self) -> None:
        """Hang up every follower (their sockets closed inside the loop), then stop the loop."""
        async def hang_up() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(hang_up(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def _crowd_main(specs: list[tuple[int, str, int]], conn, nice: int) -> None:
    """The followers' process: open them, say which are held, wait for "close", send their arrivals."""
    # The followers stand for clients on other machines; here they share the node's 2 cores.  Niced, their
    # reading yields the CPU to the servers, so a command's time measures the node, not the load generator.
    os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice))
    raise_open_files(len(specs) + 1024)
    crowd = Crowd([Follower(*spec) for spec in specs])
    crowd.open()
    conn.send([(f.connected, f.failure) for f in crowd.followers])
    conn.recv()
    crowd.close()
    conn.send([f.arrivals for f in crowd.followers])


class CrowdProcess:
    """The followers in a process of their own.  In this process their event loop competed with the
    command clients' threads for the GIL: at 10,000 followers a POST's answer could wait for the loop's
    turn, so the command times measured the load generator too.  Arrival times are time.monotonic(),
    one clock for every process on Linux."""

    def __init__(self, followers: list[Follower], nice: int = 0):
        self.followers, self.nice = followers, nice

    def open(self, timeout: float = 60) -> int:
        context = multiprocessing.get_context("spawn")  # a clean interpreter: this process has threads
        self.conn, child = context.Pipe()
        specs = [(f.port, f.game_id, f.after) for f in self.followers]
        self.process = context.Process(target=_crowd_main, args=(specs, child, self.nice), daemon=True)
        self.process.start()
        if not self.conn.poll(timeout + 60):
            raise RuntimeError("the followers' process did not report within the time to open them")
        for follower, (connected, failure) in zip(self.followers, self.conn.recv()):
            follower.connected, follower.failure = connected, failure
        return sum(f.connected for f in self.followers)

    def close(self) -> None:
        self.conn.send("close")
        for follower, arrivals in zip(self.followers, self.conn.recv()):
            follower.arrivals = arrivals
        self.process.join(timeout=30)


def raise_open_files(wanted: int) -> int:
    """This process's open-file limit raised towards `wanted` (one socket per follower); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pids: list[int]) -> int:
    """Resident memory of these processes and their children (kB)."""
    total, seen = 0, set()
    pending = list(pids)
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
            pending += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return total


@contextmanager
def node(tmp: Path, engine: str, recover_seconds: int | None = None):
    """redis-server and gunicorn as shipped, with Pushpin in front for `pushpin`; yields (redis, url, port,
    the server pids whose memory counts).  `recover_seconds`: GRIP_RECOVER_SECONDS (None: as shipped)."""
    with redis_only(tmp) as redis_server:
        pushpin = Pushpin(tmp, backend="") if engine == "pushpin" else None
        recover = {} if recover_seconds is None else {"GRIP_RECOVER_SECONDS": str(recover_seconds)}
        web = Gunicorn(redis_server.url, tmp / "gunicorn.log", workers=2,
                       extra_env=web_env(rate_limits=False, **recover, **(pushpin.env if pushpin else {})))
        try:
            web.start()
            if pushpin is None:
                yield redis_server, web.url, web.port, lambda: [web.process.pid]
                return
            pushpin.backend = f"127.0.0.1:{web.port}"
            pushpin.start()
            services = [int(f.read_text()) for f in (tmp / "run").glob("*.pid")]
            yield redis_server, pushpin.url, pushpin.port, lambda: [web.process.pid, *services]
        finally:
            stop_all(*[p for p in (web, pushpin) if p])


def measure(port: int, url: str, games: list[tuple[str, dict]], followers: int, rounds: int,
            concurrency: int, pids=lambda: [], crowd_nice: int = 0, settle: float = 2) -> dict:
    per_game = max(1, followers // len(games))
    http = Http(url)
    clients = []
    for game_id, _ in games[:max(1, followers // per_game)]:
        version = http.call("GET", f"/v1/games/{game_id}")[1]["version"]
        clients += [Follower(port, game_id, version) for _ in range(per_game)]
    crowd = CrowdProcess(clients[:followers], crowd_nice)
    memory_before = rss_kb(pids())
    opened = time.monotonic()
    held = crowd.open()
    burst_s = time.monotonic() - opened
    failures = [c.failure for c in crowd.followers if c.failure]
    if failures:
        print(f"{len(failures)} followers failed to connect, e.g. {failures[0]}", flush=True)
    # Pushpin asks a new channel's next link once, 1 s after it subscribes (to catch what was published
    # while the subscription spread), at most 10 such requests a second (built in); moves made on a channel
    # during its update wait for it (seconds after a burst onto 100 new channels).  Followers idle first.
    channels = len({c.game_id for c in crowd.followers if c.connected})
    time.sleep(3 + channels / 10)
    memory_per_follower = (rss_kb(pids()) - memory_before) / max(held, 1)
    sent, command_ms = {}, []
    lock = threading.Lock()

    def play(share: list[tuple[str, dict]]) -> None:
        """One client connection playing a move in each of its games per round."""
        own = Http(url)
        for _ in range(rounds):
            for game_id, tokens in share:
                seat = int(next(iter(own.call("GET", f"/v1/games/{game_id}")[1]["awaiting"])))
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                status, game = own.call("GET", f"/v1/games/{game_id}", headers=headers)
                move = game["legal_moves"][0]
                started = time.monotonic()
                status, result = own.call("POST", f"/v1/games/{game_id}/commands", move, headers)
                with lock:
                    command_ms.append((time.monotonic() - started) * 1000)
                    for event in result.get("events", []) if status == 200 else []:
                        sent[(game_id, event["version"])] = started  # from the moment the command was sent
            time.sleep(1)

    # `concurrency` clients send commands at once (each owns a share of the games) while the followers
    # are open: the commands compete with the followers and with each other for the web threads
    players = [threading.Thread(target=play, args=(games[i::concurrency],)) for i in range(min(concurrency, len(games)))]
    for player in players:
        player.start()
    for player in players:
        player.join()
    time.sleep(settle)  # what has not reached its follower by then counts as not delivered
    crowd.close()
    if not sent:
        raise RuntimeError("no command was accepted: nothing to deliver")
    delays = [(arrived - sent[(c.game_id, v)]) * 1000 for c in clients[:followers]
              for v, arrived in c.arrivals.items() if (c.game_id, v) in sent]
    # every follower held (a refused one is counted as such) should see each of its game's events
    expected = sum(1 for c in clients[:followers] if c.connected for (g, _) in sent if g == c.game_id)
    return {"followers": followers, "held": held, "refused": len(failures), "burst_s": round(burst_s, 1),
            "deliveries": len(delays), "expected_deliveries": expected,
            "server_kb_per_follower": round(memory_per_follower, 1),
            "delivery_p50_ms": percentile(delays, 50) if delays else None,
            "delivery_p99_ms": percentile(delays, 99) if delays else None,
            "command_p50_ms": percentile(command_ms, 50), "command_p99_ms": percentile(command_ms, 99)}


def redis_connections(redis_server) -> int:
    return len(redis_server.client().client_list())


def run(followers: tuple[int, ...] = (1000,), games: int = 100, rounds: int = 10, concurrency: int = 8,
        engines: tuple[str, ...] = ("hub", "pushpin"), crowd_nice: int = 19, recover_seconds: int | None = None,
        settle: float = 2) -> dict:
    open_files = raise_open_files(2 * max(followers) + 4096)  # our sockets, and the servers' (inherited)
    plan = [(engine, count) for count in (1, *followers) for engine in engines]
    rows = []
    for engine, count in plan:
        with tempfile.TemporaryDirectory() as tmp, node(Path(tmp), engine, recover_seconds) as (redis_server, url, port, pids):
            http = Http(url)
            created = []
            for n in range(games):
                status, body = http.call("POST", "/v1/games", {"ruleset": "kingpin", "seed": f"fan-{n}",
                                                               "seats": [{"kind": "human"}, {"kind": "human"}]})
                created.append((body["id"], {s["seat"]: s["token"] for s in body["seats"]}))
            row = {"streams": engine, **measure(port, url, created, count, rounds, concurrency, pids, crowd_nice, settle)}
            row["redis_connections"] = redis_connections(redis_server)
            rows.append(row)
            print(f"{engine} {count}: {row}", flush=True)
    base = {row["streams"]: row for row in rows if row["followers"] == 1}
    for row in rows:  # the same command load with 1 follower, on the same engine
        row["command_p99_vs_1"] = ratio(row["command_p99_ms"], base[row["streams"]]["command_p99_ms"])
    for count in followers if set(engines) == {"hub", "pushpin"} else ():
        hub, push = (next(r for r in rows if r["streams"] == e and r["followers"] == count) for e in ("hub", "pushpin"))
        for key in ("delivery_p50_ms", "delivery_p99_ms", "command_p50_ms", "command_p99_ms", "server_kb_per_follower"):
            push[f"{key}_vs_hub"] = ratio(push[key], hub[key]) if push[key] and hub[key] else None
    top = [r for r in rows if r["followers"] == max(followers)]
    notes = [f"targets at {max(followers)} followers: all held ("
             + ", ".join(f"{r['streams']} {verdict(r['held'], r['followers'])}" for r in top)
             + "); every follower of a moved game sees each move ("
             + ", ".join(f"{r['streams']} {verdict(r['deliveries'], r['expected_deliveries'])}" for r in top)
             + "); command p99 under load no worse than 1.5x the same load with 1 follower ("
             + ", ".join(f"{r['streams']} {verdict(r['command_p99_vs_1'] or 1e9, 1.5, higher_is_better=False)}"
                         for r in top) + ")",
             f"every row: {games} kingpin games, {concurrency} clients sending commands at once ({rounds} rounds of a "
             f"move in every game, 1 s apart) while the followers are open, then {settle:g} s for the last deliveries; "
             f"GRIP_RECOVER_SECONDS {recover_seconds or 'as shipped (60)'}; a command's time is its POST, "
             "acknowledged after the append (and, with Pushpin, its publish); commands go through Pushpin too",
             "followers connect all at once (burst_s: until every one is answered); refused: answered other than 200 "
             "(the hub's 503 over SSE_MAX_FOLLOWERS a process); followers idle 3 s + 0.1 s a followed game before the "
             "first move (Pushpin updates each new channel once, 10 a second)",
             "gunicorn as shipped: 2 gthread processes; server memory: gunicorn (+ Pushpin's services) RSS growth "
             "while the followers connect, per follower held",
             f"load generator: the followers in one asyncio event loop in a process of their own (open files "
             f"{open_files}, niceness +{crowd_nice}: they stand for clients on other machines), the command clients "
             "threads of the bench process, on the same 2 cores as the servers"]
    return report("sse_fanout", rows, notes=notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", default="1000", help="follower counts, comma-separated (1000,5000,10000)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10, help="a move in every game per round (10: p99 is the 10th-longest of 1,000)")
    parser.add_argument("--concurrency", type=int, default=8, help="clients sending commands at once")
    parser.add_argument("--engines", default="hub,pushpin", help="which nodes to run (hub,pushpin)")
    parser.add_argument("--crowd-nice", type=int, default=19,
                        help="niceness added to the followers' process (0: theirs competes with the servers')")
    parser.add_argument("--recover-seconds", type=int, default=None,
                        help="GRIP_RECOVER_SECONDS on the nodes (default: as shipped, 60): each follower sent nothing "
                             "this long asks Pushpin's next link, so idle followers cost requests")
    parser.add_argument("--settle", type=float, default=2,
                        help="seconds after the last command before the followers stop: later arrivals count as "
                             "not delivered")
    args = parser.parse_args()
    run(tuple(int(n) for n in args.followers.split(",")), args.games, args.rounds, args.concurrency,
        tuple(args.engines.split(",")), args.crowd_nice, args.recover_seconds, args.settle)


if __name__ == "__main__":
    main()
