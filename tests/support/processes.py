"""Real processes for tests: redis-server, gunicorn and RQ workers on loopback."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import redis
import requests

from service.serve import PUSHPIN_PORTS, find_redis_server, pushpin_env, start_pushpin
from tests.support.machine import ensure_command
from tests.support.settings import TEST_ENVIRONMENT

# Ports for the servers tests start.  Not the kernel's pick (bind to port 0): that comes from the
# ephemeral range, which every outgoing connection of a busy test run draws from too, and two
# pytest-xdist workers asking at once may be handed the same just-released port.  Instead each
# process walks its own share of 10000-19999 (below the ephemeral range, and leaving 20000-29999
# for the Redis Cluster nodes' bus ports, port + 10000) from a random start, and hands out a
# port only once, and only while nothing is bound to it.  A clash with another run that
# slips through anyway is caught when the server starts (start() checks the server that answers
# is its own) and retried on another port.
_PORTS = range(10000, 20000)
_handed_out: set[int] = set()
_next_port: list[int] = []


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _my_share() -> range:
    """This process's slice of _PORTS: one per pytest-xdist worker (gw0, gw1, ...), all of it otherwise."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    index = int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0
    size = len(_PORTS) // max(count, 1)
    start = _PORTS.start + (index % max(count, 1)) * size
    return range(start, start + size)


def bindable(port: int) -> bool:
    """Nothing is bound to this loopback port now (a test may start a server on it)."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A loopback port nothing listens on, never handed out before in this process."""
    share = _my_share()
    if _ephemeral_low() <= share.stop:  # an unusual machine: fall back to the kernel's pick
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    if not _next_port:
        _next_port.append(share.start + random.randrange(len(share)))
    for _ in range(len(share)):
        port = _next_port[0]
        _next_port[0] = share.start + (port + 1 - share.start) % len(share)
        if port not in _handed_out and bindable(port):
            _handed_out.add(port)
            return port
    raise RuntimeError(f"no free port left in {share}")


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.05, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


def wait_for_game(load, stall: float = 60.0, interval: float = 0.1, what: str = "the game to finish"):
    """Until `load()` (a game: `.version`, `.status`) is finished, failing only when its version has not moved
    for `stall` seconds. A whole game's length depends on the machine's load; a game that stops moving is
    the failure, not one that moves slowly (a worker shares two cores with a whole suite)."""
    seen, moved = None, time.monotonic()
    while True:
        game = load()
        if game.status == "finished":
            return game
        if game.version != seen:
            seen, moved = game.version, time.monotonic()
        elif time.monotonic() - moved > stall:
            raise TimeoutError(f"waiting for {what}: no move for {stall}s at version {seen} ({game.status})")
        time.sleep(interval)


def run_async(coroutine):
    """asyncio.run in a thread of its own: a test process that has run a browser test keeps Playwright's sync
    API alive (one Chromium a process, tests/e2e/conftest.py), and its event loop counts as running in the
    main thread, where asyncio.run then refuses to start."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class PortTaken(Exception):
    """The server a test started could not listen on its port: another one got there first."""


def stop_all(*servers) -> None:
    """Stop several servers at once: signal every one, then wait for each (a stack stops in the time of
    its slowest part, not the sum of them)."""
    for server in servers:
        server.terminate()
    for server in servers:
        server.wait_stopped()


class RedisServer:
    """A throwaway redis-server with AOF on, in its own directory."""

    def __init__(self, directory: Path, port: int | None = None, appendfsync: str = "everysec"):
        self.directory = Path(directory)
        self._may_move = port is None  # a port of our choosing may change if another server took it first
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = find_redis_server()  # installs it with apt-get on a fresh Debian machine, as `service.serve` does
        for _ in range(5):
            self.process = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
                 "--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "",
                 "--protected-mode", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_until(self._ours_answers, timeout=30, what=f"redis-server on port {self.port}")
                break
            except PortTaken:
                self.kill()
                if not self._may_move:
                    raise
                self.port = free_port()
        else:
            raise RuntimeError("redis-server found every port it tried taken")
        self._may_move = False  # a restart keeps its port: the test's clients know it

    def _ours_answers(self) -> bool:
        """True once this process answers; PortTaken if another server answers on its port, or it exited."""
        if self.process.poll() is not None:
            raise PortTaken(self.port)
        try:
            pid = redis.Redis(port=self.port, socket_timeout=0.5).info("server")["process_id"]
        except redis.RedisError:
            return False
        if pid != self.process.pid:
            raise PortTaken(self.port)
        return True

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def terminate(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()

    def wait_stopped(self) -> None:
        if self.process:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def stop(self) -> None:
        stop_all(self)


def python_env(redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    # load tests and concurrency tests send thousands of requests a minute from
    # one address: servers they start have no rate limits unless a test sets them
    # (and run with the tests' settings: tests/support/settings.py)
    env.update({"REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1", "RATE_LIMIT_PER_ADDRESS": "0",
                "RATE_LIMIT_PER_TOKEN": "0", **TEST_ENVIRONMENT}, **extra)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


class Gunicorn:
    """The real web app under gunicorn on a free port."""

    # A stopping gunicorn waits this long for open requests (a test's SSE streams) before it ends
    # them; the service's own 10 s (service/gunicorn_conf.py) would make every stop of a stack with
    # a stream open take 10 s.
    GRACEFUL_TIMEOUT = 1

    def __init__(self, redis_url: str, log: Path, workers: int = 2, extra_env: dict | None = None):
        self.port = free_port()
        self.log = log
        self.redis_url = redis_url
        self.workers = workers
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        for _ in range(5):
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "service/gunicorn_conf.py",
                 "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", str(self.GRACEFUL_TIMEOUT),
                 "--workers", str(self.workers), "service.wsgi:app"],
                cwd=Path(__file__).resolve().parents[2], env=python_env(self.redis_url, **self.extra_env),
                stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
            try:
                wait_until(self._healthy, timeout=60, what="gunicorn /healthz")
                return
            except PortTaken:
                self.port = free_port()  # gunicorn gave up on a port another server listens on
        raise RuntimeError(f"gunicorn found every port it tried taken; see {self.log}")

    def _healthy(self) -> bool:
        if self.process.poll() is not None:
            log = self.log.read_text()
            if f"Connection in use: ('127.0.0.1', {self.port})" in log:
                raise PortTaken(self.port)
            raise RuntimeError(f"gunicorn exited; see {self.log}:\n{log[-3000:]}")
        # this gunicorn's own line, not just any server answering on the port
        if f"Listening at: {self.url} ({self.process.pid})" not in self.log.read_text():
            return False
        try:
            return requests.get(self.url + "/healthz", timeout=1).ok
        except requests.RequestException:
            return False

    def terminate(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()

    def wait_stopped(self) -> None:
        if self.process:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        stop_all(self)


class Worker:
    """A real RQ worker process (`python -m service.worker`)."""

    def __init__(self, redis_url: str, log: Path, extra_args: tuple[str, ...] = (), extra_env: dict | None = None):
        self.redis_url = redis_url
        self.log = log
        self.extra_args = extra_args
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.worker", *self.extra_args],
            cwd=Path(__file__).resolve().parents[2], env=python_env(self.redis_url, **self.extra_env),
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def terminate(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)

    def wait_stopped(self) -> None:
        if self.process:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def stop(self) -> None:
        stop_all(self)


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie holds no sockets)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Pushpin:
    """A real Pushpin in front of a backend (host:port), with its config and internal sockets in its
    own directory and on free ports (service/serve.py writes the same config for `service.serve`)."""

    def __init__(self, directory: Path, backend: str, key: str = "test-grip-key"):
        self.directory = Path(directory)
        self.backend, self.key = backend, key
        self.port = free_port()
        self.ports = {name: free_port() for name in PUSHPIN_PORTS}
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """GRIP_KEY and GRIP_PUBLISH_URL for the processes behind it."""
        return pushpin_env(self.key, self.ports["publish"])

    def start(self) -> None:
        log = (self.directory / "pushpin.log").open("ab")
        self.process = start_pushpin(ensure_command("pushpin", "pushpin") or "/usr/bin/pushpin", self.directory, f"127.0.0.1:{self.port}", self.backend,
                                     self.key, self.ports, log=log, log_level=2)  # 2: its holds and publishes
        wait_until(self._listening, timeout=30, what=f"pushpin on port {self.port}")
        # /healthz went proxy -> zurl -> gunicorn, but a hold goes proxy -> handler too, over a ZeroMQ
        # socket that connects on its own retry (every 100 ms, later on a loaded machine); until then
        # Pushpin answers a stream 500 "Accept service unavailable" (seen on a test's first stream).
        time.sleep(0.5)

    def _listening(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"pushpin exited; see {self.directory / 'pushpin.log'}")
        if bindable(self.port) or bindable(self.ports["publish"]):
            return False
        try:  # listening is not enough: its parts connect to each other (and to zurl) a moment later
            return requests.get(self.url + "/healthz", timeout=1).ok
        except requests.RequestException:
            return False

    def kill(self) -> None:
        """SIGKILL for Pushpin and its services (condure, zurl, proxy, handler: each in a process group
        of its own, so by the pid files they keep in the rundir)."""
        if self.process and self.process.poll() is None:
            services = [int(f.read_text()) for f in (self.directory / "run").glob("*.pid") if f.read_text().strip()]
            os.killpg(self.process.pid, signal.SIGKILL)
            for pid in services:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.process.wait()
            # The services are not our children (init reaps them): wait until each has died, or a
            # restart straight after finds its ports still bound (condure: "Address already in use",
            # seen once in an hour's soak on a loaded machine).
            wait_until(lambda: not any(_alive(pid) for pid in services), timeout=30, what="pushpin's services gone")

    def terminate(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # Pushpin stops its services, then itself

    def wait_stopped(self) -> None:
        if self.process:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def stop(self) -> None:
        stop_all(self)


@contextmanager
def running_service(redis_url: str, logs: Path, env: dict | None = None, web_workers: int = 2):
    """gunicorn and one RQ worker as separate processes on `redis_url`; yields the Gunicorn.
    They share a fresh PROMETHEUS_MULTIPROC_DIR, so /metrics shows the worker's metrics too."""
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir(logs)), **(env or {})}
    web = Gunicorn(redis_url, logs / "gunicorn.log", workers=web_workers, extra_env=env)
    worker = Worker(redis_url, logs / "worker.log", extra_env=env)
    worker.start()  # it boots while gunicorn does
    try:
        web.start()
        yield web
    finally:
        stop_all(worker, web)


def metrics_dir(parent: Path) -> Path:
    """A fresh, empty directory for prometheus_client's multiprocess mode."""
    return Path(tempfile.mkdtemp(prefix="metrics-", dir=parent))


def database(redis_url: str, number: int) -> str:
    """The same server, another database (so a module's server keeps its own keys)."""
    return redis_url.rsplit("/", 1)[0] + f"/{number}"
