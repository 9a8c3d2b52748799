"""The HTTP contract, through Flask's test client against a real Redis."""
from __future__ import annotations

import json

from rules.base import seed_commitment
from service.schemas import CommandResultSchema
from tests.service.conftest import bearer


def problem(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == status and body["detail"] and body["type"].startswith("https://")
    return body


def test_rulesets_are_listed_with_seats_options_and_bot_levels(client):
    names = {r["name"]: r for r in client.get("/v1/rulesets").json["rulesets"]}
    assert names["kingpin"]["min_seats"] == 2 and "random" in names["kingpin"]["bot_levels"]
    assert client.get("/v1/rulesets/race").json["options"]["goal"]["default"] == 10
    problem(client.get("/v1/rulesets/chess"), 404)


def test_a_search_bot_level_takes_an_iteration_budget_and_a_bad_one_is_refused_like_an_unknown_level(client):
    assert "ismcts" in client.get("/v1/rulesets/kingpin").json["bot_levels"]
    for level, status in (("ismcts:50", 201), ("ismcts", 201), ("ismcts:0", 422), ("greedy:5", 422), ("godlike", 422)):
        response = client.post("/v1/games", json={"ruleset": "kingpin",
                                                  "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]})
        assert response.status_code == status, (level, response.json)


def test_create_returns_tokens_once_and_the_seed_commitment(client, race):
    game_id, tokens = race
    assert len(set(tokens)) == 2 and all(len(t) >= 43 for t in tokens)  # 256 bits, url-safe base64
    game = client.get(f"/v1/games/{game_id}").json
    assert game["seed_commitment"] == seed_commitment("r4ce-s33d")
    assert "token" not in json.dumps(game) and "r4ce-s33d" not in json.dumps(game) and game["seed_source"] == "fixed"


def test_reader_sees_own_legal_moves_and_spectator_none(client, race):
    game_id, tokens = race
    mine = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    assert mine.json["you"] == 0 and {"type": "Roll"} in mine.json["legal_moves"]
    assert mine.headers["ETag"] == f'"{mine.json["version"]}-s0"'  # the version and the audience
    assert client.get(f"/v1/games/{game_id}", headers=bearer(tokens[1])).json["legal_moves"] == []
    spectator = client.get(f"/v1/games/{game_id}").json
    assert spectator["you"] is None and spectator["legal_moves"] == [] and spectator["awaiting"] == {"0": "move"}
    assert client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[0]), "If-None-Match": mine.headers["ETag"]}
                      ).status_code == 304


def test_command_appends_and_answers_with_the_new_version(client, race):
    game_id, tokens = race
    version = client.get(f"/v1/games/{game_id}").json["version"]
    response = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"},
                           headers={**bearer(tokens[0]), "If-Match": f'"{version}"'})
    assert response.status_code == 200, response.json
    assert response.json["version"] == version + 1
    assert [e["type"] for e in response.json["events"]] == ["DieRolled"]
    # the view sends its answer without dumping it through CommandResultSchema: it must be in that shape
    assert CommandResultSchema().dump(response.json) == response.json == CommandResultSchema().load(response.json)
    assert response.headers["ETag"] == f'"{version + 1}-s0"' and response.mimetype == "application/json"


def test_errors_are_problems_and_append_nothing(client, race):
    game_id, tokens = race
    url = f"/v1/games/{game_id}/commands"
    version = client.get(f"/v1/games/{game_id}").json["version"]
    problem(client.post(url, json={"type": "Roll"}), 401)
    problem(client.post(url, json={"type": "Roll"}, headers={"Authorization": "Basic abc"}), 401)
    problem(client.post(url, json={"type": "Roll"}, headers=bearer("not-a-token")), 403)
    problem(client.post("/v1/games/nope/commands", json={"type": "Roll"}, headers=bearer(tokens[0])), 404)
    problem(client.post(url, data="{not json", content_type="application/json", headers=bearer(tokens[0])), 400)
    problem(client.post(url, json={"no": "type"}, headers=bearer(tokens[0])), 400)
    problem(client.post(url, json={"type": "Fly"}, headers=bearer(tokens[0])), 400)
    problem(client.post(url, json={"type": "Roll"}, headers={**bearer(tokens[0]), "If-Match": "banana"}), 400)
    not_your_turn = problem(client.post(url, json={"type": "Roll"}, headers=bearer(tokens[1])), 422)
    # the detail names the seat as the game does (an unnamed seat is "Seat 0", as the events' sentences say)
    assert "waiting for Seat 0" in not_your_turn["detail"] and not_your_turn["rule"] == "turn order"
    stale = problem(client.post(url, json={"type": "Roll"}, headers={**bearer(tokens[0]), "If-Match": '"1"'}), 409)
    assert stale["version"] == version
    problem(client.post(url, data="x" * 70_000, content_type="application/json", headers=bearer(tokens[0])), 413)
    problem(client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 9}), 422)
    problem(client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "alien"}]}), 400)
    problem(client.get("/v1/games?limit=100000"), 400)
    assert client.get(f"/v1/games/{game_id}").json["version"] == version


def test_idempotency_key_returns_the_original_answer(client, race):
    game_id, tokens = race
    headers = {**bearer(tokens[0]), "Idempotency-Key": "roll-1"}
    first = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=headers).json
    again = client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=headers).json
    assert again["duplicate"] and again["events"] == first["events"] and again["version"] == first["version"]
    reused = client.post(f"/v1/games/{game_id}/commands", json={"type": "Pass"}, headers=headers)
    problem(reused, 422)


def test_event_feed_pages_and_redacts_for_the_reader(client, race):
    game_id, tokens = race
    page = client.get(f"/v1/games/{game_id}/events?after=0&limit=2", headers=bearer(tokens[1])).json
    assert [e["version"] for e in page["events"]] == [1, 2] and page["has_more"]
    rest = client.get(f"/v1/games/{game_id}/events?after={page['next_after']}", headers=bearer(tokens[1])).json
    dealt = [e for e in rest["events"] if e["type"] == "SecretDealt"]
    assert [("secret" in e["data"]) for e in dealt] == [False, True]  # seat 1 sees only its own
    spectator = client.get(f"/v1/games/{game_id}/events").json
    assert not any("secret" in e["data"] for e in spectator["events"])


def play_to_the_end(client, game_id, tokens):
    for _ in range(200):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            return game
        seat = int(min(game["awaiting"]))
        moves = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json["legal_moves"]
        move = next(m for m in moves if m["type"] != "Pass")
        assert client.post(f"/v1/games/{game_id}/commands", json=move, headers=bearer(tokens[seat])).status_code == 200
    raise AssertionError("race did not finish")


def test_history_is_secret_until_the_end_then_verifies(client, race):
    game_id, tokens = race
    problem(client.get(f"/v1/games/{game_id}/history"), 403)
    finished = play_to_the_end(client, game_id, tokens)
    assert finished["seed"] == "r4ce-s33d" and finished["outcome"]["winners"]
    history = client.get(f"/v1/games/{game_id}/history")
    assert history.status_code == 200 and history.mimetype == "application/x-ndjson"
    lines = history.get_data(as_text=True).splitlines()
    verdict = client.post("/v1/replays", data=history.get_data(), content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["events"] == len(lines) - 1, verdict
    # tamper with one die roll: verification names that version
    records = [json.loads(line) for line in lines]
    rolled = next(r for r in records[1:] if r["type"] == "DieRolled")
    rolled["data"]["die"] = 7 - rolled["data"]["die"] if rolled["data"]["die"] != 3.5 else 1
    tampered = "\n".join(json.dumps(r) for r in records)
    verdict = client.post("/v1/replays", data=tampered, content_type="application/x-ndjson").json
    assert not verdict["valid"] and verdict["diverged_at"] == rolled["version"]
    problem(client.post("/v1/replays", data="not json", content_type="application/x-ndjson"), 400)
    # time travel through an uploaded history: the same state the server's own time travel gives
    at = rolled["version"]
    travelled = client.post(f"/v1/replays?version={at}", data=history.get_data(), content_type="application/x-ndjson").json
    served = client.get(f"/v1/games/{game_id}/state?version={at}").json
    assert travelled["version"] == at and travelled["state"] == served["state"] and travelled["view"] == served["view"]
    # ...but only within the part that verifies: a tampered history is never folded past its divergence
    assert client.post(f"/v1/replays?version={at - 1}", data=tampered, content_type="application/x-ndjson").json["state"]
    past = problem(client.post(f"/v1/replays?version={at}", data=tampered, content_type="application/x-ndjson"), 422)
    assert f"the {at - 1} events that verify" in past["detail"]
    problem(client.post(f"/v1/replays?version={len(lines)}", data=history.get_data(),
                        content_type="application/x-ndjson"), 422)


def test_stepping_through_an_uploaded_history_verifies_it_once(client, race, monkeypatch):
    """The replay page posts the whole file at every step: the same bytes are verified once per
    process, other bytes afresh, and a step's state never leaks into the remembered verdict."""
    from service.api import replays
    calls = []
    verify = replays.verify_history
    monkeypatch.setattr(replays, "verify_history", lambda *a, **k: calls.append(1) or verify(*a, **k))
    game_id, tokens = race
    play_to_the_end(client, game_id, tokens)
    history = client.get(f"/v1/games/{game_id}/history").get_data()
    steps = [client.post(f"/v1/replays?version={v}", data=history, content_type="application/x-ndjson").json
             for v in (1, 2, 3)]
    assert len(calls) == 1 and [s["version"] for s in steps] == [1, 2, 3] and steps[0]["state"] != steps[2]["state"]
    served = client.get(f"/v1/games/{game_id}/state?version=3").json
    assert steps[2]["state"] == served["state"]  # a remembered verdict travels as a fresh one does
    whole = client.post("/v1/replays", data=history, content_type="application/x-ndjson").json
    assert whole["valid"] and "state" not in whole and len(calls) == 1
    records = [json.loads(line) for line in history.decode().splitlines()]
    rolled = next(r for r in records[1:] if r["type"] == "DieRolled")
    rolled["data"]["die"] = 1 if rolled["data"]["die"] != 1 else 2
    tampered = "\n".join(json.dumps(r) for r in records)
    verdict = client.post("/v1/replays", data=tampered, content_type="application/x-ndjson").json
    assert len(calls) == 2 and not verdict["valid"] and verdict["diverged_at"] == rolled["version"]
    problem(client.post(f"/v1/replays?version={rolled['version']}", data=tampered,
                        content_type="application/x-ndjson"), 422)
    assert len(calls) == 2


def test_time_travel_is_redacted_until_the_end(client, race):
    game_id, tokens = race
    past = client.get(f"/v1/games/{game_id}/state?version=4", headers=bearer(tokens[0])).json
    assert past["version"] == 4 and past["state"] is None and past["view"]["you"] == 0
    problem(client.get(f"/v1/games/{game_id}/state?version=999"), 404)
    play_to_the_end(client, game_id, tokens)
    after = client.get(f"/v1/games/{game_id}/state?version=4").json
    assert after["state"]["secret"][1] is not None  # every seat's secret, once the game is over


def test_sse_stream_of_a_finished_game_ends_with_end(client, race):
    game_id, tokens = race
    play_to_the_end(client, game_id, tokens)
    response = client.get(f"/v1/games/{game_id}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "2"})
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids[0] == 3 and ids == sorted(ids)
    end = text.rstrip().rsplit("\n\n", 1)[1]  # the last message: the end, with the outcome
    assert end.startswith("event: end\ndata: ")
    assert json.loads(end.split("data: ", 1)[1]) == {"status": "finished", "version": ids[-1],
                                                       "outcome": {"winners": [0], "reason": "goal reached",
                                                                   "text": "Seat 0 wins: goal reached."}}


def test_open_seats_wait_in_the_lobby_until_claimed(client):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}]}).json
    assert created["status"] == "open" and "token" not in created["seats"][1]
    lobby = client.get("/v1/games?status=open&ruleset=race").json
    assert [g["id"] for g in lobby["games"]] == [created["id"]] and lobby["games"][0]["open_seats"] == [1]
    claimed = client.post(f"/v1/games/{created['id']}/seats/1/claim", json={"name": "Sandra"})
    assert claimed.status_code == 201 and claimed.json["status"] == "active"
    taken = problem(client.post(f"/v1/games/{created['id']}/seats/1/claim", json={}), 409)  # a conflict
    assert taken["code"] == "seat-taken" and taken["title"] == "Seat taken"
    problem(client.post(f"/v1/games/{created['id']}/seats/7/claim", json={}), 404)
    assert client.get("/v1/games?status=open").json["total"] == 0
    me = client.get(f"/v1/games/{created['id']}", headers=bearer(claimed.json["token"])).json
    assert me["you"] == 1 and me["seats"][1]["name"] == "Sandra"


def test_health(client):
    assert client.get("/healthz").json["status"] == "ok"
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json["checks"]["redis"] == "ok"  # no worker running here


def test_a_seat_handed_to_a_bot_refuses_its_human_until_reclaimed(client, race, app):
    # Clocks hand a seat that keeps timing out to a bot; its human takes it back explicitly.
    game_id, tokens = race
    runner = app.extensions["cartel"].runner
    runner.hand_to_bot(runner.load(game_id), 0, "random", "3 clock timeouts")
    refused = problem(client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[0])),
                      409)
    assert "played by a bot" in refused["detail"] and refused["rule"] == "seat control"
    problem(client.post(f"/v1/games/{game_id}/seats/0/reclaim", headers=bearer(tokens[1])), 403)  # not your seat
    problem(client.post(f"/v1/games/{game_id}/seats/1/reclaim", headers=bearer(tokens[1])), 409)  # not a bot's
    problem(client.post(f"/v1/games/{game_id}/seats/0/reclaim"), 401)
    back = client.post(f"/v1/games/{game_id}/seats/0/reclaim", headers=bearer(tokens[0]))
    assert back.status_code == 200 and back.json["kind"] == "human"
    assert client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[0])).status_code == 200
    types = [e["type"] for e in client.get(f"/v1/games/{game_id}/events").json["events"]]
    assert types[-3:] == ["SeatHandedToBot", "SeatReclaimed", "DieRolled"]
    play_to_the_end(client, game_id, tokens)
    history = client.get(f"/v1/games/{game_id}/history").get_data()
    assert client.post("/v1/replays", data=history, content_type="application/x-ndjson").json["valid"]


def test_awaited_seats_are_listed_as_integers_beside_the_string_keyed_awaiting(client, race):
    """Issue 25 item 6: JSON object keys are strings ("0") while `you` is an integer; `awaiting_seats`
    lists the same seats as integers, in the game document and in the stream's turn state."""
    created = client.post("/v1/games", json={"ruleset": "druglord", "seats": [{"kind": "human"}] * 3, "seed": "seats"})
    assert created.status_code == 201, created.json
    for n, seat in enumerate(created.json["seats"]):  # Druglord's Empire Building: every seat chooses at once
        doc = client.get(f"/v1/games/{created.json['id']}", headers=bearer(seat["token"])).json
        assert doc["you"] == n and doc["awaiting_seats"] == [0, 1, 2] and doc["you"] in doc["awaiting_seats"]
        assert sorted(int(s) for s in doc["awaiting"]) == doc["awaiting_seats"]
    game_id, tokens = race
    mine = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[1])).json
    assert mine["awaiting_seats"] == [0] and mine["you"] not in mine["awaiting_seats"]
    play_to_the_end(client, game_id, tokens)
    assert client.get(f"/v1/games/{game_id}").json["awaiting_seats"] == []
    stream = client.get(f"/v1/games/{game_id}/events", headers={"Accept": "text/event-stream", **bearer(tokens[0])})
    turn = next(m for m in stream.get_data(as_text=True).split("\n\n") if m.startswith("event: turn\n"))
    assert json.loads(turn.split("data: ", 1)[1])["awaiting_seats"] == []


def test_the_stream_s_turn_message_names_its_ruleset(client):
    """Issue 36 item 5: a `turn` message says its game's ruleset, the discriminator of the spec's TurnState
    union (KingpinTurnState, ...), as the game document does."""
    created = client.post("/v1/games", json={"ruleset": "kingpin", "seats": [{"kind": "human"}] * 2,
                                             "contribution_seconds": 0}).json
    token = created["seats"][0]["token"]
    assert client.get(f"/v1/games/{created['id']}", headers=bearer(token)).json["ruleset"] == "kingpin"
    stream = client.get(f"/v1/games/{created['id']}/events", buffered=False,
                        headers={"Accept": "text/event-stream", **bearer(token)})
    text = ""
    for chunk in stream.response:  # the game goes on: read until the first turn message, then hang up
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: turn\n" in text and text.endswith("\n\n"):
            break
    stream.close()
    turn = next(m for m in text.split("\n\n") if m.startswith("event: turn\n"))
    message = json.loads(turn.split("data: ", 1)[1])
    assert message["ruleset"] == "kingpin" and message["version"] >= 1, message
