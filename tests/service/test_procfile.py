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
    """As a platform runs a Procfile: outside traffic goes only to `web`, on $PORT on every interface
    (a platform routes to the container's address, not its loopback), streams served by the web's
    built-in hub; `worker` plays the bots."""
    port = free_port()
    env = python_env(redis_server.url, PORT=str(port))
    env.pop("GRIP_KEY", None)
    env["PATH"] = os.path.dirname(os.sys.executable) + os.pathsep + env["PATH"]
    commands = procfile()
    assert set(commands) == {"web", "worker"}
    processes = start(commands, env, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _get(url + "/healthz"), timeout=30, what="Procfile web")
        listening = _listening_addresses(port)
        assert listening and all(address in ("0.0.0.0", "::", "*") for address in listening), listening
        created = requests.post(url + "/v1/games", json={"ruleset": "kingpin", "seed": "procfile",
                                                         "seats": [{"kind": "bot"}, {"kind": "bot"}]}).json()
        wait_until(lambda: requests.get(f"{url}/v1/games/{created['id']}").json()["version"] > created["version"],
                   timeout=30, what="the Procfile worker to move a bot")
        assert requests.get(url + "/readyz").json()["status"] == "ready"
        with requests.get(f"{url}/v1/games/{created['id']}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=120) as response:  # the web's own hub, to the game's end
            assert response.text.rstrip().splitlines()[-1].startswith("data: {")
            assert "event: end" in response.text
    finally:
        stop(processes)


def _listening_addresses(port: int) -> set[str]:
    """The local addresses with a listening TCP socket on `port`, from /proc/net/tcp and tcp6."""
    found = set()
    for name in ("tcp", "tcp6"):
        path = Path("/proc/net") / name
        for line in path.read_text().splitlines()[1:] if path.exists() else ():
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.add("0.0.0.0" if address == "0" * 8 else "::" if address == "0" * 32 else address)
    return found


def start(commands: dict[str, str], env: dict[str, str], logs: Path) -> list[subprocess.Popen]:
    """Each process as a platform starts a Procfile's line: `sh -c`, in a session of its own."""
    return [subprocess.Popen(["sh", "-c", command], cwd=ROOT, env=env, start_new_session=True,
                             stdout=(logs / f"{name}.log").open("wb"), stderr=subprocess.STDOUT)
            for name, command in commands.items()]


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)


def _get(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).ok
    except requests.RequestException:
        return False


def test_pushpin_in_front_on_a_platform_as_the_docs_say(redis_server, redis_client, tmp_path):
    """docs/deployment.md: `python -m service.push` takes $PORT, the web listens behind it on loopback
    (WEB_BACKEND), both with one GRIP_KEY; a stream then goes through Pushpin to the game's end."""
    port, web_port = free_port(), free_port()
    pushpin_ports = {name: str(free_port()) for name in ("GRIP_PUBLISH_PORT", "GRIP_PUSH_IN_PORT",
                                                        "GRIP_PUSH_IN_SUB_PORT", "GRIP_COMMAND_PORT")}
    env = python_env(redis_server.url, PORT=str(port), HOST="127.0.0.1", WEB_BACKEND=f"127.0.0.1:{web_port}",
                     GRIP_KEY="procfile-key", **pushpin_ports,
                     GRIP_PUBLISH_URL=f"http://127.0.0.1:{pushpin_ports['GRIP_PUBLISH_PORT']}/publish/")
    env["PATH"] = os.path.dirname(os.sys.executable) + os.pathsep + env["PATH"]
    web = procfile()["web"].replace("0.0.0.0:${PORT:-8000}", f"127.0.0.1:{web_port}")
    commands = {"push": "exec python -m service.push", "web": web, "worker": procfile()["worker"]}
    processes = start(commands, env, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _get(url + "/healthz"), timeout=30, what="Pushpin in front of the web")
        created = requests.post(url + "/v1/games", json={"ruleset": "kingpin", "seed": "procfile-push",
                                                         "seats": [{"kind": "bot"}, {"kind": "bot"}]}).json()
        with requests.get(f"{url}/v1/games/{created['id']}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=120) as response:
            assert "event: end" in response.text
            assert response.headers.get("Grip-Hold") is None  # Pushpin took the hold: the client never sees it
    finally:
        stop(processes)
