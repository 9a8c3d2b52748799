"""The game runner: the engine's one front door, composed of its parts (pyeventsourcing's
application over its repository and recorder).

    GameRepository  events/repository.py      load, peek, cache, snapshot read, archive, failover; reading
    CommandHandler  events/handler.py         a seat's command: execute, idempotency, re-decide, judge_stale
    Committer       events/committer.py       the append, and one registered list of after-commit steps
    TableCommands   events/table_commands.py  creation, seats, the contribution window, start, clocks, abandon
    Game            events/game.py            the read model they hand around

It knows neither HTTP nor any particular game.  The HTTP views, the bot jobs and the clock jobs
all submit through `GameRunner.execute`, so a move is validated and recorded the same way whoever
makes it.  The runner only delegates: each part can be read, tested and replaced alone.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from events.archive import ArchiveStore
from events.clocks import NotAwaited, SeatPlayedByBot
from events.committer import SNAPSHOT_EVERY, Committer, log_failure, new_command_id, now_ms
from events.envelope import Envelope
from events.game import Game, GameNotFound, fold_game, refuse_if_closed
from events.handler import CommandHandler, CommandResult, IdempotencyMismatch, StaleCommand
from events.limits import Toll
from events.repository import GameRepository, redact_envelope
from events.store import ConcurrencyConflict, EventStore
from events.table_commands import TableCommands
from rules.ruleset import Ruleset

# what callers import from here: the runner's names, and the refusals they catch
__all__ = ["CommandResult", "Game", "GameNotFound", "GameRunner", "IdempotencyMismatch", "NotAwaited",
           "SeatPlayedByBot", "StaleCommand", "fold_game", "new_command_id", "now_ms", "redact_envelope"]


class GameRunner:
    """The parts, built once per process (service/wiring.py), and the methods the service and the
    workers call, each handed to the part that does it."""

    def __init__(self, store: EventStore, rulesets: Mapping[str, Ruleset],
                 after_append: Callable[[Game, Game | None], None] | None = None,
                 clock: Callable[[], int] = now_ms, snapshot_every: int = SNAPSHOT_EVERY,
                 archive: ArchiveStore | None = None, seed_key: str | None = None):
        self.store = store
        self.repository = GameRepository(store, rulesets, archive, seed_key)
        self.committer = Committer(store, self.repository, clock, snapshot_every)
        self.committer.failed = self.after_append_failed  # the method, which the service's runner extends
        self.handler = CommandHandler(self.repository, self.committer)
        self.table_commands = TableCommands(self.repository, self.committer)
        self._after_append = self._publish = None
        self.after_append = after_append

    # ------------------------------------------------------------ the parts' settings
    @property
    def rulesets(self) -> Mapping[str, Ruleset]:
        return self.repository.rulesets

    @property
    def archive(self) -> ArchiveStore | None:
        return self.repository.archive

    @property
    def clock(self) -> Callable[[], int]:
        """The server's clock (ms) the appends are stamped with; a test may set another."""
        return self.committer.clock

    @clock.setter
    def clock(self, clock: Callable[[], int]) -> None:
        self.committer.clock = clock

    @property
    def after_append(self) -> Callable[[Game, Game | None], None] | None:
        """The `schedule` step (service/scheduling.py Scheduler): the jobs the new state needs."""
        return self._after_append

    @after_append.setter
    def after_append(self, hook: Callable[[Game, Game | None], None] | None) -> None:
        self._after_append = hook
        if hook is None:
            self.committer.unregister("schedule")
        else:
            self.committer.register("schedule", lambda c: hook(c.after, c.before), lambda c: c.schedule)

    @property
    def publish(self) -> Callable[[Game, Game, list[Envelope]], None] | None:
        """The `publish` step (service/grip.py Publisher): each batch to the live streams' push engine."""
        return self._publish

    @publish.setter
    def publish(self, hook: Callable[[Game, Game, list[Envelope]], None] | None) -> None:
        self._publish = hook
        if hook is None:
            self.committer.unregister("publish")
        else:  # before the snapshot and the schedule: a bot's next batch is not published ahead of this one;
            # nobody can follow a game before its creation returns its id: a creation is not published
            self.committer.register("publish", lambda c: hook(c.before, c.after, list(c.envelopes)),
                                    lambda c: c.appended and c.before is not None, before="snapshot")

    def after_append_failed(self, step: str, game_id: str, error: Exception) -> None:
        """A step after a stored append failed (`cache`, `publish`, `snapshot`, `lobby`, `schedule`):
        logged; the service counts it."""
        log_failure(step, game_id, error)

    # ------------------------------------------------------------------ the repository
    def load(self, game_id: str, version: int | None = None) -> Game:
        return self.repository.load(game_id, version)

    def peek(self, game_id: str) -> Game:
        return self.repository.peek(game_id)

    def load_archived(self, game_id: str) -> Game:
        return self.repository.load_archived(game_id)

    def forget(self, game_id: str) -> None:
        self.repository.forget(game_id)

    def ruleset_of(self, meta: Mapping[str, str]) -> Ruleset:
        return self.repository.ruleset_of(meta)

    def envelopes(self, game: Game, after: int = 0, limit: int | None = None) -> list[Envelope]:
        return self.repository.envelopes(game, after, limit)

    def all_envelopes(self, game: Game, after: int = 0) -> Iterable[Envelope]:
        return self.repository.all_envelopes(game, after)

    def events_for(self, game: Game, seat: int | None, after: int = 0, limit: int | None = None) -> list[dict]:
        return self.repository.events_for(game, seat, after, limit)

    # ------------------------------------------------------------------ the command handler
    def execute(self, game_id: str, seat: int, command: Mapping[str, Any], *, actor_kind: str = "seat",
                expected_version: int | None = None, idempotency_key: str | None = None,
                loaded: Game | None = None, schedule: bool = True, toll: Toll | None = None,
                bot: Mapping[str, Any] | None = None) -> CommandResult:
        """A seat's command, validated and appended atomically (events/handler.py CommandHandler.execute)."""
        return self.handler.execute(game_id, seat, command, actor_kind=actor_kind, expected_version=expected_version,
                                    idempotency_key=idempotency_key, loaded=loaded, schedule=schedule, toll=toll,
                                    bot=bot)

    def judge_stale(self, conflict: ConcurrencyConflict, game_id: str, seat: int, command: Mapping[str, Any],
                    actor_kind: str = "seat") -> StaleCommand:
        return self.handler.judge_stale(conflict, game_id, seat, command, actor_kind)

    @staticmethod
    def refuse_if_closed(game: Game) -> None:
        refuse_if_closed(game)

    # ------------------------------------------------------------------ the committer
    def schedule(self, after: Game, before: Game | None) -> None:
        """The schedule step alone, deferred by appends made with `schedule=False` (a bot job's run)."""
        self.committer.schedule(after, before)

    # ------------------------------------------------------------------ the table's commands
    def create_game(self, ruleset_name: str, seats: list[dict], options: Mapping[str, Any] | None = None,
                    seed: str | None = None, clock: Mapping[str, Any] | None = None,
                    token_hashes: Mapping[int, str] | None = None, contribution_seconds: int = 0,
                    visibility: str = "public", invitations: Mapping[int, str] | None = None,
                    game_id: str | None = None, analysis: bool = False) -> Game:
        return self.table_commands.create_game(ruleset_name, seats, options, seed, clock, token_hashes,
                                               contribution_seconds, visibility=visibility, invitations=invitations,
                                               game_id=game_id, analysis=analysis)

    def fork_game(self, original_id: str, version: int, seats: list[dict], **creation: Any) -> Game:
        """A new game from an ended game's position at `version` (events/forks.py); ForkRefused if not."""
        return self.table_commands.fork_game(original_id, version, seats, **creation)

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str | None = None,
                   entropy: str | None = None, player: str | None = None, invited: bool = False) -> Game:
        return self.table_commands.claim_seat(game_id, seat, token_hash, name, entropy, player, invited)

    def renew_seat_token(self, game_id: str, seat: int, player: str, token_hash: str) -> Game:
        """A fresh token for a seat bound to `player` (events/table.py RenewSeatToken)."""
        return self.table_commands.renew_seat_token(game_id, seat, player, token_hash)

    def contribute(self, game_id: str, seat: int, entropy: str) -> Game:
        return self.table_commands.contribute(game_id, seat, entropy)

    def close_contributions(self, game_id: str, deadline: int) -> Game:
        return self.table_commands.close_contributions(game_id, deadline)

    def expire_clock(self, game_id: str, seat: int, deadline: int) -> Game:
        return self.table_commands.expire_clock(game_id, seat, deadline)

    def hand_to_bot(self, game: Game, seat: int, level: str, reason: str) -> Game:
        return self.table_commands.hand_to_bot(game, seat, level, reason)

    def reclaim_seat(self, game_id: str, seat: int) -> Game:
        return self.table_commands.reclaim_seat(game_id, seat)

    def seat_action(self, game_id: str, seat: int, kind: str) -> Game:
        """A player's Resign, Abort, Leave or Rematch (events/table.py SEAT_ACTIONS)."""
        return self.table_commands.seat_action(game_id, seat, kind)

    def abandon(self, game: Game, idle_since: int, idle_seconds: int) -> Game:
        return self.table_commands.abandon(game, idle_since, idle_seconds)
