"""SSE fan-out: how many live followers one node holds, and what they cost the rest of the API.

`python3 -m bench.sse_fanout [--followers 1000 --games 100 --rounds 5 --concurrency 8]` starts
redis-server and gunicorn as shipped (2 gthread processes, SSE_MAX_FOLLOWERS each), opens the
followers spread over the games, then plays a move in every game per round from `concurrency`
clients at once and reports: followers held, event delivery latency p50/p99 (command sent ->
event read by a follower), a command's p50/p99 while they are open, and the Redis connections.
The baseline is the same run with 1 follower and 1 client.
"""
from __future__ import annotations

import argparse
import http.client
import tempfile
import threading
import time
from pathlib import Path

from bench.common import Http, percentile, ratio, report, stack, verdict, web_env


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


def measure(port: int, url: str, games: list[tuple[str, dict]], followers: int, rounds: int,
            concurrency: int) -> dict:
    per_game = max(1, followers // len(games))
    http = Http(url)
    clients = []
    for game_id, _ in games[:max(1, followers // per_game)]:
        version = http.call("GET", f"/v1/games/{game_id}")[1]["version"]
        clients += [Follower(port, game_id, version) for _ in range(per_game)]
    for client in clients[:followers]:
        client.start()
    deadline = time.monotonic() + 60
    held = sum(c.connected.wait(max(0.0, deadline - time.monotonic())) for c in clients[:followers])
    failures = [c.failure for c in clients[:followers] if c.failure]
    if failures:
        print(f"{len(failures)} followers failed to connect, e.g. {failures[0]}")
    time.sleep(1)
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
    return {"followers": followers, "held": held, "deliveries": len(delays),
            "delivery_p50_ms": percentile(delays, 50) if delays else None,
            "delivery_p99_ms": percentile(delays, 99) if delays else None,
            "command_p50_ms": percentile(command_ms, 50), "command_p99_ms": percentile(command_ms, 99)}


def redis_connections(redis_server) -> int:
    return len(redis_server.client().client_list())


def run(followers: int = 1000, games: int = 100, rounds: int = 5, concurrency: int = 8) -> dict:
    rows = []
    for count in (1, followers):
        with tempfile.TemporaryDirectory() as tmp, \
                stack(Path(tmp), web_env=web_env(rate_limits=False)) as (redis_server, web):
            http = Http(web.url)
            created = []
            for n in range(games if count > 1 else 1):
                status, body = http.call("POST", "/v1/games", {"ruleset": "kingpin", "seed": f"fan-{n}",
                                                               "seats": [{"kind": "human"}, {"kind": "human"}]})
                created.append((body["id"], {s["seat"]: s["token"] for s in body["seats"]}))
            row = measure(web.port, web.url, created, count, rounds, concurrency if count > 1 else 1)
            row["redis_connections"] = redis_connections(redis_server)
            rows.append(row)
    base = rows[0]
    for row in rows:
        row["command_p99_vs_1"] = ratio(row["command_p99_ms"], base["command_p99_ms"])
    big = rows[-1]
    notes = [f"targets: {followers} followers held ({verdict(big['held'], followers)}), delivery p99 < 1000 ms "
             f"({verdict(big['delivery_p99_ms'] or 1e9, 1000, higher_is_better=False)}), command p99 < 100 ms "
             f"({verdict(big['command_p99_ms'], 100, higher_is_better=False)})",
             f"with the followers open, {concurrency} clients send commands at once (the 1-follower baseline: one "
             "client); a command's time is its POST, acknowledged after the append",
             "gunicorn as shipped: 2 gthread processes; each follower waits on its process's feed hub"]
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
