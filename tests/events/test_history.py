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
from rules.bot_seat import bot_command, bot_key, provenance
from tests.support.corpus import bare
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
    # the bot's move, as a worker makes it: its level's choice from the seat's view and the bot key, recorded so
    move = bot_command(RACE, game.state, 0, "random", bot_key(game.effective_seed), game.version)
    game = runner.execute(game.id, 0, move, actor_kind="bot", bot=provenance("random")).game
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
    assert result["events"] == len(records) - 1 and bare(result["outcome"]) == records[0]["outcome"]


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


# ---- the header is bound to what follows; valid (every event re-derives) is not complete (the whole game)

def edited(records: list[dict], **header) -> list[dict]:
    """A copy whose header has these fields changed (None: removed)."""
    copy = json.loads(json.dumps(records))
    for key, value in header.items():
        if value is None:
            copy[0].pop(key, None)
        else:
            copy[0][key] = value
    return copy


def fields(verdict: dict) -> list[str]:
    return [m["field"] for m in verdict["mismatches"]]


def test_a_whole_history_is_valid_and_complete_and_its_header_vouches_for_everything(runner):
    records = play_out(runner)
    assert records[0]["last_version"] == len(records) - 1 and records[0]["game_id"]
    assert {r["game_id"] for r in records[1:]} == {records[0]["game_id"]}
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"] and verdict["complete"], verdict
    assert verdict["mismatches"] == [] and verdict["unvouched"] == [] and verdict["reason"] is None
    assert "valid and complete" in verdict["summary"]


@pytest.mark.parametrize("outcome", ["as exported", "null"])
@pytest.mark.parametrize("events", [5, 4])  # after StartGame's three events (v3-5), and in the middle of them
def test_a_prefix_is_valid_but_not_complete_and_says_where_it_stops(runner, outcome, events):
    # The report: the first N lines of a finished game's export (with a null outcome in the
    # header, or the header as it was) were "valid" as if they were the game.
    records = play_out(runner)
    prefix = json.loads(json.dumps(records[:events + 1]))
    if outcome == "null":
        prefix[0]["outcome"] = None
    verdict = verify_history(prefix, RULESETS)
    assert verdict["valid"] and not verdict["complete"], verdict
    assert verdict["events"] == events and verdict["diverged_at"] is None and verdict["outcome"] is None
    assert verdict["mismatches"] == [{"field": "last_version", "header": len(records) - 1, "events": events}]
    assert f"stop at version {events}" in verdict["reason"] and "not complete" in verdict["summary"]


def test_a_prefix_with_its_header_edited_to_match_is_valid_but_not_complete(runner):
    records = play_out(runner)
    reclaimed = next(r["version"] for r in records[1:] if r["type"] == "SeatReclaimed")
    cut = next(r["version"] for r in records[1:] if r["version"] > reclaimed + 3 and "command" in r) - 1
    prefix = edited(records[:cut + 1], last_version=cut, outcome=None)
    verdict = verify_history(prefix, RULESETS)
    assert verdict["valid"] and not verdict["complete"], verdict
    assert verdict["mismatches"] == [] and verdict["events"] == cut and verdict["outcome"] is None
    assert f"stop at version {cut}, where the game had not ended" in verdict["reason"]
    assert "outcome" in verdict["unvouched"]  # the header records no end to check the events against


def test_a_header_with_another_games_id_is_not_valid_and_names_the_game_id(runner):
    records = play_out(runner)
    verdict = verify_history(edited(records, game_id="0123456789abcdef"), RULESETS)
    assert not verdict["valid"] and not verdict["complete"], verdict
    assert fields(verdict) == ["game_id"] and verdict["mismatches"][0]["header"] == "0123456789abcdef"
    assert verdict["mismatches"][0]["events"] == records[0]["game_id"] and "game 0123456789abcdef" in verdict["reason"]
    # one line of another game spliced in: refused at its version
    spliced = json.loads(json.dumps(records))
    spliced[4]["game_id"] = "0123456789abcdef"
    verdict = verify_history(spliced, RULESETS)
    assert not verdict["valid"] and verdict["diverged_at"] == 4 and "game_id" in verdict["reason"]


def test_a_dropped_last_line_is_valid_but_not_complete(runner):
    records = play_out(runner)
    last = len(records) - 1
    verdict = verify_history(records[:-1], RULESETS)
    assert verdict["valid"] and not verdict["complete"], verdict
    assert verdict["mismatches"] == [{"field": "last_version", "header": last, "events": last - 1}]
    assert verdict["outcome"] is None and f"stop at version {last - 1}" in verdict["reason"]


@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_duplicated_line_is_not_valid_at_the_version_after_it(runner, where):
    records = play_out(runner)
    at = 7 if where == "middle" else len(records) - 1
    duplicated = records[:at + 1] + [records[at]] + records[at + 1:]
    verdict = verify_history(duplicated, RULESETS)
    assert not verdict["valid"] and not verdict["complete"], verdict
    assert verdict["diverged_at"] == at + 1 and verdict["events"] == at
    assert f"found {at} at position {at + 1}" in verdict["reason"]


@pytest.mark.parametrize("field, value", [("seats", [{"kind": "human"}, {"kind": "human", "name": "Eve"}]),
                                          ("outcome", {"winners": [0], "reason": "forged"}),
                                          ("options", {"goal": 5})])
def test_a_whole_history_whose_header_records_another_end_is_not_valid(runner, field, value):
    records = play_out(runner)
    verdict = verify_history(edited(records, **{field: value}), RULESETS)
    assert not verdict["valid"] and not verdict["complete"], verdict
    assert field in fields(verdict) and field in verdict["reason"]


def test_more_events_than_the_header_vouches_for_is_not_valid(runner):
    records = play_out(runner)
    verdict = verify_history(edited(records, last_version=len(records) - 3), RULESETS)
    assert not verdict["valid"] and fields(verdict) == ["last_version"]


def test_a_prefix_that_cuts_a_table_commands_events_short_is_valid_but_not_complete(runner):
    # ExpireClock's second expiry records ClockExpired then SeatHandedToBot: stop between the two
    records = play_out(runner)
    hand_over = next(r["version"] for r in records[1:] if r["type"] == "SeatHandedToBot")
    prefix = edited(records[:hand_over], last_version=hand_over - 1, outcome=None)
    verdict = verify_history(prefix, RULESETS)
    assert verdict["valid"] and not verdict["complete"] and verdict["mismatches"] == [], verdict
    assert f"the last command's events (from version {hand_over - 1}) are cut short" in verdict["reason"]


def test_a_start_before_every_seat_was_taken_is_not_valid(runner):
    # The verifier asks the runner's rule for when a game starts (events/clocks.py ready_to_start):
    # a forged GameCreated with seat 1 still open, and the setup straight after it, does not verify
    # (it did, as a valid prefix, while only the runner knew the rule).
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 30}, "hist")
    records = parse_history("".join(history_lines(history_header(game), runner.store.read_all(game.id))))
    records[1]["data"]["seats"][1] = {"kind": "open"}
    forged = edited(records, seats=records[1]["data"]["seats"], last_version=len(records) - 1, outcome=None)
    assert forged[2]["command"] == {"type": "StartGame"}
    verdict = verify_history(forged, RULESETS)
    assert not verdict["valid"] and verdict["diverged_at"] == 2, verdict
    assert "StartGame while a seat was still open" in verdict["reason"]
