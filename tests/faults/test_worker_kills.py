"""SIGKILL a worker in the middle of a bot's turn, 100 times: each time the move still
happens, exactly once.  A soak (minutes of wall time, most of it waiting on processes): on demand with
`python3 -m pytest -n 4 -m soak`, not in the README's command."""
from __future__ import annotations

import os

import pytest

from rules import RULESETS
from service.wiring import build_engine
from tests.support.processes import Worker, wait_until
from tests.support.race import RACE

TRIALS = int(os.environ.get("KILL_TRIALS", "100"))
# The trials are split into parts (every PARTS-th trial each) so pytest-xdist can run them at once on
# separate workers, each with its own redis-server: the same 100 trials in a fraction of the time.
PARTS = 4
ENV = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE", "SWEEP_SECONDS": "0.3", "STALLED_AFTER_MS": "800"}


@pytest.mark.soak
@pytest.mark.parametrize("part", range(PARTS))
def test_a_worker_killed_mid_move_still_moves_exactly_once_every_time(redis_server, redis_client, tmp_path, part):
    engine = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE})
    marker = tmp_path / "thinking"
    replacement = Worker(redis_server.url, tmp_path / "replacement.log", extra_env={**ENV, "RACE_SLOW_SECONDS": "0"})
    for trial in range(part, TRIALS, PARTS):
        marker.unlink(missing_ok=True)
        victim = Worker(redis_server.url, tmp_path / "victim.log",
                        extra_env={**ENV, "RACE_SLOW_MARKER": str(marker), "RACE_SLOW_SECONDS": "5"})
        victim.start()
        game = engine.runner.create_game("race", [{"kind": "bot", "level": "slow"}, {"kind": "human"}],
                                         {"goal": 1000}, seed=f"kill-{trial}")
        wait_until(marker.exists, timeout=20, what=f"trial {trial}: the bot to start thinking")
        victim.kill()
        assert engine.runner.load(game.id).version == game.version, f"trial {trial}: moved before the kill?"
        replacement.start()
        moved = wait_until(lambda: engine.runner.load(game.id).version > game.version, timeout=20,
                           what=f"trial {trial}: the move after the kill")
        assert moved
        bot_moves = [e for e in engine.store.read_all(game.id, after=game.version) if e.actor == "bot:0"]
        assert len(bot_moves) == 1, f"trial {trial}: {len(bot_moves)} bot moves"
        replacement.stop()
