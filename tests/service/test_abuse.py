"""Abuse limits: rate limits per address and per token (429 + Retry-After), body and page-size caps, token strength."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from rules import RULESETS
from service import create_app
from service.auth import hash_token
from tests.service.conftest import bearer
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


def limited_app(redis_server, **limits):
    return create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, **limits}).test_client()


def test_per_address_limit_answers_429_with_retry_after(redis_server, redis_client):
    # 6 a minute (one every 10 s) with a burst of 5: five at once, then refused until the next is due
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=6, RATE_LIMIT_PER_TOKEN=0, RATE_LIMIT_BURST_SECONDS=50)
    answers = [client.get("/v1/rulesets") for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
    refused = answers[-1]
    assert refused.mimetype == "application/problem+json" and "a minute from this address" in refused.json["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 10  # the next request is due within one interval
    assert answers[0].headers["RateLimit-Limit"] == "5" and answers[0].headers["RateLimit-Remaining"] == "4"
    assert answers[0].headers["RateLimit-Policy"] == "5;w=50"  # 5 at once, refilled over 50 s: 6 a minute
    assert refused.headers["RateLimit-Remaining"] == "0" and 40 <= int(refused.headers["RateLimit-Reset"]) <= 51
    assert client.get("/healthz").status_code == 200  # probes are never limited


def test_a_client_just_over_its_rate_waits_one_interval_not_a_window(redis_server, redis_client):
    # 60 a minute: the fixed-window limiter this replaced told such a client to wait up to 60 s
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=60, RATE_LIMIT_PER_TOKEN=0, RATE_LIMIT_BURST_SECONDS=2)
    answers = [client.get("/v1/rulesets") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 429, 429]
    retry = int(answers[-1].headers["Retry-After"])
    assert 1 <= retry <= 2
    time.sleep(retry)
    assert client.get("/v1/rulesets").status_code == 200  # and after that wait it does get through


def test_a_client_at_its_rate_is_never_refused(redis_server, redis_client):
    # 600 a minute = one every 100 ms, burst 1 s; a paced client sends exactly that for 4 s,
    # then twice as fast: only then is it refused, each time for about one interval
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=600, RATE_LIMIT_PER_TOKEN=0, RATE_LIMIT_BURST_SECONDS=1)
    started = time.monotonic()
    statuses = []
    for n in range(40):
        time.sleep(max(0.0, started + n * 0.1 - time.monotonic()))  # an absolute schedule: no drift
        statuses.append(client.get("/v1/rulesets").status_code)
    assert statuses == [200] * 40
    # then faster than its rate: refused, each time for about one interval. Back to back, as fast as this
    # machine answers (on a loaded one a request may take longer than 100 ms: the rate is counted from when
    # requests arrive, so the bound is the rate over the time they actually took, plus the burst)
    started, fast = time.monotonic(), []
    while time.monotonic() - started < 3 or not any(a.status_code == 429 for a in fast):
        fast.append(client.get("/v1/rulesets"))
        time.sleep(0.01)  # at most 100 a second: well over its rate of 10, whatever a request costs here
        assert time.monotonic() - started < 120, "never refused"
    elapsed = time.monotonic() - started
    refused = [a for a in fast if a.status_code == 429]
    accepted = len(fast) - len(refused)
    assert refused and all(a.headers["Retry-After"] == "1" for a in refused)
    assert accepted <= elapsed / 0.1 + 10 + 2  # the rate over the time taken, plus the burst it had saved up


def test_the_limit_is_atomic_under_concurrent_requests(redis_server, redis_client):
    # 6 a minute with a burst of 5: however many arrive at once, exactly 5 get through
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE},
                      "RATE_LIMIT_PER_ADDRESS": 6, "RATE_LIMIT_PER_TOKEN": 0, "RATE_LIMIT_BURST_SECONDS": 50})
    barrier = threading.Barrier(24)

    def one_request(_):
        with app.test_client() as client:
            barrier.wait()
            return client.get("/v1/rulesets").status_code

    with ThreadPoolExecutor(24) as pool:
        statuses = list(pool.map(one_request, range(24)))
    assert sorted(statuses) == [200] * 5 + [429] * 19


def test_per_token_limit_is_counted_per_seat_token(redis_server, redis_client):
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=0, RATE_LIMIT_PER_TOKEN=6, RATE_LIMIT_BURST_SECONDS=30)
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    first, second = (s["token"] for s in created["seats"])
    url = f"/v1/games/{created['id']}"
    assert [client.get(url, headers=bearer(first)).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert client.get(url, headers=bearer(second)).status_code == 200  # another token has its own budget
    assert client.get(url).status_code == 200  # and so do spectators (no token: the address limit, off here)


def test_refused_commands_append_nothing(redis_server, redis_client):
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=0, RATE_LIMIT_PER_TOKEN=1)
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    token = created["seats"][0]["token"]
    url = f"/v1/games/{created['id']}/commands"
    assert client.post(url, json={"type": "Pass"}, headers=bearer(token)).status_code == 200
    assert client.post(url, json={"type": "Pass"}, headers=bearer(token)).status_code == 429
    assert client.get(f"/v1/games/{created['id']}").json["version"] == created["version"] + 1


def test_page_sizes_are_capped(client, race):
    game_id, _ = race
    assert client.get("/v1/games?limit=101").status_code == 400
    assert client.get(f"/v1/games/{game_id}/events?limit=501").status_code == 400
    assert client.get(f"/v1/games/{game_id}/events?limit=500").status_code == 200


def test_tokens_carry_256_bits_and_are_stored_only_hashed(client, redis_client):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    token = created["seats"][0]["token"]
    assert len(token) == 43  # 32 random bytes, url-safe base64 without padding
    stored = redis_client.hgetall(f"g:{{{created['id']}}}:meta")
    assert stored["tok:0"] == hash_token(token) and token not in str(stored)
