"""The SDK and the CLI wait out 429 and 503 answers with Retry-After, against a real rate-limited server.

The server here has its own redis-server (the 503 test stops and restarts it) and
allows each seat token one request a second, with no burst to speak of.
"""
from __future__ import annotations

import threading
import time

import pytest
import requests

from clients.cli import main
from clients.sdk import CartelClient, RateLimited, SeatSpec
from tests.support.processes import RedisServer, running_service

LIMITS = {"RATE_LIMIT_PER_TOKEN": "60", "RATE_LIMIT_BURST_SECONDS": "1"}


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("throttle-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(own_redis, tmp_path_factory):
    with running_service(own_redis.url, tmp_path_factory.mktemp("throttle-server"), LIMITS, web_workers=1) as web:
        yield web


def recording(client: CartelClient) -> list[tuple[str, int, str | None]]:
    """Record (method, status, Idempotency-Key) of every HTTP attempt the client makes."""
    calls: list[tuple[str, int, str | None]] = []
    real = client.session.request

    def request(method, url, **kwargs):
        response = real(method, url, **kwargs)
        calls.append((method, response.status_code, (kwargs.get("headers") or {}).get("Idempotency-Key")))
        return response

    client.session.request = request
    return calls


def test_sdk_waits_out_429_and_keeps_the_idempotency_key(server):
    with CartelClient(server.url) as anyone:
        created = anyone.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()], seed="throttled")
        player = next(anyone.with_token(t) for t in created.tokens.values()
                      if anyone.with_token(t).game(created.id).legal_moves)
        calls = recording(player)
        game = player.game(created.id)  # spends this second's request: the send is refused at first
        started = time.monotonic()
        result = player.send(created.id, game.legal_moves[0], expected_version=game.version)
        waited = time.monotonic() - started
    posts = [c for c in calls if c[0] == "POST"]
    assert [status for _, status, _ in posts][0] == 429 and posts[-1][1] == 200
    assert len({key for _, _, key in posts}) == 1 and posts[0][2] == player.last_idempotency_key
    assert not result.duplicate and result.version == game.version + len(result.events)
    assert 0.5 <= waited < 5  # about one interval (1 s), not a minute


def test_sdk_gives_up_when_the_wait_is_over_its_bound(server):
    with CartelClient(server.url) as anyone:
        created = anyone.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()])
    impatient = CartelClient(server.url, created.tokens[0], max_retry_wait=0.5)
    impatient.game(created.id)
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        impatient.game(created.id)  # Retry-After: 1 is more than it is willing to wait
    assert caught.value.status == 429 and caught.value.retry_after == 1 and time.monotonic() - started < 0.5
    assert "requests a minute from this token" in str(caught.value)
    no_retries = CartelClient(server.url, created.tokens[0], throttle_retries=0)
    with pytest.raises(RateLimited):
        no_retries.game(created.id)
        no_retries.game(created.id)


def test_cli_move_is_retried_after_429(server, capsys, monkeypatch):
    with CartelClient(server.url) as anyone:
        created = anyone.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()], seed="cli-throttled")
        token = next(t for t in created.tokens.values() if anyone.with_token(t).game(created.id).legal_moves)
    monkeypatch.setenv("CARTEL_URL", server.url)
    monkeypatch.setenv("CARTEL_TOKEN", token)
    posts: list[tuple[int, str | None]] = []
    real = requests.Session.request

    def request(session, method, url, **kwargs):
        response = real(session, method, url, **kwargs)
        if method == "POST":
            posts.append((response.status_code, (kwargs.get("headers") or {}).get("Idempotency-Key")))
        return response

    monkeypatch.setattr(requests.Session, "request", request)
    # `--pick` reads the game, then posts: the post comes within the same second and is refused at first
    code = main(["move", created.id, "--pick", "1", "--idempotency-key", "cli-throttled-1"])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("sent ") and err == ""
    assert posts[0] == (429, "cli-throttled-1") and posts[-1] == (200, "cli-throttled-1")
    sent = out.split("sent ", 1)[1].split(" -> ", 1)[0].split()
    code = main(["move", created.id, *sent, "--idempotency-key", "cli-throttled-1"])
    out, err = capsys.readouterr()  # the same key again: the original answer, nothing appended
    assert code == 0 and "duplicate" in out, err


def test_sdk_waits_out_503_while_redis_restarts(server, own_redis):
    with CartelClient(server.url) as spectator:
        created = spectator.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()])
        own_redis.stop()
        restarter = threading.Timer(1.5, own_redis.start)
        restarter.start()
        try:
            calls = recording(spectator)
            game = spectator.game(created.id)
        finally:
            restarter.join()
    assert game.id == created.id
    assert 503 in [status for _, status, _ in calls] and calls[-1][1] == 200
