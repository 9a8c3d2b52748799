"""A ruleset may override `is_legal` with a check cheaper than building its legal-move list (Druglord
checks its move families, rules/blocks/families.py); `decide` must still accept exactly the listed
moves.  For every ruleset in rules.EVERY_RULESET that overrides it, over seeded random games: the
fast check agrees with the base's (membership in `legal_moves`, open arguments aside) for every
listed move of every seat, for near misses of them (an argument nudged, swapped, dropped or added,
the type changed) and for other seats' moves."""
from __future__ import annotations

import pytest

from rules import EVERY_RULESET
from rules.base import Rng, fold
from rules.ruleset import Ruleset

OVERRIDING = sorted(name for name, ruleset in EVERY_RULESET.items()
                    if isinstance(ruleset, Ruleset) and type(ruleset).is_legal is not Ruleset.is_legal)
SEEDS = 2
CHECK_EVERY = 4              # every 4th state of a game is checked in full (a game is ~1,400 commands)
CASES = [(name, seats, seed) for name in OVERRIDING
         for seats in sorted({EVERY_RULESET[name].min_seats, 4, EVERY_RULESET[name].max_seats})
         for seed in range(SEEDS if seats < 5 else 1)]


def near_misses(move: dict, types: list[str], ids: list[str]) -> list[dict]:
    """Commands one change away from a listed move."""
    out = [{**move, "extra": 1}] + [{**move, "type": t} for t in types if t != move["type"]][:3]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        if isinstance(value, bool):
            out.append({**move, key: not value})
        elif isinstance(value, int):
            out += [{**move, key: value + 1}, {**move, key: value - 1}, {**move, key: -value},
                    {**move, key: value + 100}, {**move, key: str(value)}]
        elif isinstance(value, str):
            out += [{**move, key: other} for other in ids[:4] if other != value]
            out += [{**move, key: value + "-nope"}, {**move, key: None}]
        elif isinstance(value, list):
            out += [{**move, key: value[::-1]}, {**move, key: value[:-1]}, {**move, key: value + value[:1]}]
        elif value is None:
            out += [{**move, key: ids[0] if ids else "x"}]
    return out


def listed(ruleset: Ruleset, cmd: dict, moves: list[dict]) -> bool:
    """Ruleset.is_legal on a list already built: among `moves`, open arguments aside."""
    if cmd in moves:
        return True
    free = ruleset.open_arguments.get(cmd["type"])
    fixed = {k: v for k, v in cmd.items() if k not in (free or ())}
    return bool(free) and any(m["type"] == cmd["type"] and {k: v for k, v in m.items() if k not in free} == fixed
                              for m in moves)


def test_listed_is_the_base_check():
    ruleset = EVERY_RULESET[OVERRIDING[0]]
    state = fold(ruleset, ruleset.setup({}, ruleset.min_seats, Rng("listed", 0)))
    seat = min(ruleset.awaiting(state))
    moves = ruleset.legal_moves(state, seat)
    for cmd in moves[:3] + [c for m in moves[:3] for c in near_misses(m, sorted(ruleset.commands), [])]:
        assert listed(ruleset, cmd, moves) == Ruleset.is_legal(ruleset, state, seat, cmd)


def test_the_fast_check_is_tested_somewhere():
    # Druglord overrides is_legal: if none did, the property below would check nothing
    assert "druglord" in OVERRIDING


@pytest.mark.parametrize("name,seats,seed", CASES)
def test_the_fast_legality_check_agrees_with_the_listed_moves(name: str, seats: int, seed: int) -> None:
    ruleset = EVERY_RULESET[name]
    game_seed = f"fast-legality/{name}/{seats}/{seed}"
    state = fold(ruleset, ruleset.setup({}, seats, Rng(game_seed, 0)))
    types = sorted(ruleset.commands)
    ids: list[str] = []
    checked = refused = 0
    for step in range(20000):
        if ruleset.outcome(state) is not None:
            break
        if step % CHECK_EVERY == 0:
            for seat in range(seats):
                moves = ruleset.legal_moves(state, seat)
                others = [m for other in range(seats) if other != seat for m in ruleset.legal_moves(state, other)[:5]]
                for move in moves:
                    assert ruleset.is_legal(state, seat, move), (step, seat, move)
                for cmd in [c for m in moves[:12] + moves[-3:] for c in near_misses(m, types, ids)] + others:
                    fast = ruleset.is_legal(state, seat, cmd)
                    assert fast == listed(ruleset, cmd, moves), (step, seat, cmd)
                    checked += 1
                    refused += not fast
        seat = min(ruleset.awaiting(state))
        command = ruleset.bot_move(state, seat, "random", Rng(game_seed + "/bot", step))
        ids = [v for v in command.values() if isinstance(v, str)] + ids[:12]
        state = fold(ruleset, ruleset.decide(state, seat, command, Rng(game_seed, step)), state)
    else:
        pytest.fail("the game did not end")
    assert checked > 1000 and refused > checked // 2, (checked, refused)  # mostly illegal, as near misses are
