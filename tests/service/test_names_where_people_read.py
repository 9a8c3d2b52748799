"""Names where people read (issue 36 item 6): a refused command's detail and the outcome name seats as the game
does, by the players' names, never by seat number; the outcome carries its sentence (`text`) in the game
document, the stream's `turn` and `end` messages alike, beside the rules' `reason`."""
from __future__ import annotations

import json

from tests.service.conftest import bearer


def named_race(client) -> tuple[str, list[str]]:
    created = client.post("/v1/games", json={"ruleset": "race", "options": {"goal": 5},
                                             "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]})
    assert created.status_code == 201, created.json
    return created.json["id"], [seat["token"] for seat in created.json["seats"]]


def test_a_refusal_names_the_seat_it_waits_for(client):
    game_id, tokens = named_race(client)
    refused = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[1]))
    assert refused.status_code == 422
    assert "waiting for Ana" in refused.json["detail"] and "seat 0" not in refused.json["detail"]


def test_the_outcome_says_who_won_by_name(client):
    game_id, tokens = named_race(client)
    for _ in range(200):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            break
        seat = game["awaiting_seats"][0]
        move = "Acknowledge" if game["awaiting"][str(seat)] == "response" else "Roll"
        assert client.post(f"/v1/games/{game_id}/commands", json={"type": move},
                           headers=bearer(tokens[seat])).status_code == 200
    outcome = client.get(f"/v1/games/{game_id}").json["outcome"]
    winner = ("Ana", "Bo")[outcome["winners"][0]]
    assert outcome["reason"] == "goal reached" and outcome["text"] == f"{winner} wins: goal reached."
    stream = client.get(f"/v1/games/{game_id}/events?after=0", headers={"Accept": "text/event-stream"}).get_data(
        as_text=True)
    messages = {block.split("\n")[0]: json.loads(block.split("data: ", 1)[1]) for block in stream.split("\n\n")
                if block.startswith("event: ")}
    assert messages["event: end"]["outcome"]["text"] == messages["event: turn"]["outcome"]["text"] == outcome["text"]
