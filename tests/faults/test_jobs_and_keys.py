"""Clock jobs that fire early or late, and one Idempotency-Key sent by many callers at once."""
from __future__ import annotations

import json
import threading

import pytest
import requests

from rules import RULESETS
from service import jobs
from service.wiring import build_engine
from tests.support.race import RACE


@pytest.fixture
def engine(redis_server, redis_client, monkeypatch):
    built = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})
    monkeypatch.setattr(jobs, "_engine", built)  # the jobs run in this process, on this engine
    return built


def clocked_game(engine, seconds: int = 30):
    return engine.runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000},
                                     clock={"move_seconds": seconds, "timeouts_before_bot": 5})


def test_a_stale_clock_job_does_nothing(engine):
    game = clocked_game(engine)
    assert jobs.expire_clock(game.id, 0, game.deadlines[0] - 1) == "stale"  # not this stretch's deadline
    assert engine.runner.load(game.id).version == game.version


def test_a_clock_job_that_fires_early_never_times_the_seat_out_before_its_deadline(engine):
    game = clocked_game(engine)
    deadline = game.deadlines[0]
    assert deadline - engine.runner.clock() > 20_000
    assert jobs.expire_clock(game.id, 0, deadline) == "rescheduled"  # RQ woke it ~30 s early
    assert engine.runner.load(game.id).version == game.version
    scheduled = engine.queue.scheduled_job_registry.get_job_ids()
    rescheduled = [job for job in scheduled if job.startswith(f"clock-{game.id}-0-{deadline}-e")]
    assert len(rescheduled) == 1  # an id of its own: RQ deletes the running job's id when it ends


def test_a_clock_job_a_moment_early_waits_out_the_rest(engine, monkeypatch):
    game = clocked_game(engine)
    deadline = game.deadlines[0]
    now, slept = [deadline - 300], []  # woken 0.3 s early (RQ schedules in whole seconds)

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += int(seconds * 1000)

    monkeypatch.setattr(engine.runner, "clock", lambda: now[0])
    monkeypatch.setattr(jobs.time, "sleep", sleep)
    assert jobs.expire_clock(game.id, 0, deadline) == "timed out"
    assert slept == [0.3]
    clocked = [e for e in engine.store.read(game.id, game.version) if e.actor == "clock:0"]
    assert clocked and all(e.at >= deadline for e in clocked)


def test_one_idempotency_key_sent_concurrently_appends_once_and_answers_alike(live_server):
    created = requests.post(live_server.url + "/v1/games", json={"ruleset": "race",
                                                                 "seats": [{"kind": "human"}] * 2}).json()
    token = created["seats"][0]["token"]
    answers, barrier = [], threading.Barrier(20)

    def send() -> None:
        barrier.wait()
        response = requests.post(f"{live_server.url}/v1/games/{created['id']}/commands", json={"type": "Roll"},
                                 headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "same-key"})
        answers.append((response.status_code, response.json()))

    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {status for status, _ in answers} == {200}
    same = {json.dumps(body["events"], sort_keys=True) for _, body in answers}
    assert len(same) == 1  # every caller got the same answer
    assert sum(not body["duplicate"] for _, body in answers) == 1
    feed = requests.get(f"{live_server.url}/v1/games/{created['id']}/events").json()
    assert [e["type"] for e in feed["events"]].count("DieRolled") == 1
