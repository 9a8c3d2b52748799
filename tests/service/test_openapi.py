"""openapi.yaml is generated from the code (`flask --app service.wsgi openapi write --format=yaml openapi.yaml`);
this fails when the committed file drifts from what the code would write."""
from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service import create_app

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


def test_every_operation_has_a_summary_and_an_operation_id():
    """CI lints the spec with Redocly's recommended rules, which refuse an operation without a summary (a
    view's docstring gives one; a view made in a loop must say it); this finds it before CI does."""
    committed = yaml.safe_load(SPEC.read_text())
    missing = [f"{method.upper()} {path}" for path, item in committed["paths"].items()
               for method, operation in item.items()
               if method in {"get", "post", "put", "patch", "delete"}
               and not (operation.get("summary") and operation.get("operationId"))]
    assert not missing, f"operations without a summary or operationId: {missing}"


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
    for name in RULESETS:
        assert {"legal_moves", "move_labels", "awaiting", "clocks", "you", "view", "outcome", "ruleset"} <= set(
            schemas[f"{pascal(name)}Game"]["required"])


def test_the_game_document_turn_message_and_creation_body_are_unions_on_ruleset():
    """Issue 36 item 5: Game, TurnState and CreateGame are each a oneOf of one member per served ruleset,
    discriminated by `ruleset`, each member typing the game's own view, legal moves, outcome and options by
    reference to that ruleset's components; and the rest of the document is the untyped one's, field for field."""
    from rules import RULESETS
    from service.spec_types import pascal

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    for document, typed in {"Game": {"view", "legal_moves", "outcome", "options"},
                            "TurnState": {"legal_moves", "outcome"}, "CreateGame": {"options"}}.items():
        union = schemas[document]
        assert union["discriminator"]["propertyName"] == "ruleset"
        assert union["discriminator"]["mapping"] == {
            name: f"#/components/schemas/{pascal(name)}{document}" for name in RULESETS}
        assert union["oneOf"] == [{"$ref": f"#/components/schemas/{pascal(name)}{document}"} for name in RULESETS]
        members = [schemas[f"{pascal(name)}{document}"] for name in RULESETS]
        for name, member in zip(RULESETS, members, strict=True):
            prefix = pascal(name)
            assert member["properties"]["ruleset"] == {"type": "string", "enum": [name]}
            assert "ruleset" in member["required"]
            refs = {field: yaml.safe_dump(member["properties"][field]) for field in typed}
            for field, reference in {"view": f"{prefix}View", "legal_moves": f"{prefix}Command",
                                     "outcome": f"{prefix}Outcome", "options": f"{prefix}Options"}.items():
                if field in typed:
                    assert f"#/components/schemas/{reference}'" in refs[field], (document, name, field, refs[field])
            untyped = {k: v for k, v in member["properties"].items() if k not in typed | {"ruleset"}}
            assert untyped == {k: v for k, v in members[0]["properties"].items() if k not in typed | {"ruleset"}}
    assert schemas["KingpinOptions"]["properties"]["target"]["enum"] == [3000, 5000, 10000]
    assert schemas["KingpinOptions"]["additionalProperties"] is False
    assert schemas["KingpinResult"]["required"] == ["winners", "reason", "bankrolls", "text"]
    assert schemas["KingpinOutcome"]["anyOf"] == [{"$ref": "#/components/schemas/KingpinResult"},
                                                  {"$ref": "#/components/schemas/TableOutcome"}]


def test_an_event_s_type_is_one_enum_of_every_ruleset_s_events_and_the_table_s():
    """Issue 25 item 3 (event types): Event.type is EventType, the enum of the table's events and every
    ruleset's catalogue (the event types each evolves), so a generated client can switch on it.  A fork's start
    (ForkDealt, events/forks.py) is the engine's, in any game: a table event of the spec."""
    from events.forks import FORK_DEALT
    from events.table import ENGINE_EVENTS
    from rules import RULESETS
    from rules.describe import event_catalogue

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    assert schemas["Event"]["properties"]["type"] == {"$ref": "#/components/schemas/EventType"}
    assert schemas["TableEventType"]["enum"] == sorted(ENGINE_EVENTS | {FORK_DEALT})
    every = set(ENGINE_EVENTS | {FORK_DEALT}).union(*(event_catalogue(ruleset) for ruleset in RULESETS.values()))
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
    from events.forks import FORK_DEALT
    from events.table import ENGINE_EVENT_DATA
    table = schemas["TableEvent"]["discriminator"]["mapping"]
    assert set(table) == set(ENGINE_EVENT_DATA) | {FORK_DEALT}
    assert schemas["TableEventClockExpired"]["properties"]["data"]["required"] == ["seat", "deadline", "timeouts"]


def test_a_ruleset_added_to_the_registry_gets_its_typed_document_from_its_declarations(redis_server, monkeypatch):
    """Issue 36 item 5 (and 35 item 4's spirit): a sixth game registered in rules.RULESETS, here the example
    Pig, is typed in the spec with no edit to the service: PigGame, PigTurnState and PigCreateGame join the
    unions, its view, outcome and options converted from what it declares (its outcome undeclared: the contract's)."""
    import rules
    from rules.describe import options_schema, outcome_schema, view_schema
    from rules.examples import EXAMPLES
    from service.spec_types import component, openapi30

    monkeypatch.setitem(rules.RULESETS, "pig", EXAMPLES["pig"])
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    try:
        schemas = app.test_client().get("/openapi.json").json["components"]["schemas"]
    finally:
        app.extensions["cartel"].hub.close()
    for document in ("Game", "TurnState", "CreateGame"):
        assert schemas[document]["discriminator"]["mapping"]["pig"] == f"#/components/schemas/Pig{document}"
        assert schemas[f"Pig{document}"]["properties"]["ruleset"]["enum"] == ["pig"]
    pig = EXAMPLES["pig"]
    assert {k: v for k, v in schemas["PigView"].items() if k != "description"} == {
        k: v for k, v in component(view_schema(pig), "").items() if k != "description"}
    assert schemas["PigOptions"]["properties"]["target"]["enum"] == [20, 50, 100]
    declared = openapi30(outcome_schema(pig))
    assert schemas["PigResult"]["required"] == [*declared["required"], "text"]
    assert schemas["PigGame"]["properties"]["options"]["$ref"] == "#/components/schemas/PigOptions"
    assert schemas["PigGame"]["properties"]["view"]["anyOf"][0] == {"$ref": "#/components/schemas/PigView"}
    assert options_schema(pig)["additionalProperties"] is False
