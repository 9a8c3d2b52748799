"""The RQ queues live in their own Redis (QUEUE_REDIS_URL).  When it is down, a command is still
appended and answered with its events (200, not a 503 that would make a client send it again):
the failure to schedule is logged and counted, and the sweeper enqueues the bot move or the clock
once the queue is back."""
from __future__ import annotations

import time

import pytest
from prometheus_client import REGISTRY
from rq import SimpleWorker

from events.keys import BOT_WAIT_INDEX, CLOCK_INDEX
from rules import RULESETS
from service import create_app, jobs
from tests.service.conftest import bearer
from tests.support.processes import RedisServer, free_port, wait_until
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


@pytest.fixture
def queue_down(tmp_path):
    """A queue Redis that is not there yet (nothing listens on its port): `.start()` brings it up."""
    (tmp_path / "queue").mkdir()
    server = RedisServer(tmp_path / "queue", port=free_port())
    yield server
    server.stop()


@pytest.fixture
def app(redis_server, redis_client, queue_down, monkeypatch):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "QUEUE_REDIS_URL": queue_down.url, "TESTING": True,
                      "RULESETS": {**RULESETS, "race": RACE}})
    monkeypatch.setattr(jobs, "_engine", app.extensions["cartel"])  # the jobs run here, on this engine
    yield app
    app.extensions["cartel"].hub.close()


def schedule_failures() -> float:
    return REGISTRY.get_sample_value("cartel_after_append_failures_total", {"step": "schedule"}) or 0.0


def run_queued_jobs(app) -> None:
    queue = app.extensions["cartel"].queue
    SimpleWorker([queue], connection=queue.connection).work(burst=True, logging_level="WARNING")


def create(client, seats: list[dict], **extra) -> tuple[str, list[str]]:
    response = client.post("/v1/games", json={"ruleset": "race", "seats": seats, "options": {"goal": 1000}, **extra})
    assert response.status_code == 201, response.json
    return response.json["id"], [seat.get("token") for seat in response.json["seats"]]


def test_a_command_whose_bot_move_cannot_be_enqueued_answers_200_and_the_bot_moves_once_the_queue_is_back(
        app, redis_client, queue_down):
    client = app.test_client()
    game_id, tokens = create(client, [{"kind": "human"}, {"kind": "bot"}])
    version = client.get(f"/v1/games/{game_id}").json["version"]
    failures = schedule_failures()
    response = client.post(f"/v1/games/{game_id}/commands", json={"type": "Pass"}, headers=bearer(tokens[0]))
    assert response.status_code == 200, response.json  # the move is stored: saying otherwise invites a resend
    assert [e["type"] for e in response.json["events"]] == ["TurnPassed"]
    assert response.json["version"] == version + 1
    assert client.get(f"/v1/games/{game_id}/events").json["events"][-1]["type"] == "TurnPassed"
    assert schedule_failures() == failures + 1
    assert redis_client.zscore(BOT_WAIT_INDEX, game_id) is not None  # where the sweeper looks

    queue_down.start()  # the queue is back
    runner, queue = app.extensions["cartel"].runner, app.extensions["cartel"].queue
    assert jobs.sweep(runner, queue, stalled_after_ms=0) == 1
    run_queued_jobs(app)
    feed = client.get(f"/v1/games/{game_id}/events?after={version + 1}").json["events"]
    assert feed and feed[0]["actor"] == "bot:1"


def test_a_command_whose_clock_cannot_be_scheduled_answers_200_and_the_clock_runs_once_the_queue_is_back(
        app, redis_client, queue_down):
    client = app.test_client()
    game_id, tokens = create(client, [{"kind": "human"}, {"kind": "human"}], clock={"move_seconds": 1})
    response = client.post(f"/v1/games/{game_id}/commands", json={"type": "Pass"}, headers=bearer(tokens[0]))
    assert response.status_code == 200, response.json
    version = response.json["version"]
    deadline = redis_client.zscore(CLOCK_INDEX, game_id)
    assert deadline is not None  # seat 1's clock, which no job watches yet

    queue_down.start()
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.05)
    runner, queue = app.extensions["cartel"].runner, app.extensions["cartel"].queue
    assert jobs.sweep(runner, queue, stalled_after_ms=0) == 1
    run_queued_jobs(app)
    wait_until(lambda: client.get(f"/v1/games/{game_id}/events?after={version}").json["events"], timeout=10,
               what="seat 1 timed out")
    actors = [e["actor"] for e in client.get(f"/v1/games/{game_id}/events?after={version}").json["events"]]
    assert "clock:1" in actors
