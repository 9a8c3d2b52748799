"""A document redacted for its reader is that reader's representation: its ETag names the version and the
audience (seat or spectator), it says `Vary: Authorization` and `Cache-Control: private`, and a validator
from one audience never gets another a 304.  Public documents (rulesets) stay cacheable by anyone.

Narcos deals each seat a hidden Cartel card ("hand" in its own view only), so a leak shows."""
from __future__ import annotations

import pytest

from tests.service.conftest import bearer


@pytest.fixture
def narcos(client):
    """A two-seat Narcos game between humans: (game id, [token0, token1], the seat to move)."""
    response = client.post("/v1/games", json={"ruleset": "narcos", "seats": [{"kind": "human"}] * 2, "seed": "etag"})
    assert response.status_code == 201, response.json
    game_id, tokens = response.json["id"], [seat["token"] for seat in response.json["seats"]]
    awaiting = client.get(f"/v1/games/{game_id}").json["awaiting"]
    return game_id, tokens, int(next(iter(awaiting)))


def hands(document: dict) -> list:
    return [player.get("hand") for player in document["view"]["players"]]


def private_to_the_reader(response) -> bool:
    cache_control = {d.strip() for d in response.headers.get("Cache-Control", "").split(",")}
    return "Authorization" in response.headers.get("Vary", "") and "private" in cache_control


def test_one_seats_etag_sent_as_the_other_seat_gets_the_other_seats_whole_document(client, narcos):
    game_id, tokens, mover = narcos
    other = 1 - mover
    theirs = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[other]))
    assert theirs.status_code == 200 and hands(theirs.json)[other] and theirs.json["legal_moves"] == []

    # the browser holding `other`'s copy revalidates it while asking as the mover
    mine = client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[mover]), "If-None-Match": theirs.headers["ETag"]})
    assert mine.status_code == 200
    assert mine.json["you"] == mover and mine.json["legal_moves"]  # the mover's moves, not the other's none
    assert hands(mine.json)[mover] and hands(mine.json)[other] is None  # its own hand; the other's stays hidden
    assert mine.headers["ETag"] != theirs.headers["ETag"]
    assert mine.headers["ETag"] == f'"{mine.json["version"]}-s{mover}"'


def test_the_same_reader_at_the_same_version_gets_a_304_that_stays_private(client, narcos):
    game_id, tokens, mover = narcos
    first = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[mover]))
    again = client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[mover]), "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
    assert private_to_the_reader(first) and private_to_the_reader(again)
    # a bare version names no audience: it validates nobody's copy
    bare = client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[mover]),
                                                        "If-None-Match": f'"{first.json["version"]}"'})
    assert bare.status_code == 200 and bare.json["you"] == mover


def test_spectator_and_seats_never_share_an_etag(client, narcos):
    game_id, tokens, _ = narcos
    seat_docs = [client.get(f"/v1/games/{game_id}", headers=bearer(token)) for token in tokens]
    spectator = client.get(f"/v1/games/{game_id}")
    etags = [r.headers["ETag"] for r in [*seat_docs, spectator]]
    assert len(set(etags)) == 3 and spectator.headers["ETag"].endswith('-spectator"')
    for seat_doc in seat_docs:  # a seat's copy revalidated without a token: the spectator's document
        watched = client.get(f"/v1/games/{game_id}", headers={"If-None-Match": seat_doc.headers["ETag"]})
        assert watched.status_code == 200 and hands(watched.json) == [None, None] and watched.json["you"] is None
    assert client.get(f"/v1/games/{game_id}", headers={"If-None-Match": spectator.headers["ETag"]}).status_code == 304
    # and the spectator's ETag sent by a seat gets that seat's document
    seat0 = client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[0]), "If-None-Match": spectator.headers["ETag"]})
    assert seat0.status_code == 200 and seat0.json["you"] == 0 and hands(seat0.json)[0]


def test_a_commands_answer_is_private_and_its_etag_goes_back_as_if_match(client, narcos):
    game_id, tokens, mover = narcos
    seen = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[mover]))
    url = f"/v1/games/{game_id}/commands"
    sent = client.post(url, json={"type": "Draw"}, headers={**bearer(tokens[mover]), "If-Match": seen.headers["ETag"]})
    assert sent.status_code == 200, sent.json
    assert sent.headers["ETag"] == f'"{sent.json["version"]}-s{mover}"' and private_to_the_reader(sent)
    # the game's ETag as a reader got it names the version it was decided against: stale now, so a 409
    stale = client.post(url, json={"type": "Draw"}, headers={**bearer(tokens[mover]), "If-Match": seen.headers["ETag"]})
    assert stale.status_code == 409 and stale.json["version"] == sent.json["version"]
    # the command's answer names the game as this seat reads it now
    now = client.get(f"/v1/games/{game_id}", headers={**bearer(tokens[mover]), "If-None-Match": sent.headers["ETag"]})
    assert now.status_code == 304


def test_events_and_time_travel_are_private_to_their_reader(client, narcos):
    game_id, tokens, mover = narcos
    ticket = client.post(f"/v1/games/{game_id}/tickets", headers=bearer(tokens[mover]))
    assert ticket.status_code == 201 and "no-store" in ticket.headers["Cache-Control"]
    reads = [client.get(f"/v1/games/{game_id}/events", headers=bearer(tokens[mover])),
             client.get(f"/v1/games/{game_id}/events?ticket={ticket.json['ticket']}"),
             client.get(f"/v1/games/{game_id}/events"),
             client.get(f"/v1/games/{game_id}/state?version=3", headers=bearer(tokens[mover])),
             client.get(f"/v1/games/{game_id}/state")]
    for read in reads:
        assert read.status_code == 200 and private_to_the_reader(read), (read.request.url, read.headers)


@pytest.mark.parametrize("path", ["", "/narcos", "/narcos/schema", "/narcos/data", "/narcos/rules"])
def test_rulesets_are_the_same_for_everyone_and_stay_cacheable(client, path):
    response = client.get(f"/v1/rulesets{path}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=300"
    assert "Authorization" not in response.headers.get("Vary", "")
