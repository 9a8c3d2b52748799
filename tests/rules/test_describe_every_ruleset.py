"""Rulesets describe themselves honestly (rules/describe.py): in many random playouts of every
ruleset, every view validates against the ruleset's view schema, every legal move validates
against its command's schema and has a non-empty label, and the outcome against its outcome schema; and every event of them, as each reader
receives it after redaction, validates against its type's declared data schema."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from rules import EVERY_RULESET, RULESETS
from rules.base import Rng, redact
from rules.describe import (
    commands_schema,
    event_catalogue,
    event_data_schemas,
    move_labels,
    options_schema,
    outcome_schema,
    view_schema,
)
from tests.rules.support import NAMES

GAMES = {"kingpin": 4, "druglord": 3, "pig": 20}
VIEW_EVERY = 10  # validating a view costs ~5-10 ms (Kingpin): every 10th position, every seat's every 50th
MAX_COMMANDS = 6000


def errors(validator: Draft202012Validator, value) -> str:
    return "; ".join(f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value))


# Games that declare their descriptions (command_docs/event_docs): every game on the server and the example
# must; a plugin ruleset that does not is still served and checked below, with empty descriptions.
DESCRIBED = sorted(name for name, ruleset in EVERY_RULESET.items() if getattr(ruleset, "command_docs", None))


def test_every_game_on_the_server_and_the_examples_are_described():
    assert set(EVERY_RULESET) <= set(DESCRIBED)


@pytest.mark.parametrize("name", DESCRIBED)
def test_every_command_and_event_is_described(name):
    ruleset = EVERY_RULESET[name]
    schema = commands_schema(ruleset)
    Draft202012Validator.check_schema(schema)
    for ctype, command in schema["$defs"].items():
        assert command["description"], f"{name}: {ctype} has no description"
        for arg, prop in command["properties"].items():
            assert prop["description"], f"{name}: {ctype}.{arg} has no description"
    catalogue = event_catalogue(ruleset)
    assert set(catalogue) == set(ruleset.evolvers)
    assert all(catalogue.values()), f"{name}: events without a description: {[e for e, d in catalogue.items() if not d]}"
    Draft202012Validator.check_schema(view_schema(ruleset))
    Draft202012Validator.check_schema(outcome_schema(ruleset))


def test_druglord_arguments_fixed_by_its_data_are_enums():
    """A weight is one of the four types (rules/druglord/data.py): "plutonium" fails the served schema."""
    sway = Draft202012Validator(commands_schema(RULESETS["druglord"]))
    assert sway.is_valid({"type": "Sway", "die": "trade", "weight": "pills", "units": 1})
    assert not sway.is_valid({"type": "Sway", "die": "trade", "weight": "plutonium", "units": 1})
    assert not sway.is_valid({"type": "DrawWeight", "weights": ["reefer", "plutonium"]})
    assert not sway.is_valid({"type": "Trade", "from": "traphouse", "to": "FS3", "route": "sea:arctic", "units": 1})


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_view_and_legal_move_of_random_games_matches_the_schemas(name):
    ruleset = EVERY_RULESET[name]
    views = Draft202012Validator(view_schema(ruleset))
    outcomes = Draft202012Validator(outcome_schema(ruleset))
    commands = {ctype: Draft202012Validator(s) for ctype, s in commands_schema(ruleset)["$defs"].items()}
    checked_moves = 0
    valid_moves: set[str] = set()  # a move's schema check depends on the move alone: each distinct one once
    for game in range(GAMES.get(name, 5)):
        seats = ruleset.min_seats + game % (ruleset.max_seats - ruleset.min_seats + 1)
        seed = f"describe-{name}-{game}"
        state = ruleset.fold(None, ruleset.setup({}, seats, Rng(seed, 1)))
        for step in range(MAX_COMMANDS):
            for seat in [None, *range(seats)] if step % (5 * VIEW_EVERY) == 0 else [None] if step % VIEW_EVERY == 0 else []:
                view = ruleset.view(state, seat)
                assert views.is_valid(view), f"{name} game {game} step {step} seat {seat}: {errors(views, view)}"
            awaiting = ruleset.awaiting(state)
            if not awaiting:
                break
            seat = sorted(awaiting)[step % len(awaiting)]
            moves = ruleset.legal_moves(state, seat)
            for move, label in zip(moves, move_labels(ruleset, state, seat, moves, NAMES), strict=True):
                key = json.dumps(move, sort_keys=True)
                if key not in valid_moves:
                    validator = commands[move["type"]]
                    assert validator.is_valid(move), f"{name}: {move}: {errors(validator, move)}"
                    valid_moves.add(key)
                assert isinstance(label, str) and label.strip(), f"{name}: no label for {move}"
                checked_moves += 1
            # the ruleset's random bot: random play biased toward progress, so games end
            command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{step}"))
            state = ruleset.fold(state, ruleset.decide(state, seat, command, Rng(seed, step + 2)))
        else:
            pytest.fail(f"{name} game {game} did not end in {MAX_COMMANDS} commands")
        for seat in [None, *range(seats)]:
            view = ruleset.view(state, seat)
            assert views.is_valid(view), f"{name} final view of seat {seat}: {errors(views, view)}"
        outcome = ruleset.outcome(state)
        assert outcome is not None and outcomes.is_valid(outcome), f"{name} outcome: {errors(outcomes, outcome)}"
    assert checked_moves > 100


@pytest.mark.parametrize("name", DESCRIBED)
def test_every_event_type_declares_its_data(name):
    """No event type of a described game goes undeclared (event_data_schemas would serve "any object")."""
    ruleset = EVERY_RULESET[name]
    assert set(ruleset.event_schemas) == set(ruleset.evolvers), \
        f"{name}: undeclared {sorted(set(ruleset.evolvers) - set(ruleset.event_schemas))}, " \
        f"unknown {sorted(set(ruleset.event_schemas) - set(ruleset.evolvers))}"
    for etype, schema in event_data_schemas(ruleset).items():
        Draft202012Validator.check_schema(schema)
        assert schema.get("additionalProperties") is False, f"{name}: {etype}'s data is an open object"


# Options that change what events say (every other game of the event-data check plays them): Narcos' advanced
# mode (city tokens, tribute), Trafficking's loans (17b), Druglord's first-time players and faster play
VARIANTS = {"narcos": {"mode": "advanced"}, "trafficking": {"lending": True},
            "druglord": {"faster_play": True, "california_style": True, "new_players": [0]}}


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_event_of_random_games_matches_its_data_schema_for_every_reader(name):
    """Each event of random playouts, as each seat and a spectator receive it (redacted: `secret` gone for
    whom it is not meant), validates against its type's declared data schema; both forms are seen."""
    ruleset = EVERY_RULESET[name]
    schemas = {etype: Draft202012Validator(s) for etype, s in event_data_schemas(ruleset).items()}
    checked: set[str] = set()  # an event's check depends on its (type, data) alone: each distinct one once
    seen_types: set[str] = set()
    for game in range(GAMES.get(name, 6)):
        seats = ruleset.min_seats + game // 2 % (ruleset.max_seats - ruleset.min_seats + 1)
        seed = f"event-data-{name}-{game}"
        events = ruleset.setup(VARIANTS.get(name, {}) if game % 2 else {}, seats, Rng(seed, 1))
        state = ruleset.fold(None, events)
        for step in range(MAX_COMMANDS):
            for event in events:
                assert event.type in schemas, f"{name}: event type {event.type} has no data schema"
                seen_types.add(event.type)
                for reader in [None, *range(seats)]:
                    data = redact(ruleset, event, reader).data
                    key = event.type + json.dumps(data, sort_keys=True)
                    if key not in checked:
                        validator = schemas[event.type]
                        assert validator.is_valid(data), \
                            f"{name} game {game}: {event.type} as seat {reader} reads it: {errors(validator, data)}"
                        checked.add(key)
            awaiting = ruleset.awaiting(state)
            if not awaiting:
                break
            seat = sorted(awaiting)[step % len(awaiting)]
            command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{step}"))
            events = ruleset.decide(state, seat, command, Rng(seed, step + 2))
            state = ruleset.fold(state, events)
        else:
            pytest.fail(f"{name} game {game} did not end in {MAX_COMMANDS} commands")
    assert len(seen_types) >= min(3, len(schemas)) and len(checked) > 10


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_version_s_options_and_their_defaults_match_the_options_schema(name):
    """The options schema (the spec's <Game>Options, what POST /v1/games takes) admits every choice and default
    of every rules version's options, and refuses an unknown option and a value no version offers."""
    ruleset = EVERY_RULESET[name]
    schema = options_schema(ruleset)
    Draft202012Validator.check_schema(schema)
    options = Draft202012Validator(schema)
    assert options.is_valid({}) and not options.is_valid({"no_such_option": 1})
    for version, _ in ruleset.versions:
        for option_name, option in ruleset.at(version).options.items():
            for value in (option.default, *option.choices):
                assert options.is_valid({option_name: value}), (version, option_name, value)
            if option.choices:
                assert not options.is_valid({option_name: "no such choice"}), option_name


def test_an_undeclared_outcome_is_the_contract_s():
    """Pig declares no outcome schema: its outcome is described as every ruleset's ({winners, reason, ...})."""
    schema = outcome_schema(EVERY_RULESET["pig"])
    assert schema["required"] == ["winners", "reason"] and schema["additionalProperties"] is True
    assert outcome_schema(RULESETS["kingpin"])["required"] == ["winners", "reason", "bankrolls"]
