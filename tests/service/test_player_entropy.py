"""Seeds the players help make, over HTTP (issue 26, item 3): `entropy` on POST /v1/games (the creator's)
and on a claim (the seat's) is public at once in the feed, never reveals the seed, is mixed into every
stream from the start (docs/fairness.md, section 1), and the export verifies at POST /v1/replays and
offline alike; a contribution the spec refuses is a 400 problem+json that appends nothing."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from clients.cli import verify_offline
from rules.base import Rng
from tests.service.conftest import bearer
from tests.service.test_api import play_to_the_end, problem

SEED = "players-entropy-server-seed"
CREATOR, FIRST, SECOND = "creator: 8d1f", "seat one's dice, rolled at home: 3 5 1", "🎲 seat zero"


def spec_mix(seed: str, parts: list[str]) -> str:
    message = b"".join(len(p.encode()).to_bytes(8, "big") + p.encode() for p in parts)
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


def claim(client, game_id: str, seat: int, **body):
    return client.post(f"/v1/games/{game_id}/seats/{seat}/claim", json=body)


@pytest.fixture
def contributed(client):
    """A race at two open seats: the creator, then seat 1, then seat 0 send entropy (the last claim starts it)."""
    created = client.post("/v1/games", json={"ruleset": "race", "seed": SEED, "entropy": CREATOR,
                                             "seats": [{"kind": "open"}] * 2})
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    assert created.json["seed_commitment"] == hashlib.sha256(SEED.encode()).hexdigest()
    tokens = {}
    for seat, entropy in ((1, FIRST), (0, SECOND)):
        answer = claim(client, game_id, seat, name=f"p{seat}", entropy=entropy)
        assert answer.status_code == 201, answer.json
        tokens[seat] = answer.json["token"]
    assert answer.json["status"] == "active"
    return game_id, [tokens[0], tokens[1]]


def test_contributions_are_public_at_once_and_the_seed_stays_secret(client, contributed):
    game_id, tokens = contributed
    mixed = spec_mix(SEED, [CREATOR, FIRST, SECOND])
    for headers in ({}, bearer(tokens[0]), bearer(tokens[1])):
        feed = client.get(f"/v1/games/{game_id}/events?after=0", headers=headers)
        events = feed.json["events"]
        assert events[0]["data"]["entropy"] == CREATOR
        assert [(e["data"]["seat"], e["data"]["entropy"]) for e in events if e["type"] == "SeatClaimed"] == [
            (1, FIRST), (0, SECOND)]
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
    assert records[0]["seed"] == SEED
    # every part is in the export, with who sent it
    assert records[1]["data"]["entropy"] == CREATOR
    assert [(r["data"]["seat"], r["data"]["entropy"]) for r in records[1:] if r["type"] == "SeatClaimed"] == [
        (1, FIRST), (0, SECOND)]
    # the set-up's secrets are the mixed seed's draws, not the server seed's
    start = next(r for r in records[1:] if r.get("command", {}).get("type") == "StartGame")
    mixed = spec_mix(SEED, [CREATOR, FIRST, SECOND])
    assert mixed != SEED
    dealt = [r["data"]["secret"]["number"] for r in records[1:] if r["type"] == "SecretDealt"]
    mixed_rng, server_rng = Rng(mixed, start["version"]), Rng(SEED, start["version"])
    assert dealt == [f"card-{mixed_rng.randint(10**11, 10**12)}" for _ in range(2)]
    assert dealt != [f"card-{server_rng.randint(10**11, 10**12)}" for _ in range(2)]

    verdict = client.post("/v1/replays", data=text.encode(), content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict

    # a contribution changed in the export (command and event alike): named at the set-up's version
    claimed = next(n for n, r in enumerate(records) if r.get("type") == "SeatClaimed")
    records[claimed]["data"]["entropy"] = records[claimed]["command"]["entropy"] = FIRST + "?"
    forged = "".join(json.dumps(r) + "\n" for r in records).encode()
    verdict = client.post("/v1/replays", data=forged, content_type="application/x-ndjson").json
    assert not verdict["valid"] and verdict["diverged_at"] == start["version"], verdict


def test_cartel_verify_offline_gives_the_services_verdict_on_a_game_with_contributions(client, app):
    # Kingpin (the CLI verifies with the package's own rulesets): created and claimed over HTTP, played here
    created = client.post("/v1/games", json={"ruleset": "kingpin", "seed": SEED, "entropy": CREATOR,
                                             "options": {"target": 3000}, "seats": [{"kind": "open"}] * 2}).json
    for seat, entropy in ((0, FIRST), (1, SECOND)):
        assert claim(client, created["id"], seat, entropy=entropy).status_code == 201
    runner = app.extensions["cartel"].runner
    game = runner.load(created["id"])
    for step in range(3000):
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step))).game
    assert game.status == "finished" and game.effective_seed == spec_mix(SEED, [CREATOR, FIRST, SECOND])
    body = client.get(f"/v1/games/{game.id}/history").get_data()
    verdict = client.post("/v1/replays", data=body, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"], verdict
    assert verify_offline(body).raw == verdict
    forged = body.replace(json.dumps(CREATOR).encode(), json.dumps(CREATOR + ".").encode(), 1)
    assert forged != body
    verdict = client.post("/v1/replays", data=forged, content_type="application/x-ndjson").json
    assert not verdict["valid"] and verdict["diverged_at"] == 4, verdict  # the set-up, after three table commands
    assert verify_offline(forged).raw == verdict


BAD = ["", "x" * 257, "tab\there", "bidi \u202e", 42, ["a"], None]


@pytest.mark.parametrize("entropy", BAD, ids=repr)
def test_a_contribution_the_spec_refuses_is_a_400_and_appends_nothing(client, entropy):
    listed = client.get("/v1/games").json["total"]
    body = problem(client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "open"}] * 2,
                                                  "entropy": entropy}), 400)
    assert "entropy" in json.dumps(body)
    assert client.get("/v1/games").json["total"] == listed  # no game was created

    game_id = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "open"}] * 2}).json["id"]
    before = client.get(f"/v1/games/{game_id}").json
    body = problem(claim(client, game_id, 0, entropy=entropy), 400)
    assert "entropy" in json.dumps(body)
    after = client.get(f"/v1/games/{game_id}").json
    assert after["version"] == before["version"] and [seat["kind"] for seat in after["seats"]] == ["open", "open"]
