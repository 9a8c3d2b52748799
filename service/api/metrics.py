"""Prometheus metrics: GET /metrics in the text exposition format (version 0.0.4)."""
from __future__ import annotations

from flask import Response
from flask.views import MethodView

from service import metrics
from service.api.base import PUBLIC, Blueprint
from service.wiring import engine

blp = Blueprint("metrics", __name__, description="Prometheus metrics")


@blp.after_app_request
def count_refusals(response):
    """Count 409s, illegal-move 422s and 400s, whichever view (or error handler) answered."""
    if response.status_code in (400, 409, 422):
        problem = response.get_json(silent=True) if response.is_json else None
        metrics.observe_response(response.status_code, problem.get("type") if isinstance(problem, dict) else None)
    return response


DESCRIPTION = (
    "Prometheus text format, version 0.0.4. Counters: `cartel_commands_accepted_total{ruleset,actor}`, "
    "`cartel_command_conflicts_total` (409), `cartel_illegal_moves_total` (422), `cartel_bad_requests_total` (400), "
    "`cartel_bot_failures_total{ruleset}` (bot moves that failed for good; the seat waits for its human). "
    "Histograms: `cartel_append_seconds{outcome}` (compare-and-append latency), `cartel_job_lag_seconds{job}` (from "
    "a bot or clock job's scheduled time to its start, recorded by the workers). Gauge: `cartel_games{status}` (the "
    "lobby indexes). Counters and histograms cover this node's processes (and the workers sharing its "
    "PROMETHEUS_MULTIPROC_DIR); `cartel_games` covers the whole deployment.")


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(operationId="metrics", security=PUBLIC, responses={"200": {"description": DESCRIPTION,
                                "content": {"text/plain; version=0.0.4": {"schema": {"type": "string"}}}}})
    def get(self):
        """Metrics for Prometheus to scrape."""
        return Response(metrics.render(engine().store), mimetype=None,
                        headers={"Content-Type": metrics.CONTENT_TYPE, "Cache-Control": "no-store"})
