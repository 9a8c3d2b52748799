"""Server-Sent Events: follow a game's feed live, redacted for the reader."""
from __future__ import annotations

import json
import time
from typing import Iterator

from events.hub import FeedHub
from events.runner import Game, GameRunner, redact_envelope
from events.table import ENDED


def sse_message(data: dict, event_id: int | None = None, event: str | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def follow_events(hub: FeedHub, runner: GameRunner, game: Game, seat: int | None, after: int,
                  max_seconds: float, heartbeat_seconds: float) -> Iterator[str]:
    """Send every event after `after`, then the new ones as the process's hub reads them, until
    the game ends or `max_seconds` pass; comments keep idle proxies from closing it."""
    yield "retry: 2000\n\n"
    if game.ended:
        yield from replay_finished(runner, game, seat, after)
        return
    sub = hub.subscribe(game.id, after)
    try:
        if runner.store.status(game.id) in ENDED:  # it ended between loading and subscribing
            yield from replay_finished(runner, runner.load(game.id), seat, after)
            return
        stop_at = time.monotonic() + max_seconds
        while (remaining := stop_at - time.monotonic()) > 0:
            envelopes, finished = sub.wait(min(heartbeat_seconds, remaining))
            for envelope in envelopes:
                after = envelope.version
                yield sse_message(redact_envelope(game.ruleset, envelope, seat), envelope.version)
            if finished:
                yield sse_message({"status": runner.store.status(game.id) or "finished", "version": after},
                                  event="end")
                return
            if not envelopes:
                yield ": heartbeat\n\n"
    finally:
        hub.unsubscribe(sub)


def replay_finished(runner: GameRunner, game: Game, seat: int | None, after: int) -> Iterator[str]:
    """An ended game's events after `after` (from the store, or its archive), then the end."""
    for envelope in runner.all_envelopes(game, after):
        after = envelope.version
        yield sse_message(redact_envelope(game.ruleset, envelope, seat), envelope.version)
    yield sse_message({"status": game.status, "version": after}, event="end")
