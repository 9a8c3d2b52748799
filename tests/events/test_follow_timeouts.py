"""Blocking reads and socket timeouts: redis-py 8 reads with a 5 s socket timeout by default,
so an XREAD BLOCK longer than that used to raise TimeoutError and cut every idle SSE stream.
(Plain Redis only; tests/events/test_store.py is the contract also run on Redis Cluster.)"""
from __future__ import annotations

import threading
import time

import pytest
import redis

from events.hub import FeedHub
from events.store import FOLLOW_MAX_BLOCK_MS, EventStore, PendingEvent, socket_timeout_of
from rules.base import Event


def batch(*types: str) -> list[PendingEvent]:
    return [PendingEvent(Event(t, {}), "seat:0") for t in types]


def test_follow_never_blocks_past_its_clients_socket_timeout(redis_server, redis_client):
    # redis-py 8 reads with a 5 s socket timeout by default; a longer XREAD BLOCK on such a
    # client used to raise TimeoutError and cut every idle SSE stream.  Here: a 1.5 s timeout.
    short = redis.Redis.from_url(redis_server.url, decode_responses=True, socket_timeout=1.5)
    store = EventStore(short)
    store.append("idle", 0, batch("A"), at=1)
    started = time.monotonic()
    assert store.follow("idle", 1, block_ms=4000) == []  # clamped under the timeout, not an error
    assert time.monotonic() - started < 1.5
    short.close()


def test_follow_through_a_long_timeout_follower_waits_out_the_whole_block(redis_server, redis_client):
    follower = redis.Redis.from_url(redis_server.url, decode_responses=True, socket_timeout=8)
    store = EventStore(redis_client, follower=follower)
    store.append("idle", 0, batch("A"), at=1)
    writer = threading.Timer(6.0, lambda: EventStore(redis_client).append("idle", 1, batch("B"), at=2))
    writer.start()
    started = time.monotonic()
    try:
        # 6 s of silence: longer than redis-py 8's default 5 s timeout, shorter than this follower's 8 s
        assert [e.type for e in store.follow("idle", 1, block_ms=7000)] == ["B"]
        assert time.monotonic() - started >= 5.5
    finally:
        writer.join()
    follower.close()


def test_the_engine_gives_followers_a_socket_timeout_above_the_longest_block(redis_server):
    from service.wiring import build_engine

    engine = build_engine(redis_server.url)
    assert socket_timeout_of(engine.store.follower) > FOLLOW_MAX_BLOCK_MS / 1000
    assert socket_timeout_of(engine.store.redis) is not None  # commands never hang forever either


def test_a_closed_hub_stops_its_reader_and_takes_no_followers(redis_client):
    # an app torn down in a process that goes on (a test run) leaves no thread polling Redis
    hub = FeedHub(EventStore(redis_client), block_ms=50)
    hub.subscribe("g-followed", 0)
    reader = hub._thread
    assert reader is not None and reader.is_alive()
    hub.close()
    assert not reader.is_alive() and hub.followers == 0
    with pytest.raises(RuntimeError):
        hub.subscribe("g-followed", 0)


def test_a_read_made_for_a_feed_that_was_started_again_from_further_back_leaves_no_gap(redis_client):
    """The hub read a game's stream after version 3 for a follower who then left (its stream closed at
    SSE_MAX_SECONDS with 2 and 3 not yet sent); the follower came back from version 1 before that read
    was delivered.  The read (4..5) must not reach it ahead of 2 and 3: it would skip them for good
    (tests/clients/test_sdk.py's follower of a bot game missed one version this way)."""
    store = EventStore(redis_client)
    store.append("regap", 0, batch("A", "B", "C", "D", "E"), at=1)
    hub = FeedHub(store, block_ms=50)
    try:
        gone = hub.subscribe("regap", 3)
        hub.unsubscribe(gone)
        back = hub.subscribe("regap", 1)  # a new feed, from further back than the read in flight
        hub._deliver({"regap": store.read("regap", 3)}, set())  # that read arrives now
        seen = []
        deadline = time.monotonic() + 5
        while len(seen) < 4 and time.monotonic() < deadline:
            seen += [e.version for e in back.wait(0.2)[0]]
        assert seen == [2, 3, 4, 5]
    finally:
        hub.close()
