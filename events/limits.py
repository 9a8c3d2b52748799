"""Rate limits in Redis: GCRA (events/scripts/gcra.lua) in one atomic call per request.

The HTTP layer (service/ratelimit.py) says which limits apply to a request and
answers 429; this holds the Redis side, so that nothing outside events/ talks
to the store's Redis.  Keys: events/keys.py (`rl:{ratelimit}:...`).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from events.keys import rate_limit_key


@dataclass(frozen=True)
class Limit:
    """One limit that applies to a request."""

    kind: str  # "address" or "token"
    identity: str  # the client address, or a digest of the token
    per_minute: int
    burst: int

    @property
    def key(self) -> str:
        return rate_limit_key("addr" if self.kind == "address" else "tok", self.identity)

    @property
    def interval_us(self) -> float:
        """Microseconds between two requests at the steady rate."""
        return 60_000_000 / self.per_minute


@dataclass(frozen=True)
class Verdict:
    """What the script said about one limit."""

    limit: Limit
    refused: bool
    wait_us: int
    remaining: int
    reset_us: int


def burst_of(per_minute: int, burst_seconds: float) -> int:
    """Requests a quiet client may send at once: `burst_seconds` of its rate, at least one."""
    return max(1, int(per_minute * burst_seconds / 60))


class RateLimiter:
    """The GCRA script, registered once (EVALSHA; redis-py reloads it if a restarted Redis forgot it)."""

    def __init__(self, client: Any):
        source = resources.files("events").joinpath("scripts").joinpath("gcra.lua").read_text()
        self._script = client.register_script(source)

    def acquire(self, limits: list[Limit]) -> list[Verdict]:
        """One atomic call: take a request from every limit, or from none if any refuses."""
        args: list[str] = []
        for limit in limits:
            args += [repr(limit.interval_us), repr(limit.interval_us * limit.burst)]
        flat = self._script(keys=[limit.key for limit in limits], args=args)
        return [Verdict(limit, bool(flat[4 * i]), int(flat[4 * i + 1]), int(flat[4 * i + 2]), int(flat[4 * i + 3]))
                for i, limit in enumerate(limits)]
