"""Rate limits per client address and per seat token or player key (per player, for the app key acting for
one: RATE_LIMIT_PER_PLAYER): GCRA in one Lua call to Redis.

Each limit is a steady rate (RATE_LIMIT_PER_ADDRESS / RATE_LIMIT_PER_TOKEN
requests a minute, 0 = off) plus a burst: a client that has been quiet may send
RATE_LIMIT_BURST_SECONDS' worth of its rate at once.  Unlike fixed windows, a
client over its rate is refused only until its next request is due (one
interval: 50 ms at 1,200 a minute), never until a window ends.

Over a limit a request gets 429 problem+json with `Retry-After` (whole seconds,
at least 1); every limited response carries, in one unit (requests), the
tightest limit's `RateLimit-Limit` (its burst: requests it may send at once
when it has been quiet), `RateLimit-Remaining` (requests it may send right now)
and `RateLimit-Reset` (seconds until its burst is full again), plus
`RateLimit-Policy: <burst>;w=<seconds>` (that burst refills over that many
seconds: the steady rate is burst/w a second).  Behind a reverse
proxy set PROXY_FIX_HOPS so that the client's address is the one counted.

A command's limits cost no round trip of their own on a plain Redis: its view
(marked `@limits_ride_on_the_append`) carries them to the runner as a toll,
taken in the same atomic script as the append.  A command that ends without
appending (refused, malformed, a conflict, nothing to append) takes its toll on
its own before it answers, so every request is counted once and an
over-the-limit client gets 429 whatever its request would have got; only the
work done before the answer differs.  On Redis Cluster, where the limiter's and
the game's keys lie in different slots, every request takes its limits first.
"""
from __future__ import annotations

import hashlib
import math
from functools import wraps

from flask import Flask, Response, current_app, g, request

from events.limits import Limit, RateLimited, Toll, Verdict, burst_of
from service.errors import Problem
from service.identity import PLAYER_HEADER, is_app_key
from service.wiring import engine

EXEMPT_PATHS = ("/healthz", "/readyz", "/metrics", "/openapi.json")


def limits_for_request() -> list[Limit]:
    """The limits that apply to this request (none when both are off)."""
    config = current_app.config
    burst_seconds = float(config.get("RATE_LIMIT_BURST_SECONDS", 10))
    limits = []
    per_address = int(config["RATE_LIMIT_PER_ADDRESS"])
    if per_address > 0:
        limits.append(Limit("address", str(request.remote_addr), per_address, burst_of(per_address, burst_seconds)))
    per_token = int(config["RATE_LIMIT_PER_TOKEN"])
    header = request.headers.get("Authorization", "")
    acting_for = request.headers.get(PLAYER_HEADER)
    if acting_for and is_app_key(header[7:].strip()):
        # the app key acts for many players: each of them is limited, not the key they all share
        per_player = int(config["RATE_LIMIT_PER_PLAYER"])
        if per_player > 0:
            digest = hashlib.sha256(acting_for.encode()).hexdigest()[:32]
            limits.append(Limit("player", digest, per_player, burst_of(per_player, burst_seconds)))
    elif per_token > 0 and header.lower().startswith("bearer "):  # a seat token, or a player key: its player
        digest = hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]
        limits.append(Limit("token", digest, per_token, burst_of(per_token, burst_seconds)))
    return limits


def whole_seconds(microseconds: int) -> int:
    """Seconds for a header: rounded up, at least 1 (`Retry-After: 0` would invite a hot loop)."""
    return max(1, math.ceil(microseconds / 1_000_000))


def check_rate_limits() -> None:
    if request.path in EXEMPT_PATHS:
        return
    limits = limits_for_request()
    if not limits:
        return
    limiter = engine().limiter
    view = current_app.view_functions.get(request.endpoint)
    if limiter.rides_on_appends and request.method in getattr(view, "limits_ride_on_the_append", ()):
        g.toll = Toll(limits)  # taken by the view (limits_ride_on_the_append)
        return
    answer(limiter.acquire(limits))


def limits_ride_on_the_append(view):
    """For a MethodView's `decorators`: its POST takes the request's rate limits with its append
    (a Toll handed to the runner as `toll=g.get("toll")`), or on their own if it appends nothing.
    Outermost, so a body refused by the schema is counted too."""
    @wraps(view)
    def tolled(*args, **kwargs):
        toll = g.get("toll")
        if toll is None:  # limits off, taken already (Redis Cluster), or another method
            return view(*args, **kwargs)
        try:
            response = view(*args, **kwargs)
        except RateLimited:  # the append was refused: the toll holds the verdicts
            response = None
        except Exception:
            settle(toll)  # over a limit: 429 instead of this error
            raise
        settle(toll)
        return response

    tolled.limits_ride_on_the_append = ("POST",)
    return tolled


def settle(toll: Toll) -> None:
    """Take a toll the request did not take with an append, then answer as the limits say."""
    if not toll.taken:
        engine().limiter.take(toll)
    answer(toll.verdicts)


def answer(verdicts: list[Verdict]) -> None:
    """Headers for the tightest limit; 429 if any refused."""
    tightest = min(verdicts, key=lambda v: (v.remaining, -v.reset_us))
    limit = tightest.limit
    # one unit for Limit and Remaining (requests, as the IETF RateLimit fields have it): the burst, not the
    # rate a minute, which Remaining can never be compared with
    g.rate_limit = (limit.burst, tightest.remaining, whole_seconds(tightest.reset_us),
                    f"{limit.burst};w={max(1, round(limit.burst * 60 / limit.per_minute))}")
    refused = [v for v in verdicts if v.refused]
    if refused:
        worst = max(refused, key=lambda v: v.wait_us)
        retry = whole_seconds(worst.wait_us)
        raise Problem(429, "rate-limited",
                      f"more than {worst.limit.per_minute} requests a minute from this {worst.limit.kind}; "
                      f"retry in {retry} s", headers={"Retry-After": str(retry)})


def add_rate_limit_headers(response: Response) -> Response:
    limit = g.get("rate_limit")
    if limit:
        response.headers["RateLimit-Limit"] = str(limit[0])
        response.headers["RateLimit-Remaining"] = str(limit[1])
        response.headers["RateLimit-Reset"] = str(limit[2])
        response.headers["RateLimit-Policy"] = limit[3]
    return response


def install(app: Flask) -> None:
    """Check the limits before every request (the Redis side: events/limits.py)."""
    app.before_request(check_rate_limits)
    app.after_request(add_rate_limit_headers)
