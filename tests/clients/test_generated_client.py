"""A client generated from openapi.yaml by a standard generator (openapi-python-client, from the dev
lock) plays a whole game of each ruleset against bots, choosing among the typed legal moves, then
exports its history and verifies it, through the generated code only (issue 10 item 5: the spec is one
generated clients can use; issue 25: a Python bot written from the spec alone plays every ruleset)."""
from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

import pytest

from tests.support.processes import database, running_service

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
# A small table of each ruleset: its fewest seats, the options that shorten a game where it has them
TABLES = {
    "kingpin": (2, {"target": 3000, "turn_limit": 25}),
    "druglord": (2, {"game_to": 20}),
    "trafficking": (3, {}),
    "lords_of_cannabis": (2, {}),
    "narcos": (2, {"mode": "basic"}),
}


def table(ruleset: str) -> dict:
    """The CreateGame body: the generated client's seat 0 against greedy bots (they play to win, so a game
    ends in a few hundred commands where random bots take up to a thousand)."""
    seats, options = TABLES[ruleset]
    return {"ruleset": ruleset, "options": options, "seed": f"generated-client-{ruleset}",
            "seats": [{"kind": "human", "name": "generated"}] + [{"kind": "bot", "level": "greedy"}] * (seats - 1)}


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package openapi-python-client makes of the committed spec, imported."""
    out = tmp_path_factory.mktemp("generated")
    run = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(SPEC),
                          "--meta", "none", "--output-path", str(out / "cartel_generated")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("cartel_generated")
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    with running_service(database(redis_server.url, 9), tmp_path_factory.mktemp("generated-server")) as web:
        yield web


def test_every_operation_was_generated_with_its_operation_id(generated):
    api = importlib.import_module("cartel_generated.api")
    for module in ("games.create_game", "games.get_game", "play.send_command", "play.export_history",
                   "replays.verify_replay", "rulesets.get_ruleset_schema", "rulesets.get_ruleset_data"):
        importlib.import_module(f"{api.__name__}.{module}")


@pytest.mark.parametrize("ruleset", list(TABLES))
def test_a_whole_game_of_each_ruleset_exported_and_verified_through_the_generated_client(generated, server, ruleset):
    from cartel_generated import AuthenticatedClient, Client, models
    from cartel_generated.api.games import create_game, get_game
    from cartel_generated.api.play import export_history, send_command
    from cartel_generated.api.replays import verify_replay
    from cartel_generated.models import CommandResult, CreatedGame, Problem, ReplayResult
    from cartel_generated.types import File

    public = Client(base_url=server.url, raise_on_unexpected_status=True)
    # CreateGame, Game and their options, view, moves and outcome are each game's own (a union on `ruleset`)
    create, typed_game = getattr(models, f"{pascal(ruleset)}CreateGame"), getattr(models, f"{pascal(ruleset)}Game")
    created = create_game.sync(client=public, body=create.from_dict(table(ruleset)))
    assert isinstance(created, CreatedGame), created
    seat = AuthenticatedClient(base_url=server.url, token=created.seats[0].token, raise_on_unexpected_status=True)
    choose = random.Random(ruleset)
    sent, literal, deadline = 0, 0, time.monotonic() + 240
    while time.monotonic() < deadline:
        game = get_game.sync(created.id, client=seat)
        assert isinstance(game, typed_game), game
        if game.status == "finished":
            break
        if not game.legal_moves:
            time.sleep(0.05)  # a bot's turn: the worker plays it
            continue
        assert len(game.move_labels) == len(game.legal_moves) and all(game.move_labels)
        # Each move is one of the commands' generated models (the spec's unions), sent as it was read;
        # a move without arguments is sent as the game's own model, built by hand from its type.
        assert not any(isinstance(move, dict) for move in game.legal_moves), game.legal_moves
        move = choose.choice(game.legal_moves)
        if len(move.to_dict()) == 1:
            move = getattr(models, pascal(ruleset) + move.to_dict()["type"]).from_dict(move.to_dict())
            literal += 1
        result = send_command.sync(created.id, client=seat, body=move, if_match=f'"{game.version}"')
        if isinstance(result, Problem):  # a bot moved first (seats awaited at once): read the game again
            assert result.status == 409 and result.code == "stale-version", result
            continue
        assert isinstance(result, CommandResult) and result.version > game.version, result
        sent += 1
    assert game.status == "finished" and sent > 10 and literal > 0, (game.status, sent, literal)
    assert game.you == 0 and isinstance(game.outcome.to_dict()["winners"], list), game.outcome
    # the rules' outcome and the view, as this game's models: the game's own fields typed
    assert type(game.outcome).__name__ == f"{pascal(ruleset)}Result" and game.outcome.text, game.outcome
    assert type(game.view).__name__ == f"{pascal(ruleset)}View", game.view

    history = export_history.sync(created.id, client=public)
    assert isinstance(history, File), history
    text = history.payload.read()
    assert text.startswith(b"{")
    verified = verify_replay.sync(client=public, body=File(payload=BytesIO(text), mime_type="application/x-ndjson"))
    assert isinstance(verified, ReplayResult), verified
    assert verified.valid and verified.complete and verified.events == len(text.splitlines()) - 1
