"""Kingpin command shapes: every command type, its arguments and their JSON types.

A command is `{"type": <name>, **args}`.  Anything not matching these shapes
(unknown type, missing, extra or mistyped argument) is a BadCommand (HTTP 400);
whether a well-formed command is allowed *now* is the rules' business.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.base import BadCommand

# arg kinds: "str" card id or kind; "int" number; "seat" player number; "str?" string or null
SCHEMA: dict[str, dict[str, str]] = {
    # turn steps 1-2 (turn.py)
    "PurchaseCard": {"kind": "str"},
    "RollDice": {},
    "GiveUpRoll": {"face": "int"},
    # step 3: single die outcomes (dice.py)
    "Ship": {"truck": "str"},
    "Distribute": {"truck": "str"},
    "PlaceHits": {"dealer": "str", "hits": "int"},
    "FinishDistribute": {},
    "PurchaseHits": {"junkie": "str", "dealer": "str"},
    "StealDeal": {"junkie": "str", "dealer": "str"},
    "SellHits": {"hits": "int", "cash": "int"},
    "Payday": {},
    "Chloroform": {"card": "str"},
    # step 3: double / triple / quadruple outcomes (dice.py)
    "ActivateCard": {"face": "int", "card": "str"},
    "CollectDouble": {"face": "int"},
    "UseTriple": {"face": "int", "kind": "str?"},
    "UseQuadruple": {"face": "int", "kind": "str?"},
    # step 4: special cards (specials.py)
    "UseCop": {"cop": "str", "target": "str"},
    "UseHitMan": {"hitman": "str", "target": "str"},
    "PlaceRegulator": {"regulator": "str", "target": "seat"},
    "BribeRegulator": {"regulator": "str"},
    # response windows (specials.py)
    "BribeCop": {},
    "AcceptJail": {},
    "AcceptHit": {},
    "DoubleBounty": {"target": "str"},
    "AcceptRegulator": {},
    "UseImmunity": {"card": "str"},
    # steps 5-6 (turn.py)
    "Bail": {"card": "str"},
    "EndTurn": {},
}


def _type_ok(value: Any, kind: str) -> bool:
    """Whether a JSON value has the argument kind's type (bools are not numbers)."""
    if kind == "str":
        return isinstance(value, str)
    if kind == "str?":
        return value is None or isinstance(value, str)
    return isinstance(value, int) and not isinstance(value, bool)


def validate(command: Any) -> dict:
    """Return the command as a plain dict, or raise BadCommand naming what is wrong."""
    if not isinstance(command, Mapping):
        raise BadCommand("a command must be a JSON object with a \"type\"")
    ctype = command.get("type")
    if not isinstance(ctype, str):
        raise BadCommand("a command needs a string \"type\"")
    if ctype not in SCHEMA:
        raise BadCommand(f"unknown Kingpin command {ctype!r}; known: {', '.join(sorted(SCHEMA))}")
    spec = SCHEMA[ctype]
    extra = sorted(set(command) - set(spec) - {"type"})
    if extra:
        raise BadCommand(f"{ctype} takes no argument(s) {', '.join(extra)}; it takes: {', '.join(spec) or 'none'}")
    for arg, kind in spec.items():
        if arg not in command:
            raise BadCommand(f"{ctype} needs argument {arg!r}")
        if not _type_ok(command[arg], kind):
            wanted = {"str": "a string", "str?": "a string or null", "int": "an integer",
                      "seat": "a seat number"}[kind]
            raise BadCommand(f"{ctype}: {arg!r} must be {wanted}, not {command[arg]!r}")
    return dict(command)
