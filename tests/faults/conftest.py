from __future__ import annotations

import pytest

from tests.support.processes import RedisServer, running_service


@pytest.fixture
def crashable_redis(tmp_path, request):
    """A redis-server of this test's own (AOF; appendfsync "always" unless the test is parametrised
    with another) that the test may SIGKILL and restart."""
    server = RedisServer(tmp_path / "redis", appendfsync=getattr(request, "param", "always"))
    (tmp_path / "redis").mkdir()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def live_server(redis_server, tmp_path_factory):
    """gunicorn and a worker on the shared test Redis, with the engine's test game loaded."""
    env = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE"}
    with running_service(redis_server.url, tmp_path_factory.mktemp("faults"), env) as web:
        yield web
