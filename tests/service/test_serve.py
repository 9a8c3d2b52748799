"""`python -m service.serve` listens on loopback unless told otherwise (issue 7, section 4)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
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
    """Start `service.serve` on a free port, wait for /healthz, return where it listens; stop it.

    Under a parallel suite a port picked free can be taken before the service binds it (the internal
    ones too): when the service exits before it answers, it is started once more on fresh ports.
    A service that neither answers nor exits fails with what it printed."""
    for _attempt in range(2):
        port = free_port()
        environment = python_env(redis_url, **env)
        if "HOST" not in env:
            environment.pop("HOST", None)  # the machine's own HOST must not decide the default under test
        out = tmp_path / f"serve-{port}.out"
        process = subprocess.Popen([sys.executable, "-m", "service.serve", "--port", str(port), *args], cwd=ROOT,
                                   env=environment, stdout=out.open("wb"), stderr=subprocess.STDOUT)
        try:
            wait_until(lambda: _healthy(port) or process.poll() is not None, timeout=90, what="service.serve")
            if process.poll() is None:
                return listening_addresses(port)
        except TimeoutError:
            raise AssertionError(f"service.serve {' '.join(args)} did not answer in 90 s; it printed:\n"
                                 + out.read_text(errors="replace")[-3000:]) from None
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    raise AssertionError(f"service.serve {' '.join(args)} exited twice before answering; it printed:\n"
                         + out.read_text(errors="replace")[-3000:])


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


def listener_command(port: int) -> str:
    """The command name (/proc/<pid>/comm) of the process listening on loopback `port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            links = {os.readlink(fd) for fd in (proc / "fd").iterdir()}
        except OSError:
            continue
        if any(f"socket:[{inode}]" in links for inode in inodes):
            return (proc / "comm").read_text().strip()
    return ""


def test_serve_puts_pushpin_where_the_service_listens_and_streams_go_through_it(redis_server, tmp_path):
    """Issue 28 (3): with pushpin installed, `python -m service.serve` starts it on the public port (gunicorn
    behind it on loopback) and says so; a follower of a bot game through that port gets it to its end."""
    from clients._sse import parse_stream

    port = free_port()
    environment = python_env(database(redis_server.url, 11))
    environment.pop("HOST", None)
    out = tmp_path / "serve.out"
    process = subprocess.Popen([sys.executable, "-m", "service.serve", "--port", str(port)], cwd=ROOT,
                               env=environment, stdout=out.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: _healthy(port), timeout=60, what="service.serve")
        assert "live streams go through Pushpin" in out.read_text()
        assert listener_command(port) == "condure"  # Pushpin's connection manager holds the public port
        assert listening_addresses(port) == {"0100007F"}
        base = f"http://127.0.0.1:{port}"
        game = requests.post(base + "/v1/games", json={"ruleset": "kingpin", "seats": [
            {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
        messages: list = []
        with requests.get(f"{base}/v1/games/{game['id']}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=30) as response:
            # heartbeats keep the read timeout from ever firing: a stream held short of its end would
            # hang the run, so it is cut after two minutes (and the checks below say what was missing)
            watchdog = threading.Timer(120, response.close)
            watchdog.start()
            try:
                for message in parse_stream(response.iter_content(chunk_size=None)):
                    messages.append(message)
            except (requests.RequestException, AttributeError, ValueError):
                pass
            finally:
                watchdog.cancel()
        assert messages and messages[-1].event == "end", f"no end after {len(messages)} messages"
        ids = [int(m.id) for m in messages if m.event == "message"]
        assert ids == list(range(1, ids[-1] + 1)) and messages[-1].event == "end"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    assert listener_command(port) == ""  # Pushpin and its services stopped with it


def test_serve_without_pushpin_says_streams_use_the_hub(redis_server, tmp_path):
    port = free_port()
    environment = python_env(database(redis_server.url, 11))
    environment.pop("HOST", None)
    out = tmp_path / "serve.out"
    process = subprocess.Popen([sys.executable, "-m", "service.serve", "--port", str(port), "--no-pushpin"],
                               cwd=ROOT, env=environment, stdout=out.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: _healthy(port), timeout=60, what="service.serve")
        assert "live streams use the built-in hub" in out.read_text()
        assert listener_command(port).startswith(("gunicorn", "python"))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
