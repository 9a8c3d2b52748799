"""Cross-origin access for browser frontends (flask-cors).

Seats authenticate with a bearer token in a header, never a cookie, so any
origin may be allowed without exposing a user's session to another site:
CORS_ORIGINS defaults to `*`; set it to a comma-separated list of origins to
restrict which pages may call the API.  Preflight allows the headers a command
needs (Authorization, If-Match, Idempotency-Key, ...), and the response headers
a page must read are exposed.
"""
from __future__ import annotations

from flask import Flask
from flask_cors import CORS

# X-Cartel-Invitation: a page that follows an invitation; X-Cartel-Player is not here: it goes with the app key,
# which belongs on a platform's server, never in a page
ALLOWED_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID",
                   "Prefer", "X-Cartel-Invitation"]
EXPOSED_HEADERS = ["ETag", "Location", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
                   "RateLimit-Policy", "Preference-Applied"]
PREFLIGHT_MAX_AGE = 600  # seconds a browser may cache a preflight answer


def allowed_origins(setting: str | None) -> str | list[str]:
    """`*`, or the listed origins."""
    origins = [o.strip() for o in (setting or "*").split(",") if o.strip()]
    return "*" if origins in ([], ["*"]) else origins


def install(app: Flask) -> None:
    CORS(app, origins=allowed_origins(app.config.get("CORS_ORIGINS")), allow_headers=ALLOWED_HEADERS,
         expose_headers=EXPOSED_HEADERS, methods=["GET", "POST", "OPTIONS"], max_age=PREFLIGHT_MAX_AGE,
         supports_credentials=False)
