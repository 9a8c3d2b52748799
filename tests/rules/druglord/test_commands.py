"""Druglord command shapes (BadCommand) and refusals citing rulebook sections (IllegalMove)."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, IllegalMove
from rules.druglord import RULE_OF_COMMAND, commands
from tests.rules.druglord.support import D, act, new_game, put, refused, table


@pytest.mark.parametrize("command", [
    "Pass", None, {}, {"type": 3}, {"type": "Teleport"}, {"type": "Pass", "extra": 1},
    {"type": "Trade", "from": "FS1", "to": "FS5", "route": "land"},
    {"type": "Trade", "from": "FS1", "to": "FS5", "route": "land", "units": "2"},
    {"type": "Trade", "from": "FS1", "to": "FS5", "route": "land", "units": True},
    {"type": "KeepRegions", "regions": "FS1"}, {"type": "DrawWeight", "weights": [1, 2]},
    {"type": "PlayCard", "card": "snitch"}, {"type": "Sway", "die": "trade", "weight": "reefer", "units": 1.5},
])
def test_malformed_commands_are_bad_commands(command):
    with pytest.raises(BadCommand):
        act(table([["FS1"], ["AE1"]]), 0, command)


def test_every_command_type_has_a_rule_and_a_handler():
    assert set(RULE_OF_COMMAND) == set(commands.SCHEMA)


def test_unknown_seat_is_a_bad_command():
    with pytest.raises(BadCommand):
        act(table([["FS1"], ["AE1"]]), 2, {"type": "Pass"})


def test_illegal_moves_cite_the_rule():
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 1)
    refused(state, 0, {"type": "KeepRegions", "regions": ["FS1", "FS5", "AE1"]}, rule="1")
    refused(state, 0, {"type": "DraftRegion", "region": "FS1"}, rule="1.2")
    refused(state, 0, {"type": "LoadWeight", "from": "FS1", "to": "FS1", "weight": "reefer", "units": 1}, rule="3")
    refused(state, 0, {"type": "ReRoll"}, rule="5.C")
    refused(state, 0, {"type": "PressAttack"}, rule="9")
    refused(state, 0, {"type": "Sway", "die": "trade", "weight": "reefer", "units": 1}, rule="7")
    refused(state, 0, {"type": "PlayCard", "card": "snitch", "region": None}, rule="11", match="hold no")
    refused(state, 0, {"type": "DrawWeight", "weights": ["reefer", "gold"]}, rule="10")
    refused(state, 1, {"type": "DrawBaller"}, rule="11", match="seat 0's action")
    refused(state, 0, {"type": "EndAction"}, rule="4", match="not started an action")
    with pytest.raises(IllegalMove):
        act(new_game(2), 0, {"type": "Pass"})


def test_timeouts_are_legal_moves_everywhere_they_apply():
    state = new_game(3)
    for seat in D.awaiting(state):
        assert D.on_timeout(state, seat) in D.legal_moves(state, seat)
    with pytest.raises(IllegalMove):
        D.on_timeout(table([["FS1"], ["AE1"]]), 1)
