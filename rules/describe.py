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


# ------------------------------------------------- outcome and options schemas
# The contract's outcome (RulesetBase.outcome): what every game's says, whatever else it adds
OUTCOME: dict = obj({"winners": arr(NAT), "reason": STR}, open_=True)


def outcome_schema(ruleset: Any) -> dict:
    """The JSON Schema of `outcome(state)` once the game is over, as declared (`outcome_schema`); undeclared:
    the contract's {"winners", "reason", ...}."""
    declared = ruleset.outcome_schema or OUTCOME
    return {"$schema": JSON_SCHEMA, "title": f"{ruleset.title} outcome", **declared}


def value_type(value: Any) -> dict:
    """The JSON Schema type of an option's value (its default's, where it declares no choices)."""
    for kind, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
                       (dict, "object")):
        if isinstance(value, kind):
            return {"type": name}
    return {}


def option_schema(options: list[Any]) -> dict:
    """One option's JSON Schema from its declarations in several rules versions (`Option`s, the latest last):
    its choices in any of them (an enum), or its declared schema, or its default's type."""
    latest = options[-1]
    choices = [] if any(not option.choices for option in options) else \
        list(dict.fromkeys(c for option in options for c in option.choices))
    schema = dict(latest.schema) or value_type(latest.default)
    if choices:
        schema = {**value_type(choices[0]), "enum": choices} if json_kind(choices) else {"enum": choices}
    return {**schema, "default": latest.default, "description": latest.description}


def json_kind(values: list) -> bool:
    """Every value has the same JSON type (an enum's `type` can be stated)."""
    return len({value_type(v).get("type") for v in values}) == 1


def options_schema(ruleset: Any) -> dict:
    """The JSON Schema of a game's `options` (POST /v1/games; a game document's, defaults filled in): every
    option any rules version declares, none required (each has its default), no other."""
    versions = [ruleset.at(number) for number, _ in ruleset.versions]
    names = list(dict.fromkeys(name for rules in versions for name in rules.options))
    properties = {name: option_schema([rules.options[name] for rules in versions if name in rules.options])
                  for name in names}
    return {"$schema": JSON_SCHEMA, "title": f"{ruleset.title} options", "type": "object",
            "properties": properties, "additionalProperties": False}


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
