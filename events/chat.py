"""A game's chat in Redis: one stream per channel beside the game's, never in its event history.

Two channels a game: `seats` (the players) and `spectators`.  Who may read and write which is the
HTTP layer's rule (service/api/chat.py); this holds the Redis side.  A message's id is its Redis
stream id ("<ms>-<n>", ascending), so `after=<id>` pages and resumes, and its `at` is that id's
milliseconds: the Redis server's clock, one clock for every process.  Each channel keeps its last
CHAT_KEEP messages and expires `keep_seconds` after its last one, so a game's chat outlives its
retention (ABANDON_AFTER + ARCHIVE_AFTER) without a sweeper of its own.

Keys: events/keys.py (`g:{id}:chat:<channel>`).
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from events.keys import chat_key

CHANNELS = ("seats", "spectators")
CHAT_KEEP = 1000  # messages a channel keeps (the oldest are trimmed)
START = "0-0"  # before every message
LAST_PART = 2**64 - 1  # each part of a stream id is an unsigned 64-bit integer


def message(channel: str, entry_id: str, fields: Mapping[str, str]) -> dict[str, Any]:
    """A stored entry as clients read it (the `chat` message of the live stream, an item of the page)."""
    seat = fields.get("seat", "")
    return {"id": entry_id, "channel": channel, "seat": int(seat) if seat else None, "name": fields.get("name", ""),
            "text": fields.get("text", ""), "at": int(entry_id.split("-", 1)[0])}


def next_id(entry_id: str) -> str | None:
    """The first stream id after `entry_id` (None after the last there can be)."""
    ms, seq = (int(part) for part in entry_id.split("-", 1))
    if seq < LAST_PART:
        return f"{ms}-{seq + 1}"
    return f"{ms + 1}-0" if ms < LAST_PART else None


def later_id(a: str, b: str) -> str:
    """The later of two stream ids."""
    return max(a, b, key=lambda entry_id: tuple(int(part) for part in entry_id.split("-", 1)))


class ChatLog:
    """Post and read a game's chat channels."""

    def __init__(self, client: Any):
        self.redis = client

    def post(self, game_id: str, channel: str, seat: int | None, name: str, text: str,
             keep_seconds: int) -> dict[str, Any]:
        """Append a message to `channel` and answer it as readers see it."""
        key = chat_key(game_id, channel)
        pipe = self.redis.pipeline(transaction=True)  # the key's expiry is set with the message, never without
        pipe.xadd(key, {"seat": "" if seat is None else str(seat), "name": name, "text": text},
                  maxlen=CHAT_KEEP, approximate=True)
        pipe.expire(key, keep_seconds)
        entry_id, _ = pipe.execute()
        return message(channel, entry_id, {"seat": "" if seat is None else str(seat), "name": name, "text": text})

    def page(self, game_id: str, channel: str, after: str = START, limit: int = 100) -> list[dict[str, Any]]:
        """Messages after the id `after`, oldest first, at most `limit`."""
        start = next_id(after)
        if start is None:  # the last id there can be: nothing follows it (Redis refuses to read past it)
            return []
        entries = self.redis.xrange(chat_key(game_id, channel), start, "+", count=limit)
        return [message(channel, entry_id, fields) for entry_id, fields in entries]

    def everything(self, game_id: str, channels: Iterable[str] = CHANNELS) -> list[dict[str, Any]]:
        """Every message kept of `channels`, in the order they were posted (for the export)."""
        messages: list[dict[str, Any]] = []
        for channel in channels:
            after = START
            while page := self.page(game_id, channel, after, 500):
                messages += page
                after = page[-1]["id"]
        return sorted(messages, key=lambda m: tuple(int(part) for part in m["id"].split("-", 1)))

    def last_id(self, game_id: str, channel: str) -> str:
        """The id of the channel's newest message (START when it has none): a live follower starts after it."""
        newest = self.redis.xrevrange(chat_key(game_id, channel), "+", "-", count=1)
        return newest[0][0] if newest else START


def export_lines(game_id: str, messages: Iterable[dict[str, Any]]) -> Iterable[str]:
    """The chat beside an exported history: a header line, then one message a line (JSON Lines)."""
    yield json.dumps({"format": "tabletop-cartel-chat/1", "game_id": game_id}, separators=(",", ":")) + "\n"
    for item in messages:
        yield json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"
