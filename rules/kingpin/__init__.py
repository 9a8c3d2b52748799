"""Kingpin ruleset (work in progress: minimal importable stub)."""
from __future__ import annotations

from rules.base import Option


class Kingpin:
    name = "kingpin"
    title = "Kingpin"
    min_seats = 2
    max_seats = 6
    options = {"target": Option(5000, (3000, 5000, 10000), "bankroll that wins the game")}
    bot_levels = ("random", "greedy")


RULESET = Kingpin()
