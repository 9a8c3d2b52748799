"""Kingpin bots: both levels answer with legal moves; greedy beats random."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Rng, fold
from tests.rules.kingpin.support import K, game_with_first

GAMES = 20  # greedy wins all 40 of the first 40 seeds; a bot no better than random would reach 16/20 in 0.6% of runs


def play_out(seed: str, levels: list[str], rules_version: int | None = None) -> dict:
    ruleset = K if rules_version is None else K.at(rules_version)
    state = fold(K, ruleset.setup({}, len(levels), Rng(seed, 0)))
    version = 1
    while K.outcome(state) is None:
        assert version < 20000, "game did not end"
        seat = next(iter(K.awaiting(state)))
        command = K.bot_move(state, seat, levels[seat], Rng(seed + "/bot", version))
        assert command in K.legal_moves(state, seat)
        state = fold(K, K.decide(state, seat, command, Rng(seed, version)), state)
        version += 1
    return state


@pytest.mark.slow  # bot strength over many games
def test_greedy_beats_random_in_most_two_player_games():
    # Seats alternate so that neither bot always has the first-player advantage of a given seed.
    wins = 0
    for game in range(GAMES):
        greedy_seat = game % 2
        levels = ["random", "random"]
        levels[greedy_seat] = "greedy"
        outcome = K.outcome(play_out(f"greedy-vs-random-{game}", levels))
        wins += greedy_seat in outcome["winners"]
    assert wins >= GAMES * 4 // 5, f"greedy won only {wins}/{GAMES}"


@pytest.mark.parametrize("seats", [3, 6])
def test_greedy_games_end(seats):
    outcome = K.outcome(play_out(f"greedy-{seats}", ["greedy"] * seats))
    assert outcome["reason"] == "bankroll reached $5,000"


@pytest.mark.parametrize("rules_version", [1, 2])
def test_both_levels_play_legal_moves_under_every_rules_version(rules_version):
    # issue 9: a version-1 game goes on being played (by bots too) under version 1's rules.
    for game in range(5):
        state = play_out(f"versions-{rules_version}-{game}", ["greedy", "random", "random"], rules_version)
        assert state["rules_version"] == rules_version and K.outcome(state) is not None
        assert K.invariants(state) == []


def test_unknown_level():
    with pytest.raises(BadCommand):
        K.bot_move(game_with_first(0), 0, "genius", Rng("x", 1))
