"""Run only listed tests (issue 23's like-for-like timing): `ONLY_IDS=FILE python3 -m pytest -n 4 -p
tests.support.only_ids` keeps the tests whose node ids are lines of FILE and deselects the rest.

Made to time today's code on the tests an older commit had: list that commit's ids with `python3 -m
pytest --collect-only -q` in a checkout of it, keep the lines this checkout also collects, and run with
them.  Node ids are matched as pytest collects them, before tests/conftest.py appends the xdist group
to each (the hook runs first), so the ids `--collect-only` prints are the ones to list.  Off unless
the plugin is named: nothing here runs in the default suite."""
from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    listed = os.environ.get("ONLY_IDS")
    if not listed:
        raise pytest.UsageError("tests.support.only_ids needs ONLY_IDS: a file with a node id a line")
    wanted = set(Path(listed).read_text().splitlines())
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in wanted])
    items[:] = [item for item in items if item.nodeid in wanted]
