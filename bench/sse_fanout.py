"""SSE fan-out: how many live followers one node holds, and what they cost the rest of the API.

`python3 -m bench.sse_fanout [--followers 1000 --games 100 --rounds 5 --concurrency 8]` starts
redis-server and gunicorn as shipped (2 gthread processes, SSE_MAX_FOLLOWERS each), opens the
followers spread over the games, then plays a move in every game per round from `concurrency`
clients at once and reports: followers held, event delivery latency p50/p99 (command sent ->
event read by a follower), a command's p50/p99 while they are open, the Redis connections and
the servers' memory per follower.  It runs the node twice in the same run (issue 28): `hub`
(gunicorn alone: a thread per stream on the feed hub) and `pushpin` (Pushpin in front holding
the streams, gunicorn answering each with a hold and publishing after each append, as
`python -m service.serve` runs it).  The baseline is the hub node with 1 follower and 1 client.
"""
from __future__ import annotations

import argparse
import http.client
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from bench.common import Http, percentile, ratio, redis_only, report, verdict, web_env
from tests.support.processes import Gunicorn, Pushpin, stop_all


class Follower(threading.Thread):
    """One SSE client over a raw HTTP connection; records when each event id arrives."""

    def __init__(self, port: int, game_id: str, after: int):
        super().__init__(daemon=True)
        self.port, self.game_id, self.after = port, game_id, after
        self.connected = threading.Event()
        self.arrivals: dict[int, float] = {}
        self.failure: str | None = None

    def run(self) -> None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            connection.request("GET", f"/v1/games/{self.game_id}/events?after={self.after}",
                               headers={"Accept": "text/event-stream"})
            response = connection.getresponse()
        except OSError as error:
            self.failure = repr(error)
            return
        if response.status != 200:
            self.failure = f"HTTP {response.status}: {response.read(200)!r}"
            return
        self.connected.set()
        while True:
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                self.arrivals[int(line[4:])] = time.monotonic()


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
def node(tmp: Path, engine: str):
    """redis-server and gunicorn as shipped, with Pushpin in front for `pushpin`; yields (redis, url, port,
    the server pids whose memory counts)."""
    with redis_only(tmp) as redis_server:
        pushpin = Pushpin(tmp, backend="") if engine == "pushpin" else None
        web = Gunicorn(redis_server.url, tmp / "gunicorn.log", workers=2,
                       extra_env=web_env(rate_limits=False, **(pushpin.env if pushpin else {})))
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
            concurrency: int, pids=lambda: []) -> dict:
    per_game = max(1, followers // len(games))
    http = Http(url)
    clients = []
    for game_id, _ in games[:max(1, followers // per_game)]:
        version = http.call("GET", f"/v1/games/{game_id}")[1]["version"]
        clients += [Follower(port, game_id, version) for _ in range(per_game)]
    memory_before = rss_kb(pids())
    for client in clients[:followers]:
        client.start()
    deadline = time.monotonic() + 60
    held = sum(c.connected.wait(max(0.0, deadline - time.monotonic())) for c in clients[:followers])
    failures = [c.failure for c in clients[:followers] if c.failure]
    if failures:
        print(f"{len(failures)} followers failed to connect, e.g. {failures[0]}")
    # Pushpin asks a new channel's next link once, 1 s after it subscribes (to catch what was published
    # while the subscription spread); moves made during that update wait for it. Followers idle a moment first.
    time.sleep(3)
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
    time.sleep(2)
    if not sent:
        raise RuntimeError("no command was accepted: nothing to deliver")
    delays = [(arrived - sent[(c.game_id, v)]) * 1000 for c in clients[:followers]
              for v, arrived in c.arrivals.items() if (c.game_id, v) in sent]
    # every follower of a moved game should see each of its game's events sent after it connected
    expected = sum(1 for c in clients[:followers] for (g, _) in sent if g == c.game_id)
    return {"followers": followers, "held": held, "deliveries": len(delays), "expected_deliveries": expected,
            "server_kb_per_follower": round(memory_per_follower, 1),
            "delivery_p50_ms": percentile(delays, 50) if delays else None,
            "delivery_p99_ms": percentile(delays, 99) if delays else None,
            "command_p50_ms": percentile(command_ms, 50), "command_p99_ms": percentile(command_ms, 99)}


def redis_connections(redis_server) -> int:
    return len(redis_server.client().client_list())


def run(followers: int = 1000, games: int = 100, rounds: int = 5, concurrency: int = 8) -> dict:
    rows = []
    for engine, count in (("hub", 1), ("hub", followers), ("pushpin", followers)):
        with tempfile.TemporaryDirectory() as tmp, node(Path(tmp), engine) as (redis_server, url, port, pids):
            http = Http(url)
            created = []
            for n in range(games if count > 1 else 1):
                status, body = http.call("POST", "/v1/games", {"ruleset": "kingpin", "seed": f"fan-{n}",
                                                               "seats": [{"kind": "human"}, {"kind": "human"}]})
                created.append((body["id"], {s["seat"]: s["token"] for s in body["seats"]}))
            row = {"streams": engine, **measure(port, url, created, count, rounds, concurrency if count > 1 else 1,
                                                 pids)}
            row["redis_connections"] = redis_connections(redis_server)
            rows.append(row)
    base, hub, push = rows
    for row in rows:
        row["command_p99_vs_1"] = ratio(row["command_p99_ms"], base["command_p99_ms"])
    for key in ("delivery_p50_ms", "delivery_p99_ms", "command_p50_ms", "command_p99_ms", "server_kb_per_follower"):
        push[f"{key}_vs_hub"] = ratio(push[key], hub[key]) if push[key] and hub[key] else None
    notes = [f"targets: {followers} followers held (hub {verdict(hub['held'], followers)}, pushpin "
             f"{verdict(push['held'], followers)}); every follower of a moved game sees each move (hub "
             f"{verdict(hub['deliveries'], hub['expected_deliveries'])}, pushpin "
             f"{verdict(push['deliveries'], push['expected_deliveries'])}); command p99 under load no worse than "
             f"1.5x the 1-follower run (pushpin {verdict(push['command_p99_vs_1'] or 1e9, 1.5, higher_is_better=False)})",
             f"with the followers open, {concurrency} clients send commands at once (the 1-follower baseline: one "
             "client); a command's time is its POST, acknowledged after the append (and, with Pushpin, its publish)",
             "gunicorn as shipped: 2 gthread processes; hub: each follower waits on its process's feed hub; pushpin: "
             "Pushpin holds them, commands go through it too; server memory: gunicorn (+ Pushpin's services) RSS "
             "growth while the followers connect, per follower",
             "the load generator is a thread per follower (at 1,000 the client's own cost is on the same 2 cores)"]
    return report("sse_fanout", rows, notes=notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=8, help="clients sending commands at once")
    args = parser.parse_args()
    run(args.followers, args.games, args.rounds, args.concurrency)


if __name__ == "__main__":
    main()
