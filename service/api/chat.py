"""A game's chat: one channel for its seats, one for its spectators (issue 36 item 3).

Kept beside the game (events/chat.py), never in its event history: exporting and verifying a history
are unchanged by it.  Who reads and writes what, while the game is on:

| caller | writes | reads |
|---|---|---|
| a seat (its token) | `seats` | `seats` |
| a spectator (no token) | `spectators` | `spectators` |

Seats do not read the spectators' channel during the game (spectators see the board and could coach a
seat), and spectators never read the seats' (a player may say what their hand holds).  Once the game
has ended, everyone reads both, as the history is public then; and the chat goes on after the end
(a "good game"), until the game is archived.  The live stream carries the reader's own channel as
`chat` messages (service/sse.py, service/grip.py).
"""
from __future__ import annotations

import hashlib

from flask import Response, current_app, request
from flask.views import MethodView

from events.chat import export_lines
from events.limits import Limit
from service.api.base import PER_READER, PER_READER_HEADERS, PUBLIC, Blueprint, load_for_reader
from service.errors import Problem
from service.ratelimit import whole_seconds
from service.schemas import ChatMessageSchema, ChatPageSchema, ChatPostSchema, ChatQuerySchema
from service.wiring import engine

blp = Blueprint("chat", __name__, url_prefix="/v1/games", description="A game's chat: seats and spectators")
SPECTATOR_NAME = "spectator"


def own_channel(seat: int | None) -> str:
    """The channel a reader writes to, and the one its live stream carries."""
    return "spectators" if seat is None else "seats"


def may_read(seat: int | None, channel: str, ended: bool) -> bool:
    """Its own channel always; the other once the game has ended (see the module's table)."""
    return ended or channel == own_channel(seat)


def take_chat_limit(seat: int | None) -> None:
    """The chat's own rate limit (CHAT_PER_MINUTE, burst CHAT_BURST): per seat token, per address for a
    spectator; beside the general limits every request pays.  Over it: 429 chat-rate-limited."""
    config = current_app.config
    per_minute = int(config["CHAT_PER_MINUTE"])
    if per_minute <= 0:
        return
    header = request.headers.get("Authorization", "")
    who = (f"tok:{hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]}" if seat is not None
           else f"addr:{request.remote_addr}")
    verdict, = engine().limiter.acquire([Limit("chat", who, per_minute, max(1, int(config["CHAT_BURST"])))])
    if verdict.refused:
        retry = whole_seconds(verdict.wait_us)
        raise Problem(429, "chat-rate-limited", f"more than {per_minute} chat messages a minute from this "
                      f"{'seat' if seat is not None else 'address'}; the next in {retry} s",
                      headers={"Retry-After": str(retry)})


@blp.route("/<string:game_id>/chat")
class Chat(MethodView):
    @blp.arguments(ChatQuerySchema, location="query")
    @blp.response(200, ChatPageSchema, headers=PER_READER_HEADERS)
    @blp.problems({401: "Malformed Authorization header", 403: "The token holds no seat in this game, or the "
                   "channel is not the caller's while the game is on (chat-channel-forbidden)",
                   404: "No such game"})
    @blp.doc(operationId="readChat", security=[{}, {"seatToken": []}])
    def get(self, query, game_id):
        """The chat, a page of one channel after `after`: the seats' with a seat token, the spectators'
        without; the other channel once the game has ended."""
        game, seat = load_for_reader(game_id)
        channel = query.get("channel") or own_channel(seat)
        if not may_read(seat, channel, game.ended):
            who = "a spectator" if seat is None else "a seat"
            raise Problem(403, "chat-channel-forbidden", f"while the game is on, {who} reads the "
                          f"{own_channel(seat)}' channel only; both are open once the game has ended", param="channel")
        page = engine().store.chat.page(game_id, channel, query["after"], query["limit"] + 1)
        messages = page[:query["limit"]]
        return {"channel": channel, "messages": messages,
                "next_after": messages[-1]["id"] if messages else query["after"],
                "has_more": len(page) > query["limit"]}, 200, PER_READER

    @blp.arguments(ChatPostSchema)
    @blp.response(201, ChatMessageSchema)
    @blp.problems({400: "A malformed message: `param` names the field (text over CHAT_MAX characters, blank, "
                        "with control or format characters; a `name` from a seat)",
                   401: "Malformed Authorization header", 403: "The token holds no seat in this game",
                   404: "No such game", 409: "The game is archived (game-archived)",
                   413: "Body over the size limit", 415: "Body not application/json"})
    @blp.doc(operationId="postChat", security=[{}, {"seatToken": []}])
    def post(self, said, game_id):
        """Say something: with a seat token on the seats' channel (under the seat's name), without one on the
        spectators' (under `name`).  Delivered to the channel's live followers as a `chat` message."""
        game, seat = load_for_reader(game_id)
        if game.archived:
            raise Problem(409, "game-archived", "the game is archived: its chat is closed (read it with GET "
                          f"/v1/games/{game_id}/chat)")
        if seat is not None and "name" in said:
            raise Problem(400, "malformed-request", "a seat speaks under its seat's name: send no `name`",
                          param="name")
        take_chat_limit(seat)
        channel = own_channel(seat)
        name = game.names(seat) if seat is not None else said.get("name", SPECTATOR_NAME)
        message = engine().store.chat.post(game_id, channel, seat, name, said["text"],
                                           current_app.config["CHAT_KEEP_SECONDS"])
        push = engine().push
        if push:  # the hub's followers read it from Redis; Pushpin's are sent it
            try:
                push.publisher.publish_chat(game_id, channel, message)
            except ConnectionError as error:  # the message is kept: the page has it
                current_app.logger.warning("chat %s of %s not published: %s", message["id"], game_id, error)
        return message, 201


@blp.route("/<string:game_id>/chat/export")
class ChatExport(MethodView):
    @blp.doc(operationId="exportChat", security=PUBLIC, responses={"200": {
        "description": "JSON Lines: a header ({format, game_id}), then every message kept of both channels in the "
                       "order they were said (each a ChatMessage)",
        "content": {"application/x-ndjson": {"schema": {"type": "string", "format": "binary"}}}}})
    @blp.problems({403: "The game has not ended: the seats' channel is theirs until then", 404: "No such game"})
    def get(self, game_id):
        """Export an ended game's chat, both channels, beside its history (not part of it: verification
        neither reads nor needs it)."""
        game = engine().runner.load(game_id)
        if not game.ended:
            raise Problem(403, "game-not-finished", "the chat is exported once the game has ended: until then the "
                          "seats' channel is the seats' alone")
        lines = export_lines(game_id, engine().store.chat.everything(game_id))
        return Response(list(lines), mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{game_id}.chat.jsonl"'})
