"""The schemas of players, their games and invitations (issue 37): service/api/players.py and invitations.py."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from events.players import EXTERNAL_ID, EXTERNAL_ID_RULES, NAME_RULES, name_refusal
from service.schemas import GameSummarySchema, Strict


def check_player_name(name: str) -> None:
    refusal = name_refusal(name)
    if refusal:
        raise ma.ValidationError(refusal)


def check_external_id(external_id: str) -> None:
    if not EXTERNAL_ID.fullmatch(external_id):
        raise ma.ValidationError(EXTERNAL_ID_RULES)


class CreatePlayerSchema(Strict):
    name = ma.fields.String(required=True, validate=check_player_name, metadata={
        "description": f"The player's name, shown wherever their seats are: {NAME_RULES}", "example": "Ada"})
    external_id = ma.fields.String(validate=check_external_id, metadata={
        "description": "The platform's own id for this player (with the operator's app key only): the app then "
                       f"acts for them with X-Cartel-Player.  {EXTERNAL_ID_RULES}; unique"})


class PlayerSchema(Strict):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    created_at = ma.fields.Integer(required=True, metadata={"description": "ms since the epoch"})
    external_id = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "The platform's id for the player (players an app key created); null otherwise"})


class NewPlayerSchema(PlayerSchema):
    key = ma.fields.String(required=True, metadata={
        "description": "The player key ('cp_...'): shown once, stored hashed.  Send it as 'Authorization: "
                       "Bearer <key>' to bind seats, list your games and renew a seat's token"})


class PlayerKeySchema(Strict):
    id = ma.fields.String(required=True)
    key = ma.fields.String(required=True, metadata={"description": "The new key, shown once; the old one is void"})


class MyGamesQuerySchema(Strict):
    offset = ma.fields.Integer(load_default=0, validate=validate.Range(0, 10_000_000))
    limit = ma.fields.Integer(load_default=20, validate=validate.Range(1, 100))


class MyGameSchema(GameSummarySchema):
    seat = ma.fields.Integer(required=True, metadata={"description": "Your seat at this table"})


class MyGamesSchema(Strict):
    games = ma.fields.List(ma.fields.Nested(MyGameSchema), required=True)
    total = ma.fields.Integer(required=True, metadata={
        "description": "Seats ever bound to you (a seat you left counts here but is not listed)"})
    offset = ma.fields.Integer(required=True)
    limit = ma.fields.Integer(required=True)


class RenewedSeatSchema(Strict):
    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True, metadata={
        "description": "The seat's new token, shown once; the old one stopped working"})
    version = ma.fields.Integer(required=True)


class InvitationSchema(Strict):
    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    invitation = ma.fields.String(required=True, metadata={
        "description": "The invitation token, shown once: it admits its holder to read the table and claim this "
                       "seat, once (send it as X-Cartel-Invitation or `?invitation=`)"})
    expires_at = ma.fields.Integer(required=True, metadata={"description": "When it stops working (ms since the "
                                                                           "epoch)"})
    link = ma.fields.String(required=True, metadata={
        "description": "The game's URL with the invitation in its query: it reads the table; the same query on the "
                       "seat's claim takes the seat"})


class RatingSchema(Strict):
    player = ma.fields.String(required=True, metadata={"description": "The player's id"})
    name = ma.fields.String(required=True, metadata={
        "description": "The player's name, as their last rated seat showed it"})
    rating = ma.fields.Float(required=True, metadata={
        "description": "mu - 3 sigma: the rating shown and ordered by (a new player's is 0)"})
    mu = ma.fields.Float(required=True, metadata={"description": "OpenSkill (Plackett-Luce) mean"})
    sigma = ma.fields.Float(required=True, metadata={"description": "OpenSkill uncertainty"})
    games = ma.fields.Integer(required=True, metadata={"description": "Rated games of this ruleset"})
    provisional = ma.fields.Boolean(required=True, metadata={
        "description": "Fewer than 5 rated games: the rating is still settling"})


class BotRatingSchema(Strict):
    level = ma.fields.String(required=True, metadata={
        "description": "The bot level, as a seat's `level` or a challenge's `bot` names it"})
    rating = ma.fields.Float(required=True, metadata={
        "description": "mu - 3 sigma, on the players' scale: pick an opponent near your own rating"})
    mu = ma.fields.Float(required=True, metadata={"description": "OpenSkill (Plackett-Luce) mean"})
    sigma = ma.fields.Float(required=True, metadata={"description": "OpenSkill uncertainty"})
    games = ma.fields.Integer(required=True, metadata={
        "description": "Rated games of this ruleset against players (each moves the rating from the arena's)"})
    arena_games = ma.fields.Integer(required=True, metadata={
        "description": "Games of the bot arena (bench/arena.py) its starting rating was measured over (0: never "
                       "measured, it starts as a new player does)"})
    provisional = ma.fields.Boolean(required=True, metadata={
        "description": "Neither the arena nor 5 rated games measured it"})


class LeaderboardQuerySchema(Strict):
    limit = ma.fields.Integer(load_default=50, validate=validate.Range(1, 200), metadata={
        "description": "How many players, best first (1 to 200)"})


class LeaderboardSchema(Strict):
    ruleset = ma.fields.String(required=True)
    rated_games = ma.fields.Integer(required=True, metadata={"description": "Rated games folded into the ratings"})
    players = ma.fields.List(ma.fields.Nested(RatingSchema), required=True)
    bots = ma.fields.List(ma.fields.Nested(BotRatingSchema), required=True, metadata={
        "description": "Every bot level of the ruleset by rating, best first: the arena's measurement, moved by "
                       "its rated games against players (a game with a player and a bot seat is rated)"})
