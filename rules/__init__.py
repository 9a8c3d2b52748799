"""The games: a registry of ruleset name -> Ruleset (see rules/base.py)."""
from __future__ import annotations

from rules.base import Ruleset
from rules.druglord import RULESET as DRUGLORD
from rules.kingpin import RULESET as KINGPIN

RULESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (KINGPIN, DRUGLORD)}
