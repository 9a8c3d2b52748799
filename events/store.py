"""The Redis Streams event store: one stream per game, compare-and-append.

The key layout is in events/keys.py.  A game's keys all carry the hash tag
`{<game_id>}` so that one server-side script can touch them together on Redis
Cluster.  The lobby indexes are written after the append: a listing, not a
source of truth.  Nothing outside events/ touches this Redis client: the
workers' indexes (`work`) and the lobby counts are methods here.
"""
from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable, Iterator, Mapping, Sequence

import redis
from redis.exceptions import NoScriptError, RedisClusterException

from events.challenges import Challenges
from events.chat import ChatLog, message
from events.envelope import Envelope, decode_entry, encode_fields
from events.feeds import Feeds
from events.keys import (
    ARCHIVED_INDEX,
    ENDED_INDEX,
    IDLE_INDEX,
    chat_key,
    idempotency_key,
    lobby_index,
    meta_key,
    snapshot_key,
    stream_key,
    ticket_key,
)
from events.limits import RateLimited, Toll
from events.players import PlayerStore
from events.presence import Presence
from events.ratings import RatingsStore
from events.visibility import TableAccess
from events.work import WorkIndexes
from rules.base import Event

IDEMPOTENCY_TTL_SECONDS = 24 * 3600
# The longest XREAD BLOCK `follow` asks for.  A client whose socket timeout is
# shorter (redis-py 8 defaults to 5 s) gets blocks clamped under it instead of a
# TimeoutError; the engine gives followers a client whose timeout outlasts this.
FOLLOW_MAX_BLOCK_MS = 30_000
FOLLOW_SOCKET_MARGIN_SECONDS = 10
LOBBY = "{lobby}"  # one hash tag for every listing key, so they share a cluster slot
ENDED = ("finished", "abandoned")
HUMAN_TABLE_COMMANDS = ("CreateGame", "ClaimSeat", "ReclaimSeat")  # engine commands a human sends


def _load_script(name: str) -> str:
    return resources.files("events").joinpath("scripts").joinpath(name).read_text()


def _as_functions(**scripts: str) -> str:
    """Lua defining each named script, unchanged, as a local function of (KEYS, ARGV), for a
    script that runs several in one atomic call."""
    return "".join(f"local function {name}(KEYS, ARGV)\n{_load_script(file)}\nend\n" for name, file in scripts.items())


class ConcurrencyConflict(Exception):
    """The stream moved on: `current_version` is what it is now."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"expected version {expected}, but the game is at version {current}")
        self.expected = expected
        self.current_version = current


class DuplicateCommand(Exception):
    """The idempotency key was used before; `record` is what that command stored."""

    def __init__(self, record: dict):
        super().__init__("idempotency key already used")
        self.record = record


@dataclass(frozen=True)
class PendingEvent:
    """An event ready to append, with who did it and, on a batch's first event, the command."""

    event: Event
    actor: str
    command: Mapping[str, Any] | None = None
    draws: list | None = None  # the command's raw draws, on its first event (docs/fairness.md)
    bot: Mapping[str, Any] | None = None  # a bot's move: how it was chosen (rules/bot_seat.py provenance)


def socket_timeout_of(client: Any) -> float | None:
    """The socket timeout a redis.Redis or RedisCluster client reads with (None: none)."""
    kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", None)
    if kwargs is None:  # RedisCluster keeps its nodes' settings on the nodes manager
        kwargs = getattr(getattr(client, "nodes_manager", None), "connection_kwargs", {})
    return kwargs.get("socket_timeout")


def _block_cap_ms(client: Any) -> int:
    """The longest block `client` can wait out: FOLLOW_MAX_BLOCK_MS, less when its socket times out sooner."""
    timeout = socket_timeout_of(client)
    if timeout is None:
        return FOLLOW_MAX_BLOCK_MS
    return max(1, min(FOLLOW_MAX_BLOCK_MS, int(timeout * 1000) - 1000))


def _append_arguments(game_id: str, expected_version: int, events: Sequence[PendingEvent], at: int, command_id: str,
                      meta: Mapping[str, str] | None, idempotency: tuple[str, dict] | None) -> tuple[list, list]:
    """KEYS and ARGV of append.lua."""
    args: list[Any] = [expected_version]
    idem_key = idempotency_key(game_id, idempotency[0]) if idempotency else idempotency_key(game_id, "-")
    if idempotency:
        args += ["1", IDEMPOTENCY_TTL_SECONDS, json.dumps(idempotency[1], separators=(",", ":"))]
    else:
        args += ["0", 0, ""]
    meta = dict(meta or {})
    args.append(len(meta))
    for name, value in meta.items():
        args += [name, value]
    args.append(len(events))
    for pending in events:
        fields = encode_fields(pending.event, pending.actor, at, command_id, pending.command, pending.draws,
                               pending.bot)
        args.append(len(fields) // 2)
        args += fields
    return [stream_key(game_id), meta_key(game_id), idem_key], args


def _appended(expected_version: int, status: str, value: str) -> int:
    """append.lua's answer: the new version, or the exception it stands for."""
    if status == "conflict":
        raise ConcurrencyConflict(expected_version, int(value))
    if status == "duplicate":
        raise DuplicateCommand(json.loads(value))
    return int(value)


# Forks of this process so far, counted in the child: a connection opened before a fork is the
# parent's (a counter read, where os.getpid() would be a system call on every command).
_FORKS = [0]
os.register_at_fork(after_in_child=lambda: _FORKS.__setitem__(0, _FORKS[0] + 1))


class ThreadConnection:
    """For a command's one round trip: a Redis connection of each thread's own, with the pool's settings.

    Every command through redis-py's pool takes its lock, polls the socket for stray data and sets the
    socket's timeout twice: system calls that a busy web worker pays for in GIL hand-offs.  A connection
    only its thread uses can skip them.  Errors are retried by the connection's own policy (redis-py's
    `Retry`, as the client does), and NOSCRIPT loads the script and runs it again, as `Script` does."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.pool = client.connection_pool
        self._local = threading.local()

    def _connection(self) -> Any:
        local = self._local
        if getattr(local, "forks", None) != _FORKS[0]:  # a forked process opens its own
            local.connection, local.forks = self.pool.connection_class(**self.pool.connection_kwargs), _FORKS[0]
        return local.connection

    def evalsha(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        connection = self._connection()

        def call() -> Any:
            connection.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
            return connection.read_response()

        try:
            return connection.retry.call_with_retry(call, lambda _error: connection.disconnect())
        except NoScriptError:  # a restarted Redis forgot its scripts
            self.client.script_load(script.script)
            return connection.retry.call_with_retry(call, lambda _error: connection.disconnect())


class LobbyReads:
    """The lobby's reads of the store (its index and the rows it lists): apart from EventStore, which keeps
    the games' streams, so each class has one job."""

    redis: redis.Redis

    def list_games(self, status: str | None, ruleset: str | None, offset: int, limit: int) -> tuple[list[str], int]:
        """Game ids, newest first, and the total count, for the lobby."""
        index = lobby_index(status, ruleset)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(index, offset, offset + limit - 1)
        pipe.zcard(index)
        ids, total = pipe.execute()
        return list(ids), int(total)

    def lobby_counts(self, statuses: Iterable[str]) -> list[int]:
        """How many games the lobby lists under each status."""
        pipe = self.redis.pipeline(transaction=False)  # every {lobby} key is in one cluster slot
        for status in statuses:
            pipe.zcard(lobby_index(status))
        return [int(count) for count in pipe.execute()]

    def metas(self, game_ids: Iterable[str]) -> list[dict[str, str]]:
        """Each game's meta record; an archived game's lobby row instead ({} for a game that is neither)."""
        game_ids = list(game_ids)
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(meta_key(game_id))
        pipe.hmget(ARCHIVED_INDEX, game_ids)
        *metas, archived = pipe.execute()
        return [meta or (json.loads(row) if row else {}) for meta, row in zip(metas, archived)]


class EventStore(LobbyReads):
    """Appends and reads game streams.  `client` is a redis.Redis or redis.RedisCluster
    created with decode_responses=True."""

    def __init__(self, client: redis.Redis, follower: redis.Redis | None = None):
        self.redis = client
        # blocking reads (XREAD BLOCK) go through `follower`: a client whose socket
        # timeout is longer than any block, so an idle follow is not cut off
        self.follower = follower or client
        self._follow_cap_ms = _block_cap_ms(self.follower)
        self.work = WorkIndexes(client)
        self.chat = ChatLog(client)  # beside the games' streams, never in them (events/chat.py)
        self.presence = Presence(client)
        self.players = PlayerStore(client)  # players and the index of their seats (events/players.py)
        self.feeds = Feeds(client)  # each player's feed (events/feeds.py)
        self.challenges = Challenges(client)  # challenges between players, or to a bot level (events/challenges.py)
        self.ratings = RatingsStore(client)  # the rated games and their ratings per ruleset (events/ratings.py)
        self.access = TableAccess(client)  # visibility and invitations (events/visibility.py)
        # register_script: EVALSHA, and on NOSCRIPT (a restarted Redis forgets
        # its script cache) it loads the script and retries, so clients never see it.
        self._append = client.register_script(_load_script("append.lua"))
        self._snapshot = client.register_script(_load_script("snapshot.lua"))
        self._drop = client.register_script(_load_script("drop.lua"))
        self._append_with_toll = client.register_script(
            _as_functions(gcra="gcra.lua", append="append.lua") + _load_script("append_with_toll.lua"))
        # append_with_toll runs on a plain Redis only (RateLimiter.rides_on_appends)
        self._own = None if hasattr(client, "get_primaries") else ThreadConnection(client)

    # ------------------------------------------------------------------ writes
    def append(self, game_id: str, expected_version: int, events: Sequence[PendingEvent], *,
               at: int, command_id: str = "", meta: Mapping[str, str] | None = None,
               idempotency: tuple[str, dict] | None = None) -> int:
        """Append `events` if the game is at `expected_version`; return the new version.

        `meta` fields are written to the game's meta hash in the same atomic step
        (status changes, seat control, clocks).  `idempotency` is (scope, record):
        if the scope was used before, nothing is appended and DuplicateCommand
        carries the earlier record; otherwise the record is stored with the events.
        """
        keys, args = _append_arguments(game_id, expected_version, events, at, command_id, meta, idempotency)
        return _appended(expected_version, *self._append(keys=keys, args=args))

    def append_with_toll(self, toll: Toll, game_id: str, expected_version: int, events: Sequence[PendingEvent], *,
                         at: int, command_id: str = "", meta: Mapping[str, str] | None = None,
                         idempotency: tuple[str, dict] | None = None) -> int:
        """`append`, taking a request's rate limits (events/limits.py) in the same atomic call: one
        round trip instead of two.  Refused, nothing is appended and RateLimited is raised; allowed,
        the toll is taken even if the append then conflicts.  Either way `toll` holds the verdicts.
        Plain Redis only (`RateLimiter.rides_on_appends`): on a cluster the keys lie in different slots."""
        keys, args = _append_arguments(game_id, expected_version, events, at, command_id, meta, idempotency)
        packed = json.dumps([str(arg) for arg in args], ensure_ascii=False, separators=(",", ":"))
        keys, args = toll.keys() + keys, [len(toll.limits), *toll.arguments(), packed]
        reply = self._own.evalsha(self._append_with_toll, keys, args)
        toll.record([int(number) for number in reply[2].split()])
        if reply[0] == "limited":
            raise RateLimited(toll.verdicts)
        return _appended(expected_version, reply[0], reply[1])

    def set_meta(self, game_id: str, fields: Mapping[str, str]) -> None:
        """Bookkeeping outside the event history (e.g. timeout counts)."""
        self.redis.hset(meta_key(game_id), mapping=dict(fields))

    def save_snapshot(self, game_id: str, version: int, state: Any, table: Any) -> bool:
        """Keep the folded game `state` and `table` as the game's snapshot unless a newer one is stored."""
        return bool(self._snapshot(keys=[snapshot_key(game_id)],
                                   args=[version, json.dumps(state, separators=(",", ":")),
                                         json.dumps(table, separators=(",", ":"))]))

    def index_game(self, game_id: str, ruleset: str, created_at: int, status: str,
                   previous: str | None = None, at: int | None = None, listed: bool = True) -> None:
        """Lobby listing: every game by creation time, by status, by ruleset and by both (a `listed` one:
        unlisted and private tables never are); and the retention indexes: a new game is watched for
        idleness, an ended one (at `at`) waits to be archived."""
        pipe = self.redis.pipeline(transaction=False)
        if listed:
            for key in (lobby_index(), lobby_index(ruleset=ruleset)):
                pipe.zadd(key, {game_id: created_at})
            if previous and previous != status:
                pipe.zrem(lobby_index(previous), game_id)
                pipe.zrem(lobby_index(previous, ruleset), game_id)
            pipe.zadd(lobby_index(status), {game_id: created_at})
            pipe.zadd(lobby_index(status, ruleset), {game_id: created_at})
        if previous is None and status not in ENDED:
            pipe.zadd(IDLE_INDEX, {game_id: created_at})
        if status in ENDED:
            pipe.zrem(IDLE_INDEX, game_id)
            pipe.zadd(ENDED_INDEX, {game_id: at if at is not None else created_at})
        pipe.execute()

    # ---------------------------------------------------------------- archived games
    def keep_archived_row(self, game_id: str, row: Mapping[str, str]) -> None:
        """What Redis keeps of an archived game: its lobby row (the meta fields the lobby shows)."""
        self.redis.hset(ARCHIVED_INDEX, game_id, json.dumps(dict(row), separators=(",", ":")))

    def is_archived(self, game_id: str) -> bool:
        return bool(self.redis.hexists(ARCHIVED_INDEX, game_id))

    def drop_game(self, game_id: str, version: int) -> bool:
        """Delete an ended game's stream, meta and snapshot if it is still at `version` (once it is
        safely archived); False if it moved on, is not ended, or is gone already."""
        return bool(self._drop(keys=[stream_key(game_id), meta_key(game_id), snapshot_key(game_id)],
                               args=[version]))

    def game_keys_bytes(self, game_id: str) -> int:
        """MEMORY USAGE of the game's stream, meta and snapshot (0 for a key that is not there)."""
        keys = (stream_key(game_id), meta_key(game_id), snapshot_key(game_id))
        return sum(int(self.redis.memory_usage(key, samples=0) or 0) for key in keys)

    def last_human_at(self, game_id: str, page: int = 200) -> int | None:
        """When a human last acted in a game recorded before the meta kept `human_at`: the newest event
        a seat sent, or of a human's table command (created, claimed, reclaimed), read backwards;
        kept in the meta (HSETNX: never over a newer time an append wrote meanwhile)."""
        end, found = "+", None
        while found is None:
            entries = self.redis.xrevrange(stream_key(game_id), end, "-", count=page)
            for _, fields in entries:
                command = json.loads(fields["cmd"]).get("type") if "cmd" in fields else None
                if fields.get("a", "").startswith("seat:") or command in HUMAN_TABLE_COMMANDS:
                    found = int(fields["at"])
                    break
            if found is not None or len(entries) < page:
                break
            end = f"({entries[-1][0]}"
        if found is not None:
            self.redis.hsetnx(meta_key(game_id), "human_at", str(found))
        return found

    # ------------------------------------------------------------------- reads
    def meta(self, game_id: str) -> dict[str, str]:
        return self.redis.hgetall(meta_key(game_id))

    def version(self, game_id: str) -> int:
        return int(self.redis.hget(meta_key(game_id), "version") or 0)

    def snapshot(self, game_id: str) -> tuple[int, Any, Any] | None:
        """(version, table, state) of the latest snapshot; None without one, or for a snapshot
        written before the table was folded (no "t"): such a game is folded from its start."""
        held = self.redis.hmget(snapshot_key(game_id), "v", "s", "t")
        if held[0] is None or held[2] is None:
            return None
        return int(held[0]), json.loads(held[2]), json.loads(held[1])

    def read(self, game_id: str, after: int = 0, limit: int | None = None,
             until: int | None = None) -> list[Envelope]:
        """Events with version in (after, until], oldest first, at most `limit`."""
        end = f"{until}-0" if until is not None else "+"
        if until is not None and until <= after:
            return []
        entries = self.redis.xrange(stream_key(game_id), f"({after}-0" if after else "-", end, count=limit)
        return [decode_entry(game_id, entry_id, fields) for entry_id, fields in entries]

    def meta_and_tail(self, game_id: str, after: int, inclusive: bool = False) -> tuple[dict, list[Envelope]]:
        """One round trip for what loading a cached game needs: its meta and the
        first page of events after `after` (from `after` itself if `inclusive`).  The meta is read
        first: the page may run past the meta's version (an append in between), never stop short of it."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(meta_key(game_id))
        start = (f"{after}-0" if inclusive else f"({after}-0") if after else "-"
        pipe.xrange(stream_key(game_id), start, "+", count=1000)
        meta, entries = pipe.execute()
        return meta, [decode_entry(game_id, entry_id, fields) for entry_id, fields in entries]

    def read_all(self, game_id: str, after: int = 0, batch: int = 1000) -> Iterator[Envelope]:
        """Every event after `after`, read in batches."""
        while True:
            page = self.read(game_id, after, batch)
            yield from page
            if len(page) < batch:
                return
            after = page[-1].version

    def follow(self, game_id: str, after: int, block_ms: int) -> list[Envelope]:
        """Events after `after`, waiting up to `block_ms` (at most FOLLOW_MAX_BLOCK_MS, and
        always under the follower's socket timeout) for the first one."""
        block_ms = max(1, min(block_ms, self._follow_cap_ms))  # BLOCK 0 would wait forever
        reply = self.follower.xread({stream_key(game_id): f"{after}-0"}, count=500, block=block_ms)
        if not reply:
            return []
        entries = reply[0][1]
        return [decode_entry(game_id, entry_id, fields) for entry_id, fields in entries]

    def follow_many(self, streams: Mapping[str, int], block_ms: int) -> dict[str, list[Envelope]]:
        """Events after each game's version in `streams`, waiting up to `block_ms` for the first."""
        return self.follow_feeds(streams, {}, block_ms)[0]

    def follow_feeds(self, streams: Mapping[str, int], chats: Mapping[tuple[str, str], str],
                     block_ms: int) -> tuple[dict[str, list[Envelope]], dict[tuple[str, str], list[dict]]]:
        """Events after each game's version in `streams` and chat messages after each (game, channel)'s
        id in `chats`, waiting up to `block_ms` for the first of either.  One XREAD for all of them on a
        plain Redis; on a cluster (one XREAD may not span slots) each stream is read without blocking,
        and an idle round sleeps out the block."""
        block_ms = max(1, min(block_ms, self._follow_cap_ms))
        keys = {stream_key(game_id): f"{after}-0" for game_id, after in streams.items()}
        keys.update({chat_key(game_id, channel): last for (game_id, channel), last in chats.items()})
        if hasattr(self.follower, "get_primaries"):
            reply = [(key, found[0][1]) for key, last in keys.items()
                     if (found := self.redis.xread({key: last}, count=500))]
            if not reply:
                time.sleep(block_ms / 1000)
        else:
            reply = self.follower.xread(keys, count=500, block=block_ms) or []
        by_key = {stream_key(game_id): game_id for game_id in streams}
        chat_by_key = {chat_key(game_id, channel): (game_id, channel) for game_id, channel in chats}
        events, said = {}, {}
        for key, entries in reply:
            if key in by_key:
                events[by_key[key]] = [decode_entry(by_key[key], i, f) for i, f in entries]
            else:
                said[chat_by_key[key]] = [message(chat_by_key[key][1], i, f) for i, f in entries]
        return events, said

    def issue_ticket(self, game_id: str, digest: str, seat: int, ttl_seconds: int) -> None:
        """Record a stream ticket (by its digest) as reading `seat`'s feed until it expires."""
        self.redis.set(ticket_key(game_id, digest), str(seat), ex=ttl_seconds)

    def ticket_seat(self, game_id: str, digest: str) -> int | None:
        """The seat a ticket reads as, or None (unknown, expired, or another game's)."""
        seat = self.redis.get(ticket_key(game_id, digest))
        return int(seat) if seat is not None else None

    def status(self, game_id: str) -> str | None:
        """The game's status from its meta record (written with the events that change it)."""
        return self.redis.hget(meta_key(game_id), "status")

    def finished_at(self, game_id: str) -> int | None:
        """The game's last version if it ended (finished or abandoned), else None."""
        status, version = self.redis.hmget(meta_key(game_id), "status", "version")
        return int(version) if status in ENDED else None

    def idempotency_record(self, game_id: str, scope: str) -> dict | None:
        raw = self.redis.get(idempotency_key(game_id, scope))
        return json.loads(raw) if raw else None

    def ping(self) -> bool:
        """Redis answers (every primary, on a cluster); False when it does not."""
        try:
            if hasattr(self.redis, "get_primaries"):  # Redis Cluster: PING alone asks one node
                return bool(self.redis.ping(target_nodes=self.redis.PRIMARIES))
            return bool(self.redis.ping())
        except (redis.RedisError, RedisClusterException):
            return False
