"""My stream and challenges (issue 37 items 2 and 4): each player's feed (a capped Redis stream written after the
append) read over SSE, resumed exactly by Last-Event-ID; challenges to a player (accepted, declined, cancelled,
expired) and to a bot level, whose game has both seats bound and is told on both feeds."""
from __future__ import annotations

import json

import pytest

from events.keys import player_feed_key
from service import create_app
from tests.service.conftest import bearer
from tests.service.test_players import new_player, problem
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


@pytest.fixture
def quick(redis_server, redis_client):
    """An app whose streams end after a second (so a test reads what a stream sent, then its end)."""
    from rules import RULESETS
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, "TESTING": True,
                      **TEST_SETTINGS, "SSE_MAX_SECONDS": 1, "SSE_HEARTBEAT_SECONDS": 0.3})
    yield app.test_client()
    app.extensions["cartel"].hub.close()


def stream(client, key: str, last: str | None = None, after: str | None = None) -> list[tuple[str, str, dict]]:
    """(id, event, data) of each message my stream sent before the server ended it."""
    headers = {**bearer(key), **({"Last-Event-ID": last} if last else {})}
    response = client.get("/v1/players/me/stream" + (f"?after={after}" if after else ""), headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/event-stream", response.data
    messages = []
    for block in response.get_data(as_text=True).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":") and ": " in line)
        if "data" in fields:
            messages.append((fields["id"], fields["event"], json.loads(fields["data"])))
    return messages


def kinds(messages) -> list[str]:
    return [event for _, event, _ in messages]


def play_out(client, game_id: str, tokens: dict[int, str]) -> None:
    """Roll (and acknowledge) for every seat until the race ends."""
    for _ in range(400):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] != "active":
            return
        for seat in game["awaiting"]:
            moves = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[int(seat)])).json["legal_moves"]
            move = next(m for m in moves if m["type"] != "Pass")
            client.post(f"/v1/games/{game_id}/commands", json={k: v for k, v in move.items() if k in ("type",)},
                        headers=bearer(tokens[int(seat)]))
    raise AssertionError("the race did not end")


def test_my_stream_tells_a_start_my_turns_as_edges_and_the_finish_resumable_exactly(quick, redis_client):
    ada, bo = new_player(quick, "Ada"), new_player(quick, "Bo")
    challenge = quick.post("/v1/challenges", json={"to": "Bo", "ruleset": "race", "options": {"goal": 5}},
                           headers=bearer(ada["key"]))
    assert challenge.status_code == 201 and challenge.json["status"] == "open", challenge.json
    accepted = quick.post(f"/v1/challenges/{challenge.json['id']}/accept", headers=bearer(bo["key"]))
    assert accepted.status_code == 200, accepted.json
    game_id = accepted.json["game_id"]
    ada_token = quick.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(ada["key"])).json["token"]
    play_out(quick, game_id, {0: ada_token, 1: accepted.json["token"]})

    mine = stream(quick, ada["key"], after="0-0")
    # the note of the acceptance comes once the game exists: here (no entropy window) after its start
    assert set(kinds(mine)[:3]) == {"challenge_accepted", "game_started", "your_turn"}, mine
    assert kinds(mine).index("game_started") < kinds(mine).index("your_turn"), mine
    assert kinds(mine)[-1] == "game_finished" and mine[-1][2]["outcome"], mine
    assert {data["game_id"] for _, kind, data in mine if kind != "challenge_accepted"} == {game_id}
    turns = [data for _, kind, data in mine if kind == "your_turn"]
    assert turns and all(data["seat"] == 0 for data in turns)
    # Bo's feed: the challenge, then the same game told for seat 1; nothing of Ada's seat
    theirs = stream(quick, bo["key"], after="0-0")
    assert kinds(theirs)[0] == "challenge" and {"challenge_accepted", "game_started"} <= set(kinds(theirs)[1:4]), theirs
    assert all(data.get("seat") in (1, None) for _, kind, data in theirs if kind in ("your_turn", "game_started"))
    # Last-Event-ID resumes after exactly that message; a stream opened without one waits for what comes next
    assert stream(quick, ada["key"], last=mine[2][0]) == mine[3:]
    assert stream(quick, ada["key"]) == []
    assert redis_client.xlen(player_feed_key(ada["id"])) == len(mine)


def test_your_turn_is_an_edge_once_per_stretch_the_seat_is_awaited(quick):
    """A seat awaited across several versions (race: seat 0 acknowledges Bo's 6, then rolls on its own turn) is
    told once, as the stretch starts: one `your_turn` per roll of its own (each stretch ends with one)."""
    ada, bo = new_player(quick, "Ada"), new_player(quick, "Bo")
    for attempt in range(40):  # fixed seeds, the first where Ada acknowledges a 6 of Bo's: a stretch of two moves
        created = quick.post("/v1/games", headers=bearer(ada["key"]), json={
            "ruleset": "race", "seed": f"edge-{attempt}", "options": {"goal": 10},
            "seats": [{"kind": "human", "as_player": True}, {"kind": "open"}]}).json
        game_id = created["id"]
        claimed = quick.post(f"/v1/games/{game_id}/seats/1/claim", headers=bearer(bo["key"])).json
        play_out(quick, game_id, {0: created["seats"][0]["token"], 1: claimed["token"]})
        records = [json.loads(line) for line in
                   quick.get(f"/v1/games/{game_id}/history").get_data(as_text=True).splitlines()[1:]]
        by_ada = [r["type"] for r in records if r["type"] in ("DieRolled", "Acknowledged") and r["data"]["seat"] == 0]
        if "Acknowledged" in by_ada:
            break
    else:
        raise AssertionError("no seed made Ada acknowledge a 6")
    turns = [data for _, kind, data in stream(quick, ada["key"], after="0-0")
             if kind == "your_turn" and data["game_id"] == game_id]
    assert len(turns) == by_ada.count("DieRolled") < len(by_ada), (len(turns), by_ada)
    assert [t["version"] for t in turns] == sorted({t["version"] for t in turns})


def test_an_anonymous_table_writes_no_feed(client, redis_client):
    keys_before = set(redis_client.keys("pl:{players}:feed:*"))
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert created.status_code == 201
    assert set(redis_client.keys("pl:{players}:feed:*")) == keys_before


def test_a_bot_level_challenge_creates_the_game_at_once(quick):
    ada = new_player(quick, "Ada")
    made = quick.post("/v1/challenges", json={"to": {"bot": "random"}, "ruleset": "race", "seats": 3},
                      headers=bearer(ada["key"]))
    assert made.status_code == 201 and made.json["status"] == "accepted", made.json
    game = quick.get(f"/v1/games/{made.json['game_id']}", headers=bearer(made.json["token"])).json
    assert game["you"] == 0 and [s["kind"] for s in game["seats"]] == ["human", "bot", "bot"], game
    assert game["seats"][0]["player"] == ada["id"]
    assert {"challenge_accepted", "game_started"} <= set(kinds(stream(quick, ada["key"], after="0-0"))[:3])


def test_challenges_are_answered_once_by_the_right_player_and_expire(quick, app_clock_ms=None):
    ada, bo, cy = (new_player(quick, name) for name in ("Ada", "Bo", "Cy"))
    problem(quick.post("/v1/challenges", json={"to": "Nobody", "ruleset": "race"}, headers=bearer(ada["key"])),
            404, "player-not-found")
    problem(quick.post("/v1/challenges", json={"to": "ada", "ruleset": "race"}, headers=bearer(ada["key"])),
            409, "challenge-refused")
    problem(quick.post("/v1/challenges", json={"to": "Bo", "ruleset": "race", "options": {"goal": 7}},
                       headers=bearer(ada["key"])), 422, "option-invalid")
    problem(quick.post("/v1/challenges", json={"to": {"bot": "grandmaster"}, "ruleset": "race"},
                       headers=bearer(ada["key"])), 422, "bot-level-invalid")
    problem(quick.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}), 401, "token-required")
    first = quick.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=bearer(ada["key"])).json
    # a stranger, or the challenger, cannot answer it: answered as no such challenge
    problem(quick.post(f"/v1/challenges/{first['id']}/accept", headers=bearer(cy["key"])), 404, "not-found")
    problem(quick.post(f"/v1/challenges/{first['id']}/accept", headers=bearer(ada["key"])), 404, "not-found")
    declined = quick.post(f"/v1/challenges/{first['id']}/decline", headers=bearer(bo["key"]))
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    problem(quick.post(f"/v1/challenges/{first['id']}/accept", headers=bearer(bo["key"])), 409, "challenge-not-open")
    assert kinds(stream(quick, ada["key"], after="0-0")) == ["challenge_declined"]
    second = quick.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=bearer(ada["key"])).json
    problem(quick.post(f"/v1/challenges/{second['id']}/cancel", headers=bearer(bo["key"])), 404, "not-found")
    assert quick.post(f"/v1/challenges/{second['id']}/cancel", headers=bearer(ada["key"])).json["status"] == "cancelled"
    listed = quick.get("/v1/players/me/challenges", headers=bearer(bo["key"])).json["challenges"]
    assert [(c["id"], c["status"]) for c in listed] == [(second["id"], "cancelled"), (first["id"], "declined")]
    assert quick.get("/v1/players/me/challenges", headers=bearer(cy["key"])).json["challenges"] == []


def test_an_expired_challenge_is_no_longer_open(redis_server, redis_client):
    from rules import RULESETS
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, "TESTING": True,
                      **TEST_SETTINGS, "CHALLENGE_SECONDS": 1})
    client = app.test_client()
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    made = client.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=bearer(ada["key"])).json
    runner = app.extensions["cartel"].runner
    runner.clock = lambda: made["expires_at"]  # the moment it expires
    body = problem(client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bo["key"])), 409,
                   "challenge-not-open")
    assert "expired" in body["detail"]
    assert client.get("/v1/players/me/challenges", headers=bearer(bo["key"])).json["challenges"][0]["status"] == \
        "expired"
    app.extensions["cartel"].hub.close()


def test_a_malformed_last_event_id_is_refused(quick):
    ada = new_player(quick, "Ada")
    problem(quick.get("/v1/players/me/stream", headers={**bearer(ada["key"]), "Last-Event-ID": "12"}), 400,
            "malformed-last-event-id")
    problem(quick.get("/v1/players/me/stream"), 401, "token-required")


def test_a_rematch_offer_is_told_to_the_other_players_only_and_a_stranger_hears_nothing(quick):
    ada, bo, cy = (new_player(quick, name) for name in ("Ada", "Bo", "Cy"))
    created = quick.post("/v1/games", headers=bearer(ada["key"]), json={
        "ruleset": "race", "options": {"goal": 5}, "seats": [{"kind": "human", "as_player": True}, {"kind": "open"}]}).json
    game_id = created["id"]
    claimed = quick.post(f"/v1/games/{game_id}/seats/1/claim", headers=bearer(bo["key"])).json
    play_out(quick, game_id, {0: created["seats"][0]["token"], 1: claimed["token"]})
    asked = quick.post(f"/v1/games/{game_id}/seats/0/rematch", headers=bearer(created["seats"][0]["token"]))
    assert asked.status_code == 200, asked.json
    offers = [data for _, kind, data in stream(quick, bo["key"], after="0-0") if kind == "rematch_offer"]
    assert offers == [{"game_id": game_id, "seat": 0, "your_seat": 1}]
    assert "rematch_offer" not in kinds(stream(quick, ada["key"], after="0-0"))
    assert stream(quick, cy["key"], after="0-0") == []


def test_a_process_sheds_followers_of_players_streams_over_its_limit_and_counts_every_closed_one(quick):
    from service.api.my_stream import FOLLOWERS
    quick.application.config["MY_STREAM_MAX_FOLLOWERS"] = FOLLOWERS.count + 1
    ada = new_player(quick, "Ada")
    held = quick.get("/v1/players/me/stream", headers=bearer(ada["key"]))  # opened, not read
    assert held.status_code == 200
    body = problem(quick.get("/v1/players/me/stream", headers=bearer(ada["key"])), 503, "too-many-followers")
    assert "limit" in body["detail"]
    held.close()  # closed before a byte was read: counted out all the same
    again = quick.get("/v1/players/me/stream", headers=bearer(ada["key"]))
    assert again.status_code == 200
    again.get_data()
    assert quick.get("/v1/players/me/stream", headers=bearer(ada["key"])).status_code == 200


def test_the_app_key_follows_and_challenges_for_the_player_x_cartel_player_names(redis_server, redis_client):
    from rules import RULESETS
    app_key = "platform-app-key-" + "y" * 32
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, "TESTING": True,
                      **TEST_SETTINGS, "SSE_MAX_SECONDS": 1, "SSE_HEARTBEAT_SECONDS": 0.3,
                      "PLATFORM_APP_KEY": app_key})
    client = app.test_client()
    for name, external_id in (("Ada", "u-1"), ("Bo", "u-2")):
        assert client.post("/v1/players", json={"name": name, "external_id": external_id},
                           headers=bearer(app_key)).status_code == 201
    as_ada, as_bo = ({**bearer(app_key), "X-Cartel-Player": who} for who in ("u-1", "u-2"))
    made = client.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=as_ada)
    assert made.status_code == 201, made.json
    followed = client.get("/v1/players/me/stream?after=0-0", headers=as_bo)
    assert followed.status_code == 200 and "event: challenge\n" in followed.get_data(as_text=True)
    problem(client.get("/v1/players/me/stream", headers=bearer(app_key)), 400, "player-header-required")
    app.extensions["cartel"].hub.close()
