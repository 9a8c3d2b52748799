"""rules/ is pure: no random, time, datetime, redis, flask, and no I/O beyond reading its own data."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[3] / "rules"
FORBIDDEN = {"random", "time", "datetime", "redis", "flask", "requests", "socket", "os", "subprocess"}


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES)))
def test_no_forbidden_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]]
        else:
            continue
        assert not set(names) & FORBIDDEN, f"{path.name} imports {names}"


def test_only_cards_py_reads_a_file():
    for path in sorted((RULES / "kingpin").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name != "cards.py":
            assert "open(" not in text and "read_text" not in text, path.name
