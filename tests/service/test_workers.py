"""Bots and clocks played by real RQ worker processes against a real Redis."""
from __future__ import annotations

import pytest

from events.history import history_header, history_lines, parse_history, verify_history
from rules import RULESETS
from service.wiring import build_engine
from tests.support.processes import Worker, wait_for_game, wait_until
from tests.support.race import RACE

WORKER_ENV = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE", "SWEEP_SECONDS": "0.5", "STALLED_AFTER_MS": "1500"}


@pytest.fixture
def engine(redis_server, redis_client):
    return build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})


@pytest.fixture
def worker(redis_server, tmp_path):
    started = []

    def start(**env):
        w = Worker(redis_server.url, tmp_path / f"worker{len(started)}.log", extra_env={**WORKER_ENV, **env})
        w.start()
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


def exported(game, envelopes) -> list[dict]:
    """The game's history as GET /v1/games/{id}/history exports it (the current format), parsed."""
    return parse_history("".join(history_lines(history_header(game), envelopes)))


def test_bots_play_a_game_to_the_end_and_it_verifies(engine, worker):
    worker()
    game = engine.runner.create_game("race", [{"kind": "bot"}, {"kind": "bot"}], {"goal": 30}, seed="bots")
    done = wait_for_game(lambda: engine.runner.load(game.id), what="bots to finish")
    envelopes = list(engine.store.read_all(game.id))
    assert all(e.actor.startswith(("bot:", "system")) for e in envelopes)
    verdict = verify_history(exported(done, envelopes), {"race": RACE})
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict


def test_a_clock_never_times_out_before_its_deadline_then_hands_the_seat_to_a_bot(engine, worker):
    clock_worker = worker()
    game = engine.runner.create_game("race", [{"kind": "human"}, {"kind": "bot"}], {"goal": 1000},
                                     clock={"move_seconds": 1, "response_seconds": 1, "timeouts_before_bot": 2})
    first_deadline = game.deadlines[0]
    wait_until(lambda: engine.runner.load(game.id).seats[0]["kind"] == "bot", timeout=20, what="hand-over to a bot")
    envelopes = list(engine.store.read_all(game.id))
    clocked = [e for e in envelopes if e.actor == "clock:0"]
    assert clocked, "the clock applied no default move"
    assert clocked[0].at >= first_deadline  # never before the deadline, whatever RQ's whole-second rounding
    handed = [e for e in envelopes if e.type == "SeatHandedToBot"]
    assert len(handed) == 1 and handed[0].data["seat"] == 0
    # once a bot holds the seat, the seat keeps moving
    version = engine.runner.load(game.id).version
    try:  # a bound for a loaded machine (a full run once waited over 10 s here); an idle one takes well under 1 s
        wait_until(lambda: any(e.actor == "bot:0" for e in engine.store.read(game.id, version)), timeout=30,
                   what="the bot to play seat 0")
    except TimeoutError:
        now = engine.runner.load(game.id)
        raise AssertionError(f"no move by the bot on seat 0 in 30 s after v{version}: the game is at v{now.version}, "
                             f"{now.status}, awaiting {now.awaiting()}; the worker's log ends:\n"
                             + clock_worker.log.read_text()[-3000:]) from None


def test_a_worker_killed_mid_move_still_yields_exactly_one_move(engine, worker, tmp_path):
    marker = tmp_path / "thinking"
    first = worker(RACE_SLOW_MARKER=str(marker), RACE_SLOW_SECONDS="3")
    game = engine.runner.create_game("race", [{"kind": "bot", "level": "slow"}, {"kind": "human"}], {"goal": 1000})
    wait_until(marker.exists, timeout=10, what="the bot to start thinking")
    first.kill()  # SIGKILL in the middle of the job
    assert engine.runner.load(game.id).version == game.version
    worker(RACE_SLOW_SECONDS="0")
    after = wait_until(lambda: (g := engine.runner.load(game.id)).version > game.version and g, timeout=20,
                       what="the move after the crash")
    moves = [e for e in engine.store.read_all(game.id, after=game.version) if e.actor == "bot:0"]
    assert len(moves) == 1 and after.awaiting() in ({1: "move"}, {1: "response"})


def test_a_search_bot_seat_plays_a_game_to_the_end_and_it_verifies(redis_server, worker):
    # the worker plays an "ismcts:N" seat like any bot; its moves are recorded as commands, so the
    # history verifies by re-deciding them (verification never re-runs the search)
    from rules.examples.pig import RULESET as PIG
    worker(CARTEL_EXTRA_RULESETS="tests.support.race:RACE,rules.examples.pig:RULESET")
    engine = build_engine(redis_server.url, rulesets={**RULESETS, "pig": PIG})
    game = engine.runner.create_game("pig", [{"kind": "bot", "level": "ismcts:8"}, {"kind": "bot", "level": "random"}],
                                     {"target": 20}, seed="search-bot")
    done = wait_for_game(lambda: engine.runner.load(game.id), what="the search bot's game to finish")
    envelopes = list(engine.store.read_all(game.id))
    assert any(e.actor == "bot:0" for e in envelopes)
    verdict = verify_history(exported(done, envelopes), {"pig": PIG})
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict
