"""openapi.yaml is generated from the code (`flask --app service.wsgi openapi write --format=yaml openapi.yaml`);
this fails when the committed file drifts from what the code would write."""
from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_committed_spec_matches_the_code_and_validates(app):
    generated = app.test_client().get("/openapi.json").json
    committed = yaml.safe_load(SPEC.read_text())
    validate(committed)
    assert committed == generated, "openapi.yaml is stale: regenerate it with " \
                                   "`flask --app service.wsgi openapi write --format=yaml openapi.yaml`"


def test_every_route_is_documented(app):
    committed = yaml.safe_load(SPEC.read_text())
    documented = set(committed["paths"])
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith(("static", "api-docs", "web.")):  # web.: the frontend's files, not API
            continue
        path = str(rule).replace("<string:", "{").replace("<int:", "{").replace(">", "}")
        assert path in documented, f"{path} is served but not in openapi.yaml"


def test_commands_and_views_are_typed_from_the_rulesets_own_schemas():
    """Issue 25 item 3: each game's commands are a oneOf discriminated by `type`, generated from the schemas
    GET /v1/rulesets/{name}/schema serves; legal_moves and the command body are any game's command."""
    from rules import RULESETS
    from rules.describe import commands_schema
    from service.spec_types import pascal

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    for name, ruleset in RULESETS.items():
        union = schemas[f"{pascal(name)}Command"]
        assert union["discriminator"]["propertyName"] == "type"
        assert set(union["discriminator"]["mapping"]) == set(ruleset.commands)
        for ctype, served in commands_schema(ruleset)["$defs"].items():
            member = schemas[f"{pascal(name)}{ctype}"]
            assert member["properties"]["type"]["enum"] == [ctype] and member["required"] == served["required"]
            for arg, prop in served["properties"].items():
                if "enum" in prop:
                    assert member["properties"][arg]["enum"] == prop["enum"], (name, ctype, arg)
        assert f"{pascal(name)}View" in schemas and f"{pascal(name)}EventType" in schemas
    assert schemas["DruglordSway"]["properties"]["weight"]["enum"] == ["reefer", "pills", "cocaine", "opiates"]
    assert schemas["Move"]["anyOf"] == schemas["Command"]["anyOf"] == [{"$ref": "#/components/schemas/AnyCommand"}]
    assert len(schemas["AnyCommand"]["anyOf"]) == len(RULESETS)
    assert {"legal_moves", "move_labels", "awaiting", "clocks", "you", "view", "outcome"} <= set(
        schemas["Game"]["required"])


def test_an_event_s_type_is_one_enum_of_every_ruleset_s_events_and_the_table_s():
    """Issue 25 item 3 (event types): Event.type is EventType, the enum of the table's events and every
    ruleset's catalogue (the event types each evolves), so a generated client can switch on it."""
    from events.table import ENGINE_EVENTS
    from rules import RULESETS
    from rules.describe import event_catalogue

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    assert schemas["Event"]["properties"]["type"] == {"$ref": "#/components/schemas/EventType"}
    assert schemas["TableEventType"]["enum"] == sorted(ENGINE_EVENTS)
    every = set(ENGINE_EVENTS).union(*(event_catalogue(ruleset) for ruleset in RULESETS.values()))
    assert set(schemas["EventType"]["enum"]) == every and len(schemas["EventType"]["enum"]) == len(every)
    assert {"GameCreated", "HitsSold", "SwayDeclared"} <= every


def test_each_game_s_event_is_a_union_on_type_with_its_declared_data():
    """Issue 25 (event data per type): <Game>Event is a oneOf discriminated by `type`, one member per event type
    of the ruleset, each the Event envelope with `type` fixed and `data` the ruleset's declaration."""
    from rules import RULESETS
    from rules.describe import event_catalogue, event_data_schemas
    from service.spec_types import openapi30, pascal

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    for name, ruleset in RULESETS.items():
        union = schemas[f"{pascal(name)}Event"]
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == set(event_catalogue(ruleset)) and len(union["oneOf"]) == len(mapping)
        for etype, schema in event_data_schemas(ruleset).items():
            member = schemas[mapping[etype].rsplit("/", 1)[1]]
            assert member["properties"]["type"]["enum"] == [etype]
            assert {"version", "actor", "at", "narration"} <= set(member["properties"]) <= set(member["required"]) | {
                "command_id", "schema"}
            data = {k: v for k, v in member["properties"]["data"].items() if k != "description"}
            assert data == {k: v for k, v in openapi30(schema).items() if k != "title"}, (name, etype)
    from events.table import ENGINE_EVENT_DATA
    table = schemas["TableEvent"]["discriminator"]["mapping"]
    assert set(table) == set(ENGINE_EVENT_DATA)
    assert schemas["TableEventClockExpired"]["properties"]["data"]["required"] == ["seat", "deadline", "timeouts"]
