"""Who may see a table: its visibility (public, unlisted, private) and its invitations (issue 37 item 3).

A game's visibility is recorded in its GameCreated (absent: public, as every game before it) and
projected into its meta.  An unlisted or private table is kept out of the lobby's index
(EventStore.index_game); a private one is answered only to whoever holds a credential for it (service/
api/invitations.py).  An invitation admits to one open seat: the meta keeps the SHA-256 of its token and
when it expires (`inv:<seat>`, events/keys.py), the claim it admits voids it in the same append.

So that no answer tells whether a private table exists, `lookup` costs the same round trip for an id
that names a private table, a public one and none (with the meta when the request brings credentials to
check against it), and the reader checks credentials the same way for a private table and a missing one.
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from events.keys import ARCHIVED_INDEX, invitation_field, meta_key
from events.table import VISIBILITIES as VISIBILITIES  # re-exported: who may see a table


def visibility_of(meta: Mapping[str, str]) -> str:
    """A game's visibility from its meta (or archived row); before visibilities, public."""
    return meta.get("visibility") or "public"


def listed(meta: Mapping[str, str]) -> bool:
    """Whether the lobby lists the game: only public tables are listed."""
    return visibility_of(meta) == "public"


@dataclass(frozen=True)
class Sighting:
    """What one round trip says about a game id: whether a game has it (live or archived), its visibility and,
    when asked for, its meta ({} for none)."""

    exists: bool
    visibility: str
    meta: dict = field(default_factory=dict)


def invitation_value(digest: str, expires_at: int) -> str:
    return f"{digest}:{expires_at}"


def invited_seat(meta: Mapping[str, str], digest: str, now: int) -> int | None:
    """The open seat an unexpired invitation with this digest admits to (None: none).  Every invitation is
    compared, so the time taken does not say which one matched."""
    seat = None
    for name, value in meta.items():
        if not name.startswith("inv:") or not value:
            continue
        stored, _, expires = value.partition(":")
        if hmac.compare_digest(stored, digest) and expires.isdigit() and int(expires) > now:
            seat = int(name[4:])
    return seat


def player_seats(meta: Mapping[str, str], player_id: str) -> list[int]:
    """The seats of the game bound to the player (its table's projection in the meta)."""
    seats = json.loads(meta.get("seats") or "[]")
    return [n for n, spec in enumerate(seats) if spec.get("player") == player_id]


class TableAccess:
    """The store's reads and writes for a table's visibility and invitations."""

    def __init__(self, client: Any):
        self.redis = client

    def lookup(self, game_id: str, with_meta: bool = False) -> Sighting:
        """One round trip, whatever the id names: the live game's visibility (and, `with_meta`, its whole meta),
        else its archived row's."""
        pipe = self.redis.pipeline(transaction=False)
        if with_meta:
            pipe.hgetall(meta_key(game_id))
        else:
            pipe.hmget(meta_key(game_id), "version", "visibility")
        pipe.hget(ARCHIVED_INDEX, game_id)
        fields, row = pipe.execute()
        meta = fields if with_meta else {}
        version, visibility = (fields.get("version"), fields.get("visibility")) if with_meta else fields
        if version is not None:
            return Sighting(True, visibility or "public", meta)
        if row is not None:
            return Sighting(True, visibility_of(json.loads(row)), meta)
        return Sighting(False, "public", meta)

    def invite(self, game_id: str, seat: int, value: str) -> None:
        """Record the open seat's invitation (`invitation_value`): it replaces the seat's earlier one, which
        stops working."""
        self.redis.hset(meta_key(game_id), invitation_field(seat), value)
