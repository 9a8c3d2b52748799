"""The games: a registry of ruleset name -> Ruleset (rules/ruleset.py Ruleset is the contract).

RULESETS are served; EXAMPLES (rules/examples) are not, but EVERY_RULESET is what the
generic tests (playouts, fuzzing, secrecy) run, so an example is held to the same properties.
"""
from __future__ import annotations

from rules.druglord import RULESET as DRUGLORD
from rules.examples import EXAMPLES
from rules.kingpin import RULESET as KINGPIN
from rules.lords_of_cannabis import RULESET as LORDS_OF_CANNABIS
from rules.narcos import RULESET as NARCOS
from rules.ruleset import Ruleset
from rules.trafficking import RULESET as TRAFFICKING

RULESETS: dict[str, Ruleset] = {ruleset.name: ruleset
                                for ruleset in (KINGPIN, DRUGLORD, LORDS_OF_CANNABIS, TRAFFICKING, NARCOS)}
EVERY_RULESET: dict[str, Ruleset] = {**RULESETS, **EXAMPLES}
