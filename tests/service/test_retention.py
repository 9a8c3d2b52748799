"""Retention over HTTP and with real workers: an abandoned game and an archived one still answer
GET /v1/games/{id}, its history, events and time travel, verify with POST /v1/replays, stay in
the lobby, and refuse every command with a 409 that says why."""
from __future__ import annotations

import json

import pytest

from events import retention
from events.archive import DirectoryArchive
from events.history import parse_history
from events.keys import meta_key, snapshot_key, stream_key
from events.runner import now_ms
from rules import RULESETS
from service import create_app, jobs
from service.wiring import build_engine, workers_alive
from tests.service.conftest import bearer
from tests.support.processes import Worker, wait_until
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

HOUR = 3600
POLICY = retention.Policy(abandon_after=HOUR, archive_after=HOUR)


@pytest.fixture
def app(redis_server, redis_client, tmp_path):
    return create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, "TESTING": True,
                       "ARCHIVE_DIR": str(tmp_path / "archive")})


@pytest.fixture
def later(app):
    """Sweep as if `hours` had passed (the app's runner's clock moved for the sweep only)."""
    runner = app.extensions["cartel"].runner

    def sweep(hours: float) -> dict:
        runner.clock = lambda: now_ms() + int(hours * HOUR * 1000)
        try:
            return retention.sweep(runner, POLICY)
        finally:
            runner.clock = now_ms
    return sweep


def new_race(client, goal: int = 1000, seed: str = "kept") -> tuple[str, list[str]]:
    body = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, "seed": seed,
                                          "options": {"goal": goal}}).json
    return body["id"], [seat["token"] for seat in body["seats"]]


def play_to_the_end(client, game_id: str, tokens: list[str]) -> dict:
    while True:
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] != "active":
            return game
        seat, kind = next(iter(game["awaiting"].items()))
        client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll" if kind == "move" else "Acknowledge"},
                    headers=bearer(tokens[int(seat)]))


def everything_a_reader_gets(client, game_id: str, token: str) -> dict:
    return {"game": client.get(f"/v1/games/{game_id}").json,
            "history": client.get(f"/v1/games/{game_id}/history").data,
            "state 3": client.get(f"/v1/games/{game_id}/state?version=3").json,
            "state": client.get(f"/v1/games/{game_id}/state").json,
            "events": client.get(f"/v1/games/{game_id}/events?after=2&limit=3").json,
            "spectator's feed": client.get(f"/v1/games/{game_id}/events?after=0").json["events"],
            "seat's feed": client.get(f"/v1/games/{game_id}/events?after=0", headers=bearer(token)).json["events"]}


def test_an_archived_game_answers_as_before_and_refuses_commands(app, client, later, redis_client):
    game_id, tokens = new_race(client, goal=30)
    assert play_to_the_end(client, game_id, tokens)["status"] == "finished"
    before = everything_a_reader_gets(client, game_id, tokens[0])
    assert later(0.5) == {"abandoned": 0, "archived": 0}
    assert later(1) == {"abandoned": 0, "archived": 1}
    assert not redis_client.exists(stream_key(game_id), meta_key(game_id), snapshot_key(game_id))

    after = everything_a_reader_gets(client, game_id, tokens[0])
    # a seat's token is not kept: an archived game is a public record, every reader gets the spectator's
    # view and feed (the full history, every secret in it, is at .../history)
    assert after.pop("seat's feed") == before.pop("spectator's feed") == after.pop("spectator's feed")
    assert before.pop("seat's feed") != after["history"]
    assert after == before
    mine = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    assert mine.status_code == 200 and mine.json["you"] is None and mine.json["seed"] == "kept"
    lobby = client.get("/v1/games?status=finished").json
    assert [g["id"] for g in lobby["games"]] == [game_id] and lobby["games"][0]["version"] == before["game"]["version"]
    stream = client.get(f"/v1/games/{game_id}/events?after={before['game']['version'] - 1}",
                        headers={"Accept": "text/event-stream"}).get_data(as_text=True)
    assert f"id: {before['game']['version']}" in stream and 'event: end\ndata: {"status":"finished"' in stream
    verdict = client.post("/v1/replays?version=3", data=after["history"], content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["state"] == after["state 3"]["state"] and verdict["view"] == after["state 3"]["view"]

    for method, path, body in (("post", "commands", {"type": "Roll"}), ("post", "seats/0/reclaim", None),
                               ("post", "seats/1/claim", {}), ("post", "tickets", None)):
        response = getattr(client, method)(f"/v1/games/{game_id}/{path}", json=body, headers=bearer(tokens[0]))
        assert response.status_code == 409, (path, response.json)
        assert response.json["type"].endswith("/game-archived") and "archived" in response.json["detail"]


def test_an_abandoned_game_ends_without_a_winner_and_publishes_its_history(app, client, later):
    game_id, tokens = new_race(client)
    client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[0]))
    assert later(0.9)["abandoned"] == 0
    assert later(1) == {"abandoned": 1, "archived": 0}

    game = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[1])).json
    assert game["status"] == "abandoned" and game["awaiting"] == {} and game["legal_moves"] == []
    assert game["outcome"] == {"winners": [], "reason": "abandoned", "idle_seconds": HOUR,
                               "text": "Nobody wins: the game was abandoned."} and game["seed"] == "kept"
    assert client.get("/v1/games?status=abandoned").json["total"] == 1
    assert client.get("/v1/games?status=active").json["total"] == 0
    refused = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[1]))
    assert refused.status_code == 409 and refused.json["type"].endswith("/game-abandoned")
    assert "abandoned" in refused.json["detail"] and "no more commands" in refused.json["detail"]
    assert client.get(f"/v1/games/{game_id}/state").json["state"] is not None  # ended: the full state is public

    history = client.get(f"/v1/games/{game_id}/history")
    assert history.status_code == 200
    records = parse_history(history.get_data(as_text=True))
    assert records[-1]["type"] == "GameAbandoned" and records[-1]["command"]["type"] == "AbandonGame"
    verdict = client.post("/v1/replays", data=history.data, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["outcome"]["reason"] == "abandoned", verdict

    assert later(2)["archived"] == 1  # and once archived, the same from the archive
    assert client.get(f"/v1/games/{game_id}/history").data == history.data
    assert client.get(f"/v1/games/{game_id}").json["status"] == "abandoned"
    refused = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[1]))
    assert refused.status_code == 409 and refused.json["type"].endswith("/game-archived")
    assert client.get("/v1/games?status=abandoned").json["games"][0]["status"] == "abandoned"


def test_the_lobby_lists_live_and_archived_games_together(app, client, later):
    finished, tokens = new_race(client, goal=5, seed="first")
    play_to_the_end(client, finished, tokens)
    later(1.5)
    live, _ = new_race(client, seed="second")
    rows = client.get("/v1/games").json
    assert [g["id"] for g in rows["games"]] == [live, finished] and rows["total"] == 2
    assert [g["status"] for g in rows["games"]] == ["active", "finished"]


def test_the_stalled_work_sweeper_drops_an_archived_game_from_its_indexes(app, client, later, redis_client):
    game_id, tokens = new_race(client, goal=5)
    play_to_the_end(client, game_id, tokens)
    assert later(2)["archived"] == 1
    # an index entry left behind (a worker killed between the append and the index update)
    redis_client.zadd("{lobby}:botwait", {game_id: 1})
    redis_client.zadd("{lobby}:clocks", {game_id: 1})
    engine = app.extensions["cartel"]
    assert jobs.sweep(engine.runner, engine.queue, 0) == 0
    assert redis_client.zcard("{lobby}:botwait") == redis_client.zcard("{lobby}:clocks") == 0


@pytest.fixture
def workers(redis_server, tmp_path):
    started = []
    env = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE", "SWEEP_SECONDS": "0.2", "RETENTION_SWEEP_SECONDS": "0.2",
           "ABANDON_AFTER_SECONDS": "1", "ARCHIVE_AFTER_SECONDS": "1", "ARCHIVE_DIR": str(tmp_path / "archive")}
    for n in range(2):  # two sweepers racing over the same games
        worker = Worker(redis_server.url, tmp_path / f"worker{n}.log", extra_env=env)
        worker.start()
        started.append(worker)
    yield tmp_path / "archive"
    for worker in started:
        worker.stop()


def test_real_workers_abandon_and_archive_each_game_once(redis_server, redis_client, workers):
    # ABANDON_AFTER_SECONDS=1, ARCHIVE_AFTER_SECONDS=1, two workers sweeping every 0.2 s
    archive = DirectoryArchive(workers)
    engine = build_engine(redis_server.url, rulesets={**RULESETS, "race": RACE}, archive=archive)
    wait_until(lambda: workers_alive(engine) == 2, timeout=30, what="two workers")
    idle = [engine.runner.create_game("race", [{"kind": "human"}, {"kind": "bot"}], {"goal": 1000}, f"idle{n}",
                                      {"move_seconds": 600}).id for n in range(4)]
    # a race to 5 (two or three bot moves), so the bots finish well within the idle second on a loaded machine too
    bots = engine.runner.create_game("race", [{"kind": "bot"}, {"kind": "bot"}], {"goal": 5}, "bots").id
    for game_id in idle + [bots]:
        wait_until(lambda: archive.exists(game_id) and not redis_client.exists(meta_key(game_id)), timeout=30,
                   what=f"game {game_id} archived")
    for game_id in idle:
        records = parse_history(archive.get(game_id))
        assert [r["type"] for r in records[1:]].count("GameAbandoned") == 1
        game = engine.runner.load(game_id)
        assert game.archived and game.status == "abandoned" and game.deadlines == {}
    assert engine.runner.load(bots).status == "finished"  # bots finished it well within the idle time
    assert not redis_client.zrange("{lobby}:clocks", 0, -1) and not redis_client.zrange("{lobby}:botwait", 0, -1)
    assert {json.loads(row)["status"] for row in redis_client.hvals("{lobby}:archived")} == {"abandoned", "finished"}
    for log in workers.parent.glob("worker*.log"):
        assert "sweep failed" not in log.read_text(), log.read_text()[-3000:]
