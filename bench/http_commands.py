"""Commands through HTTP on gunicorn vs a trivial endpoint of the same app, same run.

Each client thread owns a Kingpin game between two human seats and plays
RollDice / EndTurn for whichever seat is awaited: every request is a real
command (auth, load, decide, compare-and-append, enqueue).  The baseline is
GET /healthz on the same gunicorn with the same client threads.
"""
from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from bench.common import Http, report, stack, summarise


def create_game(http: Http, seed: str) -> tuple[str, list[str]]:
    status, body = http.call("POST", "/v1/games", {"ruleset": "kingpin", "seed": seed,
                                                   "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert status == 201, body
    return body["id"], [seat["token"] for seat in body["seats"]]


class KingpinPlayer:
    """Alternates RollDice and EndTurn for the awaited seat, tracking the version from answers."""

    def __init__(self, http: Http, game_id: str, tokens: list[str]):
        self.http, self.game_id, self.tokens = http, game_id, tokens
        _, game = http.call("GET", f"/v1/games/{game_id}")
        self.seat = int(next(iter(game["awaiting"])))
        self.rolled = False

    def step(self) -> None:
        command = {"type": "EndTurn"} if self.rolled else {"type": "RollDice"}
        status, body = self.http.call("POST", f"/v1/games/{self.game_id}/commands", command,
                                      {"Authorization": f"Bearer {self.tokens[self.seat]}"})
        if status != 200:
            raise RuntimeError(f"{command} -> {status} {body}")
        if self.rolled:  # the answer's events say whose turn starts next
            self.seat = next(e["data"]["seat"] for e in body["events"] if e["type"] == "TurnStarted")
        self.rolled = not self.rolled


def load(base_url: str, threads: int, seconds: float, make_step) -> dict:
    latencies: list[list[float]] = [[] for _ in range(threads)]
    stop = threading.Event()
    steps = [make_step(Http(base_url), n) for n in range(threads)]

    def run(n: int) -> None:
        step, own = steps[n], latencies[n]
        while not stop.is_set():
            start = time.perf_counter()
            step()
            own.append(time.perf_counter() - start)

    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    return summarise([x for own in latencies for x in own], time.perf_counter() - started)


def health_step(http: Http, _n: int):
    return lambda: http.call("GET", "/healthz")


def command_step(http: Http, n: int):
    game_id, tokens = create_game(http, f"bench-{n}")
    player = KingpinPlayer(http, game_id, tokens)
    return player.step


def run(threads: int = 8, seconds: float = 5.0) -> dict:
    with tempfile.TemporaryDirectory() as tmp, stack(Path(tmp)) as (_, web):
        load(web.url, threads, 1.0, health_step)  # warm up
        baseline = load(web.url, threads, seconds, health_step)
        commands = load(web.url, threads, seconds, command_step)
    rows = [
        {"what": "GET /healthz (baseline)", **baseline, "ratio": 1.0},
        {"what": "Kingpin command (RollDice/EndTurn)", **commands,
         "ratio": round(commands["per_second"] / baseline["per_second"], 3)},
    ]
    return report("http_commands", rows, {"threads": threads, "seconds": seconds,
                                          "note": "ratio = throughput / baseline throughput, same gunicorn, same run"})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    run(args.threads, args.seconds)
