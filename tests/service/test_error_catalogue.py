"""The error catalogue (service/problems.py, docs/errors.md): every code is provoked through the HTTP API,
its document checked (status, code, type naming its page, title, param), and the catalogue, the docs
table and the codes the service's source can answer agree, so a new code without a test fails here."""
from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
import requests

from events import retention
from events.runner import now_ms
from rules import RULESETS
from service import create_app
from service.api.games import TABLE_REFUSALS
from service.errors import HTTP_CODES
from service.problems import CATALOGUE, GUNICORN_PROBLEM_KINDS, first_param
from tests.service.conftest import bearer
from tests.support.processes import Gunicorn
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

ROOT = Path(__file__).resolve().parents[2]
RULESETS_HERE = {**RULESETS, "race": RACE}


@pytest.fixture
def app(redis_server, redis_client, tmp_path):
    return create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": RULESETS_HERE, "TESTING": True,
                       "ARCHIVE_DIR": str(tmp_path / "archive")})


def new_race(client, seats=None, goal: int = 1000) -> tuple[str, list[str]]:
    body = client.post("/v1/games", json={"ruleset": "race", "seats": seats or [{"kind": "human"}] * 2,
                                          "seed": "fixed", "options": {"goal": goal}}).json
    return body["id"], [seat.get("token") for seat in body["seats"]]


def command(client, game_id: str, token: str | None, body: dict, **headers):
    return client.post(f"/v1/games/{game_id}/commands", json=body,
                       headers={**(bearer(token) if token else {}), **headers})


def play_to_the_end(client, game_id: str, tokens: list[str]) -> None:
    while (game := client.get(f"/v1/games/{game_id}").json)["status"] == "active":
        seat, kind = next(iter(game["awaiting"].items()))
        command(client, game_id, tokens[int(seat)], {"type": "Roll" if kind == "move" else "Acknowledge"})


# ------------------------------------------------------------------ the provocations, one per code
def malformed_request(app, client):
    return client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "wizard"}, {"kind": "human"}]})


def malformed_json(app, client):
    return client.post("/v1/games", data='{"ruleset": ', content_type="application/json")


def malformed_command(app, client):
    game_id, tokens = new_race(client)
    return command(client, game_id, tokens[0], {"type": "Fly"})


def malformed_if_match(app, client):
    game_id, tokens = new_race(client)
    return command(client, game_id, tokens[0], {"type": "Roll"}, **{"If-Match": "soon"})


def malformed_idempotency_key(app, client):
    game_id, tokens = new_race(client)
    return command(client, game_id, tokens[0], {"type": "Roll"}, **{"Idempotency-Key": "k" * 129})


def malformed_last_event_id(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}/events", headers={"Last-Event-ID": "yesterday"})


def resume_beyond_version(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}/events?after=999999")


def seat_action_refused(app, client):
    game_id, tokens = new_race(client)  # started: not left, only resigned
    return client.post(f"/v1/games/{game_id}/seats/0/leave", headers={"Authorization": f"Bearer {tokens[0]}"})


def entropy_before_commitment(app, client):
    return client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, "entropy": "mine"})


def fixed_seed_not_allowed(app, client):
    app.config["ALLOW_FIXED_SEEDS"] = False
    try:
        return client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, "seed": "mine"})
    finally:
        app.config["ALLOW_FIXED_SEEDS"] = True


def contribution_refused(app, client):
    game_id, tokens = new_race(client)  # started at once: no window, so its seed takes no more entropy
    return client.post(f"/v1/games/{game_id}/seats/0/entropy", json={"entropy": "late"}, headers=bearer(tokens[0]))


def malformed_history(app, client):
    return client.post("/v1/replays", data=b"not a history\n", content_type="application/x-ndjson")


def token_required(app, client):
    game_id, _ = new_race(client)
    return command(client, game_id, None, {"type": "Roll"})


def token_malformed(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}", headers={"Authorization": "Bearer a b"})


def ticket_invalid(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}/events?ticket=not-a-ticket")


def token_not_for_this_game(app, client):
    game_id, _ = new_race(client)
    _, others = new_race(client)
    return client.get(f"/v1/games/{game_id}", headers=bearer(others[0]))


def token_not_for_this_seat(app, client):
    game_id, tokens = new_race(client)
    return client.post(f"/v1/games/{game_id}/seats/1/reclaim", headers=bearer(tokens[0]))


def game_not_finished(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}/history")


def not_found(app, client):
    return client.get("/v1/games/no-such-game")


def method_not_allowed(app, client):
    return client.delete("/v1/games")


def stale_version(app, client):
    game_id, tokens = new_race(client)
    assert command(client, game_id, tokens[0], {"type": "Roll"}).status_code == 200
    return command(client, game_id, tokens[1], {"type": "Acknowledge"}, **{"If-Match": '"1"'})


def seat_taken(app, client):
    game_id, _ = new_race(client, [{"kind": "human"}, {"kind": "open"}])
    return client.post(f"/v1/games/{game_id}/seats/0/claim", json={})


def seat_played_by_bot(app, client):
    game_id, tokens = new_race(client)
    runner = app.extensions["cartel"].runner
    runner.hand_to_bot(runner.load(game_id), 0, "random", "staged by the test")
    return command(client, game_id, tokens[0], {"type": "Roll"})


def nothing_to_reclaim(app, client):
    game_id, tokens = new_race(client)
    return client.post(f"/v1/games/{game_id}/seats/0/reclaim", headers=bearer(tokens[0]))


def game_abandoned(app, client):
    game_id, tokens = new_race(client)
    runner = app.extensions["cartel"].runner
    runner.abandon(runner.load(game_id), now_ms() - 3_600_000, 3600)
    return command(client, game_id, tokens[0], {"type": "Roll"})


def game_archived(app, client):
    game_id, tokens = new_race(client, goal=5)
    play_to_the_end(client, game_id, tokens)
    runner = app.extensions["cartel"].runner
    runner.clock = lambda: now_ms() + 2 * 3600 * 1000  # two hours on: past the policy's hour
    try:
        assert retention.sweep(runner, retention.Policy(abandon_after=3600, archive_after=3600))["archived"] == 1
    finally:
        runner.clock = now_ms
    return command(client, game_id, tokens[0], {"type": "Roll"})


def body_too_large(app, client):
    return client.post("/v1/games", data=json.dumps({"ruleset": "race", "pad": "x" * 70_000}),
                       content_type="application/json")


def unsupported_media_type(app, client):
    return client.post("/v1/games", data="ruleset=race", content_type="text/plain")


def illegal_move(app, client):
    game_id, tokens = new_race(client)
    return command(client, game_id, tokens[1], {"type": "Roll"})  # seat 0 moves first


def option_invalid(app, client):
    return client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2,
                                          "options": {"goal": 7}})


def seat_count_invalid(app, client):
    return client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}]})


def bot_level_invalid(app, client):
    return client.post("/v1/games", json={"ruleset": "race", "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "genius"}]})


def idempotency_key_reused(app, client):
    game_id, tokens = new_race(client)
    assert command(client, game_id, tokens[0], {"type": "Roll"}, **{"Idempotency-Key": "once"}).status_code == 200
    return command(client, game_id, tokens[0], {"type": "Acknowledge"}, **{"Idempotency-Key": "once"})


def version_out_of_range(app, client):
    game_id, tokens = new_race(client, goal=5)
    play_to_the_end(client, game_id, tokens)
    history = client.get(f"/v1/games/{game_id}/history").data
    return client.post("/v1/replays?version=100000", data=history, content_type="application/x-ndjson")


def finished_race(client) -> tuple[str, int]:
    """A finished race and its last version."""
    game_id, tokens = new_race(client, goal=5)
    play_to_the_end(client, game_id, tokens)
    return game_id, client.get(f"/v1/games/{game_id}").json["version"]


def fork_of(client, game_id: str, version: int, seats=None, **extra):
    return client.post("/v1/games", json={"ruleset": "race", "from": {"game": game_id, "version": version},
                                          "seats": seats or [{"kind": "human"}] * 2, **extra})


def fork_seats_mismatch(app, client):
    game_id, _ = finished_race(client)
    return fork_of(client, game_id, 3, seats=[{"kind": "human"}] * 3)


def fork_of_unfinished_game(app, client):
    game_id, _ = new_race(client)
    return fork_of(client, game_id, 2)


def fork_ruleset_mismatch(app, client):
    game_id, _ = finished_race(client)
    return fork_of(client, game_id, 3, ruleset="kingpin")


def fork_version_out_of_range(app, client):
    game_id, last = finished_race(client)
    return fork_of(client, game_id, last)


def rate_limited(app, client):
    app.config.update(RATE_LIMIT_PER_ADDRESS=1, RATE_LIMIT_BURST_SECONDS=1)
    responses = [client.get("/v1/rulesets") for _ in range(3)]
    assert responses[0].status_code == 200
    return responses[-1]


def internal_error(app, client, redis_server):
    fresh = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": RULESETS_HERE})

    def fails():
        raise RuntimeError("a bug")
    fresh.add_url_rule("/v1/staged-bug", "staged_bug", fails)  # the one way to stage a bug: add one
    return fresh.test_client().get("/v1/staged-bug")


def storage_unavailable(app, client, redis_server):
    with socket.socket() as nobody:  # a port nothing listens on: the store is unreachable
        nobody.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{nobody.getsockname()[1]}"
    return create_app({**TEST_SETTINGS, "REDIS_URL": url, "RULESETS": RULESETS_HERE}).test_client().get("/v1/games/x")


def chat_channel_forbidden(app, client):
    game_id, _ = new_race(client)
    return client.get(f"/v1/games/{game_id}/chat?channel=seats")  # a spectator, the seats' channel, mid-game


def chat_rate_limited(app, client):
    game_id, tokens = new_race(client)
    app.config.update(CHAT_PER_MINUTE=1, CHAT_BURST=1)
    chat = [client.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers=bearer(tokens[0])) for _ in range(2)]
    assert chat[0].status_code == 201
    return chat[-1]


def too_many_followers(app, client):
    game_id, _ = new_race(client)
    app.config["SSE_MAX_FOLLOWERS"] = 0
    return client.get(f"/v1/games/{game_id}/events", headers={"Accept": "text/event-stream"})


APP_KEY = "the-platform-s-app-key-for-the-catalogue"


def player_key_of(client, name: str) -> str:
    return client.post("/v1/players", json={"name": name}).json["key"]


def player_header_required(app, client):
    app.config["PLATFORM_APP_KEY"] = APP_KEY
    return client.get("/v1/players/me", headers=bearer(APP_KEY))


def player_key_invalid(app, client):
    return client.get("/v1/players/me", headers=bearer("cp_" + "x" * 43))


def app_key_required(app, client):
    return client.post("/v1/players", json={"name": "Ada", "external_id": "user:1"})


def not_your_seat(app, client):
    game_id, _ = new_race(client)  # anonymous seats: bound to nobody
    return client.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(player_key_of(client, "Ada")))


def invitation_required(app, client):
    body = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}],
                                          "visibility": "private"}).json
    seat0 = bearer(body["seats"][0]["token"])  # a player of the table may read it, but seat 1 needs its invitation
    return client.post(f"/v1/games/{body['id']}/seats/1/claim", headers=seat0)


def player_name_taken(app, client):
    player_key_of(client, "Ada")
    return client.post("/v1/players", json={"name": "ADA"})


def player_not_found(app, client):
    return client.post("/v1/challenges", json={"to": "Nobody", "ruleset": "race"},
                       headers=bearer(player_key_of(client, "Ada")))


def challenge_refused(app, client):
    return client.post("/v1/challenges", json={"to": "Ada", "ruleset": "race"},
                       headers=bearer(player_key_of(client, "Ada")))


def challenge_not_open(app, client):
    ada, bo = player_key_of(client, "Ada"), player_key_of(client, "Bo")
    made = client.post("/v1/challenges", json={"to": "Bo", "ruleset": "race"}, headers=bearer(ada)).json
    client.post(f"/v1/challenges/{made['id']}/decline", headers=bearer(bo))
    return client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bo))


def live_kingpin(client, **table) -> tuple[str, int, int, list[str]]:
    """A Kingpin game between two humans, just started: (id, version, the seat on move, tokens)."""
    body = client.post("/v1/games", json={"ruleset": "kingpin", "seed": "fixed", **table,
                                          "seats": [{"kind": "human"}, {"kind": "human"}]}).json
    tokens = [seat["token"] for seat in body["seats"]]
    game = client.get(f"/v1/games/{body['id']}").json
    return body["id"], game["version"], game["awaiting_seats"][0], tokens


def analyse(client, game_id: str, version: int, seat: int, token: str | None = None):
    return client.post("/v1/analysis", json={"game": game_id, "version": version, "seat": seat},
                       headers=bearer(token) if token else {})


def analysis_not_allowed(app, client):
    game_id, version, seat, tokens = live_kingpin(client)  # a table without `analysis: true`
    return analyse(client, game_id, version, seat, tokens[seat])


def seat_not_awaited(app, client):
    game_id, version, seat, tokens = live_kingpin(client, analysis=True)
    return analyse(client, game_id, version, 1 - seat, tokens[1 - seat])


def seat_out_of_range(app, client):
    game_id, version, seat, tokens = live_kingpin(client, analysis=True)
    return analyse(client, game_id, version, 2, tokens[seat])


def analysis_not_offered(app, client):
    game_id, tokens = new_race(client)  # the engine's test game has no search bot
    return analyse(client, game_id, 1, 0, tokens[0])


def analysis_rate_limited(app, client):
    app.config.update(ANALYSIS_PER_MINUTE=1, ANALYSIS_BURST=1, ANALYSIS_WAIT_SECONDS=0)
    game_id, version, seat, tokens = live_kingpin(client, analysis=True)
    assert analyse(client, game_id, version, seat, tokens[seat]).status_code == 202  # enqueued: no worker here
    moves = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json["legal_moves"]
    command(client, game_id, tokens[seat], moves[0])
    game = client.get(f"/v1/games/{game_id}").json
    on_move = game["awaiting_seats"][0]
    return analyse(client, game_id, game["version"], on_move, tokens[on_move])  # a second search within the minute


FLASK = {name.replace("_", "-"): fn for name, fn in list(globals().items())
         if callable(fn) and getattr(fn, "__module__", None) == __name__ and name.replace("_", "-") in CATALOGUE}
NEEDS_REDIS_SERVER = {"internal-error", "storage-unavailable"}
# code -> (method, path, headers): requests gunicorn refuses before the app sees them
GUNICORN = {"uri-too-long": ("GET", "/v1/games/" + "x" * 5000, {}),
            "header-fields-too-large": ("GET", "/v1/rulesets", {"X-Padding": "x" * 9000}),
            "http-error": ("GET", "/v1/rulesets", {"Expect": "202-accepted"})}
PARAMS = {"malformed-request": "seats.0.kind", "malformed-if-match": "If-Match",
          "malformed-idempotency-key": "Idempotency-Key", "malformed-last-event-id": "Last-Event-ID",
          "resume-beyond-version": "after",
          "token-malformed": "Authorization", "ticket-invalid": "ticket", "option-invalid": "options.goal",
          "seat-count-invalid": "seats", "bot-level-invalid": "seats.2.level",
          "idempotency-key-reused": "Idempotency-Key", "version-out-of-range": "version",
          "entropy-before-commitment": "entropy", "fixed-seed-not-allowed": "seed", "chat-channel-forbidden": "channel",
          "player-header-required": "X-Cartel-Player", "app-key-required": "external_id", "player-name-taken": "name",
          "player-not-found": "to", "challenge-refused": "to", "seat-out-of-range": "seat",
          "fork-seats-mismatch": "seats", "fork-of-unfinished-game": "from.game",
          "fork-ruleset-mismatch": "ruleset", "fork-version-out-of-range": "from.version"}


def check(code: str, status: int, content_type: str, body: dict) -> None:
    entry = CATALOGUE[code]
    assert content_type == "application/problem+json", (code, content_type)
    assert body["code"] == code, (code, body)
    assert body["type"] == f"https://tabletop-cartel.dev/problems/{code}"  # as before the catalogue: stable
    assert status == body["status"] == (entry.status or status), body
    if entry.status is not None:
        assert body["title"] == entry.title, body
    assert body.get("param") == PARAMS.get(code), body
    assert body["detail"], body


@pytest.mark.parametrize("code", sorted(FLASK))
def test_each_code_is_provoked_through_the_api(app, redis_server, code):
    client = app.test_client()
    provoke = FLASK[code]
    response = provoke(app, client, redis_server) if code in NEEDS_REDIS_SERVER else provoke(app, client)
    check(code, response.status_code, response.headers["Content-Type"], response.json)


def test_the_codes_gunicorn_answers_before_the_app(redis_server, tmp_path):
    web = Gunicorn(redis_server.url, tmp_path / "gunicorn.log", workers=1)
    web.start()
    try:
        for code, (method, path, headers) in GUNICORN.items():
            response = requests.request(method, web.url + path, headers=headers, timeout=10)
            check(code, response.status_code, response.headers["Content-Type"], response.json())
        assert response.status_code == 417 and response.json()["title"] == "Expectation Failed"
    finally:
        web.stop()


def test_every_catalogued_code_is_provoked_here():
    assert sorted(set(FLASK) | set(GUNICORN)) == sorted(CATALOGUE)
    assert not set(FLASK) & set(GUNICORN)
    assert set(PARAMS) == {code for code, entry in CATALOGUE.items() if entry.param or entry.param_doc}
    assert all(PARAMS[code] == entry.param for code, entry in CATALOGUE.items() if entry.param)


def test_every_code_the_source_answers_is_catalogued():
    literal = set()
    for path in (ROOT / "service").rglob("*.py"):
        literal |= set(re.findall(r'(?:problem_response|Problem)\(\s*(?:\d{3}|status),\s*"([a-z-]+)"',
                                  path.read_text()))
    literal |= set(TABLE_REFUSALS.values()) | set(HTTP_CODES.values()) | set(GUNICORN_PROBLEM_KINDS.values())
    literal |= {"http-error"}
    assert len(literal) > 30
    assert literal <= set(CATALOGUE), literal - set(CATALOGUE)
    # the domain's kinds that reach HTTP as they are (events/clocks.py GameClosed.kind, events/game.py)
    for path in (ROOT / "events" / "clocks.py", ROOT / "events" / "game.py"):
        assert set(re.findall(r'kind="([a-z-]+)"', path.read_text())) <= set(CATALOGUE)


def test_the_docs_table_lists_exactly_the_catalogue():
    text = (ROOT / "docs" / "errors.md").read_text()
    rows = re.findall(r'^\| <a id="([a-z-]+)"></a>`\1` \| ([^|]+) \| ([^|]+) \|', text, re.M)
    assert [code for code, _, _ in rows] == list(CATALOGUE)
    for code, status, title in rows:
        entry = CATALOGUE[code]
        assert status.strip() == (str(entry.status) if entry.status else "varies"), code
        assert title.strip() == entry.title, code
    assert "errors.md" in (ROOT / "docs" / "api.md").read_text()


def test_the_service_serves_each_code_s_page(client):
    """The path of a problem's type is its page on this server."""
    listing = client.get("/problems")
    assert listing.status_code == 200 and [e["code"] for e in listing.json] == list(CATALOGUE)
    entry = client.get("/problems/seat-taken")
    assert entry.status_code == 200 and entry.json["status"] == 409 and entry.json["type"].endswith("/problems/seat-taken")
    page = client.get("/problems/option-invalid", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.mimetype == "text/html" and "<h1>Invalid game option</h1>" in page.get_data(as_text=True)
    missing = client.get("/problems/no-such-code")
    assert missing.status_code == 404 and missing.json["code"] == "not-found"


def test_the_first_bad_field_is_the_param():
    assert first_param({"seats": {"1": {"level": ["Unknown."]}}, "ruleset": ["Missing."]}) == "seats.1.level"
    assert first_param({"_schema": ["Invalid input."]}) is None
    assert first_param({"_body": ["Invalid JSON body."]}) is None


def test_a_refused_table_names_each_field_it_refuses(client):
    def refused(spec):
        response = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, **spec})
        assert response.status_code == 422, response.json
        return response.json["code"], response.json.get("param")
    assert refused({"options": {"pace": 1}}) == ("option-invalid", "options.pace")
    assert refused({"options": {"goal": 10, "pace": 1}}) == ("option-invalid", "options.pace")
    assert refused({"clock": {"move_seconds": 60, "bot_level": "genius"}}) == ("bot-level-invalid",
                                                                               "clock.bot_level")
    # nothing was created by any of them
    assert client.get("/v1/games").json["total"] == 0
