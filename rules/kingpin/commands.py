"""Kingpin command shapes: every command type, its arguments and their JSON types.

A command is `{"type": <name>, **args}`.  Anything not matching these shapes
(unknown type, missing, extra or mistyped argument) is a BadCommand (HTTP 400);
whether a well-formed command is allowed *now* is the rules' business.
"""
from __future__ import annotations

from typing import Any

from rules.base import validate_command

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


def validate(command: Any) -> dict:
    """Return the command as a plain dict, or raise BadCommand naming what is wrong."""
    return validate_command(command, SCHEMA, "Kingpin")
