"""Issue 25 (5): the lobby shows the table: a game's options, clock, seat names and open seats, in the
lobby's list and in an open game's document, before anyone joins."""
from __future__ import annotations

CLOCK = {"move_seconds": 90, "response_seconds": 30, "timeouts_before_bot": 2}


def open_kingpin(client) -> str:
    """Ana's Kingpin table with a target of 3,000, a 90 s clock and one seat open for a friend."""
    response = client.post("/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "clock": CLOCK,
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "open"}, {"kind": "bot", "level": "greedy"}]})
    assert response.status_code == 201, response.json
    return response.json["id"]


def test_the_lobby_row_shows_options_clock_names_and_open_seats(client):
    game_id = open_kingpin(client)
    rows = client.get("/v1/games?status=open").json["games"]
    row = next(r for r in rows if r["id"] == game_id)
    assert row["options"]["target"] == 3000
    assert "turn_limit" in row["options"]  # every option, the defaults filled in
    assert row["clock"]["move_seconds"] == 90 and row["clock"]["timeouts_before_bot"] == 2
    assert row["seats"][0]["name"] == "Ana" and row["open_seats"] == [1]


def test_an_open_games_document_shows_the_same_before_anyone_joins(client):
    game_id = open_kingpin(client)
    document = client.get(f"/v1/games/{game_id}").json  # a spectator: no token
    assert document["status"] == "open" and document["options"]["target"] == 3000
    assert document["clock"]["response_seconds"] == 30
    assert [seat.get("name") for seat in document["seats"]] == ["Ana", None, None]


def test_a_game_without_a_clock_says_so(client):
    response = client.post("/v1/games", json={"ruleset": "kingpin", "seats": [{"kind": "human"}, {"kind": "open"}]})
    row = client.get(f"/v1/games/{response.json['id']}").json
    assert row["clock"] is None and row["options"]["target"] > 0


def test_a_claim_needs_no_body_and_the_spec_says_so(client):
    # Issue 25 (6): the claim's body (a name, entropy) is optional, and the spec no longer marks it required
    game_id = open_kingpin(client)
    claimed = client.post(f"/v1/games/{game_id}/seats/1/claim")
    assert claimed.status_code == 201 and claimed.json["token"]
    spec = client.get("/openapi.json").json
    assert spec["paths"]["/v1/games/{game_id}/seats/{seat}/claim"]["post"]["requestBody"].get("required") is not True
