"""The games this server hosts."""
from __future__ import annotations

from flask.views import MethodView

from rules.ruleset import latest_version
from service.api.base import Blueprint
from service.errors import Problem
from service.schemas import RulesetListSchema, RulesetSchema
from service.wiring import engine

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="Games, seat counts and options")


def describe(ruleset) -> dict:
    versions = getattr(ruleset, "versions", ((1, "as first released"),))
    return {"name": ruleset.name, "title": ruleset.title, "min_seats": ruleset.min_seats,
            "max_seats": ruleset.max_seats, "options": {k: o.describe() for k, o in ruleset.options.items()},
            "bot_levels": list(ruleset.bot_levels), "rules_doc": f"docs/rules/{ruleset.name}.md",
            "latest_version": latest_version(ruleset),
            "versions": [{"version": number, "summary": summary} for number, summary in versions]}


@blp.route("")
class Rulesets(MethodView):
    @blp.response(200, RulesetListSchema)
    def get(self):
        """Every ruleset, with its seat counts, options and bot levels."""
        return {"rulesets": [describe(r) for r in engine().runner.rulesets.values()]}


@blp.route("/<string:name>")
class RulesetByName(MethodView):
    @blp.response(200, RulesetSchema)
    def get(self, name):
        """One ruleset."""
        ruleset = engine().runner.rulesets.get(name)
        if ruleset is None:
            raise Problem(404, "not-found", f"no ruleset named {name!r}; see GET /v1/rulesets")
        return describe(ruleset)
