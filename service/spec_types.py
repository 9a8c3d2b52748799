"""The rulesets' own schemas as OpenAPI components, so generated clients get real types.

Each ruleset already describes itself in JSON Schema 2020-12 (rules/describe.py, served at
GET /v1/rulesets/{name}/schema).  This module converts those documents, at spec-build time, into
OpenAPI 3.0 components: `<Game><Command>` per command type, `<Game>Command` (a oneOf discriminated by
`type`), `<Game>View`, `<Game>EventType`, `<Game>Event<Type>` per event type (the event with its
declared data) and `<Game>Event` (their oneOf discriminated by `type`), `TableEvent<Type>` and
`TableEvent` (the table's own events, alike), `EventType` (any event's type),
and `AnyCommand` (any game's command: the body of POST /v1/games/{id}/commands and each item of
`legal_moves`).  Generated,
never hand-copied: the spec and `/schema` cannot drift.  Pure: no I/O, no Flask.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from rules.describe import (
    command_schema,
    event_catalogue,
    event_data_schemas,
    options_schema,
    outcome_schema,
    view_schema,
)

REF = "#/components/schemas/"
ANY_COMMAND = "AnyCommand"
# What OpenAPI 3.0 has no keyword for: dropped, which only loosens the schema (keys of a
# dict_of are described in prose beside it).
UNSUPPORTED = {"$schema", "propertyNames"}


def pascal(name: str) -> str:
    """A ruleset's name as a component prefix: lords_of_cannabis -> LordsOfCannabis."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def ref(component: str) -> dict:
    """A reference to a component schema."""
    return {"$ref": REF + component}


def json_type(values: list) -> str | None:
    """The one OpenAPI type every (non-null) value of an enum has, or None when they differ."""
    def type_of(value: Any) -> str:
        if isinstance(value, bool):
            return "boolean"
        if isinstance(value, int):
            return "integer"
        return {str: "string", float: "number", list: "array", dict: "object"}.get(type(value), "?")
    types = {type_of(v) for v in values if v is not None}
    return types.pop() if len(types) == 1 else None


def typed_enum(schema: dict) -> dict:
    """An enum with its type beside it (3.0's `nullable` needs one), null allowed by `nullable`."""
    values = schema["enum"]
    kind = schema.get("type") or json_type(values)
    out = {**schema, **({"type": kind} if kind else {})}
    return {**out, "nullable": True} if None in values else out


def openapi30(schema: Any) -> Any:
    """A JSON Schema 2020-12 document, as rules/describe.py writes them, in OpenAPI 3.0.3's dialect:
    `const` -> a one-value enum, `type: [t, "null"]` and `anyOf: [s, {type: null}]` -> `nullable`,
    a tuple's `prefixItems` -> `items` (any of its positions' kinds)."""
    if isinstance(schema, list):
        return [openapi30(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    if "prefixItems" in schema:  # 3.0 has no tuples: each item one of the positions' kinds, the length kept
        kinds = [openapi30(item) for item in schema["prefixItems"]]
        unique = [k for n, k in enumerate(kinds) if k not in kinds[:n]]
        schema = {**{k: v for k, v in schema.items() if k != "prefixItems"},
                  "items": unique[0] if len(unique) == 1 else {"anyOf": unique}}
    out: dict = {}
    for key, value in schema.items():
        if key in UNSUPPORTED or (key == "required" and not value):  # 3.0: a `required` list is never empty
            continue
        if key == "const":
            out["enum"] = [value]
        elif key in ("properties", "$defs"):
            out[key] = {name: openapi30(sub) for name, sub in value.items()}
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            out["type"] = kinds[0]
            if "null" in value:
                out["nullable"] = True
        else:
            out[key] = openapi30(value)
    for union in ("anyOf", "oneOf"):
        branches = out.get(union)
        if branches and {"type": "null"} in branches:
            rest = [b for b in branches if b != {"type": "null"}]
            if len(rest) == 1 and ("type" in rest[0] or "enum" in rest[0]):
                del out[union]
                out = {**rest[0], **out, "nullable": True}
                if "enum" in out and None not in out["enum"]:
                    # 3.0.3: a nullable enum admits null only when null is one of its values
                    # (openapi-python-client refuses a null Druglord phase_name otherwise)
                    out["enum"] = [*out["enum"], None]
            else:
                raise ValueError(f"no OpenAPI 3.0 form for a nullable {union} of {rest}")
    if "enum" in out:
        out = typed_enum(out)
    return out


def member(schema: dict) -> dict:
    """A command's schema as a union member: open to further properties (see command_components), and
    untitled, since generators name a titled model by its title and two games share "EndTurn"."""
    return {key: value for key, value in schema.items() if key not in ("additionalProperties", "title")}


def command_components(ruleset: Any) -> dict[str, dict]:
    """`<Game><Command>` for each command type and `<Game>Command`, their union discriminated by `type`."""
    prefix = pascal(ruleset.name)
    members = {ctype: f"{prefix}{ctype}" for ctype in ruleset.commands}
    # without `additionalProperties: false`: the body of POST .../commands adds expected_version to a
    # command (allOf), which a closed member would forbid; the server still answers 400 for any other
    components = {name: member(openapi30(command_schema(ruleset, ctype))) for ctype, name in members.items()}
    components[f"{prefix}Command"] = {
        "title": f"{ruleset.title} command",
        "description": f"A {ruleset.title} command ({ruleset.name}): as listed in legal_moves and as posted; "
                       f"GET /v1/rulesets/{ruleset.name}/schema has the same schemas",
        "oneOf": [ref(name) for name in members.values()],
        "discriminator": {"propertyName": "type", "mapping": {ctype: REF + name for ctype, name in members.items()}},
    }
    return components


def component(schema: Mapping[str, Any], description: str) -> dict:
    """A ruleset's JSON Schema document as a component: in OpenAPI 3.0's dialect, untitled (named by its
    component; generators name a titled model by its title)."""
    return {**{k: v for k, v in openapi30(schema).items() if k != "title"}, "description": description}


def view_component(ruleset: Any) -> dict:
    """`<Game>View`: what `view` holds in a game of this ruleset."""
    return component(view_schema(ruleset), f"The {ruleset.title} game as one reader may see it ({ruleset.name})")


def event_type_component(ruleset: Any) -> dict:
    """`<Game>EventType`: every event type the ruleset emits, the catalogue's lines in the description."""
    catalogue = event_catalogue(ruleset)
    lines = "; ".join(f"{etype}: {doc}" if doc else etype for etype, doc in catalogue.items())
    return {"type": "string", "enum": list(catalogue),
            "description": f"The type of a {ruleset.title} event ({ruleset.name}). {lines}"}


def event_union(prefix: str, title: str, docs: Mapping[str, str], data: Mapping[str, Mapping],
                envelope: Mapping[str, Any]) -> dict[str, dict]:
    """`<prefix>Event<Type>` for each event type of `docs` ({type: description}): the Event `envelope` (its
    properties and required list) with `type` fixed and `data` its schema (JSON Schema 2020-12), and
    `<prefix>Event`, their union discriminated by `type`, so a generated client narrows on `event.type`."""
    members = {etype: f"{prefix}Event{etype}" for etype in docs}
    fields = {k: v for k, v in envelope["properties"].items() if k not in ("type", "data")}
    components = {}
    for etype, name in members.items():
        schema = {k: v for k, v in openapi30(data[etype]).items() if k != "title"}  # named by its component
        components[name] = {
            "type": "object", "description": f"{title} {etype}: {docs[etype]}".rstrip(": "),
            "properties": {"type": {"type": "string", "enum": [etype]},
                           "data": {**schema, "description": "Its fields as the event's owner reads them; another "
                                    "reader gets it without `secret`"}, **fields},
            "required": list(dict.fromkeys(["type", "data", *envelope.get("required", [])]))}
    components[f"{prefix}Event"] = {
        "title": f"{title} event",
        "oneOf": [ref(name) for name in members.values()],
        "discriminator": {"propertyName": "type", "mapping": {etype: REF + name for etype, name in members.items()}},
    }
    return components


def event_components(ruleset: Any, envelope: Mapping[str, Any]) -> dict[str, dict]:
    """`<Game>Event<Type>` and `<Game>Event`: what an event of this game is, its data as declared."""
    components = event_union(pascal(ruleset.name), ruleset.title, event_catalogue(ruleset),
                             event_data_schemas(ruleset), envelope)
    components[f"{pascal(ruleset.name)}Event"]["description"] = (
        f"An event of a {ruleset.title} game ({ruleset.name}): an Event whose `data` has the fields its type "
        f"declares (GET /v1/rulesets/{ruleset.name}/schema `event_data` has the same schemas)")
    return components


def table_event_components(table_data: Mapping[str, Mapping], envelope: Mapping[str, Any]) -> dict[str, dict]:
    """`TableEvent<Type>` and `TableEvent`: the table's own events (events/table.py), in every game."""
    components = event_union("Table", "Table", dict.fromkeys(sorted(table_data), ""), table_data, envelope)
    components["TableEvent"]["description"] = ("An event of the table, in every game (who sits where, whose clock "
                                               "ran out, who took over a seat, a game abandoned, a fork's origin): "
                                               "never redacted, but for ForkDealt's `secret` (a fork's dealt "
                                               "position), which the feed shows nobody")
    return components


def event_type_components(rulesets: Mapping[str, Any], table_events: frozenset[str]) -> dict[str, dict]:
    """`TableEventType` (the table's own events) and `EventType`: every type an event of this server may
    have, the table's and each ruleset's (`<Game>EventType` describes them), one enum for generators.
    An Event's `data` stays a free object there; `<Game>Event` types it per event type."""
    table = sorted(table_events)
    every = list(dict.fromkeys([*table, *(etype for r in rulesets.values() for etype in event_catalogue(r))]))
    return {
        "TableEventType": {"type": "string", "enum": table, "description":
                           "The table's own events, in every game: who sits where, whose clock ran out, who took "
                           "over a seat, a game abandoned"},
        "EventType": {"type": "string", "enum": every, "description":
                      "The type of an event: one of the table's (TableEventType) or of the game's ruleset "
                      "(<Game>EventType, whose description says what each means)"},
    }


def options_component(ruleset: Any) -> dict:
    """`<Game>Options`: the options a table of this ruleset may set (POST /v1/games), as a game lists them."""
    schema = options_schema(ruleset)
    # each default in words, not as `default`: openapi-typescript makes a property with a default non-optional,
    # and a creation body may omit every option
    properties = {name: {**{k: v for k, v in option.items() if k != "default"},
                         "description": f"{option['description']} Default: {json.dumps(option['default'])}.".lstrip()}
                  for name, option in schema["properties"].items()}
    return component({**schema, "properties": properties},
                     f"The options of a {ruleset.title} table ({ruleset.name}): each one optional (its default "
                     f"when omitted), no other; a game lists every one; GET /v1/rulesets/{ruleset.name} describes them")


# How the table ended a game whatever its rules (events/table.py abandoned_outcome): open, for endings the
# table may gain (their own fields beside these)
TABLE_OUTCOME = {
    "type": "object",
    "description": "How the table ended the game, whatever its rules: abandoned (no human command for "
                   "ABANDON_AFTER_SECONDS), with no winners and `idle_seconds`",
    "properties": {"winners": {"type": "array", "items": {"type": "integer"}, "description": "Empty"},
                   "reason": {"type": "string", "description": "The table's record: abandoned"},
                   "idle_seconds": {"type": "integer", "description": "How long nobody had played (abandoned)"},
                   "text": {"type": "string", "description": "How it ended in a sentence"}},
    "required": ["winners", "reason", "text"],
}
OUTCOME_TEXT = {"type": "string", "description": "How it ended in a sentence naming seats as the game does "
                                                 "(\"Ana wins: ...\"); `reason` is the rules' record, with seat "
                                                 "numbers"}


def outcome_components(ruleset: Any) -> dict[str, dict]:
    """`<Game>Result` (the rules' outcome as declared, with its `text`) and `<Game>Outcome`: it, or the table's
    (`TableOutcome`, an abandoned game's)."""
    prefix = pascal(ruleset.name)
    result = component(outcome_schema(ruleset), f"How a {ruleset.title} game ended by its rules ({ruleset.name})")
    result = {**result, "properties": {**result.get("properties", {}), "text": OUTCOME_TEXT},
              "required": [*result.get("required", []), "text"]}
    return {f"{prefix}Result": result,
            f"{prefix}Outcome": {"description": f"How a {ruleset.title} game ended: by its rules ({prefix}Result), "
                                                "or by the table (TableOutcome: abandoned); the two differ in "
                                                "their fields (`idle_seconds`, the game's own)",
                                 "anyOf": [ref(f"{prefix}Result"), ref("TableOutcome")]}}


def ruleset_components(rulesets: Mapping[str, Any], envelope: Mapping[str, Any]) -> dict[str, dict]:
    """Every ruleset's components (its events typed on the Event `envelope`), and `AnyCommand`: a command of
    any of them."""
    components: dict[str, dict] = {"TableOutcome": TABLE_OUTCOME}
    for ruleset in rulesets.values():
        prefix = pascal(ruleset.name)
        own: dict[str, dict] = {}
        for piece in (command_components(ruleset), {f"{prefix}View": view_component(ruleset)},
                      {f"{prefix}EventType": event_type_component(ruleset)}, event_components(ruleset, envelope),
                      {f"{prefix}Options": options_component(ruleset)}, outcome_components(ruleset)):
            clash = sorted(set(piece) & (set(own) | set(components)))  # a command named "View": <Game>View
            if clash:
                raise ValueError(f"{ruleset.name}: component names collide: {clash}")
            own.update(piece)
        components.update(own)
    # anyOf, not oneOf: two games may share a command ({"type": "Pass"} is a move in several)
    components[ANY_COMMAND] = {
        "title": "Any command",
        "description": "A command of one of the server's games: `type` plus that command's arguments, exactly as "
                       "listed in legal_moves (each game's union is <Game>Command, discriminated by `type`); "
                       "any other property is refused (400)",
        "anyOf": [ref(f"{pascal(name)}Command") for name in rulesets],
    }
    return components


def view_refs(rulesets: Mapping[str, Any]) -> list[dict]:
    """References to every ruleset's view component (a game's `view` is one of them)."""
    return [ref(f"{pascal(name)}View") for name in rulesets]


# What a document's `ruleset` decides in it, by document (the component flask-smorest made of its marshmallow
# schema): property -> its typed schema, from the game's prefix.
NULL = {"type": "object", "nullable": True, "enum": [None]}  # 3.0 has no null type: an object that is only null


def nullable_ref(component: str) -> dict:
    """A reference to `component`, or null: `anyOf` the reference and NULL (3.0 ignores a $ref's siblings, a
    `nullable` needs a `type` beside it, and beside an `anyOf` openapi-python-client reads the type alone)."""
    return {"anyOf": [ref(component), NULL]}


TYPED_FIELDS: dict[str, Any] = {
    "Game": lambda p: {"view": nullable_ref(f"{p}View"), "legal_moves": {"items": ref(f"{p}Command")},
                       "outcome": nullable_ref(f"{p}Outcome"), "options": ref(f"{p}Options")},
    "TurnState": lambda p: {"legal_moves": {"items": ref(f"{p}Command")}, "outcome": nullable_ref(f"{p}Outcome")},
    "CreateGame": lambda p: {"options": ref(f"{p}Options")},
}
DOCUMENTS = {"Game": "A game as one reader may see it (GET /v1/games/{id})",
             "TurnState": "The live stream's `turn` message: where the game stands after a batch of events",
             "CreateGame": "A new game (POST /v1/games)"}


def by_ruleset(name: str, base: Mapping[str, Any], rulesets: Mapping[str, Any]) -> dict[str, dict]:
    """`<Game><name>` for each ruleset: the document `base` (a component with a required `ruleset`) with
    `ruleset` fixed and the fields TYPED_FIELDS[name] types (each keeps its description); and `<name>`: their
    oneOf discriminated by `ruleset`, so a generated client narrows the whole document on `doc.ruleset`."""
    members = {ruleset: f"{pascal(ruleset)}{name}" for ruleset in rulesets}
    said = DOCUMENTS[name]
    components = {}
    for ruleset, member_name in members.items():
        properties = dict(base["properties"])
        properties["ruleset"] = {"type": "string", "enum": [ruleset]}
        for field, typed in TYPED_FIELDS[name](pascal(ruleset)).items():
            described = {k: v for k, v in properties[field].items() if k == "description"}
            # a list keeps its own keywords (type, nullable) with typed items; any other field is the typed one,
            # described unless a bare $ref (3.0 ignores its siblings: the component describes itself)
            properties[field] = {**properties[field], **typed} if "items" in typed else \
                typed if "$ref" in typed else {**typed, **described}
        typed = ", ".join(f"`{field}`" for field in TYPED_FIELDS[name](""))
        components[member_name] = {**base, "description": f"{said}: {rulesets[ruleset].title} ({ruleset}), {typed} "
                                                          "typed as that game's", "properties": properties}
    components[name] = {
        "description": f"{said}: one of {', '.join(members.values())}, by `ruleset` (narrow on it to type "
                       "the game's own fields)",
        "oneOf": [ref(member_name) for member_name in members.values()],
        "discriminator": {"propertyName": "ruleset",
                          "mapping": {ruleset: REF + member_name for ruleset, member_name in members.items()}},
    }
    return components
