"""Prometheus metrics (prometheus_client), for the web processes and the workers.

Counters and histograms live in the process that observes them.  Under
gunicorn (several processes per node) they use prometheus_client's
multiprocess mode: every process writes its values to memory-mapped files in
PROMETHEUS_MULTIPROC_DIR, and `GET /metrics` sums the files of every process
that wrote there (live or dead).  That variable must be set before
prometheus_client is imported: service/gunicorn_conf.py creates a private
directory when it is unset, `service.serve` and the test fixtures create one
shared by gunicorn and the worker.  Without it (the Flask test client, a lone
worker) the values stay in the process's memory.

Each web node reports its own processes; Prometheus scrapes every node (and
every worker's METRICS_PORT) and sums.  `cartel_games` is the exception: it is
read from the lobby indexes in Redis at scrape time, so every node reports the
same totals.
"""
from __future__ import annotations

import logging
import math
import os
import time
from typing import Any, Iterable

import redis
from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.core import GaugeMetricFamily

from events.limits import RateLimited
from events.runner import CommandResult, GameRunner
from events.store import ConcurrencyConflict, DuplicateCommand, EventStore
from service.schemas import STATUSES as GAME_STATUSES

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

disable_created_metrics()  # no `_created` series: they double the output and nothing here reads them

COMMANDS_ACCEPTED = Counter("cartel_commands_accepted", "Commands that appended events (duplicates excluded)",
                            ["ruleset", "actor"])
CONFLICTS = Counter("cartel_command_conflicts", "Commands refused with 409: stale If-Match / expected_version")
ILLEGAL_MOVES = Counter("cartel_illegal_moves", "Commands refused with 422: illegal move (problem type illegal-move)")
BAD_REQUESTS = Counter("cartel_bad_requests", "Requests refused with 400: malformed body, query, header or command")
BOT_FAILURES = Counter("cartel_bot_failures", "Bot moves that failed for good (not a crash): the seat is not "
                       "retried until the game moves on, e.g. its human reclaims it", ["ruleset"])
CLOCK_FAILURES = Counter("cartel_clock_failures", "Clock jobs given up after CLOCK_ATTEMPTS failed attempts (the "
                         "rules or the job raised, not a crash or a Redis outage): the seat waits for its human",
                         ["ruleset"])
AFTER_APPEND_FAILURES = Counter("cartel_after_append_failures", "Steps after a stored append that failed (the "
                                "command still answered with its events): `schedule` (enqueuing bot and clock "
                                "jobs, redone by the sweeper), `cache` (this process's copy of the game, reloaded "
                                "next time), `lobby` (the lobby's status index), `snapshot`, `publish` (the batch to "
                                "Pushpin's live streams: its followers catch up when the next batch is published)",
                                ["step"])
APPEND_SECONDS = Histogram("cartel_append_seconds", "EventStore.append (the compare-and-append script) latency",
                           ["outcome"], buckets=(.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5))
JOB_LAG_SECONDS = Histogram("cartel_job_lag_seconds",
                            "From a bot or clock job's scheduled time to the moment a worker starts it",
                            ["job"], buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300))


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or os.environ.get("prometheus_multiproc_dir") or None


# ---------------------------------------------------------------- recording
class MeteredStore(EventStore):
    """The event store, timing every append by its outcome."""

    def append(self, *args: Any, **kwargs: Any) -> int:
        return _timed_append(super().append, *args, **kwargs)

    def append_with_toll(self, *args: Any, **kwargs: Any) -> int:
        return _timed_append(super().append_with_toll, *args, **kwargs)


def _timed_append(append, *args: Any, **kwargs: Any) -> int:
    started, outcome = time.perf_counter(), "error"
    try:
        version = append(*args, **kwargs)
        outcome = "ok"
        return version
    except ConcurrencyConflict:
        outcome = "conflict"
        raise
    except DuplicateCommand:
        outcome = "duplicate"
        raise
    except RateLimited:
        outcome = "rate-limited"
        raise
    finally:
        APPEND_SECONDS.labels(outcome).observe(time.perf_counter() - started)


class MeteredRunner(GameRunner):
    """The runner, counting accepted commands by ruleset and by who sent them (seat, bot, clock)."""

    def execute(self, game_id: str, seat: int, command, **kwargs: Any) -> CommandResult:
        result = super().execute(game_id, seat, command, **kwargs)
        if result.events and not result.duplicate:
            COMMANDS_ACCEPTED.labels(result.game.ruleset.name, kwargs.get("actor_kind", "seat")).inc()
        return result

    def after_append_failed(self, step: str, game_id: str, error: Exception) -> None:
        super().after_append_failed(step, game_id, error)
        AFTER_APPEND_FAILURES.labels(step).inc()


def observe_response(status: int, problem_type: str | None) -> None:
    """Count a refused request by its HTTP status (the API's after-request hook calls this)."""
    if status == 409:
        CONFLICTS.inc()
    elif status == 422 and (problem_type or "").endswith("/illegal-move"):
        ILLEGAL_MOVES.inc()
    elif status == 400:
        BAD_REQUESTS.inc()


def scheduled_at(job) -> float | None:
    """When an RQ job was meant to run (epoch seconds): a clock job at its deadline
    rounded up to the second (what service.jobs.enqueue_clock schedules), any other
    job when it was enqueued."""
    if job.func_name.endswith(".expire_clock") and len(job.args) >= 3:
        return math.ceil(job.args[2] / 1000)
    return job.enqueued_at.timestamp() if job.enqueued_at else None


def observe_job_start(job) -> None:
    """Record a job's lag as a worker starts it (service.worker.CartelWorker)."""
    try:
        due = scheduled_at(job)
        if due is not None:
            JOB_LAG_SECONDS.labels(job.func_name.rsplit(".", 1)[-1]).observe(max(0.0, time.time() - due))
    except Exception:  # metrics never break a job
        log.exception("could not record the lag of job %s", getattr(job, "id", "?"))


# ---------------------------------------------------------------- rendering
class LobbyCollector:
    """`cartel_games{status}`: the sizes of the lobby's status indexes, read at scrape time."""

    def __init__(self, store: EventStore):
        self.store = store

    def collect(self) -> Iterable[GaugeMetricFamily]:
        try:
            counts = self.store.lobby_counts(GAME_STATUSES)
        except redis.RedisError as error:
            log.warning("cartel_games left out of /metrics: %s", error)
            return
        family = GaugeMetricFamily("cartel_games", "Games by status, from the lobby indexes", labels=["status"])
        for status, count in zip(GAME_STATUSES, counts):
            family.add_metric([status], int(count))
        yield family


class _Forward:
    """Adds an existing registry's metrics to another registry."""

    def __init__(self, registry):
        self.registry = registry

    def collect(self):
        return self.registry.collect()


def registry(lobby: EventStore | None = None) -> CollectorRegistry:
    """What /metrics shows: every process's values in multiprocess mode, else this
    process's, plus the lobby gauge when given the event store."""
    from prometheus_client import REGISTRY, multiprocess

    collected = CollectorRegistry(auto_describe=False)
    if multiprocess_dir():
        multiprocess.MultiProcessCollector(collected)
    else:
        collected.register(_Forward(REGISTRY))
    if lobby is not None:
        collected.register(LobbyCollector(lobby))
    return collected


def render(lobby: EventStore | None = None) -> bytes:
    return generate_latest(registry(lobby))


def serve_worker_metrics() -> None:
    """A worker's own /metrics on METRICS_PORT (when set): workers serve no HTTP otherwise."""
    port = os.environ.get("METRICS_PORT")
    if port:
        from prometheus_client import start_http_server
        start_http_server(int(port), addr=os.environ.get("METRICS_ADDR", "0.0.0.0"), registry=registry())
        log.info("worker metrics on :%s/metrics", port)
