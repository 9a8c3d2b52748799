"""rules/ is pure, every game alike: no randomness, clock, I/O or framework imports, and only a
game's data modules read a file (their own JSON, at import).  Randomness comes only from the Rng
that decide is handed, so every game is reproducible from its seed and verifiable afterwards."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = {"random", "time", "datetime", "redis", "flask", "requests", "socket", "os", "subprocess", "threading",
             "logging", "urllib", "http", "io", "tempfile", "shutil", "pathlib"}
# The modules that load a game's data files (at import, from the package itself).
DATA_MODULES = {"kingpin/cards.py", "druglord/board.py", "druglord/data.py", "lords_of_cannabis/board.py",
                "lords_of_cannabis/cards.py", "trafficking/data.py", "narcos/data.py"}
# The legal-move memo keeps each thread's entries apart (threading.local): the one module that may
# import threading, and only for that (rules/memo.py: no lock, no thread is started).
THREAD_LOCAL = {"memo.py"}
SOURCES = sorted(RULES.rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(RULES).as_posix()


@pytest.mark.parametrize("path", SOURCES, ids=relative)
def test_no_impure_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        else:
            continue
        allowed = {"pathlib"} if relative(path) in DATA_MODULES else {"threading"} if relative(path) in THREAD_LOCAL \
            else set()
        assert not names & (FORBIDDEN - allowed), f"{relative(path)} imports {sorted(names & FORBIDDEN)}"


@pytest.mark.parametrize("path", SOURCES, ids=relative)
def test_only_the_data_modules_read_files(path):
    if relative(path) not in DATA_MODULES:
        assert not re.search(r"\bopen\(|read_text|read_bytes|importlib", path.read_text(encoding="utf-8")), \
            relative(path)


def test_the_data_modules_exist():
    # so that a renamed data module cannot silently widen what may read files
    assert all((RULES / name).is_file() for name in DATA_MODULES | THREAD_LOCAL)


def test_the_memo_uses_threading_only_for_thread_local_storage():
    source = (RULES / "memo.py").read_text(encoding="utf-8")
    assert set(re.findall(r"threading\.\w+", source)) == {"threading.local"}
