"""Challenges (issue 37 item 4): a player asks a named player, or a bot level, to a game of a ruleset.

A challenge to a player is open until the challenged player accepts or declines it, the challenger cancels it
or it expires; each step is one script that changes an open challenge only, so two answers never both win.
On accept the service creates the game with both seats bound (service/api/challenges.py).  A challenge to a
bot level is accepted as it is made.  Keys: events/keys.py (`pl:{players}:ch:...`).
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from events.keys import challenge_key, player_challenges_key

CHALLENGE_SECONDS = 24 * 3600  # an unanswered challenge expires a day after it was made
KEEP_SECONDS = 24 * 3600  # an answered or expired challenge is kept this much longer, then dropped
LISTED = 200  # a player's challenges listed, newest first (older ones are dropped from the list)

# KEYS: the challenge; ARGV: the new status, now (ms), the player answering, keep seconds.
# 'missing', the status it had (not open: 'accepted', 'declined', ...), 'expired' (and so marked), or 'ok'.
_SETTLE = """
local fields = redis.call('HMGET', KEYS[1], 'status', 'expires_at')
if not fields[1] then return 'missing' end
if fields[1] ~= 'open' then return fields[1] end
if tonumber(fields[2]) <= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'status', 'expired')
  return 'expired'
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'answered_at', ARGV[2], 'answered_by', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 'ok'
"""


@dataclass(frozen=True)
class Challenge:
    id: str
    challenger: str  # player ids and names
    challenger_name: str
    ruleset: str
    seats: int
    created_at: int
    expires_at: int
    status: str = "open"  # open, accepted, declined, cancelled, expired
    challenged: str | None = None
    challenged_name: str | None = None
    bot: str | None = None  # the bot level challenged instead of a player
    options: dict = field(default_factory=dict)
    clock: dict | None = None
    visibility: str = "public"
    game_id: str | None = None


def _challenge(fields: dict[str, str], now: int) -> Challenge | None:
    if not fields:
        return None
    status = fields["status"]
    if status == "open" and int(fields["expires_at"]) <= now:
        status = "expired"
    return Challenge(fields["id"], fields["challenger"], fields["challenger_name"], fields["ruleset"],
                     int(fields["seats"]), int(fields["created_at"]), int(fields["expires_at"]), status,
                     fields.get("challenged") or None, fields.get("challenged_name") or None, fields.get("bot") or None,
                     json.loads(fields.get("options") or "{}"), json.loads(fields.get("clock") or "null"),
                     fields.get("visibility") or "public", fields.get("game_id") or None)


class Challenges:
    def __init__(self, client: Any):
        self.redis = client
        self._settle = client.register_script(_SETTLE)

    def create(self, challenger: Any, challenged: Any | None, bot: str | None, ruleset: str, seats: int,
               options: dict, clock: dict | None, visibility: str, now: int,
               seconds: int = CHALLENGE_SECONDS) -> Challenge:
        """A new open challenge from `challenger` to the player `challenged` (or to the bot level `bot`)."""
        challenge = Challenge(secrets.token_hex(8), challenger.id, challenger.name, ruleset, seats, now,
                              now + seconds * 1000, "open", challenged.id if challenged else None,
                              challenged.name if challenged else None, bot, dict(options), clock, visibility)
        fields = {"id": challenge.id, "challenger": challenger.id, "challenger_name": challenger.name,
                  "ruleset": ruleset, "seats": seats, "created_at": now, "expires_at": challenge.expires_at,
                  "status": "open", "challenged": challenge.challenged or "",
                  "challenged_name": challenge.challenged_name or "", "bot": bot or "",
                  "options": json.dumps(options, sort_keys=True), "clock": json.dumps(clock, sort_keys=True),
                  "visibility": visibility}
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(challenge_key(challenge.id), mapping=fields)
        pipe.expire(challenge_key(challenge.id), seconds + KEEP_SECONDS)
        for player_id in {challenger.id, *([challenged.id] if challenged else [])}:
            pipe.zadd(player_challenges_key(player_id), {challenge.id: now})
            pipe.zremrangebyrank(player_challenges_key(player_id), 0, -LISTED - 1)
            pipe.expire(player_challenges_key(player_id), seconds + KEEP_SECONDS)
        pipe.execute()
        return challenge

    def get(self, challenge_id: str, now: int) -> Challenge | None:
        return _challenge(self.redis.hgetall(challenge_key(challenge_id)), now)

    def settle(self, challenge_id: str, status: str, by: str, now: int) -> str:
        """Answer an open challenge (`status`: accepted, declined or cancelled): 'ok', or why not ('missing',
        'expired', or the status it had)."""
        return self._settle(keys=[challenge_key(challenge_id)], args=[status, now, by, KEEP_SECONDS])

    def started(self, challenge_id: str, game_id: str) -> None:
        self.redis.hset(challenge_key(challenge_id), "game_id", game_id)

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose game could not be created is open again."""
        self.redis.hset(challenge_key(challenge_id), "status", "open")

    def of_player(self, player_id: str, now: int, limit: int = LISTED) -> list[Challenge]:
        """The player's challenges, sent and received, newest first (those still kept)."""
        ids = self.redis.zrevrange(player_challenges_key(player_id), 0, limit - 1)
        pipe = self.redis.pipeline(transaction=False)
        for challenge_id in ids:
            pipe.hgetall(challenge_key(challenge_id))
        found = [_challenge(fields, now) for fields in pipe.execute()] if ids else []
        return [challenge for challenge in found if challenge is not None]
