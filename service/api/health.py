"""Liveness and readiness."""
from __future__ import annotations

from flask.views import MethodView

from service.api.base import PUBLIC, Blueprint
from service.schemas import HealthSchema
from service.wiring import engine, workers_alive

blp = Blueprint("health", __name__, description="Liveness and readiness probes")


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.doc(operationId="healthz", security=PUBLIC)
    def get(self):
        """The process is up (does not touch Redis)."""
        return {"status": "ok", "checks": {}}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, schema=HealthSchema, description="Redis unreachable or no worker alive")
    @blp.doc(operationId="readyz", security=PUBLIC)
    def get(self):
        """Redis answers and at least one worker has a fresh heartbeat."""
        checks = {"redis": "ok" if engine().store.ping() else "unreachable",
                  "workers": f"{workers_alive(engine())} alive"}
        ready = checks["redis"] == "ok" and not checks["workers"].startswith("0 ")
        return {"status": "ready" if ready else "not ready", "checks": checks}, 200 if ready else 503
