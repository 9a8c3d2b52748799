"""What a bot seat is handed: what its seat may know, and randomness that cannot reveal the seed.

A bot's code never sees the game's true state nor its seed, by construction rather than by audit:

- the state it is handed is `determinize(state, seat, ...)`: the seat's own view and everything
  public as they are, every part the seat may not read (the others' hands, the decks' order, so the
  next draw too) resampled from what the seat can count.  A ruleset's `determinize` depends only on
  what the seat may know (tests/rules/test_search.py), so the true hidden values cannot reach the bot;
  a game without hidden information hands the state as it is.
- its rng is keyed by the game's bot key, HMAC-SHA256(seed, "bot"), never by the seed: every stream
  that decides the game is keyed by the seed itself, and HMAC is one-way, so a bot holding its rng
  can neither recover the seed nor foresee a roll or a shuffle (docs/fairness.md, section 2).

The worker (service/jobs.py) plays every bot seat through `bot_command`; verification never re-runs
a bot (it re-decides the recorded command), so how a bot chooses is free to change.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any, Callable

from rules.base import Rng
from rules.ruleset import adopt

BOT_KEY_LABEL = "bot"  # no stream that decides the game has it: theirs are decimal versions


def bot_key(seed: str) -> str:
    """The key of every bot stream of a game: hex HMAC-SHA256(key = UTF-8(seed), message = "bot"),
    `seed` being the game's effective seed.  One-way: it reveals nothing of the seed's streams."""
    return hmac.new(seed.encode("utf-8"), BOT_KEY_LABEL.encode("utf-8"), hashlib.sha256).hexdigest()


def bot_rng(key: str, seat: int, version: int) -> Rng:
    """The stream a bot of `seat` chooses its move with while the game is at `version`."""
    return Rng(key, f"bot:{seat}:{version}")


def seat_state(ruleset: Any, state: Any, seat: int, key: str, version: int) -> Any:
    """The state a bot of `seat` is handed at `version`: what the seat may know as it is, its hidden
    parts resampled with the bot key's stream "world:<seat>:<version>" (the state itself for a game
    without hidden information)."""
    return adopt(ruleset).determinize(state, seat, Rng(key, f"world:{seat}:{version}"))


def bot_command(ruleset: Any, state: Any, seat: int, level: str, key: str, version: int,
                out_of_time: Callable[[], bool] | None = None) -> dict:
    """The command a bot of `level` sends for `seat` at `version`, chosen from `seat_state` with
    `bot_rng`: a function of what the seat may know and the bot key only.  `out_of_time` (the
    worker's clock) may cut a search level short; it is passed on only when given."""
    world = seat_state(ruleset, state, seat, key, version)
    rng = bot_rng(key, seat, version)
    if out_of_time is None:
        return ruleset.bot_move(world, seat, level, rng)
    return ruleset.bot_move(world, seat, level, rng, out_of_time=out_of_time)
