"""A finished game forked at one of its positions (issue 39 item 5): pure, no Redis.

A fork is a new game that starts where a finished one stood at version V.  Once a game is finished its
whole history is published, the deck orders and every hand included, so a fork that kept them would be a
game whose every card is known in advance.  So the fork keeps only what the original's spectator could
see and deals every hidden part afresh from its own seed:

    creation   GameCreated (the original's ruleset, rules version and options; the fork's seats), then
               ForkedFrom {game, version, ruleset_version, history_digest, state_digest}: which position
               of which history, bound by the digests of the original's events up to V and of its state at V
    start      StartGame's one event, ForkDealt {secret: {state}}: the spectator's determinization of the
               original's state at V, `ruleset.determinize(state, None, Rng(effective seed, "fork"))`, as JSON
               text: its objects' keys in the order the rules made them (the order a game's evolvers leave and its
               rules iterate), which the store's canonical JSON, keys sorted, would lose

The stream "fork" is keyed by the fork's own effective seed (its server's seed, committed at creation, mixed
with its players' entropy, docs/fairness.md), under a label nobody chooses; no other stream of a game has it.
ForkDealt's state is under `secret`, which no seat reads (events/repository.py redact_envelope): each seat
reads its own part through its view, as in any game.  Its export, after the fork's end, shows it whole.

Verification (events/history.py) re-derives a fork from its history and the original's: the original must
verify, ForkedFrom's digests must be those of its events up to V and its state at V, and ForkDealt must be
the determinization the fork's revealed seed gives.  A game without hidden information keeps the state as
it is (its `determinize` is the identity) and draws nothing.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping

from rules.base import Event, Rng, fold
from rules.describe import STR, obj

FORKED_FROM = "ForkedFrom"  # the table's event: which history, which version (events/table.py)
FORK_DEALT = "ForkDealt"  # the fork's starting state, its hidden parts dealt afresh
FORK_STREAM = "fork"  # the label of the one stream the re-deal draws from (docs/fairness.md)
# ForkDealt's data as the spec types it (the feed never shows its `secret`: events/repository.py)
FORK_DEALT_DATA = obj({"secret": obj({"state": STR})}, optional=("secret",))
# the export's event fields a history digest covers: everything but the derived sentence (`narration`)
DIGESTED = ("game_id", "version", "type", "data", "actor", "at", "command_id", "schema", "command", "draws", "bot")


class ForkRefused(Exception):
    """A fork the original does not allow: `kind` is the problem's code, `status` its HTTP status, `param` the
    field of the creation's body at fault."""

    def __init__(self, status: int, kind: str, reason: str, param: str = "from.version"):
        super().__init__(reason)
        self.status, self.kind, self.reason, self.param = status, kind, reason, param


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def history_digest(records: Iterable[Mapping[str, Any]]) -> str:
    """SHA-256 hex of the original's event lines 1..V as its export holds them: each line's fields
    (DIGESTED; `narration` is derived, not evidence) as JSON with sorted keys, one per line."""
    digest = hashlib.sha256()
    for record in records:
        digest.update(_canonical({k: record[k] for k in DIGESTED if k in record}) + b"\n")
    return digest.hexdigest()


def state_digest(state: Any) -> str:
    """SHA-256 hex of the original's state at V as JSON with sorted keys (public: the original has ended)."""
    return hashlib.sha256(_canonical(state)).hexdigest()


def forked_from(original: str, version: int, ruleset_version: int, records: list[Mapping[str, Any]],
                state: Any) -> Event:
    """The fork's ForkedFrom: the position (`version` of game `original`) and the digests binding it."""
    return Event(FORKED_FROM, {"game": original, "version": version, "ruleset_version": ruleset_version,
                               "history_digest": history_digest(records[:version]),
                               "state_digest": state_digest(state)})


def refusal(ruleset: Any, records: list[Mapping[str, Any]], version: int, state: Any,
            ended: bool) -> ForkRefused | None:
    """Why the original (its export's event `records`, its state at `version`) cannot be forked there, or None:
    it must have ended (its history is published), and `version` must be a position between two commands
    of the game in play (after its set-up, before its end)."""
    if not ended:
        return ForkRefused(409, "fork-of-unfinished-game", "only a finished (or abandoned) game is forked: its "
                                                           "history, and so the position, is public only then",
                           "from.game")
    if not 1 <= version < len(records):  # not the last: the game is over there
        return ForkRefused(422, "fork-version-out-of-range",
                           f"version must be from 1 to {len(records) - 1}, a position before the game's end")
    if "command" not in records[version]:  # the next event starts a command: V ends one
        return ForkRefused(422, "fork-version-out-of-range",
                           f"version {version} is inside a command's events; fork at a version where one ended")
    if state is None or ruleset.outcome(state) is not None:
        return ForkRefused(422, "fork-version-out-of-range",
                           f"at version {version} the game {'is not set up yet' if state is None else 'is over'}: "
                           "fork a position of the game in play")
    return None


def dealt(ruleset: Any, state: Any, seed: str) -> tuple[Event, list]:
    """ForkDealt for the original's `state` at V, re-dealt from the fork's effective `seed` on the stream
    FORK_STREAM, and the draw calls it made ([[label, [[bound, value], ...]]], as a history records them)."""
    rng = Rng(seed, FORK_STREAM, record=True)
    start = ruleset.determinize(json.loads(_text(state)), None, rng)  # a copy, as the store's JSON gives it
    return Event(FORK_DEALT, {"secret": {"state": _text(start)}}), [[FORK_STREAM, rng.draws]] if rng.draws else []


def _text(state: Any) -> str:
    """The state as JSON text, its objects' keys in their order (see the module docstring)."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def fold_events(ruleset: Any, events: Iterable[Event], state: Any) -> Any:
    """A game's events folded onto `state` (rules.base.fold), a ForkDealt setting the state it deals."""
    pending: list[Event] = []
    for event in events:
        if event.type == FORK_DEALT:
            pending = []  # ForkDealt is a fork's first game event (its StartGame's): nothing of the game before
            state = json.loads(event.data["secret"]["state"])
        else:
            pending.append(event)
    return fold(ruleset, pending, state) if pending else state


def original_of(records: list[Mapping[str, Any]]) -> str | None:
    """The game a history's ForkedFrom names (an uploaded file's records: anything may be there), or None."""
    for record in records[1:3]:  # GameCreated, then ForkedFrom
        data = record.get("data") if record.get("type") == FORKED_FROM else None
        if isinstance(data, dict) and isinstance(data.get("game"), str):
            return data["game"]
    return None


def redacted(event: Event) -> Event:
    """ForkDealt as every reader of the feed reads it: without its state (each seat reads its own part through
    its view; the export, after the fork's end, shows it whole)."""
    return Event(event.type, {k: v for k, v in event.data.items() if k != "secret"})
