"""The table's own events in words, and the one place a served event gets its sentence.

The table's events (events/table.py ENGINE_EVENTS: who sits where, whose clock ran out, who took
over a seat) narrate here, as a game's narrate in its ruleset (rules/narration.py); `narrate`
chooses between the two.  Sentences name seats by the names players chose, never hold an epoch
time, a hash or a seat's entropy: a deadline reads as "ran out", a clock setting as "60 s a move".
"""
from __future__ import annotations

import logging
from typing import Any, Mapping

from events.forks import FORK_DEALT
from events.table import ENGINE_EVENTS
from rules.base import Event
from rules.narration import Names, Narration, Narrator, generic, plural, said
from rules.ruleset import adopt

log = logging.getLogger(__name__)

BOT_LEVELS = {"random": "a random bot", "greedy": "a greedy bot", "cautious": "a cautious bot",
              "ismcts": "a searching bot"}


def bot(level: Any) -> str:
    """A bot level in words ("ismcts:16" is a searching bot like "ismcts")."""
    base = str(level).split(":", 1)[0]
    return BOT_LEVELS.get(base, "a bot")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _seating(seats: list[Mapping[str, Any]]) -> str:
    """Who sits down at creation: "Ana, 2 open seats and a greedy bot"."""
    parts, open_seats = [], 0
    for spec in seats:
        if spec.get("kind") == "open":
            open_seats += 1
        elif spec.get("kind") == "bot":
            parts.append(bot(spec.get("level")))
        else:
            parts.append(str(spec["name"]) if spec.get("name") else "a player")
    if open_seats:
        parts.append(plural(open_seats, "open seat"))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" and {parts[-1]}"


def _clock(clock: Mapping[str, Any]) -> str:
    """A clock setting in seconds, not a deadline: " with 60 s a move and 30 s to respond"."""
    move, respond = clock.get("move_seconds"), clock.get("response_seconds")
    said_ = [f"{move} s a move"] if isinstance(move, int) and move else []
    said_ += [f"{respond} s to respond"] if isinstance(respond, int) and respond else []
    return f" with {' and '.join(said_)}" if said_ else ""


def game_created(d: Mapping[str, Any], names: Names, title: str = "the game") -> Narration:
    seats = [s for s in d.get("seats", ()) if isinstance(s, Mapping)]
    refs = [{"kind": "seat", "id": i, "text": str(s["name"])} for i, s in enumerate(seats)
            if s.get("kind") not in ("open", "bot") and s.get("name")]  # the seats the sentence names
    return said(f"A game of {title} was set up for {plural(len(seats), 'seat')}: {_seating(seats)}"
                f"{_clock(d.get('clock') or {})}.", *refs)


def seat_claimed(d: Mapping[str, Any], names: Names) -> Narration:
    """The seat's number is in the ref, not the sentence: "Bo took an open seat"."""
    seat = d["seat"]
    if not d.get("name"):
        return said(f"{names(seat)} was taken by a player.", names.ref(seat))
    return said(f"{d['name']} took an open seat.", {"kind": "seat", "id": seat, "text": str(d["name"])})


def seat_handed_to_bot(d: Mapping[str, Any], names: Names) -> Narration:
    reason = d.get("reason")
    because = f" ({reason})" if isinstance(reason, str) and reason else ""
    return said(f"{bot(d.get('level')).capitalize()} took over {names(d['seat'])}'s seat{because}.",
                names.ref(d["seat"]))


def seat_reclaimed(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} took their seat back from the bot.", names.ref(d["seat"]))


def clock_expired(d: Mapping[str, Any], names: Names) -> Narration:
    count = d.get("timeouts")
    times = f" for the {_ordinal(count)} time" if isinstance(count, int) and count > 1 else ""
    return said(f"{names(d['seat'])}'s clock ran out{times}.", names.ref(d["seat"]))


def entropy_contributed(d: Mapping[str, Any], names: Names) -> Narration:
    """Who added to the seed (what they sent is in the event's data, not in the sentence)."""
    return said(f"{names(d['seat'])} added their own entropy to the game's seed.", names.ref(d["seat"]))


def contributions_closed(d: Mapping[str, Any], names: Names) -> Narration:
    missing = [seat for seat in d.get("missing") or () if isinstance(seat, int)]
    if not missing:
        return said("The wait for the players' entropy is over.")
    who = ", ".join(names(seat) for seat in missing)
    return said(f"The wait for the players' entropy is over; the game goes ahead without {who}'s.",
                *(names.ref(seat) for seat in missing))


def game_abandoned(d: Mapping[str, Any], names: Names) -> Narration:
    idle = d.get("idle_seconds")
    after = f" after {duration(idle)} without a move" if isinstance(idle, int) else ""
    return said(f"The game was abandoned{after}: nobody wins.")


def duration(seconds: int) -> str:
    """A span in the largest whole unit it reaches: "2 days", "3 hours", "5 minutes"."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size:
            return plural(round(seconds / size), unit)
    return plural(seconds, "second")


def seat_resigned(d: Mapping[str, Any], names: Names) -> Narration:
    seat = d["seat"]
    then = "; the game is over." if d["then"] == "end" else ": a bot plays their seat to the end."
    return said(f"{names(seat)} resigned{then}", names.ref(seat))


def game_aborted(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} aborted the game before it started: nobody wins.", names.ref(d["seat"]))


def seat_left(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} left the table; the seat is open again.", names.ref(d["seat"]))


def rematch_asked(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} asks for a rematch.", names.ref(d["seat"]))


def rematch_created(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"Everyone agreed: the rematch is game {d['game_id']}.")


def seat_token_renewed(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} took a fresh token for their seat; the old one no longer works.",
                names.ref(d["seat"]))


def forked_from(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"This game is a fork of game {d['game']} at version {d['version']}: it starts from that position, "
                "its hidden cards dealt afresh.")


def fork_dealt(d: Mapping[str, Any], names: Names) -> Narration:
    return said("The forked position is set up: what nobody could see there is shuffled and dealt afresh.")


TABLE_NARRATIONS: dict[str, Narrator] = {
    "ForkedFrom": forked_from,
    "SeatTokenRenewed": seat_token_renewed,
    "SeatResigned": seat_resigned, "GameAborted": game_aborted, "SeatLeft": seat_left,
    "RematchAsked": rematch_asked, "RematchCreated": rematch_created,
    "GameCreated": game_created, "SeatClaimed": seat_claimed, "SeatHandedToBot": seat_handed_to_bot,
    "SeatReclaimed": seat_reclaimed, "ClockExpired": clock_expired, "GameAbandoned": game_abandoned,
    "EntropyContributed": entropy_contributed, "ContributionsClosed": contributions_closed,
}


def narrate(ruleset: Any, event: Event, names: Names) -> Narration:
    """The sentence of an event whose data is already what its reader may read: the table's own
    events here, a game's by its ruleset.  A ruleset that cannot narrate an event (a bug, or an
    upcast event it no longer knows) must not turn a read into a 500: it gets the generic words."""
    ruleset = adopt(ruleset)  # a bare Decider (rules/base.py) gets the base's defaults: the generic words
    if event.type == "GameCreated":
        return game_created(event.data, names, ruleset.title or "the game")
    if event.type in ENGINE_EVENTS:
        return TABLE_NARRATIONS[event.type](event.data, names)
    if event.type == FORK_DEALT:  # the engine's, though the game's state: a ruleset does not know it
        return fork_dealt(event.data, names)
    try:
        return ruleset.narrate(event, names)
    except (KeyError, IndexError, TypeError, ValueError):
        log.exception("%s could not narrate %s", ruleset.name, event.type)
        return generic(event.type, event.data, names)
