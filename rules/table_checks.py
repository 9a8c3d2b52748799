"""The one place that checks a table against what a ruleset declares: seat count, options, bot levels.

The engine calls `table_checks` when a game is created, and `Ruleset.setup` calls it for a direct
caller.  It works on any object with the declared attributes, so a ruleset from outside the package
that does not subclass the base is checked the same way.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from rules.base import BadCommand, normalize_options
from rules.levels import check_bot_level


def check_options(ruleset: Any, options: Any) -> dict:
    """The options with defaults filled in; BadCommand for a non-object, unknown option or bad value."""
    if options is not None and not isinstance(options, Mapping):
        raise BadCommand(f"options must be a JSON object, not {options!r}", rule="options")
    return normalize_options(ruleset.options, options)


def check_seat_count(ruleset: Any, seats: Any) -> None:
    """BadCommand unless `seats` is a seat count the ruleset is played with."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not ruleset.min_seats <= seats <= ruleset.max_seats:
        raise BadCommand(f"{ruleset.title} is played by {ruleset.min_seats} to {ruleset.max_seats} seats, "
                         f"not {seats!r}", rule="players")


def table_checks(ruleset: Any, seats: int, options: Any, bot_levels: Iterable[Any] = (),
                 clock_bot_level: Any = None) -> dict:
    """Everything a new table must satisfy (seat count, the seats' bot levels, the level a
    timed-out seat is handed to, options); returns the normalized options."""
    check_seat_count(ruleset, seats)
    for level in bot_levels:
        check_bot_level(ruleset, level)
    if clock_bot_level is not None:
        check_bot_level(ruleset, clock_bot_level, "clock.bot_level")
    return check_options(ruleset, options)


__all__ = ["check_options", "check_seat_count", "table_checks"]
