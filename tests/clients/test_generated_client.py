"""A client generated from openapi.yaml by a standard generator (openapi-python-client, from the dev
lock) plays a whole Kingpin game against a bot, exports its history and verifies it, through the
generated code only (issue 10 item 5: the spec is one generated clients can use)."""
from __future__ import annotations

import importlib
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

import pytest

from tests.support.processes import database, running_service

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
GAME = {"ruleset": "kingpin", "seats": [{"kind": "human", "name": "generated"}, {"kind": "bot", "level": "random"}],
        "options": {"target": 3000, "turn_limit": 25}, "seed": "generated-client"}


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


def test_a_whole_kingpin_game_exported_and_verified_through_the_generated_client(generated, server):
    from cartel_generated import AuthenticatedClient, Client
    from cartel_generated.api.games import create_game, get_game
    from cartel_generated.api.play import export_history, send_command
    from cartel_generated.api.replays import verify_replay
    from cartel_generated.models import CreatedGame, CreateGame, Game, KingpinRollDice, ReplayResult
    from cartel_generated.types import File

    public = Client(base_url=server.url, raise_on_unexpected_status=True)
    created = create_game.sync(client=public, body=CreateGame.from_dict(GAME))
    assert isinstance(created, CreatedGame), created
    seat = AuthenticatedClient(base_url=server.url, token=created.seats[0].token, raise_on_unexpected_status=True)
    sent, deadline = 0, time.monotonic() + 120
    while time.monotonic() < deadline:
        game = get_game.sync(created.id, client=seat)
        assert isinstance(game, Game), game
        if game.status == "finished":
            break
        if not game.legal_moves:
            time.sleep(0.05)  # the bot's turn: the worker plays it
            continue
        assert len(game.move_labels) == len(game.legal_moves) and all(game.move_labels)
        # once a move with arguments (a purchase: posted as listed); else the last listed move, which
        # rolls, then ends the turn: a short game.  Each move is one of the commands' generated models
        # (the spec's unions), sent as it was read; a roll is sent as a model built by hand.
        assert not any(isinstance(move, dict) for move in game.legal_moves), game.legal_moves
        first = game.legal_moves[0]
        move = first if sent == 0 and len(first.to_dict()) > 1 else game.legal_moves[-1]
        if move.to_dict() == {"type": "RollDice"}:
            move = KingpinRollDice.from_dict({"type": "RollDice"})
        result = send_command.sync(created.id, client=seat, body=move, if_match=f'"{game.version}"')
        assert result.version > game.version, result
        sent += 1
    assert game.status == "finished" and sent > 10

    history = export_history.sync(created.id, client=public)
    assert isinstance(history, File), history
    text = history.payload.read()
    assert text.startswith(b"{")
    verified = verify_replay.sync(client=public, body=File(payload=BytesIO(text), mime_type="application/x-ndjson"))
    assert isinstance(verified, ReplayResult), verified
    assert verified.valid and verified.events == len(text.splitlines()) - 1
