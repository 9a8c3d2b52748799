from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.test_web_frontend import CHROMIUM_ARGS, SCREENSHOTS, find_chromium
from tests.support.processes import RedisServer, running_service

# Playwright's assertions wait up to 5 s by default: on a machine busy with the rest of the suite a page that
# is right takes longer than that to show it. A wait ends as soon as its condition holds, so a longer bound
# costs a passing test nothing; a page that is wrong still fails, later.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def e2e_redis(tmp_path_factory):
    """The end-to-end stack's own redis-server: the other tests flush theirs between tests, and this
    stack lives for the whole session (see live_server)."""
    server = RedisServer(tmp_path_factory.mktemp("e2e-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def live_server(e2e_redis, tmp_path_factory):
    """gunicorn (2 processes) and one RQ worker, as separate processes, on their own Redis: one stack
    per test process for every end-to-end module (each module once started its own, 5-10 s of the
    suite each), as a real deployment serves every client from one."""
    # the engine test game is loaded as a plugin ruleset beside the real games; and, unlike the other tests'
    # servers, the service's own contribution window: these clients (the SDK, the CLI, the page) send
    # their seats' entropy by themselves, as they do for anyone
    env = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE", "CONTRIBUTION_SECONDS": "30"}
    with running_service(e2e_redis.url, tmp_path_factory.mktemp("e2e"), env) as web:
        yield web


@pytest.fixture(scope="session")
def chromium():
    """One Chromium per test process, for every browser test it runs (a module-scoped one kept each browser
    module's tests on one process, one after another: tests/conftest.py groups by a module's fixtures)."""
    executable = find_chromium()
    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
