"""The committer: the one compare-and-append, then one registered list of after-commit steps.

As in pyeventsourcing, where `Application.save` records the events and only then notifies, the
append (`EventStore.append`, one atomic script) is the only step that can fail a command; every
step after it runs through one guard (`_best_effort`): a failure is reported by the step's name
(`failed`, counted by the service in `cartel_after_append_failures_total{step}`) and never turned
into an error, since the stored command is already visible to every reader.

The steps, in order (`steps`; the service registers `publish` and `schedule`):

    cache     this process's copy of the game                    (every append)
    publish   the batch to the live streams' push engine         (every append but a game's creation)
    snapshot  the folded state, every `snapshot_every` events    (when a multiple is crossed)
    lobby     the lobby's index                                  (a new game; a changed status)
    players   the index of each player's seats (events/players.py) (a seat bound to a player)
    ratings   a rated game's result into its ruleset's ratings (events/ratings.py) (a game finished)
    feeds     notes to the players' feeds (events/feeds.py): started, your turn, finished, rematch
                                                                 (a table with a seat bound to a player)
    schedule  the jobs the new state needs (service/scheduling.py) (unless deferred: `Commit.schedule`)

A game's creation goes through the same list (`create`), and so does a schedule that a bot job
deferred to the end of its run of moves (`schedule`: a commit of nothing, which only that step takes).
"""
from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from redis.exceptions import RedisError

from events import clocks, feeds, ratings
from events import table as tables
from events.envelope import Envelope, canonical
from events.game import Game, fold_game
from events.limits import Toll
from events.repository import GameRepository
from events.store import EventStore, PendingEvent
from events.visibility import listed
from rules.base import Event, KeyedRng, Rng

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 200


def now_ms() -> int:
    return int(time.time() * 1000)


def new_command_id() -> str:
    """A command's id, which groups its events in the stream: not a secret (every reader sees it), only
    unique, as 64 random bits are.  `random` (reseeded in every forked process) draws them without the
    system call `secrets` makes for each, which a busy web worker pays for in GIL hand-offs."""
    return f"{random.getrandbits(64):016x}"


@dataclass(frozen=True)
class Append:
    """What one compare-and-append writes besides the events: who sent them (`actor`), the command
    (stored with the first event) and its id, meta fields to write with them, the idempotency record,
    whether a human sent it (`human`) and the request's rate-limit toll (events/handler.py)."""

    actor: str
    command: Mapping[str, Any]
    command_id: str
    meta: Mapping[str, str] = field(default_factory=dict)
    idempotency: tuple[str, dict] | None = None
    human: bool = False
    toll: Toll | None = None
    draws: list | None = None  # the command's raw draws (Rng.recorded()), stored with its first event
    bot: Mapping[str, Any] | None = None  # a bot's move: how it was chosen (rules/bot_seat.py provenance)


@dataclass(frozen=True)
class Commit:
    """A stored append as the steps after it see it: the game before (None: the append created it)
    and after, and the events as stored (none: a schedule deferred until after several appends)."""

    before: Game | None
    after: Game
    envelopes: tuple[Envelope, ...] = ()
    schedule: bool = True  # False: the caller schedules once, later (a bot job's run of moves)

    @property
    def appended(self) -> bool:
        return bool(self.envelopes)

    @property
    def status_changed(self) -> bool:
        """A new game (its first status), or one whose status the append changed."""
        return self.before is None or self.after.status != self.before.status


@dataclass(frozen=True)
class Step:
    """One after-commit step: its name (in the failure count), what it does, and when it applies."""

    name: str
    run: Callable[[Commit], Any]
    applies: Callable[[Commit], bool]


def counted(rng: Rng) -> dict[str, str]:
    """The meta an append of `rng`'s draws writes: the draw counters, when they moved (draw keys)."""
    if isinstance(rng, KeyedRng) and rng.recorded():
        return {"draw_counters": json.dumps(rng.counters, sort_keys=True, separators=(",", ":"))}
    return {}


class Committer:
    def __init__(self, store: EventStore, repository: GameRepository, clock: Callable[[], int] = now_ms,
                 snapshot_every: int = SNAPSHOT_EVERY):
        self.store = store
        self.repository = repository
        self.clock = clock
        self.snapshot_every = snapshot_every
        # a failed step, by name: logged here; the service counts it too (service/metrics.py MeteredRunner)
        self.failed: Callable[[str, str, Exception], None] = log_failure
        self.steps: list[Step] = [
            Step("cache", self._cache, lambda c: c.appended),
            Step("snapshot", self._snapshot, self._snapshot_due),
            Step("lobby", self._index, lambda c: c.appended and c.status_changed),
            Step("players", self._bind, lambda c: any(e.type in tables.BINDINGS for e in c.envelopes)),
            Step("ratings", self._rate, lambda c: c.appended and c.status_changed and c.after.status == "finished"),
            # the cheap check first: an anonymous table (no seat bound to a player) has no feed to write to
            Step("feeds", self._notify, lambda c: c.appended and bool(feeds.bound(c.after.table))),
        ]

    # ------------------------------------------------------------------ the list
    def register(self, name: str, run: Callable[[Commit], Any], applies: Callable[[Commit], bool],
                 before: str | None = None) -> None:
        """Add the step `name` (in place of one so named), ahead of the step `before` or last."""
        self.unregister(name)
        at = next((i for i, step in enumerate(self.steps) if step.name == before), len(self.steps))
        self.steps.insert(at, Step(name, run, applies))

    def unregister(self, name: str) -> None:
        self.steps = [step for step in self.steps if step.name != name]

    def registered(self, name: str) -> bool:
        return any(step.name == name for step in self.steps)

    def after_commit(self, commit: Commit) -> None:
        """Every registered step that applies to `commit`, in order, each through the one guard."""
        for step in self.steps:
            if step.applies(commit):
                # The command is stored and other readers see it: nothing from here on may turn it into
                # an error (a client told it failed would send it again), so each step is best effort.
                self._best_effort(step.name, commit.after.id, step.run, commit)

    def schedule(self, after: Game, before: Game | None) -> None:
        """The jobs `after` needs, deferred by appends made with `schedule=False` (a bot job's run of
        moves): the schedule step alone, as a commit of no events.  When it fails (the queue's Redis
        unreachable) the sweepers enqueue the jobs once it is back."""
        self.after_commit(Commit(before, after))

    def _best_effort(self, step: str, game_id: str, action: Callable[[Commit], Any], commit: Commit) -> None:
        """The one guard of every step after an append: whatever it raises, the append it follows stands."""
        try:
            action(commit)
        except Exception as error:
            self.failed(step, game_id, error)

    # --------------------------------------------------------------- the append
    def commit(self, game: Game, events: list[Event], append: Append,
               schedule: bool = True) -> tuple[Game, list[Envelope]]:
        """Append the events (the one step that can fail the command: ConcurrencyConflict, DuplicateCommand,
        RateLimited), then the after-commit steps, none of which can: the answer is built from the
        appended events alone."""
        if self.registered("schedule") and clocks.schedules(game.seats, game.table["clock"]):
            self.store.work.unsettled(game.id, self.clock())  # see WorkIndexes.unsettled
        after, envelopes = self._append(game, events, append)
        self.after_commit(Commit(game, after, tuple(envelopes), schedule))
        return after, envelopes

    def create(self, game_id: str, created: Event, meta: dict[str, str], at: int, schedule: bool,
               command: dict | None = None, forked: Event | None = None) -> Game:
        """Record a new game (its GameCreated, at version 1, and a fork's ForkedFrom after it, with its meta),
        read it back, and run the after-commit steps for it (`schedule`: False when the game starts at once,
        whose start schedules)."""
        if self.registered("schedule") and "window_closes" in meta:
            self.store.work.unsettled(game_id, at)  # the window's job is enqueued after the append: the mark first
        events = [created, *([forked] if forked is not None else [])]
        pending = [PendingEvent(created, "system", command or {"type": "CreateGame"}),
                   *(PendingEvent(event, "system") for event in events[1:])]
        self.store.append(game_id, 0, pending, at=at, command_id="create", meta=meta)
        game = self.repository.load(game_id)
        stored = tuple(Envelope(game_id, n, p.event.type, p.event.data, p.actor, at, "create", command=p.command)
                       for n, p in enumerate(pending, start=1))
        self.after_commit(Commit(None, game, stored, schedule))
        return game

    def _append(self, game: Game, events: list[Event], append: Append) -> tuple[Game, list[Envelope]]:
        """Fold, then compare-and-append the events with the meta they change (`meta_after`), in one
        atomic step (and an untaken toll with them: see CommandHandler.execute); the game after, and the
        events as stored."""
        # Fold what is stored (JSON, keys sorted), so that this process's cached state is exactly
        # what another process folds from Redis (dict order included: rules iterate dicts).
        events = [Event(e.type, canonical(e.data)) for e in events]
        table, state = fold_game(game.ruleset, events, game.table, game.state)
        after = Game(game.id, game.ruleset, dict(game.meta), game.version + len(events), state, table)
        at = self.clock()
        meta = {**append.meta, **meta_after(game, after, at, append.human)}
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

    # ------------------------------------------------------------- the steps
    def _cache(self, commit: Commit) -> None:
        after = commit.after
        self.repository.remember(after.id, after.version, (after.table, after.state), commit.envelopes[-1].command_id,
                                 after.meta)

    def _snapshot_due(self, commit: Commit) -> bool:
        before = commit.before.version if commit.before else 0
        return commit.appended and commit.after.version // self.snapshot_every > before // self.snapshot_every

    def _snapshot(self, commit: Commit) -> None:
        after = commit.after
        self.store.save_snapshot(after.id, after.version, after.state, after.table)

    def _index(self, commit: Commit) -> None:
        after, before = commit.after, commit.before
        self.store.index_game(after.id, after.table["ruleset"], int(after.meta["created_at"]), after.status,
                              before.status if before else None, at=commit.envelopes[-1].at,
                              listed=listed(after.meta))

    def _bind(self, commit: Commit) -> None:
        """Index the seats this append bound to a player (GameCreated's, SeatClaimed's `player`)."""
        for envelope in commit.envelopes:
            for seat, player in tables.bound_seats(envelope.event):
                self.store.players.bind(player, commit.after.id, seat, envelope.at)

    def _rate(self, commit: Commit) -> None:
        """A finished game that is rated joins its ruleset's rated games, and the ratings are brought up to
        date (events/ratings.py: a projection of the histories; a reader of the leaderboard does the same)."""
        after = commit.after
        result = ratings.result_of(after.id, after.ruleset.name, after.table, after.outcome())
        if result is not None:
            self.store.ratings.record(result)
            ratings.bring_up_to_date(self.repository, self.store.ratings, after.ruleset.name)


    def _notify(self, commit: Commit) -> None:
        """The players' notes for this append (events/feeds.py game_notes), each to its player's feed."""
        for player, kind, data in feeds.game_notes(commit.before, commit.after, commit.envelopes):
            self.store.feeds.append(player, kind, data)


def meta_after(before: Game, after: Game, at: int, human: bool) -> dict[str, str]:
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


def log_failure(step: str, game_id: str, error: Exception) -> None:
    """A step after a stored append failed (`cache`, `publish`, `snapshot`, `lobby`, `schedule`): logged."""
    log.warning("game %s: %s after the append failed (%s: %s); the append stands", game_id, step,
                type(error).__name__, error, exc_info=not isinstance(error, OSError | RedisError))
