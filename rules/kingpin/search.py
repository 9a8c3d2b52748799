"""What a search bot needs of Kingpin (rules/search).  Nothing in Kingpin is hidden (view.py), so
the base's determinize (the state itself) is exact; evaluate scores a truncated playout."""
from __future__ import annotations

from rules.search.hidden import shares


def evaluate(state: dict) -> list[float]:
    """Shares of the win by bankroll (the first to the target wins)."""
    return shares(state["bankrolls"])
