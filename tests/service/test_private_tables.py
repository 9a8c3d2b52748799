"""Unlisted and private tables, and invitations (issue 37 items 3 and 6): a private table is invisible to the
lobby, to spectators without a link and to id guessing (the same 404 document as an id no game has, after
the same Redis commands); an invitation admits to one seat, once, until it expires."""
from __future__ import annotations

import pytest

from tests.service.conftest import bearer

SEATS = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
WRONG_ID = "0123456789abcdef"  # the shape of a game id, naming no game


def create(client, visibility: str, seats=None, **headers) -> dict:
    created = client.post("/v1/games", json={"ruleset": "race", "seats": seats or SEATS, "visibility": visibility},
                          headers=headers)
    assert created.status_code == 201, created.json
    assert created.json["visibility"] == visibility
    return created.json


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json" and response.json["code"] == code, response.json
    return response.json


def invite(seat: int, created: dict) -> dict:
    return {"X-Cartel-Invitation": created["seats"][seat]["invitation"]}


def test_only_public_tables_are_in_the_lobby(client):
    """Three tables, one of each visibility: every lobby listing (all, by status, by ruleset, both) shows the
    public one alone, and counts it alone."""
    public = create(client, "public")["id"]
    create(client, "unlisted")
    create(client, "private")
    for query in ("", "?status=open", "?ruleset=race", "?status=open&ruleset=race"):
        lobby = client.get(f"/v1/games{query}").json
        assert [g["id"] for g in lobby["games"]] == [public] and lobby["total"] == 1, query


def test_an_unlisted_table_is_read_and_joined_by_whoever_has_its_id(client):
    created = create(client, "unlisted")
    assert all("invitation" in s for s in created["seats"] if s["kind"] == "open")
    assert client.get(f"/v1/games/{created['id']}").json["visibility"] == "unlisted"
    assert client.post(f"/v1/games/{created['id']}/seats/1/claim").status_code == 201


# every request that names a game, as a caller without a credential for it would send it
PROBES = [("GET", "/v1/games/{id}", None), ("GET", "/v1/games/{id}/events", None),
          ("GET", "/v1/games/{id}/state?version=1", None), ("GET", "/v1/games/{id}/history", None),
          ("GET", "/v1/games/{id}/chat", None), ("GET", "/v1/games/{id}/narration", None),
          ("POST", "/v1/games/{id}/seats/1/claim", {}), ("POST", "/v1/games/{id}/commands", {"type": "Roll"}),
          ("POST", "/v1/games/{id}/tickets", None), ("POST", "/v1/games/{id}/seats/0/resign", None),
          ("POST", "/v1/games/{id}/seats/0/token", None), ("POST", "/v1/games/{id}/seats/1/invitation", None),
          ("POST", "/v1/games/{id}/seats/0/entropy", {"entropy": "e" * 32}),
          ("POST", "/v1/games/{id}/seats/0/reclaim", None), ("POST", "/v1/games/{id}/chat", {"text": "hi"})]
STRANGERS = [{}, bearer("a" * 43), bearer("cp_" + "b" * 43), {"X-Cartel-Invitation": "c" * 43}]


@pytest.mark.parametrize("stranger", range(len(STRANGERS)))
def test_a_private_table_answers_a_stranger_as_an_id_no_game_has(client, stranger):
    """To a caller without a credential for it (none, another game's token, a player key of nobody at the table,
    a wrong invitation), every request naming a private table gets the document an id no game has gets, the id
    aside: status, code, title and detail alike."""
    private = create(client, "private")["id"]
    other = create(client, "public")  # a token that is real, of another game
    headers = [{}, bearer(other["seats"][0]["token"]), bearer(client.post("/v1/players", json={"name": "Eve"}).json["key"]),
               {"X-Cartel-Invitation": other["seats"][0]["token"]}][stranger]
    for method, path, body in PROBES:
        answers = {}
        for game_id in (private, WRONG_ID):
            response = client.open(path.format(id=game_id), method=method, json=body, headers=headers)
            answers[game_id] = (response.status_code, response.mimetype,
                                response.get_data(as_text=True).replace(game_id, "<id>"))
        assert answers[private] == answers[WRONG_ID], (method, path, answers)
        assert answers[private][0] == 404, (method, path, answers)


def test_a_private_table_and_a_wrong_id_cost_the_same_redis_commands(client, redis_client):
    """The timing class of the answer: the server sends Redis the same commands, as many of each, for a private
    table's id and for an id no game has (INFO commandstats before and after each request), with no credential
    and with a wrong one."""
    private = create(client, "private")["id"]
    client.get(f"/v1/games/{private}")  # this process has the game cached: its copy must not answer sooner

    def commands(game_id: str, headers: dict) -> dict:
        before = redis_client.info("commandstats")
        client.get(f"/v1/games/{game_id}", headers=headers)
        after = redis_client.info("commandstats")
        # the INFO commands themselves are counted once each way
        return {name: after[name]["calls"] - before.get(name, {}).get("calls", 0) for name in after
                if name != "cmdstat_info" and after[name]["calls"] != before.get(name, {}).get("calls", 0)}

    for headers in ({}, bearer("cp_" + "b" * 43), {"X-Cartel-Invitation": "c" * 43, **bearer("d" * 43)}):
        assert commands(private, headers) == commands(WRONG_ID, headers), headers


def test_an_invitation_admits_to_its_seat_once_and_a_player_of_the_table_reads_it(client):
    """A private table: its creator's seat token reads it; an invitation to seat 1 reads it (as a spectator)
    and claims seat 1, once (a second claim with it, or a read, is a stranger's 404); seat 2's invitation does
    not claim seat 1 (403); the claimer's new token reads it."""
    created = create(client, "private")
    game_id = created["id"]
    assert client.get(f"/v1/games/{game_id}", headers=bearer(created["seats"][0]["token"])).json["you"] == 0
    spectator = client.get(f"/v1/games/{game_id}?invitation={created['seats'][1]['invitation']}")
    assert spectator.status_code == 200 and spectator.json["you"] is None
    problem(client.post(f"/v1/games/{game_id}/seats/1/claim", headers=invite(2, created)), 403, "invitation-required")
    claimed = client.post(f"/v1/games/{game_id}/seats/1/claim", json={"name": "Bo"}, headers=invite(1, created))
    assert claimed.status_code == 201, claimed.json
    problem(client.get(f"/v1/games/{game_id}", headers=invite(1, created)), 404, "not-found")
    problem(client.post(f"/v1/games/{game_id}/seats/2/claim", headers=invite(1, created)), 404, "not-found")
    assert client.get(f"/v1/games/{game_id}", headers=bearer(claimed.json["token"])).json["you"] == 1


def test_a_player_at_the_table_invites_anew_and_the_earlier_invitation_stops_working(client):
    """Seat 0's player issues a fresh invitation to seat 2: the one the creation gave stops working; a seat's
    invitation is refused for a seat that is not open (409), and to someone with no seat here (the spectator
    an invitation admits: 403)."""
    created = create(client, "private")
    game_id, token = created["id"], created["seats"][0]["token"]
    fresh = client.post(f"/v1/games/{game_id}/seats/2/invitation", headers=bearer(token))
    assert fresh.status_code == 201, fresh.json
    assert fresh.json["link"] == f"/v1/games/{game_id}?invitation={fresh.json['invitation']}"
    assert client.get(fresh.json["link"]).json["id"] == game_id  # followed, the link reads the table
    problem(client.get(f"/v1/games/{game_id}", headers=invite(2, created)), 404, "not-found")
    assert client.get(f"/v1/games/{game_id}", headers={"X-Cartel-Invitation": fresh.json["invitation"]}).status_code == 200
    problem(client.post(f"/v1/games/{game_id}/seats/0/invitation", headers=bearer(token)), 409, "seat-taken")
    problem(client.post(f"/v1/games/{game_id}/seats/1/invitation", headers={**invite(1, created), **bearer("e" * 43)}),
            403, "not-your-seat")


def test_an_expired_invitation_admits_nobody(app, client):
    app.config["INVITATION_SECONDS"] = 0  # expires as it is issued
    created = create(client, "private")
    problem(client.get(f"/v1/games/{created['id']}", headers=invite(1, created)), 404, "not-found")
    problem(client.post(f"/v1/games/{created['id']}/seats/1/claim", headers=invite(1, created)), 404, "not-found")


def test_a_player_bound_to_a_private_table_finds_and_reads_it(client):
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    created = create(client, "private", [{"kind": "human", "as_player": True}, {"kind": "open"}], **bearer(ada["key"]))
    mine = client.get("/v1/players/me/games", headers=bearer(ada["key"])).json["games"]
    assert [(g["id"], g["visibility"]) for g in mine] == [(created["id"], "private")]
    assert client.get(f"/v1/games/{created['id']}", headers=bearer(ada["key"])).status_code == 200


def test_pushpins_next_link_for_a_private_tables_reader_passes_the_gate(app, client, monkeypatch):
    """Behind Pushpin a hold's next link names its reader by a proof under GRIP_KEY, not by a token: for a
    private table the gate admits it (Pushpin asks it after a gap), and still refuses a forged one."""
    import time

    from service.grip import Push, reader_proof
    from tests.service.test_grip import jwt

    key = b"the-shared-grip-key"
    monkeypatch.setattr(app.extensions["cartel"], "push", Push(key, None))
    created = create(client, "private", [{"kind": "human"}, {"kind": "human"}])
    signed = {"Grip-Sig": jwt({"iss": "pushpin", "exp": int(time.time()) + 60}, key),
              "Grip-Last": f"game:{created['id']}:s0; last-id=1"}
    url = f"/v1/games/{created['id']}/events?ticket="
    held = client.get(url + reader_proof(key, created["id"], 0), headers=signed)
    assert held.status_code == 200 and held.headers.get("Grip-Hold") == "stream", held.get_data(as_text=True)
    problem(client.get(url + reader_proof(b"another key", created["id"], 0), headers=signed), 404, "not-found")


def test_a_pages_preflight_for_a_private_table_is_answered_as_for_any_table(client):
    """A browser's CORS preflight carries no credential: it is answered for a private table as for a public one,
    and allows the invitation's header (the request that follows is the one the gate judges)."""
    private = create(client, "private")["id"]
    for game_id in (private, WRONG_ID):
        answer = client.options(f"/v1/games/{game_id}/seats/1/claim", headers={
            "Origin": "https://frontend.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-cartel-invitation"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert "x-cartel-invitation" in answer.headers["Access-Control-Allow-Headers"].lower()
