"""Kingpin bots: "random" (uniform over legal moves) and "greedy" (heuristic)."""
from __future__ import annotations

from rules.base import Rng


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    """A legal move for `seat`."""
    moves = ruleset.legal_moves(state, seat)
    return rng.choice(moves)
