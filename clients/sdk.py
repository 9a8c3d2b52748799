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
        print(event.version, event.type)
"""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Generator, Iterator, Mapping, Sequence, Union

import requests

from clients._sse import SSEParser

__all__ = [
    "CartelClient", "EventStream", "send_fresh",
    "SeatSpec", "ClockSpec",
    "Ruleset", "OptionInfo", "Seat", "CreatedGame", "GameSummary", "Lobby", "ClaimedSeat", "Game", "Event",
    "CommandResult", "EventsPage", "StateAt", "ReplayResult", "Health",
    "CartelError", "TransportError", "ProblemError", "BadRequest", "Unauthorized", "Forbidden", "NotFound",
    "Conflict", "PayloadTooLarge", "Unprocessable", "IllegalMove", "IdempotencyKeyReused", "ServerError",
    "RateLimited", "ServiceUnavailable",
    "DEFAULT_URL",
]

DEFAULT_URL = "http://127.0.0.1:8000"
Command = Mapping[str, Any]
"""A command: ``{"type": ..., **args}``, as listed in ``Game.legal_moves``."""
JSON = dict[str, Any]


# ====================================================================== errors
class CartelError(Exception):
    """Base of every error this SDK raises."""


class TransportError(CartelError):
    """The server could not be reached, did not answer in time or broke a connection, after any retries.

    ``reached`` tells the two apart: False when no connection could be opened
    (refused, unknown host, connect timeout: the URL may be wrong), True when
    the server did answer on this URL (a read timed out, a stream broke).
    """

    def __init__(self, message: str, url: str, cause: BaseException | None = None, *, reached: bool = False):
        super().__init__(message)
        self.url = url
        self.cause = cause
        self.reached = reached


class ProblemError(CartelError):
    """An error answer: an RFC 9457 ``application/problem+json`` document.

    ``status``, ``title``, ``detail``, ``type``, ``rule`` (the rulebook section
    an illegal move violated), ``version`` (the game's current version, on 409)
    and ``errors`` (field-by-field, on 400) come from the document; ``raw`` is
    the whole parsed document and ``text`` the response body as received.  An
    error answer that is not problem+json (a proxy's HTML page, say) still
    raises a ProblemError, with ``raw == {}``.
    """

    def __init__(self, status: int, raw: JSON | None = None, text: str = "", method: str = "", url: str = ""):
        self.raw: JSON = raw or {}
        self.text = text
        self.status = int(self.raw.get("status") or status)
        self.title: str = self.raw.get("title") or _reason(status)
        self.detail: str = self.raw.get("detail") or (text.strip()[:300] if text else "") or self.title
        self.type: str = self.raw.get("type") or "about:blank"
        self.rule: str | None = self.raw.get("rule")
        self.version: int | None = self.raw.get("version")
        self.errors: Any = self.raw.get("errors")
        self.instance: str | None = self.raw.get("instance")
        self.retry_after: float | None = None
        """Seconds the server asked the client to wait (``Retry-After``), on 429 and 503."""
        self.method, self.url = method, url
        super().__init__(str(self))

    @property
    def kind(self) -> str:
        """The last part of ``type``: ``stale-version``, ``illegal-move``, ``not-found``..."""
        return self.type.rstrip("/").rsplit("/", 1)[-1]

    def __str__(self) -> str:
        text = f"{self.status} {self.title}: {self.detail}"
        if self.rule:
            text += f" (rule: {self.rule})"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, kind={self.kind!r}, detail={self.detail!r})"


class BadRequest(ProblemError):
    """400: the request does not match its schema, or a command is malformed (``rule`` may be set)."""


class Unauthorized(ProblemError):
    """401: no seat token, or a malformed Authorization header."""


class Forbidden(ProblemError):
    """403: the token holds no seat in this game, or the history is not published yet."""


class NotFound(ProblemError):
    """404: no such game, seat, ruleset or version."""


class Conflict(ProblemError):
    """409: the game moved on since the version the command was decided against; ``version`` is the current one."""


class PayloadTooLarge(ProblemError):
    """413: the body is over the server's limit."""


class Unprocessable(ProblemError):
    """422: a well-formed request the game does not allow."""


class IllegalMove(Unprocessable):
    """422 ``illegal-move``: the rules forbid it; ``detail`` says why and ``rule`` names the rulebook section."""


class IdempotencyKeyReused(Unprocessable):
    """422 ``idempotency-key-reused``: the same Idempotency-Key was sent before with a different command."""


class ServerError(ProblemError):
    """5xx."""


class RateLimited(ProblemError):
    """429: this client (address or seat token) is over its rate limit; ``retry_after`` is the server's
    Retry-After in seconds.  Raised only once the SDK's bounded waits and retries are used up."""


class ServiceUnavailable(ServerError):
    """503: the server cannot take the request now (e.g. Redis is down); ``retry_after`` as sent, if any."""


_BY_STATUS: dict[int, type[ProblemError]] = {400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound,
                                             409: Conflict, 413: PayloadTooLarge, 422: Unprocessable,
                                             429: RateLimited, 503: ServiceUnavailable}
_BY_KIND: dict[str, type[ProblemError]] = {"illegal-move": IllegalMove, "idempotency-key-reused": IdempotencyKeyReused}


def _reason(status: int) -> str:
    try:
        import http
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem_from_response(response: requests.Response) -> ProblemError:
    """The ProblemError (subclass) for an error response."""
    text = response.text
    raw: JSON = {}
    content_type = response.headers.get("Content-Type", "")
    if "json" in content_type:
        try:
            parsed = response.json()
            if isinstance(parsed, dict):
                raw = parsed
        except ValueError:
            pass
    error = ProblemError(response.status_code, raw, text, response.request.method or "", response.url)
    cls = _BY_KIND.get(error.kind) if raw else None
    if cls is None:
        cls = _BY_STATUS.get(error.status) or (ServerError if error.status >= 500 else ProblemError)
    if cls is not ProblemError:
        error = cls(response.status_code, raw, text, response.request.method or "", response.url)
    error.retry_after = retry_after_seconds(response)
    return error


def retry_after_seconds(response: requests.Response) -> float | None:
    """The ``Retry-After`` header in seconds (delay-seconds or an HTTP date), None if absent or unreadable."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        from email.utils import parsedate_to_datetime
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def could_not_connect(error: BaseException) -> bool:
    """The error happened before a connection was open (refused, unknown host, connect timeout)."""
    import urllib3.exceptions
    if isinstance(error, requests.ConnectTimeout):
        return True
    seen: BaseException | None = error
    for _ in range(5):  # requests wraps urllib3's MaxRetryError, whose `reason` is the real cause
        if seen is None:
            return False
        if isinstance(seen, urllib3.exceptions.NewConnectionError):
            return True
        seen = getattr(seen, "reason", None) or (seen.args[0] if seen.args and isinstance(seen.args[0],
                                                                                           BaseException) else None)
    return False


# ======================================================================= input
@dataclass(frozen=True)
class SeatSpec:
    """A seat to create: ``human`` (a token is issued now), ``bot`` (played by the workers) or ``open`` (claimable)."""

    kind: str
    level: str | None = None
    name: str | None = None

    @classmethod
    def human(cls, name: str | None = None) -> "SeatSpec":
        return cls("human", None, name)

    @classmethod
    def bot(cls, level: str = "random", name: str | None = None) -> "SeatSpec":
        return cls("bot", level, name)

    @classmethod
    def open(cls, name: str | None = None) -> "SeatSpec":
        return cls("open", None, name)

    def to_json(self) -> JSON:
        body: JSON = {"kind": self.kind}
        if self.level is not None:
            body["level"] = self.level
        if self.name is not None:
            body["name"] = self.name
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
    def from_json(cls, doc: JSON) -> "OptionInfo":
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
    def from_json(cls, doc: JSON) -> "Ruleset":
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

    @classmethod
    def from_json(cls, doc: JSON) -> "Seat":
        return cls(doc["seat"], doc["kind"], doc.get("level"), doc.get("name"), doc.get("token"))


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

    @classmethod
    def from_json(cls, doc: JSON) -> "CreatedGame":
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
    def from_json(cls, doc: JSON) -> "GameSummary":
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
    def from_json(cls, doc: JSON) -> "Lobby":
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
    def from_json(cls, doc: JSON) -> "ClaimedSeat":
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
    def from_json(cls, doc: JSON) -> "ReclaimedSeat":
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
        return self.status == "finished"

    @property
    def my_turn(self) -> bool:
        """The caller's seat is awaited (it has legal moves to choose from)."""
        return self.you is not None and self.you in self.awaiting

    @classmethod
    def from_json(cls, doc: JSON) -> "Game":
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
    def from_json(cls, doc: JSON) -> "Event":
        return cls(doc["version"], doc["type"], doc.get("data") or {}, doc.get("actor", ""), doc.get("at", 0),
                   doc.get("command_id"), doc.get("schema"), doc)


@dataclass(frozen=True)
class CommandResult:
    """The answer to ``send``.  ``duplicate``: the Idempotency-Key was seen before; this is the original answer."""

    version: int
    status: str
    duplicate: bool
    events: list[Event]
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> "CommandResult":
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
    def from_json(cls, doc: JSON) -> "EventsPage":
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
    def from_json(cls, doc: JSON) -> "StateAt":
        return cls(doc["version"], doc.get("view"), doc.get("state"), doc)


@dataclass(frozen=True)
class ReplayResult:
    """Verification of a history: ``valid``, or the first version that does not verify and why."""

    valid: bool
    events: int
    diverged_at: int | None
    reason: str | None
    ruleset: str | None
    outcome: JSON | None
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: JSON) -> "ReplayResult":
        return cls(bool(doc["valid"]), doc.get("events", 0), doc.get("diverged_at"), doc.get("reason"),
                   doc.get("ruleset"), doc.get("outcome"), doc)


@dataclass(frozen=True)
class Health:
    """``/healthz`` or ``/readyz``; ``ok`` is the HTTP status being 200."""

    ok: bool
    status: str
    checks: dict[str, str]
    raw: JSON = field(repr=False, compare=False)


# ====================================================================== client
HistoryInput = Union[str, bytes, Path]


class CartelClient:
    """One server, one identity: a seat token, or none (a spectator).

    ``timeout`` is the per-request timeout in seconds (connect and read);
    ``retries`` how many times a call that is safe to repeat is retried after a
    connection error or timeout.  A 429 (rate limited), and a 503 on a call
    safe to repeat, is retried after the server's ``Retry-After`` up to
    ``throttle_retries`` times, if that wait is at most ``max_retry_wait``
    seconds; then :class:`RateLimited` / :class:`ServiceUnavailable` is raised.  A client holds a ``requests.Session``: use
    one per thread (``with_token`` shares the session, so give each thread its
    own client), and ``close()`` it (or use it as a context manager) when done.
    """

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, timeout: float = 10.0, *,
                 retries: int = 2, backoff: float = 0.25, session: requests.Session | None = None,
                 user_agent: str = "tabletop-cartel-sdk/1", throttle_retries: int = 3, max_retry_wait: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.throttle_retries = throttle_retries
        self.max_retry_wait = max_retry_wait
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", user_agent)
        self.last_idempotency_key: str | None = None
        """The Idempotency-Key of the last ``send`` (generated with uuid4 unless one was given)."""

    # ------------------------------------------------------------ lifecycle
    def with_token(self, token: str | None) -> "CartelClient":
        """A client for another seat (or a spectator, with None) on the same server and session."""
        return CartelClient(self.base_url, token, self.timeout, retries=self.retries, backoff=self.backoff,
                            session=self.session, throttle_retries=self.throttle_retries,
                            max_retry_wait=self.max_retry_wait)

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> "CartelClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"CartelClient({self.base_url!r}, token={'***' if self.token else None})"

    # ----------------------------------------------------------- transport
    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = {"Accept": "application/json, application/problem+json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update(extra or {})
        return headers

    def _request(self, method: str, path: str, *, idempotent: bool, params: Mapping[str, Any] | None = None,
                 json_body: Any = None, data: bytes | None = None, headers: Mapping[str, str] | None = None,
                 ok: Sequence[int] = (), stream: bool = False,
                 timeout: float | tuple[float, float] | None = None) -> requests.Response:
        """Send one request; retry connection errors if ``idempotent``, and 429 (and 503 if ``idempotent``)
        after their Retry-After; raise ProblemError for error answers (except the statuses listed in ``ok``).

        Every attempt sends the same headers, so a command keeps its Idempotency-Key across retries."""
        url = self.base_url + path
        params = {k: v for k, v in (params or {}).items() if v is not None}
        all_headers = self._headers(headers)
        for throttled in range(self.throttle_retries + 1):
            response = self._send_once(method, url, idempotent, params=params, json=json_body, data=data,
                                        headers=all_headers, stream=stream,
                                        timeout=timeout if timeout is not None else self.timeout)
            if response.status_code < 400 or response.status_code in ok:
                return response
            try:
                error = problem_from_response(response)
            finally:
                response.close()
            wait = self._throttle_wait(error, idempotent)
            if wait is None or throttled >= self.throttle_retries:
                raise error
            time.sleep(wait)
        raise AssertionError("unreachable")

    def _send_once(self, method: str, url: str, idempotent: bool, **kwargs: Any) -> requests.Response:
        """One request, retrying connection errors and timeouts (``idempotent`` only) with backoff."""
        attempts = 1 + (self.retries if idempotent else 0)
        for attempt in range(attempts):
            try:
                return self.session.request(method, url, **kwargs)
            except (requests.ConnectionError, requests.Timeout) as error:
                if attempt + 1 >= attempts:
                    reached = not could_not_connect(error)
                    what = ("did not answer in time" if isinstance(error, requests.Timeout) and reached
                            else "broke the connection" if reached else "could not be reached")
                    raise TransportError(f"the server {what}: {method} {url} ({_short(error)})", url, error,
                                         reached=reached) from None
                time.sleep(self.backoff * (2 ** attempt))
        raise AssertionError("unreachable")

    def _throttle_wait(self, error: ProblemError, idempotent: bool) -> float | None:
        """Seconds to wait before retrying this error answer, or None not to retry it.

        A 429 is refused before the server does anything, so any request may be repeated; a 503 only
        if it is safe to repeat.  A wait longer than ``max_retry_wait`` is not worth blocking for."""
        retryable = error.status == 429 or (error.status == 503 and idempotent)
        if not retryable or error.retry_after is None or error.retry_after > self.max_retry_wait:
            return None
        return error.retry_after

    def _json(self, method: str, path: str, *, idempotent: bool = True, **kwargs: Any) -> JSON:
        response = self._request(method, path, idempotent=idempotent, **kwargs)
        try:
            doc: JSON = response.json()
            return doc
        except ValueError:
            raise ProblemError(response.status_code, None, f"expected JSON, got: {response.text[:200]}",
                               method, response.url) from None

    # -------------------------------------------------------------- health
    def health(self) -> Health:
        """``GET /healthz``: the web process is up."""
        return self._health("/healthz")

    def ready(self) -> Health:
        """``GET /readyz``: Redis answers and a worker is alive (``ok`` False on 503, no exception)."""
        return self._health("/readyz")

    def metrics(self) -> str:
        """``GET /metrics``: the node's Prometheus metrics, as text (format version 0.0.4)."""
        response = self._request("GET", "/metrics", idempotent=True, headers={"Accept": "text/plain"})
        response.encoding = "utf-8"
        return response.text

    def _health(self, path: str) -> Health:
        response = self._request("GET", path, idempotent=True, ok=(503,))
        doc = response.json()
        return Health(response.status_code == 200, doc.get("status", ""), dict(doc.get("checks") or {}), doc)

    # ------------------------------------------------------------ rulesets
    def rulesets(self) -> list[Ruleset]:
        """``GET /v1/rulesets``: every game the server hosts."""
        return [Ruleset.from_json(r) for r in self._json("GET", "/v1/rulesets")["rulesets"]]

    def ruleset(self, name: str) -> Ruleset:
        """``GET /v1/rulesets/{name}`` (NotFound if the server has no such ruleset)."""
        return Ruleset.from_json(self._json("GET", f"/v1/rulesets/{_seg(name)}"))

    # --------------------------------------------------------------- games
    def create_game(self, ruleset: str, seats: Sequence[SeatSpec | Mapping[str, Any]], *,
                    options: Mapping[str, Any] | None = None, seed: str | None = None,
                    clock: ClockSpec | Mapping[str, Any] | None = None) -> CreatedGame:
        """``POST /v1/games``.  Human seats get their token in the answer (``.tokens``), only there.

        Not retried on a connection error (a retry could create a second game).
        """
        body: JSON = {"ruleset": ruleset,
                      "seats": [s.to_json() if isinstance(s, SeatSpec) else dict(s) for s in seats]}
        if options:
            body["options"] = dict(options)
        if seed is not None:
            body["seed"] = seed
        if clock is not None:
            body["clock"] = clock.to_json() if isinstance(clock, ClockSpec) else dict(clock)
        return CreatedGame.from_json(self._json("POST", "/v1/games", idempotent=False, json_body=body))

    def games(self, *, status: str | None = None, ruleset: str | None = None, offset: int = 0,
              limit: int = 20) -> Lobby:
        """``GET /v1/games``: the lobby, newest first (``status`` is ``open``, ``active`` or ``finished``)."""
        return Lobby.from_json(self._json("GET", "/v1/games", params={"status": status, "ruleset": ruleset,
                                                                     "offset": offset, "limit": limit}))

    lobby = games

    def claim(self, game_id: str, seat: int, name: str | None = None) -> ClaimedSeat:
        """``POST /v1/games/{id}/seats/{seat}/claim``: take an open seat; the answer holds its token (once).

        The last claim starts the game.  Not retried on a connection error.
        """
        body = {"name": name} if name else {}
        return ClaimedSeat.from_json(self._json("POST", f"/v1/games/{_seg(game_id)}/seats/{int(seat)}/claim",
                                                idempotent=False, json_body=body))

    def reclaim(self, game_id: str, seat: int) -> ReclaimedSeat:
        """``POST /v1/games/{id}/seats/{seat}/reclaim``: take back this client's seat after the clock handed it
        to a bot (commands from a seat played by a bot are refused with a 409 until then)."""
        return ReclaimedSeat.from_json(self._json("POST", f"/v1/games/{_seg(game_id)}/seats/{int(seat)}/reclaim",
                                                  idempotent=False))

    def game(self, game_id: str) -> Game:
        """``GET /v1/games/{id}`` as this client's seat (or as a spectator without a token)."""
        return Game.from_json(self._json("GET", f"/v1/games/{_seg(game_id)}"))

    def game_if_changed(self, game_id: str, version: int) -> Game | None:
        """Like ``game`` but None (a cheap 304) while the game is still at ``version``."""
        response = self._request("GET", f"/v1/games/{_seg(game_id)}", idempotent=True,
                                 headers={"If-None-Match": f'"{int(version)}"'})
        if response.status_code == 304:
            return None
        return Game.from_json(response.json())

    # ------------------------------------------------------------- commands
    def send(self, game_id: str, command: Command, expected_version: int | None = None,
             idempotency_key: str | None = None) -> CommandResult:
        """``POST /v1/games/{id}/commands``: send one of ``Game.legal_moves`` as this client's seat.

        With ``expected_version`` (sent as ``If-Match``) a game that moved on
        raises :class:`Conflict` (its ``.version`` is the current one) instead
        of re-deciding the command against a state the caller has not seen.
        An ``Idempotency-Key`` is always sent (a fresh uuid4 unless given), so
        the request is retried after a connection error or timeout: if the
        first attempt did land, the server answers the original result with
        ``duplicate=True`` and appends nothing.
        """
        if "type" not in command:
            raise ValueError("a command needs a 'type' (pick one from Game.legal_moves)")
        key = idempotency_key or uuid.uuid4().hex
        self.last_idempotency_key = key
        headers = {"Idempotency-Key": key}
        if expected_version is not None:
            headers["If-Match"] = f'"{int(expected_version)}"'
        doc = self._json("POST", f"/v1/games/{_seg(game_id)}/commands", idempotent=True,
                         json_body=dict(command), headers=headers)
        return CommandResult.from_json(doc)

    def send_fresh(self, game_id: str, choose: Callable[[Game], Command | None], *,
                   attempts: int = 5) -> CommandResult | None:
        """Fetch the game, let ``choose(game)`` pick a command, send it against that version; on 409 fetch again
        and re-choose, up to ``attempts`` times (then the last Conflict is raised).

        ``choose`` returns None when there is nothing to do (e.g. not our turn): then so does ``send_fresh``.
        """
        return send_fresh(self, game_id, choose, attempts=attempts)

    # --------------------------------------------------------------- events
    def events(self, game_id: str, after: int = 0, limit: int = 100) -> EventsPage:
        """``GET /v1/games/{id}/events?after=&limit=``: one page of the feed, redacted for this reader."""
        return EventsPage.from_json(self._json("GET", f"/v1/games/{_seg(game_id)}/events",
                                               params={"after": after, "limit": limit}))

    def iter_events(self, game_id: str, after: int = 0, page_size: int = 500) -> Iterator[Event]:
        """Every event after ``after`` up to the current version, page by page (not live: see ``follow``)."""
        while True:
            page = self.events(game_id, after, page_size)
            yield from page.events
            if not page.has_more or not page.events:
                return
            after = page.next_after

    def follow(self, game_id: str, after: int = 0, *, max_failures: int = 5,
               read_timeout: float = 60.0) -> "EventStream":
        """Follow the game live over Server-Sent Events: an iterator of :class:`Event` from ``after`` on.

        When the server closes the stream (it does so every ``SSE_MAX_SECONDS``)
        the iterator reconnects at once with ``Last-Event-ID``; after a
        connection error it waits the stream's ``retry`` delay first, giving up
        after ``max_failures`` failures in a row.  Events are never repeated or
        skipped across reconnects.  It stops after the server's ``end`` message
        (the game is finished); ``break`` out of the loop or ``close()`` it to
        stop earlier.
        """
        return EventStream(self, game_id, after, max_failures=max_failures, read_timeout=read_timeout)

    # ---------------------------------------------------------- time travel
    def state(self, game_id: str, version: int | None = None) -> StateAt:
        """``GET /v1/games/{id}/state?version=``: the caller's view at ``version`` (default: the latest)."""
        return StateAt.from_json(self._json("GET", f"/v1/games/{_seg(game_id)}/state", params={"version": version}))

    # -------------------------------------------------------------- history
    def history(self, game_id: str) -> str:
        """``GET /v1/games/{id}/history``: the finished game's full history as JSON Lines text
        (Forbidden until the game is finished)."""
        response = self._request("GET", f"/v1/games/{_seg(game_id)}/history", idempotent=True,
                                 headers={"Accept": "application/x-ndjson, application/problem+json"})
        response.encoding = "utf-8"
        return response.text

    def export_history(self, game_id: str, out: IO[bytes] | str | Path) -> int:
        """Stream the history into a binary file object or to a path; returns the bytes written."""
        response = self._request("GET", f"/v1/games/{_seg(game_id)}/history", idempotent=True, stream=True,
                                 headers={"Accept": "application/x-ndjson, application/problem+json"})
        written = 0
        try:
            if isinstance(out, (str, Path)):
                with open(out, "wb") as handle:
                    for chunk in response.iter_content(chunk_size=65536):
                        written += handle.write(chunk)
            else:
                for chunk in response.iter_content(chunk_size=65536):
                    written += out.write(chunk) or 0
        finally:
            response.close()
        return written

    def verify(self, history: HistoryInput) -> ReplayResult:
        """``POST /v1/replays``: re-fold a history (text, bytes, or a path to a ``.jsonl`` file) and re-derive every
        roll from its revealed seed.  ``valid`` False comes with ``diverged_at`` and ``reason``."""
        if isinstance(history, Path):
            body = history.read_bytes()
        elif isinstance(history, str):
            body = history.encode("utf-8")
        else:
            body = bytes(history)
        return ReplayResult.from_json(self._json("POST", "/v1/replays", data=body,
                                                 headers={"Content-Type": "application/x-ndjson"}))


def send_fresh(client: CartelClient, game_id: str, choose: Callable[[Game], Command | None], *,
               attempts: int = 5) -> CommandResult | None:
    """See :meth:`CartelClient.send_fresh`."""
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    for attempt in range(attempts):
        game = client.game(game_id)
        command = choose(game)
        if command is None:
            return None
        try:
            return client.send(game_id, command, expected_version=game.version)
        except Conflict:
            if attempt + 1 >= attempts:
                raise
    raise AssertionError("unreachable")


# ========================================================================= SSE
class EventStream:
    """The iterator ``CartelClient.follow`` returns.

    ``last_event_id`` is the version of the last event delivered (what a
    reconnect resumes from), ``connections`` how many SSE connections were
    opened so far, ``finished`` whether the server said ``end``.
    """

    def __init__(self, client: CartelClient, game_id: str, after: int = 0, *, max_failures: int = 5,
                 read_timeout: float = 60.0):
        self.client = client
        self.game_id = game_id
        self.last_event_id = int(after)
        self.max_failures = max_failures
        self.read_timeout = read_timeout
        self.connections = 0
        self.finished = False
        self.retry_ms = 2000
        self._response: requests.Response | None = None
        self._iterator = self._run()

    def __iter__(self) -> "EventStream":
        return self

    def __next__(self) -> Event:
        return next(self._iterator)

    def close(self) -> None:
        """Stop following and drop the connection."""
        self._iterator.close()
        if self._response is not None:
            self._response.close()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> requests.Response:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id:
            headers["Last-Event-ID"] = str(self.last_event_id)
        client = self.client
        response = client.session.get(client.base_url + f"/v1/games/{_seg(self.game_id)}/events",
                                      params={"after": self.last_event_id}, headers=client._headers(headers),
                                      stream=True, timeout=(client.timeout, self.read_timeout))
        if response.status_code >= 400:
            try:
                raise problem_from_response(response)
            finally:
                response.close()
        if "text/event-stream" not in response.headers.get("Content-Type", ""):
            response.close()
            raise ProblemError(response.status_code, None,
                               f"expected text/event-stream, got {response.headers.get('Content-Type')!r}",
                               "GET", response.url)
        return response

    def _run(self) -> Generator[Event, None, None]:
        failures = 0
        while not self.finished:
            try:
                self._response = response = self._connect()
            except (requests.ConnectionError, requests.Timeout, ServerError, RateLimited) as error:
                failures += 1
                self._give_up_after(failures, error)
                time.sleep(self._wait_before_retry(error))
                continue
            # A stream that opened proves the URL right and the server up: the budget is for failures in a
            # row, so a quiet game followed for hours survives any number of broken connections.
            failures = 0
            self.connections += 1
            try:
                yield from self._read(response)
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as error:
                failures += 1
                self._give_up_after(failures, error)
                time.sleep(self.retry_ms / 1000)
            finally:
                response.close()
                self._response = None

    def _read(self, response: requests.Response) -> Generator[Event, None, None]:
        """Deliver one connection's events; return when the server closes it (or says ``end``)."""
        parser = SSEParser()
        opened, delivered = time.monotonic(), 0
        for chunk in response.iter_content(chunk_size=None):
            for message in parser.feed(chunk):
                if parser.retry is not None:
                    self.retry_ms = parser.retry
                if message.event == "end":
                    self.finished = True
                    return
                if message.event != "message":
                    continue
                event = Event.from_json(json.loads(message.data))
                if event.version <= self.last_event_id:
                    continue  # already delivered (never expected, but harmless)
                self.last_event_id = event.version
                delivered += 1
                yield event
        if parser.retry is not None:
            self.retry_ms = parser.retry
        # The server closed the stream (its SSE_MAX_SECONDS): reconnect at once with Last-Event-ID,
        # unless it closed an idle stream right away (then wait its retry delay, not to hammer it).
        if not delivered and time.monotonic() - opened < 0.5:
            time.sleep(self.retry_ms / 1000)

    def _wait_before_retry(self, error: BaseException) -> float:
        """The server's Retry-After on a 429/503 (bounded), else the stream's retry delay."""
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            return min(retry_after, self.client.max_retry_wait)
        return self.retry_ms / 1000

    def _give_up_after(self, failures: int, error: BaseException) -> None:
        """Raise once ``max_failures`` failures in a row are used up, saying truthfully what happened."""
        if failures <= self.max_failures:
            return
        if isinstance(error, ProblemError):
            raise error
        url = self.client.base_url
        if self.connections and could_not_connect(error):
            what = f"the server stopped answering after {self.connections} successful connection(s)"
        elif self.connections or not could_not_connect(error):
            what = f"the stream kept breaking ({failures} times in a row)"
        else:
            what = "the server could not be reached"
        raise TransportError(f"following {self.game_id} at {url}: {what}: {_short(error)}", url, error,
                             reached=bool(self.connections) or not could_not_connect(error)) from None


# ===================================================================== helpers
def _seg(value: str) -> str:
    """A path segment, percent-encoded."""
    from urllib.parse import quote
    return quote(str(value), safe="")


def _short(error: BaseException) -> str:
    """The gist of a requests/urllib3 error ("Connection refused", "Read timed out")."""
    text = str(error)
    import re
    match = (re.search(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
             or re.search(r"(Read timed out|Connect timeout[^'\")]*)", text))
    if match:
        return match.group(1).strip().rstrip(".")
    return text if len(text) < 160 else text[:157] + "..."
