"""Sending commands and reading what happened: events (paged or live), time travel, history."""
from __future__ import annotations

import re

from flask import Response, current_app, g, request, stream_with_context
from flask.views import MethodView

from events.history import history_header, history_lines
from events.runner import redact_envelope
from events.store import ConcurrencyConflict
from rules.base import IllegalMove
from rules.narration import seats_named
from service.api.base import (
    ETAG,
    PER_READER,
    PER_READER_HEADERS,
    PUBLIC,
    RATE_LIMIT_HEADERS,
    Blueprint,
    etag,
    load_for_reader,
)
from service.api.chat import own_channel
from service.auth import bearer_token, hash_token, new_token, seat_of
from service.errors import Problem
from service.grip import (
    PROOF_PREFIX,
    Push,
    answer,
    channel,
    hold_presence_seconds,
    last_id,
    next_link,
    proven_reader,
    signed_by_pushpin,
)
from service.ratelimit import limits_ride_on_the_append
from service.schemas import (
    MAX_VERSION,
    CommandResultSchema,
    CommandSchema,
    EventsPageSchema,
    EventsQuerySchema,
    StateQuerySchema,
    StateSchema,
    TicketSchema,
)
from service.sse import follow_events
from service.wiring import engine

blp = Blueprint("play", __name__, url_prefix="/v1/games", description="Commands, events, time travel and history")

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")
# the bare version ("12") or an ETag this API sent ("12-s0", "12-spectator"): the version is what is matched
IF_MATCH = re.compile(r'^\s*(?:W/)?"?([0-9]{1,19})(?:-[a-z0-9]{1,16})?"?\s*$')
LAST_EVENT_ID = re.compile(r"[0-9]{1,19}")


def expected_version(body: dict) -> int | None:
    """From If-Match (`"12"`, or a game ETag such as `"12-s0"`) or the body's expected_version; they must agree."""
    header = request.headers.get("If-Match")
    from_body = body.pop("expected_version", None)
    if header is None or header.strip() == "*":
        return from_body
    match = IF_MATCH.match(header)
    if not match:
        raise Problem(400, "malformed-if-match", 'If-Match must be the game version in quotes, e.g. If-Match: "12"')
    version = int(match.group(1))
    if version > MAX_VERSION:
        raise Problem(400, "malformed-if-match", f"If-Match names version {version}; versions go up to {MAX_VERSION}")
    if from_body is not None and from_body != version:
        raise Problem(400, "malformed-request",
                      f"If-Match says version {version} but expected_version says {from_body}")
    return version


def prefers_lenient() -> bool:
    """`Prefer: handling=lenient` (RFC 7240): a command whose If-Match is stale but which is still legal at the
    game's current version is decided there instead of refused with 409 (the answer says so with
    `Preference-Applied`). For a choice that does not depend on what moved: another seat's answer in a
    simultaneous phase."""
    return any(pref.strip().lower() == "handling=lenient"
               for header in request.headers.getlist("Prefer") for pref in header.split(","))


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise Problem(400, "malformed-idempotency-key", "Idempotency-Key must be 1 to 128 visible ASCII characters")
    return key


def resume_point(game, after: int, last_id: int | None) -> int:
    """Where a feed resumes: the later of `after` and Last-Event-ID; 400 past the game's version (no event
    of this feed has that id, so a client that sends it is reading another game or counting on its own,
    and would otherwise wait silently for events it has already been told of)."""
    point = max(after, last_id or 0)
    if point > game.version:
        said = "Last-Event-ID" if last_id is not None and last_id > after else "after"
        raise Problem(400, "resume-beyond-version", f"{said} is {point}, but this game is at version "
                      f"{game.version}: resume from the id of the last event you read from it",
                      param=said)
    return point


def last_event_id() -> int | None:
    """The version an SSE client saw last (Last-Event-ID, sent by EventSource on reconnect); 400 unless it is one.
    A 400 (not a stream that breaks at once) makes a browser's EventSource stop instead of reconnecting forever."""
    header = (request.headers.get("Last-Event-ID") or "").strip()
    if not header:
        return None
    if not LAST_EVENT_ID.fullmatch(header) or int(header) > MAX_VERSION:
        raise Problem(400, "malformed-last-event-id",
                      f"Last-Event-ID must be the id of an event of this feed (a version, 0 to {MAX_VERSION})")
    return int(header)


@blp.route("/<string:game_id>/commands")
class Commands(MethodView):
    decorators = [limits_ride_on_the_append]  # one Redis round trip for a command (service/ratelimit.py)

    @blp.arguments(CommandSchema)
    @blp.response(200, CommandResultSchema, headers={**ETAG, **PER_READER_HEADERS, **RATE_LIMIT_HEADERS,
                                                     "Preference-Applied": {
                                                         "description": "`handling=lenient` when the command was "
                                                                        "decided at a newer version than If-Match "
                                                                        "named, as `Prefer` asked",
                                                         "schema": {"type": "string"}}})
    @blp.problems({401: "No seat token", 403: "The token holds no seat in this game", 404: "No such game",
                   409: "Stale If-Match / expected_version (the body carries the current `version`, and `still_legal`: "
                        "whether this same command is legal at that version, to resend at once), or the game was "
                        "abandoned or archived (problem type game-abandoned / game-archived)",
                   413: "Body over the size limit", 415: "Body not application/json",
                   422: "Illegal move: `detail` says why, `rule` names the rulebook section"})
    @blp.doc(operationId="sendCommand", security=[{"seatToken": []}], parameters=[
        {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
         "description": 'The version the command was decided against: "12", or the game\'s ETag, e.g. "12-s0"'},
        {"in": "header", "name": "Idempotency-Key", "required": False, "schema": {
            "type": "string", "minLength": 1, "maxLength": 128, "pattern": IDEMPOTENCY_KEY.pattern},
         "description": "Retry-safe key: the same key returns the original answer and appends nothing"},
        {"in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
         "description": "`handling=lenient` (RFC 7240): when If-Match is stale but the same command is still legal "
                        "at the game's current version, decide it there instead of answering 409 (the answer "
                        "then carries `Preference-Applied: handling=lenient`); for a choice that does not depend on "
                        "what moved, such as an answer in a simultaneous phase"}])
    def post(self, command, game_id):
        """Send a command (one of the caller's `legal_moves`)."""
        token = bearer_token(required=True)
        runner = engine().runner
        game = runner.peek(game_id)  # this process's copy if it has one; the append checks it is current
        runner.refuse_if_closed(game)  # 409 before the token is checked: an archived game keeps no tokens
        try:
            seat = seat_of(game.meta, token)
        except Problem:
            if game.fresh:
                raise
            game = runner.load(game_id)  # the seat may have been claimed since this process looked
            seat = seat_of(game.meta, token)
        version, key, lenient = expected_version(command), idempotency_key(), prefers_lenient()
        applied = {}
        try:
            try:
                result = runner.execute(game_id, seat, command, expected_version=version,
                                        idempotency_key=key, loaded=game, toll=g.get("toll"))
            except ConcurrencyConflict as conflict:
                # the 409 says whether the same command is legal now, so the client may resend it without a read
                stale = runner.judge_stale(conflict, game_id, seat, command)
                if not (lenient and stale.still_legal):
                    raise stale from None
                # Prefer: handling=lenient: the client asked for it to be decided at the current version instead
                try:
                    result = runner.execute(game_id, seat, command, idempotency_key=key, toll=g.get("toll"))
                except (ConcurrencyConflict, IllegalMove):  # overtaken again: the 409 it asked to avoid
                    raise stale from None
                applied = {"Preference-Applied": "handling=lenient"}
        except IllegalMove as refusal:  # the rules write seat numbers; a player reads the players' names
            refusal.reason = seats_named(refusal.reason, game.names)
            raise
        names = result.game.names
        events = [redact_envelope(result.game.ruleset, e, seat, names) for e in result.events]
        version = max([e["version"] for e in events], default=result.game.version) if result.duplicate \
            else result.game.version
        # Already in CommandResultSchema's shape (tests/service/test_api.py checks it): sent as it
        # is, without the schema's dump, the costliest step of a command's answer after the append.
        body = {"version": version, "status": result.game.status, "duplicate": result.duplicate, "events": events}
        return current_app.json.response(body), 200, {"ETag": etag(result.game.version, seat), **PER_READER,
                                                       **applied}


@blp.route("/<string:game_id>/events")
class Events(MethodView):
    @blp.arguments(EventsQuerySchema, location="query")
    @blp.response(200, EventsPageSchema, content_type="application/json", headers=PER_READER_HEADERS)
    @blp.doc(responses={200: {"content": {"text/event-stream": {"schema": {
        "description": "Server-Sent Events; each message's `data` is JSON: an Event (SSE event `message`), a "
                       "TurnState (`turn`), a ChatMessage (`chat`) or a StreamEnd (`end`); see the operation's "
                       "description",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"}
                  for name in ("Event", "TurnState", "ChatMessage", "StreamEnd")]}}}}})
    @blp.problems({401: "Malformed Authorization header", 403: "The token holds no seat in this game",
                   404: "No such game"})
    @blp.doc(operationId="listEvents", security=[{}, {"seatToken": []}], description=(
        "Paged events after version `after`, redacted for the caller. With `Accept: text/event-stream` the "
        "response is a Server-Sent Events stream that follows the game live, with four kinds of message: "
        "each event (SSE event name `message`, data an `Event`, SSE `id` its version, so a reconnect with "
        "`Last-Event-ID` resumes where it stopped); after each batch of events, and as the stream opens, "
        "`turn` (data a `TurnState`: whose turn it is and the reader's legal moves with labels, at its "
        "`version`: act on it without reading the game); `chat` (data a `ChatMessage`: what is said on the "
        "reader's chat channel, the seats' or the spectators', as it is said; no SSE `id`, so `Last-Event-ID` "
        "stays the last event's version: after a reconnect read what was missed from GET /v1/games/{id}/chat); and "
        "once the game is over `end` (data a `StreamEnd`, "
        "with the outcome), then the stream closes. Without `end`, the server closed it (the built-in hub after "
        "SSE_MAX_SECONDS; a stream held by Pushpin has no such end): reconnect to go on. Lines starting with `:` "
        "are heartbeats. `after` and "
        "`Last-Event-ID` are versions, 0 to 2^63-1: anything else is a 400 (which also stops an EventSource "
        "from reconnecting). Redacted per reader, so `Cache-Control: private` and `Vary: Authorization` (a "
        "`ticket` is in the URL, which a cache keys on already)."))
    def get(self, query, game_id):
        """The event feed as the caller may read it."""
        push = engine().push
        if push and signed_by_pushpin(request.headers.get("Grip-Sig"), push.key) and (
                "text/event-stream" in request.headers.get("Accept", "") or "Grip-Last" in request.headers):
            return stream_through_pushpin(push, query, game_id)
        game, seat = load_for_reader(game_id, query.get("ticket"))
        last_id = last_event_id()
        if "text/event-stream" in request.headers.get("Accept", ""):
            after = resume_point(game, query["after"], last_id)
            hub, limit = engine().hub, current_app.config["SSE_MAX_FOLLOWERS"]
            if hub.followers >= limit:  # keep threads for commands: a full node sheds new followers
                raise Problem(503, "too-many-followers", f"this server process follows {limit} streams, its "
                              "limit; retry shortly (another node may have room) or read the paged feed",
                              headers={"Retry-After": "5"})
            generator = follow_events(hub, engine().runner, game, seat, after, current_app.config["SSE_MAX_SECONDS"],
                                      current_app.config["SSE_HEARTBEAT_SECONDS"], engine().recent, own_channel(seat))
            return Response(stream_with_context(generator), mimetype="text/event-stream",
                            headers={**PER_READER, "X-Accel-Buffering": "no"})
        after = resume_point(game, query["after"], None)  # a page is asked for by `after` alone
        events = engine().runner.events_for(game, seat, after, query["limit"])
        next_after = events[-1]["version"] if events else after
        return {"events": events, "version": game.version, "next_after": next_after,
                "has_more": next_after < game.version}, 200, PER_READER


def stream_through_pushpin(push: Push, query: dict, game_id: str) -> Response:
    """A stream request Pushpin passed on (service/grip.py): the catch-up and a hold on the reader's
    channel, answered at once; Pushpin holds the connection and sends what is published to it.  Its
    next-link request (after a gap) names the reader by proof and the last version sent by Grip-Last."""
    ticket = query.get("ticket") or ""
    if ticket.startswith(PROOF_PREFIX):
        proven, seat = proven_reader(push.key, game_id, ticket)
        if not proven:
            raise Problem(401, "ticket-invalid", "this stream ticket is unknown or expired; get a new one with "
                          "POST /v1/games/{id}/tickets")
        game = engine().runner.load(game_id)
        seat = None if game.archived else seat
    else:
        game, seat = load_for_reader(game_id, ticket or None)
    resumed = last_id(request.headers.get("Grip-Last"), channel(game_id, seat))
    after = resumed if resumed is not None else resume_point(game, query["after"], last_event_id())
    recover, present = current_app.config["GRIP_RECOVER_SECONDS"], []
    if not game.ended:  # a seat's hold answered (opening, or Pushpin's next-link ask): its follower is live
        presence, now = engine().store.presence, engine().runner.clock()
        if seat is not None:
            presence.renew(game_id, seat, "grip", hold_presence_seconds(recover) * 1000, now)
        present = presence.present(game_id, now)
    reply = answer(engine().runner, game, seat, after, next_link(push.key, game_id, seat),
                   current_app.config["SSE_HEARTBEAT_SECONDS"], opening="Grip-Last" not in request.headers,
                   recover_seconds=recover, chat=own_channel(seat), present=present)
    return Response(reply.body, mimetype="text/event-stream",
                    headers={**PER_READER, "X-Accel-Buffering": "no", **(reply.hold or {})})


@blp.route("/<string:game_id>/state")
class State(MethodView):
    @blp.arguments(StateQuerySchema, location="query")
    @blp.response(200, StateSchema, headers=PER_READER_HEADERS)
    @blp.problems({401: "Malformed Authorization header", 403: "The token holds no seat in this game",
                   404: "No such game"})
    @blp.doc(operationId="getState", security=[{}, {"seatToken": []}])
    def get(self, query, game_id):
        """Time travel: the caller's view at an earlier version; the full state once the game has ended."""
        latest, seat = load_for_reader(game_id)
        version = query.get("version", latest.version)
        if version > latest.version:
            raise Problem(404, "not-found", f"the game is at version {latest.version}; there is no version {version}")
        game = engine().runner.load(game_id, version=version)
        view = game.ruleset.view(game.state, seat) if game.state is not None else None
        return {"version": version, "view": view, "state": game.state if latest.ended else None}, 200, PER_READER


@blp.route("/<string:game_id>/history")
class History(MethodView):
    @blp.doc(operationId="exportHistory", security=PUBLIC, responses={"200": {
        "description": "JSON Lines: a header (ruleset, options, seats, the revealed seed, outcome), then every "
                       "event unredacted with the command that caused it",
        # JSON Lines; `Accept: application/octet-stream` gets the same bytes labelled for generic clients
        "content": {media: {"schema": {"type": "string", "format": "binary"}}
                    for media in ("application/x-ndjson", "application/octet-stream")}}})
    @blp.problems({403: "The game has not ended: its history would reveal secrets", 404: "No such game"})
    def get(self, game_id):
        """Export an ended (finished or abandoned) game's full history for replay and verification."""
        runner = engine().runner
        game = runner.load(game_id)
        if not game.ended:
            raise Problem(403, "game-not-finished",
                          "the full history (with every secret and the seed) is only published once the game "
                          "is finished (or abandoned)")
        # an archived game's history is served as archived, byte for byte
        body = [game.archived_text] if game.archived else history_lines(history_header(game),
                                                                         runner.store.read_all(game_id), game.ruleset)
        mimetype = request.accept_mimetypes.best_match(["application/x-ndjson", "application/octet-stream"]) \
            or "application/x-ndjson"
        return Response(body, mimetype=mimetype,
                        headers={"Content-Disposition": f'attachment; filename="{game.id}.jsonl"'})


@blp.route("/<string:game_id>/tickets")
class Tickets(MethodView):
    @blp.response(201, TicketSchema, headers={"Cache-Control": {
        "description": "no-store: the ticket reads the seat's secrets", "schema": {"type": "string"}}})
    @blp.problems({401: "No seat token", 403: "The token holds no seat in this game", 404: "No such game"})
    @blp.doc(operationId="createStreamTicket", security=[{"seatToken": []}])
    def post(self, game_id):
        """A short-lived, read-only stream ticket for the caller's seat: a browser's EventSource cannot
        send an Authorization header, so it follows `GET .../events?ticket=...` instead.  The ticket
        reads that seat's feed (its secrets included) and nothing else: it is never accepted for a
        command.  Connect before `expires_at` (STREAM_TICKET_SECONDS, default 60); a stream already
        open runs its course, and a reconnect after expiry needs a new ticket."""
        token = bearer_token(required=True)
        runner = engine().runner
        game = runner.load(game_id)
        if game.archived:
            raise Problem(409, "game-archived", "the game is archived: it keeps no seat tokens; read its feed "
                          "without a ticket (every event is public now)")
        seat = seat_of(game.meta, token)
        ticket, ttl = new_token(), current_app.config["STREAM_TICKET_SECONDS"]
        runner.store.issue_ticket(game_id, hash_token(ticket), seat, ttl)
        return ({"ticket": ticket, "seat": seat, "expires_at": runner.clock() + ttl * 1000,
                 "remaining_ms": ttl * 1000}, 201,
                {"Cache-Control": "no-store"})
