"""rules/druglord is pure: only board.py and data.py read a file (their own JSON, at import)."""
from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[3] / "rules" / "druglord"


def test_only_the_data_modules_read_files():
    for path in sorted(RULES.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name not in ("board.py", "data.py"):
            assert not re.search(r"\bopen\(|read_text|read_bytes", text), path.name
