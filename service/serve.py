"""Run the whole service locally with nothing to configure: `python -m service.serve`.

Starts a redis-server (unless REDIS_URL names one), one RQ worker and gunicorn,
and stops them all on Ctrl-C.  It listens on 127.0.0.1 only, so a game server
started to try it out is not open to the network; `--host 0.0.0.0` (or
HOST=0.0.0.0) listens on every interface.  Production runs the same pieces separately
(see Procfile and Dockerfile).
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def find_redis_server() -> str:
    """redis-server's path; installs it with apt-get when we are root on Debian/Ubuntu."""
    binary = shutil.which("redis-server")
    if binary:
        return binary
    if shutil.which("apt-get") and os.geteuid() == 0:
        print("redis-server not found: installing it with apt-get ...", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "redis-server"], check=True)
        binary = shutil.which("redis-server")
        if binary:
            return binary
    sys.exit("redis-server is not installed. Install it (Debian/Ubuntu: sudo apt-get install -y redis-server; "
             "macOS: brew install redis), or set REDIS_URL to a running Redis, then run this again.")


def start_redis(data_dir: Path, port: int) -> subprocess.Popen:
    data_dir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen([find_redis_server(), "--port", str(port), "--bind", "127.0.0.1",
                                "--dir", str(data_dir), "--appendonly", "yes", "--appendfsync", "everysec"])
    for _ in range(100):
        if not port_free(port):
            return process
        time.sleep(0.05)
    sys.exit(f"redis-server did not start on port {port}")


def bind_address(host: str, port: int) -> str:
    """gunicorn's --bind for host and port (an IPv6 address goes in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run Redis (unless REDIS_URL is set), a worker and the web server.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="address to listen on (default: $HOST or 127.0.0.1, this machine only; "
                             "0.0.0.0 listens on every interface)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)), help="HTTP port (8000)")
    parser.add_argument("--redis-port", type=int, default=6390, help="port for the local redis-server (6390)")
    parser.add_argument("--data", type=Path, default=ROOT / "var" / "redis", help="where the local Redis keeps its AOF")
    parser.add_argument("--workers", type=int, default=1, help="how many RQ worker processes (1)")
    args = parser.parse_args(argv)

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    children: list[subprocess.Popen] = []
    redis_child: subprocess.Popen | None = None
    if not env.get("REDIS_URL"):
        if not port_free(args.redis_port):
            sys.exit(f"port {args.redis_port} is taken: pass --redis-port, or set REDIS_URL to use that Redis")
        redis_child = start_redis(args.data, args.redis_port)
        children.append(redis_child)
        env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    if not env.get("ARCHIVE_URL"):  # archived games beside the local Redis's data (events/archive.py)
        env.setdefault("ARCHIVE_DIR", str(args.data.parent / "archive"))
    metrics_dir = None
    if not env.get("PROMETHEUS_MULTIPROC_DIR"):
        # one prometheus_client multiprocess directory for gunicorn and the workers,
        # so that this node's /metrics shows the workers' job lag too (service/metrics.py)
        metrics_dir = tempfile.mkdtemp(prefix="cartel-metrics-")
        env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    for _ in range(args.workers):
        children.append(subprocess.Popen([sys.executable, "-m", "service.worker"], cwd=ROOT, env=env))
    config = str(ROOT / "service" / "gunicorn_conf.py")
    children.append(subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", config,
                                      "--bind", bind_address(args.host, args.port), "service.wsgi:app"],
                                     cwd=ROOT, env=env))
    print(f"Tabletop Cartel on http://{args.host}:{args.port}  (Redis: {env['REDIS_URL']}; Ctrl-C stops everything)",
          flush=True)

    def stop(*_):
        # web and workers first, Redis last: they finish what they were doing while it is still there
        others = [child for child in children if child is not redis_child]
        for batch in (others, [redis_child] if redis_child else []):
            for child in batch:
                if child.poll() is None:
                    child.terminate()
            for child in batch:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while all(child.poll() is None for child in children):
        time.sleep(0.5)
    print("a child process exited; stopping the rest", file=sys.stderr)
    stop()


if __name__ == "__main__":
    main()
