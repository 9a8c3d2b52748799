"""Unlisted and private tables, and invitations (issue 37 item 3).

A table is created `public` (the lobby lists it), `unlisted` (the lobby does not; whoever has its id may
read it and claim its open seats) or `private` (the lobby does not, and nobody without a credential for it
may read it, claim a seat or learn that it exists).  An invitation is a token in a link that admits to one
open seat: whoever holds it may read the table and claim that seat, once, before it expires
(INVITATION_SECONDS).  Creating an unlisted or private table issues one for each open seat; a seat's
player (seat token or bound player key) may issue a fresh one for an open seat, which voids the seat's
earlier one.

The gate (`gate`, before every /v1/games/<id>... request) answers a private table's id, to a caller
without a credential for it, exactly as an id no game has: the same 404 document, after the same one
round trip and the same credential checks (events/visibility.py), so neither the answer nor its timing
tells a private table from none.
"""
from __future__ import annotations

from flask import Flask, current_app, request
from flask.views import MethodView

from events.game import GameNotFound
from events.visibility import invitation_value, invited_seat, player_seats, visibility_of
from service.api.base import Blueprint
from service.auth import BEARER_TOKEN, hash_token, new_token, seat_of
from service.errors import Problem
from service.grip import PROOF_PREFIX, proven_reader
from service.identity import PLAYER_HEADER, is_player_key, quietly_acting_player
from service.player_schemas import InvitationSchema
from service.wiring import engine

INVITATION_HEADER = "X-Cartel-Invitation"

blp = Blueprint("invitations", __name__, url_prefix="/v1/games",
                description="Unlisted and private tables: invitations that admit to one seat")


def invitation_link(game_id: str, token: str) -> str:
    """The link to send: the game's URL with the invitation in its query.  Followed, it reads the table; the
    same query on the seat's claim (POST .../seats/{seat}/claim?invitation=...) takes the seat.  (The reference
    web table's own link is its page's, #/games/<id>?invitation=..., clients/web/js/people.js.)"""
    return f"/v1/games/{game_id}?invitation={token}"


def invitation_token() -> str | None:
    """The invitation the request carries (header, or `invitation` in the query), if it looks like one."""
    token = request.headers.get(INVITATION_HEADER) or request.args.get("invitation")
    return token if token and BEARER_TOKEN.fullmatch(token) else None


def issue_invitation(now: int) -> tuple[str, str, int]:
    """A new invitation: (token, the meta value that stores its digest, when it expires in ms)."""
    token = new_token()
    expires_at = now + int(current_app.config["INVITATION_SECONDS"]) * 1000
    return token, invitation_value(hash_token(token), expires_at), expires_at


def invitation_document(game_id: str, seat: int, token: str, expires_at: int) -> dict:
    return {"game_id": game_id, "seat": seat, "invitation": token, "expires_at": expires_at,
            "link": invitation_link(game_id, token)}


def invitation_seat(meta: dict, now: int) -> int | None:
    """The open seat the request's invitation admits to (None: none, expired or used)."""
    token = invitation_token()
    return invited_seat(meta, hash_token(token), now) if token else None


# ------------------------------------------------------------------ the gate
def presented() -> tuple[str | None, str | None, str | None]:
    """The credentials the request presents for a game: (bearer token, stream ticket, invitation)."""
    authorization = request.headers.get("Authorization", "")
    token = authorization[7:].strip() if authorization.lower().startswith("bearer ") else None
    return token or None, request.args.get("ticket") or None, invitation_token()


def admitted(game_id: str, meta: dict) -> bool:
    """Whether the request holds a credential for the game whose meta is given ({}: no such game): a seat token,
    a player key (or the app key acting for a player) bound to one of its seats, an unexpired invitation, a
    stream ticket, or Pushpin's proof of a reader this service answered before (a hold's next link,
    service/grip.py).  The same checks are made whether the game exists or not."""
    token, ticket, invitation = presented()
    admits = False
    if token and BEARER_TOKEN.fullmatch(token):
        try:
            seat_of(meta, token)
            admits = True
        except Problem:
            pass
        player = quietly_acting_player() if is_player_key(token) or request.headers.get(PLAYER_HEADER) else None
        admits = admits or bool(player and player_seats(meta, player.id))
    if invitation:
        admits = invited_seat(meta, hash_token(invitation), engine().runner.clock()) is not None or admits
    if ticket and ticket.startswith(PROOF_PREFIX):  # Pushpin's next link: a reader this service admitted before
        push = engine().push
        admits = bool(push and proven_reader(push.key, game_id, ticket)[0]) or admits
    elif ticket and BEARER_TOKEN.fullmatch(ticket):
        admits = engine().store.ticket_seat(game_id, hash_token(ticket)) is not None or admits
    return admits


def gate() -> None:
    """Before a /v1/games/<id>... request: a private table the caller holds no credential for is no game."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None or not request.path.startswith("/v1/games/") or request.method == "OPTIONS":
        return  # a CORS preflight carries no credential, and answers the same for every id
    refuse_if_private(game_id)


def refuse_if_private(game_id: str) -> None:
    """GameNotFound for a private table the caller holds no credential for (the gate's check, for a request
    that names a game elsewhere than in its path: an analysis's body)."""
    cached = engine().runner.repository.cached_meta(game_id)
    if cached is not None and visibility_of(cached) != "private":
        return  # a visibility never changes: this process's copy says enough
    credentials = any(presented())
    # one round trip, with the meta when there are credentials to check against it
    sighting = engine().store.access.lookup(game_id, with_meta=credentials)
    if sighting.exists and sighting.visibility != "private":
        return
    if not (credentials and admitted(game_id, sighting.meta)):
        raise GameNotFound(game_id)


def install(app: Flask) -> None:
    """Run the gate before every request, after the rate limits (so probing ids is limited too)."""
    app.before_request(gate)


# ------------------------------------------------------------------ inviting
@blp.route("/<string:game_id>/seats/<int:seat>/invitation")
class Invitation(MethodView):
    @blp.response(201, InvitationSchema)
    @blp.problems({401: "No seat token or player key", 403: "The token holds no seat here (not-your-seat)",
                   404: "No such game or seat", 409: "The seat is not open, or the game has started (seat-taken)"})
    @blp.doc(operationId="inviteToSeat", security=[{"seatToken": []}, {"playerKey": []}])
    def post(self, game_id, seat):
        """Invite someone to an open seat: a token (shown once) that admits its holder to read the table and
        claim that seat, once, before `expires_at`.  Any player at the table may send it, with their seat
        token or their player key; it replaces the seat's earlier invitation, which stops working."""
        runner = engine().runner
        game = runner.load(game_id)
        runner.refuse_if_closed(game)
        holder = inviter_of(game)
        if holder is None:
            raise Problem(403, "not-your-seat", "only a player at this table invites: send your seat token or "
                          "the player key a seat here is bound to")
        if not 0 <= seat < len(game.seats):
            raise GameNotFound(f"seat {seat}")
        if game.status != "open" or game.seats[seat]["kind"] != "open":
            raise Problem(409, "seat-taken", f"seat {seat} is not open: only an open seat of a table not yet "
                          "started takes an invitation")
        token, value, expires_at = issue_invitation(runner.clock())
        engine().store.access.invite(game_id, seat, value)
        return invitation_document(game_id, seat, token, expires_at)


def inviter_of(game) -> int | None:
    """The seat of the caller at this table (seat token, or a player key bound to a seat here), else None."""
    authorization = request.headers.get("Authorization", "")
    if not authorization:
        raise Problem(401, "token-required", "send your seat token (or player key) as 'Authorization: Bearer "
                      "<token>'", headers={"WWW-Authenticate": 'Bearer realm="tabletop-cartel"'})
    token = authorization[7:].strip() if authorization.lower().startswith("bearer ") else ""
    try:
        return seat_of(game.meta, token)
    except Problem:
        player = quietly_acting_player()
        seats = player_seats(game.meta, player.id) if player else []
        return seats[0] if seats else None
