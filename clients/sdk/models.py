"""What the SDK sends and receives: the inputs of ``create_game`` and a frozen dataclass per answer.

Every answer keeps the JSON document as received in ``raw``, so fields added
by a newer server are never lost; ``from_json`` reads only what it names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

__all__ = [
    "JSON", "Command", "HistoryInput",
    "SeatSpec", "ClockSpec",
    "Ruleset", "OptionInfo", "Seat", "CreatedGame", "GameSummary", "Lobby", "ClaimedSeat", "ReclaimedSeat", "Game",
    "Event", "CommandResult", "EventsPage", "StateAt", "ReplayResult", "Health",
]

JSON = dict[str, Any]
Command = Mapping[str, Any]
"""A command: ``{"type": ..., **args}``, as listed in ``Game.legal_moves``."""
HistoryInput = str | bytes | Path
"""A history to verify: its JSON Lines text, as ``str`` or ``bytes``, or the path of a ``.jsonl`` file."""


# ======================================================================= input
@dataclass(frozen=True)
class SeatSpec:
    """A seat to create: ``human`` (a token is issued now), ``bot`` (played by the workers) or ``open`` (claimable)."""

    kind: str
    level: str | None = None
    name: str | None = None
    as_player: bool = False  # a human seat bound to the calling player (a client holding a player key)

    @classmethod
    def human(cls, name: str | None = None, *, as_player: bool = False) -> SeatSpec:
        return cls("human", None, name, as_player)

    @classmethod
    def bot(cls, level: str = "random", name: str | None = None) -> SeatSpec:
        return cls("bot", level, name)

    @classmethod
    def open(cls, name: str | None = None) -> SeatSpec:
        return cls("open", None, name)

    def to_json(self) -> JSON:
        body: JSON = {"kind": self.kind}
        if self.level is not None:
            body["level"] = self.level
        if self.name is not None:
            body["name"] = self.name
        if self.as_player:
            body["as_player"] = True
        return body


@dataclass(frozen=True)
class ClockSpec:
    """Turn clocks for human seats (seconds); after ``timeouts_before_bot`` expiries a bot takes the seat over."""

    move_seconds: int | None = None
    response_seconds: int | None = None
    timeouts_before_bot: int | None = None
    bot_level: str | None = None

    def to_json(self) -> JSON:
        return {k: v for k, v in self.__dict__.items() if v is not None}


# ====================================================================== output
def _int_keys(mapping: Mapping[str, Any] | None) -> dict[int, Any]:
    return {int(k): v for k, v in (mapping or {}).items()}


@dataclass(frozen=True)
class OptionInfo:
    """A ruleset option: its default, allowed values (empty: any) and what it does."""

    default: Any = None
    choices: list[Any] = field(default_factory=list)
    description: str = ""

    @classmethod
    def from_json(cls, doc: JSON) -> OptionInfo:
        return cls(doc.get("default"), list(doc.get("choices") or []), doc.get("description") or "")


@dataclass(frozen=True)
class Ruleset:
    """A game the server hosts (``GET /v1/rulesets``)."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: dict[str, OptionInfo]
    bot_levels: list[str]
    rules_doc: str | None
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> Ruleset:
        return cls(doc["name"], str(doc.get("title") or doc["name"]), doc["min_seats"], doc["max_seats"],
                   {k: OptionInfo.from_json(v) for k, v in (doc.get("options") or {}).items()},
                   list(doc.get("bot_levels") or []), doc.get("rules_doc"), doc)


@dataclass(frozen=True)
class Seat:
    """A seat of a game; ``token`` only in the answer that issued it."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token: str | None = field(default=None, repr=False)
    player: str | None = None  # the id of the player the seat is bound to (its name is theirs); None: anonymous
    invitation: str | None = field(default=None, repr=False)  # an unlisted or private table's open seat, once

    @classmethod
    def from_json(cls, doc: JSON) -> Seat:
        return cls(doc["seat"], doc["kind"], doc.get("level"), doc.get("name"), doc.get("token"), doc.get("player"),
                   doc.get("invitation"))


@dataclass(frozen=True)
class CreatedGame:
    """The answer to ``create_game``: the human seats' tokens are shown here once."""

    id: str
    ruleset: str
    status: str
    version: int
    seed_commitment: str
    seats: list[Seat]
    raw: JSON = field(repr=False, compare=False)

    @property
    def tokens(self) -> dict[int, str]:
        """seat -> token, for the seats that got one (the human seats)."""
        return {s.seat: s.token for s in self.seats if s.token}

    @property
    def forked_from(self) -> JSON | None:
        """A fork's original and the version it was forked at (``{"game", "version"}``); None otherwise."""
        return self.raw.get("forked_from")

    @classmethod
    def from_json(cls, doc: JSON) -> CreatedGame:
        return cls(doc["id"], doc["ruleset"], doc["status"], doc["version"], doc["seed_commitment"],
                   [Seat.from_json(s) for s in doc.get("seats", [])], doc)


@dataclass(frozen=True)
class GameSummary:
    """A lobby row."""

    id: str
    ruleset: str
    status: str
    version: int
    created_at: int | None
    seats: list[Seat]
    open_seats: list[int]
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> GameSummary:
        return cls(doc["id"], doc["ruleset"], doc["status"], doc["version"], doc.get("created_at"),
                   [Seat.from_json(s) for s in doc.get("seats", [])], list(doc.get("open_seats") or []), doc)


@dataclass(frozen=True)
class Lobby:
    """A page of the lobby (newest first)."""

    games: list[GameSummary]
    total: int
    offset: int
    limit: int
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> Lobby:
        return cls([GameSummary.from_json(g) for g in doc.get("games", [])], doc.get("total", 0),
                   doc.get("offset", 0), doc.get("limit", 0), doc)


@dataclass(frozen=True)
class ClaimedSeat:
    """The answer to ``claim``: the seat's token (shown once)."""

    game_id: str
    seat: int
    token: str = field(repr=False)
    status: str
    version: int
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> ClaimedSeat:
        return cls(doc["game_id"], doc["seat"], doc["token"], doc["status"], doc["version"], doc)


@dataclass(frozen=True)
class ReclaimedSeat:
    """The answer to ``reclaim``: the seat is a human's again."""

    game_id: str
    seat: int
    kind: str
    status: str
    version: int
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> ReclaimedSeat:
        return cls(doc["game_id"], doc["seat"], doc["kind"], doc["status"], doc["version"], doc)


@dataclass(frozen=True)
class Game:
    """A game as the caller sees it (``GET /v1/games/{id}``).

    ``awaiting`` maps seat -> ``"move"`` or ``"response"`` (who must act now),
    ``clocks`` seat -> deadline (ms since the epoch), ``legal_moves`` lists the
    commands *the caller* may send now (empty for a spectator or a seat that
    is not awaited), each postable as-is.  ``seed`` is revealed once finished.
    """

    id: str
    ruleset: str
    status: str
    version: int
    seats: list[Seat]
    open_seats: list[int]
    you: int | None
    awaiting: dict[int, str]
    clocks: dict[int, int]
    legal_moves: list[JSON]
    view: JSON | None
    outcome: JSON | None
    seed_commitment: str | None
    seed: str | None
    created_at: int | None
    raw: JSON = field(repr=False, compare=False)

    @property
    def finished(self) -> bool:
        """Over: finished by the rules, or abandoned (nobody played it for the server's idle time)."""
        return self.status in ("finished", "abandoned")

    @property
    def my_turn(self) -> bool:
        """The caller's seat is awaited (it has legal moves to choose from)."""
        return self.you is not None and self.you in self.awaiting

    @classmethod
    def from_json(cls, doc: JSON) -> Game:
        return cls(doc["id"], doc["ruleset"], doc["status"], doc["version"],
                   [Seat.from_json(s) for s in doc.get("seats", [])], list(doc.get("open_seats") or []),
                   doc.get("you"), _int_keys(doc.get("awaiting")), _int_keys(doc.get("clocks")),
                   list(doc.get("legal_moves") or []), doc.get("view"), doc.get("outcome"),
                   doc.get("seed_commitment"), doc.get("seed"), doc.get("created_at"), doc)


@dataclass(frozen=True)
class Event:
    """One event of a game's feed, redacted for the reader.

    ``actor`` is ``seat:N``, ``bot:N``, ``clock:N`` or ``system``; ``version`` is its place in the game.
    """

    version: int
    type: str
    data: JSON
    actor: str
    at: int
    command_id: str | None = None
    schema: int | None = None
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> Event:
        return cls(doc["version"], doc["type"], doc.get("data") or {}, doc.get("actor", ""), doc.get("at", 0),
                   doc.get("command_id"), doc.get("schema"), doc)


@dataclass(frozen=True)
class Turn:
    """Where a followed game stands after a batch of its events (the stream's ``turn`` message): whose
    turn it is and, for the caller's seat, the moves it may send now, each postable as-is against
    ``version``.  ``events`` are the events of the batch it follows (filled in by
    :meth:`CartelClient.turns`); ``outcome`` is set once the game is over.
    """

    version: int
    status: str
    you: int | None
    awaiting: dict[int, str]
    clocks: dict[int, int]
    legal_moves: list[JSON]
    move_labels: list[str]
    outcome: JSON | None
    events: list[Event] = field(default_factory=list)
    raw: JSON = field(default_factory=dict, repr=False, compare=False)
    overtaken: bool = False
    """This client's own command has taken the game past ``version`` since this message was sent (it was on
    its way): its ``legal_moves`` are stale, and ``my_turn`` is False; a newer turn follows."""

    @property
    def contributions(self) -> JSON | None:
        """Before the start: the human seats whose entropy the game waits for (``owed``) and until when."""
        return self.raw.get("contributions")

    @property
    def owes_entropy(self) -> bool:
        """The caller's seat is one the game waits for (``CartelClient.contribute``; followed games do it)."""
        return self.you is not None and self.you in ((self.contributions or {}).get("owed") or ())

    @property
    def my_turn(self) -> bool:
        """The caller's seat is awaited and may act on this message: ``legal_moves`` holds what it may send
        (False while a bot plays the seat, which is offered no moves, and when ``overtaken``)."""
        return self.you is not None and self.you in self.awaiting and bool(self.legal_moves) and not self.overtaken

    @property
    def finished(self) -> bool:
        """Over: finished by the rules, or abandoned."""
        return self.status in ("finished", "abandoned")

    @classmethod
    def from_json(cls, doc: JSON, events: list[Event] | None = None, overtaken: bool = False) -> Turn:
        return cls(doc["version"], doc["status"], doc.get("you"), _int_keys(doc.get("awaiting")),
                   _int_keys(doc.get("clocks")), list(doc.get("legal_moves") or []),
                   list(doc.get("move_labels") or []), doc.get("outcome"), list(events or []), doc, overtaken)


@dataclass(frozen=True)
class CommandResult:
    """The answer to ``send``.  ``duplicate``: the Idempotency-Key was seen before; this is the original answer."""

    version: int
    status: str
    duplicate: bool
    events: list[Event]
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> CommandResult:
        return cls(doc["version"], doc["status"], bool(doc.get("duplicate")),
                   [Event.from_json(e) for e in doc.get("events", [])], doc)


@dataclass(frozen=True)
class EventsPage:
    """A page of events after some version; pass ``next_after`` as ``after`` while ``has_more``."""

    events: list[Event]
    version: int
    next_after: int
    has_more: bool
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> EventsPage:
        return cls([Event.from_json(e) for e in doc.get("events", [])], doc["version"], doc["next_after"],
                   bool(doc.get("has_more")), doc)


@dataclass(frozen=True)
class StateAt:
    """Time travel: the caller's ``view`` at ``version``; ``state`` (everything) only once the game is finished."""

    version: int
    view: JSON | None
    state: JSON | None
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> StateAt:
        return cls(doc["version"], doc.get("view"), doc.get("state"), doc)


@dataclass(frozen=True)
class AnalysedMove:
    """One legal move of an analysed seat: its ``label``, the search's ``value`` (the seat's mean share of a win
    over its playouts, 0 to 1; None when not tried), its ``share`` of the search's iterations, and whether it is
    the search bot's own move (``bot_move``)."""

    move: Command
    label: str
    value: float | None
    share: float
    visits: int
    bot_move: bool

    @classmethod
    def from_json(cls, doc: JSON) -> AnalysedMove:
        return cls(doc["move"], doc["label"], doc.get("value"), doc["share"], doc["visits"], doc["bot_move"])


@dataclass(frozen=True)
class Analysis:
    """``POST /v1/analysis``: what the search bot weighs for ``seat`` at ``version``.  ``status`` is ``done``
    (``moves`` holds every legal move, best first), ``failed``, or ``queued``/``running`` when it was not done in
    the time the caller waited (follow it with ``CartelClient.analysis(id)``)."""

    id: str
    game: str
    version: int
    seat: int
    budget: int
    status: str
    moves: list[AnalysedMove] | None
    raw: JSON = field(repr=False, compare=False)

    @property
    def done(self) -> bool:
        return self.status in ("done", "failed")

    @property
    def bot_move(self) -> AnalysedMove | None:
        """The move the search bot plays there (the first), once done."""
        return next((m for m in self.moves or () if m.bot_move), None)

    @classmethod
    def from_json(cls, doc: JSON) -> Analysis:
        moves = doc.get("moves")
        return cls(doc["id"], doc["game"], doc["version"], doc["seat"], doc["budget"], doc["status"],
                   None if moves is None else [AnalysedMove.from_json(m) for m in moves], doc)


@dataclass(frozen=True)
class ReplayResult:
    """Verification of a history: ``valid`` (every event re-derives; else the first version that does not,
    or the header field the events contradict, and why) and ``complete`` (the events are the whole game
    the header records, not a prefix of it).  ``summary`` says both in a sentence."""

    valid: bool
    events: int
    diverged_at: int | None
    reason: str | None
    ruleset: str | None
    outcome: JSON | None
    raw: JSON = field(repr=False, compare=False)
    complete: bool = False
    summary: str = ""
    mismatches: tuple[JSON, ...] = ()  # {field, header, events}: each header field the events differ from
    unvouched: tuple[str, ...] = ()  # what an earlier format's header cannot vouch for (game_id...)
    seed_source: str | None = None  # "fixed": the creator chose the seed (an operator's setting) and foresaw the rolls

    @classmethod
    def from_json(cls, doc: JSON) -> ReplayResult:
        return cls(bool(doc["valid"]), doc.get("events", 0), doc.get("diverged_at"), doc.get("reason"),
                   doc.get("ruleset"), doc.get("outcome"), doc, bool(doc.get("complete")), doc.get("summary") or "",
                   tuple(doc.get("mismatches") or ()), tuple(doc.get("unvouched") or ()), doc.get("seed_source"))


@dataclass(frozen=True)
class Health:
    """``/healthz`` or ``/readyz``; ``ok`` is the HTTP status being 200."""

    ok: bool
    status: str
    checks: dict[str, str]
    raw: JSON = field(repr=False, compare=False)
