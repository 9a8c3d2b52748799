"""A command sent with a stale If-Match: the 409 says whether the same command is legal now.

Druglord's empire choice is a phase where every seat acts at once: a seat that chose from the
version it read is refused when another seat chose first, although its own choice still stands.
"""
from __future__ import annotations

from tests.service.conftest import bearer

PROBLEM_KEYS = {"type", "code", "title", "status", "detail", "instance", "version", "still_legal"}


def stale(response) -> dict:
    assert response.status_code == 409, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["type"].endswith("/stale-version") and body["detail"]
    assert set(body) == PROBLEM_KEYS  # a boolean about the sender's own command, nothing of anyone else's
    assert response.headers["ETag"] == f'"{body["version"]}"'
    return body


def druglord(client, seats: int = 3) -> tuple[str, list[str]]:
    response = client.post("/v1/games", json={"ruleset": "druglord", "seats": [{"kind": "human"}] * seats,
                                              "seed": "simultaneous"})
    assert response.status_code == 201, response.json
    return response.json["id"], [seat["token"] for seat in response.json["seats"]]


def read(client, game_id: str, token: str) -> dict:
    return client.get(f"/v1/games/{game_id}", headers=bearer(token)).json


def send(client, game_id: str, token: str, command: dict, version: int | None = None, key: str | None = None):
    headers = bearer(token)
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/v1/games/{game_id}/commands", json=command, headers=headers)


def test_a_choice_still_legal_after_another_seat_chose_first_is_409_still_legal_and_resends(client):
    game_id, tokens = druglord(client)
    mine, theirs = read(client, game_id, tokens[0]), read(client, game_id, tokens[1])
    assert mine["awaiting"] == {"0": "move", "1": "move", "2": "move"}  # the secret empire choice, all at once
    version = mine["version"]
    assert send(client, game_id, tokens[1], theirs["legal_moves"][0], version).status_code == 200
    moved_on = read(client, game_id, tokens[0])

    refused = stale(send(client, game_id, tokens[0], mine["legal_moves"][0], version, key="keep-1"))
    assert refused["still_legal"] is True and refused["version"] == moved_on["version"] > version
    assert f'If-Match: "{refused["version"]}"' in refused["detail"]
    after = read(client, game_id, tokens[0])  # nothing appended, and the view is the one before the 409
    assert after["version"] == moved_on["version"] and after["view"] == moved_on["view"]

    # resent at once with the 409's version (and the same Idempotency-Key: the 409 recorded nothing under it)
    resent = send(client, game_id, tokens[0], mine["legal_moves"][0], refused["version"], key="keep-1")
    assert resent.status_code == 200, resent.json
    assert not resent.json["duplicate"] and resent.json["version"] > refused["version"]
    assert "0" not in read(client, game_id, tokens[2])["awaiting"]


def test_a_command_no_longer_legal_is_409_not_still_legal(client):
    game_id, tokens = druglord(client)
    mine = read(client, game_id, tokens[0])
    version = mine["version"]
    assert send(client, game_id, tokens[0], mine["legal_moves"][0], version).status_code == 200  # chosen ...
    # ... and sent again from the same stale read (another tab): seat 0 is no longer awaited
    refused = stale(send(client, game_id, tokens[0], mine["legal_moves"][1], version))
    assert refused["still_legal"] is False and "choose anew" in refused["detail"]
    assert read(client, game_id, tokens[0])["version"] == refused["version"]


def test_a_turn_taken_by_the_other_seat_makes_the_stale_command_illegal(client, race):
    game_id, tokens = race
    version = read(client, game_id, tokens[0])["version"]
    assert send(client, game_id, tokens[0], {"type": "Pass"}, version).status_code == 200  # now seat 1's turn
    refused = stale(send(client, game_id, tokens[0], {"type": "Roll"}, version))
    assert refused["still_legal"] is False and refused["version"] == version + 1
    # a seat whose turn it now is, sending from a version before its turn: still legal
    assert stale(send(client, game_id, tokens[1], {"type": "Roll"}, version))["still_legal"] is True
    assert read(client, game_id, tokens[0])["version"] == version + 1


# ------------------------------------------------------------ issue 36 item 4: a stream a bot can trust
def test_a_simultaneous_phase_says_so_and_a_lenient_command_is_decided_at_the_current_version(client):
    """`simultaneous: true` while several seats are awaited at once; `Prefer: handling=lenient` decides a stale
    command that is still legal where the game is now (no 409 round trip), and says so."""
    game_id, tokens = druglord(client)
    mine, theirs = read(client, game_id, tokens[0]), read(client, game_id, tokens[1])
    assert mine["simultaneous"] is True and len(mine["awaiting_seats"]) == 3
    version = mine["version"]
    assert send(client, game_id, tokens[1], theirs["legal_moves"][0], version).status_code == 200
    headers = {**bearer(tokens[0]), "If-Match": f'"{version}"', "Prefer": "respond-async, handling=lenient"}
    taken = client.post(f"/v1/games/{game_id}/commands", json=mine["legal_moves"][0], headers=headers)
    assert taken.status_code == 200, taken.json
    assert taken.headers["Preference-Applied"] == "handling=lenient" and taken.json["version"] > version + 1
    assert 0 not in read(client, game_id, tokens[2])["awaiting_seats"]
    # a lenient command no longer legal is still the 409 (seat 0 has chosen: it is not awaited)
    refused = stale(client.post(f"/v1/games/{game_id}/commands", json=mine["legal_moves"][1], headers=headers))
    assert refused["still_legal"] is False
    # without the preference, nothing changes: the 409 (test above)


def test_a_turn_based_game_is_not_simultaneous(client, race):
    game_id, tokens = race
    doc = read(client, game_id, tokens[0])
    assert doc["awaiting_seats"] == [0] and doc["simultaneous"] is False
    assert doc["controlled_by"] == {"0": "human", "1": "human"} and doc["reclaim"] is None
