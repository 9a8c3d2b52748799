"""Draws recorded beside the rolls: each command's first stored event carries the draws it made, they
stay out of every feed a seat reads before the end, the export carries them, and verify_history checks
them against the streams the rules draw, naming a tampered draw at its command's version.

Since draw keys (format 5) every draw call is on a stream of its own, labelled by who draws and how
many such calls they made before ("0/dice/3", "world/shuffle/0": rules/base.py KeyedRng), and recorded
as [label, [[bound, value], ...]].  Histories of format 4 (one stream per command, labelled by its
version; tests/data/formats, exported before draw keys) still verify, and so does their format 3 form."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from events.history import (
    BOUND_FORMAT,
    DRAWN_FORMAT,
    HISTORY_FORMAT,
    history_header,
    history_lines,
    parse_history,
    verify_history,
)
from events.runner import GameRunner, redact_envelope
from events.store import EventStore
from rules import RULESETS
from rules.base import Rng
from rules.druglord.data import REGION_IDS

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "check_draws.py"
VECTORS = Path(__file__).resolve().parents[1] / "data" / "rng-vectors.json"
FORMAT_4 = sorted((Path(__file__).resolve().parents[1] / "data" / "formats").glob("*-format4.jsonl.gz"))


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
    # the set-up is the world's: its first call shuffles the region deck on the stream "world/shuffle/0"
    rng = Rng("draws-druglord", "world/shuffle/0", record=True)
    assert rng.shuffled(REGION_IDS) == start.data["secret"]["deck"]
    assert start.draws[0] == ["world/shuffle/0", rng.draws] and start.draws[1][0] == "world/shuffle/1"
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


def test_a_finished_game_exports_format_5_and_every_draw_verifies(records):
    assert records[0]["format"] == HISTORY_FORMAT and records[0]["seed_source"] == "fixed"
    drawn = [r for r in records[1:] if "draws" in r]
    assert drawn and all("command" in r for r in drawn)
    rolled = next(r for r in records[1:] if r["type"] == "DiceRolled")
    seat = rolled["data"]["seat"]
    # a die is its draw plus one, on the roller's own stream of dice, counted from its first roll
    [[label, pairs]] = rolled["draws"]
    assert label.startswith(f"{seat}/dice/") and pairs == [[6, die - 1] for die in rolled["data"]["dice"]]
    result = verify_history(records, RULESETS)
    assert result["valid"] and result["complete"], result
    assert result["draws"] == sum(len(pairs) for r in drawn for _, pairs in r["draws"])
    assert result["summary"].startswith(f"valid and complete: all {len(records) - 1} events and their "
                                        f"{result['draws']} recorded draws re-derive")
    assert "seed_source: fixed" in result["summary"] and result["seed_source"] == "fixed"


def test_each_rollers_streams_are_counted_from_zero_without_a_gap(records):
    seen: dict[str, list[int]] = {}
    for record in records[1:]:
        for label, _ in record.get("draws", ()):
            roller, kind, n = label.rsplit("/", 2)
            seen.setdefault(f"{roller}/{kind}", []).append(int(n))
            assert roller == "world" or record["actor"].endswith(f":{roller}"), record
    assert seen and all(ns == list(range(len(ns))) for ns in seen.values()), seen
    assert {"0/dice", "1/dice"} <= set(seen)


def rolled_command(records: list[dict]) -> dict:
    """The first RollDice whose first event is its DiceRolled, in a copy of the records."""
    return next(r for r in records[1:] if r["type"] == "DiceRolled" and "draws" in r)


def better(die: int) -> int:
    return 6 if die != 6 else 5


def test_a_tampered_draw_is_caught_at_its_commands_version(records):
    target = rolled_command(records)
    pairs = target["draws"][0][1]
    pairs[0][1] = better(pairs[0][1] + 1) - 1
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert result["reason"].startswith(f"draw 1 of the command at version {target['version']} is recorded as "
                                       "randbelow(6) = ")


def test_a_draw_moved_to_another_stream_is_caught(records):
    # the same values on a later stream of the roller (a ground roll): the label is checked, not only the values
    target = rolled_command(records)
    roller, kind, n = target["draws"][0][0].rsplit("/", 2)
    target["draws"][0][0] = f"{roller}/{kind}/{int(n) + 1}"
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert f"recorded on the stream '{roller}/{kind}/{int(n) + 1}'" in result["reason"]


def test_a_die_forged_with_its_draw_is_caught_at_the_same_version(records):
    target = rolled_command(records)
    target["data"]["dice"][0] = better(target["data"]["dice"][0])
    target["draws"][0][1][0][1] = target["data"]["dice"][0] - 1  # a consistent forgery: the event and its draw agree
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
    assert result["diverged_at"] == target["version"] and "records 0 draw calls" in result["reason"], result
    later = next(r for r in records[target["version"] + 1:] if "command" not in r)
    later["draws"], target["draws"] = draws, draws
    result = verify_history(records, RULESETS)
    assert result["diverged_at"] == later["version"] and "only on a command's first event" in result["reason"]


def test_a_format_5_game_passed_off_as_an_earlier_format_does_not_verify(records):
    records[0]["format"] = DRAWN_FORMAT
    result = verify_history(json.loads(json.dumps(records)), RULESETS)
    assert not result["valid"] and result["diverged_at"] == 1 and "draw keys" in result["reason"], result


def format_4(path: Path) -> list[dict]:
    return parse_history(gzip.decompress(path.read_bytes()).decode())


@pytest.mark.parametrize("path", FORMAT_4, ids=[p.name.split("-")[0] for p in FORMAT_4])
def test_a_format_4_history_from_before_draw_keys_still_verifies(path):
    records = format_4(path)
    assert records[0]["format"] == DRAWN_FORMAT and all(
        isinstance(pair[0], int) for r in records[1:] for pair in r.get("draws", ()))
    result = verify_history(records, RULESETS)
    assert result["valid"] and result["complete"] and result["draws"] > 0, result
    # its format 3 form (a game created before draws were recorded): the same events without them
    bound = [dict(records[0], format=BOUND_FORMAT)] + [{k: v for k, v in r.items() if k != "draws"}
                                                         for r in records[1:]]
    result = verify_history(bound, RULESETS)
    assert result["valid"] and result["complete"] and result["draws"] == 0, result


def test_a_tampered_format_4_draw_is_caught_at_its_commands_version():
    records = format_4(FORMAT_4[0])
    target = next(r for r in records[1:] if r.get("draws"))
    target["draws"][0][1] = (target["draws"][0][1] + 1) % target["draws"][0][0]
    result = verify_history(records, RULESETS)
    assert not result["valid"] and result["diverged_at"] == target["version"], result
    assert result["reason"].startswith(f"draw 1 of the command at version {target['version']}")


def test_every_earlier_format_ignores_nothing_it_cannot_check(records):
    # a format 3 header over events that carry draws: draws are formats 4's and 5's, refused rather than trusted
    records[0]["format"] = BOUND_FORMAT
    result = verify_history(json.loads(json.dumps(records)), RULESETS)
    assert not result["valid"] and "only on a command's first event, in formats" in result["reason"]


def check_draws(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", str(SCRIPT), str(path), *args], capture_output=True, text=True,
                          cwd=path.parent)


def test_a_third_partys_script_re_derives_the_draws_from_the_spec_alone(records, tmp_path):
    # docs/examples/check_draws.py imports nothing from the project: run it as a stranger would
    assert "import events" not in SCRIPT.read_text() and "from rules" not in SCRIPT.read_text()
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = check_draws(path, str(VECTORS), "--expect-commitment", records[0]["seed_commitment"].upper())
    total = sum(len(pairs) for r in records for _, pairs in r.get("draws", ()))
    assert run.returncode == 0 and f"recorded draws: {total} draws of" in run.stdout, run
    assert "seed_source: fixed" in run.stdout
    # a commitment other than the one kept at creation: refused before anything else
    run = check_draws(path, "--expect-commitment", "0" * 64)
    assert run.returncode == 1 and "not the one you kept" in run.stdout, run
    target = rolled_command(records)
    target["draws"][0][1][0][1] = better(target["draws"][0][1][0][1] + 1) - 1
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = check_draws(path)
    assert run.returncode == 1 and f"then version {target['version']}, stream {target['draws'][0][0]}: draw 1," \
        in run.stdout, run


def test_the_third_partys_script_refuses_a_skipped_stream(records, tmp_path):
    # a roll moved onto the roller's next stream: the values re-derive there, but a stream was skipped
    target = rolled_command(records)
    label = target["draws"][0][0]
    roller, kind, n = label.rsplit("/", 2)
    target["draws"][0] = [f"{roller}/{kind}/{int(n) + 1}",
                          [[6, Rng("x", 0).randbelow(6)]]]  # any values: the gap is named first
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = check_draws(path)
    assert run.returncode == 1 and "out of turn" in run.stdout, run


def test_the_third_partys_script_checks_a_format_4_history(tmp_path):
    run = check_draws(FORMAT_4[0], str(VECTORS))
    assert run.returncode == 0 and "recorded draws:" in run.stdout and " 0 draws" not in run.stdout, run
