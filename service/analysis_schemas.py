"""The schemas of analyses (issue 39 item 4): service/api/analysis.py."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from service.schemas import MAX_VERSION, Free, Strict

STATUSES = ("queued", "running", "done", "failed")


class AnalysisRequestSchema(Strict):
    game = ma.fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "The game's id"})
    version = ma.fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_VERSION), metadata={
        "description": "The position: the game after event `version` (GET /v1/games/{id}/state?version=N)"})
    seat = ma.fields.Integer(required=True, strict=True, validate=validate.Range(0, 11), metadata={
        "description": "The seat analysed: one awaited at that version, with a move to make"})


class AnalysedMoveSchema(Strict):
    move = Free(required=True, metadata={"description": "The legal move, as the seat would post it"})
    label = ma.fields.String(required=True, metadata={"description": "The move in the game's words, from the seat's "
                                                                     "view"})
    value = ma.fields.Float(required=True, allow_none=True, metadata={
        "description": "The seat's mean share of a win (0 to 1) over the search's playouts through this move; null "
                       "when the search did not try it"})
    share = ma.fields.Float(required=True, metadata={
        "description": "The share of the search's iterations (playouts) spent on this move, 0 to 1"})
    visits = ma.fields.Integer(required=True, metadata={"description": "Iterations (playouts) through this move"})
    bot_move = ma.fields.Boolean(required=True, metadata={
        "description": "The move the search bot (level ismcts) plays here: listed first"})


class AnalysisSchema(Strict):
    id = ma.fields.String(required=True, metadata={"description": "GET /v1/analysis/{id} follows it"})
    game = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seat = ma.fields.Integer(required=True)
    budget = ma.fields.Integer(required=True, metadata={
        "description": "The search's iterations: the served search level's fixed budget for this game"})
    status = ma.fields.String(required=True, validate=validate.OneOf(STATUSES), metadata={
        "description": "queued or running: follow `id` after Retry-After; done: `moves` holds the answer; failed: "
                       "POST again to retry"})
    moves = ma.fields.List(ma.fields.Nested(AnalysedMoveSchema), required=True, allow_none=True, metadata={
        "description": "Every legal move of the seat, best first (the bot's move, then by visits and value); "
                       "null until done"})
    detail = ma.fields.String(required=True, allow_none=True)
