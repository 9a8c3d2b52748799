"""tests/support/only_ids.py, the opt-in plugin for issue 23's like-for-like timing, keeps exactly the
listed tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path: Path, *args: str, ids: str | None) -> subprocess.CompletedProcess:
    (tmp_path / "test_three.py").write_text("import pytest\n\ndef test_a(): pass\n\ndef test_b(): pass\n\n"
                                            "@pytest.mark.parametrize('n', [1, 2])\ndef test_c(n): pass\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ONLY_IDS", None)
    if ids is not None:
        (tmp_path / "ids.txt").write_text(ids)
        env["ONLY_IDS"] = str(tmp_path / "ids.txt")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.support.only_ids", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "-q", "-rA", *args, "test_three.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


def test_only_the_listed_tests_run_and_the_rest_are_deselected(tmp_path):
    done = run(tmp_path, ids="test_three.py::test_b\ntest_three.py::test_c[2]\ntest_three.py::test_gone\n")
    assert done.returncode == 0, done.stdout + done.stderr
    passed = sorted(line.split()[1] for line in done.stdout.splitlines() if line.startswith("PASSED"))
    assert passed == ["test_three.py::test_b", "test_three.py::test_c[2]"]
    assert "2 deselected" in done.stdout


def test_without_a_list_it_refuses_to_run_rather_than_run_everything(tmp_path):
    done = run(tmp_path, ids=None)
    assert done.returncode != 0 and "needs ONLY_IDS" in done.stdout + done.stderr
