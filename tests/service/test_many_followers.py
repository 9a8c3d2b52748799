"""Hundreds of live followers on one node (issue 10): real gunicorn (the shipped gthread settings),
a real worker and Redis.  200 SSE followers over 20 games: every one receives the next move of its
game, other requests stay fast meanwhile, and Redis sees a bounded number of connections, not one
per follower (each process reads every followed stream through one feed hub, events/hub.py)."""
from __future__ import annotations

import threading
import time

import pytest
import requests

from clients.sdk import CartelClient, SeatSpec
from tests.support.processes import database, running_service

GAMES, PER_GAME = 20, 10


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    with running_service(database(redis_server.url, 11), tmp_path_factory.mktemp("followers"),
                         {"RATE_LIMIT_PER_ADDRESS": "0", "SSE_HEARTBEAT_SECONDS": "5"}) as web:
        yield web


class Follower(threading.Thread):
    """One SSE client: notes when it is connected and when it sees an event after `after`."""

    def __init__(self, url: str, game_id: str, after: int):
        super().__init__(daemon=True)
        self.url, self.game_id, self.after = url, game_id, after
        self.connected = threading.Event()
        self.received_at: float | None = None

    def run(self) -> None:
        with requests.get(f"{self.url}/v1/games/{self.game_id}/events", params={"after": self.after},
                          headers={"Accept": "text/event-stream"}, stream=True, timeout=60) as response:
            self.connected.set()
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    self.received_at = time.monotonic()
                    return


def test_two_hundred_followers_each_see_the_next_move_while_other_requests_stay_fast(server, redis_server):
    client = CartelClient(server.url)
    games = []
    for n in range(GAMES):
        created = client.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()], seed=f"follow-{n}")
        mover = next(client.with_token(t) for t in created.tokens.values()
                     if client.with_token(t).game(created.id).legal_moves)
        games.append((created.id, client.game(created.id).version, mover))
    followers = [Follower(server.url, game_id, version) for game_id, version, _ in games for _ in range(PER_GAME)]
    for follower in followers:
        follower.start()
    assert all(f.connected.wait(30) for f in followers)
    time.sleep(1)  # every stream has reached its wait

    started = time.monotonic()
    assert requests.get(f"{server.url}/v1/games/{games[0][0]}", timeout=10).status_code == 200
    read_took = time.monotonic() - started
    moved_at = {}
    for game_id, _, mover in games:
        game = mover.game(game_id)
        moved_at[game_id] = time.monotonic()
        mover.send(game_id, game.legal_moves[0], expected_version=game.version)
    for follower in followers:
        follower.join(30)

    late = [f for f in followers if f.received_at is None]
    assert not late, f"{len(late)} of {len(followers)} followers never saw the move"
    delays = sorted(f.received_at - moved_at[f.game_id] for f in followers)
    assert delays[-1] < 5, delays[-10:]  # generous for a loaded CI machine; bench/sse_fanout.py measures p99
    assert read_took < 2
    # one feed-hub reader per web process plus pooled connections: nowhere near one per follower
    clients = redis_server.client().client_list()
    assert len(clients) < 100, len(clients)
