"""Druglord command shapes: every command type, its arguments and their JSON types.

A command is `{"type": <name>, **args}`.  Anything not matching these shapes
(unknown type, missing, extra or mistyped argument) is a BadCommand (HTTP 400);
whether a well-formed command is allowed *now* is the rules' business.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.base import BadCommand

# arg kinds: "str", "str?" (string or null), "int", "strs" (list of strings)
SCHEMA: dict[str, dict[str, str]] = {
    # Rule 1 / 1.2 / 2: empires and the draft (regions.py)
    "KeepRegions": {"regions": "strs"},
    "ClaimRegion": {"region": "str"},
    "DraftRegion": {"region": "str"},
    "DeclineDraft": {},
    # Rule 3: loading (load.py)
    "LoadWeight": {"from": "str", "to": "str", "weight": "str", "units": "int"},
    "LoadDefault": {},
    # Rule 4/5: actions (actions.py, trade.py)
    "Trade": {"from": "str", "to": "str", "route": "str", "units": "int"},
    "ReRoll": {},
    "AcceptBust": {},
    "EndAction": {},
    "Pass": {},
    # Rule 9 (violence.py)
    "Attack": {"from": "str", "target": "str"},
    "PressAttack": {},
    "Counterattack": {},
    "DeclineCounter": {},
    # Rule 10 (actions.py)
    "DrawWeight": {"weights": "strs"},
    # Rule 11 (baller.py)
    "DrawBaller": {},
    "PlayCard": {"card": "str", "region": "str?"},
    # Rule 7: Sway on any pending roll (rolls.py)
    "Sway": {"die": "str", "weight": "str", "units": "int"},
    "EndSway": {},
}


def _type_ok(value: Any, kind: str) -> bool:
    """Whether a JSON value has the argument kind's type (bools are not numbers)."""
    if kind == "str":
        return isinstance(value, str)
    if kind == "str?":
        return value is None or isinstance(value, str)
    if kind == "strs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


WANTED = {"str": "a string", "str?": "a string or null", "int": "an integer", "strs": "a list of strings"}


def validate(command: Any) -> dict:
    """Return the command as a plain dict, or raise BadCommand naming what is wrong."""
    if not isinstance(command, Mapping):
        raise BadCommand("a command must be a JSON object with a \"type\"")
    ctype = command.get("type")
    if not isinstance(ctype, str):
        raise BadCommand("a command needs a string \"type\"")
    if ctype not in SCHEMA:
        raise BadCommand(f"unknown Druglord command {ctype!r}; known: {', '.join(sorted(SCHEMA))}")
    spec = SCHEMA[ctype]
    extra = sorted(set(command) - set(spec) - {"type"})
    if extra:
        raise BadCommand(f"{ctype} takes no argument(s) {', '.join(extra)}; it takes: {', '.join(spec) or 'none'}")
    for arg, kind in spec.items():
        if arg not in command:
            raise BadCommand(f"{ctype} needs argument {arg!r}")
        if not _type_ok(command[arg], kind):
            raise BadCommand(f"{ctype}: {arg!r} must be {WANTED[kind]}, not {command[arg]!r}")
    out = dict(command)
    for arg, kind in spec.items():
        if kind == "strs":
            out[arg] = list(command[arg])
    return out
