"""Every Redis key name the service uses, in one place (as rq keeps its own).

A game's keys share the hash tag `{<game_id>}`, so one script can touch them
together on Redis Cluster; the lobby's and the workers' indexes share `{lobby}`,
and the rate limiter's keys share `{ratelimit}` (each group lands in one slot).

    g:{id}:events        stream: the game's events, entry id "<version>-0"
    g:{id}:meta          hash: version, seed, token hashes, deadlines, human_at, and the table's projection
    g:{id}:snap          hash: v (version), s (game state JSON), t (table JSON): the latest snapshot
    g:{id}:idem:<scope>  string: the record of the command that used an Idempotency-Key
    g:{id}:ticket:<sha256>  string: the seat a stream ticket reads as (expires with the ticket)
    g:{id}:chat:<channel>   stream: the game's chat, channel "seats" or "spectators" (events/chat.py); not
                         part of the game's history; expires CHAT_KEEP_SECONDS after its last message
    g:{id}:presence      sorted set: "<seat>:<follower>" -> until when (ms) that follower counts as live
                         (events/presence.py); expires with its last member
    {lobby}:all, {lobby}:status:<s>, {lobby}:ruleset:<r>, {lobby}:status:<s>:ruleset:<r>
                         sorted sets: game ids by creation time (the lobby listing)
    {lobby}:botwait      sorted set: game id -> ms since a bot seat has been awaited
    {lobby}:clocks       sorted set: game id -> the earliest human deadline (ms)
    {lobby}:unsettled    sorted set: game id -> when an append was about to be made that the sweeper has
                         not yet checked the indexes above against (a process may die before it updates them)
    {lobby}:botstuck     hash: game id -> {"version", "seats"}: bot moves that failed for good
    {lobby}:clockfail    hash: game id -> {"<seat>": [deadline, failed attempts]}: clock jobs that failed
    {lobby}:idle         sorted set: open or active game id -> when a human last acted there, as last seen (ms)
    {lobby}:ended        sorted set: finished or abandoned game id (not yet archived) -> when it ended (ms)
    {lobby}:archived     hash: archived game id -> its lobby row (JSON): all Redis keeps of an archived game
    {lobby}:retention    string: set once the retention indexes were filled from the lobby's (an upgrade)
    pl:{players}:names   hash: a player's name, lower-cased -> player id (names are unique, case aside)
    pl:{players}:keys    hash: SHA-256 of a player key -> player id (the key itself is never stored)
    pl:{players}:ext     hash: a platform's external_id -> player id (players an app key created)
    pl:{players}:p:<id>  hash: id, name, key (its SHA-256), created_at, external_id (events/players.py)
    pl:{players}:games:<id>  sorted set: "<game id>:<seat>" -> when the seat was bound to the player (ms)
    pl:{players}:feed:<id>   stream: the player's feed, capped (events/feeds.py): kind, data (JSON)
    pl:{players}:ch:<id>     hash: a challenge (events/challenges.py); expires a day after it does
    pl:{players}:chs:<id>    sorted set: challenge id -> when it was made, a player's sent and received ones
    rl:{ratelimit}:<kind>:<id>   string: a rate limit's theoretical arrival time (µs); kind addr, tok, or
                         chat (the chat's own limit, per seat token or spectator address), analysis (the
                         searches' own, per token or address), or player (an app key acting for a player: their
                         external_id's digest)

RQ keeps its own keys (`rq:*`) on the queue Redis; an analysis's result is its job's (service/analysis.py).
"""
from __future__ import annotations

LOBBY = "{lobby}"
BOT_WAIT_INDEX = f"{LOBBY}:botwait"
CLOCK_INDEX = f"{LOBBY}:clocks"
UNSETTLED_INDEX = f"{LOBBY}:unsettled"
BOT_STUCK_INDEX = f"{LOBBY}:botstuck"
CLOCK_FAILURES_INDEX = f"{LOBBY}:clockfail"
IDLE_INDEX = f"{LOBBY}:idle"
ENDED_INDEX = f"{LOBBY}:ended"
ARCHIVED_INDEX = f"{LOBBY}:archived"
RETENTION_BACKFILLED = f"{LOBBY}:retention"
RATE_LIMIT_PREFIX = "rl:{ratelimit}:"
PLAYERS = "pl:{players}"  # one hash tag for every player key, so the player scripts run on Redis Cluster
PLAYER_NAMES = f"{PLAYERS}:names"
PLAYER_KEYS = f"{PLAYERS}:keys"
PLAYER_EXTERNAL_IDS = f"{PLAYERS}:ext"


def stream_key(game_id: str) -> str:
    return f"g:{{{game_id}}}:events"


def meta_key(game_id: str) -> str:
    return f"g:{{{game_id}}}:meta"


def snapshot_key(game_id: str) -> str:
    return f"g:{{{game_id}}}:snap"


def idempotency_key(game_id: str, scope: str) -> str:
    return f"g:{{{game_id}}}:idem:{scope}"


def ticket_key(game_id: str, digest: str) -> str:
    return f"g:{{{game_id}}}:ticket:{digest}"


def lobby_index(status: str | None = None, ruleset: str | None = None) -> str:
    """`{lobby}:all`, `{lobby}:status:open`, `{lobby}:ruleset:kingpin`, `{lobby}:status:open:ruleset:kingpin`."""
    parts = [LOBBY] + ([f"status:{status}"] if status else []) + ([f"ruleset:{ruleset}"] if ruleset else [])
    return ":".join(parts) if len(parts) > 1 else f"{LOBBY}:all"


def rate_limit_key(kind: str, identity: str) -> str:
    """One limit's key: kind "addr" or "tok", identity the address or the token's digest."""
    return f"{RATE_LIMIT_PREFIX}{kind}:{identity}"


def chat_key(game_id: str, channel: str) -> str:
    return f"g:{{{game_id}}}:chat:{channel}"


def presence_key(game_id: str) -> str:
    return f"g:{{{game_id}}}:presence"


def invitation_field(seat: int) -> str:
    """The meta field holding an open seat's invitation: "<sha256 of its token>:<expires at, ms>"."""
    return f"inv:{seat}"


RATINGS = "rt:{ratings}"  # one hash tag for the ratings' keys (events/ratings.py), so its scripts run on a Cluster


def ratings_key(ruleset: str) -> str:
    return f"{RATINGS}:r:{ruleset}"


def ratings_lock_key(ruleset: str) -> str:
    return f"{RATINGS}:lock:{ruleset}"


def rated_games_key(ruleset: str) -> str:
    return f"{RATINGS}:g:{ruleset}"


def rated_set_key(ruleset: str) -> str:
    return f"{RATINGS}:s:{ruleset}"


def player_key(player_id: str) -> str:
    return f"{PLAYERS}:p:{player_id}"


def player_games_key(player_id: str) -> str:
    return f"{PLAYERS}:games:{player_id}"


def player_feed_key(player_id: str) -> str:
    return f"{PLAYERS}:feed:{player_id}"


def challenge_key(challenge_id: str) -> str:
    return f"{PLAYERS}:ch:{challenge_id}"


def player_challenges_key(player_id: str) -> str:
    return f"{PLAYERS}:chs:{player_id}"
