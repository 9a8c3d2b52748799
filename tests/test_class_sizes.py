"""One class, one job (design.md): no class in events/ or service/ spans more than about 250 lines,
measured on the source with `ast` (from its `class` line to its last line), so a class that grows
past it is split by the next person rather than read by everyone after."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 250
PACKAGES = ("events", "service")


def class_spans(package: str) -> dict[str, int]:
    """`module:Class` -> its span in lines, for every class (nested ones too) in the package."""
    spans = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                spans[f"{path.relative_to(ROOT)}:{node.name}"] = node.end_lineno - node.lineno + 1
    return spans


def test_the_measure_sees_the_classes_it_measures():
    spans = class_spans("events")
    assert spans["events/store.py:EventStore"] > 100  # a real class, measured whole (not its first line)
    assert "events/runner.py:GameRunner" in spans


def test_no_class_in_events_or_service_is_over_the_limit():
    over = {name: lines for package in PACKAGES for name, lines in class_spans(package).items() if lines > LIMIT}
    assert over == {}, f"classes over {LIMIT} lines (split them by job, as events/runner.py is): {over}"
