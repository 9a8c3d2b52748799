"""Narcos over HTTP on gunicorn + RQ worker + redis-server processes, in both modes: one human (this test,
through the SDK) against a greedy and two random bots, to the end; the history is exported and verified."""
from __future__ import annotations

import random
import time

import pytest

from clients.sdk import CartelClient, SeatSpec

ENDINGS = ("EndActions", "CollectSales", "PassImprovement", "PassBuy", "PassSale", "Stop", "PlayOn")


def wait_for_change(client: CartelClient, game_id: str, version: int, limit: float = 20.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        changed = client.game_if_changed(game_id, version)
        if changed is not None:
            return changed
        time.sleep(0.05)
    raise AssertionError(f"game stuck at version {version}")


def human_choice(rng: random.Random):
    """Any legal move, leaning toward finishing each step (a person does not dither for ever)."""
    def choose(game):
        moves = game.legal_moves
        if not moves:
            return None
        ending = [m for m in moves if m["type"] in ENDINGS]
        return rng.choice(ending) if ending and rng.random() < 0.4 else rng.choice(moves)
    return choose


@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_one_human_and_three_bots_play_narcos_to_the_end_and_the_history_verifies(live_server, mode):
    lobby = CartelClient(live_server.url)
    created = lobby.create_game("narcos", [SeatSpec.human("tester"), SeatSpec.bot("greedy"), SeatSpec.bot("random"),
                                           SeatSpec.bot("random")], options={"mode": mode}, seed=f"e2e-narcos-{mode}")
    me = lobby.with_token(created.tokens[0])
    choose, deadline = human_choice(random.Random(mode)), time.monotonic() + 240
    game, checked_view = me.game(created.id), False
    while not game.finished:
        assert time.monotonic() < deadline, f"still running at version {game.version}"
        if not checked_view:  # my Cartel hand is mine alone; the others' are counts; the deck order is nobody's
            players = game.raw["view"]["players"]
            assert "hand" in players[0] and all("hand" not in p for p in players[1:])
            assert "deck" not in game.raw["view"] and game.raw["view"]["mode"] == mode
            checked_view = True
        if game.awaiting.get(0) and game.legal_moves:
            me.send_fresh(created.id, choose)
            game = me.game(created.id)
        else:
            game = wait_for_change(me, created.id, game.version)
    events = list(lobby.iter_events(created.id))
    assert any(e.actor == "seat:0" and e.type == "CardDrawn" for e in events)
    assert any(e.actor.startswith("bot:") and e.type == "Delivered" for e in events)
    assert sum(e.type == "DeckShuffled" for e in events) == 2  # Round 1, then Round 2 to its end
    assert events[-1].type == "GameEnded" and game.raw["outcome"]["winners"]
    verdict = lobby.verify(lobby.history(created.id))
    assert verdict.valid and verdict.events == game.version, (verdict.diverged_at, verdict.reason)
