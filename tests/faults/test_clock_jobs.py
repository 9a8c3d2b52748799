"""Clock jobs through a real RQ worker (SimpleWorker in burst mode, with its scheduler, no sweeper
unless the test runs one): a clock released early still lands at its deadline, and a clock that
fails on every attempt is given up, counted and logged once.

Not in test_jobs_and_keys.py: that module runs a live worker on the same Redis, which would take
these tests' jobs."""
from __future__ import annotations

import logging
import time

import pytest
from prometheus_client import REGISTRY
from rq import SimpleWorker
from rq.job import Job

from rules import RULESETS
from service import jobs
from service.wiring import build_engine
from tests.support.race import RACE, Race


@pytest.fixture
def engine(redis_server, redis_client, monkeypatch):
    built = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})
    monkeypatch.setattr(jobs, "_engine", built)  # the worker here runs the jobs on this engine
    return built


def clocked_game(engine, seconds: int):
    return engine.runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000},
                                     clock={"move_seconds": seconds, "timeouts_before_bot": 5})


def run_worker_until(engine, done, timeout: float):
    """A real RQ worker (SimpleWorker, with its scheduler, no sweeper) in burst mode, again and again
    until `done()` or `timeout` seconds; returns the time.time() at which `done()` first held."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        SimpleWorker([engine.queue], connection=engine.queue.connection).work(burst=True, with_scheduler=True,
                                                                               logging_level="WARNING")
        if done():
            return time.time()
        time.sleep(0.05)
    raise TimeoutError(f"not done within {timeout} s")


def test_a_clock_released_early_by_a_skewed_scheduler_still_times_the_seat_out_at_its_deadline(engine):
    # The worker whose scheduler releases clock jobs runs 3.5 s ahead of the web node that set the
    # deadline: it releases the job 3.5 s early, to a worker with the right time.
    game = clocked_game(engine, seconds=4)
    deadline = game.deadlines[0]
    job_id = f"clock-{game.id}-0-{deadline}"
    assert job_id in engine.queue.scheduled_job_registry.get_job_ids()
    engine.queue.scheduled_job_registry.remove(job_id)  # what RQ's scheduler does as it releases a job
    engine.queue.enqueue_job(Job.fetch(job_id, connection=engine.queue.connection))
    assert deadline - engine.runner.clock() > 3_000

    def clocked():
        return [e for e in engine.store.read(game.id, game.version) if e.actor == "clock:0"]

    landed = run_worker_until(engine, clocked, timeout=15)
    assert clocked()[0].type == "TurnPassed"  # the seat's default move
    # never before the deadline; and soon after it, not at a sweeper's pass (STALLED_AFTER_MS, 10 s): a loaded
    # machine once took 1,001 ms, so the bound that tells "at the deadline" from "by the sweeper" is 5 s
    assert deadline <= clocked()[0].at <= deadline + 5000
    # seen by a reader within moments (no sweeper ran): the event's own time above is the strict check;
    # this one allows a loaded machine's burst workers, each started anew, a few seconds
    assert landed * 1000 <= deadline + 5000


class BrokenDefault(Race):
    """The race, with a default move that cannot be computed (a bug in a ruleset's on_timeout)."""

    name = "race-broken-default"

    def on_timeout(self, state, seat):
        raise RuntimeError("no default move here")


def test_a_clock_that_fails_every_attempt_is_given_up_counted_and_logged_once(redis_server, redis_client,
                                                                               monkeypatch, caplog):
    built = build_engine(redis_server.url, rulesets={**RULESETS, "race-broken-default": BrokenDefault()})
    monkeypatch.setattr(jobs, "_engine", built)
    game = built.runner.create_game("race-broken-default", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000},
                                    clock={"move_seconds": 1, "timeouts_before_bot": 5})
    deadline = game.deadlines[0]
    before = REGISTRY.get_sample_value("cartel_clock_failures_total", {"ruleset": "race-broken-default"}) or 0.0
    time.sleep(max(0.0, (deadline - built.runner.clock()) / 1000) + 1.1)  # past the deadline's whole second
    worker = SimpleWorker([built.queue], connection=built.queue.connection)
    with caplog.at_level(logging.INFO, logger="service.jobs"):
        worker.work(burst=True, with_scheduler=True)  # the scheduled clock: attempt 1
        nudges = []
        for _ in range(jobs.CLOCK_ATTEMPTS + 2):
            nudges.append(jobs.sweep(built.runner, built.queue, stalled_after_ms=0))
            SimpleWorker([built.queue], connection=built.queue.connection).work(burst=True)
    assert nudges == [1] * (jobs.CLOCK_ATTEMPTS - 1) + [0, 0, 0]  # retried, then given up
    assert built.queue.count == 0
    given_up = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name == "service.jobs"]
    assert len(given_up) == 1 and "no default move here" in given_up[0].getMessage(), given_up
    after = REGISTRY.get_sample_value("cartel_clock_failures_total", {"ruleset": "race-broken-default"})
    assert after == before + 1
    assert jobs.expire_clock(game.id, 0, deadline) == "stuck"  # a late duplicate job does nothing more
    # the seat's human may still move; a new deadline starts with a clean record
    moved = built.runner.execute(game.id, 0, {"type": "Pass"}).game
    assert moved.deadlines[1] != deadline and jobs.stuck_clocks(built.runner, moved) == set()
