"""Retention: idle games end as abandoned, ended games move from Redis to the archive.

Without it every game's stream, meta and snapshot would stay in Redis for ever,
and a game its humans walked away from would stay `active` in the lobby for
ever.  A worker's sweeper calls `sweep` every RETENTION_SWEEP_SECONDS:

- **Abandon.** An open or active game in which no human has acted (created,
  claimed, moved, reclaimed: the meta's `human_at`) for ABANDON_AFTER_SECONDS
  gets the table's `AbandonGame`, appended against the version that was found
  idle: a human's command in between makes it a conflict and the game lives
  on.  `GameAbandoned` is in the history, the game awaits nobody (its clocks
  and bots stop), and its outcome has no winner (events/table.py).
- **Archive.** A game that ended (finished or abandoned) ARCHIVE_AFTER_SECONDS
  ago has its history (the export, JSON Lines) written to the archive store and
  read back; then Redis keeps only its lobby row in `{lobby}:archived`, and its
  stream, meta and snapshot are deleted by one script that first checks the
  game is still at the archived version.  Reads fall back to the archive
  (events/repository.py GameRepository.load_archived).

Both steps are idempotent and safe with any number of sweepers at once: the
abandonment is a compare-and-append (one wins, the others see a conflict or a
closed game), and archiving writes the same bytes and row twice at worst while
one deletion succeeds.  The indexes (`{lobby}:idle`, `{lobby}:ended`) only name
candidates; each game's own record decides.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from events.history import history_header, history_lines
from events.runner import GameNotFound, GameRunner
from events.store import ConcurrencyConflict
from rules.base import IllegalMove

log = logging.getLogger(__name__)
SUMMARY_FIELDS = ("ruleset", "ruleset_version", "version", "created_at", "seats", "visibility")
DAY = 24 * 3600


@dataclass(frozen=True)
class Policy:
    """Seconds without a human command before a game is abandoned, and after its end before it is
    archived; 0 turns that step off.  `batch`: games each step handles per sweep."""

    abandon_after: int = 7 * DAY
    archive_after: int = DAY
    batch: int = 100


def abandon_if_idle(runner: GameRunner, game_id: str, idle_seconds: int) -> str:
    """Abandon the game if no human acted for `idle_seconds`; says what it did."""
    work = runner.store.work
    try:
        game = runner.load(game_id)
    except GameNotFound:
        work.forget(game_id)
        return "gone"
    if game.archived or game.status not in ("open", "active"):
        work.forget_idle(game_id)
        return "ended already"
    last = game.last_human_at() or runner.store.last_human_at(game_id) or int(game.meta.get("created_at", 0))
    if runner.clock() - last < idle_seconds * 1000:
        work.seen_human(game_id, last)  # not idle: look again once it could be
        return "played"
    try:
        runner.abandon(game, last, idle_seconds)
    except ConcurrencyConflict:
        return "moved on"  # somebody acted meanwhile (or another sweeper abandoned it): the next sweep looks again
    except IllegalMove:
        return "closed"
    log.info("game %s abandoned: no human command for %s s", game_id, idle_seconds)
    return "abandoned"


def archive_game(runner: GameRunner, game_id: str) -> str:
    """Move an ended game's history to the archive and its keys out of Redis; says what it did."""
    store, work = runner.store, runner.store.work
    try:
        game = runner.load(game_id)
    except GameNotFound:
        work.forget(game_id)
        return "gone"
    if game.archived:
        work.forget(game_id)
        return "archived already"
    if not game.ended:
        work.forget_ended(game_id)
        return "not ended"
    text = "".join(history_lines(history_header(game), store.read_all(game_id), game.ruleset))
    if text.count("\n") != game.version + 1:  # a header and every event: never archive a short read
        return "incomplete read"
    runner.archive.put(game_id, text)
    if runner.archive.get(game_id) != text:  # read back before Redis lets go of it
        raise RuntimeError(f"the archive returned something else for game {game_id}")
    row = {name: game.meta[name] for name in SUMMARY_FIELDS if name in game.meta}
    store.keep_archived_row(game_id, {**row, "status": game.status, "version": str(game.version)})
    dropped = store.drop_game(game_id, game.version)
    work.forget(game_id)
    runner.forget(game_id)
    return "archived" if dropped else "archived by another"


def sweep(runner: GameRunner, policy: Policy) -> dict[str, int]:
    """One retention pass: abandon the idle games, archive the ended ones (each step up to `policy.batch`)."""
    now, work, done = runner.clock(), runner.store.work, {"abandoned": 0, "archived": 0}
    if policy.abandon_after > 0:
        for game_id in work.idle_games(now - policy.abandon_after * 1000, policy.batch):
            done["abandoned"] += abandon_if_idle(runner, game_id, policy.abandon_after) == "abandoned"
    if policy.archive_after > 0 and runner.archive is not None:
        for game_id in work.ended_games(now - policy.archive_after * 1000, policy.batch):
            done["archived"] += archive_game(runner, game_id) == "archived"
    return done
