"""Druglord bots: both levels answer with legal moves; greedy beats random."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Rng, fold
from tests.rules.druglord.support import D, table

GAMES = 40


def play_out(seed: str, levels: list[str], limit: int = 20000, rules_version: int | None = None) -> dict:
    ruleset = D if rules_version is None else D.at(rules_version)
    state = fold(D, ruleset.setup({}, len(levels), Rng(seed, 0)))
    version = 1
    while D.outcome(state) is None:
        assert version < limit, "game did not end"
        picker = Rng(seed + "/pick", version)
        seat = picker.choice(sorted(D.awaiting(state)))
        command = D.bot_move(state, seat, levels[seat], Rng(seed + "/bot", version))
        assert command in D.legal_moves(state, seat)
        state = fold(D, D.decide(state, seat, command, Rng(seed, version)), state)
        assert D.invariants(state) == []
        version += 1
    return state


@pytest.mark.slow  # bot strength over many games
def test_greedy_beats_random_in_four_player_games():
    # One greedy seat (rotating) against three random ones: random would win a quarter.
    wins = 0
    for game in range(GAMES):
        greedy_seat = game % 4
        levels = ["random"] * 4
        levels[greedy_seat] = "greedy"
        wins += greedy_seat in D.outcome(play_out(f"greedy-vs-random-{game}", levels))["winners"]
    assert wins > GAMES // 2, f"greedy won only {wins}/{GAMES}"


@pytest.mark.parametrize("seats", [2, 6])
def test_greedy_games_end(seats):
    outcome = D.outcome(play_out(f"greedy-{seats}", ["greedy"] * seats))
    assert max(outcome["scores"]) >= 20 and len(outcome["winners"]) == 1


@pytest.mark.parametrize("rules_version", [1, 2])
def test_both_levels_play_legal_moves_under_every_rules_version(rules_version):
    # issue 9: a version-1 game goes on being played (by bots too) under version 1's rules.
    for game in range(3):
        state = play_out(f"versions-{rules_version}-{game}", ["greedy", "random", "greedy", "random"],
                         rules_version=rules_version)
        assert state["rules_version"] == rules_version and D.outcome(state) is not None


def test_unknown_level():
    with pytest.raises(BadCommand):
        D.bot_move(table([["FS1"], ["AE1"]]), 0, "genius", Rng("x", 1))


def test_the_random_bot_draws_as_a_choice_from_the_legal_moves():
    # The random bot picks from the move families without building the list (rules/blocks/families.py):
    # the same draw rng.choice(legal_moves) makes, so seeded games go on being the same games.
    state = fold(D, D.setup({}, 4, Rng("random-draw", 0)))
    phases = set()
    for version in range(1, 1500):
        if D.outcome(state) is not None:
            break
        seat = min(D.awaiting(state))
        command = D.bot_move(state, seat, "random", Rng("random-draw/bot", version))
        assert command == Rng("random-draw/bot", version).choice(D.legal_moves(state, seat))
        phases.add((state["phase"], state["roll"] is not None))
        state = fold(D, D.decide(state, seat, command, Rng("random-draw", version)), state)
    assert {("empire", False), ("draft", False), ("load", False), ("action", False), ("action", True)} <= phases
