from __future__ import annotations

import pytest

from tests.support.processes import Gunicorn, Worker


@pytest.fixture(scope="module")
def live_server(redis_server, tmp_path_factory):
    """gunicorn (2 processes) and one RQ worker, as separate processes, on the shared test Redis."""
    logs = tmp_path_factory.mktemp("e2e")
    web = Gunicorn(redis_server.url, logs / "gunicorn.log")
    worker = Worker(redis_server.url, logs / "worker.log")
    web.start()
    worker.start()
    yield web
    worker.stop()
    web.stop()
