"""The ruleset contract is one class (rules/ruleset.py Ruleset, issue 23): every hook declared there
with its default, named in docs/adding-a-game.md, never probed for elsewhere; the machinery that runs the
hooks (rules/machinery.py) is final (issue 35); the base owns the one bounded loop of automatic steps; a
ruleset from outside the package is adopted with the defaults."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import EVERY_RULESET, ruleset
from rules.base import Event, Rng, fold
from rules.machinery import FINAL, machinery
from rules.ruleset import Ruleset, adopt, contract, ruleset_at
from rules.search.ismcts import SearchSettings
from tests.support.race import RACE

ROOT = Path(__file__).resolve().parents[2]
# a ruleset asked whether it has something: getattr(ruleset, "...") / hasattr(game.ruleset, "...")
PROBE = re.compile(r"\b(getattr|hasattr)\(\s*[\w.]*ruleset\b")


def test_the_guide_names_every_hook_of_the_base():
    guide = (ROOT / "docs" / "adding-a-game.md").read_text()
    named = set(re.findall(r"`([a-z_]+)[(`]", guide))
    hooks = contract() + machinery()
    assert len(contract()) > 45 and len(machinery()) >= 12  # the hooks and data a game writes; the base's own
    assert [hook for hook in hooks if hook not in named] == []
    assert not set(contract()) & set(machinery())


def test_nothing_outside_the_base_probes_a_ruleset_for_a_hook():
    sources = [path for package in ("rules", "service", "events", "bench")
               for path in sorted((ROOT / package).rglob("*.py")) if path != ROOT / "rules" / "ruleset.py"]
    probes = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
              for path in sources
              for number, line in enumerate(path.read_text().splitlines(), start=1) if PROBE.search(line)]
    assert len(sources) > 100 and probes == []


def test_no_game_writes_its_own_settle_loop_or_fold():
    facades = {name: type(ruleset) for name, ruleset in EVERY_RULESET.items()}
    for name, cls in facades.items():
        assert "settle" not in vars(cls) and "consequences" not in vars(cls), name
        assert cls.fold is Ruleset.fold and cls.decide is Ruleset.decide, name
    loops = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "rules").rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if re.match(r"def (advance|_fold|fold)\(state", line) or "MAX_AUTOMATIC_STEPS" in line]
    assert loops == []


class Spinner(Ruleset):
    """A flow that never settles: every step makes another automatic event."""

    name, title, noun = "spinner", "Spinner", "Spinner"
    min_seats, max_seats = 2, 2
    max_automatic_steps = 50
    evolvers = {"GameStarted": lambda state, d, own: {"seats": d["seats"], "turns": 0, "phase": "spinning"},
                "Spun": lambda state, d, own: {**state, "turns": state["turns"] + 1}}

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        return [Event("GameStarted", {"seats": seats})]

    def step(self, state: dict, rng: Rng) -> list[Event]:
        return [Event("Spun", {})]


def test_a_flow_that_does_not_settle_is_stopped_naming_the_game_and_the_state():
    with pytest.raises(RuntimeError, match=r"Spinner did not settle: 50 automatic steps, the last \['Spun'\], "
                                           r"in the state \{'phase': 'spinning', .*'turns': 50\}"):
        Spinner().setup({}, 2, Rng("spin", 0))


def test_settle_runs_steps_until_a_seat_must_decide_and_returns_the_state_after():
    class Countdown(Spinner):
        def step(self, state: dict, rng: Rng) -> list[Event]:
            return [Event("Spun", {})] if state["turns"] < 3 else []

    ruleset = Countdown()
    events = ruleset.setup({}, 2, Rng("count", 0))
    assert [e.type for e in events] == ["GameStarted", "Spun", "Spun", "Spun"]
    assert ruleset.settle(ruleset.fold(None, events[:2]), Rng("count", 1)) == (
        [Event("Spun", {}), Event("Spun", {})], ruleset.fold(None, events))


@pytest.mark.parametrize("name", sorted(FINAL))
def test_a_ruleset_that_overrides_the_machinery_is_refused_when_the_class_is_made(name):
    # decide's order, settle's loop, the fold's write path, the memo, versions and setup are the base's: a
    # game that wants another behaviour writes a hook (normalize, is_legal, step, ...), never these
    with pytest.raises(TypeError, match=rf"Cheat overrides the base's machinery \({name}\)"):
        type("Cheat", (Spinner,), {name: lambda self, *args: None})
    with pytest.raises(TypeError, match="machinery"):  # a game's subclass too, however deep
        type("Cheat", (type(EVERY_RULESET["pig"]),), {name: property(lambda self: 2)})


def test_the_contract_is_only_what_a_game_writes():
    # the machinery, the table checks and the bot levels' syntax are written in modules of their own
    assert {name for name in vars(Ruleset) if name in FINAL} == set()
    defined_here = {name for name, value in vars(ruleset).items()
                    if callable(value) and getattr(value, "__module__", None) == "rules.ruleset"}
    assert defined_here == {"Ruleset", "RulesetBase", "Adopted", "contract", "required_hooks", "adopt", "latest_version",
                            "ruleset_at"}
    assert set(ruleset.required_hooks()) == {"opening", "legal_moves", "awaiting", "timeout_default", "view",
                                             "outcome", "choose_bot_move"}


def test_capabilities_are_declared_and_checked():
    for name, r in EVERY_RULESET.items():  # the capability and the hook agree (when the class was made)
        assert r.hidden_information == (type(r).determinize is not Ruleset.determinize), name
    with pytest.raises(TypeError, match="hidden information"):
        type("Peeking", (Spinner,), {"determinize": lambda self, state, seat, rng: state})
    with pytest.raises(TypeError, match="turn_holder"):
        type("Rounds", (Spinner,), {"search_settings": SearchSettings(rollout_rounds=1)})


def test_a_ruleset_from_outside_the_package_is_adopted_with_the_defaults():
    race = adopt(RACE)
    assert isinstance(race, Ruleset) and adopt(RACE) is race and adopt(race) is race
    assert ruleset_at(RACE, 1) is race and race.version == 1 and race.versions == Ruleset.versions
    assert (race.name, race.title, race.noun, race.bot_levels) == ("race", RACE.title, RACE.title, RACE.bot_levels)
    assert race.static_data() == {} and race.hidden_from({}, 0) == [] and race.search_settings == SearchSettings()
    state = fold(RACE, RACE.setup({"goal": 10}, 2, Rng("race", 0)))
    assert race.label(race.view(state, 0), 0, {"type": "Roll"}) == "Roll"
    assert race.legal_moves(state, state["turn"]) == RACE.legal_moves(state, state["turn"])
    events, after = race.decide_and_apply(state, state["turn"], {"type": "Pass"}, Rng("race", 1))
    assert [e.type for e in events] == ["TurnPassed"] and after == RACE.evolve(state, events[0])
