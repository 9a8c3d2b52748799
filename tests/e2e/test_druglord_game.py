"""Druglord over HTTP on gunicorn + RQ worker + redis-server processes: a game with one human
(this test, through the SDK) and three bots, whose Sway windows are answered by the bots and,
when the human lets them run out, by the clock; and a six-bot game to its end, verified."""
from __future__ import annotations

import random
import time

from clients.sdk import CartelClient, SeatSpec


def wait_for_change(client: CartelClient, game_id: str, version: int, limit: float = 15.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        changed = client.game_if_changed(game_id, version)
        if changed is not None:
            return changed
        time.sleep(0.05)
    raise AssertionError(f"game stuck at version {version}")


def test_one_human_and_three_bots_with_sway_windows_answered_by_bots_and_by_the_clock(live_server):
    lobby = CartelClient(live_server.url)
    created = lobby.create_game("druglord", [SeatSpec.human("tester"), SeatSpec.bot("greedy"), SeatSpec.bot("random"),
                                             SeatSpec.bot("random")], seed="e2e-druglord",
                                clock={"move_seconds": 120, "response_seconds": 1, "timeouts_before_bot": 1000})
    me = lobby.with_token(created.tokens[0])
    choice = random.Random(3)
    # Leave response windows to the clock until it has closed a Sway window for us.  Not a fixed count:
    # the game's path depends on timing (a send_fresh that meets a 409 draws again), and under load the
    # first windows the human meets may be other responses.
    clock_swayed, deadline = False, time.monotonic() + 300
    game = me.game(created.id)
    while not game.finished:
        assert time.monotonic() < deadline, f"still running at version {game.version}"
        waiting = game.awaiting.get(0)
        if waiting == "response" and not clock_swayed:
            before = game.version  # say nothing: the 1 s response clock answers for us
            game = wait_for_change(me, created.id, before)
            clock_swayed = any(e.actor == "clock:0" and e.type == "SwayEnded"
                               for e in lobby.iter_events(created.id, after=before))
        elif waiting and game.legal_moves:
            # Rule 3: everyone loads at once, and a random bot mostly places its Weight one unit per command; on a
            # loaded machine five back-to-back tries once all lost to that burst. Ten tries wait up to 6.5 s in all.
            me.send_fresh(created.id, lambda g: choice.choice(g.legal_moves) if g.legal_moves else None, attempts=10)
            game = me.game(created.id)
        else:
            game = wait_for_change(me, created.id, game.version)
    events = list(lobby.iter_events(created.id))
    by_clock = [e for e in events if e.actor == "clock:0"]
    assert any(e.type == "SwayEnded" for e in by_clock), "the clock never closed a Sway window for the human"
    bot_sway = {e.type for e in events if e.actor.startswith("bot:") and e.type.startswith("Sway")}
    assert bot_sway >= {"SwayEnded"}, bot_sway
    assert any(e.actor == "seat:0" for e in events) and game.raw["outcome"]["winners"]
    assert lobby.verify(lobby.history(created.id)).valid


def test_a_six_seat_game_between_bots_runs_to_its_end_and_verifies(live_server):
    lobby = CartelClient(live_server.url)
    levels = ["greedy", "random", "greedy", "random", "greedy", "random"]
    created = lobby.create_game("druglord", [SeatSpec.bot(level) for level in levels], seed="six-bots")
    deadline = time.monotonic() + 300
    game = lobby.game(created.id)
    while not game.finished:
        assert time.monotonic() < deadline, f"still running at version {game.version}"
        game = wait_for_change(lobby, created.id, game.version, limit=30)
    outcome = game.raw["outcome"]
    assert len(outcome["winners"]) == 1 and max(outcome["scores"]) >= 20  # Rule 12: someone reached 20
    verdict = lobby.verify(lobby.history(created.id))
    assert verdict.valid and verdict.events == game.version, (verdict.diverged_at, verdict.reason)
