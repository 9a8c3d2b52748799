"""The RQ worker: `python -m service.worker` (or `rq worker --with-scheduler -w service.worker.CartelWorker cartel`).

A non-forking worker: bot moves are short pure-Python jobs, and keeping the
process alive keeps the runner's state cache warm (no fork per job).  A
sweeper thread re-enqueues bot moves and clocks that a killed worker dropped,
and every RETENTION_SWEEP_SECONDS abandons idle games and archives ended ones
(events/retention.py: safe with any number of workers doing it at once).
"""
from __future__ import annotations

import argparse
import logging
import os
import threading
import time
from typing import Callable

import redis
from rq.worker import SimpleWorker

from events import retention
from service.grip import republish
from service.jobs import current_engine, sweep
from service.metrics import observe_job_start, serve_worker_metrics

log = logging.getLogger(__name__)
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "2"))
STALLED_AFTER_MS = int(os.environ.get("STALLED_AFTER_MS", "10000"))
RETENTION_SWEEP_SECONDS = float(os.environ.get("RETENTION_SWEEP_SECONDS", "60"))


def retention_policy() -> retention.Policy:
    """ABANDON_AFTER_SECONDS (7 days), ARCHIVE_AFTER_SECONDS (1 day); 0 turns a step off."""
    return retention.Policy(abandon_after=int(os.environ.get("ABANDON_AFTER_SECONDS", 7 * retention.DAY)),
                            archive_after=int(os.environ.get("ARCHIVE_AFTER_SECONDS", retention.DAY)),
                            batch=int(os.environ.get("RETENTION_BATCH", "100")))


def run_sweeper(stop: threading.Event) -> None:
    engine, policy = current_engine(), retention_policy()
    backfilled, retained_at = False, 0.0
    while not stop.wait(SWEEP_SECONDS):
        try:
            sweep(engine.runner, engine.queue, STALLED_AFTER_MS)
        except Exception:  # keep sweeping through a Redis restart
            log.exception("sweep failed")
        if engine.push:  # a game's last batch that did not reach every Pushpin (service/grip.py)
            try:
                if republished := republish(engine.runner, engine.push.publisher):
                    log.info("republished the last batch of %d game(s) to Pushpin", republished)
            except Exception as error:  # Pushpin or Redis still down: the next sweep tries again
                log.warning("republishing to Pushpin failed: %s", error)
        if time.monotonic() - retained_at < RETENTION_SWEEP_SECONDS:
            continue
        retained_at = time.monotonic()  # a failing pass (an archive not writable) is retried next period, not at once
        try:
            if not backfilled:  # games recorded before retention existed join its indexes (once a deployment)
                engine.store.work.backfill_retention()
                backfilled = True
            retention.sweep(engine.runner, policy)
        except Exception:
            log.exception("retention sweep failed")


def warm_bots() -> None:
    """Start this worker's bot process (events/botbox.py); a failure is logged, and the first move retries."""
    from service.jobs import bot_box

    try:
        bot_box(current_engine().runner).warm()
    except Exception:
        log.exception("the bot process did not start; the first bot move will try again")


class CartelWorker(SimpleWorker):
    """SimpleWorker plus the sweeper thread, job-lag metrics and (with METRICS_PORT) its own /metrics."""

    stopping = False  # a stop was asked for (SIGINT/SIGTERM): `work()` returning then is the end

    def request_stop(self, signum, frame):
        self.stopping = True
        return super().request_stop(signum, frame)

    def execute_job(self, job, queue):
        observe_job_start(job)
        return super().execute_job(job, queue)

    def work(self, *args, **kwargs):
        serve_worker_metrics()
        # The bot process, started now (not by the first bot move of a game), and in this thread, before RQ
        # forks its scheduler (`super().work`): a Popen in another thread while the scheduler forks hands the
        # scheduler process the write end of Popen's exec-status pipe, and that Popen (holding the BotBox's
        # lock, so every bot move behind it) then waits until the scheduler process exits.  A CI run's bots
        # stalled for whole tests that way.
        warm_bots()
        stop = threading.Event()
        threading.Thread(target=run_sweeper, args=(stop,), daemon=True, name="sweeper").start()
        try:
            return super().work(*args, **kwargs)
        finally:
            stop.set()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run a Tabletop Cartel worker (bots and clocks).")
    parser.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), format="%(asctime)s %(name)s %(message)s")
    engine = current_engine()
    keep_working(lambda: CartelWorker([engine.queue], connection=engine.queue.connection), args.burst)


def keep_working(new_worker: Callable[[], CartelWorker], burst: bool,
                 pause: Callable[[float], None] = time.sleep) -> None:
    """Run workers until one is asked to stop (or, with `burst`, empties the queue).

    RQ's own loop retries a lost connection only while it waits for a job; a Redis restart at any other
    moment ends `work()`: by raising, or, when a job failed on it and RQ's failure handling needed Redis
    too, by logging "found an unhandled exception, quitting" and returning (a CI run saw the only worker
    go that way, and its bots stop).  Either way a fresh worker (a new name: the old one may still be
    registered) starts once Redis is back; the sweeper re-enqueues whatever job was cut short."""
    backoff = 0.5
    while True:
        started = time.monotonic()
        try:
            worker = new_worker()  # talks to Redis already
            worker.work(with_scheduler=True, burst=burst, logging_level=os.environ.get("LOG_LEVEL", "INFO"))
            if burst or worker.stopping:
                return
            log.warning("the RQ worker quit on an error it did not handle; starting a new worker in %.1f s", backoff)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            log.warning("lost Redis (%s); starting a new worker in %.1f s", error, backoff)
        backoff = 0.5 if time.monotonic() - started > 60 else backoff  # a worker that ran a while: not a crash loop
        pause(backoff)
        backoff = min(backoff * 2, 10)


if __name__ == "__main__":
    main()
