"""A fan-out hub: one reader per process for every game someone follows live.

Without it each SSE follower ran its own blocking XREAD: a Redis connection and
a round trip per follower per heartbeat.  Here one thread reads every followed
stream with a single XREAD (BLOCK `block_ms`) and hands each new event to the
followers of its game, who wait on a condition: Redis sees one blocking reader
per process however many followers there are, and a follower costs no Redis
traffic while it waits.

Followers join at any version: events between their `after` and what the hub
has already read (or, when it has read nothing after `after`, every event there is)
are read once from the store when they subscribe, so nothing is lost or duplicated,
order is kept, and a follower's first events never wait for the hub's current block.
When a game's last events arrive the hub reads its status once and tells its
followers it is finished.

A follower may also follow one of the game's chat channels (events/chat.py): the same XREAD reads
every followed channel, from its newest message when its first follower came, and hands each new
message to the followers of that channel.  Chat is live only: a follower gets what is said while it
follows (the page, GET /v1/games/{id}/chat, has the rest).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Any

import redis

from events.chat import later_id

log = logging.getLogger(__name__)


class Subscription:
    """One follower of one game: the events after its cursor, in order, as they come."""

    def __init__(self, game_id: str, after: int, chat: str | None = None):
        self.game_id = game_id
        self.cursor = after
        self.chat = chat  # the chat channel it follows, or None
        self.finished = False
        self._queue: deque = deque()
        self._said: deque = deque()
        self._ready = threading.Condition()

    def push(self, envelopes: list, finished: bool = False) -> None:
        """New events from the hub (those at or before the cursor are dropped)."""
        with self._ready:
            fresh = [e for e in envelopes if e.version > self.cursor]
            if fresh:
                self._queue.extend(fresh)
                self.cursor = fresh[-1].version
            self.finished = self.finished or finished
            if fresh or finished:
                self._ready.notify_all()

    def prepend(self, envelopes: list) -> None:
        """Events the hub had read before this follower came: they go first."""
        with self._ready:
            older = [e for e in envelopes if not self._queue or e.version < self._queue[0].version]
            self._queue.extendleft(reversed(older))
            if older:
                self.cursor = max(self.cursor, older[-1].version)
                self._ready.notify_all()

    def push_chat(self, messages: list) -> None:
        """New messages of the followed chat channel."""
        with self._ready:
            self._said.extend(messages)
            self._ready.notify_all()

    def wait(self, timeout: float) -> tuple[list, bool]:
        """(events, finished): what arrived, waiting up to `timeout` seconds for something (events, the
        end, or chat: `said` takes that)."""
        with self._ready:
            if not self._queue and not self.finished and not self._said:
                self._ready.wait(timeout)
            events = list(self._queue)
            self._queue.clear()
            return events, self.finished

    def said(self) -> list:
        """The chat messages that arrived since the last call."""
        with self._ready:
            messages = list(self._said)
            self._said.clear()
            return messages


class FeedHub:
    """The process's reader of followed game streams (see the module docstring)."""

    def __init__(self, store: Any, block_ms: int = 250):
        self.store = store
        self.block_ms = block_ms
        self._lock = threading.Condition()
        # game id -> {"last": version read, "subs": set of Subscription, "chat": {channel: id read}}
        self._feeds: dict[str, dict] = {}
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def followers(self) -> int:
        with self._lock:
            return sum(len(feed["subs"]) for feed in self._feeds.values())

    def subscribe(self, game_id: str, after: int, chat: str | None = None) -> Subscription:
        """Follow `game_id` from version `after` on (and its chat channel `chat` from now on)."""
        sub = Subscription(game_id, after, chat)
        said_until = self.store.chat.last_id(game_id, chat) if chat else None
        with self._lock:
            feed = self._feeds.setdefault(game_id, {"last": after, "subs": set(), "chat": {}})
            feed["subs"].add(sub)
            if chat:
                feed["chat"].setdefault(chat, said_until)
            already_read = feed["last"]
            self._start()
            self._lock.notify_all()
        if already_read > after:  # the hub read these before this follower came
            sub.prepend(self.store.read(game_id, after, until=already_read))
        else:
            # what is there already, read now: the hub thread may be in a blocking read of the other
            # games' streams (up to block_ms) before it reads this one.  The hub reads these again from
            # its own last version; push keeps each follower's events once and in order (its cursor).
            sub.push(self.store.read(game_id, after))
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            feed = self._feeds.get(sub.game_id)
            if feed is not None:
                feed["subs"].discard(sub)
                if not feed["subs"]:
                    del self._feeds[sub.game_id]

    def close(self) -> None:
        """Stop reading Redis: the reader thread ends, and followers get nothing more (they time out
        as after SSE_MAX_SECONDS).  For an app torn down in a process that goes on, such as a test
        run; a server process simply exits.  A closed hub is not reopened."""
        with self._lock:
            self._closed = True
            self._feeds.clear()
            self._lock.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _start(self) -> None:
        if self._closed:
            raise RuntimeError("the feed hub is closed")
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="feed-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._feeds and not self._closed:  # nobody follows anything: no Redis traffic at all
                    self._lock.wait()
                if self._closed:
                    return
                streams = {game_id: feed["last"] for game_id, feed in self._feeds.items()}
                chats = {(game_id, channel): said for game_id, feed in self._feeds.items()
                         for channel, said in feed["chat"].items()}
            try:
                batches, said = self.store.follow_feeds(streams, chats, self.block_ms)
                finished = {game_id for game_id, envelopes in batches.items()
                            if envelopes and self.store.finished_at(game_id) == envelopes[-1].version}
            except redis.RedisError as error:  # Redis restarting: followers see heartbeats meanwhile
                log.warning("feed hub: %s; retrying", error)
                time.sleep(0.5)
                continue
            if self._closed:
                return
            self._deliver(batches, finished)
            self._deliver_chat(said)

    def _deliver_chat(self, said: dict[tuple[str, str], list]) -> None:
        with self._lock:
            for (game_id, channel), messages in said.items():
                feed = self._feeds.get(game_id)
                if feed is None or not messages or channel not in feed["chat"]:
                    continue
                # a channel read again from further back (its feed gone and started anew meanwhile) is not
                # delivered twice: only what is after the feed's own cursor
                fresh = [m for m in messages if later_id(m["id"], feed["chat"][channel]) != feed["chat"][channel]]
                if not fresh:
                    continue
                feed["chat"][channel] = fresh[-1]["id"]
                for sub in list(feed["subs"]):
                    if sub.chat == channel:
                        sub.push_chat(fresh)

    def _deliver(self, batches: dict[str, list], finished: set[str]) -> None:
        with self._lock:
            for game_id, envelopes in batches.items():
                feed = self._feeds.get(game_id)
                if feed is None or not envelopes:
                    continue
                if envelopes[0].version > feed["last"] + 1:
                    # read for a feed that has gone since (its last follower left) and that a new
                    # follower started again from further back: the events between are not in this
                    # batch, so it is not delivered, and the next read starts where the new feed is.
                    # (A follower whose stream SSE_MAX_SECONDS closed resumed this way and missed one.)
                    continue
                feed["last"] = max(feed["last"], envelopes[-1].version)
                for sub in list(feed["subs"]):
                    sub.push(envelopes, game_id in finished)
