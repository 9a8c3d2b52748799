"""Generic properties every ruleset in rules.EVERY_RULESET (the served games and the examples) must have, checked by seeded random playouts.

For each ruleset and each legal seat count: the game ends within a bound; every
listed legal move is accepted by decide; commands not listed are refused with
IllegalMove; evolve never mutates its input; state stays JSON-serialisable;
awaiting names exactly the seats with legal moves; on_timeout answers with a
listed move; the optional `invariants(state)` hook holds after every event;
views are JSON; replaying the events rebuilds the same state.
"""
from __future__ import annotations

import copy
import json

import pytest

from rules import EVERY_RULESET
from rules.base import PUBLIC, BadCommand, IllegalMove, Rng, fold, redact
from rules.ruleset import Ruleset

MAX_COMMANDS = 6000          # a random game must end well before this
SEEDS_AT_THE_ENDS = 2        # seeds at a ruleset's smallest and largest seat counts, where rules branch most
SEEDS_BETWEEN = 1            # and at each count in between (every count is still played)
SOAK_SEEDS = 3               # more seeds at every count, on demand (`-m soak`): the default run's CPU is the suite's
ACCEPT_SAMPLE = 6            # listed moves tried against decide at each step (besides the one played)
DEEP_CHECK_EVERY = 7         # deep-copy / JSON / view checks every Nth step (and on every event of it)

def _seeds(ruleset: Ruleset, seats: int) -> int:
    return SEEDS_AT_THE_ENDS if seats in (ruleset.min_seats, ruleset.max_seats) else SEEDS_BETWEEN


CASES = [(name, seats, seed)
         for name, ruleset in sorted(EVERY_RULESET.items())
         for seats in range(ruleset.min_seats, ruleset.max_seats + 1)
         for seed in range(_seeds(ruleset, seats))]
CASES += [pytest.param(name, seats, seed, marks=pytest.mark.soak)
          for name, ruleset in sorted(EVERY_RULESET.items())
          for seats in range(ruleset.min_seats, ruleset.max_seats + 1)
          for seed in range(_seeds(ruleset, seats), _seeds(ruleset, seats) + SOAK_SEEDS)]


def _json_roundtrip(value):
    return json.loads(json.dumps(value))


def _mutations(move: dict, state_keys: list) -> list[dict]:
    """Near misses of a legal move: each argument nudged or swapped for another id seen in the game."""
    out = []
    for key, value in move.items():
        if key == "type":
            continue
        if isinstance(value, bool):
            out.append({**move, key: not value})
        elif isinstance(value, int):
            out += [{**move, key: value + 1}, {**move, key: value - 1}, {**move, key: value + 100}]
        elif isinstance(value, str):
            out += [{**move, key: other} for other in state_keys[:3] if other != value]
            out.append({**move, key: value + "-nope"})
    return out


def _listed(ruleset: Ruleset, move: dict, moves: list) -> bool:
    """Among the legal moves, arguments a ruleset declares open (an offer's terms) aside: those the
    list shows only by example, and its handler checks."""
    if move in moves:
        return True
    free = getattr(ruleset, "open_arguments", {}).get(move.get("type"))
    if not free:
        return False
    fixed = {k: v for k, v in move.items() if k not in free}
    return any(m["type"] == move["type"] and {k: v for k, v in m.items() if k not in free} == fixed for m in moves)


def _check_rejected(ruleset: Ruleset, state, seat, command, rng) -> None:
    with pytest.raises(IllegalMove):
        ruleset.decide(state, seat, command, rng)


@pytest.mark.parametrize("name,seats,seed", CASES)
def test_random_playout_properties(name: str, seats: int, seed: int) -> None:
    ruleset = EVERY_RULESET[name]
    assert isinstance(ruleset, Ruleset)
    game_seed = f"every-ruleset/{name}/{seats}/{seed}"
    events = ruleset.setup({}, seats, Rng(game_seed, 0))
    history = list(events)
    state = fold(ruleset, events)
    has_invariants = callable(getattr(ruleset, "invariants", None))
    seen_commands: list[dict] = []
    id_pool: list[str] = []
    version = 1
    for step in range(MAX_COMMANDS):
        if ruleset.outcome(state) is not None:
            break
        deep = step % DEEP_CHECK_EVERY == 0
        awaiting = ruleset.awaiting(state)
        assert awaiting, "a game that is not over must await somebody"
        legal = {seat: ruleset.legal_moves(state, seat) for seat in range(seats)}
        assert set(awaiting) == {s for s, moves in legal.items() if moves}, (awaiting, legal)
        assert all(kind in ("move", "response") for kind in awaiting.values())
        for seat in awaiting:
            assert ruleset.on_timeout(state, seat) in legal[seat]
            for move in legal[seat]:
                assert _json_roundtrip(move) == move
        picker = Rng(game_seed + "/bots", version)
        seat = picker.choice(sorted(awaiting))
        command = ruleset.bot_move(state, seat, "random", picker)
        assert command in legal[seat]

        # every listed move is accepted (a sample of them each step)
        for move in [picker.choice(legal[seat]) for _ in range(min(ACCEPT_SAMPLE, len(legal[seat])))]:
            ruleset.decide(state, seat, move, Rng(game_seed + "/probe", version))
        # commands not listed are refused: near misses, old commands, other seats' moves
        if deep:
            for candidate in _mutations(command, id_pool) + seen_commands[-5:]:
                if not _listed(ruleset, candidate, legal[seat]):
                    _check_rejected(ruleset, state, seat, candidate, picker)
            for other in range(seats):
                if other != seat:
                    for move in legal[seat][:3]:
                        if not _listed(ruleset, move, legal[other]):
                            _check_rejected(ruleset, state, other, move, picker)
            with pytest.raises(BadCommand):
                ruleset.decide(state, seat, {"type": "NoSuchCommand"}, picker)
            with pytest.raises(BadCommand):
                ruleset.decide(state, seat, {**command, "unexpected": 1}, picker)

        new_events = ruleset.decide(state, seat, command, Rng(game_seed, version))
        version += 1
        seen_commands.append(command)
        id_pool = [v for v in command.values() if isinstance(v, str)] + id_pool[:20]
        for event in new_events:
            assert _json_roundtrip(dict(event.data)) == dict(event.data)
            audience = ruleset.visible_to(event)
            assert audience == PUBLIC or isinstance(audience, (set, frozenset))
            if "secret" in event.data and audience != PUBLIC:
                outsider = next((s for s in range(seats) if s not in audience), None)
                assert "secret" not in redact(ruleset, event, outsider).data
            if deep:
                before = copy.deepcopy(state)
                after = ruleset.evolve(state, event)
                assert state == before, f"evolve mutated its input on {event.type}"
                assert _json_roundtrip(after) == after
            else:
                after = ruleset.evolve(state, event)
            state = after
            if has_invariants:
                broken = ruleset.invariants(state)
                assert not broken, f"after {event.type}: {broken}"
        history += new_events
        if deep:
            for viewer in [None, *range(seats)]:
                assert _json_roundtrip(ruleset.view(state, viewer)) == ruleset.view(state, viewer)
    else:
        pytest.fail(f"{name} with {seats} seats did not end within {MAX_COMMANDS} commands")

    result = ruleset.outcome(state)
    assert result["winners"] and all(0 <= s < seats for s in result["winners"])
    assert isinstance(result["reason"], str) and result["reason"]
    assert ruleset.awaiting(state) == {}
    assert all(ruleset.legal_moves(state, s) == [] for s in range(seats))
    assert fold(ruleset, history) == state, "replaying the events must rebuild the same state"


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_metadata_and_options(name: str) -> None:
    ruleset = EVERY_RULESET[name]
    assert ruleset.name == name and ruleset.title
    assert 1 <= ruleset.min_seats <= ruleset.max_seats
    assert "random" in ruleset.bot_levels
    for option in ruleset.options.values():
        assert _json_roundtrip(option.describe()) == option.describe()
    with pytest.raises(BadCommand):
        ruleset.setup({"no-such-option": 1}, ruleset.min_seats, Rng("x", 0))
    with pytest.raises(BadCommand):
        ruleset.setup({}, ruleset.max_seats + 1, Rng("x", 0))


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_setup_is_deterministic(name: str) -> None:
    ruleset = EVERY_RULESET[name]
    first = ruleset.setup({}, ruleset.min_seats, Rng("same-seed", 0))
    again = ruleset.setup({}, ruleset.min_seats, Rng("same-seed", 0))
    assert first == again
    assert ruleset.evolve(None, first[0]) == ruleset.evolve(None, again[0])
