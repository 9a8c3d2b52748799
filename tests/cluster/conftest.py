"""Fixtures for the Redis Cluster tests: a 3-master cluster for the events and a
plain redis-server for RQ's queues (RQ does not support Redis Cluster).

`redis_server` and `redis_client` are overridden here, so the store and runner
contracts of tests/events, imported into this package, run unchanged against
the cluster (tests/cluster/test_store.py, test_runner.py)."""
from __future__ import annotations

import pytest

from tests.support.cluster import RedisClusterServer
from tests.support.processes import RedisServer


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    cluster = RedisClusterServer(tmp_path_factory.mktemp("cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def queue_redis(tmp_path_factory):
    """The plain Redis for RQ beside the cluster."""
    server = RedisServer(tmp_path_factory.mktemp("queue-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server(redis_cluster):
    return redis_cluster


@pytest.fixture
def redis_client(redis_cluster):
    client = redis_cluster.client()
    client.flushall()
    yield client
    client.close()
