"""The runner's contract (tests/events/test_runner.py) on a 3-master Redis Cluster."""
from tests.events.test_runner import *  # noqa: F401,F403
