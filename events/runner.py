"""The game runner: load -> decide -> compare-and-append, for any ruleset.

It knows neither HTTP nor any particular game.  The HTTP views, the bot jobs and
the clock jobs all submit through `GameRunner.execute`, so a move is validated
and recorded the same way whoever makes it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable, Iterable, Mapping

from redis.exceptions import RedisError

from events import clocks
from events import table as tables
from events.archive import ArchiveStore, archived_game_parts
from events.clocks import NotAwaited as NotAwaited  # re-exported: the refusals of who may act (events/clocks.py)
from events.clocks import SeatPlayedByBot as SeatPlayedByBot
from events.envelope import Envelope, actor_for, canonical
from events.limits import Toll
from events.narration import narrate
from events.seeds import SEALED, effective_seed, seal, unseal
from events.store import ConcurrencyConflict, DuplicateCommand, EventStore, PendingEvent
from events.table import ENDED, ENGINE_EVENTS, GameClosed, NoSuchSeat
from rules.base import WORLD, BadCommand, Event, IllegalMove, KeyedRng, Rng, fold, redact, seed_commitment
from rules.narration import Names
from rules.ruleset import Ruleset, latest_version, ruleset_at, table_checks

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 200
CACHE_GAMES = 2000
CACHE_ARCHIVED_GAMES = 64  # archived games are immutable: a small cache spares re-reading and re-folding them
RETRIES_ON_CONFLICT = 8


class GameNotFound(LookupError):
    pass


class IdempotencyMismatch(Exception):
    """An Idempotency-Key reused with a different command."""


class StaleCommand(ConcurrencyConflict):
    """A command sent against a version the game has left, judged at the current version:
    `still_legal` says whether the seat may send the same command now (so a client can resend it
    at once, without a read).  It is about the sender's own command only, which the sender's view
    (its legal moves) shows anyway: it reveals no other seat's secret."""

    def __init__(self, expected: int, current: int, still_legal: bool):
        super().__init__(expected, current)
        self.still_legal = still_legal


def now_ms() -> int:
    return int(time.time() * 1000)


def new_command_id() -> str:
    """A command's id, which groups its events in the stream: not a secret (every reader sees it), only
    unique, as 64 random bits are.  `random` (reseeded in every forked process) draws them without the
    system call `secrets` makes for each, which a busy web worker pays for in GIL hand-offs."""
    return f"{random.getrandbits(64):016x}"


@dataclass
class Game:
    """A game as loaded: the table (seats, control, clock settings, timeouts) and the game's own
    state, both folded from its events; its version; and its meta record (the seed, token hashes
    and deadlines, with the table's projection)."""

    id: str
    ruleset: Ruleset
    meta: dict[str, str]
    version: int
    state: Any
    table: dict
    fresh: bool = True  # False: this process's cached copy, possibly behind the store
    # An archived game (events/retention.py): read from the archive store, gone from Redis; `history`
    # is its every event, and `archived_text` the archived history, served as it is
    archived: bool = False
    history: tuple[Envelope, ...] = ()
    archived_text: str = ""

    @property
    def status(self) -> str:
        """open (seats to fill), active, finished or abandoned: read off the folded states."""
        return tables.game_status(self.table, self.state, self.ruleset)

    @property
    def ended(self) -> bool:
        """Finished or abandoned: it takes no more moves, and its secrets and seed are published."""
        return self.status in ENDED

    @property
    def seats(self) -> list[dict]:
        return [dict(seat) for seat in self.table["seats"]]

    @property
    def options(self) -> dict:
        return dict(self.table["options"])

    @property
    def names(self) -> Names:
        """The names the players chose, for the events' sentences (events/narration.py)."""
        return Names.of_table(self.table)

    @property
    def clock(self) -> dict:
        return dict(self.table["clock"])

    @property
    def deadlines(self) -> dict[int, int]:
        return {int(k): v for k, v in json.loads(self.meta.get("deadlines") or "{}").items()}

    @property
    def timeouts(self) -> dict[int, int]:
        return {int(k): v for k, v in self.table["timeouts"].items()}

    @property
    def seed(self) -> str:
        """The server's secret seed, the one committed to at creation (revealed at the end)."""
        return self.meta["seed"]

    @property
    def draw_counters(self) -> dict[str, int]:
        """Under draw keys: each roller's draw calls so far by kind, {"2/dice": 5, ...} (rules/base.py
        KeyedRng), written by the same atomic append as the events that made them."""
        return json.loads(self.meta.get("draw_counters") or "{}")

    @property
    def window_closes(self) -> int | None:
        """When the contribution window closes (ms), while it is open (events/table.py)."""
        window = self.table.get("window")
        if not window or window["closed"] or self.state is not None or not self.meta.get("window_closes"):
            return None  # none, closed, or the game started (every human seat sent its entropy)
        return int(self.meta["window_closes"])

    def command_rng(self, roller: str, record: bool = True) -> Rng:
        """The stream the next command draws from: under draw keys (GameCreated's draw_keys) each draw
        call on its roller's own stream, counted from the game's counters (a copy: the append writes
        them); before, one stream labelled by the command's first version (docs/fairness.md)."""
        if self.table.get("draw_keys"):
            return KeyedRng(self.effective_seed, self.draw_counters, roller, record=record)
        return Rng(self.effective_seed, self.version + 1, record=record)

    @property
    def effective_seed(self) -> str:
        """The seed every stream of the game is keyed by: the server's mixed with the players'
        entropy (events/seeds.py); the server's itself when nobody sent any.  As secret as the seed."""
        return effective_seed(self.seed, self.table)

    def awaiting(self) -> dict[int, str]:
        """Whom the game awaits now, seat -> kind of wait (events/clocks.py)."""
        return clocks.awaited(self.status, self.ruleset, self.state)

    def outcome(self) -> dict | None:
        return tables.game_outcome(self.table, self.state, self.ruleset)

    def last_human_at(self) -> int | None:
        """When a human last did something here (created, claimed, moved, reclaimed), from the meta
        record (None in a game recorded before the engine kept it)."""
        value = self.meta.get("human_at")
        return int(value) if value else None


def fold_game(ruleset: Ruleset, events: Iterable[Event], table: dict | None, state: Any) -> tuple[dict | None, Any]:
    """The engine's events into the table, the game's into its state.  The two folds read nothing
    of each other, so the game's events are folded in one go (in place, on the fold's own copy,
    for a ruleset that can: rules/ruleset.py fold_in_place), never changing `state`."""
    game_events = []
    for event in events:
        if event.type in ENGINE_EVENTS:
            table = tables.evolve(table, event)
        else:
            game_events.append(event)
    return table, fold(ruleset, game_events, state)


@dataclass
class CommandResult:
    game: Game
    first_version: int  # first event this command appended (version + 1 when nothing was)
    events: list[Envelope] = field(default_factory=list)
    duplicate: bool = False


@dataclass(frozen=True)
class Append:
    """What one compare-and-append writes besides the events: who sent them (`actor`), the command
    (stored with the first event) and its id, meta fields to write with them, the idempotency record,
    whether a human sent it (`human`) and the request's rate-limit toll (`GameRunner.execute`)."""

    actor: str
    command: Mapping[str, Any]
    command_id: str
    meta: Mapping[str, str] = field(default_factory=dict)
    idempotency: tuple[str, dict] | None = None
    human: bool = False
    toll: Toll | None = None
    draws: list | None = None  # the command's raw draws (Rng.recorded()), stored with its first event
    bot: Mapping[str, Any] | None = None  # a bot's move: how it was chosen (rules/bot_seat.py provenance)


def fingerprint(command: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(command, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class GameRunner:
    def __init__(self, store: EventStore, rulesets: Mapping[str, Ruleset],
                 after_append: Callable[[Game, Game | None], None] | None = None,
                 clock: Callable[[], int] = now_ms, snapshot_every: int = SNAPSHOT_EVERY,
                 archive: ArchiveStore | None = None, seed_key: str | None = None):
        self.store = store
        # the operator's key that seals live seeds at rest (events/seeds.py seal): None stores them as they are
        self.seed_key = seed_key
        self.archive = archive  # where ended games go after ARCHIVE_AFTER_SECONDS (events/retention.py)
        self._archived: OrderedDict[str, Game] = OrderedDict()
        self.rulesets = rulesets
        self.after_append = after_append
        # after each append, the batch goes to the live streams' push engine (service/grip.py Publisher)
        self.publish: Callable[[Game, Game, list[Envelope]], None] | None = None
        self.clock = clock
        self.snapshot_every = snapshot_every
        # game id -> (version, (table, state), command id of the event at that version, meta)
        self._cache: OrderedDict[str, tuple[int, tuple, str, dict]] = OrderedDict()

    # ----------------------------------------------------------------- loading
    def load(self, game_id: str, version: int | None = None) -> Game:
        """The game at its latest version (or at `version`, for time travel)."""
        if version is not None:
            return self._load_at(game_id, version)
        cached = self._cache.get(game_id)
        if cached:
            base_version, folded, base_command = cached[:3]
        else:
            snapshot = self.store.snapshot(game_id)
            base_version, folded, base_command = (snapshot[0], snapshot[1:], "") if snapshot else (0, (None, None), "")
        # The tail starts at the base version's own event, to check it is still the one folded.
        meta, tail = self.store.meta_and_tail(game_id, base_version, inclusive=True)
        if base_version:
            if tail and tail[0].version == base_version and (cached is None or tail[0].command_id == base_command):
                base_command, tail = tail[0].command_id, tail[1:]
            elif meta:
                # Redis no longer holds the event this process folded last: a failover lost the last
                # writes (asynchronous replication), or a backup was restored.  Redis is the truth.
                self._cache.pop(game_id, None)
                base_version, folded, base_command = 0, (None, None), ""
                meta, tail = self.store.meta_and_tail(game_id, 0)
        if not meta:
            self._cache.pop(game_id, None)  # archived since this process cached it, or never there
            return self.load_archived(game_id)
        meta = self._opened(meta)
        ruleset = self.ruleset_of(meta)
        # Up to the meta's version only: the meta (its draw counters, deadlines) is the one those events left
        upto = int(meta.get("version", 0))
        tail = [e for e in tail if e.version <= upto]
        folded, last, command = self._fold_tail(ruleset, tail, folded, base_version, base_command)
        if last < upto:  # a tail longer than one page
            rest = (e for e in self.store.read_all(game_id, after=last) if e.version <= upto)
            folded, last, command = self._fold_tail(ruleset, rest, folded, last, command)
        self._remember(game_id, last, folded, command, meta)
        return Game(game_id, ruleset, meta, last, folded[1], folded[0])

    def peek(self, game_id: str) -> Game:
        """The game as this process last saw it, without reading Redis (or loaded, if not cached).
        Whoever acts on it must tolerate a stale copy: the append's version check catches it."""
        cached = self._cache.get(game_id)
        if cached is None:
            return self.load(game_id)
        version, (table, state), _, meta = cached
        return Game(game_id, self.ruleset_of(meta), dict(meta), version, state, table, fresh=False)

    @staticmethod
    def _fold_tail(ruleset: Ruleset, envelopes, folded: tuple, last: int, command: str) -> tuple[tuple, int, str]:
        """fold_game of a stream tail onto (table, state); the last version and command id read."""
        envelopes = list(envelopes)
        if envelopes:
            last, command = envelopes[-1].version, envelopes[-1].command_id
        return fold_game(ruleset, (e.event for e in envelopes), *folded), last, command

    def _load_at(self, game_id: str, version: int) -> Game:
        meta = self._opened(self.store.meta(game_id))
        if not meta:
            archived = self.load_archived(game_id)
            table, state = fold_game(archived.ruleset, (e.event for e in archived.history[:version]), None, None)
            return replace(archived, version=min(version, archived.version), table=table, state=state)
        ruleset = self.ruleset_of(meta)
        events = (e.event for e in self.store.read_all(game_id) if e.version <= version)
        table, state = fold_game(ruleset, events, None, None)
        return Game(game_id, ruleset, meta, min(version, int(meta["version"])), state, table)

    def load_archived(self, game_id: str) -> Game:
        """An archived game, from the archive store: only when Redis lists it as archived (so an
        unknown id never costs a look in the archive)."""
        cached = self._archived.get(game_id)
        if cached is not None:
            self._archived.move_to_end(game_id)
            return cached
        if self.archive is None or not self.store.is_archived(game_id):
            raise GameNotFound(game_id)
        text = self.archive.get(game_id)
        if text is None:
            raise GameNotFound(game_id)
        meta, envelopes = archived_game_parts(game_id, text)
        ruleset = self.ruleset_of(meta)
        table, state = fold_game(ruleset, (e.event for e in envelopes), None, None)
        game = Game(game_id, ruleset, meta, len(envelopes), state, table, archived=True,
                    history=tuple(envelopes), archived_text=text)
        game.meta["status"] = game.status
        self._archived[game_id] = game
        while len(self._archived) > CACHE_ARCHIVED_GAMES:
            self._archived.popitem(last=False)
        return game

    def _opened(self, meta: dict) -> dict:
        """The meta as this process works with it: the seed opened if it is stored sealed (in memory only:
        an append writes the fields it changes, never the seed)."""
        if meta and meta.get("seed", "").startswith(SEALED):
            meta = {**meta, "seed": unseal(meta["seed"], self.seed_key)}
        return meta

    def forget(self, game_id: str) -> None:
        """Drop this process's cached copy (the game was archived)."""
        self._cache.pop(game_id, None)

    def ruleset_of(self, meta: Mapping[str, str]) -> Ruleset:
        """The game's ruleset at the rules version it was created under (before versions: 1)."""
        return ruleset_at(self.rulesets[meta["ruleset"]], int(meta.get("ruleset_version", 1)))

    def _remember(self, game_id: str, version: int, folded: tuple, command_id: str, meta: dict) -> None:
        self._cache[game_id] = (version, folded, command_id, meta)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_GAMES:
            self._cache.popitem(last=False)

    # ---------------------------------------------------------------- creating
    def create_game(self, ruleset_name: str, seats: list[dict], options: Mapping[str, Any] | None = None,
                    seed: str | None = None, clock: Mapping[str, Any] | None = None,
                    token_hashes: Mapping[int, str] | None = None, contribution_seconds: int = 0) -> Game:
        """Record a new game and commit to its seed, before any player's entropy can reach the server:
        the human seats contribute afterwards, within `contribution_seconds` (events/table.py).  It
        starts at once when no seat is open and the window waits for nobody.  A `seed` given by the
        caller (the service allows it only under an operator's setting) is recorded as "fixed"."""
        version = latest_version(self.rulesets[ruleset_name])  # a new game is played under the latest rules
        ruleset = ruleset_at(self.rulesets[ruleset_name], version)
        levels = [seat.get("level", "random") for seat in seats if seat["kind"] == "bot"]
        try:  # clock.bot_level: the level a timed-out seat goes to, refused now rather than at the hand-over
            options = table_checks(ruleset, len(seats), options, levels, (clock or {}).get("bot_level"))
        except BadCommand as refusal:  # well-formed, but a table this ruleset is not played at: 422
            raise IllegalMove(refusal.reason, rule=refusal.rule) from None
        source = "fixed" if seed is not None else "server"
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = secrets.token_hex(8)
        created_at = self.clock()
        created = tables.created(ruleset_name, options, seats, seed_commitment(seed), clock, version,
                                 seed_source=source, contribution_seconds=contribution_seconds)
        table = tables.evolve(None, Event(created[0].type, canonical(created[0].data)))
        meta = {"seed": seal(seed, self.seed_key, secrets.token_bytes(16)), "status": "open",
                "created_at": str(created_at), "human_at": str(created_at),
                "deadlines": "{}", "draws": "recorded",  # its export records its draws (events/history.py)
                **tables.projection(table), **{f"tok:{seat}": digest for seat, digest in (token_hashes or {}).items()}}
        if contribution_seconds:
            meta["window_closes"] = str(created_at + contribution_seconds * 1000)
            if self.after_append:  # the window's job is enqueued after the append: the sweeper's mark first
                self.store.work.unsettled(game_id, created_at)
        self.store.append(game_id, 0, [PendingEvent(created[0], "system", {"type": "CreateGame"})],
                          at=created_at, command_id="create", meta=meta)
        self._best_effort("lobby", game_id, partial(self.store.index_game, game_id, ruleset_name, created_at, "open"))
        game = self.load(game_id)
        if clocks.ready_to_start(game.table, game.state):
            return self._start(game)
        self.schedule(game, None)  # the window's closing, when a seat still owes its entropy
        return game

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str | None = None,
                   entropy: str | None = None) -> Game:
        """Turn an open seat into a human one (the table decides), with the claimer's entropy if it sent
        some; the last claim starts the game, with every contribution in its effective seed."""
        command = {"type": "ClaimSeat", "seat": seat, **({"name": name} if name else {}),
                   **({"entropy": entropy} if entropy is not None else {})}
        game = self._table_command(game_id, command, f"claim-{seat}", extra_meta={f"tok:{seat}": token_hash},
                                   human=True)
        return self._start(game) if clocks.ready_to_start(game.table, game.state) else game

    def contribute(self, game_id: str, seat: int, entropy: str) -> Game:
        """A human seat's entropy, once, before the game starts; the last one owed starts it."""
        game = self._table_command(game_id, {"type": "ContributeEntropy", "seat": seat, "entropy": entropy},
                                   f"entropy-{seat}", human=True)
        return self._start(game) if clocks.ready_to_start(game.table, game.state) else game

    def close_contributions(self, game_id: str, deadline: int) -> Game:
        """The window's deadline passed: it waits for nobody any more (the seats that sent nothing are
        recorded), and the game starts if no seat is open."""
        game = self._table_command(game_id, {"type": "CloseContributions", "deadline": deadline}, "window")
        return self._start(game) if clocks.ready_to_start(game.table, game.state) else game

    def _start(self, game: Game) -> Game:
        """Append the ruleset's setup events, rolled on the world's streams (or, before draw keys, with
        Rng(effective seed, first version)): every contribution is in by now."""
        rng = game.command_rng(WORLD)
        events = game.ruleset.setup(game.options, len(game.seats), rng)
        append = Append("system", {"type": "StartGame"}, "start", meta=self._counted(game, rng), draws=rng.recorded())
        return self._commit(game, events, append)[0]

    @staticmethod
    def _counted(game: Game, rng: Rng) -> dict[str, str]:
        """The meta an append of `rng`'s draws writes: the draw counters, when they moved (draw keys)."""
        if isinstance(rng, KeyedRng) and rng.recorded():
            return {"draw_counters": json.dumps(rng.counters, sort_keys=True, separators=(",", ":"))}
        return {}

    # --------------------------------------------------------------- commanding
    def execute(self, game_id: str, seat: int, command: Mapping[str, Any], *, actor_kind: str = "seat",
                expected_version: int | None = None, idempotency_key: str | None = None,
                loaded: Game | None = None, schedule: bool = True, toll: Toll | None = None,
                bot: Mapping[str, Any] | None = None) -> CommandResult:
        """Validate `command` for `seat` and append its events atomically.

        With `expected_version` a moved-on game raises ConcurrencyConflict;
        without one the command is re-decided against the new state (it was
        only ever checked against a state that is gone).  `loaded` saves a
        read when the caller has just loaded the game (to authenticate).
        `schedule=False` skips the after-append hook (a bot job playing several
        bot moves in a row schedules once, at the end).  A `toll` (the request's
        rate limits, events/limits.py) is taken with the first append, in the same
        round trip; over a limit that append raises RateLimited and writes nothing.
        A command that appends nothing leaves its toll untaken.  `bot`: a bot's move, how it was chosen
        (stored with it, for verification to re-run it).
        """
        command = dict(command)
        scope = f"{seat}:{idempotency_key}" if idempotency_key else None
        # Decide against this process's cached copy when it has one: the append's version check
        # catches a stale copy, and then (or on any refusal) the game is read afresh and decided again.
        game = loaded or self.peek(game_id)
        for _ in range(RETRIES_ON_CONFLICT):
            try:
                if expected_version is not None and expected_version != game.version:
                    raise ConcurrencyConflict(expected_version, game.version)
                self._check_may_act(game, seat, actor_kind)
                rng = game.command_rng(str(seat))
                events = game.ruleset.decide(game.state, seat, command, rng)
            except (IllegalMove, ConcurrencyConflict):
                # a retried command answers as it did the first time, even if it is illegal now
                record = self.store.idempotency_record(game_id, scope) if scope else None
                if record:
                    return self._replay(game_id, record, command)
                if not game.fresh:  # refuse only what the stored game refuses
                    game = self.load(game_id)
                    continue
                raise
            if not events:
                return CommandResult(game, game.version + 1)
            idem = (scope, {"first": game.version + 1, "last": game.version + len(events),
                            "seat": seat, "fingerprint": fingerprint(command)}) if scope else None
            try:
                append = Append(actor_for(actor_kind, seat), command, new_command_id(), idempotency=idem,
                                meta=self._counted(game, rng), human=actor_kind == "seat", toll=toll,
                                draws=rng.recorded(), bot=bot)
                after, envelopes = self._commit(game, events, append, schedule)
            except ConcurrencyConflict:
                if expected_version is not None:
                    raise
                game = self.load(game_id)
                continue
            except DuplicateCommand as duplicate:
                return self._replay(game_id, duplicate.record, command)
            return CommandResult(after, game.version + 1, envelopes)
        raise ConcurrencyConflict(game.version, self.store.version(game_id))

    def judge_stale(self, conflict: ConcurrencyConflict, game_id: str, seat: int, command: Mapping[str, Any],
                    actor_kind: str = "seat") -> StaleCommand:
        """`conflict` (a command refused for its stale expected version) with whether `seat` may send
        the same command at the game's current version: decided there and discarded, nothing appended.
        Decide never changes the state it is given (rules/ruleset.py), so the cached game stays as it was."""
        game = self.load(game_id)
        try:
            self._check_may_act(game, seat, actor_kind)
            game.ruleset.decide(game.state, seat, dict(command), game.command_rng(str(seat), record=False))
        except IllegalMove:  # not awaited, closed, forbidden now or malformed for this game
            return StaleCommand(conflict.expected, game.version, still_legal=False)
        return StaleCommand(conflict.expected, game.version, still_legal=True)

    @staticmethod
    def refuse_if_closed(game: Game) -> None:
        """GameClosed for an archived or abandoned game: it takes no command of any kind."""
        if game.archived:
            raise GameClosed(f"the game was {game.status} and has been archived: it takes no more commands; "
                             f"its history is at GET /v1/games/{game.id}/history", kind="game-archived")
        clocks.refuse_if_abandoned(game.table)

    def _check_may_act(self, game: Game, seat: int, actor_kind: str = "seat") -> None:
        """Who may act is decided in events/clocks.py, for the verifier too; an archived game is the runner's."""
        self.refuse_if_closed(game)
        status = game.status
        clocks.check_may_act(game.table, status, clocks.awaited(status, game.ruleset, game.state), seat, actor_kind,
                             game.id)

    def _replay(self, game_id: str, record: dict, command: Mapping[str, Any]) -> CommandResult:
        if record["fingerprint"] != fingerprint(command):
            raise IdempotencyMismatch("this Idempotency-Key was already used with a different command")
        game = self.load(game_id)
        return CommandResult(game, record["first"],
                             self.store.read(game_id, record["first"] - 1, until=record["last"]), duplicate=True)

    def _commit(self, game: Game, events: list[Event], append: Append,
                schedule: bool = True) -> tuple[Game, list[Envelope]]:
        """Append the events (the one step that can fail the command), then run the after-commit
        steps, none of which can: the answer is built from the appended events alone."""
        if self.after_append and clocks.schedules(game.seats, game.table["clock"]):  # see WorkIndexes.unsettled
            self.store.work.unsettled(game.id, self.clock())
        after, envelopes = self._append(game, events, append)
        steps = self._after_commit_steps(game, after, envelopes[-1], schedule)
        if self.publish:  # before the schedule step: a bot's next batch is not published ahead of this one
            steps.insert(1, ("publish", partial(self.publish, game, after, envelopes)))
        for step, action in steps:
            # The command is stored and other readers see it: nothing from here on may turn it into
            # an error (a client told it failed would send it again), so each step is best effort.
            self._best_effort(step, game.id, action)
        return after, envelopes

    def _append(self, game: Game, events: list[Event], append: Append) -> tuple[Game, list[Envelope]]:
        """Fold, then compare-and-append the events with the meta they change (`_meta_after`), in one
        atomic step (and an untaken toll with them: see `execute`); the game after, and the events as stored."""
        # Fold what is stored (JSON, keys sorted), so that this process's cached state is exactly
        # what another process folds from Redis (dict order included: rules iterate dicts).
        events = [Event(e.type, canonical(e.data)) for e in events]
        table, state = fold_game(game.ruleset, events, game.table, game.state)
        after = Game(game.id, game.ruleset, dict(game.meta), game.version + len(events), state, table)
        at = self.clock()
        meta = {**append.meta, **self._meta_after(game, after, at, append.human)}
        after.meta.update(meta)
        pending = [PendingEvent(event, append.actor, append.command, append.draws, append.bot) if i == 0
                   else PendingEvent(event, append.actor) for i, event in enumerate(events)]
        kwargs = {"at": at, "command_id": append.command_id, "meta": meta, "idempotency": append.idempotency}
        if append.toll is not None and not append.toll.taken:
            self.store.append_with_toll(append.toll, game.id, game.version, pending, **kwargs)
        else:
            self.store.append(game.id, game.version, pending, **kwargs)
        return after, [Envelope(game.id, game.version + i + 1, p.event.type, p.event.data, p.actor, at,
                                append.command_id, command=p.command, draws=p.draws, bot=p.bot)
                       for i, p in enumerate(pending)]

    @staticmethod
    def _meta_after(before: Game, after: Game, at: int, human: bool) -> dict[str, str]:
        """The meta fields an append writes: the table's projection (if the table changed), the status
        (if it changed), the human seats' deadlines (events/clocks.py) and (`human`: a human's command)
        when a human last acted, which the sweeper's idleness check reads (events/retention.py)."""
        meta = tables.projection(after.table) if after.table is not before.table else {}
        if after.status != before.status:
            meta["status"] = after.status
        # a game without a clock has no deadlines: spare its every command the rules' awaiting(), twice
        running = (clocks.deadlines(after.table, after.awaiting(), before.awaiting(), before.deadlines, at)
                   if after.table["clock"] else {})
        meta["deadlines"] = json.dumps(running)
        if human:
            meta["human_at"] = str(at)
        return meta

    def _after_commit_steps(self, before: Game, after: Game, last: Envelope,
                            schedule: bool) -> list[tuple[str, Callable[[], Any]]]:
        """What an append calls for afterwards, by name (the `step` of after_append_failed): this
        process's cached copy; a snapshot every `snapshot_every` events; the lobby's index when the
        status changed; and (`schedule`) the jobs the new state needs."""
        steps = [("cache", partial(self._remember, after.id, after.version, (after.table, after.state),
                                   last.command_id, after.meta))]
        if after.version // self.snapshot_every > before.version // self.snapshot_every:
            steps.append(("snapshot", partial(self.store.save_snapshot, after.id, after.version, after.state,
                                              after.table)))
        if after.status != before.status:
            steps.append(("lobby", partial(self.store.index_game, after.id, after.table["ruleset"],
                                           int(before.meta["created_at"]), after.status, before.status, at=last.at)))
        if schedule and self.after_append:
            steps.append(("schedule", partial(self.after_append, after, before)))
        return steps

    def schedule(self, after: Game, before: Game | None) -> None:
        """Run the after-append hook (enqueue the bot and clock jobs the new state needs), best effort:
        when it fails (the queue's Redis unreachable) the sweepers enqueue the jobs once it is back."""
        if self.after_append:
            self._best_effort("schedule", after.id, partial(self.after_append, after, before))

    def _best_effort(self, step: str, game_id: str, action: Callable[[], Any]) -> None:
        """The one guard of every step after an append: whatever it raises, the append it follows stands."""
        try:
            action()
        except Exception as error:
            self.after_append_failed(step, game_id, error)

    def after_append_failed(self, step: str, game_id: str, error: Exception) -> None:
        """A step after a stored append failed (`cache`, `schedule`, `lobby`, `snapshot`): logged; the service
        counts it."""
        log.warning("game %s: %s after the append failed (%s: %s); the append stands", game_id, step,
                    type(error).__name__, error, exc_info=not isinstance(error, OSError | RedisError))

    # ------------------------------------------------------- seats and clocks
    def _table_command(self, game_id: str, command: Mapping[str, Any], command_id: str,
                       extra_meta: Mapping[str, str] | None = None, loaded: Game | None = None,
                       human: bool = False) -> Game:
        """Decide an engine command with the table and append its events; re-decided on a conflict."""
        game = loaded or self.load(game_id)
        for _ in range(RETRIES_ON_CONFLICT):
            self.refuse_if_closed(game)
            try:
                events = tables.decide(game.table, game.status, game.awaiting(), command, game.ruleset.bot_levels)
            except NoSuchSeat as refusal:
                raise GameNotFound(f"seat {command.get('seat')}") from refusal
            if not events:
                return game
            try:
                append = Append("system", dict(command), f"{command_id}-{secrets.token_hex(4)}",
                                meta=extra_meta or {}, human=human)
                return self._commit(game, events, append)[0]
            except ConcurrencyConflict:
                game = self.load(game_id)
        raise ConcurrencyConflict(game.version, self.store.version(game_id))

    def expire_clock(self, game_id: str, seat: int, deadline: int) -> Game:
        """Count one expired clock for `seat` (once per deadline); at the limit the seat goes to a bot.
        Two clocks expiring together are two appends, each against the version: neither count is lost."""
        return self._table_command(game_id, {"type": "ExpireClock", "seat": seat, "deadline": deadline}, "clock")

    def hand_to_bot(self, game: Game, seat: int, level: str, reason: str) -> Game:
        """Give a human seat to a bot (recorded in the stream)."""
        return self._table_command(game.id, {"type": "HandSeatToBot", "seat": seat, "level": level,
                                             "reason": reason}, f"bot-{seat}", loaded=game)

    def reclaim_seat(self, game_id: str, seat: int) -> Game:
        """Give a seat that was handed to a bot back to its human, with a clean timeout count."""
        try:
            return self._table_command(game_id, {"type": "ReclaimSeat", "seat": seat}, f"reclaim-{seat}", human=True)
        except tables.NothingToReclaim as refusal:
            raise NotAwaited(refusal.reason, rule=refusal.rule) from None

    def abandon(self, game: Game, idle_since: int, idle_seconds: int) -> Game:
        """End `game` as abandoned, if it is still at the version loaded (the caller checked it was
        idle at that version): ConcurrencyConflict if anything was appended since."""
        command = {"type": "AbandonGame", "idle_since": idle_since, "idle_seconds": idle_seconds}
        self.refuse_if_closed(game)
        events = tables.decide(game.table, game.status, game.awaiting(), command, game.ruleset.bot_levels)
        return self._commit(game, events, Append("system", command, f"abandon-{secrets.token_hex(4)}"))[0]

    # ------------------------------------------------------------------ reading
    def envelopes(self, game: Game, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events after `after` (at most `limit`), from Redis or, for an archived game, its archive."""
        if game.archived:
            return list(game.history[after:after + limit if limit is not None else None])
        return self.store.read(game.id, after, limit)

    def all_envelopes(self, game: Game, after: int = 0) -> Iterable[Envelope]:
        """Every event after `after`, read in batches (an archived game's from its archive)."""
        return iter(game.history[after:]) if game.archived else self.store.read_all(game.id, after)

    def events_for(self, game: Game, seat: int | None, after: int = 0, limit: int | None = None) -> list[dict]:
        """The feed as `seat` may read it."""
        names = game.names
        return [redact_envelope(game.ruleset, e, seat, names) for e in self.envelopes(game, after, limit)]


def redact_envelope(ruleset: Ruleset, envelope: Envelope, seat: int | None, names: Names | None = None) -> dict:
    """An event as `seat` may read it, with its sentence (events/narration.py) written from that
    redacted data: redaction first, so a sentence tells no more than the data beside it."""
    event = envelope.event if envelope.is_engine else redact(ruleset, envelope.event, seat)
    out = envelope.public_dict(event.data)
    out["narration"] = narrate(ruleset, event, names or Names())
    return out
