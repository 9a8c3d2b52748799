"""A TypeScript client generated from openapi.yaml (openapi-typescript, pinned with typescript by
tests/clients/typescript/package-lock.json) is typed by the games' own command unions: a program that
creates a game, reads it and sends its legal moves type-checks (`tsc`) and plays a whole game of each
ruleset against bots; one that sends a Druglord Sway with weight "plutonium" does not compile (issue 25 item 3).
A game document, a turn message and a creation body narrow on `ruleset` to that game's view, moves, outcome and
options: reading a field Kingpin's view lacks, or giving a Kingpin table a target it lacks, does not compile
(issue 36 item 5).

node and npm must be on the machine (installed with apt-get when missing and root, as .ci/run does).  npm ci runs once into
a directory under the machine's temporary directory (kept while the lock is unchanged); nothing is installed into the checkout."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from rules import RULESETS
from tests.support.machine import npm_tools
from tests.support.processes import database, running_service

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
SOURCES = Path(__file__).with_name("typescript")
# pytest's own cache is switched off (pyproject.toml): the machine's temporary directory, outside the checkout
CACHE = Path(tempfile.gettempdir()) / "tabletop-cartel-typescript-client"


def run(args: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def toolchain() -> Path:
    """The pinned openapi-typescript and typescript (npm ci from the committed lock), reused across runs."""
    return npm_tools(SOURCES, CACHE) / ".bin"


@pytest.fixture(scope="module")
def project(toolchain, tmp_path_factory) -> Path:
    """The client's types generated from the committed spec, beside the programs written against them."""
    out = tmp_path_factory.mktemp("typescript")
    generated = run([toolchain / "openapi-typescript", SPEC, "-o", out / "api.ts"], out)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    for name in (*PROGRAMS, "tsconfig.json"):
        shutil.copy(SOURCES / name, out / name)
    return out


PROGRAMS = ("play.ts", "plutonium.ts", "events.ts", "wrong_event_data.ts", "narrow.ts", "kingpin_lacks.ts",
            "wrong_options.ts")
MUST_FAIL = {"plutonium.ts", "wrong_event_data.ts", "kingpin_lacks.ts", "wrong_options.ts"}


@pytest.fixture(scope="module")
def checked(toolchain, project) -> dict[str, str]:
    """One `tsc` over every program (tsconfig.json's strict ES2022 settings), emitting JavaScript: each
    program is a module of its own, so its diagnostics are the same as when it is checked alone, and the
    compiler loads the generated types once instead of once a program.  {file: its diagnostics}."""
    (project / "tsconfig.all.json").write_text(json.dumps({"extends": "./tsconfig.json", "files": list(PROGRAMS)}))
    done = run([toolchain / "tsc", "-p", "tsconfig.all.json"], project, timeout=120)
    diagnostics: dict[str, str] = {}
    current = None
    for line in done.stdout.splitlines():
        head = re.match(r"(\S+\.ts)\(\d+,\d+\): error ", line)
        current = head.group(1) if head else current
        if current is None:
            raise AssertionError(f"tsc said something not about a file: {done.stdout}{done.stderr}")
        diagnostics[current] = diagnostics.get(current, "") + line + "\n"
    assert done.returncode == (2 if diagnostics else 0), done.stdout + done.stderr
    return diagnostics


def test_the_generated_types_spell_each_game_s_commands_as_a_union(project):
    types = (project / "api.ts").read_text()
    assert 'weight: "reefer" | "pills" | "cocaine" | "opiates";' in types  # Druglord's Sway and LoadWeight
    assert 'AnyCommand: components["schemas"]["KingpinCommand"] | components["schemas"]["DruglordCommand"]' in types
    assert 'Move: components["schemas"]["AnyCommand"];' in types
    assert 'type: components["schemas"]["EventType"];' in types  # an event's type: one enum of every game's
    assert 'awaiting_seats: number[];' in types


def test_a_program_that_creates_a_game_and_sends_listed_moves_type_checks(checked):
    assert "play.ts" not in checked and "api.ts" not in checked, checked
    assert set(checked) <= MUST_FAIL, checked  # the programs that must not compile


def test_a_druglord_sway_with_plutonium_does_not_compile(checked):
    said = checked.get("plutonium.ts", "")
    assert "TS2322" in said and '"plutonium"' in said, checked
    assert '"reefer" | "pills" | "cocaine" | "opiates"' in said, said


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    with running_service(database(redis_server.url, 11), tmp_path_factory.mktemp("typescript-server")) as web:
        yield web


@pytest.fixture(scope="module")
def built(checked, project) -> Path:
    """play.ts compiled to JavaScript (an ES module)."""
    assert (project / "build" / "play.js").exists(), checked
    (project / "build" / "package.json").write_text('{"type": "module"}')
    return project / "build" / "play.js"


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_typescript_program_plays_a_whole_game_of_each_ruleset(built, project, server, ruleset):
    played = run(["node", built, server.url, ruleset], project, timeout=240)
    assert played.returncode == 0, played.stdout + played.stderr
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["ruleset"] == ruleset and result["status"] == "finished", result
    assert result["sent"] > 10 and result["literal"] > 0, result
    assert result["you"] == 0 and isinstance(result["winners"], list), result


def test_a_game_s_event_narrowed_on_its_type_has_that_type_s_data(project, checked):
    """KingpinEvent is a union on `type`: after `event.type === "HitsSold"`, `event.data.hits` is a number;
    a Druglord BallerDrawn's secret card is optional (issue 25: event data per type)."""
    types = (project / "api.ts").read_text()
    assert 'KingpinEvent: components["schemas"]["KingpinEventGameStarted"] |' in types
    assert "events.ts" not in checked, checked["events.ts"]


def test_reading_a_field_another_event_type_has_does_not_compile(checked):
    said = checked.get("wrong_event_data.ts", "")
    assert "error TS" in said and "'hits'" in said, checked


def test_a_game_narrowed_on_its_ruleset_has_that_game_s_view_moves_outcome_and_options(project, checked):
    """Game, TurnState and CreateGame are unions on `ruleset`: after `game.ruleset === "kingpin"` the view is
    KingpinView, legal_moves KingpinCommand[], the outcome KingpinOutcome and the options KingpinOptions."""
    types = (project / "api.ts").read_text()
    assert 'Game: components["schemas"]["KingpinGame"] | components["schemas"]["DruglordGame"] |' in types
    assert 'view: components["schemas"]["KingpinView"] | (never | null);' in types  # KingpinView or null
    assert 'legal_moves: components["schemas"]["KingpinCommand"][];' in types
    assert 'ruleset: "kingpin";' in types
    assert "narrow.ts" not in checked, checked["narrow.ts"]


def test_reading_a_field_kingpin_s_view_lacks_does_not_compile(checked):
    """Refused on Kingpin's view alone (its first field), not on a union of every game's views (as before the
    game document was a union on `ruleset`: then TS named the union, Druglord's view first)."""
    said = checked.get("kingpin_lacks.ts", "")
    first = said.splitlines()[0] if said else ""
    assert "TS2339" in first and "'regions'" in first and "on type '{ bailed_this_turn: boolean;" in first, checked


def test_an_option_value_kingpin_lacks_does_not_compile(checked):
    said = checked.get("wrong_options.ts", "")
    assert "TS2322" in said and "'4000'" in said and "3000 | 5000 | 10000" in said, checked
