"""Shared fixtures: a real redis-server on a free loopback port, flushed per test.

Under pytest-xdist (the README's test command runs `-n 4 --dist loadgroup`) each worker
process has its own session: its own redis-server, ports from its own range
(tests/support/processes.py) and its own tmp_path_factory directory.  The tests of a
module whose fixtures outlive one test (a module's gunicorn stack, a module's games) are
kept on one worker, in their order, so the stack starts once; every other test goes to
whichever worker is free.
"""
from __future__ import annotations

import compileall
from collections import Counter
from pathlib import Path

import pytest

from tests.support.processes import RedisServer

ROOT = Path(__file__).resolve().parents[1]
# What the processes a run starts import: the service, the games, the clients and benches, and the test
# helpers its workers load (tests/support/race.py in an RQ worker)
COMPILED = ("service", "rules", "events", "clients", "bench", "scripts", "tests/support")


@pytest.fixture(autouse=True, scope="session")
def kept_commitments(tmp_path_factory) -> Path:
    """Where the `cartel` CLI keeps the seed commitments it was shown (clients/cli.py KeptCommitments):
    a file of this run's, not the home directory of whoever runs the tests."""
    import os

    path = tmp_path_factory.mktemp("cartel") / "commitments.json"
    os.environ["CARTEL_COMMITMENTS"] = str(path)
    return path


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's sources once, before xdist starts its processes.

    With PYTHONDONTWRITEBYTECODE set (this machine sets it, and so CI's fresh clone has no __pycache__)
    every process a run starts compiled them again: the four test processes and each gunicorn, RQ worker
    and CLI the tests start, about 0.2 s a process.  compileall writes the bytecode whatever that
    variable says, into the git-ignored __pycache__ folders where Python itself puts it by default;
    every process then only reads it.  Up-to-date files are skipped, so a later run pays nothing."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller compiled before starting it
        return
    for folder in COMPILED:
        if (ROOT / folder).is_dir():
            compileall.compile_dir(ROOT / folder, quiet=2)  # a read-only checkout: nothing written, nothing said


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Name each test uniquely, and name its xdist group in its id, as `--dist loadgroup` reads it.

    pytest-xdist keys its work by node id: tests that share one (schemathesis's generated
    tests, one per operation, all carry the test function's id) would run once, not once
    each.  And xdist names the group by writing `item._nodeid`, which pytest 9.2 no longer
    reads, so without this the groups are silently ignored."""
    if not config.getoption("loadgroup", default=False):  # set on xdist's workers under --dist loadgroup only
        return
    counts, seen = Counter(item.nodeid for item in items), Counter()
    for item in items:
        nodeid = item.nodeid
        if counts[nodeid] > 1:
            seen[nodeid] += 1
            nodeid += f"[#{seen[nodeid]}]"
        group = _group(item)
        if group and "@" not in nodeid[nodeid.rfind("]") + 1:]:  # (an older pytest took xdist's own)
            nodeid += f"@{group}"
        if nodeid != item.nodeid:
            _rename(item, nodeid)


def _group(item: pytest.Item) -> str | None:
    """The item's xdist_group mark, else its module if a fixture of it outlives one test."""
    mark = item.get_closest_marker("xdist_group")
    if mark:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    fixtures = getattr(item, "_fixtureinfo", None)
    scopes = {d.scope for defs in (fixtures.name2fixturedefs.values() if fixtures else ()) for d in defs}
    return item.nodeid.split("::")[0] if scopes & {"module", "class", "package"} else None


def _rename(item: pytest.Item, nodeid: str) -> None:
    if hasattr(item, "_id"):  # pytest >= 9.2: the id is a structured NodeId
        from _pytest.nodeid import NodeId
        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server):
    client = redis_server.client()
    client.flushall()
    yield client
    client.close()
