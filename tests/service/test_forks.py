"""Forking a finished game (issue 39 item 5): `POST /v1/games` with `from: {game, version}` starts a new game at
that position of an ended game, with new seats, the original's ruleset, rules version and options, and every
hidden part dealt afresh from the fork's own seed (events/forks.py).  Its history begins with ForkedFrom, which
verification checks against the original's history; a refused fork appends nothing."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from clients.offline import verify_offline
from events import ratings
from events.envelope import Envelope
from events.forks import FORK_DEALT, FORKED_FROM
from events.history import parse_history, verify_history
from events.repository import redact_envelope
from rules.base import PUBLIC
from service.wiring import engine
from tests.service.conftest import bearer

ROOT = Path(__file__).resolve().parents[2]
HUMANS = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]


def play(client, game_id: str, tokens: list[str], commands: int, seed: str) -> None:
    """`commands` random legal moves, each by a seat the game awaits."""
    choose = random.Random(seed)
    for _ in range(commands):
        docs = [client.get(f"/v1/games/{game_id}", headers=bearer(t)).json for t in tokens]
        if docs[0]["status"] != "active":
            return
        seat = choose.choice([s for s, doc in enumerate(docs) if doc["legal_moves"]])
        sent = client.post(f"/v1/games/{game_id}/commands", json=choose.choice(docs[seat]["legal_moves"]),
                           headers=bearer(tokens[seat]))
        assert sent.status_code == 200, sent.json


def finished_game(client, ruleset: str, seed: str = "forked-original", commands: int = 12,
                  **extra) -> tuple[str, list[str], int]:
    """A two-seat game played `commands` random moves, then ended by a resignation: (its id, its tokens, the
    version its first `commands` moves reached, a position of the game in play)."""
    created = client.post("/v1/games", json={"ruleset": ruleset, "seats": HUMANS, "seed": seed, **extra})
    assert created.status_code == 201, created.json
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    play(client, game_id, tokens, commands, seed)
    position = client.get(f"/v1/games/{game_id}").json["version"]
    play(client, game_id, tokens, 3, seed + "+")
    resigned = client.post(f"/v1/games/{game_id}/seats/0/resign", headers=bearer(tokens[0]))
    assert resigned.status_code == 200, resigned.json
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    return game_id, tokens, position


def fork(client, original: str, version: int, seats=HUMANS, ruleset: str = "narcos", headers=None, **extra):
    return client.post("/v1/games", json={"ruleset": ruleset, "from": {"game": original, "version": version},
                                          "seats": seats, **extra}, headers=headers or {})


def history(client, game_id: str) -> list[dict]:
    exported = client.get(f"/v1/games/{game_id}/history")
    assert exported.status_code == 200, exported.get_data(as_text=True)
    return parse_history(exported.get_data(as_text=True))


def test_a_fork_of_a_narcos_game_starts_at_the_position_with_its_hidden_parts_dealt_afresh(app, client):
    original, _, position = finished_game(client, "narcos")
    created = fork(client, original, position, seed="the-fork")
    assert created.status_code == 201, created.json
    assert created.json["forked_from"] == {"game": original, "version": position}
    assert created.json["ruleset"] == "narcos" and created.json["status"] == "active"
    with app.app_context():
        runner = engine().runner
        at = runner.load(original, version=position)
        forked = runner.load(created.json["id"])
        ruleset = forked.ruleset
        # the public view is the original's there; what nobody could see (decks, the others' hands) is dealt anew
        assert json.dumps(ruleset.view(forked.state, None)) == json.dumps(ruleset.view(at.state, None))
        assert forked.state["deck"] != at.state["deck"] and sorted(forked.state["deck"]) == sorted(at.state["deck"])
        assert [p["hand"] for p in forked.state["players"]] != [p["hand"] for p in at.state["players"]]
        assert forked.table["ruleset_version"] == at.table["ruleset_version"]
        # a fork is never rated: the same table, two players bound and the server's seed, is rated but for the fork
        rated = {**forked.table, "seed_source": "server",
                 "seats": [{"kind": "human", "player": "p1"}, {"kind": "human", "player": "p2"}]}
        outcome = {"winners": [0], "reason": "x"}
        assert ratings.result_of(forked.id, "narcos", rated, outcome) is None
        assert ratings.result_of(forked.id, "narcos", {k: v for k, v in rated.items() if k != "fork"}, outcome)
    events = client.get(f"/v1/games/{created.json['id']}/events?after=0").json["events"]
    assert [e["type"] for e in events[:3]] == ["GameCreated", FORKED_FROM, FORK_DEALT]
    assert events[1]["data"]["game"] == original and events[1]["data"]["version"] == position
    assert events[2]["data"] == {}  # the dealt state is nobody's to read in the feed: each seat's view shows its part
    # each seat reads its own hand in its view; and the fork plays on
    tokens = [s["token"] for s in created.json["seats"]]
    for seat, token in enumerate(tokens):
        doc = client.get(f"/v1/games/{created.json['id']}", headers=bearer(token)).json
        assert doc["view"] == json.loads(json.dumps(ruleset.view(forked.state, seat)))
        assert doc["forked_from"] == {"game": original, "version": position}
    assert client.get(f"/v1/games/{original}").json["forked_from"] is None
    play(client, created.json["id"], tokens, 5, "fork-on")
    assert client.get(f"/v1/games/{created.json['id']}").json["version"] > 3


def test_a_fork_of_a_game_without_hidden_information_keeps_the_state_and_draws_nothing(app, client):
    original, _, position = finished_game(client, "kingpin", commands=8)
    created = fork(client, original, position, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                   ruleset="kingpin")
    assert created.status_code == 201, created.json
    with app.app_context():
        runner = engine().runner
        # the very state, its objects' keys in the rules' own order too (which the rules iterate)
        assert json.dumps(runner.load(created.json["id"]).state) == json.dumps(runner.load(original, version=position)
                                                                               .state)
    assert client.get(f"/v1/games/{created.json['id']}/state?version=3").json["view"] == \
        client.get(f"/v1/games/{original}/state?version={position}").json["view"]
    dealt = [e for e in engine_history(app, created.json["id"]) if e.type == FORK_DEALT]
    assert len(dealt) == 1 and not dealt[0].draws


def engine_history(app, game_id: str):
    with app.app_context():
        return list(engine().runner.store.read_all(game_id))


def finished_fork(client, original: str, position: int) -> tuple[str, list[dict]]:
    created = fork(client, original, position, seed="fork-to-verify")
    assert created.status_code == 201, created.json
    tokens = [s["token"] for s in created.json["seats"]]
    play(client, created.json["id"], tokens, 6, "fork-verified")
    assert client.post(f"/v1/games/{created.json['id']}/seats/1/resign", headers=bearer(tokens[1])).status_code == 200
    return created.json["id"], history(client, created.json["id"])


def tampered(records: list[dict], at: int, **data) -> list[dict]:
    out = json.loads(json.dumps(records))
    out[at]["data"].update(data)
    return out


def test_a_forks_history_verifies_against_its_original_and_a_tampered_forked_from_does_not(app, client, tmp_path):
    original, _, position = finished_game(client, "narcos", seed="verified-original")
    fork_id, records = finished_fork(client, original, position)
    origins = {original: history(client, original)}
    rulesets = app.extensions["cartel"].runner.rulesets
    verdict = verify_history(records, rulesets, origins=origins)
    assert verdict["valid"] and verdict["complete"], verdict
    assert verdict["draws"] > 0  # the re-deal's draws on the stream "fork", checked
    # the service finds the original on its own server
    served = client.post("/v1/replays", data="".join(json.dumps(r) + "\n" for r in records),
                         content_type="application/x-ndjson")
    assert served.status_code == 200 and served.json["valid"] and served.json["complete"], served.json
    # offline, with the original's file given (cartel verify --offline FILE --origin ORIGINAL)
    fork_text = client.get(f"/v1/games/{fork_id}/history").get_data()
    original_text = client.get(f"/v1/games/{original}/history").get_data()
    offline = verify_offline(fork_text, "fast", origins=[original_text])
    assert offline.valid and offline.complete, offline.summary
    assert not verify_offline(fork_text, "fast").valid
    # a checker written from docs/fairness.md alone checks the re-deal's draws on the stream "fork"
    path = tmp_path / "fork.jsonl"
    path.write_bytes(fork_text)
    checked = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "check_draws.py"), str(path)],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0 and "a fork's results" in checked.stdout, checked.stdout + checked.stderr
    forked_from = next(n for n, r in enumerate(records) if r.get("type") == FORKED_FROM)
    assert forked_from == 2
    # another position of the original (the command's `from` changed with it), another digest, another state
    start = next(r["version"] for r in origins[original][1:] if r.get("command", {}).get("type") == "StartGame")
    other = max(v for v in range(start, position) if "command" in origins[original][v + 1])
    moved = tampered(records, forked_from, version=other)
    moved[1]["command"]["from"]["version"] = other
    for bad, why in ((moved, "history_digest"),
                     (tampered(records, forked_from, history_digest="0" * 64), "history_digest"),
                     (tampered(records, forked_from, state_digest="0" * 64), "state_digest")):
        verdict = verify_history(bad, rulesets, origins=origins)
        assert not verdict["valid"] and verdict["diverged_at"] == forked_from and why in verdict["reason"], verdict
    # a re-deal that is not the one the fork's seed gives
    dealt = next(n for n, r in enumerate(records) if r.get("type") == FORK_DEALT)
    state = json.loads(records[dealt]["data"]["secret"]["state"])
    state["deck"].reverse()
    verdict = verify_history(tampered(records, dealt, secret={"state": json.dumps(state)}), rulesets, origins=origins)
    assert not verdict["valid"] and verdict["diverged_at"] == dealt, verdict
    # without its original, a fork's start cannot be re-derived: said, not taken on trust
    verdict = verify_history(records, rulesets)
    assert not verdict["valid"] and f"give game {original}'s export" in verdict["reason"], verdict
    # an upload naming any original at all is answered with a verdict, never a 5xx
    for game in ("x" * 5000, "../../etc", "", "\u202e", fork_id):
        forged = tampered(records, forked_from, game=game)
        forged[1]["command"]["from"]["game"] = game
        answer = client.post("/v1/replays", data="".join(json.dumps(r) + "\n" for r in forged),
                             content_type="application/x-ndjson")
        assert answer.status_code == 200 and not answer.json["valid"], answer.json
    # nor with another game's history given as its original
    other, _, _ = finished_game(client, "narcos", seed="another-original")
    verdict = verify_history(records, rulesets, origins={original: history(client, other)})
    assert not verdict["valid"] and verdict["diverged_at"] == forked_from, verdict


def lobby_total(client) -> int:
    return client.get("/v1/games?limit=1").json["total"]


def test_refused_forks_append_nothing(app, client):
    original, tokens, position = finished_game(client, "narcos", seed="refusing-original")
    with app.app_context():
        runner = engine().runner
        last = runner.load(original).version
        envelopes = list(runner.store.read_all(original))
        first_move = next(e.version for e in envelopes if e.command and e.command["type"] not in ("CreateGame",
                                                                                                   "StartGame"))
        # a version after which the same command's events go on
        inside = next(e.version - 1 for e in envelopes if e.version > first_move and e.command is None)
    live = client.post("/v1/games", json={"ruleset": "narcos", "seats": HUMANS}).json
    private = client.post("/v1/games", json={"ruleset": "narcos", "seats": HUMANS, "visibility": "private"}).json
    before = lobby_total(client)
    cases = [
        (fork(client, live["id"], 2), 409, "fork-of-unfinished-game", "from.game"),
        (fork(client, original, last), 422, "fork-version-out-of-range", "from.version"),
        (fork(client, original, last + 5), 422, "fork-version-out-of-range", "from.version"),
        (fork(client, original, 1), 422, "fork-version-out-of-range", "from.version"),  # before the set-up
        (fork(client, original, inside), 422, "fork-version-out-of-range", "from.version"),  # inside a command
        (fork(client, original, position, seats=HUMANS + [{"kind": "human"}]), 400, "fork-seats-mismatch", "seats"),
        (fork(client, original, position, ruleset="kingpin"), 409, "fork-ruleset-mismatch", "ruleset"),
        (fork(client, original, position, options={"mode": "advanced"}), 400, "malformed-request", "options"),
        (fork(client, original, 0), 400, "malformed-request", "from.version"),
        (fork(client, "no-such-game", 3), 404, "not-found", None),
        (fork(client, private["id"], 3), 404, "not-found", None),  # private: as for no game
    ]
    for answer, status, code, param in cases:
        assert answer.status_code == status and answer.json["code"] == code, (status, code, answer.json)
        assert answer.json.get("param") == param, answer.json
    assert lobby_total(client) == before
    with app.app_context():
        assert engine().runner.load(original).version == last
    # the private game's own seat may fork it once it is over (here: its credential reads it, so it is not a 404)
    unfinished = fork(client, private["id"], 3, headers=bearer(private["seats"][0]["token"]))
    assert unfinished.status_code == 409 and unfinished.json["code"] == "fork-of-unfinished-game", unfinished.json


def test_the_dealt_state_is_nobody_s_to_read_in_the_feed_whatever_a_ruleset_says_of_its_secrets():
    """ForkDealt holds every seat's re-dealt hand: the feed strips it for every reader even under a ruleset whose
    visible_to would show a secret it does not know to everyone (it is the engine's event, not the game's)."""

    class Telling:
        title, name = "Telling", "telling"

        @staticmethod
        def visible_to(event):
            return PUBLIC

        @staticmethod
        def narrate(event, names):
            return {"text": json.dumps(event.data), "refs": []}

    dealt = Envelope("g", 3, FORK_DEALT, {"secret": {"state": '{"hands": [[1], [2]]}'}}, "system", 0)
    for seat in (None, 0, 1):
        read = redact_envelope(Telling(), dealt, seat)
        assert read["data"] == {} and "hands" not in json.dumps(read), read
