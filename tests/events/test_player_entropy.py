"""Seeds the players help make, committed first (issue 34, item 2): the server commits to its seed when
the game is created, before any player's entropy can reach it; then every human seat, those issued at
creation included, may contribute once (EntropyContributed, or its claim's `entropy`), and the game starts
once no seat is open and every human seat has contributed or the contribution window has closed
(ContributionsClosed, naming who sent nothing).  Bot seats do not hold it up.  From the start every stream
is keyed by the effective seed (docs/fairness.md, section 1): the committed seed mixed with every
contribution in history order.  The export carries every part, verify_history re-mixes them and names a
changed contribution where it changes something.  A game whose seats send nothing draws from the seed."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from events import clocks
from events.history import history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.seeds import ENTROPY_MAX, effective_seed, mix
from events.store import EventStore
from events.table import NoContribution
from rules import RULESETS
from rules.base import WORLD, IllegalMove, KeyedRng, Rng, seed_commitment

SEED = "entropy-server-seed"
ISSUED, FIRST, SECOND = "the creator's coin: heads", "dé 🎲 4", "x" * ENTROPY_MAX


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
    """A seat issued at creation and an open one: the issued seat contributes after the commitment, the
    claimer with its claim, which starts the game."""
    game = runner.create_game(ruleset, [{"kind": "human"}, {"kind": "open"}], options or {}, SEED,
                              contribution_seconds=30)
    runner.contribute(game.id, 0, ISSUED)
    return runner.claim_seat(game.id, 1, "t1", name="Bea", entropy=FIRST)


def test_the_mixing_rule_is_the_specs_and_keeps_parts_apart():
    assert mix(SEED, []) == SEED  # nobody sent anything: the server's seed
    for parts in ([ISSUED], [ISSUED, FIRST, SECOND], ["ab", "c"], ["a", "bc"]):
        assert mix(SEED, parts) == spec_mix(SEED, parts) != SEED
    assert mix(SEED, ["ab", "c"]) != mix(SEED, ["a", "bc"]) != mix(SEED, ["abc"])  # the length prefixes
    assert mix(SEED, [FIRST, SECOND]) != mix(SEED, [SECOND, FIRST])  # the order is the history's


def test_the_commitment_comes_before_any_contribution_and_every_human_seat_contributes(runner):
    # two seats issued at creation and a bot: the game waits for both humans, not for the bot
    game = runner.create_game("druglord", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], {}, SEED,
                              contribution_seconds=30)
    stored = list(runner.store.read_all(game.id))
    # the first thing the history holds is the commitment, and nothing anyone contributed
    assert [e.type for e in stored] == ["GameCreated"] and stored[0].data["seed_commitment"] == seed_commitment(SEED)
    assert "entropy" not in stored[0].data and stored[0].data["contribution_seconds"] == 30
    assert game.status == "open" and clocks.owed(game.table) == [0, 1] and game.window_closes is not None
    with pytest.raises(IllegalMove):  # nobody may move before the start
        runner.execute(game.id, 0, {"type": "DeclareEmpire"})
    game = runner.contribute(game.id, 1, FIRST)
    assert game.status == "open" and clocks.owed(game.table) == [0]
    game = runner.contribute(game.id, 0, SECOND)  # the last one owed starts the game
    assert game.status == "active"
    stored = list(runner.store.read_all(game.id))
    assert [e.type for e in stored[:3]] == ["GameCreated", "EntropyContributed", "EntropyContributed"]
    assert [e.data for e in stored[1:3]] == [{"seat": 1, "entropy": FIRST}, {"seat": 0, "entropy": SECOND}]
    mixed = spec_mix(SEED, [FIRST, SECOND])  # in the history's order
    assert game.effective_seed == mixed and game.seed == SEED  # the commitment stays the server seed's
    # the set-up is the world's streams of the mixed seed, not the server seed's alone
    start = stored[3]
    assert start.command == {"type": "StartGame"} and start.actor == "system"
    rng = KeyedRng(mixed, {}, WORLD, record=True)
    setup = game.ruleset.setup(game.options, 3, rng)
    assert [(e.type, json.loads(json.dumps(e.data))) for e in setup] == [(e.type, e.data) for e in stored[3:]]
    assert start.draws == rng.recorded()
    server_only = KeyedRng(SEED, {}, WORLD, record=True)
    game.ruleset.setup(game.options, 3, server_only)
    assert server_only.recorded()[0] != rng.recorded()[0]  # the deck is not the server seed's alone


def test_the_window_closes_without_the_missing_ones_and_records_them(runner):
    game = runner.create_game("kingpin", [{"kind": "human"}, {"kind": "human"}], {}, SEED, contribution_seconds=5)
    runner.contribute(game.id, 1, FIRST)
    game = runner.close_contributions(game.id, game.window_closes)
    assert game.status == "active"
    closed = next(e for e in runner.store.read_all(game.id) if e.type == "ContributionsClosed")
    assert closed.data == {"deadline": int(runner.store.meta(game.id)["window_closes"]), "missing": [0]}
    assert game.effective_seed == spec_mix(SEED, [FIRST])
    with pytest.raises(NoContribution):  # once closed and started: no more
        runner.contribute(game.id, 0, SECOND)


def test_a_window_of_0_starts_as_soon_as_no_seat_is_open(runner):
    game = runner.create_game("kingpin", [{"kind": "human"}, {"kind": "open"}], {}, SEED)
    assert game.status == "open" and game.window_closes is None and clocks.owed(game.table) == []
    game = runner.claim_seat(game.id, 1, "t1", entropy=FIRST)  # a claim still carries its entropy
    assert game.status == "active" and game.effective_seed == spec_mix(SEED, [FIRST])


def test_every_contribution_is_recorded_and_the_set_up_draws_from_the_mixed_seed(runner):
    game = contributed_game(runner, "kingpin")
    assert game.status == "active"
    stored = list(runner.store.read_all(game.id))
    created, contributed, claimed = stored[0], stored[1], stored[2]
    assert "entropy" not in created.data and created.data["seed_commitment"] == seed_commitment(SEED)
    assert (contributed.type, contributed.data, contributed.command) == (
        "EntropyContributed", {"seat": 0, "entropy": ISSUED}, {"type": "ContributeEntropy", "seat": 0,
                                                               "entropy": ISSUED})
    assert (claimed.type, claimed.data) == ("SeatClaimed", {"seat": 1, "name": "Bea", "entropy": FIRST})
    assert game.table["entropy"] == [{"by": "seat:0", "entropy": ISSUED}, {"by": "seat:1", "entropy": FIRST}]
    assert game.effective_seed == spec_mix(SEED, [ISSUED, FIRST])


def test_a_game_with_contributions_verifies_and_a_changed_contribution_is_named(runner):
    game = play_out(runner, contributed_game(runner, "kingpin", {"target": 3000}))
    records = export(runner, game.id)
    header = records[0]
    assert header["seed"] == SEED and header["seed_commitment"] == seed_commitment(SEED)
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0, verdict
    start = next(r for r in records[1:] if r.get("command", {}).get("type") == "StartGame")["version"]
    assert start == 4

    # every later draw comes from the mixed seed's streams, which the spec re-derives
    mixed = spec_mix(SEED, [ISSUED, FIRST])
    for record in (r for r in records[1:] if r.get("draws")):
        for label, pairs in record["draws"]:
            rng = Rng(mixed, label)
            assert [[n, rng.randbelow(n)] for n, _ in pairs] == pairs

    def changed(edit) -> dict:
        copy = json.loads(json.dumps(records))
        edit(copy)
        return verify_history(copy, RULESETS)

    # a contribution's recorded entropy alone: the table, re-deciding the command, gives the one it was sent
    def event_only(copy):
        copy[2]["data"]["entropy"] = "something else"
    verdict = changed(event_only)
    assert not verdict["valid"] and verdict["diverged_at"] == 2 and "the table gives" in verdict["reason"], verdict

    # the command and event both: it re-decides, but the set-up's first draw does not
    for at in (2, 3):
        def both(copy, at=at):
            copy[at]["data"]["entropy"] = copy[at]["command"]["entropy"] = "something else"
        verdict = changed(both)
        assert not verdict["valid"] and verdict["diverged_at"] == start, verdict
        # (a draw of the mixed seed's stream may match the other's by chance: the first that does not is named)
        assert re.search(rf"draw \d+ of the command at version {start} is recorded as", verdict["reason"])

    # a contribution dropped: the start came while a seat still owed its entropy, before the window closed
    def dropped(copy):
        del copy[2]
        for n, record in enumerate(copy[1:], start=1):
            record["version"] = n
    verdict = changed(dropped)
    assert not verdict["valid"] and "StartGame while" in verdict["reason"], verdict

    # a contribution no seat could have sent (a control character) is refused where it is recorded
    def refused(copy):
        copy[2]["data"]["entropy"] = copy[2]["command"]["entropy"] = "bell\a"
    verdict = changed(refused)
    assert verdict["diverged_at"] == 2 and "entropy" in verdict["reason"], verdict


def test_a_game_without_contributions_draws_from_the_seed(runner):
    game = runner.create_game("druglord", [{"kind": "open"}, {"kind": "human"}], {}, SEED)
    game = runner.claim_seat(game.id, 0, "t0", name="Ann")
    stored = list(runner.store.read_all(game.id))
    assert "entropy" not in stored[0].data and stored[1].data == {"seat": 0, "name": "Ann"}
    assert "entropy" not in game.table and effective_seed(SEED, game.table) == game.effective_seed == SEED
    rng = KeyedRng(SEED, {}, WORLD, record=True)
    setup = game.ruleset.setup(game.options, 2, rng)
    assert [(e.type, json.loads(json.dumps(e.data))) for e in setup] == [(e.type, e.data) for e in stored[2:]]
    assert stored[2].draws == rng.recorded()


@pytest.mark.parametrize("entropy", ["", "x" * (ENTROPY_MAX + 1), "line\nbreak", "\u202eevil", "\ud800", 7])
def test_a_contribution_the_spec_refuses_appends_nothing(runner, entropy):
    game = runner.create_game("kingpin", [{"kind": "open"}, {"kind": "human"}], {}, SEED, contribution_seconds=30)
    with pytest.raises(IllegalMove) as refused:
        runner.claim_seat(game.id, 0, "t0", entropy=entropy)
    assert "entropy" in refused.value.reason
    with pytest.raises(IllegalMove) as refused:
        runner.contribute(game.id, 1, entropy)
    assert "entropy" in refused.value.reason
    after = runner.load(game.id)
    assert after.version == game.version and after.seats[0]["kind"] == "open"


def test_contributions_come_once_a_human_seat_and_only_before_the_start(runner):
    game = runner.create_game("kingpin", [{"kind": "human"}, {"kind": "bot"}], {}, SEED, contribution_seconds=30)
    with pytest.raises(NoContribution, match="not a human"):
        runner.contribute(game.id, 1, FIRST)  # a bot seat sends none
    game = runner.contribute(game.id, 0, FIRST)
    assert game.status == "active"
    for seat in (0, 1):
        with pytest.raises(NoContribution, match="started"):
            runner.contribute(game.id, seat, SECOND)
    # and twice, before the start
    game = runner.create_game("kingpin", [{"kind": "human"}, {"kind": "open"}], {}, SEED, contribution_seconds=30)
    runner.contribute(game.id, 0, FIRST)
    with pytest.raises(NoContribution, match="already"):
        runner.contribute(game.id, 0, SECOND)
    after = runner.load(game.id)
    assert after.version == 2 and after.effective_seed == spec_mix(SEED, [FIRST])


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
    total = sum(len(pairs) for r in records for _, pairs in r.get("draws", ()))
    assert run.returncode == 0 and "2 contributions mixed in" in run.stdout, run
    assert f"recorded draws: {total} draws of" in run.stdout, run
    records[2]["data"]["entropy"] = ISSUED + "."  # a contribution changed: the set-up's draws do not re-derive
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = subprocess.run([sys.executable, "-I", str(script), str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "then version 4, stream world/" in run.stdout, run
