"""The event envelope: what is stored per event, and how it is encoded.

A stream entry's id is `<version>-0`, so reading "after version N" is a plain
XRANGE.  Field names are one or two letters because Redis keeps field names
per stream entry (listpack-compressed only when they match the first entry's).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from events.table import ENGINE_EVENTS  # the table's events: folded by events/table.py, not by a ruleset
from rules.base import Event

CURRENT_SCHEMA = 1


@dataclass(frozen=True)
class Envelope:
    game_id: str
    version: int
    type: str
    data: Mapping[str, Any]
    actor: str  # "seat:0" | "bot:1" | "clock:2" | "system"
    at: int  # server time, ms since the epoch
    command_id: str = ""
    schema: int = CURRENT_SCHEMA
    command: Mapping[str, Any] | None = field(default=None, compare=False)  # on a batch's first event only
    # the command's raw draws ([bound, value] of each randbelow, docs/fairness.md), on its first event
    # only: they show the hidden order of what it shuffled, so only the export after the end carries them
    draws: list | None = field(default=None, compare=False)
    # a bot's move, on its first event: the seat's level and the bots' revision it was chosen by (and, when
    # the move is not that level's, what was played), so verification can re-run it (rules/bot_seat.py)
    bot: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def event(self) -> Event:
        return Event(self.type, self.data)

    @property
    def seat(self) -> int | None:
        """The seat on whose behalf this was done (None for the system)."""
        kind, _, seat = self.actor.partition(":")
        return int(seat) if seat else None

    @property
    def is_engine(self) -> bool:
        return self.type in ENGINE_EVENTS

    def public_dict(self, data: Mapping[str, Any] | None = None) -> dict:
        """The shape clients read (no command: see `history_dict`)."""
        return {
            "version": self.version,
            "type": self.type,
            "data": dict(self.data if data is None else data),
            "actor": self.actor,
            "at": self.at,
            "command_id": self.command_id,
            "schema": self.schema,
        }

    def history_dict(self) -> dict:
        """The exported shape: everything, including the command that caused it and its draws."""
        out = self.public_dict()
        if self.command is not None:
            out["command"] = dict(self.command)
        if self.draws:
            out["draws"] = [list(draw) for draw in self.draws]
        if self.bot:
            out["bot"] = dict(self.bot)
        return out


def actor_for(kind: str, seat: int | None) -> str:
    """`actor_for("seat", 2)` -> "seat:2"; `actor_for("system", None)` -> "system"."""
    return kind if seat is None else f"{kind}:{seat}"


def encode_fields(event: Event, actor: str, at: int, command_id: str, command: Mapping[str, Any] | None = None,
                  draws: list | None = None, bot: Mapping[str, Any] | None = None) -> list[str]:
    """Flat field/value list for XADD (no `dr` field for a command that drew nothing, `b` but for a bot's)."""
    fields = ["t", event.type, "d", _dumps(event.data), "a", actor, "at", str(at),
              "c", command_id, "s", str(CURRENT_SCHEMA)]
    if command is not None:
        fields += ["cmd", _dumps(command)]
    if draws:
        fields += ["dr", _dumps(draws)]
    if bot:
        fields += ["b", _dumps(bot)]
    return fields


def decode_entry(game_id: str, entry_id: str | bytes, fields: Mapping) -> Envelope:
    """A stream entry back into an Envelope, upcast to the current schema."""
    f = {_text(k): _text(v) for k, v in fields.items()}
    entry_id = _text(entry_id)
    schema = int(f.get("s", "1"))
    event_type, data = f["t"], json.loads(f["d"])
    event_type, data, schema = upcast(event_type, data, schema)
    return Envelope(
        game_id=game_id,
        version=int(entry_id.split("-", 1)[0]),
        type=event_type,
        data=data,
        actor=f["a"],
        at=int(f["at"]),
        command_id=f.get("c", ""),
        schema=schema,
        command=json.loads(f["cmd"]) if "cmd" in f else None,
        draws=json.loads(f["dr"]) if "dr" in f else None,
        bot=json.loads(f["b"]) if "b" in f else None,
    )


# An upcaster turns (type, data) stored at `schema` into the next schema.  Old
# events are upcast when read, never rewritten in place.
Upcaster = Callable[[str, dict], tuple[str, dict]]
UPCASTERS: dict[int, list[tuple[str, Upcaster]]] = {}


def register_upcaster(from_schema: int, event_type: str, upcaster: Upcaster) -> None:
    """Register how events of `event_type` stored at `from_schema` become `from_schema + 1`."""
    UPCASTERS.setdefault(from_schema, []).append((event_type, upcaster))


def upcast(event_type: str, data: dict, schema: int, current: int | None = None) -> tuple[str, dict, int]:
    """Apply the registered upcasters from `schema` up to the current schema."""
    current = CURRENT_SCHEMA if current is None else current
    while schema < current:
        for wanted, upcaster in UPCASTERS.get(schema, ()):
            if wanted == event_type:
                event_type, data = upcaster(event_type, data)
                break
        schema += 1
    return event_type, data, schema


def canonical(data: Mapping[str, Any]) -> dict:
    """Event data as it reads back from the store (a JSON round trip with sorted keys)."""
    return json.loads(_dumps(data))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
