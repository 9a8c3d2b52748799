"""`cartel verify --offline FILE` (issue 26, item 4): the package's own rules, run locally, give the
verdict POST /v1/replays gives, word for word: over the whole recorded corpus, over tampered copies
of it, and over a format 4 export whose die was forged with its draw.  The offline runs point the CLI
at a port nothing listens on: no server is asked."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from clients.cli import main, verify_offline
from rules import RULESETS
from rules.base import Rng
from service import create_app
from tests.support.settings import TEST_SETTINGS

CORPUS = sorted((Path(__file__).resolve().parents[1] / "data" / "histories").glob("*.jsonl.gz"))
NOWHERE = "http://127.0.0.1:9"  # discard port: a CLI that tried the network would fail with exit 3


@pytest.fixture(scope="module")
def app(redis_server):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": RULESETS, "TESTING": True})
    yield app
    app.extensions["cartel"].hub.close()


def served(app, body: bytes) -> dict:
    response = app.test_client().post("/v1/replays", data=body, content_type="application/x-ndjson")
    assert response.status_code == 200, response.json
    return response.json


def tampered(text: str) -> str:
    """A copy with the middle event's data forged (one more key than the rules wrote)."""
    lines = text.splitlines()
    middle = json.loads(lines[len(lines) // 2])
    middle["data"]["forged"] = 1
    lines[len(lines) // 2] = json.dumps(middle)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", CORPUS, ids=[p.name.split(".")[0] for p in CORPUS])
def test_the_offline_verdict_is_the_services_over_the_corpus_and_a_tampered_copy(app, path):
    text = gzip.decompress(path.read_bytes()).decode()
    for body in (text.encode(), tampered(text).encode()):
        offline = verify_offline(body).raw
        assert offline == served(app, body)
    assert offline["valid"] is False and offline["diverged_at"] == len(text.splitlines()) // 2


@pytest.fixture(scope="module")
def exported(app) -> str:
    """A Kingpin game played to its end through the service's runner, exported by GET .../history."""
    runner = app.extensions["cartel"].runner
    game = runner.create_game("kingpin", [{"kind": "human"}] * 2, {"target": 3000}, "offline-kingpin")
    for step in range(5000):
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("o", step))).game
    response = app.test_client().get(f"/v1/games/{game.id}/history")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def forge_a_die(text: str) -> tuple[str, int]:
    """The first rolled die raised, and its recorded draw with it (a forger who read the spec)."""
    lines = text.splitlines()
    n, record = next((n, json.loads(line)) for n, line in enumerate(lines)
                     if '"DiceRolled"' in line and '"draws"' in line)
    record["data"]["dice"][0] = 6 if record["data"]["dice"][0] != 6 else 5
    record["draws"][0][1][0][1] = record["data"]["dice"][0] - 1
    lines[n] = json.dumps(record)
    return "\n".join(lines) + "\n", record["version"]


def test_a_forged_die_is_caught_offline_at_the_services_version(app, exported, tmp_path, capsys):
    assert json.loads(exported.splitlines()[0])["format"] == "tabletop-cartel-history/5"
    assert verify_offline(exported.encode()).raw == served(app, exported.encode())
    forged, version = forge_a_die(exported)
    offline, service = verify_offline(forged.encode()).raw, served(app, forged.encode())
    assert offline == service and service["diverged_at"] == version and not service["valid"]

    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    assert main(["--url", NOWHERE, "verify", "--offline", str(path)]) == 1
    assert capsys.readouterr().out == (f"INVALID, not complete: diverged at version {version}: "
                                       f"{service['reason']}\n")
    path.write_text(exported)
    assert main(["--url", NOWHERE, "verify", "--offline", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == served(app, exported.encode())


def test_a_file_the_service_refuses_is_refused_offline_in_its_words(app, tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"format": "tabletop-cartel-history/4"}\n\xff\n')
    problem = app.test_client().post("/v1/replays", data=path.read_bytes(), content_type="application/x-ndjson")
    assert problem.status_code == 400
    assert main(["--url", NOWHERE, "verify", "--offline", str(path)]) == 2
    # the server's title and detail, word for word (the title once differed: "Malformed request")
    assert problem.json["title"] == "Malformed history"
    assert f"error: 400 {problem.json['title']}: {problem.json['detail']}" in capsys.readouterr().err


def test_a_re_seeded_forgery_verifies_by_itself_and_is_refused_against_the_kept_commitment(app, exported, tmp_path,
                                                                                            capsys):
    # A forger replays the whole game under a seed of their own (a new commitment, every draw recomputed):
    # the file is consistent with itself, so only the commitment the players were shown can refuse it.
    runner = app.extensions["cartel"].runner
    real = json.loads(exported.splitlines()[0])
    other = runner.create_game("kingpin", [{"kind": "human"}] * 2, {"target": 3000}, "the forger's own seed")
    for step in range(5000):
        if other.status == "finished":
            break
        seat = min(other.awaiting())
        other = runner.execute(other.id, seat, other.ruleset.bot_move(other.state, seat, "random",
                                                                        Rng("o", step))).game
    forged = app.test_client().get(f"/v1/games/{other.id}/history").get_data(as_text=True).replace(
        other.id, real["game_id"])
    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    assert main(["--url", NOWHERE, "verify", "--offline", str(path)]) == 0  # valid and complete by itself
    capsys.readouterr()
    code = main(["--url", NOWHERE, "verify", "--offline", str(path), "--expect-commitment", real["seed_commitment"]])
    out = capsys.readouterr().out
    assert code == 1 and "INVALID" in out and "not to " in out and real["seed_commitment"] in out
    served_verdict = app.test_client().post(f"/v1/replays?expect_commitment={real['seed_commitment']}",
                                            data=forged.encode(), content_type="application/x-ndjson").json
    assert not served_verdict["valid"] and served_verdict["mismatches"][0]["field"] == "seed_commitment"
    # the commitment this machine kept when it created the game (the CLI's file) is used without asking
    from clients.cli import KeptCommitments
    kept = KeptCommitments.load()
    kept[real["game_id"]] = real["seed_commitment"]
    assert main(["--url", NOWHERE, "verify", "--offline", str(path)]) == 1
    assert "not to " in capsys.readouterr().out
