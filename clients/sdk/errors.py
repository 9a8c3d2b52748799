"""The SDK's exceptions, and how an error answer or a failed request becomes one.

Every ``application/problem+json`` answer becomes a :class:`ProblemError`, or
the subclass its status and problem type select (:class:`Conflict` for 409,
:class:`IllegalMove` for a 422 the rules forbid...); a server that cannot be
reached raises :class:`TransportError`.  Both derive from :class:`CartelError`.
"""
from __future__ import annotations

import time
from typing import Any

import requests

from clients.sdk.models import JSON

__all__ = [
    "CartelError", "TransportError", "ProblemError", "BadRequest", "Unauthorized", "Forbidden", "NotFound",
    "Conflict", "PayloadTooLarge", "Unprocessable", "IllegalMove", "IdempotencyKeyReused", "ServerError",
    "RateLimited", "ServiceUnavailable",
    "problem_from_response", "retry_after_seconds", "could_not_connect",
]


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

    ``status``, ``title``, ``detail``, ``type``, ``code`` (the stable slug of
    docs/errors.md: ``seat-taken``, ``option-invalid``...), ``param`` (the
    field at fault, when one is), ``rule`` (the rulebook section an illegal
    move violated), ``version`` (the game's current version, on 409) and
    ``errors`` (field-by-field, on 400) come from the document; ``raw`` is
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
        self.code: str | None = self.raw.get("code")
        self.param: str | None = self.raw.get("param")
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
        """The problem's ``code`` (``stale-version``, ``illegal-move``, ``not-found``...); from a server
        older than the catalogue, the last part of ``type``."""
        return self.code or self.type.rstrip("/").rsplit("/", 1)[-1]

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
    """409: the game's state is in the way: it moved on since the version the command was decided against
    (``stale-version``; ``version`` is the current one), the seat claimed is taken (``seat-taken``), the game
    was abandoned or archived, or a bot plays the seat.

    ``still_legal`` (on a stale command): True if the same command is legal at ``version`` (resend it there,
    no read needed), False if not (read the game and choose again), None when the server did not say (an
    abandoned or archived game, a seat played by a bot, an older server)."""

    def __init__(self, status: int, raw: JSON | None = None, text: str = "", method: str = "", url: str = ""):
        super().__init__(status, raw, text, method, url)
        still_legal = self.raw.get("still_legal")
        self.still_legal: bool | None = still_legal if isinstance(still_legal, bool) else None


class PayloadTooLarge(ProblemError):
    """413: the body is over the server's limit."""


class Unprocessable(ProblemError):
    """422: a well-formed request the game does not allow: an illegal move, or a new game's option, seat count
    or bot level the ruleset does not have (``option-invalid``, ``seat-count-invalid``, ``bot-level-invalid``;
    ``param`` names the field)."""


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
