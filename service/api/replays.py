"""Verifying an uploaded history."""
from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView

from events.history import parse_history, verify_history
from service.api.base import PUBLIC, Blueprint
from service.bodies import body_bytes
from service.errors import Problem
from service.schemas import ReplayResultSchema
from service.wiring import engine

blp = Blueprint("replays", __name__, url_prefix="/v1/replays", description="Verify exported histories")


@blp.before_request
def allow_large_histories():
    request.max_content_length = current_app.config["REPLAY_MAX_BYTES"]


@blp.route("")
class Replays(MethodView):
    @blp.response(200, ReplayResultSchema)
    @blp.problems({400: "Not JSON Lines", 413: "History over REPLAY_MAX_BYTES"})
    @blp.doc(operationId="verifyReplay", security=PUBLIC, requestBody={"required": True, "content": {
        # the same bytes under either media type: generators that know no JSON Lines send octet-stream
        media: {"schema": {"type": "string", "format": "binary",
                           "description": "A history as exported by GET /v1/games/{id}/history (JSON Lines)"}}
        for media in ("application/x-ndjson", "application/octet-stream")}})
    def post(self):
        """Re-fold a history and re-derive every roll from its revealed seed; say where a tampered one diverges."""
        try:
            text = body_bytes().decode("utf-8")
            records = parse_history(text)
        except UnicodeDecodeError as error:
            raise Problem(400, "malformed-history", f"the history is not UTF-8 (byte {error.start})") from None
        except ValueError as error:
            raise Problem(400, "malformed-history", str(error)) from None
        return verify_history(records, engine().runner.rulesets)
