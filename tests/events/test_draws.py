"""Draws recorded beside the rolls (issue 26, item 2): each command's first stored event carries the
raw draws its stream produced ([bound, value] of every randbelow, docs/fairness.md); they stay out of
every feed a seat reads before the end, the export (format 4) carries them, and verify_history checks
them against the stream the rules draw, naming a tampered draw at its command's version."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from events.history import BOUND_FORMAT, HISTORY_FORMAT, history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner, redact_envelope
from events.store import EventStore, meta_key
from rules import RULESETS
from rules.base import Rng
from rules.druglord.data import REGION_IDS


def export(runner: GameRunner, game_id: str) -> list[dict]:
    game = runner.load(game_id)
    return parse_history("".join(history_lines(history_header(game), runner.store.read_all(game_id))))


@pytest.fixture(scope="module")
def kingpin(redis_server):
    """A 2-seat Kingpin game played to its end by random moves: (its id, the store's client)."""
    client = redis_server.client()
    client.flushall()
    runner = GameRunner(EventStore(client), RULESETS)
    game = runner.create_game("kingpin", [{"kind": "human"}] * 2, {"target": 3000}, "draws-kingpin")
    for step in range(5000):
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        command = game.ruleset.bot_move(game.state, seat, "random", Rng("moves", step))
        game = runner.execute(game.id, seat, command).game
    assert game.status == "finished"
    yield game.id, client
    client.close()


@pytest.fixture
def records(kingpin) -> list[dict]:
    game_id, client = kingpin
    return export(GameRunner(EventStore(client), RULESETS), game_id)


def test_the_set_up_records_its_shuffles_draws_and_no_feed_shows_them(redis_client):
    runner = GameRunner(EventStore(redis_client), RULESETS)
    game = runner.create_game("druglord", [{"kind": "human"}] * 3, {}, "draws-druglord")
    start = next(e for e in runner.store.read_all(game.id) if e.command and e.command["type"] == "StartGame")
    # the draws are the secret deck order: the region deck's shuffle draws bounds 28, 27, ... 2 first
    rng = Rng("draws-druglord", start.version, record=True)
    assert rng.shuffled(REGION_IDS) == start.data["secret"]["deck"]
    assert start.draws[:len(rng.draws)] == rng.draws and len(start.draws) > len(REGION_IDS)
    # ...so no reader's feed carries them (the events feed, SSE and command answers are these dicts)
    for seat in (0, 1, 2, None):
        feed = runner.events_for(runner.load(game.id), seat)
        assert feed and not any("draws" in event or "command" in event for event in feed)
    # a command's answer is its events redacted for the sender: the draws are stored, never answered
    drew = 0
    for step in range(300):
        seat = min(game.awaiting())
        result = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step)))
        game, drew = result.game, drew + bool(result.events[0].draws)
        assert not any("draws" in redact_envelope(game.ruleset, e, seat) for e in result.events)
    assert drew


def test_a_finished_game_exports_format_4_and_every_draw_verifies(records):
    assert records[0]["format"] == HISTORY_FORMAT
    drawn = [r for r in records[1:] if "draws" in r]
    assert drawn and all("command" in r for r in drawn)
    rolled = next(r for r in records[1:] if r["type"] == "DiceRolled")
    assert rolled["draws"] == [[6, die - 1] for die in rolled["data"]["dice"]]  # a die is its draw plus one
    result = verify_history(records, RULESETS)
    assert result["valid"] and result["complete"], result
    assert result["draws"] == sum(len(r["draws"]) for r in drawn)
    assert result["summary"].startswith(f"valid and complete: all {len(records) - 1} events and their "
                                        f"{result['draws']} recorded draws re-derive")


def rolled_command(records: list[dict]) -> dict:
    """The first RollDice whose first event is its DiceRolled, in a copy of the records."""
    return next(r for r in records[1:] if r["type"] == "DiceRolled" and "draws" in r)


def better(die: int) -> int:
    return 6 if die != 6 else 5


def test_a_tampered_draw_is_caught_at_its_commands_version(records):
    target = rolled_command(records)
    target["draws"][0][1] = better(target["draws"][0][1] + 1) - 1
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert result["reason"].startswith(f"draw 1 of the command at version {target['version']} is recorded as "
                                       "randbelow(6) = ")


def test_a_die_forged_with_its_draw_is_caught_at_the_same_version(records):
    target = rolled_command(records)
    target["data"]["dice"][0] = better(target["data"]["dice"][0])
    target["draws"][0][1] = target["data"]["dice"][0] - 1  # a consistent forgery: the event and its draw agree
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert "draw 1 of the command" in result["reason"]


def test_a_die_forged_without_its_draw_is_caught_by_the_rules(records):
    target = rolled_command(records)
    target["data"]["dice"][0] = better(target["data"]["dice"][0])
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert result["reason"].startswith("recorded DiceRolled")


def test_draws_left_out_or_moved_do_not_verify(records):
    target = rolled_command(records)
    draws = target.pop("draws")
    result = verify_history(records, RULESETS)
    assert result["diverged_at"] == target["version"] and "records 0 draws" in result["reason"], result
    later = next(r for r in records[target["version"] + 1:] if "command" not in r)
    later["draws"], target["draws"] = draws, draws
    result = verify_history(records, RULESETS)
    assert result["diverged_at"] == later["version"] and "only on a command's first event" in result["reason"]


def test_a_game_created_before_draws_were_recorded_exports_as_format_3_and_verifies(kingpin):
    game_id, client = kingpin
    client.hdel(meta_key(game_id), "draws")
    try:
        records = export(GameRunner(EventStore(client), RULESETS), game_id)
    finally:
        client.hset(meta_key(game_id), "draws", "recorded")
    assert records[0]["format"] == BOUND_FORMAT
    result = verify_history(records, RULESETS)
    assert result["valid"] and result["complete"] and result["draws"] == 0, result


def test_every_earlier_format_ignores_nothing_it_cannot_check(records):
    # a format 3 header over events that carry draws: draws are format 4's, refused rather than trusted
    records[0]["format"] = BOUND_FORMAT
    result = verify_history(json.loads(json.dumps(records)), RULESETS)
    assert not result["valid"] and "only on a command's first event, in format" in result["reason"]


def test_a_third_partys_script_re_derives_the_draws_from_the_spec_alone(records, tmp_path):
    # docs/examples/check_draws.py imports nothing from the project: run it as a stranger would
    script = Path(__file__).resolve().parents[2] / "docs" / "examples" / "check_draws.py"
    assert "import events" not in script.read_text() and "from rules" not in script.read_text()
    vectors = Path(__file__).resolve().parents[1] / "data" / "rng-vectors.json"
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = subprocess.run([sys.executable, "-I", str(script), str(path), str(vectors)], capture_output=True, text=True,
                         cwd=tmp_path)
    total = sum(len(r.get("draws", ())) for r in records)
    assert run.returncode == 0 and f"recorded draws: {total} draws of" in run.stdout, run
    target = rolled_command(records)
    target["draws"][0][1] = better(target["draws"][0][1] + 1) - 1
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = subprocess.run([sys.executable, "-I", str(script), str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and f"then version {target['version']}: draw 1," in run.stdout, run
