from __future__ import annotations

import pytest

from rules import RULESETS
from service import create_app
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


@pytest.fixture
def app(redis_server, redis_client):
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, "TESTING": True,
                      **TEST_SETTINGS})
    yield app
    # an SSE test's follower may outlive its response: stop the hub's reader, or it polls the
    # session's redis-server for the rest of the run (and other tests count its commands)
    app.extensions["cartel"].hub.close()


@pytest.fixture
def client(app):
    return app.test_client()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def race(client):
    """A 2-seat race between two humans: (game id, [token0, token1])."""
    response = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, "seed": "r4ce-s33d"})
    assert response.status_code == 201, response.json
    body = response.json
    return body["id"], [seat["token"] for seat in body["seats"]]
