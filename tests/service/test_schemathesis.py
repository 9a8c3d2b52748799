"""schemathesis against the committed openapi.yaml: generated requests to every operation
get no 5xx and no response that violates the spec.  Fixed seed, bounded count: the default run (CI) sends
EXAMPLES_PER_OPERATION cases to each operation (schemathesis's coverage phase, its boundary and wrong-type
cases, comes first in each).  A deeper run on demand sets the count:
`CARTEL_SCHEMATHESIS_EXAMPLES=600 python3 -m pytest -n 4 tests/service/test_schemathesis.py`.

Each operation's test has its own app over the worker's redis-server, so the operations spread over every
xdist worker (a module-scoped app kept all 41 on one worker: the suite's longest chain, 7 minutes under load)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from service import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
# about 1,500 requests a run (operations without parameters have few distinct cases)
EXAMPLES_PER_OPERATION = int(os.environ.get("CARTEL_SCHEMATHESIS_EXAMPLES", 60))
# A history upload is JSON Lines text: send generated strings as they are.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@pytest.fixture
def api_app(redis_server, redis_client):
    app = create_app({"REDIS_URL": redis_server.url, "RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 0})
    # one real game so that generated ids sometimes hit something
    app.test_client().post("/v1/games", json={"ruleset": "kingpin", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    return app


# Loaded eagerly from the committed file (not through schemathesis.pytest.from_fixture: its lazy
# loader writes pytest's private Node._nodeid, which pytest 9.2 removed); each call goes straight
# into the WSGI app, no network.
schema = schemathesis.openapi.from_path(SPEC)


def conforms(case, app) -> None:
    excluded = [
        # Schema-valid is not rules-valid: a 1-seat Kingpin game is well-formed JSON and still a 422.
        schemathesis.checks.positive_data_acceptance,
    ]
    if case.operation.path == "/v1/replays":
        # The body is JSON Lines *text*: a generated "non-string" arrives as text all the same, and a
        # history that does not verify is a 200 with valid=false, by design.
        excluded.append(schemathesis.checks.negative_data_rejection)
    if case.operation.path == "/readyz":
        excluded.append(schemathesis.checks.not_a_server_error)  # 503 is its documented "not ready" (no worker here)
    case.call_and_validate(app=app, excluded_checks=excluded)


SETTINGS = {"derandomize": True, "deadline": None, "suppress_health_check": list(HealthCheck)}


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, **SETTINGS)
def test_every_operation_conforms_and_never_fails_with_5xx(case, api_app):
    conforms(case, api_app)


def test_an_operation_with_a_body_gets_its_whole_budget(api_app):
    """The run is not silently thin: game creation, generated as the tests above generate it, is sent
    EXAMPLES_PER_OPERATION distinct requests, each answered without a 5xx."""
    from hypothesis import given

    sent = []

    @given(case=schema["/v1/games"]["POST"].as_strategy())
    @settings(max_examples=EXAMPLES_PER_OPERATION, **SETTINGS)
    def create(case):
        sent.append(repr(case.body))
        conforms(case, api_app)

    create()
    assert len(sent) >= EXAMPLES_PER_OPERATION and len(set(sent)) >= EXAMPLES_PER_OPERATION // 2, len(sent)
