"""What a search bot needs of Kingpin (rules/search).  Nothing in Kingpin is hidden (view.py), so
the base's determinize (the state itself) is exact; evaluate scores a truncated playout."""
from __future__ import annotations

from rules.search.hidden import shares

# ISMCTS here is guided by the greedy bot (rules/search/ismcts.py `guided`): its move is played out
# against the best few others, every seat following the greedy bot for ROLLOUT_MOVES commands before
# `evaluate` scores the state.
POLICY = "greedy"
ROLLOUT_MOVES = 12


def evaluate(state: dict) -> list[float]:
    """Shares of the win by bankroll (the first to the target wins)."""
    return shares(state["bankrolls"])
