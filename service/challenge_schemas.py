"""The schemas of challenges and of a player's stream (issue 37 items 2 and 4): service/api/challenges.py."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from events.feeds import ENTRY_ID
from events.players import NAME_RULES, name_refusal
from service.schemas import ClockSpecSchema, Free, Strict, Visibility

BOT_LEVEL = validate.Length(1, 32)


class ChallengeTo(ma.fields.Field):
    """A player's name, or {"bot": level}."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            refusal = name_refusal(value)
            if refusal:
                raise ma.ValidationError(refusal)
            return {"player": value}
        if isinstance(value, dict) and set(value) == {"bot"} and isinstance(value["bot"], str) \
                and 1 <= len(value["bot"]) <= 32:
            return {"bot": value["bot"]}
        raise ma.ValidationError('a player\'s name, or {"bot": "<level>"} (a level of the ruleset\'s bots)')


class CreateChallengeSchema(Strict):
    to = ChallengeTo(required=True, metadata={
        "description": f"Whom you challenge: a player's name ({NAME_RULES}), or {{\"bot\": level}} for one of the "
                       "ruleset's bot levels (GET /v1/rulesets/{name}), whose game is created at once",
        "oneOf": [{"type": "string", "minLength": 2, "maxLength": 24},
                  {"type": "object", "properties": {"bot": {"type": "string", "minLength": 1, "maxLength": 32}},
                   "required": ["bot"], "additionalProperties": False}],
        "example": "Bo"})
    ruleset = ma.fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": "kingpin"})
    options = ma.fields.Dict(keys=ma.fields.String(), values=Free(), load_default=dict)
    clock = ma.fields.Nested(ClockSpecSchema, metadata={"description": "Turn clocks; none when omitted"})
    visibility = Visibility()  # absent: public (no default in the spec, as at a creation)
    seats = ma.fields.Integer(strict=True, validate=validate.Range(2, 12), metadata={
        "description": "How many seats (default: 2, or the ruleset's fewest when more): you sit at 0, the "
                       "challenged at 1, and any other seat is a bot of the level challenged (a player "
                       "challenged: `random`)"})


class ChallengeSideSchema(Strict):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)


class ChallengeSchema(Strict):
    id = ma.fields.String(required=True)
    challenger = ma.fields.Nested(ChallengeSideSchema, required=True)
    challenged = ma.fields.Nested(ChallengeSideSchema, required=True, allow_none=True, metadata={
        "description": "The player challenged; null for a bot level"})
    bot = ma.fields.String(required=True, allow_none=True, metadata={"description": "The bot level challenged"})
    ruleset = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    clock = ma.fields.Dict(required=True, allow_none=True)
    visibility = ma.fields.String(required=True)
    seats = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True, validate=validate.OneOf(
        ("open", "accepted", "declined", "cancelled", "expired")))
    created_at = ma.fields.Integer(required=True)
    expires_at = ma.fields.Integer(required=True, metadata={"description": "An open challenge expires then (ms)"})
    game_id = ma.fields.String(required=True, allow_none=True, metadata={"description": "Once accepted: the game"})


class ChallengeGameSchema(ChallengeSchema):
    seat = ma.fields.Integer(metadata={"description": "Your seat in the game (accepted)"})
    token = ma.fields.String(metadata={
        "description": "Your seat's token (shown once; a lost one is renewed with your key)"})


class ChallengesSchema(Strict):
    challenges = ma.fields.List(ma.fields.Nested(ChallengeSchema), required=True, metadata={
        "description": "Your challenges, sent and received, newest first (each kept a day after its end)"})


def check_entry_id(value: str) -> None:
    if not ENTRY_ID.fullmatch(value):
        raise ma.ValidationError("an entry id of your stream, such as 1700000000000-0")


class MyStreamQuerySchema(Strict):
    after = ma.fields.String(validate=check_entry_id, metadata={
        "pattern": "^[0-9]{1,20}-[0-9]{1,20}$",
        "description": "Resume after this entry id (as Last-Event-ID does); default: only what comes next"})
    ticket = ma.fields.String(validate=validate.Length(1, 200), metadata={
        "description": "Pushpin's next link only (a proof of the player under GRIP_KEY)"})
