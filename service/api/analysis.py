"""Analysis: what the search bot weighs for a seat at a version (service/analysis.py says who may ask and how
it runs on the workers)."""
from __future__ import annotations

import hashlib

from flask import current_app, request
from flask.views import MethodView

from events.limits import Limit
from service import analysis
from service.analysis_schemas import AnalysisRequestSchema, AnalysisSchema
from service.api.base import PER_READER, PER_READER_HEADERS, RETRY_AFTER, Blueprint, load_for_reader
from service.api.invitations import refuse_if_private
from service.errors import Problem
from service.ratelimit import whole_seconds
from service.wiring import engine

blp = Blueprint("analysis", __name__, url_prefix="/v1/analysis",
                description="What the search bot weighs for a seat: each legal move's value and visit share")
FOLLOW = {**RETRY_AFTER, "Location": {"description": "Where to follow the analysis", "schema": {"type": "string"}}}
SECURITY = [{}, {"seatToken": []}, {"playerKey": []}]
REFUSED = {401: "A live game's seat without its token (token-required), or a malformed one",
           403: "A live game's seat asked with another seat's token (token-not-for-this-seat), or a table that does "
                "not allow analysis while it is on: not created with `analysis: true`, or rated "
                "(analysis-not-allowed)",
           404: "No such game, or no such analysis",
           409: "The seat has no move to make at that version (seat-not-awaited)",
           422: "A version past the game's (version-out-of-range), a seat the table does not have "
                "(seat-out-of-range), or a game without a search bot (analysis-not-offered)"}


def checked(game_id: str, version: int, seat: int):
    """The game and its budget, once the caller may have this analysis (else the problem that says why)."""
    refuse_if_private(game_id)  # as the gate does for /v1/games/<id>: a private table is no game to a stranger
    latest, reader = load_for_reader(game_id)  # an unknown game: 404 (service/errors.py)
    at = engine().runner.load(game_id, version=version) if version <= latest.version else None
    refused = analysis.refusal(latest, at, seat, reader)
    if refused is not None:
        raise Problem(refused.status, refused.code, refused.detail)  # `param`, where one, from the catalogue
    return latest, analysis.budget_of(latest.ruleset)


def take_analysis_limit() -> None:
    """The searches' own rate limit (ANALYSIS_PER_MINUTE, burst ANALYSIS_BURST), per token (per address without
    one), paid by a request that enqueues a search; over it: 429 analysis-rate-limited."""
    config = current_app.config
    per_minute = int(config["ANALYSIS_PER_MINUTE"])
    if per_minute <= 0:
        return
    header = request.headers.get("Authorization", "")
    who = (f"tok:{hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]}" if header
           else f"addr:{request.remote_addr}")
    verdict, = engine().limiter.acquire([Limit("analysis", who, per_minute, max(1, int(config["ANALYSIS_BURST"])))])
    if verdict.refused:
        retry = whole_seconds(verdict.wait_us)
        raise Problem(429, "analysis-rate-limited", f"more than {per_minute} analyses a minute; the next in "
                      f"{retry} s (an analysis already made is answered at once)", headers={"Retry-After": str(retry)})


def answered(document: dict, done: bool):
    """200 with the analysis when done (or failed), else 202 and where to follow it."""
    if done:
        return document, 200, PER_READER
    follow = f"/v1/analysis/{document['id']}"
    return document, 202, {**PER_READER, "Location": follow, "Retry-After": "1"}


@blp.route("")
class Analyses(MethodView):
    @blp.arguments(AnalysisRequestSchema)
    @blp.response(200, AnalysisSchema, headers=PER_READER_HEADERS)
    @blp.alt_response(202, schema=AnalysisSchema, headers=FOLLOW,
                      description="Not done within ANALYSIS_WAIT_SECONDS: follow `Location` after `Retry-After`")
    @blp.problems({**REFUSED, 400: "Malformed body", 415: "Body not application/json",
                   429: "Over a rate limit, or over ANALYSIS_PER_MINUTE searches (analysis-rate-limited)"})
    @blp.doc(operationId="requestAnalysis", security=SECURITY)
    def post(self, body):
        """Ask what the search bot weighs for `seat` at `version`: each legal move's value and visit share, with its
        label, from that seat's knowledge only (the served search level at its fixed budget, on the workers).
        Any seat of an ended game; while it is on, only the caller's own seat, at a table created with
        `analysis: true` (never rated).  Answered when done within a few seconds (200), else 202."""
        game_id, version, seat = body["game"], body["version"], body["seat"]
        latest, budget = checked(game_id, version, seat)
        queue, config = engine().queue, current_app.config
        name = analysis.analysis_id(latest.id, version, seat, budget)
        job = analysis.job_of(queue, name)
        if analysis.needs_search(job):
            take_analysis_limit()
            job = analysis.enqueue_analysis(queue, latest.id, version, seat, budget,
                                            int(config["ANALYSIS_KEEP_SECONDS"]))
        analysis.wait_for(job, float(config["ANALYSIS_WAIT_SECONDS"]))
        return answered(*analysis.state_of(job, name))


@blp.route("/<string:analysis_id>")
class AnalysisById(MethodView):
    @blp.response(200, AnalysisSchema, headers=PER_READER_HEADERS)
    @blp.alt_response(202, schema=AnalysisSchema, headers=FOLLOW, description="Not done yet: again after Retry-After")
    @blp.problems(REFUSED)
    @blp.doc(operationId="getAnalysis", security=SECURITY)
    def get(self, analysis_id):
        """Follow an analysis: 200 once done (or failed), 202 while it is queued or running.  The same caller
        checks as its POST: a live game's seat is its own token's only."""
        parsed = analysis.parse_id(analysis_id)
        if parsed is None:
            raise Problem(404, "not-found", f"no analysis {analysis_id!r}")
        game_id, version, seat, budget = parsed
        latest, served = checked(game_id, version, seat)
        job = analysis.job_of(engine().queue, analysis_id) if budget == served else None
        if job is None:
            raise Problem(404, "not-found", f"no analysis {analysis_id!r} is kept: POST /v1/analysis to make it")
        return answered(*analysis.state_of(job, analysis_id))
