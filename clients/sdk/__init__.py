"""Typed Python SDK for the Tabletop Cartel HTTP API (v1).

It speaks only HTTP (through ``requests``): nothing here imports the server,
the event store or the rulesets.  Every endpoint of ``openapi.yaml`` has a
method on :class:`CartelClient`; every answer is a frozen dataclass whose
``raw`` field keeps the JSON document as received, so fields added by a newer
server are never lost.

Errors: every ``application/problem+json`` answer becomes a
:class:`ProblemError` (or a subclass chosen by status and problem type, e.g.
:class:`Conflict` for 409, :class:`IllegalMove` for a 422 the rules forbid);
a server that cannot be reached raises :class:`TransportError`.

Retries: calls that are safe to repeat (every GET, ``POST /v1/replays``, and
``send`` because it always carries an ``Idempotency-Key``) are retried on
connection errors and timeouts, a few times with backoff.  Creating a game
and claiming a seat are not retried (a repeat would create a second game or
fail on the now-taken seat).  A 429 (rate limited) is waited out for
every call, a 503 for those safe to repeat: the SDK sleeps the server's
``Retry-After`` (at most ``max_retry_wait`` s, ``throttle_retries`` times)
and sends the same request again, Idempotency-Key included.

Quick start::

    from clients.sdk import CartelClient, SeatSpec

    client = CartelClient("http://127.0.0.1:8000")
    game = client.create_game("kingpin", [SeatSpec.human(), SeatSpec.bot("random")])
    me = client.with_token(game.tokens[0])
    state = me.game(game.id)
    result = me.send(game.id, state.legal_moves[0], expected_version=state.version)
    for event in me.follow(game.id, after=result.version):

Layout: :mod:`clients.sdk.client` (the client, retries, ``send_fresh``),
:mod:`clients.sdk.models` (inputs and answers), :mod:`clients.sdk.errors`
(exceptions, and how an answer becomes one), :mod:`clients.sdk.stream`
(following over SSE; the wire format is :mod:`clients._sse`).  Import from
``clients.sdk``: the modules are an implementation detail.
"""
# The `X as X` names were public in the single-file sdk.py this package replaced: still importable from
# here, but not part of __all__.
from clients.sdk.client import DEFAULT_URL, CartelClient, send_fresh
from clients.sdk.errors import (
    BadRequest,
    CartelError,
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    IllegalMove,
    NotFound,
    PayloadTooLarge,
    ProblemError,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    Unprocessable,
)
from clients.sdk.errors import could_not_connect as could_not_connect
from clients.sdk.errors import problem_from_response as problem_from_response
from clients.sdk.errors import retry_after_seconds as retry_after_seconds
from clients.sdk.models import JSON as JSON
from clients.sdk.models import (
    AnalysedMove,
    Analysis,
    ClaimedSeat,
    ClockSpec,
    CommandResult,
    CreatedGame,
    Event,
    EventsPage,
    Game,
    GameSummary,
    Health,
    Lobby,
    OptionInfo,
    ReclaimedSeat,
    ReplayResult,
    Ruleset,
    Seat,
    SeatSpec,
    StateAt,
    Turn,
)
from clients.sdk.models import Command as Command
from clients.sdk.models import HistoryInput as HistoryInput
from clients.sdk.my_stream import MyStream, Note
from clients.sdk.stream import EventStream

__all__ = [
    "CartelClient", "EventStream", "MyStream", "Note", "send_fresh",
    "SeatSpec", "ClockSpec",
    "Ruleset", "OptionInfo", "Seat", "CreatedGame", "GameSummary", "Lobby", "ClaimedSeat", "ReclaimedSeat",
    "Game", "Turn", "Event", "CommandResult", "EventsPage", "StateAt", "ReplayResult", "Health",
    "Analysis", "AnalysedMove",
    "CartelError", "TransportError", "ProblemError", "BadRequest", "Unauthorized", "Forbidden", "NotFound",
    "Conflict", "PayloadTooLarge", "Unprocessable", "IllegalMove", "IdempotencyKeyReused", "ServerError",
    "RateLimited", "ServiceUnavailable",
    "DEFAULT_URL",
]
