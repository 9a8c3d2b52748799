"""The project's docs cite files by name or relative link, never by a path on somebody's machine."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ABSOLUTE_PATH = re.compile(r"(^|[ (`\"'])/(work|root|home|tmp|Users)/")


def test_docs_have_no_absolute_filesystem_paths():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    offending = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                 for path in documents
                 for number, line in enumerate(path.read_text().splitlines(), start=1)
                 if ABSOLUTE_PATH.search(line)]
    assert len(documents) > 3 and offending == []
