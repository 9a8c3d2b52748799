"""Rate limits per client address and per seat token: fixed one-minute windows in Redis.

Over the limit a request gets 429 problem+json with `Retry-After`; every
limited response carries `RateLimit-Limit`, `RateLimit-Remaining` and
`RateLimit-Reset`.  Behind a reverse proxy set PROXY_FIX_HOPS so that the
client's address (X-Forwarded-For) is the one counted, not the proxy's.
"""
from __future__ import annotations

import hashlib
import time

from flask import Flask, current_app, g, request

from service.engine import engine
from service.errors import Problem

WINDOW_SECONDS = 60
EXEMPT_PATHS = ("/healthz", "/readyz", "/metrics", "/openapi.json")


def _counter_keys(window: int) -> list[tuple[str, int]]:
    """(Redis key, limit) for each limit that applies to this request."""
    keys = []
    per_address = current_app.config["RATE_LIMIT_PER_ADDRESS"]
    if per_address:
        keys.append((f"rl:addr:{request.remote_addr}:{window}", per_address))
    per_token = current_app.config["RATE_LIMIT_PER_TOKEN"]
    header = request.headers.get("Authorization", "")
    if per_token and header.lower().startswith("bearer "):
        digest = hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]
        keys.append((f"rl:tok:{digest}:{window}", per_token))
    return keys


def check_rate_limits() -> None:
    if request.path in EXEMPT_PATHS:
        return
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    keys = _counter_keys(window)
    if not keys:
        return
    pipe = engine().events_redis.pipeline(transaction=False)
    for key, _ in keys:
        pipe.incr(key)
        pipe.expire(key, WINDOW_SECONDS * 2)
    counts = pipe.execute()[::2]
    reset = int((window + 1) * WINDOW_SECONDS - now) + 1
    tightest = min((limit - count, limit) for (_, limit), count in zip(keys, counts))
    g.rate_limit = (tightest[1], max(0, tightest[0]), reset)
    for (key, limit), count in zip(keys, counts):
        if count > limit:
            kind = "address" if key.startswith("rl:addr") else "token"
            raise Problem(429, "rate-limited", f"more than {limit} requests a minute from this {kind}; "
                                               f"retry in {reset} s", headers={"Retry-After": str(reset)})


def add_rate_limit_headers(response):
    limit = g.get("rate_limit")
    if limit:
        response.headers["RateLimit-Limit"] = str(limit[0])
        response.headers["RateLimit-Remaining"] = str(limit[1])
        response.headers["RateLimit-Reset"] = str(limit[2])
    return response


def install(app: Flask) -> None:
    app.before_request(check_rate_limits)
    app.after_request(add_rate_limit_headers)
