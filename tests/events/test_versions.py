"""Versioned rulesets: a game is played, continued, exported and verified under the rules version
it was created with, while new games get the latest.  The test game: Pig, whose version 2 here
("a roll of 2 also empties the pot") stands for any rule fixed after games were recorded."""
from __future__ import annotations

import pytest

from events.history import history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.store import EventStore
from rules.base import BadCommand, Event, Rng
from rules.examples.pig import Pig, rolled
from rules.folding import rules_version
from rules.ruleset import latest_version, ruleset_at


def rolled_v2(state: dict, d: dict, own) -> dict:
    """Version 2: a 2 also ends the turn with an empty pot."""
    if rules_version(state) >= 2 and d["face"] == 2:
        return rolled(state, {**d, "face": 1}, own)
    return rolled(state, d, own)


class PigWithAFix(Pig):
    versions = ((1, "as first released"), (2, "a roll of 2 also empties the pot"))
    evolvers = {**Pig.evolvers, "DieRolled": rolled_v2}


FIXED = PigWithAFix()


def test_each_version_is_an_instance_that_plays_it():
    assert FIXED.version == latest_version(FIXED) == 2 and FIXED.at(1).version == 1
    assert FIXED.at(1) is FIXED.at(1) and FIXED.at(2) is FIXED
    with pytest.raises(BadCommand, match="no rules version 3"):
        FIXED.at(3)
    with pytest.raises(BadCommand):
        ruleset_at(Pig(), 2)  # a ruleset with one version has only that one


def test_a_version_1_opening_is_what_it_always_was_and_later_ones_record_their_version():
    old = FIXED.at(1).setup({}, 2, Rng("s", 2))
    assert old == Pig().setup({}, 2, Rng("s", 2)) and "rules_version" not in old[0].data
    new = FIXED.setup({}, 2, Rng("s", 2))
    assert new[0].data["rules_version"] == 2
    assert FIXED.fold(None, old)["rules_version"] == 1 and FIXED.fold(None, new)["rules_version"] == 2


def test_the_changed_rule_applies_only_under_its_version():
    def after_a_two(ruleset):
        state = ruleset.fold(None, ruleset.setup({}, 2, Rng("s", 2)))
        return ruleset.evolve(state, Event("DieRolled", {"seat": state["current"], "face": 2}))["pot"]

    assert after_a_two(FIXED.at(1)) == 2 and after_a_two(FIXED) == 0


@pytest.fixture
def runner(redis_client):
    return GameRunner(EventStore(redis_client), {"pig": Pig()})


def play_to_the_end(runner, game):
    step = 0
    while game.status != "finished":
        seat = next(iter(game.awaiting()))
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step))).game
        step += 1
    return game


def test_a_game_from_before_the_fix_continues_exports_and_verifies_under_version_1(runner):
    old = runner.create_game("pig", [{"kind": "human"}, {"kind": "human"}], {"target": 20}, "old-game")
    assert old.table["ruleset_version"] == 1
    runner.repository.rulesets = {"pig": FIXED}  # the server is upgraded with the fix while the game is on
    runner.repository.forget()  # every cached game
    game = runner.load(old.id)
    assert game.ruleset.version == 1
    game = play_to_the_end(runner, game)
    records = parse_history("".join(history_lines(history_header(game), runner.store.read_all(game.id))))
    assert records[0]["ruleset_version"] == 1
    assert verify_history(records, {"pig": FIXED})["valid"]
    new = runner.create_game("pig", [{"kind": "human"}, {"kind": "human"}], {"target": 20}, "new-game")
    assert new.table["ruleset_version"] == 2 and new.ruleset.version == 2
    assert runner.store.read(new.id)[0].data["ruleset_version"] == 2  # GameCreated records it


def test_a_history_claiming_another_version_does_not_verify(runner):
    runner.repository.rulesets = {"pig": FIXED}
    game = play_to_the_end(runner, runner.create_game("pig", [{"kind": "human"}] * 2, {"target": 20}, "v2"))
    records = parse_history("".join(history_lines(history_header(game), runner.store.read_all(game.id))))
    assert verify_history(records, {"pig": FIXED})["valid"]
    forged = [dict(records[0], ruleset_version=1)] + records[1:]
    assert not verify_history(forged, {"pig": FIXED})["valid"]
    unknown = [dict(records[0], ruleset_version=7)] + records[1:]
    assert "no rules version 7" in verify_history(unknown, {"pig": FIXED})["reason"]
