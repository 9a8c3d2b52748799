"""Blueprints, registered from one list."""
from __future__ import annotations

import http

import flask_smorest
from flask_smorest.utils import prepare_response
from webargs import core
from webargs.flaskparser import FlaskParser

from service.bodies import json_body
from service.errors import ProblemSchema


PROBLEM = "application/problem+json"


class Parser(FlaskParser):
    # A body or query that does not match its schema is malformed: 400.
    # 422 is kept for what the rules forbid.
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        # Strict, bounded JSON (service.bodies): 415 for another media type instead of
        # webargs' "Missing data", 400 for nesting, huge integers, NaN or lone surrogates.
        body = json_body()
        return core.missing if body is None else body


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def problems(self, responses: dict[int, str]):
        """Document error responses as problem+json documents."""
        def decorator(view):
            for status, description in sorted(responses.items(), reverse=True):
                view = self.alt_response(status, schema=ProblemSchema, description=description,
                                         content_type=PROBLEM)(view)
            return view
        return decorator


class CartelApi(flask_smorest.Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        # As flask-smorest's, but errors are documented as application/problem+json.
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


from service.api.games import blp as games_blp  # noqa: E402
from service.api.health import blp as health_blp  # noqa: E402
from service.api.metrics import blp as metrics_blp  # noqa: E402
from service.api.play import blp as play_blp  # noqa: E402
from service.api.replays import blp as replays_blp  # noqa: E402
from service.api.rulesets import blp as rulesets_blp  # noqa: E402

BLUEPRINTS = [health_blp, rulesets_blp, games_blp, play_blp, replays_blp, metrics_blp]
