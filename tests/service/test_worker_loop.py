"""service.worker.keep_working: the worker process outlives an RQ worker that quit on its own.

RQ's `Worker.work()` ends without raising when a job fails and its failure handling meets the same
lost Redis ("found an unhandled exception, quitting"): a CI run's only worker went that way during a
Redis restart, and the bots of tests/faults/test_redis_crash.py stopped.  No Redis here: the stand-in
is for RQ's worker loop, whose ways of ending are what is under test."""
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
