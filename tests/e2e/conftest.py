from __future__ import annotations

import pytest

from tests.support.processes import running_service


@pytest.fixture(scope="module")
def live_server(redis_server, tmp_path_factory):
    """gunicorn (2 processes) and one RQ worker, as separate processes, on the shared test Redis."""
    # the engine test game is loaded as a plugin ruleset beside the real games
    env = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE"}
    with running_service(redis_server.url, tmp_path_factory.mktemp("e2e"), env) as web:
        yield web
