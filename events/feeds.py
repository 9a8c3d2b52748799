"""Each player's feed (issue 37 item 2): what concerns them across games, one capped Redis stream each.

`GET /v1/players/me/stream` follows it (service/api/my_stream.py); the stream's entry id is the SSE id, so
Last-Event-ID resumes exactly.  The committer's `feeds` step writes a game's notes (`game_notes`: a game
started, a seat became awaited, a game finished, a rematch asked) for the seats bound to players; the
challenges (events/challenges.py) write theirs.  A note carries game ids, versions, seats and a finished
game's outcome sentence: never anything of a game the player has no seat in, nor a hidden card.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from events.keys import player_feed_key
from rules import narration

log = logging.getLogger(__name__)

FEED_MAXLEN = 500  # notes kept per player (approximately: MAXLEN ~): a follower away longer reads my games
FEED_TTL_SECONDS = 30 * 24 * 3600  # a feed nobody wrote to for a month is dropped
ENTRY_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")
KINDS = ("game_started", "your_turn", "game_finished", "rematch_offer", "challenge", "challenge_accepted",
         "challenge_declined")

# KEYS: the feed; ARGV: kind, data (JSON), maxlen, ttl.  The entry before it and the new one, in one step,
# so a publish to Pushpin chains each note to the one before (prev-id), as a game's batches are chained.
_APPEND = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local prev = '0-0'
if last[1] then prev = last[1][1] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'kind', ARGV[1], 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {prev, id}
"""


@dataclass(frozen=True)
class Note:
    """One entry of a player's feed: its stream id, its kind (KINDS) and data."""

    id: str
    kind: str
    data: dict


class Feeds:
    """The players' feeds.  `on_append(player id, note, previous id)` runs after each append (the service
    publishes it to Pushpin there); it may fail: the note is stored, and a follower catches up from it."""

    def __init__(self, client: Any):
        self.redis = client
        self._append = client.register_script(_APPEND)
        self.on_append: Callable[[str, Note, str], None] | None = None

    def append(self, player_id: str, kind: str, data: dict) -> Note:
        prev, entry = self._append(keys=[player_feed_key(player_id)],
                                   args=[kind, json.dumps(data, separators=(",", ":")), FEED_MAXLEN,
                                         FEED_TTL_SECONDS])
        note = Note(entry, kind, data)
        if self.on_append is not None:
            try:
                self.on_append(player_id, note, prev)
            except Exception as error:  # stored: a follower gets it from the feed (Pushpin: at its next link)
                log.warning("publishing note %s of player %s failed (%s: %s); the note stands", note.id, player_id,
                            type(error).__name__, error)
        return note

    def read(self, player_id: str, after: str = "0-0", count: int = 100) -> list[Note]:
        """The notes after the entry id `after`, oldest first."""
        entries = self.redis.xrange(player_feed_key(player_id), f"({after}" if after != "0-0" else "-", "+",
                                    count=count)
        return [_note(entry_id, fields) for entry_id, fields in entries]

    def wait(self, client: Any, player_id: str, after: str, block_ms: int) -> list[Note]:
        """The notes after `after`, waiting up to `block_ms` for one (XREAD BLOCK on `client`, a connection
        whose socket outlasts the block)."""
        answer = client.xread({player_feed_key(player_id): after}, count=100, block=max(1, block_ms))
        return [_note(entry_id, fields) for _, entries in answer or () for entry_id, fields in entries]

    def last_id(self, player_id: str) -> str:
        last = self.redis.xrevrange(player_feed_key(player_id), "+", "-", count=1)
        return last[0][0] if last else "0-0"


def _note(entry_id: str, fields: dict) -> Note:
    return Note(entry_id, fields["kind"], json.loads(fields["data"]))


# ------------------------------------------------------------------ a game's notes
def bound(table: dict) -> dict[int, str]:
    """seat -> player id, for each seat bound to a player (the cheap check: {} for an anonymous table)."""
    return {n: seat["player"] for n, seat in enumerate(table["seats"]) if seat.get("player")}


def game_notes(before: Any, after: Any, envelopes: Iterable[Any]) -> list[tuple[str, str, dict]]:
    """(player id, kind, data) for what an append (or a creation: `before` None) did to seats bound to players.
    `your_turn` is an edge: a seat played by its player that is awaited now and was not before."""
    players = bound(after.table)
    if not players:
        return []
    notes: list[tuple[str, str, dict]] = []
    was = before.status if before is not None else None
    if after.status == "active" and was != "active":
        notes += [(p, "game_started", {"game_id": after.id, "ruleset": after.ruleset.name, "seat": n})
                  for n, p in players.items()]
    if after.status == "active":
        awaited_before = set(before.awaiting()) if was == "active" else set()
        playing = {n for n, seat in enumerate(after.table["seats"]) if seat["kind"] == "human"}
        notes += [(players[n], "your_turn", {"game_id": after.id, "version": after.version, "seat": n})
                  for n in sorted(set(after.awaiting()) - awaited_before) if n in players and n in playing]
    if after.ended and was not in ("finished", "abandoned"):
        result = after.outcome()
        text = narration.outcome_text(result, after.names) if result else None
        notes += [(p, "game_finished", {"game_id": after.id, "version": after.version, "seat": n,
                                        "status": after.status, "outcome": text}) for n, p in players.items()]
    for envelope in envelopes:
        if envelope.type == "RematchAsked":
            asked = envelope.data["seat"]
            notes += [(p, "rematch_offer", {"game_id": after.id, "seat": asked, "your_seat": n})
                      for n, p in players.items() if n != asked]
    return notes
