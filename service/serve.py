"""Run the whole service locally with nothing to configure: `python -m service.serve`.

Starts a redis-server (unless REDIS_URL names one), one RQ worker, gunicorn and,
when it is installed, Pushpin in front of gunicorn to hold the live streams (service/grip.py;
without it the built-in hub serves them), and stops them all on Ctrl-C.  It listens on 127.0.0.1 only, so a game server
started to try it out is not open to the network; `--host 0.0.0.0` (or
HOST=0.0.0.0) listens on every interface.  Production runs the same pieces separately
(see Procfile and Dockerfile).
"""
from __future__ import annotations

import argparse
import os
import secrets
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


def find_pushpin() -> str | None:
    """pushpin's path; installs it with apt-get when we are root on Debian/Ubuntu; None without it."""
    binary = shutil.which("pushpin")
    if binary or not (shutil.which("apt-get") and os.geteuid() == 0):
        return binary
    print("pushpin not found: installing it with apt-get ...", flush=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "pushpin"], check=False)
    return shutil.which("pushpin")


def kernel_port() -> int:
    """A free loopback port of the kernel's choosing (for the internal listeners)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


PROXY_MAX_OPEN_REQUESTS = 80  # under the 100 of Pushpin's internal queues (write_pushpin_config)


def write_pushpin_config(directory: Path, listen: str, backend: str, key: str, ports: dict[str, int],
                         log_level: int = 1, publish_addr: str = "127.0.0.1") -> Path:
    """pushpin.conf and routes in `directory`: Pushpin listens on `listen` (host:port), passes every
    request to `backend` (host:port, gunicorn), signs them with `key` (GRIP_KEY) and takes publishes on
    publish_addr:ports["publish"] (another address than loopback only on a private network: anyone
    who reaches it can publish to the streams); its other internal sockets on `ports` and in `directory`, so several
    instances on one machine never collide.  `log_level` 1 logs warnings and errors, 2 every request."""
    for sub in ("run", "log"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    (directory / "routes").write_text(f"* {backend}\n")
    conf = directory / "pushpin.conf"
    conf.write_text(f"""[global]
include={internal_config(directory)}
rundir={directory / "run"}
ipc_prefix=pushpin-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port={listen}
logdir={directory / "log"}
log_level={log_level}
client_buffer_size=8192
client_maxconn=50000

[proxy]
routesfile=routes
# requests the proxy works on at once (asking gunicorn, handing a hold to the handler); more wait their
# turn in condure.  Its queues to zurl and to the handler hold 100 messages (built in), and when one
# is full the proxy answers at once: 502 "Error while proxying to origin" or 500 "Accept service
# unavailable".  Unbounded (client_maxconn), a burst of a thousand followers connecting at once got
# hundreds of those.
max_open_requests={PROXY_MAX_OPEN_REQUESTS}
auto_cross_origin=false
# the client's address for the rate limits (PROXY_FIX_HOPS=1): what Pushpin saw, not what it was told
x_forwarded_for=truncate:0,append
sig_iss=pushpin
sig_key={key}
updates_check=off

[handler]
push_in_spec=tcp://127.0.0.1:{ports["push_in"]}
push_in_sub_specs=tcp://127.0.0.1:{ports["push_in_sub"]}
push_in_sub_connect=false
push_in_http_addr={publish_addr}
push_in_http_port={ports["publish"]}
stats_spec=ipc://{{rundir}}/{{ipc_prefix}}stats
command_spec=tcp://127.0.0.1:{ports["command"]}
# deliveries to held streams a second (each message to each follower counts one; over the rate they
# wait their turn) and how many may wait (more are dropped: a follower would miss them).  Pushpin's
# example 2,500/s made a move wait seconds for 5,000 followers (100 moves a round, each to 50):
# the machine's CPU is the limit here, not a rate.
message_rate=100000
message_hwm=1000000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
""")
    return conf


def internal_config(directory: Path) -> str:
    """Pushpin's internal.conf with its zurl (the proxy's HTTP client, to gunicorn) in `directory`:
    Debian's package points it at a system-wide zurl daemon that nothing starts; this instance runs
    its own (the runner's `zurl` service, whose sockets are in the instance's rundir)."""
    for candidate in (Path("/usr/lib/pushpin/internal.conf"), Path("/usr/local/lib/pushpin/internal.conf")):
        if candidate.exists():
            text = candidate.read_text().replace("ipc:///var/run/zurl/zurl-", "ipc://{rundir}/{ipc_prefix}zurl-")
            (directory / "internal.conf").write_text(text)
            return str(directory / "internal.conf")
    return "{libdir}/internal.conf"


PUSHPIN_PORTS = ("push_in", "push_in_sub", "publish", "command")


def start_pushpin(binary: str, directory: Path, listen: str, backend: str, key: str,
                  ports: dict[str, int], log=None, log_level: int = 1,
                  publish_addr: str = "127.0.0.1") -> subprocess.Popen:
    """Pushpin with a generated config (write_pushpin_config), in a session of its own: it runs
    condure, pushpin-proxy and pushpin-handler as its children."""
    conf = write_pushpin_config(directory, listen, backend, key, ports, log_level, publish_addr)
    return subprocess.Popen([binary, "--config", str(conf), "--merge-output"], stdout=log, stderr=log,
                            start_new_session=True)


def pushpin_env(key: str, publish_port: int, others: str = "") -> dict[str, str]:
    """What the web processes and workers need to answer holds and publish (service/grip.py): this
    node's Pushpin, and `others` (GRIP_PUBLISH_URL as given: the other nodes' Pushpins)."""
    urls = [f"http://127.0.0.1:{publish_port}/publish/", *(u.strip() for u in others.split(",") if u.strip())]
    return {"GRIP_KEY": key, "GRIP_PUBLISH_URL": ",".join(dict.fromkeys(urls))}


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
    parser.add_argument("--no-pushpin", action="store_true",
                        help="serve live streams from the built-in hub even when pushpin is installed")
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
    pushpin = None if args.no_pushpin else find_pushpin()
    push_dir = None
    web_bind = bind_address(args.host, args.port)
    if pushpin:  # Pushpin where the service listens, gunicorn behind it on loopback
        push_dir = Path(tempfile.mkdtemp(prefix="cartel-pushpin-"))
        ports = {name: kernel_port() for name in PUSHPIN_PORTS}
        ports["publish"] = int(env.get("GRIP_PUBLISH_PORT") or ports["publish"])  # fixed, for other nodes
        backend = f"127.0.0.1:{kernel_port()}"
        key = env.get("GRIP_KEY") or secrets.token_hex(32)
        env.update(pushpin_env(key, ports["publish"], env.get("GRIP_PUBLISH_URL", "")))
        env.setdefault("PROXY_FIX_HOPS", "1")
        children.append(start_pushpin(pushpin, push_dir, web_bind, backend, key, ports,
                                      publish_addr=env.get("GRIP_PUBLISH_ADDR", "127.0.0.1")))
        web_bind = backend
    for _ in range(args.workers):
        children.append(subprocess.Popen([sys.executable, "-m", "service.worker"], cwd=ROOT, env=env))
    config = str(ROOT / "service" / "gunicorn_conf.py")
    children.append(subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", config,
                                      "--bind", web_bind, "service.wsgi:app"],
                                     cwd=ROOT, env=env))
    print(f"Tabletop Cartel on http://{args.host}:{args.port}  (Redis: {env['REDIS_URL']}; Ctrl-C stops everything)",
          flush=True)
    print("live streams go through Pushpin" if pushpin else "live streams use the built-in hub (a thread per "
          "stream): " + ("--no-pushpin" if args.no_pushpin else "pushpin is not installed"), flush=True)

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
        if push_dir:
            shutil.rmtree(push_dir, ignore_errors=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while all(child.poll() is None for child in children):
        time.sleep(0.5)
    print("a child process exited; stopping the rest", file=sys.stderr)
    stop()


if __name__ == "__main__":
    main()
