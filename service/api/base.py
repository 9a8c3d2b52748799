"""What every resource module shares: the Blueprint (problem+json error docs, 400 for a
malformed body), the Api, and the helpers that load a game for its reader."""
from __future__ import annotations

import http
from typing import Any, Mapping

import flask_smorest
from flask_smorest.utils import prepare_response
from webargs import core
from webargs.flaskparser import FlaskParser

from events.visibility import player_seats
from service.auth import bearer_token, hash_token, seat_of
from service.bodies import json_body
from service.errors import Problem, ProblemSchema
from service.identity import acting_player, is_app_key, is_player_key
from service.wiring import engine

PROBLEM = "application/problem+json"
PUBLIC: list = []  # `security: []`: the operation needs no token
RATE_LIMITED = {429: "Over a rate limit (RATE_LIMIT_PER_ADDRESS / RATE_LIMIT_PER_TOKEN): retry after Retry-After"}
STORE_DOWN = {503: "The event store is unreachable and nothing was appended: retry after Retry-After "
                   "(same Idempotency-Key)"}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before retrying", "schema": {"type": "integer"}}}
RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": {"description": "The tightest limit's burst: requests this client may send at once after "
                                       "a quiet spell (the same unit as RateLimit-Remaining)",
                        "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "Requests it may send right now", "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "Seconds until its burst is full again", "schema": {"type": "integer"}},
    "RateLimit-Policy": {"description": '"<burst>;w=<seconds>": the burst refills over that many seconds (its '
                                        "steady rate is burst/w requests a second)", "schema": {"type": "string"}},
}
ETAG = {"ETag": {"description": 'The game version and the audience the document was redacted for, e.g. "12-s0" '
                          '(seat 0), "12-spectator": two readers never share one.  If-Match takes it (or the bare '
                          'version, "12")', "schema": {"type": "string"}}}
VERSION_ETAG = {"ETag": {"description": 'The current game version, e.g. "12": send it as If-Match',
                         "schema": {"type": "string"}}}
# A document redacted for its reader (seat token, or the stream ticket in the query) is that reader's alone:
# no shared cache may keep it, and a browser's cache keys it by the Authorization it was asked with.
PER_READER = {"Vary": "Authorization", "Cache-Control": "private, no-cache"}
PER_READER_HEADERS = {
    "Vary": {"description": "Authorization: the body depends on the caller's token", "schema": {"type": "string"}},
    "Cache-Control": {"description": "private, no-cache: the caller's own view, revalidated before reuse",
                      "schema": {"type": "string"}},
}


class Parser(FlaskParser):
    # A body or query that does not match its schema is malformed: 400.
    # 422 is kept for what the rules forbid.
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        # Strict, bounded JSON (service.bodies): 415 for another media type instead of
        # webargs' "Missing data", 400 for nesting, huge integers, NaN or lone surrogates.
        body = json_body()
        return core.missing if body is None else body


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def arguments(self, schema, *args, **kwargs):
        # webargs instantiates a Schema class on every request it parses: give it one instance
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)

    def problems(self, responses: dict[int, str]):
        """Document error responses as problem+json documents; every such operation may also answer
        429 (rate limits) and 503 (Redis unreachable), both with Retry-After."""
        responses = {**RATE_LIMITED, **STORE_DOWN, **responses}

        def decorator(view):
            documented = view
            for status, description in sorted(responses.items(), reverse=True):
                headers = RETRY_AFTER if status in (429, 503) else (VERSION_ETAG if status == 409 else None)
                documented = self.alt_response(status, schema=ProblemSchema, description=description,
                                               content_type=PROBLEM, headers=headers)(documented)
            # alt_response documents by wrapping the view in a function that only calls it: keep
            # the documentation, not the nine calls a request would go through
            view._apidoc = documented._apidoc
            return view
        return decorator


class CartelApi(flask_smorest.Api):
    ERROR_SCHEMA = ProblemSchema

    def register_stream_messages(self) -> None:
        """The live stream's messages other than events (`turn`, `end`) as named schemas: no response
        body refers to them (an SSE stream is text), so they are registered for clients to generate from."""
        from service.schemas import StreamEndSchema, TurnStateSchema
        self.spec.components.schema("TurnState", schema=TurnStateSchema)
        self.spec.components.schema("StreamEnd", schema=StreamEndSchema)

    def register_ruleset_types(self, rulesets: Mapping[str, Any]) -> None:
        """The games' own command, view, event-type, event, options and outcome schemas as components
        (service/spec_types.py); `Game`, `TurnState` and `CreateGame` as unions of each game's own, by
        `ruleset`; and a command typed as one of them: `Move` (each item of legal_moves) and `Command` (the
        body of POST /v1/games/{id}/commands) are any game's command.  The marshmallow
        schemas still validate requests (the rulesets' validators check the arguments); this is the
        description generated clients are typed from."""
        from events.forks import FORK_DEALT, FORK_DEALT_DATA
        from events.table import ENGINE_EVENT_DATA, ENGINE_EVENTS
        from service.spec_types import (
            ANY_COMMAND,
            TYPED_FIELDS,
            by_ruleset,
            event_type_components,
            ref,
            ruleset_components,
            table_event_components,
        )
        schemas = self.spec.components.schemas
        envelope = schemas["Event"]  # each game's events are this envelope with typed data (<Game>Event)
        for name, component in {**ruleset_components(rulesets, envelope),
                                # a fork's start (events/forks.py) is the engine's too, in any game
                                **table_event_components({**ENGINE_EVENT_DATA, FORK_DEALT: FORK_DEALT_DATA}, envelope),
                                **event_type_components(rulesets, ENGINE_EVENTS | {FORK_DEALT})}.items():
            self.spec.components.schema(name, component=component)
        schemas["Event"]["properties"]["type"] = ref("EventType")
        # the game document, the stream's turn message and the creation body, each one of <Game><name> by
        # `ruleset`: its view, legal moves, outcome and options typed as that game's
        for name in TYPED_FIELDS:
            for member, component in by_ruleset(name, schemas[name], rulesets).items():
                if member == name:
                    schemas[name] = component
                else:
                    self.spec.components.schema(member, component=component)
        schemas["Move"] = {"description": "A command the caller may send now, postable as-is",
                           "anyOf": [ref(ANY_COMMAND)]}
        # expected_version in words, not as a property: a generated client types a body of "one of the
        # commands, plus this" as a union with a bare {expected_version} (openapi-typescript) or not at
        # all (openapi-python-client's allOf); the commands are open objects, so it stays valid
        expected_version = schemas["Command"]["properties"]["expected_version"]
        schemas["Command"] = {
            "description": "A command of the game's ruleset, as listed in legal_moves.  It may also carry "
                           f"`expected_version` (an integer from 0: {expected_version['description']})",
            "anyOf": [ref(ANY_COMMAND)]}

    def _register_responses(self):
        # As flask-smorest's, but errors are documented as application/problem+json.
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def load_for_reader(game_id: str, ticket: str | None = None):
    """The game and the caller's seat (None without a token: a spectator); a stream ticket
    stands for a seat token where the reader cannot send headers (the events endpoint only), and a player key
    (or the app key acting for a player) for the seat bound to that player."""
    game = engine().runner.load(game_id)
    token = bearer_token(required=False)
    if game.archived:  # a public record now: seat tokens are not kept, every reader gets the ended game's view
        return game, None
    if token is None and ticket is not None:
        seat = engine().store.ticket_seat(game_id, hash_token(ticket))
        if seat is None:
            raise Problem(401, "ticket-invalid", "this stream ticket is unknown or expired; get a new one with "
                          "POST /v1/games/{id}/tickets", headers={"WWW-Authenticate": 'Bearer realm="tabletop-cartel"'})
        return game, seat
    if token and (is_player_key(token) or is_app_key(token)):
        return game, player_seat(game)
    return game, (seat_of(game.meta, token) if token else None)


def player_seat(game) -> int:
    """The seat of the game bound to the calling player (a player key reads as their seat); 403 if none."""
    seats = player_seats(game.meta, acting_player().id)
    if not seats:
        raise Problem(403, "token-not-for-this-game", "no seat of this game is bound to this player")
    return seats[0]


def load_for_seat(game_id: str, seat: int):
    """The game, for a request that acts for `seat` with that seat's own token (contribute, reclaim, a table's
    life): 409 for a closed game before the token is checked (an archived game keeps no tokens), 403 for a
    token of another seat."""
    runner = engine().runner
    token = bearer_token(required=True)
    game = runner.load(game_id)
    runner.refuse_if_closed(game)
    if seat_of(game.meta, token) != seat:
        raise Problem(403, "token-not-for-this-seat", f"this token holds another seat, not seat {seat}")
    return game


def audience(seat: int | None) -> str:
    """Whom a document was redacted for: a seat ("s0") or a spectator.  A stream ticket reads as its seat."""
    return "spectator" if seat is None else f"s{seat}"


def etag(version: int, seat: int | None) -> str:
    """The game at `version` as `seat` reads it.  The version alone named seat 0's and seat 1's documents
    alike, and a browser revalidating seat 0's copy for seat 1 got a 304 and showed seat 0's hand."""
    return f'"{version}-{audience(seat)}"'
