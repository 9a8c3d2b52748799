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

The worker (service/jobs.py) determinizes the seat's state itself (`seat_state`) and hands only that
world, the bot key and the version to a bot process of its own (events/botbox.py), which runs
`bot_choice`: the bot's code never shares a process with the game's true state or its seed.  Every
served level is deterministic given those (a fixed iteration budget, never a clock), so verification
re-runs each recorded bot move (`bot_command`, events/history.py) and reports what it re-derived.  A
bot's choices belong to a revision (`BOTS_REVISION`, recorded with each bot move): when any level's
choices change, the revision goes up (tests/rules/test_bot_revision.py holds a fingerprint of them),
so a later release can tell the moves it can re-run from those it cannot.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, Callable

from rules.base import Rng
from rules.ruleset import adopt
from rules.search import ismcts

BOT_KEY_LABEL = "bot"  # no stream that decides the game has it: theirs are decimal versions or "<roller>/..."
# The revision of every bot level's choices: recorded with each bot move, so verification re-runs each move
# as the revision it names chose it (tests/rules/test_bot_revision.py fails when the choices change and this
# does not).  Revision 2: the search's fitted evaluate (rules/search/value.py) in Druglord, Lords of Cannabis
# and Trafficking; revision 1's value (each seat's share of the summed worth) is kept as those games'
# `search_revisions[1]`, so a history of revision 1 re-runs as it was played.
BOTS_REVISION = 2
RERUN_REVISIONS = range(1, BOTS_REVISION + 1)  # every revision's moves this release re-runs
TIMEOUT_DEFAULT = "timeout-default"  # provenance's `played` when a bot's illegal choice gave way to on_timeout


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
    without hidden information).  Determinized from the state in one canonical form (`wire`: every
    object's keys sorted), so the worker that served the move and a verifier whose fold built its dicts
    in another order hand the bot the same world, in the same order: bots break ties by it."""
    return adopt(ruleset).determinize(wire(state), seat, Rng(key, f"world:{seat}:{version}"))


def provenance(level: str, played: str | None = None, cut: str | None = None) -> dict:
    """What a bot move records of how it was chosen (the `bot` of its first event): the seat's level and the
    bots' revision, and when the move is not that level's (the safety limit cut it, or it chose an illegal
    move) what was played instead."""
    out: dict[str, Any] = {"level": level, "revision": BOTS_REVISION}
    if played is not None:
        out["played"] = played
    if cut is not None:
        out["cut"] = cut
    return out


def wire(world: Any) -> Any:
    """A state or world in the canonical form a bot process receives it (events/botbox.py): a JSON round
    trip with every object's keys sorted, which verification repeats, so the bot sees the same values in
    the same order either way (lists, not tuples; string keys; no dict order left over from a fold)."""
    return json.loads(json.dumps(world, separators=(",", ":"), sort_keys=True))


def bot_choice(ruleset: Any, world: Any, seat: int, level: str, key: str, version: int,
               out_of_time: Callable[[], bool] | None = None, revision: int = BOTS_REVISION) -> dict:
    """The command a bot of `level` sends for `seat` at `version`, from the world it is handed
    (`seat_state`) and `bot_rng`: what a bot process computes (events/botbox.py), as the bots of
    `revision` chose it.  `out_of_time` (a bench's clock) may cut a search short, which makes its move the
    machine's: served games never pass one."""
    if revision not in RERUN_REVISIONS:
        raise ValueError(f"bots revision {revision!r} is not one this release has (1 to {BOTS_REVISION})")
    rng = bot_rng(key, seat, version)
    # only what differs from the default is passed: a ruleset adopted from a bare contract has a bot_move of
    # its own, without a clock or revisions (its one revision is today's)
    options = {"out_of_time": out_of_time} if out_of_time is not None else {}
    if revision != BOTS_REVISION:
        options["revision"] = revision
    return adopt(ruleset).bot_move(world, seat, level, rng, **options)


def bot_command(ruleset: Any, state: Any, seat: int, level: str, key: str, version: int,
                out_of_time: Callable[[], bool] | None = None, revision: int = BOTS_REVISION) -> dict:
    """The command a bot of `level` sends for `seat` at `version`: a function of what the seat may know
    and the bot key only (and of the bots' `revision`).  Verification re-runs it; the service splits it
    across the process boundary."""
    world = wire(seat_state(ruleset, state, seat, key, version))
    return bot_choice(ruleset, world, seat, level, key, version, out_of_time, revision)


def bot_analysis(ruleset: Any, world: Any, seat: int, key: str, version: int, iterations: int) -> dict:
    """What the search level ("ismcts") weighed for `seat` at `version`, from the world it is handed
    (`seat_state`) and `bot_rng`, as `bot_choice` would search it at the level's budget of `iterations`:
    `{"chosen": the move it plays, "moves": [{"move", "visits", "value"}, ...]}` (rules/search/ismcts.py
    `search`), JSON as it is.  A function of what the seat may know and the bot key, like the bot's move."""
    searched = ismcts.search(adopt(ruleset), world, seat, bot_rng(key, seat, version), iterations)
    return {"chosen": searched.chosen,
            "moves": [{"move": m.move, "visits": m.visits, "value": m.value} for m in searched.moves]}
