"""Example games: complete rulesets kept small enough to read in one sitting.

They are not served (add one with CARTEL_EXTRA_RULESETS=rules.examples.pig:RULESET),
but every generic test (random playouts, the decide fuzzer, the secrecy property)
runs them beside the real games; docs/adding-a-game.md walks through Pig.
"""
from __future__ import annotations

from rules.examples.liars_dice import RULESET as LIARS_DICE
from rules.examples.pig import RULESET as PIG

EXAMPLES = {PIG.name: PIG, LIARS_DICE.name: LIARS_DICE}
