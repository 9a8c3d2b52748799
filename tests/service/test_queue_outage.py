"""The RQ queues live in their own Redis (QUEUE_REDIS_URL); when it is down, a command
that was appended still leaves its game where the sweepers will find it."""
from __future__ import annotations

import pytest
import redis

from events.keys import BOT_WAIT_INDEX
from rules import RULESETS
from service.jobs import sweep
from service.wiring import build_engine
from tests.support.processes import free_port
from tests.support.race import RACE


def test_a_bot_turn_is_indexed_for_the_sweeper_even_if_the_queue_redis_is_down(redis_server, redis_client):
    down = build_engine(redis_server.url, f"redis://127.0.0.1:{free_port()}/0", rulesets={**RULESETS, "race": RACE})
    game = down.runner.create_game("race", [{"kind": "human"}, {"kind": "bot"}], options={"goal": 1000})
    assert redis_client.zscore(BOT_WAIT_INDEX, game.id) is None  # the human is to move
    with pytest.raises(redis.ConnectionError):  # appended, then the bot move could not be enqueued
        down.runner.execute(game.id, 0, {"type": "Pass"})
    assert down.runner.load(game.id).version == game.version + 1
    assert redis_client.zscore(BOT_WAIT_INDEX, game.id) is not None
    up = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})  # the queue is back
    assert sweep(up.runner, up.queue, stalled_after_ms=0) == 1
    assert up.queue.count == 1
