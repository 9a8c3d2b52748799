"""Analysis over HTTP (issue 39 item 4): POST /v1/analysis, searched by a real RQ worker against a real Redis.

What a seat is told is the served search's own (rules/bot_seat.py `bot_analysis`: the seat's world, the bot
key, the level's fixed budget), so the move it marks is the move a bot of the search level plays there; who
may ask is service/analysis.py's `refusal`; the result is kept (the job's) and a new search pays the analyses'
own rate limit.  Secrecy (the analysis of a live seat is the same whatever the others hold):
tests/service/test_secrecy_by_resampling.py."""
from __future__ import annotations

import random

import pytest
from rq import SimpleWorker

from events.ratings import result_of
from rules import RULESETS
from rules.base import Rng
from rules.bot_seat import bot_command, bot_key
from service.analysis import analysed, analysis_id, job_id
from tests.service.conftest import bearer
from tests.service.test_workers import worker  # noqa: F401  (the fixture: real worker processes)
from tests.support.processes import wait_until

KINGPIN = RULESETS["kingpin"]


@pytest.fixture(autouse=True)
def waiting(app):
    """A request waits for its search long enough for a loaded machine's worker (the default is a few seconds)."""
    app.config.update(ANALYSIS_WAIT_SECONDS=20)


def played(client, moves: int, ruleset: str = "kingpin", seats: int = 2, **table) -> tuple[str, list[str], list]:
    """A game between humans (two-seat Kingpin by default) after `moves` random legal moves: (id, tokens,
    [(version, seat) awaited with a choice of moves])."""
    created = client.post("/v1/games", json={"ruleset": ruleset, "seed": "analysis", **table,
                                             "seats": [{"kind": "human"}] * seats})
    assert created.status_code == 201, created.json
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    choose, choices = random.Random(7), []
    for _ in range(moves):
        doc = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
        seat = doc["awaiting_seats"][0]
        legal = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json["legal_moves"]
        if len(legal) > 1:
            choices.append((doc["version"], seat))
        answer = client.post(f"/v1/games/{game_id}/commands", json=choose.choice(legal), headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.json
    assert choices, "no seat had a choice"
    return game_id, tokens, choices


def finished(client, moves: int = 8) -> tuple[str, list[tuple[int, int]]]:
    """A Kingpin game ended by seat 1's resignation after `moves` moves: (id, awaited positions)."""
    game_id, tokens, choices = played(client, moves)
    resigned = client.post(f"/v1/games/{game_id}/seats/1/resign", headers=bearer(tokens[1]))
    assert resigned.status_code == 200, resigned.json
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    return game_id, choices


def ask(client, game_id: str, version: int, seat: int, token: str | None = None):
    return client.post("/v1/analysis", json={"game": game_id, "version": version, "seat": seat},
                       headers=bearer(token) if token else {})


def test_a_finished_games_seat_is_analysed_by_a_worker_as_its_search_bot_would_play(app, client, worker):  # noqa: F811
    worker()
    game_id, choices = finished(client)
    version, seat = choices[-1]
    answer = ask(client, game_id, version, seat)  # anyone may: the game has ended
    assert answer.status_code == 200, answer.json
    body = answer.json
    assert body["status"] == "done" and body["budget"] == KINGPIN.search_settings.iterations
    game = app.extensions["cartel"].runner.load(game_id, version=version)
    legal = KINGPIN.legal_moves(game.state, seat)
    moves = body["moves"]
    assert sorted(map(str, (m["move"] for m in moves))) == sorted(map(str, legal))  # every legal move, once
    # labelled in the game's words, as the seat's game document labels them
    assert {m["label"] for m in moves} == set(KINGPIN.label(KINGPIN.view(game.state, seat), seat, m, game.names)
                                              for m in legal)
    assert abs(sum(m["share"] for m in moves) - 1) < 1e-9 and sum(m["visits"] for m in moves) > 0
    assert all(m["value"] is None or 0 <= m["value"] <= 1 for m in moves)
    # the first is the move the served search bot plays there, from the seat's knowledge and the bot key
    assert [m["bot_move"] for m in moves] == [True] + [False] * (len(moves) - 1)
    played = bot_command(KINGPIN, game.state, seat, "ismcts", bot_key(game.effective_seed), version)
    assert moves[0]["move"] == played
    # and it is the pure function's answer, computed in the worker's bot process
    assert moves == analysed(KINGPIN, game.state, seat, game.names, bot_key(game.effective_seed), version,
                             body["budget"])


def test_an_analysis_is_searched_once_and_only_a_new_search_pays_its_rate_limit(app, client, worker):  # noqa: F811
    app.config.update(ANALYSIS_PER_MINUTE=1, ANALYSIS_BURST=1)
    game_id, choices = finished(client)
    worker()
    first = ask(client, game_id, *choices[-1])
    assert first.status_code == 200, first.json
    queue = app.extensions["cartel"].queue
    again = ask(client, game_id, *choices[-1])  # kept: answered at once, no job enqueued, no limit paid
    assert again.status_code == 200 and again.json == first.json and len(queue) == 0
    assert client.get(f"/v1/analysis/{first.json['id']}").json == first.json
    other = ask(client, game_id, *choices[0])  # a new search: over ANALYSIS_PER_MINUTE
    assert other.status_code == 429 and other.json["code"] == "analysis-rate-limited", other.json
    assert int(other.headers["Retry-After"]) >= 1 and len(queue) == 0


def test_an_analysis_not_done_in_time_answers_202_and_is_followed_to_its_end(app, client, worker):  # noqa: F811
    app.config.update(ANALYSIS_WAIT_SECONDS=0)
    game_id, choices = finished(client)
    answer = ask(client, game_id, *choices[-1])  # no worker yet: it waits in the queue
    assert answer.status_code == 202 and answer.json["status"] == "queued" and answer.json["moves"] is None
    follow = answer.headers["Location"]
    assert follow == f"/v1/analysis/{answer.json['id']}" and int(answer.headers["Retry-After"]) >= 1
    assert client.get(follow).status_code == 202
    worker()
    done = wait_until(lambda: (r := client.get(follow)).status_code == 200 and r, timeout=60, what="the analysis")
    assert done.json["status"] == "done" and done.json["moves"][0]["bot_move"]


def test_a_live_seat_is_analysed_only_for_its_own_token_at_a_table_that_allows_it(app, client, worker):  # noqa: F811
    worker()
    game_id, tokens, choices = played(client, 6, analysis=True)
    assert client.get(f"/v1/games/{game_id}").json["analysis"] is True
    doc = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
    version, seat = doc["version"], doc["awaiting_seats"][0]
    own = ask(client, game_id, version, seat, tokens[seat])
    assert own.status_code == 200 and own.json["moves"], own.json
    # what the worker served is what the seat's knowledge gives: the same from the game resampled where it cannot see
    game = app.extensions["cartel"].runner.load(game_id, version=version)
    for k in range(2):
        twin = KINGPIN.determinize(game.state, seat, Rng("twin", k))
        assert own.json["moves"] == analysed(KINGPIN, twin, seat, game.names, bot_key(game.effective_seed), version,
                                             own.json["budget"])
    served_labels = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json["move_labels"]
    assert sorted(m["label"] for m in own.json["moves"]) == sorted(served_labels)
    other = ask(client, game_id, version, seat, tokens[1 - seat])
    assert (other.status_code, other.json["code"]) == (403, "token-not-for-this-seat")
    anonymous = ask(client, game_id, version, seat)
    assert (anonymous.status_code, anonymous.json["code"]) == (401, "token-required")
    # following it is checked alike: its id names the seat, and that is not enough
    assert client.get(f"/v1/analysis/{own.json['id']}").status_code == 401
    assert client.get(f"/v1/analysis/{own.json['id']}", headers=bearer(tokens[1 - seat])).status_code == 403
    assert client.get(f"/v1/analysis/{own.json['id']}", headers=bearer(tokens[seat])).json == own.json


def test_what_a_worker_serves_a_live_seat_of_a_game_with_secrets_is_what_its_knowledge_alone_gives(app, client,
                                                                                                  worker):  # noqa: F811
    """Narcos (hands, decks): the served analysis of a seat equals the analysis of the game resampled where that seat
    cannot see (tests/service/test_secrecy_by_resampling.py checks the function over many positions and games)."""
    worker()
    narcos = RULESETS["narcos"]
    game_id, tokens, _ = played(client, 12, ruleset="narcos", seats=3, analysis=True)
    game = app.extensions["cartel"].runner.load(game_id)
    seat = min(game.awaiting())
    served = ask(client, game_id, game.version, seat, tokens[seat])
    assert served.status_code == 200 and served.json["status"] == "done", served.json
    twins = [narcos.determinize(game.state, seat, Rng("twin", k)) for k in range(2)]
    assert any(twin != game.state for twin in twins), "no twin differed: the comparison would prove nothing"
    for twin in twins:
        assert served.json["moves"] == analysed(narcos, twin, seat, game.names, bot_key(game.effective_seed),
                                                game.version, served.json["budget"])


def test_a_live_game_without_analysis_is_refused_and_nothing_is_appended_or_enqueued(app, client):
    game_id, tokens, choices = played(client, 2)
    before = client.get(f"/v1/games/{game_id}").json["version"]
    version, seat = choices[-1]
    refused = ask(client, game_id, version, seat, tokens[seat])
    assert (refused.status_code, refused.json["code"]) == (403, "analysis-not-allowed")
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert client.get(f"/v1/games/{game_id}").json["version"] == before
    assert len(app.extensions["cartel"].queue) == 0


@pytest.mark.parametrize("body, status, code", [
    ({"game": "nosuchgame", "version": 1, "seat": 0}, 404, "not-found"),
    ({"game": "GAME", "version": 10_000, "seat": 0}, 422, "version-out-of-range"),
    ({"game": "GAME", "version": "LAST", "seat": 5}, 422, "seat-out-of-range"),
    ({"game": "GAME", "version": "LAST", "seat": "IDLE"}, 409, "seat-not-awaited"),
    ({"game": "GAME", "version": 1, "seat": 0}, 409, "seat-not-awaited"),  # before the set-up's events
    ({"game": "GAME", "version": 0, "seat": 0}, 400, "malformed-request"),
    ({"game": "GAME", "version": 1}, 400, "malformed-request"),
    ({"game": "GAME", "version": 1.5, "seat": 0}, 400, "malformed-request"),
    ({"game": "GAME", "version": 1, "seat": 0, "budget": 10**6}, 400, "malformed-request"),
])
def test_bad_requests_get_a_problem_and_change_nothing(app, client, body, status, code):
    game_id, choices = finished(client, moves=2)
    game = app.extensions["cartel"].runner.load(game_id)
    last, idle = choices[-1][0], 1 - choices[-1][1]
    body = {k: {"GAME": game_id, "LAST": last, "IDLE": idle}.get(v, v) if isinstance(v, str) else v
            for k, v in body.items()}
    if body.get("seat") == idle:
        assert idle not in app.extensions["cartel"].runner.load(game_id, version=last).awaiting()
    answer = client.post("/v1/analysis", json=body)
    assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert app.extensions["cartel"].runner.load(game_id).version == game.version
    assert len(app.extensions["cartel"].queue) == 0


def test_a_private_tables_game_is_no_game_to_a_stranger_even_once_it_has_ended(app, client):
    app.config.update(ANALYSIS_WAIT_SECONDS=0)
    game_id, tokens, choices = played(client, 2, visibility="private")
    assert client.post(f"/v1/games/{game_id}/seats/1/resign", headers=bearer(tokens[1])).status_code == 200
    stranger = ask(client, game_id, *choices[-1])
    assert (stranger.status_code, stranger.json["code"]) == (404, "not-found")
    unknown = client.post("/v1/analysis", json={"game": "0" * 16, "version": 1, "seat": 0}).json
    assert stranger.json["detail"].replace(game_id, "0" * 16) == unknown["detail"]  # told as no game is
    assert len(app.extensions["cartel"].queue) == 0
    player = ask(client, game_id, *choices[-1], tokens[1])  # a seat of the table: any seat, the game has ended
    assert player.status_code == 202 and len(app.extensions["cartel"].queue) == 1
    assert client.get(f"/v1/analysis/{player.json['id']}").status_code == 404
    assert client.get(f"/v1/analysis/{player.json['id']}", headers=bearer(tokens[0])).status_code == 202


def test_a_game_without_a_search_bot_is_not_analysed(client):
    created = client.post("/v1/games", json={"ruleset": "race", "seed": "x", "seats": [{"kind": "human"}] * 2}).json
    answer = client.post("/v1/analysis", json={"game": created["id"], "version": 1, "seat": 0})
    assert (answer.status_code, answer.json["code"]) == (422, "analysis-not-offered")


def test_an_unknown_analysis_is_not_found(client):
    for name in ("nothing", "abc-1-0-200", "x" * 300):
        answer = client.get(f"/v1/analysis/{name}")
        assert (answer.status_code, answer.json["code"]) == (404, "not-found"), name


def test_a_table_that_allows_analysis_is_never_rated():
    table = {"seed_source": "server", "seats": [{"kind": "human", "player": "a"}, {"kind": "human", "player": "b"}]}
    outcome = {"winners": [0]}
    assert result_of("g", "kingpin", table, outcome) is not None
    assert result_of("g", "kingpin", {**table, "analysis": True}, outcome) is None


def test_a_failed_search_says_so_and_is_searched_again_when_asked_again(app, client):
    """A job that failed (here: one that raises, run by a real RQ worker in burst mode) is answered as `failed`,
    and a new POST enqueues the search again instead of answering the failure for ever."""
    app.config.update(ANALYSIS_WAIT_SECONDS=0)
    game_id, choices = finished(client, moves=2)
    version, seat = choices[-1]
    name = analysis_id(game_id, version, seat, KINGPIN.search_settings.iterations)
    queue = app.extensions["cartel"].queue
    queue.enqueue("builtins.int", "not a number", job_id=job_id(name), failure_ttl=60)
    SimpleWorker([queue], connection=queue.connection).work(burst=True, logging_level="ERROR")
    failed = client.get(f"/v1/analysis/{name}")
    assert failed.status_code == 200 and failed.json["status"] == "failed" and failed.json["moves"] is None
    again = ask(client, game_id, version, seat)
    assert again.status_code == 202 and again.json["status"] == "queued" and len(queue) == 1
