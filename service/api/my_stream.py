"""My stream (issue 37 item 2): `GET /v1/players/me/stream`, one SSE stream of what concerns a player.

Each message is a note of the player's feed (events/feeds.py): its SSE `event` the note's kind, its `id` the
feed's entry id (so `Last-Event-ID` resumes exactly), its data the note.  Heartbeat comments keep idle proxies
from closing it, and the server ends it after SSE_MAX_SECONDS (the client reconnects with Last-Event-ID), as
the game streams.  With Pushpin in front (GRIP_KEY), the answer is the catch-up and a hold on the channel
`player:<id>`, to which every note is published as it is appended (service/grip.py); its next link names
the player by a proof under GRIP_KEY, never by their key.
"""
from __future__ import annotations

import hashlib
import hmac
import threading
import time
from typing import Iterator
from urllib.parse import quote

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from events.feeds import ENTRY_ID, Feeds
from events.store import FOLLOW_MAX_BLOCK_MS
from service.api.base import PER_READER, PER_READER_HEADERS, Blueprint
from service.api.players import AS_PLAYER, PLAYER_PROBLEMS
from service.challenge_schemas import MyStreamQuerySchema
from service.errors import Problem
from service.grip import (
    PROOF_PREFIX,
    RETRY,
    Push,
    feed_channel,
    hold_headers,
    last_id_text,
    link_seconds,
    signed_by_pushpin,
)
from service.identity import acting_player
from service.sse import note_message
from service.wiring import engine

blp = Blueprint("my_stream", __name__, url_prefix="/v1", description="A player's stream of what concerns them")


def player_proof(key: bytes, player_id: str) -> str:
    mac = hmac.new(key, feed_channel(player_id).encode(), hashlib.sha256).hexdigest()[:32]
    return f"{PROOF_PREFIX}{player_id}.{mac}"


def proven_player(key: bytes, proof: str) -> str | None:
    """The player a next link's proof names (None: not a proof of this key)."""
    player_id = proof[len(PROOF_PREFIX):].partition(".")[0] if proof.startswith(PROOF_PREFIX) else ""
    return player_id if player_id and hmac.compare_digest(proof, player_proof(key, player_id)) else None


def resume_id(query: dict, feeds: Feeds, player_id: str) -> str:
    """Where the stream starts: after Last-Event-ID, else `after`, else after the feed's latest note."""
    header = (request.headers.get("Last-Event-ID") or "").strip()
    if header and not ENTRY_ID.fullmatch(header):
        raise Problem(400, "malformed-last-event-id", "Last-Event-ID must be the id of a message of this stream "
                      "(an entry id such as 1700000000000-0)", param="Last-Event-ID")
    return header or query.get("after") or feeds.last_id(player_id)


class Followers:
    """This process's followers of players' streams: each holds a connection of the follower client's pool
    while it blocks (XREAD BLOCK), so they are counted and capped below that pool (a full node sheds new ones
    with 503 too-many-followers, as the game streams do at SSE_MAX_FOLLOWERS)."""

    def __init__(self) -> None:
        self.count, self._lock = 0, threading.Lock()

    def enter(self, limit: int) -> None:
        with self._lock:
            if self.count >= limit:
                raise Problem(503, "too-many-followers", f"this server process follows {limit} players' streams, "
                              "its limit; retry shortly (another node may have room)", headers={"Retry-After": "5"})
            self.count += 1

    def leave(self) -> None:
        with self._lock:
            self.count -= 1

    def counted(self, stream: Iterator[str]) -> Iterator[str]:
        """`stream`, counted until it is closed (werkzeug closes a response's body, sent or not)."""
        return _Counted(self, stream)


class _Counted:
    def __init__(self, followers: Followers, stream: Iterator[str]):
        self.followers, self.stream, self.closed = followers, stream, False

    def __iter__(self) -> _Counted:
        return self

    def __next__(self) -> str:
        return next(self.stream)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.stream.close()
            self.followers.leave()


FOLLOWERS = Followers()


def follow_feed(feeds: Feeds, follower, player_id: str, after: str, max_seconds: float,
                heartbeat_seconds: float) -> Iterator[str]:
    """Every note after `after`, then the new ones as they are appended, until `max_seconds` pass."""
    yield RETRY
    stop_at = time.monotonic() + max_seconds
    while (remaining := stop_at - time.monotonic()) > 0:
        block = int(min(heartbeat_seconds, remaining) * 1000)
        notes = feeds.wait(follower, player_id, after, min(block, FOLLOW_MAX_BLOCK_MS))
        for note in notes:
            after = note.id
            yield note_message(note)
        if not notes:
            yield ": heartbeat\n\n"


@blp.route("/players/me/stream")
class MyStream(MethodView):
    @blp.arguments(MyStreamQuerySchema, location="query")
    @blp.response(200, headers=PER_READER_HEADERS, description=(
        "Server-Sent Events: each message's SSE `event` is the note's kind, its `id` the entry id to resume "
        "from, its `data` JSON: `game_started` {game_id, ruleset, seat}; `your_turn` {game_id, version, seat} "
        "(a seat of yours became awaited); `game_finished` {game_id, version, seat, status, outcome}; "
        "`rematch_offer` {game_id, seat (who asked), your_seat}; `challenge` {challenge, from, ruleset, seats, "
        "options, clock, expires_at}; `challenge_accepted` {challenge, game_id, ruleset, seat}; "
        "`challenge_declined` {challenge, by}"), content_type="text/event-stream")
    @blp.problems({**PLAYER_PROBLEMS, 400: "Malformed Last-Event-ID or `after`, or the app key without "
                                            "X-Cartel-Player"})
    @blp.doc(operationId="followMyStream", security=AS_PLAYER, parameters=[
        {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"},
         "description": "The id of the last message read: the stream resumes after it"}])
    def get(self, query):
        """Follow what concerns you across games: your games starting, your turns, their ends, rematch offers and
        challenges.  Lines starting with `:` are heartbeats; the server closes the stream after SSE_MAX_SECONDS
        (reconnect with Last-Event-ID).  A feed keeps your last 500 notes."""
        push, config, feeds = engine().push, current_app.config, engine().store.feeds
        if push and signed_by_pushpin(request.headers.get("Grip-Sig"), push.key):
            return through_pushpin(push, query, feeds)
        player = acting_player()
        after = resume_id(query, feeds, player.id)
        FOLLOWERS.enter(min(config["SSE_MAX_FOLLOWERS"], config["MY_STREAM_MAX_FOLLOWERS"]))
        generator = FOLLOWERS.counted(follow_feed(feeds, engine().store.follower, player.id, after,
                                                  config["SSE_MAX_SECONDS"], config["SSE_HEARTBEAT_SECONDS"]))
        return Response(stream_with_context(generator), mimetype="text/event-stream",
                        headers={**PER_READER, "X-Accel-Buffering": "no"})


def through_pushpin(push: Push, query: dict, feeds: Feeds) -> Response:
    """The catch-up and a hold on the player's channel; Pushpin's next link (after a gap) names the player by
    proof and the last id it sent by Grip-Last."""
    proof = query.get("ticket") or ""
    if proof:
        player_id = proven_player(push.key, proof)
        if player_id is None:
            raise Problem(401, "ticket-invalid", "this stream's next-link proof is not this server's")
    else:
        player_id = acting_player().id
    resumed = last_id_text(request.headers.get("Grip-Last"), feed_channel(player_id))
    resumed = resumed if resumed and ENTRY_ID.fullmatch(resumed) else None
    after = resumed or resume_id(query, feeds, player_id)
    notes = feeds.read(player_id, after, count=500)
    opening = "Grip-Last" not in request.headers
    body = (RETRY if opening else "") + "".join(note_message(n) for n in notes)
    sent = notes[-1].id if notes else after
    link = f"/v1/players/me/stream?ticket={quote(player_proof(push.key, player_id))}"
    hold = hold_headers(feed_channel(player_id), sent, link, current_app.config["SSE_HEARTBEAT_SECONDS"],
                        link_seconds(current_app.config["GRIP_RECOVER_SECONDS"], opening))
    return Response(body, mimetype="text/event-stream", headers={**PER_READER, "X-Accel-Buffering": "no", **hold})
