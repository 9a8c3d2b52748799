"""A throwaway 3-master Redis Cluster on loopback, for the cluster tests.

Three `redis-server --cluster-enabled yes` nodes on free ports, each in its own
directory with its own nodes.conf and AOF, joined with
`redis-cli --cluster create ... --cluster-replicas 0 --cluster-yes`.  RQ needs
a plain Redis beside it (tests/cluster/conftest.py starts one).
"""
from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from service.serve import find_redis_server
from tests.support.processes import bindable, free_port, wait_until


def cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free too, so at most 55535."""
    for _ in range(200):
        port = free_port()
        if port <= 55535 and bindable(port + 10000):
            return port
    for port in range(20000, 30000, 7):
        if bindable(port) and bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


class RedisClusterServer:
    def __init__(self, directory: Path, masters: int = 3):
        self.directory = Path(directory)
        self.ports = [cluster_port() for _ in range(masters)]
        self.processes: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        """What REDIS_URL takes: any one node, and `?cluster=1`."""
        return f"redis://127.0.0.1:{self.ports[0]}/0?cluster=1"

    def start(self) -> None:
        binary = find_redis_server()
        cli = shutil.which("redis-cli") or str(Path(binary).with_name("redis-cli"))
        for port in self.ports:
            node_dir = self.directory / str(port)
            node_dir.mkdir(parents=True, exist_ok=True)
            self.processes.append(subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
                 "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
                 "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--protected-mode", "no"],
                stdout=(node_dir / "redis.log").open("wb"), stderr=subprocess.STDOUT))
        for port in self.ports:
            wait_until(lambda: self._ping(port), what=f"cluster node on port {port}")
        subprocess.run([cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in self.ports),
                        "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        wait_until(self._cluster_ok, timeout=20, what="cluster_state:ok on every node")

    @staticmethod
    def _ping(port: int) -> bool:
        try:
            return redis.Redis(port=port, socket_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def _cluster_ok(self) -> bool:
        try:
            return all(redis.Redis(port=port, socket_timeout=0.5).cluster("info").get("cluster_state") == "ok"
                       for port in self.ports)
        except redis.RedisError:
            return False

    def client(self) -> RedisCluster:
        return RedisCluster(host="127.0.0.1", port=self.ports[0], decode_responses=True)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
