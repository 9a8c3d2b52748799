"""Stream tickets (issue 10): a browser's EventSource cannot send an Authorization header, so a
seat holder gets a short-lived, seat-scoped, read-only ticket to follow its feed as its seat."""
from __future__ import annotations

import time

from tests.service.conftest import bearer


def race_game(client) -> tuple[str, dict]:
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def test_a_ticket_reads_the_feed_as_its_seat_and_the_seat_secret_with_it(client):
    game_id, tokens = race_game(client)
    issued = client.post(f"/v1/games/{game_id}/tickets", headers=bearer(tokens[1]))
    assert issued.status_code == 201 and issued.json["seat"] == 1
    assert issued.json["expires_at"] > time.time() * 1000
    feed = client.get(f"/v1/games/{game_id}/events", query_string={"ticket": issued.json["ticket"]}).json
    own = [e for e in feed["events"] if e["type"] == "SecretDealt" and e["data"]["seat"] == 1]
    other = [e for e in feed["events"] if e["type"] == "SecretDealt" and e["data"]["seat"] == 0]
    assert "secret" in own[0]["data"] and "secret" not in other[0]["data"]  # seat 1's view, not seat 0's
    spectator = client.get(f"/v1/games/{game_id}/events").json
    assert all("secret" not in e["data"] for e in spectator["events"] if e["type"] == "SecretDealt")


def test_a_ticket_is_never_a_token_for_commands_and_is_scoped_to_its_game(client):
    game_id, tokens = race_game(client)
    other_game, _ = race_game(client)
    ticket = client.post(f"/v1/games/{game_id}/tickets", headers=bearer(tokens[0])).json["ticket"]
    command = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(ticket))
    assert command.status_code == 403  # not a seat token
    assert client.post(f"/v1/games/{game_id}/commands?ticket={ticket}", json={"type": "Roll"}).status_code == 401
    elsewhere = client.get(f"/v1/games/{other_game}/events", query_string={"ticket": ticket})
    assert elsewhere.status_code == 401 and elsewhere.content_type == "application/problem+json"


def test_an_expired_or_unknown_ticket_is_401_and_a_ticket_needs_a_seat_token(client, app, redis_client):
    game_id, tokens = race_game(client)
    assert client.post(f"/v1/games/{game_id}/tickets").status_code == 401
    app.config["STREAM_TICKET_SECONDS"] = 1
    ticket = client.post(f"/v1/games/{game_id}/tickets", headers=bearer(tokens[0])).json["ticket"]
    assert client.get(f"/v1/games/{game_id}/events", query_string={"ticket": ticket}).status_code == 200
    time.sleep(1.2)
    late = client.get(f"/v1/games/{game_id}/events", query_string={"ticket": ticket})
    assert late.status_code == 401 and "expired" in late.json["detail"]
    assert not any(ticket in key for key in redis_client.keys("*"))  # stored only as its digest
