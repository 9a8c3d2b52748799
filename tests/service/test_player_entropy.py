"""Seeds the players help make, over HTTP (issue 34, items 1 and 2).  The server commits to its seed in
the creation's answer, before any player's entropy can reach it; `entropy` with POST /v1/games is refused
(it would arrive before the commitment), and every human seat, those issued at creation included,
contributes afterwards with POST /v1/games/{id}/seats/{seat}/entropy (or its claim's `entropy`).  The game
waits for them (`contributions` in every document) until its window closes.  A contribution is public at
once, never reveals the seed, is mixed into every stream from the start (docs/fairness.md, section 1), and
the export verifies at POST /v1/replays and offline alike.  `seed` is an operator's setting: refused
unless the server allows fixed seeds, and then said wherever the game is shown."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from clients.cli import verify_offline
from rules.base import KeyedRng, Rng
from service import create_app
from tests.service.conftest import bearer
from tests.service.test_api import play_to_the_end, problem
from tests.support.race import RACE

SEED = "players-entropy-server-seed"
ISSUED, FIRST, SECOND = "seat zero's: 8d1f", "seat one's dice, rolled at home: 3 5 1", "🎲 seat zero"


def spec_mix(seed: str, parts: list[str]) -> str:
    message = b"".join(len(p.encode()).to_bytes(8, "big") + p.encode() for p in parts)
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


def claim(client, game_id: str, seat: int, **body):
    return client.post(f"/v1/games/{game_id}/seats/{seat}/claim", json=body)


def contribute(client, game_id: str, seat: int, token: str, entropy):
    return client.post(f"/v1/games/{game_id}/seats/{seat}/entropy", json={"entropy": entropy}, headers=bearer(token))


@pytest.fixture
def contributed(client):
    """A race: seat 0 issued at creation sends its entropy after the commitment, seat 1 claims with its own."""
    created = client.post("/v1/games", json={"ruleset": "race", "seed": SEED, "contribution_seconds": 60,
                                             "seats": [{"kind": "human"}, {"kind": "open"}]})
    assert created.status_code == 201, created.json
    game_id, token = created.json["id"], created.json["seats"][0]["token"]
    assert created.json["seed_commitment"] == hashlib.sha256(SEED.encode()).hexdigest()
    assert created.json["seed_source"] == "fixed" and created.json["contributions"]["owed"] == [0]
    answer = contribute(client, game_id, 0, token, ISSUED)
    assert answer.status_code == 200 and answer.json["status"] == "open" and answer.json["contributions"] is None
    answer = claim(client, game_id, 1, name="p1", entropy=FIRST)
    assert answer.status_code == 201 and answer.json["status"] == "active", answer.json
    assert answer.json["seed_commitment"] == created.json["seed_commitment"]  # shown at the claim too
    return game_id, [token, answer.json["token"]]


def test_contributions_are_public_at_once_and_the_seed_stays_secret(client, contributed):
    game_id, tokens = contributed
    mixed = spec_mix(SEED, [ISSUED, FIRST])
    for headers in ({}, bearer(tokens[0]), bearer(tokens[1])):
        feed = client.get(f"/v1/games/{game_id}/events?after=0", headers=headers)
        events = feed.json["events"]
        assert [(e["type"], e["data"]["seat"], e["data"]["entropy"]) for e in events if "entropy" in e["data"]] == [
            ("EntropyContributed", 0, ISSUED), ("SeatClaimed", 1, FIRST)]
        seen = "\n".join([feed.get_data(as_text=True),
                          client.get(f"/v1/games/{game_id}", headers=headers).get_data(as_text=True),
                          client.get(f"/v1/games/{game_id}/state?version=4", headers=headers).get_data(as_text=True),
                          client.get(f"/v1/games/{game_id}/history", headers=headers).get_data(as_text=True)])
        assert SEED not in seen and mixed not in seen


def test_a_game_with_every_seats_entropy_verifies_online_and_offline(client, contributed):
    game_id, tokens = contributed
    assert play_to_the_end(client, game_id, tokens)["seed"] == SEED  # the revealed seed is the committed one
    text = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True)
    records = [json.loads(line) for line in text.splitlines()]
    assert records[0]["seed"] == SEED and records[0]["seed_source"] == "fixed"
    # the set-up's secrets are the mixed seed's draws (the world's streams), not the server seed's
    mixed = spec_mix(SEED, [ISSUED, FIRST])
    dealt = [r["data"]["secret"]["number"] for r in records[1:] if r["type"] == "SecretDealt"]
    mixed_rng, server_rng = KeyedRng(mixed, {}), KeyedRng(SEED, {})
    assert dealt == [f"card-{mixed_rng.randint(10**11, 10**12)}" for _ in range(2)]
    assert dealt != [f"card-{server_rng.randint(10**11, 10**12)}" for _ in range(2)]

    verdict = client.post("/v1/replays", data=text.encode(), content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict
    assert "seed_source: fixed" in verdict["summary"]

    # a contribution changed in the export (command and event alike): named at the set-up's version
    start = next(r for r in records[1:] if r.get("command", {}).get("type") == "StartGame")
    claimed = next(n for n, r in enumerate(records) if r.get("type") == "SeatClaimed")
    records[claimed]["data"]["entropy"] = records[claimed]["command"]["entropy"] = FIRST + "?"
    forged = "".join(json.dumps(r) + "\n" for r in records).encode()
    verdict = client.post("/v1/replays", data=forged, content_type="application/x-ndjson").json
    assert not verdict["valid"] and verdict["diverged_at"] == start["version"], verdict


def test_cartel_verify_offline_gives_the_services_verdict_on_a_game_with_contributions(client, app):
    # Kingpin (the CLI verifies with the package's own rulesets): created and claimed over HTTP, played here
    created = client.post("/v1/games", json={"ruleset": "kingpin", "seed": SEED, "options": {"target": 3000},
                                             "seats": [{"kind": "open"}] * 2}).json
    for seat, entropy in ((0, FIRST), (1, SECOND)):
        assert claim(client, created["id"], seat, entropy=entropy).status_code == 201
    runner = app.extensions["cartel"].runner
    game = runner.load(created["id"])
    for step in range(3000):
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step))).game
    assert game.status == "finished" and game.effective_seed == spec_mix(SEED, [FIRST, SECOND])
    body = client.get(f"/v1/games/{game.id}/history").get_data()
    verdict = client.post("/v1/replays", data=body, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"], verdict
    assert verify_offline(body).raw == verdict
    forged = body.replace(json.dumps(FIRST).encode(), json.dumps(FIRST + ".").encode(), 2)  # command and event
    assert forged != body
    verdict = client.post("/v1/replays", data=forged, content_type="application/x-ndjson").json
    assert not verdict["valid"] and verdict["diverged_at"] == 4, verdict  # the set-up, after three table commands
    assert verify_offline(forged).raw == verdict


def test_entropy_with_the_creation_is_refused_and_creates_nothing(client):
    listed = client.get("/v1/games").json["total"]
    body = problem(client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2,
                                                  "entropy": "mine"}), 400)
    assert body["code"] == "entropy-before-commitment" and body["param"] == "entropy"
    assert "/seats/{seat}/entropy" in body["detail"]
    assert client.get("/v1/games").json["total"] == listed


def test_a_seed_is_refused_unless_the_operator_allows_fixed_seeds(redis_server, redis_client):
    strict = create_app({"REDIS_URL": redis_server.url, "RULESETS": {"race": RACE}}).test_client()
    listed = strict.get("/v1/games").json["total"]
    body = problem(strict.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2,
                                                  "seed": "I know every roll"}), 403)
    assert body["code"] == "fixed-seed-not-allowed" and body["param"] == "seed"
    assert strict.get("/v1/games").json["total"] == listed  # nothing was created
    # without a seed, the server's own: seed_source "server" in the answer, the lobby and the document
    created = strict.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json
    assert created["seed_source"] == "server"
    assert strict.get(f"/v1/games/{created['id']}").json["seed_source"] == "server"
    assert strict.get("/v1/games").json["games"][0]["seed_source"] == "server"


def test_a_fixed_seed_is_said_everywhere_the_game_is_shown(client, race):
    game_id, tokens = race
    assert client.get(f"/v1/games/{game_id}").json["seed_source"] == "fixed"
    assert next(g for g in client.get("/v1/games").json["games"] if g["id"] == game_id)["seed_source"] == "fixed"
    play_to_the_end(client, game_id, tokens)
    header = json.loads(client.get(f"/v1/games/{game_id}/history").get_data(as_text=True).splitlines()[0])
    assert header["seed_source"] == "fixed"
    events = client.get(f"/v1/games/{game_id}/events?after=0").json["events"]
    assert events[0]["type"] == "GameCreated" and events[0]["data"]["seed_source"] == "fixed"


def test_the_default_window_waits_for_the_seats_issued_at_creation(redis_server, redis_client):
    served = create_app({"REDIS_URL": redis_server.url, "RULESETS": {"race": RACE}}).test_client()
    created = served.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json
    assert created["status"] == "open" and created["contributions"]["owed"] == [0]
    assert 29_000 <= created["contributions"]["remaining_ms"] <= 30_000  # the service's default, 30 s
    token = created["seats"][0]["token"]
    doc = served.get(f"/v1/games/{created['id']}", headers=bearer(token)).json
    assert doc["contributions"]["owed"] == [0] and doc["legal_moves"] == []
    answer = contribute(served, created["id"], 0, token, FIRST)
    assert answer.status_code == 200 and answer.json["status"] == "active"
    assert served.get(f"/v1/games/{created['id']}").json["contributions"] is None


def test_a_contribution_refused_by_the_table_is_a_409_and_appends_nothing(client):
    created = client.post("/v1/games", json={"ruleset": "race", "contribution_seconds": 60,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]}).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert contribute(client, game_id, 0, tokens[0], FIRST).status_code == 200
    version = client.get(f"/v1/games/{game_id}").json["version"]
    body = problem(contribute(client, game_id, 0, tokens[0], SECOND), 409)
    assert body["code"] == "contribution-refused" and "already" in body["detail"]
    body = problem(contribute(client, game_id, 1, tokens[0], SECOND), 403)  # another seat's token
    assert body["code"] == "token-not-for-this-seat"
    problem(client.post(f"/v1/games/{game_id}/seats/1/entropy", json={"entropy": SECOND}), 401)
    assert client.get(f"/v1/games/{game_id}").json["version"] == version
    assert contribute(client, game_id, 1, tokens[1], SECOND).json["status"] == "active"
    body = problem(contribute(client, game_id, 1, tokens[1], "late"), 409)  # started: the seed is fixed
    assert body["code"] == "contribution-refused" and "started" in body["detail"]


BAD = ["", "x" * 257, "tab\there", "bidi \u202e", 42, ["a"], None]


@pytest.mark.parametrize("entropy", BAD, ids=repr)
def test_a_contribution_the_spec_refuses_is_a_400_and_appends_nothing(client, entropy):
    created = client.post("/v1/games", json={"ruleset": "race", "contribution_seconds": 60,
                                             "seats": [{"kind": "open"}, {"kind": "human"}]}).json
    game_id = created["id"]
    before = client.get(f"/v1/games/{game_id}").json
    body = problem(claim(client, game_id, 0, entropy=entropy), 400)
    assert "entropy" in json.dumps(body)
    body = problem(contribute(client, game_id, 1, created["seats"][1]["token"], entropy), 400)
    assert "entropy" in json.dumps(body)
    after = client.get(f"/v1/games/{game_id}").json
    assert after["version"] == before["version"] and [seat["kind"] for seat in after["seats"]] == ["open", "human"]
