"""The games this server hosts, and how each describes itself: command, event and view schemas,
static data (maps, card catalogues) and the rules document."""
from __future__ import annotations

import sys
from pathlib import Path

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from marshmallow import validate

from events import ratings
from rules.base import BadCommand
from rules.describe import commands_schema, event_catalogue, event_data_schemas, view_schema
from rules.ruleset import latest_version, ruleset_at
from service.api.base import PUBLIC, RATE_LIMITED, Blueprint
from service.errors import Problem
from service.player_schemas import LeaderboardQuerySchema, LeaderboardSchema
from service.schemas import RulesetDataSchema, RulesetDescriptionSchema, RulesetListSchema, RulesetSchema, Strict
from service.wiring import engine

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="Games, seat counts and options")

# The same for every reader and fixed for a release: any cache may keep it a while (unlike a game, which
# is redacted per reader and private).
PUBLIC_CACHE = {"Cache-Control": "public, max-age=300"}
PUBLIC_CACHE_HEADERS = {"Cache-Control": {"description": "public, max-age=300: the same for every reader",
                                          "schema": {"type": "string"}}}

# Where the rules documents are read from: the checkout's docs/rules (development, editable installs),
# else the copy pyproject's [tool.setuptools.data-files] installs under <prefix>/share (wheels, Docker).
DOCS_DIRS = (Path(__file__).resolve().parents[2] / "docs" / "rules",
             Path(sys.prefix) / "share" / "tabletop-cartel" / "rules")


def rules_document(name: str) -> Path | None:
    """The Markdown rules document of a ruleset, if one is installed: docs/rules/<name>.md, the ruleset's
    name with its underscores as hyphens (lords_of_cannabis -> lords-of-cannabis.md, as the docs spell it)."""
    for folder in DOCS_DIRS:
        for stem in dict.fromkeys((name.replace("_", "-"), name)):
            path = folder / f"{stem}.md"
            if path.is_file():
                return path
    return None


def ruleset_named(name: str):
    ruleset = engine().runner.rulesets.get(name)
    if ruleset is None:
        raise Problem(404, "not-found", f"no ruleset named {name!r}; see GET /v1/rulesets")
    return ruleset


def describe(ruleset) -> dict:
    base = f"/v1/rulesets/{ruleset.name}"
    doc = rules_document(ruleset.name)
    return {"name": ruleset.name, "title": ruleset.title, "min_seats": ruleset.min_seats,
            "max_seats": ruleset.max_seats, "options": {k: o.describe() for k, o in ruleset.options.items()},
            "bot_levels": list(ruleset.bot_levels), "rules_doc": f"{base}/rules" if doc else None,
            "latest_version": latest_version(ruleset),
            "versions": [{"version": number, "summary": summary} for number, summary in ruleset.versions],
            "links": {"schema": f"{base}/schema", "data": f"{base}/data",
                      **({"rules": f"{base}/rules"} if doc else {})}}


@blp.route("")
class Rulesets(MethodView):
    @blp.response(200, RulesetListSchema, headers=PUBLIC_CACHE_HEADERS)
    @blp.problems(RATE_LIMITED)
    @blp.doc(operationId="listRulesets", security=PUBLIC)
    def get(self):
        """Every ruleset, with its seat counts, options and bot levels."""
        return {"rulesets": [describe(r) for r in engine().runner.rulesets.values()]}, 200, PUBLIC_CACHE


@blp.route("/<string:name>")
class RulesetByName(MethodView):
    @blp.response(200, RulesetSchema, headers=PUBLIC_CACHE_HEADERS)
    @blp.problems({404: "No such ruleset", **RATE_LIMITED})
    @blp.doc(operationId="getRuleset", security=PUBLIC)
    def get(self, name):
        """One ruleset, with links to its schemas, static data and rules document."""
        return describe(ruleset_named(name)), 200, PUBLIC_CACHE


@blp.route("/<string:name>/schema")
class RulesetSchemas(MethodView):
    @blp.response(200, RulesetDescriptionSchema, headers=PUBLIC_CACHE_HEADERS)
    @blp.problems({404: "No such ruleset", **RATE_LIMITED})
    @blp.doc(operationId="getRulesetSchema", security=PUBLIC)
    def get(self, name):
        """JSON Schemas (2020-12) of the ruleset's commands (a oneOf discriminated by `type`, each command and
        argument described) and of its view, the catalogue of its event types and the JSON Schema of each one's data."""
        ruleset = ruleset_named(name)
        return {"commands": commands_schema(ruleset), "events": event_catalogue(ruleset),
                "event_data": event_data_schemas(ruleset), "view": view_schema(ruleset)}, 200, PUBLIC_CACHE


class RulesetDataQuerySchema(Strict):
    version = ma.fields.Integer(validate=validate.Range(min=1), metadata={
        "description": "The rules version whose data to return (a game's `ruleset_version`: a Druglord game of "
                       "version 1 is drawn on its version-1 map); default the latest; 404 for a version the "
                       "ruleset never had"})


def data_at(ruleset, version: int | None) -> dict:
    """The ruleset's static data as its rules `version` reads it (default the latest)."""
    if version is None:
        return ruleset.static_data()
    try:
        return ruleset_at(ruleset, version).static_data()
    except BadCommand as refusal:
        raise Problem(404, "not-found", refusal.reason) from None


@blp.route("/<string:name>/data")
class RulesetData(MethodView):
    @blp.arguments(RulesetDataQuerySchema, location="query")
    @blp.response(200, RulesetDataSchema, headers=PUBLIC_CACHE_HEADERS)
    @blp.problems({404: "No such ruleset, or no such rules version of it", **RATE_LIMITED})
    @blp.doc(operationId="getRulesetData", security=PUBLIC)
    def get(self, query, name):
        """The game's static data from the data files the rules read (Druglord: the world map with every
        Region's name, zone, borders, ports, demand and drawing coordinates; Kingpin: the card catalogue;
        Lords of Cannabis: the bricks, intersections, paths and docks with drawing positions, the Crop deck;
        Trafficking: the squares with grid positions and red arrows, the Dealers, the 32 cards).  `?version=N`:
        the data of rules version N (the board a game of that version is played on)."""
        ruleset = ruleset_named(name)
        return {"ruleset": ruleset.name, "data": data_at(ruleset, query.get("version"))}, 200, PUBLIC_CACHE


@blp.route("/<string:name>/rules")
class RulesetRules(MethodView):
    @blp.doc(operationId="getRulesetRules", security=PUBLIC, responses={"200": {
        "description": "The rulings and the command reference (Markdown)",
        "content": {"text/markdown": {"schema": {"type": "string"}}}}})
    @blp.problems({404: "No such ruleset, or no rules document for it", **RATE_LIMITED})
    def get(self, name):
        """The ruleset's rules document: rulings, reconstructed data and the command reference."""
        ruleset_named(name)
        path = rules_document(name)
        if path is None:
            raise Problem(404, "not-found", f"no rules document is installed for {name!r}")
        return Response(path.read_text(encoding="utf-8"), mimetype="text/markdown",
                        headers=PUBLIC_CACHE)


@blp.route("/<string:name>/leaderboard")
class Leaderboard(MethodView):
    @blp.arguments(LeaderboardQuerySchema, location="query")
    @blp.response(200, LeaderboardSchema)
    @blp.problems({404: "No such ruleset", **RATE_LIMITED})
    @blp.doc(operationId="getLeaderboard", security=PUBLIC)
    def get(self, query, name):
        """The ruleset's players by rating, best first, and its bot levels: OpenSkill ratings folded from the
        finished histories of its rated games (finished with the server's seed, a seat bound to a player and
        another player's or a bot's beside it), brought up to date as it is read; a bot starts from the arena's
        rating of its level."""
        ruleset = ruleset_named(name)
        runner = engine().runner
        folded = ratings.bring_up_to_date(runner, runner.store.ratings, name)
        return {"ruleset": name, "rated_games": runner.store.ratings.count(name),
                "players": ratings.leaderboard(folded, query["limit"]),
                "bots": ratings.bot_board(folded, ruleset.bot_levels, ratings.priors_of(runner, name))}
