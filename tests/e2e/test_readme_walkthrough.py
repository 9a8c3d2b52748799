"""The README's first game (SDK) and the API reference's curl walkthrough run as written against a live server."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"  # the curl walkthrough


def walkthrough() -> str:
    text = API_DOC.read_text()
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
    assert verdict["valid"] is True and verdict["complete"] is True and verdict["events"] > 10, verdict


def sdk_snippet() -> str:
    text = README.read_text()
    block = text.split("<!-- sdk:start -->", 1)[1].split("<!-- sdk:end -->", 1)[0]
    return re.search(r"```python\n(.*?)```", block, re.S).group(1)


def test_readme_sdk_snippet_plays_its_seat_to_the_end(live_server, tmp_path):
    code = sdk_snippet().replace('"http://127.0.0.1:8000"', repr(live_server.url))
    assert code != sdk_snippet()  # it still names the default server the test points elsewhere
    result = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("outcome: {") and "winners" in lines[-1]  # it ended, with a result
    actors = {line.split()[1] for line in lines[:-1]}
    assert {"seat:0", "bot:1"} <= actors  # it played its seat against the bot
