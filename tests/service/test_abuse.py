"""Abuse limits: rate limits per address and per token (429 + Retry-After), body and page-size caps, token strength."""
from __future__ import annotations

from rules import RULESETS
from service import create_app
from service.auth import hash_token
from tests.service.conftest import bearer
from tests.support.race import RACE


def limited_app(redis_server, **limits):
    return create_app({"REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, **limits}).test_client()


def test_per_address_limit_answers_429_with_retry_after(redis_server, redis_client):
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=5, RATE_LIMIT_PER_TOKEN=0)
    answers = [client.get("/v1/rulesets") for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
    refused = answers[-1]
    assert refused.mimetype == "application/problem+json" and "a minute from this address" in refused.json["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert answers[0].headers["RateLimit-Limit"] == "5" and answers[0].headers["RateLimit-Remaining"] == "4"
    assert client.get("/healthz").status_code == 200  # probes are never limited


def test_per_token_limit_is_counted_per_seat_token(redis_server, redis_client):
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=0, RATE_LIMIT_PER_TOKEN=3)
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
