"""Rate limits in Redis: GCRA (events/scripts/gcra.lua) in one atomic call per request.

The HTTP layer (service/ratelimit.py) says which limits apply to a request and
answers 429; this holds the Redis side, so that nothing outside events/ talks
to the store's Redis.  Keys: events/keys.py (`rl:{ratelimit}:...`).

A request that ends in an append (a command) need not pay a round trip of its
own for its limits: it carries them as a `Toll`, which the store takes in the
same atomic script as the append (EventStore.append_with_toll), where the
limiter's keys and the game's may share a script: on a plain Redis, not on
Redis Cluster (`RateLimiter.rides_on_appends`).  A request that ends without
appending takes its toll on its own, through `RateLimiter.take`.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from events.keys import rate_limit_key


@dataclass(frozen=True)
class Limit:
    """One limit that applies to a request."""

    # "address", "token", "player" (the app key acting for one) or "chat" (the chat's own limit: identity
    # "tok:<digest>" or "addr:<ip>")
    kind: str
    identity: str  # the client address, or a digest of the token
    per_minute: int
    burst: int

    @property
    def key(self) -> str:
        return rate_limit_key({"address": "addr", "token": "tok"}.get(self.kind, self.kind), self.identity)

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


class RateLimited(Exception):
    """A toll refused with the append it rode on: nothing was appended."""

    def __init__(self, verdicts: list[Verdict]):
        super().__init__("over a rate limit")
        self.verdicts = verdicts


@dataclass
class Toll:
    """A request's limits, taken once: with its append (one round trip) or, if the request
    never appends, on their own.  `verdicts` is None until they are taken."""

    limits: list[Limit]
    verdicts: list[Verdict] | None = None

    @property
    def taken(self) -> bool:
        return self.verdicts is not None

    @property
    def refused(self) -> bool:
        return any(verdict.refused for verdict in self.verdicts or ())

    def keys(self) -> list[str]:
        return [limit.key for limit in self.limits]

    def arguments(self) -> list[str]:
        """The GCRA script's ARGV for these limits: emission interval and burst capacity (µs) each."""
        args: list[str] = []
        for limit in self.limits:
            args += [repr(limit.interval_us), repr(limit.interval_us * limit.burst)]
        return args

    def record(self, flat: list) -> list[Verdict]:
        """Keep what the GCRA script answered (4 numbers per limit) as this toll's verdicts."""
        self.verdicts = [Verdict(limit, bool(flat[4 * i]), int(flat[4 * i + 1]), int(flat[4 * i + 2]),
                                 int(flat[4 * i + 3])) for i, limit in enumerate(self.limits)]
        return self.verdicts


def burst_of(per_minute: int, burst_seconds: float) -> int:
    """Requests a quiet client may send at once: `burst_seconds` of its rate, at least one."""
    return max(1, int(per_minute * burst_seconds / 60))


class RateLimiter:
    """The GCRA script, registered once (EVALSHA; redis-py reloads it if a restarted Redis forgot it)."""

    def __init__(self, client: Any):
        source = resources.files("events").joinpath("scripts").joinpath("gcra.lua").read_text()
        self._script = client.register_script(source)
        # One script may touch only keys of one slot on Redis Cluster: the limiter's keys
        # (`{ratelimit}`) and a game's (`{<id>}`) do not share one there.
        self.rides_on_appends = not hasattr(client, "get_primaries")

    def acquire(self, limits: list[Limit]) -> list[Verdict]:
        """One atomic call: take a request from every limit, or from none if any refuses."""
        return self.take(Toll(limits))

    def take(self, toll: Toll) -> list[Verdict]:
        """Take a toll on its own (one round trip): a request from every limit, or from none if any refuses."""
        return toll.record(self._script(keys=toll.keys(), args=toll.arguments()))
