"""service.worker.keep_working: the worker process outlives an RQ worker that quit on its own.

RQ's `Worker.work()` ends without raising when a job fails and its failure handling meets the same
lost Redis ("found an unhandled exception, quitting"): a CI run's only worker went that way during a
Redis restart, and the bots of tests/faults/test_redis_crash.py stopped.  No Redis for those: the
stand-in is for RQ's worker loop, whose ways of ending are what is under test.  And CartelWorker.work
starts the bot process before RQ's loop forks anything."""
from __future__ import annotations

import redis

from service.worker import keep_working


class Ends:
    """An RQ worker whose `work()` ends one way: "quit" (returns, as RQ does after an unhandled
    exception), "stop" (returns after SIGTERM or SIGINT asked it to), or raises `outcome`."""

    def __init__(self, outcome):
        self.outcome, self.stopping = outcome, False

    def work(self, **kwargs) -> bool:
        if isinstance(self.outcome, Exception):
            raise self.outcome
        self.stopping = self.outcome == "stop"
        return False


def run(outcomes: list, burst: bool = False) -> tuple[int, list[float]]:
    """How many workers keep_working started for these endings, and the pauses between them."""
    started, pauses = [], []

    def new_worker() -> Ends:
        started.append(Ends(outcomes[len(started)]))
        return started[-1]

    keep_working(new_worker, burst, pauses.append)
    return len(started), pauses


def test_a_worker_that_quit_on_an_error_it_did_not_handle_is_replaced_until_one_is_asked_to_stop():
    assert run(["quit", redis.exceptions.ConnectionError("lost"), "quit", "stop"]) == (4, [0.5, 1.0, 2.0])


def test_a_worker_asked_to_stop_ends_the_process():
    assert run(["stop"]) == (1, [])


def test_a_burst_worker_that_emptied_the_queue_is_not_replaced():
    assert run(["quit"], burst=True) == (1, [])


def test_the_bot_process_is_started_before_rq_forks_its_scheduler(monkeypatch, redis_server):
    """A CI run's bots stalled for whole tests: the bot process's Popen, in a thread of its own, ran while RQ
    forked its scheduler (`SimpleWorker.work` starts it); the forked scheduler kept the write end of
    Popen's exec-status pipe, so the Popen, and with it the BotBox's lock and every bot move, waited for the
    scheduler process to exit.  The bot process is started, and ready, before RQ's `work` begins."""
    from rq import Queue
    from rq.worker import SimpleWorker

    import service.jobs as jobs
    from service import worker as module
    from service.wiring import build_engine

    monkeypatch.setattr(jobs, "_engine", build_engine(redis_server.url))
    monkeypatch.setattr(jobs, "_box", None)
    monkeypatch.setattr(module, "serve_worker_metrics", lambda: None)
    seen = {}

    def rq_work(self, *args, **kwargs):  # RQ's loop, which would fork the scheduler first thing
        box = jobs._box
        seen["ready"] = box is not None and box.process is not None and box.process.poll() is None
        return True

    monkeypatch.setattr(SimpleWorker, "work", rq_work)
    connection = redis_server.client()
    try:
        module.CartelWorker([Queue("cartel", connection=connection)], connection=connection).work()
        assert seen == {"ready": True}
    finally:
        if jobs._box is not None:
            jobs._box.close()
        connection.close()
