"""Seeds the players help make (issue 26, item 3): the creator and each seat claimed from the lobby may
send their own entropy; it is recorded publicly in GameCreated and SeatClaimed, and from the game's
start every stream is keyed by the effective seed (docs/fairness.md, section 1): the committed server
seed mixed with every contribution.  The export carries every part, verify_history re-mixes them and
names a changed contribution where it changes something.  A game whose seats send nothing is the game
it always was."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from events.history import history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.seeds import ENTROPY_MAX, effective_seed, mix
from events.store import EventStore
from rules import RULESETS
from rules.base import IllegalMove, Rng, seed_commitment

SEED = "entropy-server-seed"
CREATOR, FIRST, SECOND = "the creator's coin: heads", "dé 🎲 4", "x" * ENTROPY_MAX


def spec_mix(seed: str, parts: list[str]) -> str:
    """docs/fairness.md section 1, read literally with the standard library."""
    if not parts:
        return seed
    message = b"".join(len(p.encode()).to_bytes(8, "big") + p.encode() for p in parts)
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


def export(runner: GameRunner, game_id: str) -> list[dict]:
    game = runner.load(game_id)
    return parse_history("".join(history_lines(history_header(game), runner.store.read_all(game_id))))


def play_out(runner: GameRunner, game):
    for step in range(5000):
        if game.status == "finished":
            return game
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step))).game
    raise AssertionError("the game did not finish")


@pytest.fixture
def runner(redis_client) -> GameRunner:
    return GameRunner(EventStore(redis_client), RULESETS)


def contributed_game(runner: GameRunner, ruleset: str = "kingpin", options: dict | None = None):
    """Two open seats: the creator sends entropy, then each claimer does; the second claim starts it."""
    game = runner.create_game(ruleset, [{"kind": "open"}] * 2, options or {}, SEED, entropy=CREATOR)
    runner.claim_seat(game.id, 1, "t1", name="Bea", entropy=FIRST)
    return runner.claim_seat(game.id, 0, "t0", entropy=SECOND)


def test_the_mixing_rule_is_the_specs_and_keeps_parts_apart():
    assert mix(SEED, []) == SEED  # nobody sent anything: the server's seed, as before
    for parts in ([CREATOR], [CREATOR, FIRST, SECOND], ["ab", "c"], ["a", "bc"]):
        assert mix(SEED, parts) == spec_mix(SEED, parts) != SEED
    assert mix(SEED, ["ab", "c"]) != mix(SEED, ["a", "bc"]) != mix(SEED, ["abc"])  # the length prefixes
    assert mix(SEED, [FIRST, SECOND]) != mix(SEED, [SECOND, FIRST])  # the order is the history's


def test_every_contribution_is_recorded_and_the_set_up_draws_from_the_mixed_seed(runner):
    # Druglord's set-up shuffles its 28-region deck first: a stream keyed by another seed gives another deck
    game = contributed_game(runner, "druglord")
    assert game.status == "active"
    stored = list(runner.store.read_all(game.id))
    created, claim1, claim0, start = stored[0], stored[1], stored[2], stored[3]
    assert created.data["entropy"] == CREATOR and created.data["seed_commitment"] == seed_commitment(SEED)
    assert (claim1.type, claim1.data, claim1.command) == (
        "SeatClaimed", {"seat": 1, "name": "Bea", "entropy": FIRST},
        {"type": "ClaimSeat", "seat": 1, "name": "Bea", "entropy": FIRST})
    assert claim0.data == {"seat": 0, "entropy": SECOND}
    assert game.table["entropy"] == [{"by": "creator", "entropy": CREATOR}, {"by": "seat:1", "entropy": FIRST},
                                     {"by": "seat:0", "entropy": SECOND}]
    mixed = spec_mix(SEED, [CREATOR, FIRST, SECOND])
    assert game.effective_seed == mixed and game.seed == SEED  # the commitment stays the server seed's

    assert start.command == {"type": "StartGame"}
    rng = Rng(mixed, start.version, record=True)
    setup = game.ruleset.setup(game.options, 2, rng)
    assert [(e.type, e.data) for e in setup] == [(e.type, json.loads(json.dumps(e.data))) for e in stored[3:]]
    assert start.draws == rng.draws
    server_only = Rng(SEED, start.version, record=True)
    game.ruleset.setup(game.options, 2, server_only)
    assert server_only.draws[:27] != rng.draws[:27]  # the deck is not the server seed's alone


def test_a_game_with_contributions_verifies_and_a_changed_contribution_is_named(runner):
    game = play_out(runner, contributed_game(runner, "kingpin", {"target": 3000}))
    records = export(runner, game.id)
    header = records[0]
    assert header["seed"] == SEED and header["seed_commitment"] == seed_commitment(SEED)
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict
    start = next(r for r in records[1:] if r.get("command", {}).get("type") == "StartGame")["version"]
    assert start == 4

    # every later command's draws come from the mixed seed's streams, which the spec re-derives
    mixed = spec_mix(SEED, [CREATOR, FIRST, SECOND])
    for record in (r for r in records[1:] if r.get("draws")):
        rng = Rng(mixed, record["version"])
        assert [[n, rng.randbelow(n)] for n, _ in record["draws"]] == record["draws"]

    def changed(edit) -> dict:
        copy = json.loads(json.dumps(records))
        edit(copy)
        return verify_history(copy, RULESETS)

    # a claim's recorded entropy alone: the table, re-deciding the ClaimSeat, gives the one it was sent
    def event_only(copy):
        copy[2]["data"]["entropy"] = "something else"
    verdict = changed(event_only)
    assert not verdict["valid"] and verdict["diverged_at"] == 2 and "the table gives" in verdict["reason"], verdict

    # the claim's command and event both: the claim re-decides, but the set-up's first draw does not
    def claim_both(copy):
        copy[2]["data"]["entropy"] = copy[2]["command"]["entropy"] = "something else"
    verdict = changed(claim_both)
    assert not verdict["valid"] and verdict["diverged_at"] == start, verdict
    # (a die of the mixed seed's stream may match the other's by chance: the first that does not is named)
    assert re.search(rf"draw \d+ of the command at version {start} is recorded as", verdict["reason"])

    # the creator's, changed or dropped: the same, at the set-up
    def creator_changed(copy):
        copy[1]["data"]["entropy"] = CREATOR + "!"

    def creator_dropped(copy):
        del copy[1]["data"]["entropy"]
    for edit in (creator_changed, creator_dropped):
        verdict = changed(edit)
        assert not verdict["valid"] and verdict["diverged_at"] == start, verdict

    # a contribution no seat could have sent (a control character) is refused where it is recorded
    def creator_refused(copy):
        copy[1]["data"]["entropy"] = "bell\a"
    verdict = changed(creator_refused)
    assert verdict["diverged_at"] == 1 and "entropy" in verdict["reason"], verdict


def test_a_game_without_contributions_is_the_game_it_always_was(runner):
    game = runner.create_game("druglord", [{"kind": "open"}, {"kind": "human"}], {}, SEED)
    game = runner.claim_seat(game.id, 0, "t0", name="Ann")
    stored = list(runner.store.read_all(game.id))
    assert "entropy" not in stored[0].data and stored[1].data == {"seat": 0, "name": "Ann"}
    assert stored[1].command == {"type": "ClaimSeat", "seat": 0, "name": "Ann"}
    assert "entropy" not in game.table and effective_seed(SEED, game.table) == game.effective_seed == SEED
    # the set-up is exactly the rules' set-up from Rng(server seed, its version), as before contributions
    rng = Rng(SEED, 3, record=True)
    setup = game.ruleset.setup(game.options, 2, rng)
    assert [(e.type, json.loads(json.dumps(e.data))) for e in setup] == [(e.type, e.data) for e in stored[2:]]
    assert stored[2].draws == rng.draws


@pytest.mark.parametrize("entropy", ["", "x" * (ENTROPY_MAX + 1), "line\nbreak", "\u202eevil", "\ud800", 7])
def test_a_contribution_the_spec_refuses_appends_nothing(runner, entropy):
    with pytest.raises(IllegalMove):
        runner.create_game("kingpin", [{"kind": "open"}] * 2, {}, SEED, entropy=entropy)
    game = runner.create_game("kingpin", [{"kind": "open"}] * 2, {}, SEED)
    with pytest.raises(IllegalMove) as refused:
        runner.claim_seat(game.id, 0, "t0", entropy=entropy)
    assert "entropy" in refused.value.reason
    after = runner.load(game.id)
    assert after.version == game.version and after.seats[0]["kind"] == "open"


def test_contributions_come_only_before_the_start(runner):
    game = contributed_game(runner)
    # the table refuses a claim of a seat that is not open: no contribution after the start
    with pytest.raises(IllegalMove):
        runner.claim_seat(game.id, 0, "t-late", entropy="late")
    after = runner.load(game.id)
    assert after.version == game.version and after.effective_seed == spec_mix(SEED, [CREATOR, FIRST, SECOND])


def test_the_third_partys_script_mixes_the_contributions_from_the_spec_alone(runner, tmp_path):
    # docs/examples/check_draws.py (standard library only) on a game with every seat's entropy
    game = play_out(runner, contributed_game(runner, "kingpin", {"target": 3000}))
    records = export(runner, game.id)
    script = Path(__file__).resolve().parents[2] / "docs" / "examples" / "check_draws.py"
    vectors = Path(__file__).resolve().parents[1] / "data" / "rng-vectors.json"
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = subprocess.run([sys.executable, "-I", str(script), str(path), str(vectors)], capture_output=True,
                         text=True, cwd=tmp_path)
    total = sum(len(r.get("draws", ())) for r in records)
    assert run.returncode == 0 and "3 contributions mixed in" in run.stdout, run
    assert f"recorded draws: {total} draws of" in run.stdout, run
    records[1]["data"]["entropy"] = CREATOR + "."  # the creator's, changed: the set-up's draws do not re-derive
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = subprocess.run([sys.executable, "-I", str(script), str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "then version 4: draw" in run.stdout, run
