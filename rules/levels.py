"""Bot levels: the syntax of a level a table may give a seat, and its check against what a ruleset offers.

The search bot (rules/search/ismcts.py): level "ismcts" searches the game's served budget a move (its
search_settings.iterations), "ismcts:N" searches N.  A level names its budget in iterations, not seconds,
so the move it picks is a function of the seat's view and the bot key: verification re-runs it
(rules/bot_seat.py; the worker only cuts a move past its safety limit, events/botbox.py
BOT_MOVE_LIMIT_SECONDS, and records that it did).
"""
from __future__ import annotations

from typing import Any

from rules.base import BadCommand

SEARCH_LEVEL = "ismcts"
MAX_SEARCH_ITERATIONS = 100_000
_SEARCH_HINT = f" ({SEARCH_LEVEL}:N for a search of N iterations a move)"


def split_level(level: Any) -> tuple[Any, int | str | None]:
    """("ismcts", 500) for "ismcts:500"; (level, None) for a level without a budget; the budget is
    returned as given (a string) when it is not a whole number, for check_bot_level to refuse."""
    if not isinstance(level, str) or ":" not in level:
        return level, None
    base, _, budget = level.partition(":")
    return base, int(budget) if budget.isdigit() and len(budget) <= 7 else budget


def is_search_level(level: Any) -> bool:
    return split_level(level)[0] == SEARCH_LEVEL


def check_bot_level(ruleset: Any, level: Any, what: str = "bot level") -> None:
    """BadCommand unless `level` is one of the ruleset's bot levels, or a search level with its
    iteration budget ("ismcts:500") where the ruleset offers that search."""
    base, budget = split_level(level)
    if base not in ruleset.bot_levels or (budget is not None and base != SEARCH_LEVEL):
        raise BadCommand(f"unknown {what} {level!r}; levels: {', '.join(ruleset.bot_levels)}"
                         f"{_SEARCH_HINT if SEARCH_LEVEL in ruleset.bot_levels else ''}", rule="bots")
    if budget is not None and not (isinstance(budget, int) and 1 <= budget <= MAX_SEARCH_ITERATIONS):
        raise BadCommand(f"{what} {level!r}: the search budget must be a whole number of iterations "
                         f"from 1 to {MAX_SEARCH_ITERATIONS}", rule="bots")


__all__ = ["MAX_SEARCH_ITERATIONS", "SEARCH_LEVEL", "check_bot_level", "is_search_level", "split_level"]
