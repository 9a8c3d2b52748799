"""Events that narrate themselves: one short sentence per event, in the rulebook's words.

A ruleset declares `narrations`: event type -> narrator(data, names) -> Narration.  The narrator
gets the event's data exactly as the reader may read it (already redacted: a seat never reads
another seat's secret through a sentence, because the sentence is written from what it was
given), and `names`, which turns seat numbers into the names the players chose.

A Narration is JSON: {"text": "Ana sold 2 Hits to the $200 Junkie.", "refs": [...]} where each
ref names a thing on the table the sentence touches, for a frontend to highlight:
{"kind": "seat" | "place" | "card" | "piece", "id": <the id the views and commands use>, "text":
<how the sentence names it>}.  Text never holds raw ids, JSON or epoch times; a roll reads as dice
("rolled 3 against 9").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

Narration = dict  # {"text": str, "refs": [{"kind": str, "id": str | int, "text": str}]}
Narrator = Callable[[Mapping[str, Any], "Names"], Narration]
REF_KINDS = ("seat", "place", "card", "piece")


@dataclass(frozen=True)
class Names:
    """Seat numbers to the names players chose ("Seat 2" for a seat without one)."""

    chosen: Sequence[str | None] = ()

    def __call__(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.chosen) and self.chosen[seat]:
            return str(self.chosen[seat])
        return f"Seat {seat}"

    def ref(self, seat: int) -> dict:
        """The ref of a seat the sentence names."""
        return {"kind": "seat", "id": seat, "text": self(seat)}

    @classmethod
    def of_table(cls, table: Mapping[str, Any]) -> Names:
        """The names in a table's seats (events/table.py: a seat's optional `name`); a bot without one is
        "Bot 2", so a reader tells the bots from the people."""
        return cls(tuple(seat.get("name") or (f"Bot {n}" if seat.get("kind") == "bot" else None)
                         for n, seat in enumerate(table.get("seats", ()))))


def said(text: str, *refs: Mapping[str, Any]) -> Narration:
    """A Narration of `text` touching `refs` (in the order the sentence names them)."""
    return {"text": text, "refs": [dict(ref) for ref in refs]}


def ref(kind: str, ident: Any, text: str) -> dict:
    """A ref to a place, card or piece (`kind` one of REF_KINDS)."""
    return {"kind": kind, "id": ident, "text": text}


def plural(count: int, one: str, many: str | None = None) -> str:
    """`plural(2, "Hit")` -> "2 Hits"; `plural(1, "Lid")` -> "1 Lid"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def dice(*values: int) -> str:
    """A roll as dice: `dice(3, 4)` -> "3 and 4"; `dice(6)` -> "6"."""
    values = tuple(values)
    return " and ".join(str(v) for v in values) if len(values) <= 2 else \
        ", ".join(str(v) for v in values[:-1]) + f" and {values[-1]}"


def listing(words: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C" ("nobody" for none)."""
    words = list(words)
    if not words:
        return "nobody"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


_SEATS = re.compile(r"\b[Ss]eat(?:s|\(s\))? (\d+(?:(?:, | and )\d+)*)")


def seats_named(text: str, names: Names) -> str:
    """A sentence the rules wrote with seat numbers ("seat 3 sold a Kilo", "a roll-off among seats 1, 2",
    "it is seat 0's turn") with the players' names instead ("Ana sold a Kilo", "... among Bo and Cy")."""
    return _SEATS.sub(lambda m: listing([names(int(n)) for n in re.split(r", | and ", m.group(1))]), text)


def outcome_text(result: Mapping[str, Any], names: Names) -> str:
    """How a game ended, in one sentence naming seats as the game does: "Ana wins: reached 10 Victory Points
    on their own turn.", "Ana and Bo win: ...", "Nobody wins: the game was abandoned." (the rules' `reason`
    is written with seat numbers, for the record; this is what a player reads)."""
    winners = [s for s in result.get("winners") or () if isinstance(s, int)]
    reason = result.get("reason")
    if reason == "abandoned":
        return "Nobody wins: the game was abandoned."
    if reason == "aborted":
        return "Nobody wins: the game was aborted before it started."
    who = listing([names(s) for s in winners]) if winners else "Nobody"
    verb = "win" if len(winners) > 1 else "wins"
    return f"{who} {verb}" + (f": {seats_named(reason, names)}" if isinstance(reason, str) and reason else "") + "."


def generic(event_type: str, data: Mapping[str, Any], names: Names) -> Narration:
    """A ruleset without a narrator for `event_type` (one from outside this package): the type in words,
    and the seat it is about when the data names one."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in event_type).strip()
    seat = data.get("seat")
    if isinstance(seat, int):
        return said(f"{names(seat)}: {words}.", names.ref(seat))
    return said(f"{words[:1].upper()}{words[1:]}.")
