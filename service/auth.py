"""Seat tokens: 256 random bits, shown once, stored as SHA-256, compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from flask import request

from service.errors import Problem

# RFC 6750's b64token: what a bearer token may look like at all.  Ours are url-safe
# base64 (43 characters); anything else (a space inside, a quote...) is malformed: 401.
BEARER_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,512}=*")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer_token(required: bool) -> str | None:
    """The Bearer token of the request; 401 when required and absent or malformed."""
    header = request.headers.get("Authorization")
    if not header:
        if required:
            raise Problem(401, "token-required", "send your seat token as 'Authorization: Bearer <token>'",
                          headers={"WWW-Authenticate": 'Bearer realm="tabletop-cartel"'})
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not BEARER_TOKEN.fullmatch(token.strip()):
        raise Problem(401, "token-malformed", "the Authorization header must be 'Bearer <token>'",
                      headers={"WWW-Authenticate": 'Bearer realm="tabletop-cartel", error="invalid_request"'})
    return token.strip()


def seat_of(meta: dict[str, str], token: str) -> int:
    """The seat this token holds in the game whose meta is given; 403 if none."""
    digest = hash_token(token)
    seat = None
    for name, stored in meta.items():
        # compare against every seat so timing does not say which seat matched
        if name.startswith("tok:") and hmac.compare_digest(stored, digest):
            seat = int(name[4:])
    if seat is None:
        raise Problem(403, "token-not-for-this-game", "this token does not hold a seat in this game")
    return seat
