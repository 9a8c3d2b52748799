"""Druglord command shapes: every command type, its arguments and their JSON types.

A command is `{"type": <name>, **args}`.  Anything not matching these shapes
(unknown type, missing, extra or mistyped argument) is a BadCommand (HTTP 400);
whether a well-formed command is allowed *now* is the rules' business.
"""
from __future__ import annotations

from typing import Any

from rules.base import validate_command

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
    # Rule 5.A (version 3): what a Region that only produces 1 keeps stored (storage.py)
    "StoreLocally": {"regions": "strs"},
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


def validate(command: Any) -> dict:
    """Return the command as a plain dict, or raise BadCommand naming what is wrong."""
    return validate_command(command, SCHEMA, "Druglord")
