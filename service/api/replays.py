"""Verifying an uploaded history."""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from flask import current_app, request
from flask.views import MethodView

from events import forks
from events.game import GameNotFound
from events.history import exported_records, read_history, state_at, verify_history
from service.api.base import PUBLIC, Blueprint
from service.api.invitations import admitted
from service.bodies import body_bytes
from service.errors import Problem
from service.schemas import ReplayQuerySchema, ReplayResultSchema
from service.wiring import engine

blp = Blueprint("replays", __name__, url_prefix="/v1/replays", description="Verify exported histories")


class RecentVerdicts:
    """The verdicts of the last few histories this process verified, by the SHA-256 of their bytes.

    The replay page steps through an uploaded history with one `POST /v1/replays?version=N` per
    step, each carrying the whole file: the same bytes give the same records and so the same
    verdict, and re-verifying a long game at every step (every command re-decided) cost far more
    than the step itself.  Only the small verdict is kept, never the history: a step still parses
    its upload and folds to N, but within the part that verified, as before."""

    def __init__(self, size: int = 64):
        self.size = size
        self._verdicts: OrderedDict[bytes, dict] = OrderedDict()
        self._lock = threading.Lock()  # gthread: requests of one process share it

    def verdict(self, body: bytes, verify) -> dict:
        """A copy of the verdict on `body`: remembered, or `verify()`'s, then remembered."""
        digest = hashlib.sha256(body).digest()
        with self._lock:
            known = self._verdicts.get(digest)
            if known is not None:
                self._verdicts.move_to_end(digest)
        if known is None:
            known = verify()
            with self._lock:
                self._verdicts[digest] = known
                while len(self._verdicts) > self.size:
                    self._verdicts.popitem(last=False)
        return dict(known)  # the caller adds the travel's keys to its own copy


@blp.before_request
def allow_large_histories():
    request.max_content_length = current_app.config["REPLAY_MAX_BYTES"]


@blp.route("")
class Replays(MethodView):
    @blp.arguments(ReplayQuerySchema, location="query")
    @blp.response(200, ReplayResultSchema)
    @blp.problems({400: "Not JSON Lines", 413: "History over REPLAY_MAX_BYTES",
                   422: "?version past the history's end or its first divergence"})
    @blp.doc(operationId="verifyReplay", security=PUBLIC, requestBody={"required": True, "content": {
        # the same bytes under either media type: generators that know no JSON Lines send octet-stream
        media: {"schema": {"type": "string", "format": "binary",
                           "description": "A history as exported by GET /v1/games/{id}/history (JSON Lines)"}}
        for media in ("application/x-ndjson", "application/octet-stream")}})
    def post(self, query):
        """Re-fold a history and re-derive every roll from its revealed seed; say where a tampered one diverges,
        which header field the events contradict, and whether the events are the whole game: `valid` (every event
        re-derives) and `complete` (they reach the header's last version and recorded outcome) are separate, so
        the first lines of a history are valid, not complete.  With `?version=N`, also the game's state and
        spectator view after event N."""
        body = body_bytes()
        try:
            records = read_history(body)  # as `cartel verify --offline` reads it: the same words
        except ValueError as error:
            raise Problem(400, "malformed-history", str(error)) from None
        rulesets = engine().runner.rulesets
        recent = current_app.extensions.setdefault("replay_verdicts", RecentVerdicts())  # per app: its rulesets
        expected = query.get("expect_commitment")
        # a fork's verdict depends on the originals this caller may read here: its credential is part of the key
        reader = request.headers.get("Authorization", "") if forks.original_of(records) else ""
        result = recent.verdict(body + (expected or "").encode() + reader.encode(),
                                lambda: verify_history(records, rulesets, "fast", expected,
                                                       origins=originals_here(records)))
        if "version" in query:
            result.update(travel(records, rulesets, result, query["version"]))
        return result


FORK_DEPTH = 16  # a fork of a fork of ...: the originals found on this server, at most this many


def originals_here(records: list[dict]) -> dict[str, list[dict]]:
    """A fork's original, and its original if it is a fork too, found on this server by id (ended games whose
    history GET .../history would serve this caller; a private one only with a credential for it): what
    verification re-derives a fork's start from.  One not found is not given: the verdict says so."""
    runner, found = engine().runner, {}
    game_id = forks.original_of(records)
    while game_id is not None and game_id not in found and len(found) < FORK_DEPTH:
        sighting = engine().store.access.lookup(game_id, with_meta=True)
        if not sighting.exists or (sighting.visibility == "private" and not admitted(game_id, sighting.meta)):
            break
        try:
            game = runner.load(game_id)
        except GameNotFound:  # archived where this server keeps no archive: not here
            break
        if not game.ended:
            break
        found[game_id] = exported_records(game, runner.all_envelopes(game))
        game_id = forks.original_of(found[game_id])
    return found


def travel(records: list[dict], rulesets, result: dict, version: int) -> dict:
    """The state and spectator view after event `version`: only within the part that verified."""
    verified = result["events"]
    if version > verified:
        where = "its end" if result["valid"] else f"the {verified} events that verify"
        raise Problem(422, "version-out-of-range", f"version {version} is past {where}")
    if version == 0:  # before the first event (also all a history whose header does not verify has)
        return {"version": 0, "state": None, "view": None}
    ruleset, state = state_at(records, rulesets, version)
    return {"version": version, "state": state, "view": None if state is None else ruleset.view(state, None)}
