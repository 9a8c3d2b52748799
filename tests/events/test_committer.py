"""The committer (events/committer.py): the append, then one registered list of after-commit steps,
which a game's creation and a deferred schedule go through too.  Against a real Redis, with the
engine test game (tests/support/race.py)."""
from __future__ import annotations

import pytest

from events.committer import Commit
from events.keys import lobby_index
from events.runner import GameRunner
from events.store import EventStore
from tests.support.race import RACE

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def runner(redis_client):
    return GameRunner(EventStore(redis_client), {"race": RACE})


def spy(runner: GameRunner) -> list[Commit]:
    """Every commit the after-commit steps are run for, as a step registered last sees it."""
    seen: list[Commit] = []
    runner.committer.register("spy", seen.append, lambda commit: True)
    return seen


def test_the_steps_are_one_list_in_the_order_they_must_run(runner):
    runner.after_append = lambda after, before: None
    runner.publish = lambda before, after, envelopes: None
    # publish before the snapshot and the schedule: a bot's next batch is never published ahead of this one
    assert [step.name for step in runner.committer.steps] == ["cache", "publish", "snapshot", "lobby", "players",
                                                              "ratings", "feeds", "schedule"]
    runner.publish = None
    assert [step.name for step in runner.committer.steps] == ["cache", "snapshot", "lobby", "players", "ratings", "feeds",
                                                              "schedule"]


def test_a_games_creation_goes_through_the_steps_the_lobby_index_included(runner, redis_client):
    seen = spy(runner)
    scheduled = []
    runner.after_append = lambda after, before: scheduled.append((after.version, before))
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "open"}])
    [created] = seen
    assert created.before is None and created.after.version == 1 and created.schedule
    assert [e.type for e in created.envelopes] == ["GameCreated"]
    assert scheduled == [(1, None)]  # the game waits for a seat: its creation is scheduled
    assert redis_client.zscore(lobby_index("open"), game.id) is not None
    assert redis_client.zscore(lobby_index("open", "race"), game.id) is not None


def test_a_game_that_starts_at_once_is_scheduled_by_its_start_not_its_creation(runner):
    seen = spy(runner)
    scheduled = []
    runner.after_append = lambda after, before: scheduled.append((after.version, before.version if before else None))
    game = runner.create_game("race", HUMANS)
    assert [(c.before and c.before.version, c.after.version, c.schedule) for c in seen] == \
        [(None, 1, False), (1, game.version, True)]
    assert scheduled == [(game.version, 1)]


def test_a_failed_lobby_step_at_creation_is_reported_by_name_and_the_game_stands(redis_client):
    failed = []

    class Reporting(GameRunner):
        def after_append_failed(self, step, game_id, error):
            failed.append((step, type(error).__name__))

    runner = Reporting(EventStore(redis_client), {"race": RACE})

    def broken(*args, **kwargs):
        raise RuntimeError("the lobby's Redis")

    runner.store.index_game = broken
    game = runner.create_game("race", HUMANS)
    assert failed == [("lobby", "RuntimeError"), ("lobby", "RuntimeError")]  # created (open), then started (active)
    assert runner.load(game.id).status == "active"


def test_a_deferred_schedule_runs_the_schedule_step_alone(runner, redis_client):
    scheduled = []
    runner.after_append = lambda after, before: scheduled.append((after.version, before.version))
    start = runner.create_game("race", HUMANS, options={"goal": 1000})
    scheduled.clear()
    seen = spy(runner)
    moved = runner.execute(start.id, 0, {"type": "Pass"}, schedule=False).game
    assert scheduled == [] and [c.schedule for c in seen] == [False]
    runner.store.save_snapshot = runner.repository.remember = runner.store.index_game = None  # would raise if run
    runner.committer.failed = lambda step, game_id, error: pytest.fail(f"{step} ran for a deferred schedule")
    runner.schedule(moved, start)
    assert scheduled == [(moved.version, start.version)]
    assert seen[-1].envelopes == () and not seen[-1].appended
