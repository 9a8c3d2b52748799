"""`python -m service.serve` listens on loopback unless told otherwise (issue 7, section 4)."""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import requests

from service.serve import bind_address
from tests.support.processes import database, free_port, python_env, wait_until

ROOT = Path(__file__).resolve().parents[2]


def listening_addresses(port: int) -> set[str]:
    """Local IPv4 addresses (hex, as in /proc/net/tcp) with a socket listening on `port`."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        address, port_hex = fields[1].split(":")
        if fields[3] == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
            found.add(address)
    return found


def serve_and_look(redis_url: str, tmp_path: Path, *args: str, **env: str) -> set[str]:
    """Start `service.serve` on a free port, wait for /healthz, return where it listens; stop it."""
    port = free_port()
    environment = python_env(redis_url, **env)
    if "HOST" not in env:
        environment.pop("HOST", None)  # the machine's own HOST must not decide the default under test
    process = subprocess.Popen([sys.executable, "-m", "service.serve", "--port", str(port), *args], cwd=ROOT,
                               env=environment, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: _healthy(port), timeout=30, what="service.serve")
        return listening_addresses(port)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def _healthy(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).ok
    except requests.RequestException:
        return False


def test_serve_listens_on_loopback_by_default_and_everywhere_only_when_asked(redis_server, tmp_path):
    url = database(redis_server.url, 11)
    assert serve_and_look(url, tmp_path) == {"0100007F"}  # 127.0.0.1
    assert serve_and_look(url, tmp_path, "--host", "0.0.0.0") == {"00000000"}
    assert serve_and_look(url, tmp_path, HOST="0.0.0.0") == {"00000000"}


def test_bind_address():
    assert bind_address("127.0.0.1", 8000) == "127.0.0.1:8000"
    assert bind_address("::1", 8000) == "[::1]:8000"
