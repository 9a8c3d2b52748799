"""Scheduling: after every append, enqueue what the new state needs (bot moves, clocks).

The jobs themselves are in service/jobs.py; they are enqueued by name, so this
module (which the wiring imports) does not import them.  Job ids are
deterministic (`bot-<game>-<version>-<seat>`, `clock-<game>-<seat>-<deadline>`),
so enqueuing twice is harmless, and every job checks the version or deadline
it was made for.  A job never enqueues a successor under its own id: RQ deletes
the running job's id when it ends, and whatever was enqueued under it with it.
"""
from __future__ import annotations

import math
from datetime import UTC, datetime

from rq import Queue

from events import clocks
from events.runner import Game, GameRunner

PLAY_BOT = "service.jobs.play_bot"
EXPIRE_CLOCK = "service.jobs.expire_clock"
CLOSE_WINDOW = "service.jobs.close_window"


class Scheduler:
    """The runner's after-append hook: enqueue what the new state needs."""

    def __init__(self, queue: Queue, runner: GameRunner):
        self.queue = queue
        self.runner = runner

    def __call__(self, game: Game, before: Game | None) -> None:
        if game.window_closes is not None:  # a new game waiting for its human seats' entropy
            index_work(self.runner.store.work, game, self.runner.clock())
            enqueue_window(self.queue, game.id, game.window_closes)
            return
        if not clocks.schedules(game.seats, game.clock):
            return  # humans without clocks: nothing to schedule, no index to keep
        # The sweepers' indexes first (in the event store): if the queue Redis is down,
        # the sweepers still find the game once it is back.
        for seat in index_work(self.runner.store.work, game, self.runner.clock()):
            enqueue_bot(self.queue, game.id, game.version, seat)
        for seat, deadline in clocks.started(before.deadlines if before else {}, game.deadlines).items():
            enqueue_clock(self.queue, game.id, seat, deadline)


def index_work(work, game: Game, since_ms: int) -> list[int]:
    """Record in the sweepers' indexes what `game` waits on: its bots (awaited since `since_ms`) and its
    earliest human deadline.  The bot seats to move, lowest first."""
    bots = clocks.bots_to_move(game.seats, game.awaiting())
    due = [when for when in (clocks.earliest(game.deadlines), game.window_closes) if when is not None]
    work.update(game.id, since_ms if bots else None, min(due, default=None))
    return bots


def enqueue_bot(queue: Queue, game_id: str, version: int, seat: int, retry: str = "") -> None:
    queue.enqueue(PLAY_BOT, game_id, version, seat, job_id=f"bot-{game_id}-{version}-{seat}{retry}",
                  result_ttl=0, failure_ttl=3600, job_timeout=60)


def enqueue_window(queue: Queue, game_id: str, closes_ms: int, retry: str = "", at_once: bool = False) -> None:
    """The job that closes a game's contribution window at `closes_ms` (or, the sweeper's, at once)."""
    job_id = f"window-{game_id}-{closes_ms}{retry}"
    if at_once:
        queue.enqueue(CLOSE_WINDOW, game_id, closes_ms, job_id=job_id, result_ttl=0, failure_ttl=3600)
        return
    queue.enqueue_at(datetime.fromtimestamp(math.ceil(closes_ms / 1000), tz=UTC), CLOSE_WINDOW, game_id, closes_ms,
                     job_id=job_id, result_ttl=0, failure_ttl=3600, job_timeout=120)


def enqueue_clock(queue: Queue, game_id: str, seat: int, deadline_ms: int, retry: str = "",
                  at_once: bool = False) -> None:
    """The clock job for a deadline: at the deadline, or (the sweeper, for a dropped one) at once."""
    job_id = f"clock-{game_id}-{seat}-{deadline_ms}{retry}"
    if at_once:
        queue.enqueue(EXPIRE_CLOCK, game_id, seat, deadline_ms, job_id=job_id, result_ttl=0, failure_ttl=3600)
        return
    # RQ schedules in whole seconds and may fire early: round up, and the job
    # itself re-checks the deadline against the clock before timing anyone out.
    _enqueue_clock_at(queue, math.ceil(deadline_ms / 1000), game_id, seat, deadline_ms, job_id)


def reschedule_clock(queue: Queue, game_id: str, seat: int, deadline_ms: int, now_ms: int) -> str:
    """A clock job that woke too early (the scheduler's clock runs ahead of the job's): again at the
    last whole second before the deadline, under an id of its own (`-e<now>`), which outlives the
    running job.  The job waits out the rest of the second itself.  Returns the new job's id."""
    job_id = f"clock-{game_id}-{seat}-{deadline_ms}-e{now_ms}"
    _enqueue_clock_at(queue, math.floor(deadline_ms / 1000), game_id, seat, deadline_ms, job_id)
    return job_id


def _enqueue_clock_at(queue: Queue, second: int, game_id: str, seat: int, deadline_ms: int, job_id: str) -> None:
    """The clock job for `deadline_ms`, scheduled at the whole `second` (RQ schedules in seconds)."""
    queue.enqueue_at(datetime.fromtimestamp(second, tz=UTC), EXPIRE_CLOCK, game_id, seat, deadline_ms, job_id=job_id,
                     result_ttl=0, failure_ttl=3600, job_timeout=120)
