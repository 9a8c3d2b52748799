"""The RQ worker: `python -m service.worker` (or `rq worker --with-scheduler -w service.worker.CartelWorker cartel`).

A non-forking worker: bot moves are short pure-Python jobs, and keeping the
process alive keeps the runner's state cache warm (no fork per job).  A
sweeper thread re-enqueues bot moves and clocks that a killed worker dropped.
"""
from __future__ import annotations

import argparse
import logging
import os
import threading
import time

import redis
from rq.worker import SimpleWorker

from service.jobs import current_engine, sweep
from service.metrics import observe_job_start, serve_worker_metrics

log = logging.getLogger(__name__)
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "2"))
STALLED_AFTER_MS = int(os.environ.get("STALLED_AFTER_MS", "10000"))


def run_sweeper(stop: threading.Event) -> None:
    engine = current_engine()
    while not stop.wait(SWEEP_SECONDS):
        try:
            sweep(engine.runner, engine.queue, STALLED_AFTER_MS)
        except Exception:  # keep sweeping through a Redis restart
            log.exception("sweep failed")


class CartelWorker(SimpleWorker):
    """SimpleWorker plus the sweeper thread, job-lag metrics and (with METRICS_PORT) its own /metrics."""

    def execute_job(self, job, queue):
        observe_job_start(job)
        return super().execute_job(job, queue)

    def work(self, *args, **kwargs):
        serve_worker_metrics()
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
    backoff = 0.5
    while True:
        # RQ's own loop retries a lost connection only while it waits for a job; a
        # Redis restart at any other moment ends `work()`.  Start a fresh worker
        # (a new name: the old one may still be registered) once Redis is back;
        # the sweeper re-enqueues whatever job was cut short.
        try:
            worker = CartelWorker([engine.queue], connection=engine.queue.connection)  # talks to Redis already
            worker.work(with_scheduler=True, burst=args.burst, logging_level=os.environ.get("LOG_LEVEL", "INFO"))
            return
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            log.warning("lost Redis (%s); starting a new worker in %.1f s", error, backoff)
            time.sleep(backoff)
            backoff = min(backoff * 2, 10)


if __name__ == "__main__":
    main()
