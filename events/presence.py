"""Presence: which seats have a live follower now, kept in Redis beside the game, never in its history.

Each follower of a seat's stream renews its own member of the game's sorted set
(`g:{id}:presence`, events/keys.py), `"<seat>:<follower>"` scored with the time (ms) until which it
counts; a seat is present while one of its members is current.  Who renews, and how often, is the
streams' business (service/sse.py for the built-in hub: while its loop runs, and it leaves when it
ends; service/grip.py for Pushpin: each hold answered, which Pushpin asks for again every
GRIP_RECOVER_SECONDS).  Spectators are not recorded.  Renewing and leaving never fail a stream: a
Redis error there is logged and the member simply lapses.
"""
from __future__ import annotations

import logging
from typing import Any

import redis

from events.keys import presence_key

log = logging.getLogger(__name__)
KEY_SECONDS = 3600  # the set disappears an hour after its last renewal (members lapse long before)


class Presence:
    """The presence registry over the event store's Redis client."""

    def __init__(self, client: Any):
        self.redis = client

    def renew(self, game_id: str, seat: int, follower: str, ttl_ms: int, now_ms: int) -> None:
        """`follower` of `seat` is live: it counts until `now_ms + ttl_ms` unless renewed."""
        key = presence_key(game_id)
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zadd(key, {f"{seat}:{follower}": now_ms + ttl_ms}, gt=True)
            pipe.zremrangebyscore(key, "-inf", now_ms)  # the lapsed, so the set stays as small as its followers
            pipe.expire(key, KEY_SECONDS)
            pipe.execute()
        except redis.RedisError as error:
            log.warning("presence of seat %s in %s not renewed: %s", seat, game_id, error)

    def leave(self, game_id: str, seat: int, follower: str) -> None:
        """`follower` stopped following (its stream ended): it no longer counts."""
        try:
            self.redis.zrem(presence_key(game_id), f"{seat}:{follower}")
        except redis.RedisError as error:
            log.warning("presence of seat %s in %s not withdrawn (it lapses): %s", seat, game_id, error)

    def present(self, game_id: str, now_ms: int) -> list[int]:
        """The seats with a current member, ascending."""
        members = self.redis.zrangebyscore(presence_key(game_id), f"({now_ms}", "+inf")
        return sorted({int(member.split(":", 1)[0]) for member in members})
