"""Players (issue 37 item 1): a name and a key that outlive a lost seat token.

`POST /v1/players` gives a player key, shown once (service/identity.py); with it a player binds seats at a
game's creation (`as_player`) or claim, lists their games and gets a fresh token for a seat bound to them
(the old one stops working: SeatTokenRenewed in the game's history).  Anonymous play is as it was.  A
platform with its own accounts creates its users' players with the operator's app key and their
`external_id`, and acts for them with X-Cartel-Player.
"""
from __future__ import annotations

from flask.views import MethodView

from events.players import NameTaken, Player
from events.table import NotYourSeat
from events.visibility import player_seats
from service.api.base import Blueprint
from service.auth import bearer_token, hash_token, new_token
from service.errors import Problem
from service.identity import acting_player, is_app_key, new_player_key
from service.player_schemas import (
    CreatePlayerSchema,
    MyGamesQuerySchema,
    MyGamesSchema,
    NewPlayerSchema,
    PlayerKeySchema,
    PlayerSchema,
    RenewedSeatSchema,
)
from service.presenters import summary
from service.wiring import engine

blp = Blueprint("players", __name__, url_prefix="/v1", description="Players: keys, their games, their seats")
AS_PLAYER = [{"playerKey": []}, {"appKey": []}]  # a player key, or the app key with X-Cartel-Player
PLAYER_PROBLEMS = {401: "No player key, or one that holds no player (player-key-invalid)",
                   400: "The app key without X-Cartel-Player (player-header-required)"}


def player_document(player: Player) -> dict:
    return {"id": player.id, "name": player.name, "created_at": player.created_at,
            "external_id": player.external_id}


@blp.route("/players")
class Players(MethodView):
    @blp.arguments(CreatePlayerSchema)
    @blp.response(201, NewPlayerSchema)
    @blp.problems({400: "A name or external_id out of its rules (malformed-request, `param` names it)",
                   403: "external_id without the app key (app-key-required)",
                   409: "The name (whatever its case) or external_id is another player's (player-name-taken)",
                   413: "Body over the size limit", 415: "Body not application/json"})
    @blp.doc(operationId="createPlayer", security=[{}, {"appKey": []}])
    def post(self, body):
        """Create a player: their key is in the answer, once (it is stored hashed).  Keep it: it binds seats to
        you, lists your games and gets you a fresh seat token if you lose one.  With the app key, `external_id`
        is the platform's own id for the player, which it acts for them by (X-Cartel-Player)."""
        external_id = body.get("external_id")
        if external_id is not None and not is_app_key(bearer_token(required=False)):
            raise Problem(403, "app-key-required", "only the operator's app key creates a player with an "
                          "external_id (Authorization: Bearer <app key>)", param="external_id")
        key = new_player_key()
        try:
            player = engine().store.players.create(body["name"], hash_token(key), engine().runner.clock(),
                                                   external_id)
        except NameTaken as taken:
            what = "name (whatever its case)" if taken.what == "name-taken" else "external_id"
            raise Problem(409, "player-name-taken", f"that {what} is another player's: choose another",
                          param="name" if taken.what == "name-taken" else "external_id") from None
        return {**player_document(player), "key": key}


@blp.route("/players/me")
class Me(MethodView):
    @blp.response(200, PlayerSchema)
    @blp.problems(PLAYER_PROBLEMS)
    @blp.doc(operationId="getMe", security=AS_PLAYER)
    def get(self):
        """Who your key (or the app key with X-Cartel-Player) says you are."""
        return player_document(acting_player())


@blp.route("/players/me/key")
class MyKey(MethodView):
    @blp.response(200, PlayerKeySchema)
    @blp.problems(PLAYER_PROBLEMS)
    @blp.doc(operationId="rotatePlayerKey", security=AS_PLAYER)
    def post(self):
        """Rotate your key: the answer holds the new one (shown once); the old one stops working now.  Your
        seats and their tokens are unchanged."""
        player = acting_player()
        key = new_player_key()
        engine().store.players.rotate(player.id, hash_token(key))
        return {"id": player.id, "key": key}


@blp.route("/players/me/games")
class MyGames(MethodView):
    @blp.arguments(MyGamesQuerySchema, location="query")
    @blp.response(200, MyGamesSchema)
    @blp.problems(PLAYER_PROBLEMS)
    @blp.doc(operationId="listMyGames", security=AS_PLAYER)
    def get(self, query):
        """The games where a seat is bound to you, newest first, each as the lobby shows it plus your `seat`
        (unlisted and private ones too).  A seat you left is no longer yours and is not listed."""
        player = acting_player()
        store = engine().store
        pairs, total = store.players.seats(player.id, query["offset"], query["limit"])
        games = [{**summary(game_id, meta), "seat": seat}
                 for (game_id, seat), meta in zip(pairs, store.metas(game_id for game_id, _ in pairs))
                 if meta and seat in player_seats(meta, player.id)]
        return {"games": games, "total": total, "offset": query["offset"], "limit": query["limit"]}


@blp.route("/games/<string:game_id>/seats/<int:seat>/token")
class SeatToken(MethodView):
    @blp.response(200, RenewedSeatSchema)
    @blp.problems({**PLAYER_PROBLEMS, 403: "The seat is not bound to you (not-your-seat)",
                   404: "No such game or seat", 409: "The game was abandoned or archived"})
    @blp.doc(operationId="renewSeatToken", security=AS_PLAYER)
    def post(self, game_id, seat):
        """A fresh token for a seat bound to you (shown once): the old one stops working at once.  Recorded in
        the game's history (SeatTokenRenewed), so whoever held the old token can see why it failed."""
        player = acting_player()
        token = new_token()
        try:
            game = engine().runner.renew_seat_token(game_id, seat, player.id, hash_token(token))
        except NotYourSeat as refusal:
            raise Problem(403, "not-your-seat", refusal.reason, rule=refusal.rule) from None
        return {"game_id": game.id, "seat": seat, "token": token, "version": game.version}

