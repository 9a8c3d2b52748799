"""Server-Sent Events: follow a game's feed live, redacted for the reader."""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from typing import Iterator

from events.hub import FeedHub
from events.runner import Game, GameRunner, redact_envelope
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


def event_message(game: Game, envelope, seat: int | None) -> str:
    """One event as `seat` reads it (redacted, narrated), its SSE id its version: the same bytes whether the
    hub's stream or Pushpin's publish sends it."""
    return sse_message(redact_envelope(game.ruleset, envelope, seat, game.names), envelope.version)


def turn_message(game: Game, seat: int | None) -> str:
    """The reader's turn state (presenters.turn_state) as the stream's `turn` event: no SSE id, as it
    is not an event of the game; its `version` says which events it follows."""
    return sse_message(turn_state(game, seat), event="turn")


def end_message(game: Game, after: int) -> str:
    """The stream's last message: how the game ended, and the version it ended at."""
    return sse_message({"status": game.status, "version": after, "outcome": outcome(game)}, event="end")


def follow_events(hub: FeedHub, runner: GameRunner, game: Game, seat: int | None, after: int,
                  max_seconds: float, heartbeat_seconds: float, recent: RecentGames | None = None) -> Iterator[str]:
    """Send every event after `after`, then the new ones as the process's hub reads them, until
    the game ends or `max_seconds` pass; after each batch, the reader's turn state (`turn`), so a
    client acts without reading the game; comments keep idle proxies from closing it."""
    recent = recent or RecentGames(runner, size=2)
    yield "retry: 2000\n\n"
    if game.ended:
        yield from replay_finished(runner, game, seat, after)
        return
    sub = hub.subscribe(game.id, after)
    try:
        if runner.store.status(game.id) in ENDED:  # it ended between loading and subscribing
            yield from replay_finished(runner, runner.load(game.id), seat, after)
            return
        yield turn_message(game, seat)  # where the game stands as the stream opens
        stop_at = time.monotonic() + max_seconds
        while (remaining := stop_at - time.monotonic()) > 0:
            envelopes, finished = sub.wait(min(heartbeat_seconds, remaining))
            for envelope in envelopes:
                after = envelope.version
                yield event_message(game, envelope, seat)
            if finished:
                ended = recent.at_least(game.id, after)
                yield turn_message(ended, seat)
                yield end_message(ended, after)
                return
            if envelopes:
                current = recent.at_least(game.id, after)
                if current.version == after:  # else more events are on their way, and a turn state after them
                    yield turn_message(current, seat)
            else:
                yield ": heartbeat\n\n"
    finally:
        hub.unsubscribe(sub)


def replay_finished(runner: GameRunner, game: Game, seat: int | None, after: int) -> Iterator[str]:
    """An ended game's events after `after` (from the store, or its archive), then its turn state
    and the end."""
    for envelope in runner.all_envelopes(game, after):
        after = envelope.version
        yield event_message(game, envelope, seat)
    yield turn_message(game, seat)
    yield end_message(game, after)
