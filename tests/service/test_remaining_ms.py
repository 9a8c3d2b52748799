"""Issue 36 item 7: beside every deadline the server gives (ms since the epoch), the time left as the server
counts it, so a client whose clock is off by minutes still shows the right countdown."""
from __future__ import annotations

import time

from tests.service.conftest import bearer


def test_every_deadline_comes_with_the_time_left_by_the_server_s_clock(client):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2,
                                             "clock": {"move_seconds": 60}}).json
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    before = int(time.time() * 1000)
    game = client.get(f"/v1/games/{created['id']}", headers=bearer(tokens[0])).json
    after = int(time.time() * 1000)
    assert game["clocks"] and set(game["clocks_remaining_ms"]) == set(game["clocks"])
    for seat, deadline in game["clocks"].items():
        left = game["clocks_remaining_ms"][seat]
        assert 0 < left <= 60_000
        assert before <= deadline - left <= after  # counted from the server's now, when the document was made
    ticket = client.post(f"/v1/games/{created['id']}/tickets", headers=bearer(tokens[0])).json
    assert 0 < ticket["remaining_ms"] and before <= ticket["expires_at"] - ticket["remaining_ms"] <= int(time.time() * 1000)
