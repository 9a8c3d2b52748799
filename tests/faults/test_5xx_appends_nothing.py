"""A 5xx means only "nothing was appended": every 5xx the service can give, staged for real on a
command (or, for the one a read gives, on that read), leaves the store as it was; a failure after the
append is no 5xx at all: the command answers 200 with its events.

(The one outcome no server can rule out is Redis dying while it runs the append script, after the
write and before the reply: then the service cannot know either, and the same Idempotency-Key makes
a resend safe.  It is the only case not staged here.)"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import RULESETS
from service import create_app
from tests.service.conftest import bearer
from tests.support.race import RACE, Race
from tests.support.settings import TEST_SETTINGS

SERVICE = Path(__file__).resolve().parents[2] / "service"
# (status, problem type) -> the test below that stages it
STAGED = {(503, "storage-unavailable"): "test_a_503_for_an_unreachable_store_appended_nothing",
          (503, "too-many-followers"): "test_a_503_for_too_many_followers_appended_nothing",
          (500, "internal-error"): "test_a_500_appended_nothing"}


class BuggyDecide(Race):
    """The race with a bug in its decide (any command raises)."""

    name = "race-buggy"

    def decide(self, state, seat, command, rng):
        raise RuntimeError("a bug in the rules")


@pytest.fixture
def app(crashable_redis):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": crashable_redis.url, "TESTING": True,
                      "RULESETS": {**RULESETS, "race": RACE, "race-buggy": BuggyDecide()}})
    yield app
    app.extensions["cartel"].hub.close()


def new_game(client, ruleset: str = "race", seats=None) -> tuple[str, list[str]]:
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    created = client.post("/v1/games", json={"ruleset": ruleset, "seats": seats, "options": {"goal": 1000}})
    assert created.status_code == 201, created.json
    return created.json["id"], [seat.get("token") for seat in created.json["seats"]]


def stored_versions(redis_server, game_id: str) -> list[int]:
    return [int(entry_id.split("-")[0]) for entry_id, _ in redis_server.client().xrange(f"g:{{{game_id}}}:events")]


def send_pass(client, game_id: str, token: str):
    return client.post(f"/v1/games/{game_id}/commands", json={"type": "Pass"}, headers=bearer(token))


def test_these_are_all_the_5xx_the_service_gives():
    """A new 5xx in service/ must be staged below too."""
    given = set()
    for path in SERVICE.rglob("*.py"):
        for status, kind in re.findall(r'(?:problem_response|Problem)\(\s*(5\d\d),\s*"([a-z-]+)"', path.read_text()):
            given.add((int(status), kind))
    assert given == set(STAGED)
    here = globals()
    assert all(name in here for name in STAGED.values())


def test_a_503_for_an_unreachable_store_appended_nothing(app, crashable_redis):
    client = app.test_client()
    game_id, tokens = new_game(client)
    before = stored_versions(crashable_redis, game_id)
    crashable_redis.kill()
    try:
        response = send_pass(client, game_id, tokens[0])
        assert response.status_code == 503 and response.json["type"].endswith("/storage-unavailable")
    finally:
        crashable_redis.start()  # same port and directory: it replays its AOF (appendfsync always)
    assert stored_versions(crashable_redis, game_id) == before


def test_a_store_lost_right_after_the_append_answers_200_with_the_stored_events(app, crashable_redis, monkeypatch):
    """Redis dies just after the append script returned: the scheduling that follows (a bot is to move,
    so the sweeper's index is written) fails for real, and the command still answers with its events."""
    client = app.test_client()
    game_id, tokens = new_game(client, seats=[{"kind": "human"}, {"kind": "bot"}])
    before = stored_versions(crashable_redis, game_id)
    store = app.extensions["cartel"].store
    for name in ("append", "append_with_toll"):
        appended = getattr(store, name)

        def append_then_die(*args, _appended=appended, **kwargs):
            version = _appended(*args, **kwargs)
            crashable_redis.kill()
            return version

        monkeypatch.setattr(store, name, append_then_die)
    try:
        response = send_pass(client, game_id, tokens[0])
    finally:
        crashable_redis.start()
    assert response.status_code == 200, response.json
    assert [e["type"] for e in response.json["events"]] == ["TurnPassed"]
    assert stored_versions(crashable_redis, game_id) == before + [response.json["events"][0]["version"]]


def test_a_500_appended_nothing(app, crashable_redis):
    client = app.test_client()
    game_id, tokens = new_game(client, "race-buggy")
    before = stored_versions(crashable_redis, game_id)
    response = send_pass(client, game_id, tokens[0])
    assert response.status_code == 500 and response.json["type"].endswith("/internal-error")
    assert stored_versions(crashable_redis, game_id) == before


def test_a_bug_after_the_append_answers_200_with_the_stored_events(app, crashable_redis):
    client = app.test_client()
    game_id, tokens = new_game(client)
    before = stored_versions(crashable_redis, game_id)
    runner = app.extensions["cartel"].runner

    def buggy_scheduler(game, previous):
        raise RuntimeError("a bug in the scheduling")

    runner.after_append = buggy_scheduler
    response = send_pass(client, game_id, tokens[0])
    assert response.status_code == 200, response.json
    assert stored_versions(crashable_redis, game_id) == before + [response.json["events"][0]["version"]]


def test_a_503_for_too_many_followers_appended_nothing(app, crashable_redis):
    """Given only to a read (a new SSE stream on a full process): nothing to append in the first place."""
    client = app.test_client()
    game_id, _ = new_game(client)
    before = stored_versions(crashable_redis, game_id)
    app.config["SSE_MAX_FOLLOWERS"] = 0
    response = client.get(f"/v1/games/{game_id}/events", headers={"Accept": "text/event-stream"})
    assert response.status_code == 503 and response.json["type"].endswith("/too-many-followers")
    assert stored_versions(crashable_redis, game_id) == before
