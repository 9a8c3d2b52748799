"""Inputs that used to give a 500 (or a wrong status): each answered with the right problem+json, appending nothing."""
from __future__ import annotations

import io
import json
import logging
from urllib.parse import quote

import pytest
import requests

from events import strictjson
from events.history import parse_history
from service.schemas import MAX_VERSION
from tests.service.conftest import bearer
from tests.service.test_api import problem
from tests.support.processes import Gunicorn

RACE_SEATS = [{"kind": "human"}, {"kind": "human"}]
DEEP = "[" * 30_000 + "]" * 30_000
HUGE_INT = "9" * 5000


def version_of(client, game_id: str) -> int:
    return client.get(f"/v1/games/{game_id}").json["version"]


def post_raw(client, url: str, text: str, headers: dict | None = None, content_type: str = "application/json"):
    return client.post(url, data=text.encode("utf-8"), content_type=content_type, headers=headers or {})


# ------------------------------------------------------------- strict JSON (items 1, 2, 4)
@pytest.mark.parametrize("value, says", [
    (DEEP, "deep; at most 64 levels"),
    (HUGE_INT, "5000 digits"),
    ('"\\ud800"', "lone UTF-16 surrogate"),
    ("NaN", "not JSON"),
    ("1e999", "out of range"),
])
def test_hostile_json_in_every_body_is_a_400(client, race, value, says):
    game_id, tokens = race
    before = version_of(client, game_id)
    bodies = [
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"x": %s}}'),
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": %s}'),
        (f"/v1/games/{game_id}/commands", '{"type": "Roll", "arg": %s}'),
        (f"/v1/games/{game_id}/seats/1/claim", '{"name": %s}'),
        (f"/v1/games/{game_id}/seats/0/entropy", '{"entropy": %s}'),
        (f"/v1/games/{game_id}/chat", '{"text": %s}'),
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}], '
                      '"contribution_seconds": %s}'),
        # issue 37: players, visibility, seats bound to a player, invitations, fresh seat tokens
        ("/v1/players", '{"name": %s}'),
        ("/v1/players", '{"name": "Ada", "external_id": %s}'),
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}], "visibility": %s}'),
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human", "as_player": %s}, {"kind": "human"}]}'),
        # issue 37 items 2 and 4: challenges
        ("/v1/challenges", '{"to": %s, "ruleset": "race"}'),
        ("/v1/challenges", '{"to": {"bot": %s}, "ruleset": "race"}'),
        ("/v1/challenges", '{"to": "Bo", "ruleset": "race", "options": {"goal": %s}}'),
        ("/v1/challenges", '{"to": "Bo", "ruleset": "race", "seats": %s}'),
        # issue 39 item 4: analyses, and the table's analysis option
        ("/v1/analysis", '{"game": %s, "version": 1, "seat": 0}'),
        ("/v1/analysis", '{"game": "g", "version": %s, "seat": 0}'),
        ("/v1/analysis", '{"game": "g", "version": 1, "seat": %s}'),
        ("/v1/games", '{"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}], "analysis": %s}'),
        # issue 39 item 5: a fork of a finished game
        ("/v1/games", '{"ruleset": "race", "from": %s, "seats": [{"kind": "human"}, {"kind": "human"}]}'),
        ("/v1/games", '{"ruleset": "race", "from": {"game": %s, "version": 3}, "seats": [{"kind": "human"}, '
                      '{"kind": "human"}]}'),
        ("/v1/games", '{"ruleset": "race", "from": {"game": "g", "version": %s}, "seats": [{"kind": "human"}, '
                      '{"kind": "human"}]}'),
    ]
    for url, template in bodies:
        refused = problem(post_raw(client, url, template % value, bearer(tokens[0])), 400)
        assert says in refused["detail"], refused
    replay = problem(post_raw(client, "/v1/replays", '{"format": %s}\n' % value, content_type="application/x-ndjson"),
                     400)
    assert replay["detail"].startswith("line 1: ") and says in replay["detail"]
    assert version_of(client, game_id) == before
    assert client.get("/v1/games").json["total"] == 1  # only the race fixture's game


def test_a_surrogate_pair_is_text_and_accepted(client):
    created = post_raw(client, "/v1/games", '{"ruleset": "race", "seats": [{"kind": "human", "name": "\\ud83c\\udfb2"},'
                                            ' {"kind": "human"}], "seed": "\\ud83c\\udfb2"}')
    assert created.status_code == 201 and created.json["seats"][0]["name"] == "\N{GAME DIE}"


def test_strict_json_limits_are_exact():
    assert strictjson.loads("[" * 64 + "]" * 64) is not None
    assert strictjson.loads('{"a": "[[[[[[[[" }') == {"a": "[[[[[[[["}  # brackets in strings do not count
    with pytest.raises(strictjson.RefusedJSON):
        strictjson.loads("[" * 65 + "]" * 65)
    assert strictjson.loads("9" * 40) == int("9" * 40)
    with pytest.raises(strictjson.RefusedJSON):
        strictjson.loads("-" + "9" * 41)
    with pytest.raises(ValueError, match="line 2: arrays and objects nest"):
        parse_history('{"ok": 1}\n' + DEEP)


# ------------------------------------------------------------- versions (item 3)
def test_after_and_last_event_id_beyond_a_stream_id_are_400(client, race):
    game_id, tokens = race
    url = f"/v1/games/{game_id}/events"
    assert problem(client.get(f"{url}?after={MAX_VERSION}"), 400)["code"] == "resume-beyond-version"
    problem(client.get(f"{url}?after={2**64}"), 400)
    problem(client.get(f"{url}?after={2**63}"), 400)
    for value in (str(2**64), "banana", "-1", "\u00b2", "1" * 5000):
        problem(client.get(url, headers={"Last-Event-ID": value}), 400)
        refused = problem(client.get(url, headers={"Accept": "text/event-stream", "Last-Event-ID": value}), 400)
        assert "Last-Event-ID" in refused["detail"]  # a 400, so an EventSource stops instead of reconnecting forever
    problem(client.get(f"/v1/games/{game_id}/state?version={2**64}"), 400)
    problem(client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"},
                        headers={**bearer(tokens[0]), "If-Match": '"%s"' % ("9" * 5000)}), 400)
    problem(client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"},
                        headers={**bearer(tokens[0]), "If-Match": f'"{2**63}"'}), 400)


def test_a_resume_point_past_the_game_is_a_400_not_a_silent_wait(client, race):
    """Issue 36 item 7: `after` or Last-Event-ID past the game's version names no event of this feed (another
    game's id, a client's own count): a 400 problem, on the stream as on the pages, not heartbeats that
    echo it; the game's own version still resumes (nothing new yet: a page with no events)."""
    game_id, _ = race
    url = f"/v1/games/{game_id}/events"
    version = client.get(f"/v1/games/{game_id}").json["version"]
    for headers, query in (({"Accept": "text/event-stream", "Last-Event-ID": str(version + 1)}, ""),
                           ({"Accept": "text/event-stream"}, f"?after={version + 1}"),
                           ({"Accept": "text/event-stream", "Last-Event-ID": str(MAX_VERSION)}, ""),
                           ({}, f"?after={version + 1}")):
        refused = problem(client.get(url + query, headers=headers), 400)
        assert refused["code"] == "resume-beyond-version" and str(version) in refused["detail"], refused
    assert refused["param"] == "after"
    assert client.get(f"{url}?after={version}").json == {"events": [], "version": version, "next_after": version,
                                                        "has_more": False}


# ------------------------------------------------------------- creation (items 5, 7)
def test_a_clock_bot_level_the_ruleset_lacks_is_refused_at_creation(client):
    refused = problem(client.post("/v1/games", json={"ruleset": "kingpin", "seats": RACE_SEATS,
                                                     "clock": {"move_seconds": 5, "bot_level": "godlike"}}), 422)
    assert "godlike" in refused["detail"] and "random" in refused["detail"]
    assert client.post("/v1/games", json={"ruleset": "kingpin", "seats": RACE_SEATS,
                                          "clock": {"move_seconds": 5, "bot_level": "greedy"}}).status_code == 201


def test_an_option_value_the_ruleset_does_not_offer_is_422_as_documented(client):
    refused = problem(client.post("/v1/games", json={"ruleset": "race", "seats": RACE_SEATS, "options": {"goal": 7}}),
                      422)
    assert "goal" in refused["detail"] and refused["rule"] == "options"
    problem(client.post("/v1/games", json={"ruleset": "race", "seats": RACE_SEATS, "options": {"speed": 1}}), 422)
    assert client.get("/v1/games").json["total"] == 0


# ------------------------------------------------------------- transport (item 7)
def test_a_non_json_body_on_a_json_endpoint_is_415(client, race):
    game_id, tokens = race
    for url in ("/v1/games", f"/v1/games/{game_id}/commands", f"/v1/games/{game_id}/seats/1/claim"):
        refused = problem(client.post(url, data='{"type": "Roll"}', content_type="text/plain",
                                      headers=bearer(tokens[0])), 415)
        assert "application/json" in refused["detail"]
        problem(client.post(url, data=b'{"type": "Roll"}', headers=bearer(tokens[0])), 415)  # no Content-Type
    assert client.post("/v1/games", data=json.dumps({"ruleset": "race", "seats": RACE_SEATS}),
                       content_type="application/json; charset=utf-8").status_code == 201


def test_a_chunked_body_over_the_limit_is_413(client, race):
    game_id, tokens = race
    body = json.dumps({"type": "Roll", "pad": "x" * 70_000}).encode()

    def chunked(data: bytes):
        # As gunicorn hands a chunked body to the app: no Content-Length, the server terminates the stream.
        return client.post(f"/v1/games/{game_id}/commands", input_stream=io.BytesIO(data),
                           headers={**bearer(tokens[0]), "Transfer-Encoding": "chunked",
                                    "Content-Type": "application/json"},
                           environ_overrides={"wsgi.input_terminated": True})

    refused = problem(chunked(body), 413)
    assert "65536 bytes" in refused["detail"]
    assert chunked(json.dumps({"type": "Roll"}).encode()).status_code == 200


@pytest.mark.parametrize("header", ["Bearer a b", "Bearer \"quoted\"", "Bearer tok,en", "Bearer ", "Bearer"])
def test_a_malformed_bearer_token_is_401_not_403(client, race, header):
    game_id, _ = race
    refused = problem(client.get(f"/v1/games/{game_id}", headers={"Authorization": header}), 401)
    assert "Bearer" in refused["detail"]


def test_on_gunicorn_an_over_long_uri_is_414_and_a_chunked_body_over_the_limit_413(redis_server, tmp_path):
    web = Gunicorn(redis_server.url, tmp_path / "gunicorn.log", workers=1)
    web.start()
    try:
        response = requests.get(f"{web.url}/v1/games/{'x' * 5000}", timeout=10)
        assert response.status_code == 414
        assert response.headers["Content-Type"] == "application/problem+json"
        body = response.json()
        assert body["status"] == 414 and body["type"].endswith("/uri-too-long") and "too large" in body["detail"]
        assert requests.get(f"{web.url}/v1/games/{'x' * 2900}", timeout=10).status_code == 404  # under its 3000
        # gunicorn hands a chunked body over without Content-Length: over the limit it is a 413 too
        chunks = (b'{"ruleset": "race", "pad": "' + b"x" * 70_000 + b'"}' for _ in range(1))
        too_large = requests.post(f"{web.url}/v1/games", data=chunks, timeout=10,
                                  headers={"Content-Type": "application/json"})
        assert too_large.status_code == 413 and too_large.headers["Content-Type"] == "application/problem+json"
    finally:
        web.stop()


# ------------------------------------------------------------- seat names (item 8)
@pytest.mark.parametrize("name", ["a\x00b", "evil\u202egnp.exe", "\u2066x\u2069", "tab\there", "line\nbreak",
                                  "zero\u200bwidth", "\x7f", "   ", "x" * 65, "para\u2029graph"])
def test_seat_names_refuse_control_format_and_bidi_characters(client, name):
    for seats in ([{"kind": "human", "name": name}, {"kind": "human"}],):
        refused = problem(client.post("/v1/games", json={"ruleset": "race", "seats": seats}), 400)
        assert "name" in refused["detail"]
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}]}).json
    problem(client.post(f"/v1/games/{created['id']}/seats/1/claim", json={"name": name}), 400)
    assert client.get(f"/v1/games/{created['id']}").json["status"] == "open"


def test_ordinary_names_in_any_script_are_kept(client):
    names = ["Sandra", "Zoë O'Neil", "\u0645\u062d\u0645\u062f", "\u0928\u092e\u0938\u094d\u200d\u0924\u0947",
             "\N{MAN}\u200d\N{WOMAN}\u200d\N{GIRL}", "x" * 64]
    for name in names:
        created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human", "name": name},
                                                                              {"kind": "human"}]})
        assert created.status_code == 201 and created.json["seats"][0]["name"] == name


def test_the_name_rules_are_in_the_spec(app):
    spec = app.test_client().get("/openapi.json").json
    described = spec["components"]["schemas"]["SeatSpec"]["properties"]["name"]["description"]
    assert "control characters" in described and "bidi" in described


# ------------------------------------------------------------- chat (issue 36 item 3)
@pytest.mark.parametrize("body, param", [
    ({"text": "x" * 501}, "text"), ({"text": ""}, "text"), ({"text": "   "}, "text"), ({"text": "one\ntwo"}, "text"),
    ({"text": "evil\u202egnp.exe"}, "text"), ({"text": "\u2066x\u2069"}, "text"), ({"text": "a\x00b"}, "text"),
    ({"text": 7}, "text"), ({"text": None}, "text"), ({}, "text"), ({"text": "hi", "seat": 1}, "seat"),
    ({"text": "hi", "name": "x" * 65}, "name"), ({"text": "hi", "name": "\u202eevil"}, "name"),
    ({"text": ["hi"]}, "text"),
])
def test_a_chat_message_of_the_wrong_shape_is_a_400_naming_the_field_and_keeps_nothing(client, race, body, param):
    game_id, tokens = race
    for token in (None, tokens[0]):
        refused = problem(client.post(f"/v1/games/{game_id}/chat", json=body, headers=bearer(token) if token else {}),
                          400)
        assert refused["param"] == param, refused
    for token in (None, tokens[0]):
        assert client.get(f"/v1/games/{game_id}/chat", headers=bearer(token) if token else {}).json["messages"] == []


def test_a_seat_speaks_under_its_own_name_and_a_chat_body_must_be_json(client, race):
    game_id, tokens = race
    refused = problem(client.post(f"/v1/games/{game_id}/chat", json={"text": "hi", "name": "Not me"},
                                  headers=bearer(tokens[0])), 400)
    assert refused["param"] == "name"
    problem(post_raw(client, f"/v1/games/{game_id}/chat", "text=hi", content_type="text/plain"), 415)
    problem(client.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers={"Authorization": "Bearer a b"}), 401)
    problem(client.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers=bearer("x" * 43)), 403)
    problem(client.post("/v1/games/nope/chat", json={"text": "hi"}), 404)
    kept = client.post(f"/v1/games/{game_id}/chat", json={"text": "\N{MAN}\u200d\N{WOMAN} \u0645\u062d\u0645\u062f " + "x" * 480},
                       headers=bearer(tokens[0]))
    assert kept.status_code == 201 and kept.json["name"]


@pytest.mark.parametrize("query, param", [
    ("after=x", "after"), ("after=1", "after"), ("after=-1-0", "after"), (f"after={2**64}-0", "after"),
    (f"after=0-{2**64}", "after"), ("after=" + "9" * 21 + "-0", "after"), ("channel=everyone", "channel"),
    ("limit=0", "limit"), ("limit=501", "limit"), ("limit=x", "limit"),
])
def test_a_chat_page_query_of_the_wrong_shape_is_a_400(client, race, query, param):
    game_id, _ = race
    assert problem(client.get(f"/v1/games/{game_id}/chat?{query}"), 400)["param"] == param
    assert client.get(f"/v1/games/{game_id}/chat?after={2**64 - 1}-{2**64 - 1}").json["messages"] == []
    problem(client.get("/v1/games/nope/chat"), 404)
    problem(client.get("/v1/games/nope/chat/export"), 404)


# ------------------------------------------------------------- logging sanity for the suite
def test_no_input_here_logs_an_unhandled_error(client, race, caplog):
    game_id, tokens = race
    with caplog.at_level(logging.ERROR, logger="service.errors"):
        post_raw(client, f"/v1/games/{game_id}/commands", '{"type": %s}' % DEEP, bearer(tokens[0]))
        post_raw(client, "/v1/games", '{"ruleset": "race", "seats": [], "seed": "\\udfff"}')
        client.get(f"/v1/games/{game_id}/events?after={2**70}")
    assert not caplog.records


@pytest.mark.parametrize("field, value", [("contribution_seconds", -1), ("contribution_seconds", 3601),
                                          ("contribution_seconds", "30"), ("contribution_seconds", True),
                                          ("entropy", "any"), ("seed", ""), ("seed", "x" * 257)])
def test_a_creation_with_a_contribution_window_or_secret_it_may_not_carry_creates_nothing(client, field, value):
    listed = client.get("/v1/games").json["total"]
    answer = client.post("/v1/games", json={"ruleset": "race", "seats": RACE_SEATS, field: value})
    assert answer.status_code == 400 and answer.mimetype == "application/problem+json", answer.json
    assert client.get("/v1/games").json["total"] == listed


@pytest.mark.parametrize("body", [None, {}, {"entropy": 7}, {"entropy": "ok", "more": 1}, [], "text"])
def test_a_contribution_of_the_wrong_shape_is_a_400_and_appends_nothing(client, body):
    created = client.post("/v1/games", json={"ruleset": "race", "seats": RACE_SEATS, "contribution_seconds": 60}).json
    before = version_of(client, created["id"])
    url = f"/v1/games/{created['id']}/seats/0/entropy"
    token = bearer(created["seats"][0]["token"])
    answer = client.post(url, headers=token) if body is None else client.post(url, json=body, headers=token)
    assert answer.status_code in (400, 415) and answer.mimetype == "application/problem+json", answer.json
    assert version_of(client, created["id"]) == before
    for seat in ("9", "-1", "x"):
        assert client.post(f"/v1/games/{created['id']}/seats/{seat}/entropy", json={"entropy": "e"},
                           headers=token).status_code in (403, 404)
    assert client.post("/v1/games/nope/seats/0/entropy", json={"entropy": "e"}, headers=token).status_code == 404
    assert version_of(client, created["id"]) == before


# ------------------------------------------------------------- players and private tables (issue 37 item 6)
APP_KEY = "an-app-key-long-enough-to-be-accepted-here"
HOSTILE_TEXT = ["", " ", "a" * 5000, "\u202egnp", "cp_", "cp_" + "x" * 600, "user:1\u0000", "\u00e9\u00e9",
                "{}", "../../etc", "1 OR 1=1"]


@pytest.mark.parametrize("body, param", [
    ({"name": 7}, "name"), ({"name": ["Ada"]}, "name"), ({"name": None}, "name"), ({}, "name"),
    ({"name": "Ada", "extra": 1}, "extra"), ({"name": "Ada", "external_id": 5}, "external_id"),
    ({"name": "Ada", "external_id": "has space"}, "external_id"), ({"name": "Ada", "external_id": "x" * 129},
                                                                   "external_id"),
])
def test_a_player_of_the_wrong_shape_is_a_400_naming_the_field_and_creates_nobody(client, body, param):
    refused = problem(client.post("/v1/players", json=body), 400)
    assert refused["param"] == param, refused
    assert client.post("/v1/players", json={"name": "Ada"}).status_code == 201  # the name was not taken


@pytest.mark.parametrize("seats, extra, param", [
    (RACE_SEATS, {"visibility": "secret"}, "visibility"), (RACE_SEATS, {"visibility": 1}, "visibility"),
    (RACE_SEATS, {"visibility": None}, "visibility"),
    ([{"kind": "human", "as_player": "yes"}, {"kind": "human"}], {}, "seats.0.as_player"),
    ([{"kind": "bot", "as_player": True}, {"kind": "human"}], {}, "seats.0.as_player"),
    ([{"kind": "human", "player": "p1"}, {"kind": "human"}], {}, "seats.0.player"),
])
def test_a_creation_with_a_visibility_or_binding_of_the_wrong_shape_creates_nothing(client, seats, extra, param):
    refused = problem(client.post("/v1/games", json={"ruleset": "race", "seats": seats, **extra}), 400)
    assert refused["param"] == param, refused
    problem(client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human", "as_player": True},
                                                                        {"kind": "human"}]}), 401)
    assert client.get("/v1/games").json["total"] == 0


@pytest.mark.parametrize("fork, param", [
    ("g", "from"), ([], "from"), (None, "from"), ({}, "from.game"), ({"game": "g"}, "from.version"),
    ({"game": "g", "version": "3"}, "from.version"), ({"game": "g", "version": True}, "from.version"),
    ({"game": "g", "version": -1}, "from.version"), ({"game": "g", "version": 1.5}, "from.version"),
    ({"game": "", "version": 3}, "from.game"), ({"game": 7, "version": 3}, "from.game"),
    ({"game": "g" * 65, "version": 3}, "from.game"), ({"game": "g", "version": 3, "seat": 0}, "from.seat"),
])
def test_a_fork_of_the_wrong_shape_is_a_400_naming_the_field_and_creates_nothing(client, race, fork, param):
    game_id, _ = race
    before = version_of(client, game_id)
    refused = problem(client.post("/v1/games", json={"ruleset": "race", "from": fork, "seats": RACE_SEATS}), 400)
    assert refused["param"] == param, refused
    # hostile text as the game to fork: no such game (or, past the id's length, a 400), never a 5xx
    for value in HOSTILE_TEXT:
        problem(client.post("/v1/games", json={"ruleset": "race", "from": {"game": value, "version": 3},
                                               "seats": RACE_SEATS}),
                404 if 1 <= len(value) <= 64 else 400)
    assert client.get("/v1/games").json["total"] == 1  # only the race fixture's game
    assert version_of(client, game_id) == before


@pytest.mark.parametrize("value", HOSTILE_TEXT)
def test_hostile_player_credentials_and_invitations_are_4xx_everywhere_and_change_nothing(app, client, race, value):
    """Every new endpoint, and the requests a private table's gate sees, with a hostile X-Cartel-Player (beside the
    app key), X-Cartel-Invitation, `invitation` query and player key: a 4xx problem (never a 5xx), no player made
    or changed, no event appended."""
    app.config["PLATFORM_APP_KEY"] = APP_KEY
    game_id, tokens = race
    private = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}],
                                             "visibility": "private"}).json["id"]
    before = version_of(client, game_id)
    credentials = [{"X-Cartel-Player": value, **bearer(APP_KEY)}, {"X-Cartel-Invitation": value},
                   {"Authorization": f"Bearer {value}"}]
    requests_ = [("GET", "/v1/players/me", None), ("POST", "/v1/players/me/key", None),
                 ("GET", "/v1/players/me/games", None),
                 ("POST", f"/v1/games/{game_id}/seats/0/token", None), ("POST", f"/v1/games/{private}/seats/1/claim", {}),
                 ("POST", f"/v1/games/{game_id}/seats/1/invitation", None), ("GET", f"/v1/games/{private}", None),
                 ("GET", f"/v1/games/{private}/events", None),
                 # issue 37 items 2 and 4: my stream and challenges
                 ("GET", "/v1/players/me/stream", None), ("GET", "/v1/players/me/challenges", None),
                 ("POST", "/v1/challenges", {"to": "Mal", "ruleset": "race"}),
                 ("POST", "/v1/challenges/0123456789abcdef/accept", None),
                 ("POST", "/v1/challenges/0123456789abcdef/decline", None),
                 ("POST", "/v1/challenges/0123456789abcdef/cancel", None)]
    for headers in credentials:
        for method, path, body in requests_:
            try:
                response = client.open(path, method=method, json=body, headers=headers)
            except ValueError:  # werkzeug refuses to send a header with a newline or NUL: nothing reached us
                continue
            assert 400 <= response.status_code < 500, (method, path, headers, response.status_code)
            assert response.mimetype == "application/problem+json", (method, path, headers)
    for query in (f"?invitation={value}", f"?ticket={value}"):
        assert client.get(f"/v1/games/{private}{query}").status_code == 404
    assert version_of(client, game_id) == before
    assert client.post("/v1/players", json={"name": "Mal"}).status_code == 201  # nobody took the name meanwhile


@pytest.mark.parametrize("query, param", [("limit=0", "limit"), ("limit=101", "limit"), ("offset=-1", "offset"),
                                          ("limit=abc", "limit"), (f"offset={2**70}", "offset")])
def test_a_my_games_query_of_the_wrong_shape_is_a_400(client, query, param):
    key = client.post("/v1/players", json={"name": "Ada"}).json["key"]
    refused = problem(client.get(f"/v1/players/me/games?{query}", headers=bearer(key)), 400)
    assert refused["param"] == param, refused


@pytest.mark.parametrize("query", ["limit=0", "limit=201", "limit=-1", "limit=x", "limit=1e9", "limit=",
                                   "limit=" + "9" * 50])
def test_a_leaderboard_query_of_the_wrong_shape_is_a_400_naming_the_parameter(client, query):
    refused = problem(client.get(f"/v1/rulesets/kingpin/leaderboard?{query}"), 400)
    assert refused["param"] == "limit", refused


# ------------------------------------------------------------- my stream and challenges (issue 37 items 2 and 4)
@pytest.mark.parametrize("body, param", [
    ({"ruleset": "race"}, "to"), ({"to": 7, "ruleset": "race"}, "to"), ({"to": None, "ruleset": "race"}, "to"),
    ({"to": "a b", "ruleset": "race"}, "to"), ({"to": "\u202egnp", "ruleset": "race"}, "to"),
    ({"to": {"bot": 1}, "ruleset": "race"}, "to"), ({"to": {"bot": "random", "x": 1}, "ruleset": "race"}, "to"),
    ({"to": {"bot": "x" * 33}, "ruleset": "race"}, "to"), ({"to": ["Bo"], "ruleset": "race"}, "to"),
    ({"to": "Bo"}, "ruleset"), ({"to": "Bo", "ruleset": 5}, "ruleset"),
    ({"to": "Bo", "ruleset": "race", "seats": 1}, "seats"), ({"to": "Bo", "ruleset": "race", "seats": 13}, "seats"),
    ({"to": "Bo", "ruleset": "race", "seats": "2"}, "seats"), ({"to": "Bo", "ruleset": "race", "seats": 2.5}, "seats"),
    ({"to": "Bo", "ruleset": "race", "visibility": "secret"}, "visibility"),
    ({"to": "Bo", "ruleset": "race", "options": []}, "options"),
    ({"to": "Bo", "ruleset": "race", "clock": {"move_seconds": 0}}, "clock.move_seconds"),
    ({"to": "Bo", "ruleset": "race", "extra": 1}, "extra"),
])
def test_a_challenge_of_the_wrong_shape_is_a_400_naming_the_field_and_makes_none(client, body, param):
    ada = client.post("/v1/players", json={"name": "Ada"}).json["key"]
    bo = client.post("/v1/players", json={"name": "Bo"}).json["key"]
    refused = problem(client.post("/v1/challenges", json=body, headers=bearer(ada)), 400)
    assert refused["param"] == param, refused
    for key in (ada, bo):
        assert client.get("/v1/players/me/challenges", headers=bearer(key)).json["challenges"] == []
    assert client.get("/v1/games").json["total"] == 0


@pytest.mark.parametrize("value", [*HOSTILE_TEXT, "12", "1-2-3", "9" * 21 + "-0", "-1-0", "0-0x", "$", "+", "0-0\n"])
def test_hostile_stream_resume_points_and_challenge_ids_are_4xx_and_answer_nothing(client, value):
    ada = client.post("/v1/players", json={"name": "Ada"}).json["key"]
    bo = client.post("/v1/players", json={"name": "Bo"}).json["key"]
    made = client.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=bearer(ada)).json
    try:
        resumed = client.get("/v1/players/me/stream", headers={**bearer(ada), "Last-Event-ID": value})
    except ValueError:  # werkzeug refuses to send a header with a newline or NUL: nothing reached us
        resumed = None
    if resumed is not None and not value.strip():  # an empty Last-Event-ID is none: the stream opens
        assert resumed.status_code == 200
        resumed.close()
    elif resumed is not None:
        assert resumed.status_code == 400 and resumed.json["code"] == "malformed-last-event-id", value
    answer = client.get("/v1/players/me/stream", query_string={"after": value}, headers=bearer(ada))
    assert answer.status_code == 400 and answer.json["param"] == "after", value
    for action in ("accept", "decline", "cancel"):
        refused = client.post(f"/v1/challenges/{quote(value, safe='')}/{action}", headers=bearer(bo))
        assert refused.status_code in (404, 405) and refused.mimetype == "application/problem+json", (value, action)
    assert client.get("/v1/players/me/challenges", headers=bearer(bo)).json["challenges"][0]["status"] == "open"
    assert made["status"] == "open"


# ------------------------------------------------------------- analyses (issue 39 item 4)
@pytest.mark.parametrize("body, param", [
    ({}, "game"),
    ({"game": "g", "version": 1}, "seat"),
    ({"game": "", "version": 1, "seat": 0}, "game"),
    ({"game": "g" * 65, "version": 1, "seat": 0}, "game"),
    ({"game": "g", "version": 0, "seat": 0}, "version"),
    ({"game": "g", "version": MAX_VERSION + 1, "seat": 0}, "version"),
    ({"game": "g", "version": "1", "seat": 0}, "version"),
    ({"game": "g", "version": True, "seat": 0}, "version"),
    ({"game": "g", "version": 1, "seat": -1}, "seat"),
    ({"game": "g", "version": 1, "seat": 12}, "seat"),
    ({"game": "g", "version": 1, "seat": 0.5}, "seat"),
    ({"game": ["g"], "version": 1, "seat": 0}, "game"),
    ({"game": "g", "version": 1, "seat": 0, "iterations": 10**6}, "iterations"),
])
def test_an_analysis_of_the_wrong_shape_is_a_400_naming_the_field_and_enqueues_nothing(app, client, body, param):
    refused = problem(client.post("/v1/analysis", json=body), 400)
    assert refused["param"] == param, refused
    assert len(app.extensions["cartel"].queue) == 0


@pytest.mark.parametrize("value", [*HOSTILE_TEXT, "1-2-3", "g-1-0", "g-1-0-x", "g--1-0-200", "-1-0-200",
                                   "g-99999999999-0-200", "\u00b2-1-0-200"])
def test_hostile_analysis_ids_and_games_are_4xx_and_enqueue_nothing(app, client, race, value):
    game_id, tokens = race
    before = version_of(client, game_id)
    for name in (value, f"{game_id}-{value}", f"{value}-1-0-200"):
        answer = client.get(f"/v1/analysis/{quote(name, safe='')}", headers=bearer(tokens[0]))
        assert 400 <= answer.status_code < 500 and answer.mimetype == "application/problem+json", (name, answer.json)
    answer = client.post("/v1/analysis", json={"game": value[:64] or "x", "version": 1, "seat": 0},
                         headers=bearer(tokens[0]))
    assert 400 <= answer.status_code < 500 and answer.mimetype == "application/problem+json", (value, answer.json)
    assert version_of(client, game_id) == before and len(app.extensions["cartel"].queue) == 0
    # and the endpoint is there to refuse them: the race game itself is answered by the analysis's own check
    assert problem(client.post("/v1/analysis", json={"game": game_id, "version": 1, "seat": 0}),
                   422)["code"] == "analysis-not-offered"
