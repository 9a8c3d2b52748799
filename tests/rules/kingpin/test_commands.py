"""Malformed commands are BadCommand (HTTP 400); forbidden ones IllegalMove (422)."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, IllegalMove
from rules.kingpin.commands import SCHEMA
from tests.rules.kingpin.support import ANY_RNG, K, game_with_first, rolled


@pytest.mark.parametrize("command,text", [
    ({"type": "BuyEverything"}, "unknown Kingpin command"),
    ({"kind": "cop"}, "needs a string \"type\""),
    ("RollDice", "JSON object"),
    ({"type": "PurchaseCard"}, "needs argument 'kind'"),
    ({"type": "PurchaseCard", "kind": 3}, "must be a string"),
    ({"type": "SellHits", "hits": "2", "cash": 200}, "must be an integer"),
    ({"type": "SellHits", "hits": True, "cash": 200}, "must be an integer"),
    ({"type": "RollDice", "dice": [6, 6, 6]}, "takes no argument"),
    ({"type": "UseTriple", "face": 3, "kind": 5}, "string or null"),
])
def test_bad_commands(command, text):
    with pytest.raises(BadCommand) as info:
        K.decide(game_with_first(0), 0, command, ANY_RNG)
    assert text in info.value.reason


def test_bad_seat():
    with pytest.raises(BadCommand):
        K.decide(game_with_first(0), 7, {"type": "RollDice"}, ANY_RNG)


def test_well_formed_but_unknown_card_is_illegal_not_bad():
    with pytest.raises(IllegalMove) as info:
        K.decide(rolled(game_with_first(0), [1]), 0, {"type": "Ship", "truck": "truck9-9"}, ANY_RNG)
    assert not isinstance(info.value, BadCommand) and "no card" in info.value.reason


def test_every_command_type_is_documented():
    doc = open("docs/rules/kingpin.md", encoding="utf-8").read()
    for ctype in SCHEMA:
        assert f"`{ctype}`" in doc, ctype


def test_the_rules_themselves_refuse_every_unlisted_command():
    # decide() double-checks membership in legal_moves as a safety net; the handlers must not rely on it, so
    # that every refusal carries a specific reason and rulebook section. Probe near misses during random play.
    from rules.base import Rng, fold
    from rules.kingpin import HANDLERS
    from rules.kingpin.commands import validate
    from tests.rules.test_every_ruleset import _mutations

    for game in range(2):
        seed = f"handlers-{game}"
        state = fold(K, K.setup({}, 3, Rng(seed, 0)))
        version, pool = 1, []
        while K.outcome(state) is None and version < 400:
            seat = next(iter(K.awaiting(state)))
            command = K.bot_move(state, seat, "random", Rng(seed + "/bot", version))
            candidates = _mutations(command, pool) + [m for s in range(3) for m in K.legal_moves(state, s)[:6]]
            for other in range(3):
                listed = K.legal_moves(state, other)
                for candidate in candidates:
                    if candidate in listed:
                        continue
                    try:
                        validate(candidate)
                    except BadCommand:
                        continue
                    with pytest.raises(IllegalMove) as info:
                        HANDLERS[candidate["type"]](state, other, candidate, Rng("probe", 1))
                    assert info.value.rule and info.value.reason
            pool = [v for v in command.values() if isinstance(v, str)] + pool[:12]
            state = fold(K, K.decide(state, seat, command, Rng(seed, version)), state)
            version += 1
