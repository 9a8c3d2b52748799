from __future__ import annotations

import pytest

from tests.support.processes import Gunicorn, Worker


@pytest.fixture(scope="module")
def live_server(redis_server, tmp_path_factory):
    """gunicorn (2 processes) and one RQ worker, as separate processes, on the shared test Redis."""
    logs = tmp_path_factory.mktemp("e2e")
    # the engine test game is loaded as a plugin ruleset beside the real games
    env = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE"}
    web = Gunicorn(redis_server.url, logs / "gunicorn.log", extra_env=env)
    worker = Worker(redis_server.url, logs / "worker.log", extra_env=env)
    web.start()
    worker.start()
    yield web
    worker.stop()
    web.stop()
