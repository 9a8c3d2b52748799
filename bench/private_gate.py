"""What the private-table gate (service/api/invitations.py) costs a read: GET /v1/games/{id} with a seat token,
gate on against gate off, in alternating rounds in one process (Flask's test client, one redis-server).

Two rows: a public game this process has cached (the gate answers from its copy's visibility, no round trip)
and a private one (one pipelined lookup, then the credential check's read of the meta).  Not in `python3 -m
bench`'s list: run it on its own, `python3 -m bench.private_gate [--requests N] [--rounds R]`.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from service import create_app
from service.api.invitations import gate
from tests.support.processes import RedisServer
from tests.support.race import RACE


def per_request(client, game_id: str, token: str, requests: int) -> float:
    started = time.perf_counter()
    for _ in range(requests):
        client.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    return (time.perf_counter() - started) / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    server = RedisServer(Path(tempfile.mkdtemp(prefix="bench-gate-")))
    server.start()
    try:
        app = create_app({"REDIS_URL": server.url, "RULESETS": {"race": RACE}, "CONTRIBUTION_SECONDS": 0,
                          "RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 0})
        client = app.test_client()
        games = {visibility: client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2,
                                                           "visibility": visibility}).json
                 for visibility in ("public", "private")}
        before = app.before_request_funcs[None]
        ratios: dict[str, list[float]] = {name: [] for name in games}
        for round_ in range(args.rounds):
            for name, g in games.items():
                times = {}
                for gated in ((True, False) if round_ % 2 else (False, True)):  # alternate which goes first
                    if not gated:
                        before.remove(gate)
                    times[gated] = per_request(client, g["id"], g["seats"][0]["token"], args.requests)
                    if not gated:
                        before.append(gate)
                ratios[name].append(times[True] / times[False])
        for name, values in ratios.items():
            print(f"{name:<8} GET /v1/games/{{id}} with a seat token: gate on / off = {statistics.median(values):.3f} "
                  f"(median of {args.rounds} rounds of {args.requests})")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
