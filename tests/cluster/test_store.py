"""The event store's contract (tests/events/test_store.py) on a 3-master Redis Cluster:
the same tests, collected again here where `redis_client` is a RedisCluster client."""
from tests.events.test_store import *  # noqa: F401,F403
