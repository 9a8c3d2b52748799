"""Lords of Cannabis over HTTP on gunicorn + RQ worker + redis-server processes: one human (this test,
through the SDK, playing its seat by the legal moves it is shown) and three bots, played to the end,
with offers between players accepted and declined by the clock, then exported and verified."""
from __future__ import annotations

import random
import time

from clients.sdk import CartelClient, SeatSpec

BUILDS = ("BuildPlantation", "BuildGreenhouse")


def wait_for_change(client: CartelClient, game_id: str, version: int, limit: float = 20.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        changed = client.game_if_changed(game_id, version)
        if changed is not None:
            return changed
        time.sleep(0.05)
    raise AssertionError(f"game stuck at version {version}")


def human_move(game, choice: random.Random, offered: list) -> dict:
    """How the test plays seat 0: build when it can, roll, offer a trade now and then, otherwise anything but
    another offer (ending the turn one time in three)."""
    moves = game.legal_moves
    types = {m["type"] for m in moves}
    builds = [m for m in moves if m["type"] in BUILDS]
    if builds:
        return choice.choice(builds)
    if "Roll" in types:
        return {"type": "Roll"}
    if "AcceptOffer" in types:
        return next(m for m in moves if m["type"] == "AcceptOffer")
    offers = [m for m in moves if m["type"] == "MakeOffer"]
    if offers and len(offered) < 6 and not game.raw["view"]["offers"] and choice.random() < 0.3:
        offered.append(game.version)
        return choice.choice(offers)
    if "EndTurn" in types and choice.random() < 0.34:
        return {"type": "EndTurn"}
    return choice.choice([m for m in moves if m["type"] not in ("MakeOffer", "OfferToAll", "CounterOffer")])


def play_one_game(lobby: CartelClient, seed: str) -> tuple[list, object]:
    """One game to its end, the test playing seat 0 and letting its first offer go to the clock; its events
    and final game, after checking its exported history verifies."""
    created = lobby.create_game("lords_of_cannabis", [SeatSpec.human("tester"), SeatSpec.bot("greedy"),
                                                      SeatSpec.bot("greedy"), SeatSpec.bot("random")],
                                seed=seed,
                                clock={"move_seconds": 120, "response_seconds": 1, "timeouts_before_bot": 1000})
    me = lobby.with_token(created.tokens[0])
    choice, offered = random.Random(seed), []
    left_to_the_clock, deadline = 1, time.monotonic() + 200
    game = me.game(created.id)
    while not game.finished:
        assert time.monotonic() < deadline, f"still running at version {game.version}"
        waiting = game.awaiting.get(0)
        addressed = any(m["type"] == "DeclineOffer" for m in game.legal_moves)
        if waiting == "response" and addressed and left_to_the_clock:
            left_to_the_clock -= 1  # say nothing: the 1 s response clock declines for us
            game = wait_for_change(me, created.id, game.version)
        elif waiting and game.legal_moves:
            me.send_fresh(created.id, lambda g: human_move(g, choice, offered) if g.legal_moves else None)
            game = me.game(created.id)
        else:
            game = wait_for_change(me, created.id, game.version)
    winner = game.raw["outcome"]["winners"][0]
    assert game.raw["outcome"]["points"][winner] >= 10        # Winning the Game: "at least TEN Victory Points"
    verdict = lobby.verify(lobby.history(created.id))
    assert verdict.valid and verdict.events == game.version, (verdict.diverged_at, verdict.reason)
    return list(lobby.iter_events(created.id)), game


def test_one_human_and_three_bots_trade_and_play_to_the_end(live_server):
    # Whether a bot happens to address the human depends on how the game goes (the human's moves follow the
    # states it is shown, which depend on timing), so games are played until both have been seen, at most 4.
    lobby = CartelClient(live_server.url)
    events: list = []
    for n in range(4):
        played, game = play_one_game(lobby, f"e2e-cannabis-{n}")
        events += played
        assert any(e.actor == "seat:0" for e in played) and game.raw["outcome"]["winners"]
        if any(e.type == "OfferDeclined" and e.actor == "clock:0" for e in events) and \
                any(e.type == "OfferAccepted" for e in events):
            break
    declined_by_clock = [e for e in events if e.type == "OfferDeclined" and e.actor == "clock:0"]
    assert declined_by_clock, "the clock never declined an offer for the silent human"
    assert any(e.type == "OfferAccepted" for e in events), "no trade between players was accepted"
    assert any(e.type == "StashTraded" for e in events)
