"""Who the caller is as a player (issue 37): a player key, or the operator's app key acting for a player.

A player key is `cp_` and 256 random bits (url-safe base64), shown once and stored as its SHA-256, as
seat tokens are (service/auth.py); the prefix tells it from a seat token, so a claim sent with one binds
the seat and a seat token sent anywhere keeps meaning what it meant.  A platform that keeps its own
accounts sets PLATFORM_APP_KEY and acts for its users server to server: `Authorization: Bearer <app
key>` and `X-Cartel-Player: <external_id>`, the id the platform gave the player when it created them.
"""
from __future__ import annotations

import hmac
import secrets

from flask import current_app, request

from events.players import EXTERNAL_ID, EXTERNAL_ID_RULES, Player
from service.auth import bearer_token, hash_token
from service.errors import Problem
from service.wiring import engine

PLAYER_KEY_PREFIX = "cp_"
PLAYER_HEADER = "X-Cartel-Player"
APP_KEY_MIN = 32
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="tabletop-cartel"'}


def new_player_key() -> str:
    return PLAYER_KEY_PREFIX + secrets.token_urlsafe(32)


def is_player_key(token: str) -> bool:
    return token.startswith(PLAYER_KEY_PREFIX)


def is_app_key(token: str | None) -> bool:
    """The token is the operator's app key (compared as digests, in constant time)."""
    configured = current_app.config.get("PLATFORM_APP_KEY")
    return bool(configured and token) and hmac.compare_digest(hash_token(token), hash_token(configured))


def check_app_key(value: str | None) -> None:
    """Refuse, at start-up, an app key short enough to guess."""
    if value and len(value) < APP_KEY_MIN:
        raise ValueError(f"PLATFORM_APP_KEY must be at least {APP_KEY_MIN} characters (e.g. python3 -c "
                         "'import secrets; print(secrets.token_urlsafe(32))')")


def acting_player(required: bool = True) -> Player | None:
    """The player the request acts for: its player key's, or (app key) the one X-Cartel-Player names.
    None when the request carries no player credential and none is `required`; 401 for a player key that
    holds no player (unknown, or rotated away), 400 for an app key without X-Cartel-Player."""
    if required and not request.headers.get("Authorization"):
        raise Problem(401, "token-required", "send your player key ('cp_...', from POST /v1/players) as "
                      "'Authorization: Bearer <key>', or the app key with X-Cartel-Player", headers=CHALLENGE)
    token = bearer_token(required=required)
    if token is None:
        return None
    players = engine().store.players
    if is_app_key(token):
        external_id = request.headers.get(PLAYER_HEADER)
        if not external_id or not EXTERNAL_ID.fullmatch(external_id):
            raise Problem(400, "player-header-required", f"with the app key, name the player you act for in "
                          f"{PLAYER_HEADER}: their external_id ({EXTERNAL_ID_RULES})", param=PLAYER_HEADER)
        player = players.by_external_id(external_id)
        if player is None:
            raise Problem(401, "player-key-invalid", f"no player has the external_id in {PLAYER_HEADER}: create "
                          "them first (POST /v1/players with `external_id`)", headers=CHALLENGE)
        return player
    if not is_player_key(token):
        if required:
            raise Problem(401, "player-key-invalid", "send your player key (it starts with 'cp_') as "
                          "'Authorization: Bearer <key>'", headers=CHALLENGE)
        return None
    player = players.by_key(hash_token(token))
    if player is None:
        raise Problem(401, "player-key-invalid", "this player key holds no player: it is unknown or was "
                      "rotated (POST /v1/players/me/key gives a new one and voids the old)", headers=CHALLENGE)
    return player


def quietly_acting_player() -> Player | None:
    """acting_player, or None for any credential that names no player (the private-table gate: it must not
    answer differently for a bad key)."""
    try:
        return acting_player(required=False)
    except Problem:
        return None
