"""The locks the README installs from agree with pyproject.toml: every declared dependency is
pinned, each pin lies in its declared range, and the runtime pins are the dev lock's pins.
(A range edited in pyproject.toml without refreshing the locks fails here, not on a user's machine.)"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", re.MULTILINE)


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text()
    assert "--hash=sha256:" in text, f"{lock} must carry hashes (pip --require-hashes)"
    return {canonicalize_name(name): version for name, version in PIN.findall(text)}


def declared(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in (project["optional-dependencies"][extra] if extra else project["dependencies"])]


def test_every_runtime_dependency_is_pinned_within_its_range():
    locked = pins("requirements.lock")
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is declared in pyproject.toml but not in requirements.lock"
        assert requirement.specifier.contains(locked[name]), f"{name}=={locked[name]} is outside {requirement}"
        assert any(spec.operator == "<" for spec in requirement.specifier), f"{requirement} has no upper bound"


def test_dev_lock_holds_the_runtime_pins_and_every_dev_tool():
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert {name: dev.get(name) for name in runtime} == runtime
    for requirement in declared("dev"):
        name = canonicalize_name(requirement.name)
        assert name in dev and requirement.specifier.contains(dev[name]), f"{requirement} vs {dev.get(name)}"
        assert any(spec.operator == "<" for spec in requirement.specifier), f"{requirement} has no upper bound"


def test_readme_commands_install_from_the_locks():
    readme = (ROOT / "README.md").read_text()
    assert "pip install --require-hashes -r requirements.lock" in readme
    assert "pip install --require-hashes -r requirements-dev.lock" in readme
    assert "<!-- test-command -->" in readme  # .ci/run reads the test command from there
