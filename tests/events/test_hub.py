"""The feed hub (events/hub.py) on a real Redis: a follower's first events come when it subscribes,
not after the hub's blocking read of the other games, and each follower gets each event once, in order."""
from __future__ import annotations

import time
import uuid

from events.hub import FeedHub
from events.store import EventStore, PendingEvent
from rules.base import Event


def batch(*types: str) -> list[PendingEvent]:
    return [PendingEvent(Event(t, {}), "seat:0") for t in types]


def test_a_new_follower_gets_what_is_there_without_waiting_for_the_hubs_block(redis_client):
    store = EventStore(redis_client)
    quiet, busy = f"quiet-{uuid.uuid4().hex}", f"busy-{uuid.uuid4().hex}"
    store.append(quiet, 0, batch("A"), at=1)
    store.append(busy, 0, batch("A", "B", "C"), at=1)
    hub = FeedHub(store, block_ms=3000)  # the hub's reader blocks 3 s at a time on what it follows
    try:
        hub.subscribe(quiet, 1)  # the reader is now blocked on the quiet game, which nobody moves
        time.sleep(0.3)
        follower = hub.subscribe(busy, 0)
        started = time.monotonic()
        events, finished = follower.wait(1.5)
        # before: nothing until the quiet game's 3 s block ended and the reader took the busy game on
        assert [e.version for e in events] == [1, 2, 3] and not finished
        assert time.monotonic() - started < 1.5
        # the hub then reads the busy game from its own start too: the follower gets only what is new
        store.append(busy, 3, batch("D"), at=2)
        later, _ = follower.wait(8.0)
        deadline = time.monotonic() + 8
        while not later and time.monotonic() < deadline:
            later, _ = follower.wait(1.0)
        assert [e.version for e in later] == [4]
        assert follower.wait(0.5) == ([], False)  # versions 1-3 were not delivered a second time
    finally:
        hub.close()
