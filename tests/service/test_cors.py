"""A page on another origin can use the API (issue 10): preflight for a command with its headers,
the response headers a page reads exposed, and a configured origin list that refuses others."""
from __future__ import annotations

import pytest

from service import create_app
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

PAGE = "https://frontend.example"


@pytest.fixture
def restricted(redis_server, redis_client):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {"race": RACE}, "CORS_ORIGINS": PAGE})
    return app.test_client()


def test_a_command_preflight_allows_the_headers_a_command_needs(client):
    answer = client.options("/v1/games/abc/commands", headers={
        "Origin": PAGE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key"})
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == PAGE  # any origin: it is echoed
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert all(h in allowed for h in ("authorization", "content-type", "if-match", "idempotency-key"))
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]


def test_a_cross_origin_read_exposes_etag_and_the_rate_limit_headers(client):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2},
                          headers={"Origin": PAGE})
    assert created.status_code == 201 and created.headers["Access-Control-Allow-Origin"] == PAGE
    read = client.get(f"/v1/games/{created.json['id']}", headers={"Origin": PAGE})
    exposed = read.headers["Access-Control-Expose-Headers"]
    assert all(h in exposed for h in ("ETag", "Retry-After", "RateLimit-Remaining", "Location"))


def test_a_configured_origin_list_answers_only_those_origins(restricted):
    mine = restricted.get("/v1/rulesets", headers={"Origin": PAGE})
    other = restricted.get("/v1/rulesets", headers={"Origin": "https://elsewhere.example"})
    assert mine.headers["Access-Control-Allow-Origin"] == PAGE
    assert "Access-Control-Allow-Origin" not in other.headers
