"""Players over the API (issue 37 item 1): a player key, shown once and stored hashed, rotatable; seats bound
at creation or claim, recorded in the history; my games; a fresh seat token that voids the old one; unique,
validated names; the app key acting for a platform's players by their external_id."""
from __future__ import annotations

import json

import pytest

from events.keys import PLAYER_KEYS, player_key
from service import create_app
from service.auth import hash_token
from tests.service.conftest import bearer
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

APP_KEY = "platform-app-key-" + "x" * 32


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json" and response.json["code"] == code, response.json
    return response.json


def new_player(client, name: str, **headers) -> dict:
    created = client.post("/v1/players", json={"name": name}, headers=headers)
    assert created.status_code == 201, created.json
    return created.json


def race(client, seats: list[dict], key: str | None = None, **extra) -> dict:
    created = client.post("/v1/games", json={"ruleset": "race", "seats": seats, "seed": "players", **extra},
                          headers=bearer(key) if key else {})
    assert created.status_code == 201, created.json
    return created.json


def verified(client, game_id: str) -> list[dict]:
    """The game's history (played to its end by the caller), verified byte for byte; its records."""
    history = client.get(f"/v1/games/{game_id}/history")
    assert history.status_code == 200, history.json
    verdict = client.post("/v1/replays", data=history.data, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"], verdict
    return [json.loads(line) for line in history.get_data(as_text=True).splitlines()]


def test_a_player_key_is_shown_once_stored_hashed_and_rotated(client, redis_client):
    """The key is in the creation's answer and nowhere in Redis (only its SHA-256); GET /players/me answers
    to it; after a rotation the old key gets 401 and the new one works."""
    ada = new_player(client, "Ada")
    key = ada["key"]
    assert key.startswith("cp_") and ada["name"] == "Ada" and ada["external_id"] is None
    stored = redis_client.hgetall(player_key(ada["id"]))
    assert stored["key"] == hash_token(key) and key not in json.dumps(stored)
    assert redis_client.hget(PLAYER_KEYS, hash_token(key)) == ada["id"] and not redis_client.hexists(PLAYER_KEYS, key)
    assert client.get("/v1/players/me", headers=bearer(key)).json == {k: v for k, v in ada.items() if k != "key"}
    rotated = client.post("/v1/players/me/key", headers=bearer(key))
    assert rotated.status_code == 200 and rotated.json["key"] != key
    problem(client.get("/v1/players/me", headers=bearer(key)), 401, "player-key-invalid")
    assert client.get("/v1/players/me", headers=bearer(rotated.json["key"])).json["id"] == ada["id"]
    problem(client.get("/v1/players/me"), 401, "token-required")


@pytest.mark.parametrize("name", ["a", "x" * 25, "Ada Lovelace", "-ada", "Adá", "ada\n", "<b>", ""])
def test_a_name_out_of_its_rules_is_refused(client, name):
    refused = problem(client.post("/v1/players", json={"name": name}), 400, "malformed-request")
    assert refused["param"] == "name"


def test_names_are_unique_whatever_their_case(client):
    new_player(client, "Ada")
    taken = problem(client.post("/v1/players", json={"name": "aDA"}), 409, "player-name-taken")
    assert taken["param"] == "name"
    new_player(client, "Ada_2")


def test_seats_bound_at_creation_and_claim_are_in_the_history_my_games_and_every_seat_listing(client):
    """Ada creates a race bound to her seat 0 (as_player); Bo claims seat 1 with his key: each seat carries the
    player's id and name in the game document, the lobby and the history (GameCreated, SeatClaimed), which
    verifies; each lists the game in my games with their seat.  A seat-name sent with the claim gives way to
    the player's name.  Anonymous seats are as they were."""
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo-7")
    created = race(client, [{"kind": "human", "as_player": True}, {"kind": "open"}, {"kind": "human"}],
                   ada["key"], options={"goal": 5})
    game_id = created["id"]
    assert created["seats"][0]["player"] == ada["id"] and created["seats"][0]["name"] == "Ada"
    claimed = client.post(f"/v1/games/{game_id}/seats/1/claim", json={"name": "Someone"}, headers=bearer(bo["key"]))
    assert claimed.status_code == 201, claimed.json
    doc = client.get(f"/v1/games/{game_id}").json
    assert [(s.get("player"), s.get("name")) for s in doc["seats"]] == [(ada["id"], "Ada"), (bo["id"], "Bo-7"),
                                                                        (None, None)]
    lobby = client.get("/v1/games").json["games"]
    assert next(g for g in lobby if g["id"] == game_id)["seats"][1]["player"] == bo["id"]
    for player, seat in ((ada, 0), (bo, 1)):
        mine = client.get("/v1/players/me/games", headers=bearer(player["key"])).json
        assert [(g["id"], g["seat"]) for g in mine["games"]] == [(game_id, seat)] and mine["total"] == 1
    tokens = {0: created["seats"][0]["token"], 1: claimed.json["token"], 2: created["seats"][2]["token"]}
    while (game := client.get(f"/v1/games/{game_id}").json)["status"] == "active":
        seat, kind = next(iter(game["awaiting"].items()))
        client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll" if kind == "move" else "Acknowledge"},
                    headers=bearer(tokens[int(seat)]))
    records = verified(client, game_id)
    by_type = {r.get("type"): r for r in records}
    assert by_type["GameCreated"]["data"]["seats"][0] == {"kind": "human", "name": "Ada", "player": ada["id"]}
    assert by_type["SeatClaimed"]["data"] == {"seat": 1, "name": "Bo-7", "player": bo["id"]}


def test_a_player_gets_a_fresh_token_for_their_seat_and_the_old_one_stops_working(client):
    """Ada lost her seat token: with her key she gets a fresh one (SeatTokenRenewed in the history, which
    verifies); the old token gets 403, the new one plays.  Bo's key, for Ada's seat, is refused."""
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    created = race(client, [{"kind": "human", "as_player": True}, {"kind": "human"}], ada["key"],
                   options={"goal": 5})
    game_id, old = created["id"], created["seats"][0]["token"]
    problem(client.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(bo["key"])), 403, "not-your-seat")
    problem(client.post(f"/v1/games/{game_id}/seats/1/token", headers=bearer(ada["key"])), 403, "not-your-seat")
    renewed = client.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(ada["key"]))
    assert renewed.status_code == 200, renewed.json
    new = renewed.json["token"]
    assert new != old
    problem(client.get(f"/v1/games/{game_id}", headers=bearer(old)), 403, "token-not-for-this-game")
    assert client.get(f"/v1/games/{game_id}", headers=bearer(new)).json["you"] == 0
    tokens = {0: new, 1: created["seats"][1]["token"]}
    while (game := client.get(f"/v1/games/{game_id}").json)["status"] == "active":
        seat, kind = next(iter(game["awaiting"].items()))
        sent = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll" if kind == "move" else "Acknowledge"},
                           headers=bearer(tokens[int(seat)]))
        assert sent.status_code == 200, sent.json
    renewals = [r for r in verified(client, game_id) if r.get("type") == "SeatTokenRenewed"]
    assert [r["data"] for r in renewals] == [{"seat": 0, "player": ada["id"]}]


@pytest.fixture
def platform(redis_server, redis_client):
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": {"race": RACE}, "TESTING": True,
                      **TEST_SETTINGS, "PLATFORM_APP_KEY": APP_KEY, "RATE_LIMIT_PER_PLAYER": 6,
                      "RATE_LIMIT_BURST_SECONDS": 60})
    yield app.test_client()
    app.extensions["cartel"].hub.close()


def test_the_app_key_creates_players_by_external_id_and_acts_for_them(platform):
    """A platform creates a player with its own id; with the app key and X-Cartel-Player it reads them, binds a
    seat to them and lists their games.  external_id is the app key's alone (403 with a player's key or none),
    unique (409), and the app key needs X-Cartel-Player (400) naming a player (401)."""
    app_key = bearer(APP_KEY)
    made = platform.post("/v1/players", json={"name": "Cy", "external_id": "user:42"}, headers=app_key)
    assert made.status_code == 201 and made.json["external_id"] == "user:42"
    acting = {**app_key, "X-Cartel-Player": "user:42"}
    assert platform.get("/v1/players/me", headers=acting).json["id"] == made.json["id"]
    created = platform.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human", "as_player": True},
                                                                            {"kind": "open"}]}, headers=acting)
    assert created.status_code == 201 and created.json["seats"][0]["player"] == made.json["id"]
    assert [g["id"] for g in platform.get("/v1/players/me/games", headers=acting).json["games"]] == [created.json["id"]]
    problem(platform.post("/v1/players", json={"name": "Dee", "external_id": "user:43"}), 403, "app-key-required")
    problem(platform.post("/v1/players", json={"name": "Dee", "external_id": "user:43"},
                          headers=bearer(made.json["key"])), 403, "app-key-required")
    problem(platform.post("/v1/players", json={"name": "Dee", "external_id": "user:42"}, headers=app_key),
            409, "player-name-taken")
    problem(platform.get("/v1/players/me", headers=app_key), 400, "player-header-required")
    problem(platform.get("/v1/players/me", headers={**app_key, "X-Cartel-Player": "user:99"}), 401,
            "player-key-invalid")


def test_the_app_key_is_limited_per_player_it_acts_for(platform):
    """RATE_LIMIT_PER_PLAYER 6 a minute, a burst of 6: the app acting for one player is refused at the 7th
    request, while it acts for another at once (the limit is the player's, not the shared key's)."""
    app_key = bearer(APP_KEY)
    for external_id, name in (("a", "Eve"), ("b", "Fay")):
        assert platform.post("/v1/players", json={"name": name, "external_id": external_id},
                             headers=app_key).status_code == 201
    answers = [platform.get("/v1/players/me", headers={**app_key, "X-Cartel-Player": "a"}).status_code
               for _ in range(7)]
    assert answers == [200] * 6 + [429]
    assert platform.get("/v1/players/me", headers={**app_key, "X-Cartel-Player": "b"}).status_code == 200


def test_a_short_app_key_is_refused_at_start_up(redis_server):
    with pytest.raises(ValueError, match="PLATFORM_APP_KEY"):
        create_app({"REDIS_URL": redis_server.url, "PLATFORM_APP_KEY": "short"})


def test_a_rematch_keeps_each_seats_player_and_the_tables_visibility(client):
    """A private race between Ada (bound) and an anonymous seat, played out; both ask for the rematch: the new game
    is private too, its seat 0 is Ada's (player and name), and her games list both, the rematch first."""
    ada = new_player(client, "Ada")
    created = race(client, [{"kind": "human", "as_player": True}, {"kind": "human"}], ada["key"],
                   options={"goal": 5}, visibility="private")
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    while (game := client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json)["status"] == "active":
        seat, kind = next(iter(game["awaiting"].items()))
        client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll" if kind == "move" else "Acknowledge"},
                    headers=bearer(tokens[int(seat)]))
    for seat in (0, 1):
        asked = client.post(f"/v1/games/{game_id}/seats/{seat}/rematch", headers=bearer(tokens[seat]))
        assert asked.status_code == 200, asked.json
    rematch = asked.json["rematch"]
    doc = client.get(f"/v1/games/{rematch}", headers=bearer(tokens[0])).json
    assert doc["visibility"] == "private" and doc["rematch_of"] == game_id
    assert doc["seats"][0]["player"] == ada["id"] and doc["seats"][0]["name"] == "Ada" and "player" not in doc["seats"][1]
    problem(client.get(f"/v1/games/{rematch}"), 404, "not-found")
    mine = client.get("/v1/players/me/games", headers=bearer(ada["key"])).json["games"]
    assert [(g["id"], g["seat"]) for g in mine] == [(rematch, 0), (game_id, 0)]
