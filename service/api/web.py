"""The reference web frontend (clients/web/): static files served at `/`.

The page is a client like any other: it reaches the service only through the public HTTP API
(design.md, layers), so this blueprint serves files and nothing else.  It is a plain Flask
blueprint, not part of the API's OpenAPI description."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

# clients/ is installed beside service/ (a checkout, an editable install, a wheel: package-data)
WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web"

# Only this origin's scripts, styles and API; no inline script, no frames: a page that holds seat
# tokens in its storage must not run anything else.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
                           "base-uri 'none'; frame-ancestors 'none'; form-action 'self'")

blp = Blueprint("web", __name__)


def static(name: str) -> Response:
    response = send_from_directory(WEB_ROOT, name, max_age=0)  # revalidated by ETag: a new release shows at once
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blp.get("/")
def index() -> Response:
    """The lobby, game and replay pages (one document; the hash picks the page)."""
    return static("index.html")


@blp.get("/web/<path:name>")
def asset(name: str) -> Response:
    """Scripts, styles and images of the page (send_from_directory refuses paths out of WEB_ROOT)."""
    return static(name)
