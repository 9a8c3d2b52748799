"""A table's options are checked by type as well as value (rules/base.py normalize_options): in Python 1 == True
and 3000.0 == 3000, so a check by membership took `1` for a yes and a float for a target, where the typed
options of openapi.yaml (`<Game>Options`, enums) refuse both."""
from __future__ import annotations

import pytest

from rules import RULESETS
from rules.base import BadCommand, normalize_options


@pytest.mark.parametrize("ruleset, option, value", [("druglord", "faster_play", 1), ("druglord", "california_style", 0),
                                                    ("trafficking", "lending", 1), ("kingpin", "target", 3000.0),
                                                    ("kingpin", "turn_limit", False), ("druglord", "game_to", 20.0)])
def test_an_option_equal_to_a_choice_but_of_another_type_is_refused(ruleset, option, value):
    with pytest.raises(BadCommand, match=option):
        normalize_options(RULESETS[ruleset].options, {option: value})


def test_the_choices_themselves_and_the_defaults_are_taken():
    for ruleset in RULESETS.values():
        assert normalize_options(ruleset.options, None) == {k: o.default for k, o in ruleset.options.items()}
        for name, option in ruleset.options.items():
            for choice in option.choices:
                assert normalize_options(ruleset.options, {name: choice})[name] == choice
