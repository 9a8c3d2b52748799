"""A table's life over the API (issue 36 item 1): resign, abort, leave and rematch, each a table command in the
game's history, narrated, and re-decided when the history is verified."""
from __future__ import annotations

import pytest

from rules import RULESETS
from tests.service.conftest import bearer


def problem(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json"
    return response.json


def create(client, ruleset: str, seats: list[dict], **extra) -> tuple[str, dict[int, str]]:
    created = client.post("/v1/games", json={"ruleset": ruleset, "seats": seats, **extra})
    assert created.status_code == 201, created.json
    return created.json["id"], {s["seat"]: s["token"] for s in created.json["seats"] if s.get("token")}


def act(client, game_id: str, tokens: dict[int, str], seat: int, action: str):
    return client.post(f"/v1/games/{game_id}/seats/{seat}/{action}", headers=bearer(tokens[seat]))


def play_some(client, game_id: str, tokens: dict[int, str], moves: int) -> None:
    """`moves` moves by whichever human seat is awaited, each its first legal move."""
    for _ in range(moves):
        docs = {seat: client.get(f"/v1/games/{game_id}", headers=bearer(token)).json for seat, token in tokens.items()}
        mover = next((seat for seat, doc in docs.items() if doc["legal_moves"]), None)
        if mover is None or docs[mover]["status"] != "active":
            return
        sent = client.post(f"/v1/games/{game_id}/commands", json=docs[mover]["legal_moves"][0],
                           headers=bearer(tokens[mover]))
        assert sent.status_code == 200, sent.json


def verified(client, game_id: str) -> dict:
    history = client.get(f"/v1/games/{game_id}/history")
    assert history.status_code == 200, history.json
    verdict = client.post("/v1/replays", data=history.data, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"], verdict
    return verdict


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_players_resign_a_game_in_play_one_by_one_and_the_last_seat_wins(client, ruleset):
    """Every ruleset: after some moves, the first player resigns (a bot takes the seat: the others play on),
    then the next, until one seat has not resigned: the game ends and it wins; the history verifies."""
    seats = RULESETS[ruleset].min_seats if RULESETS[ruleset].min_seats > 2 else 3
    seats = min(seats, RULESETS[ruleset].max_seats)
    game_id, tokens = create(client, ruleset, [{"kind": "human"}] * seats, seed=f"resign-{ruleset}")
    play_some(client, game_id, tokens, 6)
    for seat in range(seats - 1):
        answer = act(client, game_id, tokens, seat, "resign")
        assert answer.status_code == 200, answer.json
        doc = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        if seat < seats - 2:  # others still play: the seat is a bot's, its player offered nothing
            assert doc["status"] == "active" and doc["controlled_by"][str(seat)] == "bot" and not doc["legal_moves"]
            assert doc["reclaim"] is None or problem(client.post(doc["reclaim"], headers=bearer(tokens[seat])), 409)
    doc = client.get(f"/v1/games/{game_id}").json
    last = seats - 1
    assert doc["status"] == "finished" and doc["outcome"]["winners"] == [last], doc["outcome"]
    assert doc["outcome"]["resigned"] == list(range(seats - 1)) and "resigned" in doc["outcome"]["text"]
    events = client.get(f"/v1/games/{game_id}/events?limit=500").json["events"]
    told = [e["narration"]["text"] for e in events if e["type"] == "SeatResigned"]
    assert len(told) == seats - 1 and "a bot plays their seat" in told[0] and "the game is over" in told[-1]
    assert verified(client, game_id)["outcome"]["winners"] == [last]
    # over: nothing more to resign, and no command
    problem(act(client, game_id, tokens, last, "resign"), 409)


def test_leave_opens_the_seat_and_voids_the_token_and_abort_ends_an_unstarted_game(client):
    # a contribution window keeps the table from starting until its players send their entropy
    game_id, tokens = create(client, "race", [{"kind": "human"}, {"kind": "open"}], contribution_seconds=600)
    tokens[1] = client.post(f"/v1/games/{game_id}/seats/1/claim", json={"name": "Bo"}).json["token"]
    assert client.get(f"/v1/games/{game_id}").json["status"] == "open"
    left = act(client, game_id, tokens, 1, "leave")
    assert left.status_code == 200 and left.json["status"] == "open"
    doc = client.get(f"/v1/games/{game_id}").json
    assert doc["seats"][1]["kind"] == "open" and doc["open_seats"] == [1]
    assert problem(client.post(f"/v1/games/{game_id}/tickets", headers=bearer(tokens[1])), 403)["code"] == \
        "token-not-for-this-game"  # the token no longer holds a seat
    aborted = act(client, game_id, tokens, 0, "abort")
    assert aborted.status_code == 200 and aborted.json["status"] == "finished"
    assert aborted.json["outcome"]["winners"] == [] and aborted.json["outcome"]["reason"] == "aborted"
    assert "aborted" in aborted.json["outcome"]["text"]
    problem(client.post(f"/v1/games/{game_id}/seats/1/claim", json={}), 409)  # over: no seat to take
    verified(client, game_id)


def test_a_started_game_is_resigned_not_left_or_aborted_and_a_rematch_waits_for_the_end(client, race):
    game_id, tokens = race
    tokens = dict(enumerate(tokens))
    for action in ("leave", "abort", "rematch"):
        refused = problem(act(client, game_id, tokens, 0, action), 409)
        assert refused["code"] == "seat-action-refused" and refused["detail"]
    assert client.get(f"/v1/games/{game_id}").json["status"] == "active"  # nothing was appended by the refusals
    other = client.post(f"/v1/games/{game_id}/seats/0/resign", headers=bearer(tokens[1]))
    assert problem(other, 403)["code"] == "token-not-for-this-seat"
    problem(client.post(f"/v1/games/{game_id}/seats/0/resign"), 401)


def finish_race(client, game_id: str, tokens: dict[int, str]) -> None:
    for _ in range(400):
        if client.get(f"/v1/games/{game_id}").json["status"] == "finished":
            return
        play_some(client, game_id, tokens, 1)
    raise AssertionError("the race did not finish")


def test_a_rematch_chain_of_three_games_linked_both_ways_with_the_same_tokens(client):
    game_id, tokens = create(client, "race", [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
                             options={"goal": 5}, seed="rematch-chain")
    chain = [game_id]
    for _ in range(2):
        finish_race(client, chain[-1], tokens)
        first = act(client, chain[-1], tokens, 0, "rematch")
        assert first.status_code == 200 and first.json["rematch"] is None  # Bo has not asked yet
        assert problem(act(client, chain[-1], tokens, 0, "rematch"), 409)["code"] == "seat-action-refused"
        second = act(client, chain[-1], tokens, 1, "rematch")
        assert second.status_code == 200 and second.json["rematch"], second.json
        chain.append(second.json["rematch"])
    for before, after in zip(chain, chain[1:]):
        old, new = client.get(f"/v1/games/{before}").json, client.get(f"/v1/games/{after}").json
        assert old["rematch"] == {"asked": [0, 1], "game_id": after} and new["rematch_of"] == before
        assert new["ruleset"] == old["ruleset"] and new["options"] == old["options"]
        assert [s.get("name") for s in new["seats"]] == ["Ana", "Bo"]
        verified(client, before)
    # the same tokens hold the same seats in the newest game
    newest = client.get(f"/v1/games/{chain[-1]}", headers=bearer(tokens[1])).json
    assert newest["you"] == 1
