"""The README's curl walkthrough runs as written against a live server."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough() -> str:
    text = README.read_text()
    block = text.split("<!-- walkthrough:start -->", 1)[1].split("<!-- walkthrough:end -->", 1)[0]
    return re.search(r"```bash\n(.*?)```", block, re.S).group(1)


def test_readme_walkthrough_plays_and_verifies_a_game(live_server, tmp_path):
    result = subprocess.run(["bash", "-e", "-c", walkthrough()], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "BASE": live_server.url}, timeout=400)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert '"type":"DiceRolled"' in out.replace(" ", "")  # the roll answered with its events
    assert '"status":422' in out.replace(" ", "")  # the illegal purchase after rolling was refused
    verdict = json.loads(out.strip().splitlines()[-1])
    assert verdict["valid"] is True and verdict["events"] > 10, verdict
