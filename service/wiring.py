"""Wiring: one GameRunner per process, its Redis connections and its job queue.

Views and jobs reach the runner through `engine()`; nothing in the HTTP layer
imports redis.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

import redis
from rq import Queue

from events.archive import ArchiveStore, open_archive
from events.hub import FeedHub
from events.limits import RateLimiter
from events.runner import GameRunner
from events.store import FOLLOW_MAX_BLOCK_MS, FOLLOW_SOCKET_MARGIN_SECONDS, EventStore
from rules import RULESETS
from rules.ruleset import RulesetBase, adopt
from service.grip import Push, push_from_environment
from service.metrics import MeteredRunner, MeteredStore
from service.scheduling import Scheduler
from service.sse import RecentGames

QUEUE_NAME = "cartel"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Explicit socket timeouts, the same under every redis-py major (5 has none by
# default, 8 has 5 s): a command that hangs this long fails as 503 instead of
# holding a thread; blocking reads get a client of their own that outlasts them.
REDIS_SOCKET_TIMEOUT = float(os.environ.get("REDIS_SOCKET_TIMEOUT", "10"))
REDIS_CONNECT_TIMEOUT = 5.0
# A process's Redis connections, shared by its threads.  redis-py 8's pool holds at most 100 and fails
# the 101st request at once ("Too many connections", a 503); a burst of a thousand stream requests
# (Pushpin's GRIP asks, each a few ms of Redis) lost hundreds that way.  The pool blocks instead: a
# request over the limit waits (up to REDIS_POOL_WAIT_SECONDS) for one of them, so Redis sees a bounded
# number of connections and a burst is served in turn.
REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", "100"))
REDIS_POOL_WAIT_SECONDS = float(os.environ.get("REDIS_POOL_WAIT_SECONDS", "10"))
FOLLOW_SOCKET_TIMEOUT = FOLLOW_MAX_BLOCK_MS / 1000 + FOLLOW_SOCKET_MARGIN_SECONDS


@dataclass
class Engine:
    """What a process works with: the runner (and its store), the job queue, the rate limiter."""

    runner: GameRunner
    queue: Queue
    limiter: RateLimiter
    hub: FeedHub  # the process's one reader of the streams its SSE clients follow
    recent: RecentGames  # the games its streams loaded for their turn states, shared by their followers
    push: Push | None = None  # Pushpin in front (GRIP_KEY, GRIP_PUBLISH_URL): it holds the streams, not the hub

    @property
    def store(self) -> EventStore:
        return self.runner.store


def extra_rulesets() -> dict[str, RulesetBase]:
    """Rulesets from outside this package, named in CARTEL_EXTRA_RULESETS as
    "module:attribute,..." (third-party games, and the engine's test game)."""
    import importlib

    found = {}
    for spec in filter(None, os.environ.get("CARTEL_EXTRA_RULESETS", "").split(",")):
        module, _, attribute = spec.strip().partition(":")
        ruleset = getattr(importlib.import_module(module), attribute)
        found[ruleset.name] = ruleset
    return found


def is_cluster_url(url: str) -> bool:
    return "1" in parse_qs(urlsplit(url).query).get("cluster", [])


def connect(url: str, socket_timeout: float = REDIS_SOCKET_TIMEOUT) -> redis.Redis:
    """A client for a plain Redis or, when the URL names a cluster node with
    `?cluster=1`, for Redis Cluster (the event store's keys are hash-tagged)."""
    timeouts = {"socket_timeout": socket_timeout, "socket_connect_timeout": REDIS_CONNECT_TIMEOUT}
    if is_cluster_url(url):
        from redis.cluster import RedisCluster
        parts = urlsplit(url)
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "cluster"])
        return RedisCluster.from_url(urlunsplit(parts._replace(query=query)), decode_responses=True, **timeouts)
    return pooled(url, decode_responses=True, health_check_interval=30, **timeouts)


def pooled(url: str, **options) -> redis.Redis:
    """A client on a plain Redis whose connection pool makes a thread wait for a free connection
    rather than fail when all REDIS_MAX_CONNECTIONS are in use."""
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_MAX_CONNECTIONS,
                                                 timeout=REDIS_POOL_WAIT_SECONDS, **options)
    client = redis.Redis(connection_pool=pool)
    client.auto_close_connection_pool = True  # closing the client closes its pool, as from_url's do
    return client


def build_engine(redis_url: str | None = None, queue_url: str | None = None,
                 rulesets: Mapping[str, RulesetBase] | None = None, archive: ArchiveStore | None = None) -> Engine:
    """Events go to REDIS_URL; RQ's queues to QUEUE_REDIS_URL (default: the same server).
    RQ needs a non-cluster Redis, so the two are configured separately.  Archived games are
    in ARCHIVE_URL (s3://...) or the directory ARCHIVE_DIR (events/archive.py)."""

    redis_url = redis_url or os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    queue_url = queue_url or os.environ.get("QUEUE_REDIS_URL") or redis_url
    if is_cluster_url(queue_url):
        # RQ's scripts and MULTI blocks touch keys of many slots (rq:job:<id> with rq:queue:<name>, ...)
        raise ValueError("RQ needs a plain (non-cluster) Redis for its queues: REDIS_URL names a Redis Cluster, "
                         "so set QUEUE_REDIS_URL to a plain Redis")
    events_redis = connect(redis_url)
    # RQ raises a worker's socket timeout above its BLPOP wait by itself (Worker._set_connection)
    queue = Queue(QUEUE_NAME, connection=pooled(
        queue_url, socket_timeout=REDIS_SOCKET_TIMEOUT, socket_connect_timeout=REDIS_CONNECT_TIMEOUT))
    store = MeteredStore(events_redis, follower=connect(redis_url, socket_timeout=FOLLOW_SOCKET_TIMEOUT))
    archive = archive or open_archive(os.environ.get("ARCHIVE_URL"), os.environ.get("ARCHIVE_DIR"))
    # Registration: every ruleset as a RulesetBase (one from outside the package adopted, its missing
    # hooks filled with the base's defaults), so nothing downstream asks what a ruleset has.
    chosen = rulesets or {**RULESETS, **extra_rulesets()}
    runner = MeteredRunner(store, {name: adopt(ruleset) for name, ruleset in chosen.items()}, archive=archive,
                           seed_key=os.environ.get("SEED_KEY") or None)
    runner.after_append = Scheduler(queue, runner)
    push = push_from_environment(os.environ)
    if push:  # web processes and workers alike: every append is published, whoever made it
        push.publisher.redis = events_redis  # a batch not yet on every Pushpin is marked (the sweeper's republish)
        # a batch its publishing thread could not post is counted as the synchronous step's failures are
        push.publisher.on_failure = lambda game_id, error: runner.after_append_failed("publish", game_id, error)
        runner.publish = push.publisher
        store.feeds.on_append = push.publisher.publish_note  # each note of a player's feed, to their stream
    return Engine(runner, queue, RateLimiter(events_redis), FeedHub(store), RecentGames(runner), push)


def engine() -> Engine:
    """The app's engine (inside a request)."""
    from flask import current_app
    return current_app.extensions["cartel"]


def workers_alive(eng: Engine) -> int:
    from rq import Worker
    try:
        return len(Worker.all(queue=eng.queue))
    except redis.RedisError:
        return 0
