"""Rulesets describe themselves: JSON Schemas generated from what a ruleset declares.

A ruleset declares its command shapes (`commands`: {type: {argument: kind}}, kinds from
rules.base.ARG_KINDS), one-line descriptions of them (`command_docs`: {type: (description,
{argument: description})}), its event catalogue (`event_docs`: {event type: description}), the
JSON Schema of each event type's data (`event_schemas`) and of its view (`view_schema`), written
with the small helpers below, and, where its data fixes them, every value an argument may take
(`argument_values`: enums).  From these this module builds the documents the API serves
(GET /v1/rulesets/{name}/schema) and the generic label of a legal move.  Pure: no I/O.  A ruleset
that declares no docs still works (Ruleset's defaults: empty descriptions); one that declares
no view schema gets `{}` (anything).
"""
from __future__ import annotations

from typing import Any, Mapping

JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"

# The JSON Schema of each argument kind (rules.base.ARG_KINDS); the same kinds validate_command checks.
ARG_SCHEMAS: dict[str, dict] = {
    "str": {"type": "string"},
    "str?": {"type": ["string", "null"]},
    "int": {"type": "integer"},
    "seat": {"type": "integer", "minimum": 0},
    "strs": {"type": "array", "items": {"type": "string"}},
    "obj": {"type": "object"},
}

# --------------------------------------------------------------- view schemas
INT: dict = {"type": "integer"}
STR: dict = {"type": "string"}
BOOL: dict = {"type": "boolean"}
NAT: dict = {"type": "integer", "minimum": 0}  # counts, money, cards
ANY: dict = {}


def nullable(schema: Mapping) -> dict:
    """The schema, or null."""
    return {"anyOf": [dict(schema), {"type": "null"}]}


def arr(items: Mapping) -> dict:
    """A list of `items`."""
    return {"type": "array", "items": dict(items)}


def tuple_of(*items: Mapping) -> dict:
    """A fixed-length list whose n-th item is `items[n]` (a card and its pay: ["junkie200-1", 100])."""
    return {"type": "array", "prefixItems": [dict(i) for i in items], "items": False,
            "minItems": len(items), "maxItems": len(items)}


def dict_of(values: Mapping) -> dict:
    """An object with any keys whose values are `values`."""
    return {"type": "object", "additionalProperties": dict(values)}


def obj(properties: Mapping[str, Mapping], optional: tuple = (), open_: bool = False) -> dict:
    """An object with exactly these properties (all required except `optional`; no others unless `open_`)."""
    return {"type": "object", "properties": {k: dict(v) for k, v in properties.items()},
            "required": [k for k in properties if k not in optional], "additionalProperties": open_}


def one_of_consts(*values: Any) -> dict:
    """One of these values."""
    return {"enum": list(values)}


# ------------------------------------------------------------ command schemas
def docs_of(ruleset: Any, ctype: str) -> tuple[str, Mapping[str, str]]:
    """(description, {argument: description}) of a command type; empty when undeclared."""
    entry = ruleset.command_docs.get(ctype)
    if not entry:
        return "", {}
    description, args = entry
    return description, args or {}


def allowed_values(ruleset: Any, ctype: str, arg: str) -> tuple | None:
    """Every value an argument may take, as the ruleset declares it ("Command.argument" before
    "argument"), or None: any value of its kind."""
    declared = ruleset.argument_values
    values = declared.get(f"{ctype}.{arg}", declared.get(arg))
    return None if values is None else tuple(values)


def argument_schema(kind: str, values: tuple | None) -> dict:
    """The JSON Schema of an argument of `kind`, narrowed to `values` when the game fixes them
    (a list of strings: each item; a nullable string: the values or null)."""
    schema = dict(ARG_SCHEMAS[kind])
    if values is None:
        return schema
    if kind == "strs":
        return {**schema, "items": {**schema["items"], "enum": list(values)}}
    return {**schema, "enum": [*values, None] if kind == "str?" else list(values)}


def command_schema(ruleset: Any, ctype: str) -> dict:
    """The JSON Schema of one command type: `type` fixed, its arguments required (each an `enum`
    where the game's data fixes its values), nothing else."""
    description, arg_docs = docs_of(ruleset, ctype)
    properties: dict[str, dict] = {"type": {"const": ctype, "description": "The command type"}}
    for arg, kind in ruleset.commands[ctype].items():
        properties[arg] = {**argument_schema(kind, allowed_values(ruleset, ctype, arg)),
                           "description": arg_docs.get(arg, "")}
    return {"title": ctype, "description": description, "type": "object", "properties": properties,
            "required": ["type", *ruleset.commands[ctype]], "additionalProperties": False}


def commands_schema(ruleset: Any) -> dict:
    """Every command of the ruleset: a `oneOf` discriminated by `type`, each branch under $defs."""
    defs = {ctype: command_schema(ruleset, ctype) for ctype in ruleset.commands}
    return {"$schema": JSON_SCHEMA, "title": f"{ruleset.title} command",
            "description": "A command as posted to POST /v1/games/{id}/commands (and as listed in legal_moves)",
            "oneOf": [{"$ref": f"#/$defs/{ctype}"} for ctype in defs],
            "discriminator": {"propertyName": "type"}, "$defs": defs}


def event_catalogue(ruleset: Any) -> dict[str, str]:
    """Every event type the ruleset evolves, with its description ("" when undeclared)."""
    docs = ruleset.event_docs
    types = list(ruleset.evolvers or docs)
    return {etype: docs.get(etype, "") for etype in types}


def event_data_schemas(ruleset: Any) -> dict[str, dict]:
    """The JSON Schema of each event type's `data`, as declared (`event_schemas`), as its owner reads it:
    a type the ruleset does not declare gets {"type": "object"} (any object)."""
    declared = ruleset.event_schemas
    return {etype: {"title": f"{ruleset.title} {etype} data", **(declared.get(etype) or {"type": "object"})}
            for etype in event_catalogue(ruleset)}


def view_schema(ruleset: Any) -> dict:
    """The JSON Schema of `view(state, seat)` as declared ({} = undeclared: any object)."""
    declared = ruleset.view_schema
    return {"$schema": JSON_SCHEMA, "title": f"{ruleset.title} view", **declared} if declared else \
        {"$schema": JSON_SCHEMA, "title": f"{ruleset.title} view", "type": "object"}


# ------------------------------------------------------------------- labels
def move_labels(ruleset: Any, state: Any, seat: int, moves: list[Mapping[str, Any]], names: Any,
                view: Mapping[str, Any] | None = None) -> list[str]:
    """The label of each of `seat`'s legal `moves`, every one written from the seat's view (Ruleset.label;
    `view`, when the caller has it already), so a label cannot tell the seat what its view does not; `names`
    (rules/narration.py Names) names seats."""
    if not moves:
        return []
    view = ruleset.view(state, seat) if view is None else view
    return [ruleset.label(view, seat, move, names) for move in moves]


def generic_label(ruleset: Any, move: Mapping[str, Any]) -> str:
    """A label from the command docs: its description (or type) and its arguments."""
    description, _ = docs_of(ruleset, move["type"])
    head = description.rstrip(".") if description else move["type"]
    args = ", ".join(f"{k} {v}" for k, v in move.items() if k != "type")
    return f"{head} ({args})" if args else head
