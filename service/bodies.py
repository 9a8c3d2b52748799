"""Reading request bodies: size limit (chunked bodies too), media type, strict JSON.

Every JSON body goes through `json_body`, which parses with `events.strictjson`
(bounded depth and integer length, no NaN, no lone surrogates); a body it
refuses is a 400 problem+json, never a RecursionError or ValueError in a view.
"""
from __future__ import annotations

from typing import Any

from flask import request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import RequestEntityTooLarge

from events import strictjson
from service.errors import Problem


def body_bytes() -> bytes:
    """The request body; 413 when it is over `request.max_content_length`.

    Werkzeug checks Content-Length, but a chunked body (no Content-Length) is
    only cut at the limit: reading stops there and the rest is silently left
    unread, so a JSON body over the limit would look truncated (400).  One byte
    past the limit tells the two apart.
    """
    data = request.get_data(cache=True)
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(data) >= limit:
        if request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    return data


def is_json_media_type(mimetype: str | None) -> bool:
    return mimetype == "application/json" or bool(mimetype and mimetype.startswith("application/")
                                                   and mimetype.endswith("+json"))


def require_media_type(*accepted: str) -> None:
    """415 unless the body (if any) is declared as one of `accepted` (any JSON type for "json")."""
    mimetype = request.mimetype
    if not mimetype and not body_bytes():
        return  # no body at all: the schema says whether one was required
    if mimetype in accepted or ("json" in accepted and is_json_media_type(mimetype)):
        return
    wanted = " or ".join("application/json" if a == "json" else a for a in accepted)
    raise Problem(415, "unsupported-media-type",
                  f"send the body as {wanted} (Content-Type was {request.content_type or 'missing'})")


def json_body() -> Any:
    """The body parsed as strict JSON; 415 for another media type, 400 for JSON out of bounds."""
    require_media_type("json")
    data = body_bytes()
    if not data:
        return None
    try:
        return strictjson.loads(data)
    except strictjson.RefusedJSON as error:
        raise Problem(400, "malformed-json", f"the body is not acceptable JSON: {error}") from None


class StrictJSONProvider(DefaultJSONProvider):
    """`request.get_json()` parses as strictly as `json_body` (for any code that calls it)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strictjson.loads(s)
