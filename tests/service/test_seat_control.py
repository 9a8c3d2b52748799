"""Issue 36 item 4: once a clock hands a seat to a bot, the seat's human is offered no legal moves (each would
be refused, seat-played-by-bot) but told who plays it and how to take it back."""
from __future__ import annotations

from tests.service.conftest import bearer


def test_a_seat_played_by_a_bot_is_offered_no_moves_and_told_how_to_reclaim_it(app, client):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"},
                                                                          {"kind": "bot"}]}).json
    game_id, token = created["id"], created["seats"][0]["token"]
    before = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
    assert before["awaiting_seats"] == [0] and before["legal_moves"]
    assert before["controlled_by"] == {"0": "human", "1": "human", "2": "bot"} and before["reclaim"] is None
    runner = app.extensions["cartel"].runner
    runner.hand_to_bot(runner.load(game_id), 0, "random", "the test")
    doc = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
    assert doc["controlled_by"]["0"] == "bot"
    if 0 in doc["awaiting_seats"]:
        assert doc["legal_moves"] == [] and doc["move_labels"] == []
    assert doc["reclaim"] == f"/v1/games/{game_id}/seats/0/reclaim"
    assert client.post(doc["reclaim"], headers=bearer(token)).status_code == 200
    back = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
    assert back["controlled_by"]["0"] == "human" and back["reclaim"] is None
    if 0 in back["awaiting_seats"]:
        assert back["legal_moves"]
