"""Real processes for tests: redis-server, gunicorn and RQ workers on loopback."""
from __future__ import annotations

import os
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

from service.serve import find_redis_server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.05, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


class RedisServer:
    """A throwaway redis-server with AOF on, in its own directory."""

    def __init__(self, directory: Path, port: int | None = None, appendfsync: str = "everysec"):
        self.directory = Path(directory)
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = find_redis_server()  # installs it with apt-get on a fresh Debian machine, as `service.serve` does
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "",
             "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self._ping, what=f"redis-server on port {self.port}")

    def _ping(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def python_env(redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    # load tests and concurrency tests send thousands of requests a minute from
    # one address: servers they start have no rate limits unless a test sets them
    env.update({"REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1", "RATE_LIMIT_PER_ADDRESS": "0",
                "RATE_LIMIT_PER_TOKEN": "0"}, **extra)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


class Gunicorn:
    """The real web app under gunicorn on a free port."""

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
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "service/gunicorn_conf.py", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "service.wsgi:app"],
            cwd=Path(__file__).resolve().parents[2], env=python_env(self.redis_url, **self.extra_env),
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        wait_until(self._healthy, timeout=20, what="gunicorn /healthz")

    def _healthy(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited; see {self.log}:\n{self.log.read_text()[-3000:]}")
        try:
            return requests.get(self.url + "/healthz", timeout=1).ok
        except requests.RequestException:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


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

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def running_service(redis_url: str, logs: Path, env: dict | None = None, web_workers: int = 2):
    """gunicorn and one RQ worker as separate processes on `redis_url`; yields the Gunicorn.
    They share a fresh PROMETHEUS_MULTIPROC_DIR, so /metrics shows the worker's metrics too."""
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir(logs)), **(env or {})}
    web = Gunicorn(redis_url, logs / "gunicorn.log", workers=web_workers, extra_env=env)
    worker = Worker(redis_url, logs / "worker.log", extra_env=env)
    web.start()
    worker.start()
    try:
        yield web
    finally:
        worker.stop()
        web.stop()


def metrics_dir(parent: Path) -> Path:
    """A fresh, empty directory for prometheus_client's multiprocess mode."""
    return Path(tempfile.mkdtemp(prefix="metrics-", dir=parent))


def database(redis_url: str, number: int) -> str:
    """The same server, another database (so a module's server keeps its own keys)."""
    return redis_url.rsplit("/", 1)[0] + f"/{number}"
