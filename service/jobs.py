"""RQ jobs: bot seats, turn clocks and analyses (service/analysis.py).

Every job names the game and the version (or clock deadline) it was made for.
A job that finds the game moved on does nothing, and every move goes through
the runner's compare-and-append, so a job retried after a crash can never
apply twice.  Job ids are deterministic, so enqueuing twice is harmless.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from redis.exceptions import RedisError
from rq import Queue

from events import clocks
from events.botbox import BotBox
from events.runner import Game, GameNotFound, GameRunner, NotAwaited
from events.store import ConcurrencyConflict
from rules.base import IllegalMove
from rules.bot_seat import TIMEOUT_DEFAULT, bot_key, provenance, seat_state, wire
from service.analysis import analysed
from service.metrics import BOT_FAILURES, CLOCK_FAILURES
from service.scheduling import enqueue_bot, enqueue_clock, enqueue_window, index_work, reschedule_clock
from service.wiring import build_engine

log = logging.getLogger(__name__)

MAX_TIMEOUT_STEPS = 500
# A bot job keeps playing while only bots are to act, within this budget, then
# hands on to a fresh job (so one long bot-only game cannot hog a worker).
BOT_BATCH_MOVES = int(os.environ.get("BOT_BATCH_MOVES", "200"))
BOT_BATCH_SECONDS = float(os.environ.get("BOT_BATCH_SECONDS", "0.5"))
# A clock job woken this early (ms) waits out the rest; earlier, it is rescheduled at the deadline.
CLOCK_EARLY_WAIT_MS = 1500
# A clock job that fails (the rules or the job raised, not Redis) is retried by the sweeper, up to this
# many attempts per deadline in all; then the seat waits for its human, counted and logged once.
CLOCK_ATTEMPTS = int(os.environ.get("CLOCK_ATTEMPTS", "3"))


# ------------------------------------------------------------------ the jobs
_engine = None


def current_engine():
    """The worker process's engine, built once (the runner's state cache persists across jobs)."""
    global _engine
    if _engine is None:
        _engine = build_engine()
    return _engine


def play_bot(game_id: str, version: int, seat: int) -> str:
    """Make a bot seat's move for the game as it was at `version`, then go on
    with the next bot moves while a bot is to act (up to a budget), so a run
    of bot moves costs one job, not one job per move."""
    runner = current_engine().runner
    game = runner.load(game_id)
    if game.version != version:
        return "stale"
    if seat in stuck_seats(runner, game):
        return "stuck"  # already failed and reported at this version
    start, moved, stuck = game, 0, False
    budget_ends = time.monotonic() + BOT_BATCH_SECONDS
    next_seat = seat
    while moved < BOT_BATCH_MOVES and time.monotonic() < budget_ends:
        try:
            after = _bot_step(runner, game, next_seat, schedule=False)
        except RedisError:
            raise  # the store is unreachable: the job fails and the sweeper retries it once Redis is back
        except Exception as error:  # whatever the bot or the rules raised, retrying would only fail again
            mark_stuck(runner, game, next_seat, error)
            stuck = True
            break
        if after is None:
            break
        game, moved = after, moved + 1
        bots = clocks.bots_to_move(game.seats, game.awaiting())
        if not bots:
            break
        next_seat = bots[0]
    if moved:
        runner.schedule(game, start)  # once, for where the run of bot moves ended
    if stuck:
        return f"moved {moved}, then stuck" if moved else "stuck"
    return f"moved {moved}"


def _bot_step(runner: GameRunner, game: Game, seat: int, schedule: bool = True) -> Game | None:
    """One bot move; the game after it, or None if the seat is not a bot's to play or the game moved on."""
    if seat not in clocks.bots_to_move(game.seats, game.awaiting()):
        return None
    level = game.seats[seat].get("level", "random")
    # What the seat may know, determinized here, and the bot key: that is all a bot process is handed
    # (events/botbox.py); the true state and the seed stay in this process, out of the bot code's reach.
    key = bot_key(game.effective_seed)
    world = wire(seat_state(game.ruleset, game.state, seat, key, game.version))
    command, made = bot_box(runner).choose(game.ruleset, world, seat, level, key, game.version)
    try:
        return runner.execute(game.id, seat, command, actor_kind="bot", expected_version=game.version,
                              loaded=game, schedule=schedule, bot=made).game
    except ConcurrencyConflict:
        return None
    except IllegalMove as error:
        # A bot must only choose listed moves; log loudly, fall back to the clock default (and say so).
        log.error("bot %s in %s chose an illegal move %s: %s", seat, game.id, command, error)
        return runner.execute(game.id, seat, game.ruleset.on_timeout(game.state, seat), actor_kind="bot",
                              expected_version=game.version, loaded=game, schedule=schedule,
                              bot=provenance(level, played=TIMEOUT_DEFAULT)).game


_box: BotBox | None = None
_box_lock = threading.Lock()


def bot_box(runner: GameRunner) -> BotBox:
    """This worker's bot process (events/botbox.py): one, shared by the job and the warm-up thread."""
    global _box
    with _box_lock:
        if _box is None:
            _box = BotBox(runner.rulesets)
        return _box


def analyse(game_id: str, version: int, seat: int, budget: int) -> dict:
    """An analysis's search (service/analysis.py): the seat's world made here, as for its bot's move, the search
    in the bot process; its result, `{"moves": [...]}` best first with their labels, is the analysis's cache."""
    runner = current_engine().runner
    game = runner.load(game_id, version=version)
    return {"moves": analysed(game.ruleset, game.state, seat, game.names, bot_key(game.effective_seed),
                              game.version, budget, bot_box(runner).analyse)}


def mark_stuck(runner: GameRunner, game: Game, seat: int, error: Exception) -> None:
    """Record that a bot seat cannot move at this version: counted, logged once, never re-enqueued.
    The game stays recoverable: the seat's human can reclaim it (if a clock handed it over)."""
    # Not re-enqueued by the sweeper (a failure that is not a crash would only fail again);
    # the next append (e.g. the human reclaiming the seat) makes the record stale.
    runner.store.work.mark_stuck(game.id, game.version, stuck_seats(runner, game) | {seat})
    BOT_FAILURES.labels(game.ruleset.name).inc()
    log.error("bot seat %s of game %s cannot move at version %s (%s: %s); the seat waits until its human "
              "reclaims it (POST /v1/games/%s/seats/%s/reclaim)", seat, game.id, game.version,
              type(error).__name__, str(error).replace("\n", " ")[:300], game.id, seat)


def stuck_seats(runner: GameRunner, game: Game) -> set[int]:
    """The bot seats that failed for good at the game's current version (a stale record is dropped)."""
    return runner.store.work.stuck_seats(game.id, game.version)


def expire_clock(game_id: str, seat: int, deadline_ms: int) -> str:
    """At a human seat's deadline, apply the ruleset's default moves until the seat is no longer awaited
    (whether the clock is due, and while it runs, is decided in events/clocks.py)."""
    engine = current_engine()
    runner = engine.runner
    game, now = runner.load(game_id), runner.clock()
    wake, wait = clocks.clock_wake(game.deadlines, seat, deadline_ms, now, CLOCK_EARLY_WAIT_MS)
    if wake == "stale":
        return "stale"
    if seat in stuck_clocks(runner, game):
        return "stuck"  # failed CLOCK_ATTEMPTS times at this deadline, and reported
    if wake == "early":
        # Never under this job's own id: RQ deletes it, and anything enqueued under it, when this job ends.
        reschedule_clock(engine.queue, game_id, seat, deadline_ms, now)
        return "rescheduled"
    try:
        return _time_out(runner, game_id, seat, deadline_ms, wait)
    except RedisError:
        raise  # the store is unreachable: the job fails and the sweeper retries it once Redis is back
    except Exception as error:  # the rules or the job raised: the sweeper retries, a bounded number of times
        return clock_failed(runner, game, seat, deadline_ms, error)


def _time_out(runner: GameRunner, game_id: str, seat: int, deadline_ms: int, wait: int) -> str:
    """Wait out the last moment before the deadline, then time the seat out."""
    if wait > 0:
        time.sleep(wait / 1000)
        game = runner.load(game_id)
        if not clocks.clock_current(game.deadlines, seat, deadline_ms):
            return "stale"
    try:  # ClockExpired (once per deadline), and the hand-over when the count reaches the limit
        game = runner.expire_clock(game_id, seat, deadline_ms)
    except IllegalMove:  # no longer awaited, or no longer a human seat: the game moved on
        return "stale"
    if not clocks.controls(game.seats, seat, "clock"):  # the count reached the limit: the seat is a bot's now
        return "handed to bot"
    for _ in range(MAX_TIMEOUT_STEPS):
        if not clocks.clock_running(game.deadlines, game.awaiting(), seat, deadline_ms):
            return "timed out"
        try:
            runner.execute(game_id, seat, game.ruleset.on_timeout(game.state, seat), actor_kind="clock",
                           expected_version=game.version)
        except (ConcurrencyConflict, NotAwaited):
            pass
        game = runner.load(game_id)
    return "timed out (step limit)"


def close_window(game_id: str, closes_ms: int) -> str:
    """At a new game's contribution deadline: stop waiting for the human seats' entropy (the table records
    who sent none) and start the game if no seat is open.  A window already closed, or a game started
    (every seat contributed), makes the job stale."""
    runner = current_engine().runner
    game = runner.load(game_id)
    if game.window_closes != closes_ms:
        return "stale"
    now = runner.clock()
    if closes_ms - now > CLOCK_EARLY_WAIT_MS:  # RQ's scheduler works in whole seconds: woken too early
        enqueue_window(current_engine().queue, game_id, closes_ms, retry=f"-e{now}")
        return "rescheduled"
    if closes_ms > now:
        time.sleep((closes_ms - now) / 1000)
    try:
        game = runner.close_contributions(game_id, closes_ms)
    except IllegalMove:  # closed or started meanwhile
        return "stale"
    return "started" if game.status != "open" else "closed"


def clock_failed(runner: GameRunner, game: Game, seat: int, deadline_ms: int, error: Exception) -> str:
    """Record a failed attempt at a seat's clock; at CLOCK_ATTEMPTS the clock is given up for this
    deadline: counted, logged once, no longer re-enqueued by the sweeper (the seat's human may still move,
    which starts a new deadline)."""
    failures = runner.store.work.clock_failed(game.id, seat, deadline_ms)
    reason = f"{type(error).__name__}: {str(error).replace(chr(10), ' ')[:300]}"
    if failures < CLOCK_ATTEMPTS:
        log.warning("the clock of seat %s in game %s failed (attempt %s of %s: %s); the sweeper retries it",
                    seat, game.id, failures, CLOCK_ATTEMPTS, reason, exc_info=failures == 1)
        return f"failed (attempt {failures} of {CLOCK_ATTEMPTS})"
    CLOCK_FAILURES.labels(game.ruleset.name).inc()
    log.error("the clock of seat %s in game %s failed %s times at its deadline %s (%s); given up: the seat "
              "waits for its human's move", seat, game.id, failures, deadline_ms, reason)
    return "stuck"


def stuck_clocks(runner: GameRunner, game: Game) -> set[int]:
    """The seats whose clock failed CLOCK_ATTEMPTS times at its current deadline."""
    failures = runner.store.work.clock_failures(game.id, game.deadlines)
    return {seat for seat, count in failures.items() if count >= CLOCK_ATTEMPTS}


def sweep(runner: GameRunner, queue: Queue, stalled_after_ms: int = 10_000) -> int:
    """Re-enqueue work that a killed worker (or a queue outage) dropped: bot seats
    awaited for too long (except those whose move failed for good at this version),
    and clocks past their deadline (except those given up after CLOCK_ATTEMPTS
    failures).  Returns how many jobs it enqueued."""
    now = runner.clock()
    work = runner.store.work
    nudged = 0
    for game_id, marked in work.unsettled_before(now - stalled_after_ms):
        # an append whose indexes may never have been updated (its process died after it): update them
        # as the Scheduler would have, a bot awaited since the mark, so the loop below re-enqueues it now
        game = loaded_or_forgotten(runner, game_id)
        if game is not None:
            index_work(work, game, marked)
        work.settled(game_id, marked)
    for game_id in work.stalled_bots(now - stalled_after_ms):
        game = loaded_or_forgotten(runner, game_id)
        if game is None:
            continue
        for seat in clocks.bots_to_move(game.seats, game.awaiting(), stuck_seats(runner, game)):
            enqueue_bot(queue, game.id, game.version, seat, retry=f"-r{now}")
            nudged += 1
        work.nudged(game_id, now)
    for game_id in work.stalled_clocks(now - stalled_after_ms):
        game = loaded_or_forgotten(runner, game_id)
        if game is None:
            continue
        if game.window_closes is not None and game.window_closes <= now - stalled_after_ms:
            enqueue_window(queue, game.id, game.window_closes, retry=f"-r{now}", at_once=True)
            nudged += 1
        for seat, deadline in clocks.overdue_clocks(game.deadlines, now - stalled_after_ms,
                                                    stuck_clocks(runner, game)).items():
            enqueue_clock(queue, game.id, seat, deadline, retry=f"-r{now}", at_once=True)
            nudged += 1
        work.nudged(game_id, now)
    return nudged


def loaded_or_forgotten(runner: GameRunner, game_id: str) -> Game | None:
    """The game an index names; None (and the game dropped from the indexes) once it left Redis (archived)."""
    try:
        game = runner.load(game_id)
    except GameNotFound:
        game = None
    if game is None or game.archived:
        runner.store.work.forget(game_id)
        return None
    return game
