"""Druglord bots: both levels answer with legal moves; greedy beats random."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Rng, fold
from tests.rules.druglord.support import D, table

GAMES = 40


def play_out(seed: str, levels: list[str], limit: int = 20000) -> dict:
    state = fold(D, D.setup({}, len(levels), Rng(seed, 0)))
    version = 1
    while D.outcome(state) is None:
        assert version < limit, "game did not end"
        picker = Rng(seed + "/pick", version)
        seat = picker.choice(sorted(D.awaiting(state)))
        command = D.bot_move(state, seat, levels[seat], Rng(seed + "/bot", version))
        assert command in D.legal_moves(state, seat)
        state = fold(D, D.decide(state, seat, command, Rng(seed, version)), state)
        version += 1
    return state


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


def test_unknown_level():
    with pytest.raises(BadCommand):
        D.bot_move(table([["FS1"], ["AE1"]]), 0, "genius", Rng("x", 1))
