"""Players: a name and a key that outlive any one seat (issue 37), kept in Redis beside the games' indexes.

A player is an id, a display name (unique whatever its case), the SHA-256 of their key (the key is shown
once and never stored, as seat tokens are) and, for a player an app key created, the platform's own
`external_id`.  Which seats a player holds is recorded in each game's history (the seat's `player`,
events/table.py); `games` is an index of them, written after the append like the lobby's (a listing,
not a source of truth).  Keys: events/keys.py (`pl:{players}:...`, one hash tag, so each script below
runs on Redis Cluster too).
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from events.keys import PLAYER_EXTERNAL_IDS, PLAYER_KEYS, PLAYER_NAMES, player_games_key, player_key

NAME_MIN, NAME_MAX = 2, 24
# ASCII letters, digits, "_" and "-", starting with a letter or a digit: a name is read by everyone at the
# table and typed by whoever challenges it, so no look-alike letters, spaces or marks to tell apart
PLAYER_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_-]{{{NAME_MIN - 1},{NAME_MAX - 1}}}")
NAME_RULES = (f"{NAME_MIN} to {NAME_MAX} characters: ASCII letters, digits, '_' and '-', starting with a letter "
              "or a digit; unique whatever the case ('Ada' and 'ada' are one name)")
EXTERNAL_ID = re.compile(r"[A-Za-z0-9._:@|+-]{1,128}")
EXTERNAL_ID_RULES = "1 to 128 characters: ASCII letters, digits and . _ : @ | + -"

# KEYS: names, keys, external ids, the player; ARGV: lower-cased name, id, key digest, name, created_at,
# external_id ("" for none).  The name (and external id) is taken and the player written in one step.
_CREATE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'name-taken' end
if ARGV[6] ~= '' and redis.call('HEXISTS', KEYS[3], ARGV[6]) == 1 then return 'external-id-taken' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[4], 'id', ARGV[2], 'name', ARGV[4], 'key', ARGV[3], 'created_at', ARGV[5])
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[6], ARGV[2])
  redis.call('HSET', KEYS[4], 'external_id', ARGV[6])
end
return 'ok'
"""
# KEYS: keys, the player; ARGV: the new key's digest.  The old key stops working in the same step.
_ROTATE = """
local old = redis.call('HGET', KEYS[2], 'key')
if not old then return 0 end
redis.call('HDEL', KEYS[1], old)
redis.call('HSET', KEYS[1], ARGV[1], redis.call('HGET', KEYS[2], 'id'))
redis.call('HSET', KEYS[2], 'key', ARGV[1])
return 1
"""


class NameTaken(Exception):
    """The name (whatever its case), or the external id, belongs to another player."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what  # "name-taken" or "external-id-taken"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    created_at: int
    external_id: str | None = None


def name_refusal(name: Any) -> str | None:
    """Why `name` cannot be a player's name (None: it can)."""
    if not isinstance(name, str) or not PLAYER_NAME.fullmatch(name):
        return f"a player's name is {NAME_RULES}"
    return None


def _player(fields: dict[str, str]) -> Player | None:
    if not fields:
        return None
    return Player(fields["id"], fields["name"], int(fields["created_at"]), fields.get("external_id"))


class PlayerStore:
    """Players and the index of their seats.  `client`: a redis.Redis (or RedisCluster), decode_responses=True."""

    def __init__(self, client: Any):
        self.redis = client
        self._create = client.register_script(_CREATE)
        self._rotate = client.register_script(_ROTATE)

    def create(self, name: str, key_digest: str, created_at: int, external_id: str | None = None) -> Player:
        """A new player holding the key whose digest is given; NameTaken if the name (any case) or the
        external id is another player's."""
        player_id = secrets.token_hex(8)
        answer = self._create(keys=[PLAYER_NAMES, PLAYER_KEYS, PLAYER_EXTERNAL_IDS, player_key(player_id)],
                              args=[name.lower(), player_id, key_digest, name, created_at, external_id or ""])
        if answer != "ok":
            raise NameTaken(answer)
        return Player(player_id, name, created_at, external_id)

    def by_key(self, key_digest: str) -> Player | None:
        """The player whose key has this digest (None: no player's, or a key rotated away)."""
        player_id = self.redis.hget(PLAYER_KEYS, key_digest)
        return self.get(player_id) if player_id else None

    def by_external_id(self, external_id: str) -> Player | None:
        player_id = self.redis.hget(PLAYER_EXTERNAL_IDS, external_id)
        return self.get(player_id) if player_id else None

    def by_name(self, name: str) -> Player | None:
        player_id = self.redis.hget(PLAYER_NAMES, name.lower())
        return self.get(player_id) if player_id else None

    def get(self, player_id: str) -> Player | None:
        return _player(self.redis.hgetall(player_key(player_id)))

    def rotate(self, player_id: str, key_digest: str) -> bool:
        """Give the player a new key (by its digest): the old one stops working at once."""
        return bool(self._rotate(keys=[PLAYER_KEYS, player_key(player_id)], args=[key_digest]))

    # ------------------------------------------------------------------ their seats
    def bind(self, player_id: str, game_id: str, seat: int, at: int) -> None:
        """Index a seat bound to the player (its history records the binding; this lists it)."""
        self.redis.zadd(player_games_key(player_id), {f"{game_id}:{seat}": at}, nx=True)

    def seats(self, player_id: str, offset: int, limit: int) -> tuple[list[tuple[str, int]], int]:
        """(game id, seat) pairs bound to the player, newest first, and how many there are."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(player_games_key(player_id), offset, offset + limit - 1)
        pipe.zcard(player_games_key(player_id))
        members, total = pipe.execute()
        pairs = [(member.rpartition(":")[0], int(member.rpartition(":")[2])) for member in members]
        return pairs, int(total)
