"""The served bot goes through rules/bot_seat.py (issue 26, item 6): a real RQ worker plays a game with
hidden information and every bot command it recorded is the one `bot_command` chooses from the
seat's determinization and the bot key, not from the true state and the seed."""
from __future__ import annotations

import pytest

from events.history import history_header, history_lines, parse_history
from rules import RULESETS
from rules.base import Event, Rng
from rules.bot_seat import bot_command, bot_key
from service.wiring import build_engine
from tests.support.processes import Worker, wait_for_game


@pytest.fixture
def engine(redis_server, redis_client):
    return build_engine(redis_server.url, rulesets=RULESETS)


def test_every_served_bot_move_is_chosen_from_what_its_seat_may_know(engine, redis_server, tmp_path):
    worker = Worker(redis_server.url, tmp_path / "worker.log", extra_env={"SWEEP_SECONDS": "0.5"})
    worker.start()
    try:
        game = engine.runner.create_game("narcos", [{"kind": "bot", "level": "greedy"}, {"kind": "open"}],
                                         seed="served-bots", contribution_seconds=30)
        # a player's share, then a bot's seat in its place (the seat is handed over like a timed-out one)
        engine.runner.claim_seat(game.id, 1, "t1", entropy="the claimer's share")
        engine.runner.hand_to_bot(engine.runner.load(game.id), 1, "random", "the test")
        done = wait_for_game(lambda: engine.runner.load(game.id), what="the bots to finish")
    finally:
        worker.stop()
    records = parse_history("".join(history_lines(history_header(done), list(engine.store.read_all(game.id)))))
    ruleset, key = done.ruleset, bot_key(done.effective_seed)
    assert key != bot_key(done.seed)  # keyed by the effective seed, the claimer's share mixed in
    state, checked, old_path_agrees = None, 0, 0
    for record in records[1:]:
        if "command" in record and record["actor"].startswith("bot:"):
            seat, version = int(record["actor"].partition(":")[2]), record["version"] - 1
            level = done.seats[seat]["level"]
            assert record["command"] == bot_command(ruleset, state, seat, level, key, version), record
            old = ruleset.bot_move(state, seat, level, Rng(done.effective_seed, f"bot:{seat}:{version}"))
            old_path_agrees += old == record["command"]
            checked += 1
        if record["type"] in ruleset.evolvers:
            state = ruleset.evolve(state, Event(record["type"], record["data"]))
    assert checked > 20
    # the old path (the true state, the seed's stream) chose otherwise somewhere: the check can tell them apart
    assert old_path_agrees < checked
