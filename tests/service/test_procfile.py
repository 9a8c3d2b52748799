"""The Procfile's processes (web, push, worker), started exactly as a platform would (sh -c), serve and play."""
from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import requests

from tests.support.processes import free_port, python_env, wait_until

ROOT = Path(__file__).resolve().parents[2]


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def test_procfile_web_and_worker_play_a_bot_game(redis_server, redis_client, tmp_path):
    port = free_port()
    # Pushpin (`push`) on PORT, gunicorn (`web`) behind it on WEB_PORT; GRIP_* as docs/deployment.md sets them
    pushpin_ports = {name: str(free_port()) for name in ("GRIP_PUBLISH_PORT", "GRIP_PUSH_IN_PORT",
                                                        "GRIP_PUSH_IN_SUB_PORT", "GRIP_COMMAND_PORT")}
    env = python_env(redis_server.url, PORT=str(port), WEB_PORT=str(free_port()), HOST="127.0.0.1",
                     GRIP_KEY="procfile-key", **pushpin_ports,
                     GRIP_PUBLISH_URL=f"http://127.0.0.1:{pushpin_ports['GRIP_PUBLISH_PORT']}/publish/")
    env["PATH"] = os.path.dirname(os.sys.executable) + os.pathsep + env["PATH"]
    processes = [subprocess.Popen(["sh", "-c", command], cwd=ROOT, env=env, start_new_session=True,
                                  stdout=(tmp_path / f"{name}.log").open("wb"), stderr=subprocess.STDOUT)
                 for name, command in procfile().items()]
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _get(url + "/healthz"), timeout=20, what="Procfile web")
        created = requests.post(url + "/v1/games", json={"ruleset": "kingpin", "seed": "procfile",
                                                         "seats": [{"kind": "bot"}, {"kind": "bot"}]}).json()
        wait_until(lambda: requests.get(f"{url}/v1/games/{created['id']}").json()["version"] > created["version"],
                   timeout=20, what="the Procfile worker to move a bot")
        assert requests.get(url + "/readyz").json()["status"] == "ready"
        with requests.get(f"{url}/v1/games/{created['id']}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=60) as response:  # through Pushpin, to the game's end
            assert response.text.rstrip().splitlines()[-1].startswith("data: {")
            assert "event: end" in response.text
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)


def _get(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).ok
    except requests.RequestException:
        return False
