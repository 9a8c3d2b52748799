"""Export and verify without HTTP (events/history.py): a game with claims, expired clocks, a
hand-over and a reclaim verifies in format 2, and tampering with who controlled a seat fails
verification at the version that was changed."""
from __future__ import annotations

import json

import pytest

from events.history import HISTORY_FORMAT, history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.store import EventStore
from rules.base import Rng
from tests.support.race import RACE

RULESETS = {"race": RACE}
CLOCK = {"move_seconds": 30, "response_seconds": 30, "timeouts_before_bot": 2}


@pytest.fixture
def runner(redis_client):
    return GameRunner(EventStore(redis_client), RULESETS)


def play_out(runner: GameRunner) -> list[dict]:
    """Seat 1 is claimed from the lobby; seat 0's clock runs out twice (a bot takes over), seat 0 is
    reclaimed, and the game is played to its end.  Returns the exported history."""
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "open"}], {"goal": 30}, "hist", CLOCK)
    game = runner.claim_seat(game.id, 1, "token-hash", "Bo")
    for deadline in (1, 2):
        assert 0 in game.awaiting()
        game = runner.expire_clock(game.id, 0, deadline)
        if game.seats[0]["kind"] == "human":  # the clock's default move (after a hand-over the bot moves)
            runner.execute(game.id, 0, RACE.on_timeout(game.state, 0), actor_kind="clock")
            game = runner.load(game.id)
        while 0 not in game.awaiting():
            seat = next(iter(game.awaiting()))
            game = runner.execute(game.id, seat, {"type": "Roll"} if game.awaiting()[seat] == "move"
                                  else {"type": "Acknowledge"}).game
    assert game.seats[0]["kind"] == "bot"
    game = runner.execute(game.id, 0, RACE.bot_move(game.state, 0, "random", Rng("b", 0)), actor_kind="bot").game
    game = runner.reclaim_seat(game.id, 0)
    step = 0
    while game.status != "finished":
        seat = next(iter(game.awaiting()))
        command = RACE.bot_move(game.state, seat, "random", Rng("p", step))
        game, step = runner.execute(game.id, seat, command).game, step + 1
    text = "".join(history_lines(history_header(game), runner.store.read_all(game.id)))
    return parse_history(text)


def test_a_history_with_every_table_command_verifies(runner):
    records = play_out(runner)
    assert records[0]["format"] == HISTORY_FORMAT
    types = [r["type"] for r in records[1:]]
    assert {"SeatClaimed", "ClockExpired", "SeatHandedToBot", "SeatReclaimed"} <= set(types)
    result = verify_history(records, RULESETS)
    assert result["valid"], result
    assert result["events"] == len(records) - 1 and result["outcome"] == records[0]["outcome"]


def tampered(records: list[dict], event_type: str, change) -> tuple[list[dict], int]:
    copy = json.loads(json.dumps(records))
    target = next(r for r in copy[1:] if r["type"] == event_type)
    change(target)
    return copy, target["version"]


@pytest.mark.parametrize("event_type, change, why", [
    ("ClockExpired", lambda r: r["data"].update(timeouts=5), "a forged timeout count"),
    ("SeatHandedToBot", lambda r: r["data"].update(level="slow"), "another bot level than the clock's"),
    ("SeatClaimed", lambda r: r["command"].update(seat=0), "claiming a seat that was not open"),
])
def test_a_forged_table_event_fails_at_its_version(runner, event_type, change, why):
    records, version = tampered(play_out(runner), event_type, change)
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == version, (why, result)


def test_a_move_by_an_actor_that_did_not_control_the_seat_fails(runner):
    # A bot's move relabelled as the human's: the table says a bot controlled that seat then.
    records = play_out(runner)
    bot_move = next(r for r in records[1:] if str(r.get("actor", "")).startswith("bot:"))
    bot_move["actor"] = "seat:" + bot_move["actor"].partition(":")[2]
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == bot_move["version"], result
    assert "does not control" in result["reason"]


def test_format_2_needs_the_expired_clocks_behind_a_hand_over(runner):
    # A format 1 hand-over ({"type": "HandSeatToBot", "seat": 0}: no clock, no level, no reason)
    # does not verify under format 2; format 1 histories are verified by tests/events/test_corpus.py.
    records = play_out(runner)
    hand_over = next(r for r in records[1:] if r["type"] == "SeatHandedToBot")
    batch_start = next(r for r in records[1:] if r["version"] == hand_over["version"] - 1)
    batch_start["command"] = {"type": "HandSeatToBot", "seat": 0}
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == batch_start["version"]
    assert "HandSeatToBot needs 'level'" in result["reason"]
