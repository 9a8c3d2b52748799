"""Server-Sent Events: follow a game's feed live, redacted for the reader."""
from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from typing import Iterator

from events.hub import FeedHub
from events.runner import Game, GameRunner, now_ms, redact_envelope
from events.table import ENDED
from service.presenters import outcome, turn_state


def sse_message(data: dict, event_id: int | None = None, event: str | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


class RecentGames:
    """The games this process loaded for its streams, by (id, version): every follower of a game is
    sent the turn state after the same batch, and one load serves them all."""

    def __init__(self, runner: GameRunner, size: int = 64):
        self.runner, self.size = runner, size
        self._games: OrderedDict[tuple[str, int], Game] = OrderedDict()
        self._present: OrderedDict[tuple[str, int], list[int]] = OrderedDict()
        self._lock = threading.Lock()

    def at_least(self, game_id: str, version: int) -> Game:
        """The game at `version` or later (later when more was appended since the batch was read)."""
        with self._lock:
            game = self._games.get((game_id, version))
        if game is None:
            game = self.runner.load(game_id)
            with self._lock:
                self._games[(game_id, game.version)] = game
                while len(self._games) > self.size:
                    self._games.popitem(last=False)
        return game

    def present(self, game: Game) -> list[int]:
        """The game's present seats (events/presence.py) as read once for its version: a batch's
        followers share one read, so presence in a stream's turn message is as of its batch."""
        key = (game.id, game.version)
        with self._lock:
            present = self._present.get(key)
        if present is None:
            present = self.runner.store.presence.present(game.id, now_ms())
            with self._lock:
                self._present[key] = present
                while len(self._present) > self.size:
                    self._present.popitem(last=False)
        return present


def event_message(game: Game, envelope, seat: int | None) -> str:
    """One event as `seat` reads it (redacted, narrated), its SSE id its version: the same bytes whether the
    hub's stream or Pushpin's publish sends it."""
    return sse_message(redact_envelope(game.ruleset, envelope, seat, game.names), envelope.version)


def turn_message(game: Game, seat: int | None, present: list[int] = ()) -> str:
    """The reader's turn state (presenters.turn_state) as the stream's `turn` event: no SSE id, as it
    is not an event of the game; its `version` says which events it follows.  `present`: the seats
    with a live follower as the message is made."""
    return sse_message(turn_state(game, seat, present=present), event="turn")


def note_message(note) -> str:
    """A note of a player's feed (events/feeds.py) as their stream's message: its kind the SSE event, its entry
    id the SSE id; the same bytes from the stream and from Pushpin's publish."""
    return sse_message(note.data, note.id, note.kind)


def chat_message(said: dict) -> str:
    """A chat message (events/chat.py) as the stream's `chat` event: no SSE id, so Last-Event-ID stays
    the last event's version; a client that reconnects reads what it missed from the chat page."""
    return sse_message(said, event="chat")


def end_message(game: Game, after: int) -> str:
    """The stream's last message: how the game ended, and the version it ended at."""
    return sse_message({"status": game.status, "version": after, "outcome": outcome(game)}, event="end")


def follow_events(hub: FeedHub, runner: GameRunner, game: Game, seat: int | None, after: int,
                  max_seconds: float, heartbeat_seconds: float, recent: RecentGames | None = None,
                  chat: str | None = None) -> Iterator[str]:
    """Send every event after `after`, then the new ones as the process's hub reads them, until
    the game ends or `max_seconds` pass; after each batch, the reader's turn state (`turn`), so a
    client acts without reading the game; what is said on the chat channel `chat` as it is said
    (`chat`); comments keep idle proxies from closing it.  A seat's follower counts as present
    (events/presence.py) while the loop runs: renewed every heartbeat, withdrawn when it ends."""
    recent = recent or RecentGames(runner, size=2)
    yield "retry: 2000\n\n"
    if game.ended:
        yield from replay_finished(runner, game, seat, after)
        return
    sub = hub.subscribe(game.id, after, chat)
    presence, follower = runner.store.presence, secrets.token_hex(6)
    ttl_ms, renewed = int(presence_ttl_seconds(heartbeat_seconds) * 1000), 0.0
    try:
        if runner.store.status(game.id) in ENDED:  # it ended between loading and subscribing
            yield from replay_finished(runner, runner.load(game.id), seat, after)
            return
        if seat is not None:
            presence.renew(game.id, seat, follower, ttl_ms, now_ms())
            renewed = time.monotonic()
        # where the game stands as the stream opens, this follower present
        yield turn_message(game, seat, presence.present(game.id, now_ms()))
        stop_at = time.monotonic() + max_seconds
        while (remaining := stop_at - time.monotonic()) > 0:
            envelopes, finished = sub.wait(min(heartbeat_seconds, remaining))
            if seat is not None and time.monotonic() - renewed >= heartbeat_seconds / 2:
                presence.renew(game.id, seat, follower, ttl_ms, now_ms())
                renewed = time.monotonic()
            for envelope in envelopes:
                after = envelope.version
                yield event_message(game, envelope, seat)
            said = sub.said()
            for message in said:
                yield chat_message(message)
            if finished:
                ended = recent.at_least(game.id, after)
                yield turn_message(ended, seat, recent.present(ended))
                yield end_message(ended, after)
                return
            if envelopes:
                current = recent.at_least(game.id, after)
                if current.version == after:  # else more events are on their way, and a turn state after them
                    yield turn_message(current, seat, recent.present(current))
            elif not said:
                yield ": heartbeat\n\n"
    finally:
        hub.unsubscribe(sub)
        if seat is not None:
            presence.leave(game.id, seat, follower)


def presence_ttl_seconds(heartbeat_seconds: float) -> float:
    """How long a hub follower counts as present after renewing: it renews at least every heartbeat
    (each wait for events lasts at most that), so two heartbeats and a margin never lapse while it runs."""
    return 2 * heartbeat_seconds + 5


def replay_finished(runner: GameRunner, game: Game, seat: int | None, after: int) -> Iterator[str]:
    """An ended game's events after `after` (from the store, or its archive), then its turn state
    and the end."""
    for envelope in runner.all_envelopes(game, after):
        after = envelope.version
        yield event_message(game, envelope, seat)
    yield turn_message(game, seat, [] if game.archived else runner.store.presence.present(game.id, now_ms()))
    yield end_message(game, after)
