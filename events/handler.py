"""The command handler: a seat's game command, decided and committed (pyeventsourcing's application
method: get, a pure decision, save).

It gets the game from the repository (this process's copy first), asks who may act
(events/clocks.py), lets the ruleset decide, and hands the events to the committer.  A stale copy,
a conflict without an expected version, or a refusal of a copy that may be stale is decided again
against the stored game; an `Idempotency-Key` already used answers as it did the first time; a
command refused for its stale expected version can be judged at the current one (`judge_stale`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from events import clocks
from events.committer import Append, Committer, counted, new_command_id
from events.envelope import Envelope, actor_for
from events.game import Game, refuse_if_closed
from events.limits import Toll
from events.repository import GameRepository
from events.store import ConcurrencyConflict, DuplicateCommand
from rules.base import IllegalMove

RETRIES_ON_CONFLICT = 8


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


@dataclass
class CommandResult:
    game: Game
    first_version: int  # first event this command appended (version + 1 when nothing was)
    events: list[Envelope] = field(default_factory=list)
    duplicate: bool = False


def fingerprint(command: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(command, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def check_may_act(game: Game, seat: int, actor_kind: str = "seat") -> None:
    """Who may act is decided in events/clocks.py, for the verifier too; an archived game is the engine's."""
    refuse_if_closed(game)
    status = game.status
    clocks.check_may_act(game.table, status, clocks.awaited(status, game.ruleset, game.state), seat, actor_kind,
                         game.id)


class CommandHandler:
    def __init__(self, repository: GameRepository, committer: Committer):
        self.repository = repository
        self.committer = committer

    def execute(self, game_id: str, seat: int, command: Mapping[str, Any], *, actor_kind: str = "seat",
                expected_version: int | None = None, idempotency_key: str | None = None,
                loaded: Game | None = None, schedule: bool = True, toll: Toll | None = None,
                bot: Mapping[str, Any] | None = None) -> CommandResult:
        """Validate `command` for `seat` and append its events atomically.

        With `expected_version` a moved-on game raises ConcurrencyConflict;
        without one the command is re-decided against the new state (it was
        only ever checked against a state that is gone).  `loaded` saves a
        read when the caller has just loaded the game (to authenticate).
        `schedule=False` skips the schedule step after the append (a bot job playing several
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
        game = loaded or self.repository.peek(game_id)
        for _ in range(RETRIES_ON_CONFLICT):
            try:
                if expected_version is not None and expected_version != game.version:
                    raise ConcurrencyConflict(expected_version, game.version)
                check_may_act(game, seat, actor_kind)
                rng = game.command_rng(str(seat))
                events = game.ruleset.decide(game.state, seat, command, rng)
            except (IllegalMove, ConcurrencyConflict):
                # a retried command answers as it did the first time, even if it is illegal now
                record = self.repository.store.idempotency_record(game_id, scope) if scope else None
                if record:
                    return self._replay(game_id, record, command)
                if not game.fresh:  # refuse only what the stored game refuses
                    game = self.repository.load(game_id)
                    continue
                raise
            if not events:
                return CommandResult(game, game.version + 1)
            idem = (scope, {"first": game.version + 1, "last": game.version + len(events),
                            "seat": seat, "fingerprint": fingerprint(command)}) if scope else None
            try:
                append = Append(actor_for(actor_kind, seat), command, new_command_id(), idempotency=idem,
                                meta=counted(rng), human=actor_kind == "seat", toll=toll,
                                draws=rng.recorded(), bot=bot)
                after, envelopes = self.committer.commit(game, events, append, schedule)
            except ConcurrencyConflict:
                if expected_version is not None:
                    raise
                game = self.repository.load(game_id)
                continue
            except DuplicateCommand as duplicate:
                return self._replay(game_id, duplicate.record, command)
            return CommandResult(after, game.version + 1, envelopes)
        raise ConcurrencyConflict(game.version, self.repository.store.version(game_id))

    def judge_stale(self, conflict: ConcurrencyConflict, game_id: str, seat: int, command: Mapping[str, Any],
                    actor_kind: str = "seat") -> StaleCommand:
        """`conflict` (a command refused for its stale expected version) with whether `seat` may send
        the same command at the game's current version: decided there and discarded, nothing appended.
        Decide never changes the state it is given (rules/ruleset.py), so the cached game stays as it was."""
        game = self.repository.load(game_id)
        try:
            check_may_act(game, seat, actor_kind)
            game.ruleset.decide(game.state, seat, dict(command), game.command_rng(str(seat), record=False))
        except IllegalMove:  # not awaited, closed, forbidden now or malformed for this game
            return StaleCommand(conflict.expected, game.version, still_legal=False)
        return StaleCommand(conflict.expected, game.version, still_legal=True)

    def _replay(self, game_id: str, record: dict, command: Mapping[str, Any]) -> CommandResult:
        if record["fingerprint"] != fingerprint(command):
            raise IdempotencyMismatch("this Idempotency-Key was already used with a different command")
        game = self.repository.load(game_id)
        return CommandResult(game, record["first"],
                             self.repository.store.read(game_id, record["first"] - 1, until=record["last"]),
                             duplicate=True)
