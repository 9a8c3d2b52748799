"""A bot seat that cannot move fails once, visibly, and is not retried forever; its human can take it back."""
from __future__ import annotations

import logging

import pytest
from prometheus_client import REGISTRY

from events.keys import BOT_STUCK_INDEX, BOT_WAIT_INDEX
from rules import RULESETS
from service import jobs
from service.wiring import build_engine
from tests.support.processes import Worker, wait_until
from tests.support.race import RACE

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def engine(redis_server, redis_client, monkeypatch):
    built = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})
    monkeypatch.setattr(jobs, "_engine", built)  # play_bot and sweep run in this process, on this Redis
    return built


def failures(ruleset: str) -> float:
    return REGISTRY.get_sample_value("cartel_bot_failures_total", {"ruleset": ruleset}) or 0.0


def handed_to_a_missing_level(engine):
    """A kingpin game whose awaited seat a clock handed to a bot level kingpin does not have
    (as games created before clock levels were checked could)."""
    runner = engine.runner
    game = runner.create_game("kingpin", HUMANS, clock={"move_seconds": 60})
    seat = min(game.awaiting())
    return runner.hand_to_bot(game, seat, "godlike", "3 clock timeouts"), seat


def test_a_bot_that_cannot_move_fails_once_and_is_not_reenqueued(engine, caplog):
    game, seat = handed_to_a_missing_level(engine)
    before = failures("kingpin")
    with caplog.at_level(logging.INFO, logger="service.jobs"):
        assert jobs.play_bot(game.id, game.version, seat) == "stuck"
        assert jobs.play_bot(game.id, game.version, seat) == "stuck"  # a duplicate job says nothing more
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and not errors[0].exc_info, errors
    assert "godlike" in errors[0].getMessage() and f"/seats/{seat}/reclaim" in errors[0].getMessage()
    assert failures("kingpin") == before + 1
    engine.queue.empty()
    assert jobs.sweep(engine.runner, engine.queue, stalled_after_ms=0) == 0
    assert engine.queue.count == 0 and engine.runner.load(game.id).version == game.version


def test_the_human_reclaims_the_stuck_seat_and_plays_on(engine):
    game, seat = handed_to_a_missing_level(engine)
    jobs.play_bot(game.id, game.version, seat)
    back = engine.runner.reclaim_seat(game.id, seat)
    assert back.seats[seat]["kind"] == "human" and seat in back.awaiting()
    assert engine.store.redis.hget(BOT_STUCK_INDEX, game.id) is None  # the record went with the version
    move = back.ruleset.legal_moves(back.state, seat)[0]
    assert engine.runner.execute(game.id, seat, move).game.version > back.version


def test_a_move_a_crash_dropped_is_still_retried(engine):
    engine.runner.create_game("race", [{"kind": "bot"}, {"kind": "human"}])
    engine.queue.empty()  # as if the worker died holding the job
    assert jobs.sweep(engine.runner, engine.queue, stalled_after_ms=0) == 1


def test_a_bot_awaited_after_an_append_whose_process_died_before_scheduling_is_found_by_the_sweeper(engine):
    """Issue 28's soak: a process SIGKILLed (or its Redis) between an append and the update of the work
    indexes after it left a game awaiting a bot that no index named, for good (three games in an hour).
    Here the Scheduler fails after the human's move and the index keeps what it had before: no bot.
    The mark made before the append leads the sweeper to the game; it then enqueues the bot's move."""
    runner = engine.runner
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "bot"}])
    assert min(game.awaiting()) == 0

    def killed(after, before):  # the process dies here: nothing after the append is done
        raise RuntimeError("SIGKILL")

    runner.after_append = killed
    moved = runner.execute(game.id, 0, {"type": "Pass"}).game
    assert 1 in moved.awaiting()
    engine.store.work.update(game.id, None, None)  # what the index said before the move: no bot awaited
    engine.queue.empty()
    now = runner.clock()
    assert game.id not in engine.store.work.stalled_bots(now)  # what the sweeper looked at before the mark
    assert jobs.sweep(runner, engine.queue, stalled_after_ms=0) == 1
    assert any(job_id.startswith(f"bot-{game.id}-{moved.version}-1-r") for job_id in engine.queue.job_ids)
    assert engine.store.work.unsettled_before(runner.clock()) == []  # checked once, then left alone
    assert jobs.play_bot(game.id, moved.version, 1).startswith("moved")


def test_a_stale_failure_record_does_not_block_the_next_version(engine):
    game, seat = handed_to_a_missing_level(engine)
    jobs.play_bot(game.id, game.version, seat)
    engine.store.redis.hset(BOT_STUCK_INDEX, game.id, '{"version": %d, "seats": [%d]}' % (game.version - 1, seat))
    assert jobs.stuck_seats(engine.runner, engine.runner.load(game.id)) == set()
    assert engine.store.redis.hget(BOT_STUCK_INDEX, game.id) is None


def test_a_real_worker_logs_one_line_not_a_traceback_every_sweep(redis_server, redis_client, tmp_path):
    engine = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})
    log = tmp_path / "worker.log"
    worker = Worker(redis_server.url, log, extra_env={"SWEEP_SECONDS": "0.3", "STALLED_AFTER_MS": "300"})
    worker.start()
    try:
        game, seat = handed_to_a_missing_level(engine)
        wait_until(lambda: "cannot move" in log.read_text(), timeout=20, what="the worker to report the stuck bot")
        engine.store.redis.zadd(BOT_WAIT_INDEX, {game.id: 0})  # make sure the sweeper looks at it again
        wait_until(lambda: (engine.store.redis.zscore(BOT_WAIT_INDEX, game.id) or 0) > 0, timeout=10,
                   what="a sweep over the stuck game")
    finally:
        worker.stop()
    text = log.read_text()
    assert text.count("cannot move") == 1 and "Traceback" not in text, text[-3000:]
