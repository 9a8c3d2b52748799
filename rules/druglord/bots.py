"""Druglord bots (placeholder: greedy filled in below)."""
from __future__ import annotations

from rules.base import Rng


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    moves = ruleset.legal_moves(state, seat)
    return rng.choice(moves)
