"""One error shape everywhere: RFC 9457 `application/problem+json`.

Every failure a client can cause maps to a 4xx with a sentence saying what was
wrong; the domain's exceptions are translated here and nowhere else.
"""
from __future__ import annotations

import logging

import marshmallow as ma
from flask import Flask, current_app, json, request
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from werkzeug.exceptions import HTTPException

from events.runner import GameNotFound, IdempotencyMismatch, SeatPlayedByBot, StaleCommand
from events.store import ConcurrencyConflict
from events.table import GameClosed
from rules.base import BadCommand, IllegalMove
from service.problems import CATALOGUE, first_param, title_of, type_uri

log = logging.getLogger(__name__)


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document (extension members allowed); its codes are docs/errors.md's."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(metadata={"description": (
        "The problem code's stable URI, `https://tabletop-cartel.dev/problems/<code>`; its path is the code's page "
        "on this server too (GET /problems/<code>; every code: GET /problems and docs/errors.md)")})
    code = ma.fields.String(validate=ma.validate.OneOf(sorted(CATALOGUE)), metadata={
        "description": "What went wrong, as a stable slug to branch on (docs/errors.md lists every code)"})
    title = ma.fields.String(metadata={"description": "Short summary of the kind of problem"})
    status = ma.fields.Integer()
    detail = ma.fields.String(metadata={"description": "What went wrong, for a human"})
    instance = ma.fields.String(metadata={"description": "The request path"})
    param = ma.fields.String(metadata={"description": (
        "The one field at fault, when there is one: a body or query field, dotted (`seats.0.kind`, "
        "`options.max_score`), or a header (`If-Match`)")})
    rule = ma.fields.String(allow_none=True, metadata={"description": "The rulebook section a move violated"})
    version = ma.fields.Integer(metadata={"description": "The game's current version (on 409)"})
    still_legal = ma.fields.Boolean(metadata={"description": (
        "On a stale-version 409 for a command: whether the same command is legal at `version` (resend it with "
        "If-Match set to that version, no read needed) or not (read the game again and choose anew)")})
    errors = ma.fields.Dict(metadata={"description": "Field-by-field validation errors"})


class Problem(Exception):
    """Raise anywhere in a view: becomes a problem+json response."""

    def __init__(self, status: int, kind: str, detail: str, headers: dict | None = None, **extra):
        super().__init__(detail)
        self.status, self.kind, self.detail, self.headers, self.extra = status, kind, detail, headers or {}, extra


def problem_response(status: int, kind: str, detail: str, headers: dict | None = None, title: str | None = None,
                     **extra):
    """The problem document for catalogue code `kind` (service/problems.py): its page as `type`, its title."""
    if kind not in CATALOGUE:  # a code nobody catalogued: still answered, but it is a bug to fix
        log.warning("problem code %r is not in the catalogue (service/problems.py)", kind)
    entry = CATALOGUE.get(kind)
    body = {"type": type_uri(kind), "code": kind, "title": title or title_of(kind, status, "Error"),
            "status": status, "detail": detail, "instance": request.path}
    if entry is not None and entry.param:  # a header the problem is always about (If-Match, Idempotency-Key)
        body["param"] = entry.param
    body.update({k: v for k, v in extra.items() if v is not None or k == "rule"})
    response = current_app.response_class(json.dumps(body), status=status, mimetype="application/problem+json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# Werkzeug's refusals by status; any other is the catalogue's http-error, titled by its reason phrase.
HTTP_CODES = {400: "malformed-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
              415: "unsupported-media-type", 422: "malformed-request"}


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(Problem)
    def on_problem(error: Problem):
        return problem_response(error.status, error.kind, error.detail, error.headers, **error.extra)

    @app.errorhandler(BadCommand)
    def on_bad_command(error: BadCommand):
        return problem_response(400, "malformed-command", error.reason, rule=error.rule)

    @app.errorhandler(SeatPlayedByBot)
    def on_seat_played_by_bot(error: SeatPlayedByBot):
        return problem_response(409, "seat-played-by-bot", error.reason, rule=error.rule)

    @app.errorhandler(GameClosed)
    def on_game_closed(error: GameClosed):
        # abandoned or archived: no command of any kind will ever be accepted (not a move the rules forbid)
        return problem_response(409, error.kind, error.reason, rule=error.rule)

    @app.errorhandler(IllegalMove)
    def on_illegal_move(error: IllegalMove):
        return problem_response(422, "illegal-move", error.reason, rule=error.rule)

    @app.errorhandler(ConcurrencyConflict)
    def on_conflict(error: ConcurrencyConflict):
        still_legal = error.still_legal if isinstance(error, StaleCommand) else None
        advice = {True: f"the same command is still legal at version {error.current_version}: resend it with "
                        f'If-Match: "{error.current_version}"',
                  False: "the same command is not legal now: fetch the game again and choose anew",
                  None: f"fetch the game again and resend against version {error.current_version}"}[still_legal]
        return problem_response(409, "stale-version", f"{error}; {advice}",
                                headers={"ETag": f'"{error.current_version}"'}, version=error.current_version,
                                still_legal=still_legal)

    @app.errorhandler(GameNotFound)
    def on_not_found(error: GameNotFound):
        return problem_response(404, "not-found", f"no such game or seat: {error}")

    @app.errorhandler(IdempotencyMismatch)
    def on_idempotency_mismatch(error: IdempotencyMismatch):
        return problem_response(422, "idempotency-key-reused", str(error))

    @app.errorhandler(HTTPException)
    def on_http_exception(error: HTTPException):
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        status = error.code or 500
        kind = HTTP_CODES.get(status, "http-error")
        if errors is not None:
            # webargs reports schema errors nested by location ({"json": {...}}); flatten one level.
            locations = ("json", "query", "headers", "form")
            if isinstance(errors, dict) and len(errors) == 1 and next(iter(errors)) in locations:
                errors = next(iter(errors.values()))
            if not isinstance(errors, dict):  # e.g. ["Invalid JSON body."]: errors of the body as a whole
                errors = {"_body": errors}
            detail = "the request does not match its schema: " + _summarise(errors)
            return problem_response(400, "malformed-request", detail, errors=errors, param=first_param(errors))
        detail = data.get("message") or error.description or error.name
        if status == 413:
            limit = request.max_content_length
            detail = f"the request body exceeds the limit of {limit} bytes for this endpoint"
        # keep what the exception says about itself (Allow on 405, WWW-Authenticate...)
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        headers.update(data.get("headers") or {})
        return problem_response(status, kind, detail, headers=headers,
                                title=error.name if kind == "http-error" else None)

    @app.errorhandler(RedisConnectionError)
    @app.errorhandler(RedisTimeoutError)
    def on_storage_unavailable(error: Exception):
        # Raised before or by the append: nothing was appended (what fails after an append is best
        # effort and never reaches here: events/committer.py _best_effort).  A resend with the same
        # Idempotency-Key is safe even if Redis failed mid-script, the one case the service cannot tell.
        log.warning("Redis unavailable on %s %s: %s", request.method, request.path, error)
        return problem_response(503, "storage-unavailable", "the event store is unreachable right now; "
                                "retry shortly (with the same Idempotency-Key, a retry never applies twice)",
                                headers={"Retry-After": "1"})

    @app.errorhandler(Exception)
    def on_unexpected(error: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response(500, "internal-error", "the server failed on this request; it has been logged")


def _summarise(errors) -> str:
    if isinstance(errors, dict):
        return "; ".join(f"{field}: {_summarise(messages)}" for field, messages in errors.items())
    if isinstance(errors, list):
        return ", ".join(_summarise(e) for e in errors)
    return str(errors)
