"""Server-Sent Events: follow a game's feed live, redacted for the reader."""
from __future__ import annotations

import json
import time
from typing import Iterator

from events.runner import Game, GameRunner, redact_envelope


def sse_message(data: dict, event_id: int | None = None, event: str | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def follow_events(runner: GameRunner, game: Game, seat: int | None, after: int, max_seconds: float,
                  heartbeat_seconds: float) -> Iterator[str]:
    """Send every event after `after`, then wait for new ones until the game
    ends or `max_seconds` pass; comments keep idle proxies from closing it."""
    yield "retry: 2000\n\n"
    stop_at = time.monotonic() + max_seconds
    finished = game.status == "finished"
    while True:
        if finished:
            envelopes = runner.store.read(game.id, after, 500)
        else:
            remaining = stop_at - time.monotonic()
            if remaining <= 0:
                return
            # XREAD BLOCK 0 would wait forever: always block for at least 1 ms.
            envelopes = runner.store.follow(game.id, after, max(1, int(min(heartbeat_seconds, remaining) * 1000)))
        for envelope in envelopes:
            after = envelope.version
            yield sse_message(redact_envelope(game.ruleset, envelope, seat), envelope.version)
        if finished and not envelopes:
            yield sse_message({"status": "finished", "version": after}, event="end")
            return
        if not envelopes:
            yield ": heartbeat\n\n"
        if not finished:
            # The status turns "finished" in the same atomic append as the last event.
            finished = runner.store.meta(game.id).get("status") == "finished"
