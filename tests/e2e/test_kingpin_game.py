"""A whole Kingpin game, 1 human (this test, through the SDK) + 2 bots (the RQ worker),
on gunicorn + worker + redis-server processes; then exported and verified."""
from __future__ import annotations

import random
import time

from clients.sdk import CartelClient, SeatSpec


def test_a_kingpin_game_with_one_human_and_two_bots_runs_to_its_end_and_verifies(live_server, tmp_path):
    lobby = CartelClient(live_server.url)
    created = lobby.create_game("kingpin", [SeatSpec.human("tester"), SeatSpec.bot("greedy"), SeatSpec.bot("random")],
                                options={"target": 3000}, seed="e2e-kingpin")
    me = lobby.with_token(created.tokens[0])
    choice = random.Random(7)  # the test's own choices; the game's dice come from its seed
    moves_sent, deadline = 0, time.monotonic() + 240
    game = me.game(created.id)
    while not game.finished:
        assert time.monotonic() < deadline, f"game still running at version {game.version}"
        if game.my_turn and game.legal_moves:
            result = me.send_fresh(created.id, lambda g: choice.choice(g.legal_moves) if g.legal_moves else None)
            moves_sent += result is not None
            game = me.game(created.id)
        else:
            game = me.game_if_changed(created.id, game.version) or game
            time.sleep(0.02)
    assert moves_sent > 0
    outcome = game.raw["outcome"]
    assert outcome and outcome["winners"], outcome
    actors = {e.actor.split(":")[0] for e in lobby.iter_events(created.id)}
    assert {"seat", "bot", "system"} <= actors  # the human, the bots and the engine all acted
    path = tmp_path / "kingpin.jsonl"
    assert me.export_history(created.id, path) > 0
    verdict = lobby.verify(path)
    assert verdict.valid, (verdict.diverged_at, verdict.reason)
    followed = list(lobby.follow(created.id))  # the live feed of a finished game replays it all, then ends
    assert [e.version for e in followed] == list(range(1, game.version + 1))
