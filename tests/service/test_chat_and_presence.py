"""Issue 36 items 2 and 3: presence (which seats someone follows live, in every turn state) and chat (a
seats' and a spectators' channel per game, beside its history, on its live stream as `chat` messages)."""
from __future__ import annotations

import json

from events.keys import chat_key
from service.grip import hold_channels, hold_headers
from service.sse import chat_message
from tests.service.conftest import bearer
from tests.service.test_api import play_to_the_end, problem


def say(client, game_id: str, text: str, token: str | None = None, **extra):
    return client.post(f"/v1/games/{game_id}/chat", json={"text": text, **extra},
                       headers=bearer(token) if token else {})


def chat_page(client, game_id: str, token: str | None = None, **query):
    return client.get(f"/v1/games/{game_id}/chat", query_string=query, headers=bearer(token) if token else {})


class Stream:
    """A live SSE stream through the app's built-in hub, read message by message."""

    def __init__(self, client, game_id: str, token: str | None = None):
        headers = {"Accept": "text/event-stream", **(bearer(token) if token else {})}
        self.response = client.get(f"/v1/games/{game_id}/events", headers=headers, buffered=False)
        self.chunks, self.text = iter(self.response.response), ""

    def next(self, kind: str) -> dict:
        """The data of the next message of `kind` (`turn`, `chat`, `message`...)."""
        while True:
            blocks = self.text.split("\n\n")
            for n, block in enumerate(blocks[:-1]):
                if block.startswith(f"event: {kind}\n") or (kind == "message" and block.startswith("id: ")):
                    self.text = "\n\n".join(blocks[n + 1:])
                    return json.loads(block.split("data: ", 1)[1])
            self.text = blocks[-1]
            chunk = next(self.chunks)
            self.text += chunk.decode() if isinstance(chunk, bytes) else chunk

    def close(self) -> None:
        self.response.close()


# ------------------------------------------------------------------ presence
def test_presence_names_the_seats_followed_live_now_and_not_spectators(client, race):
    game_id, tokens = race
    assert client.get(f"/v1/games/{game_id}").json["present"] == []
    spectator = Stream(client, game_id)
    assert spectator.next("turn")["present"] == []  # a spectator does not count
    assert client.get(f"/v1/games/{game_id}").json["present"] == []
    seat1 = Stream(client, game_id, tokens[1])
    assert seat1.next("turn")["present"] == [1]  # where the game stands as it opens: its own follower counts
    assert client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["present"] == [1]
    seat1.close()  # its stream ended: it leaves at once (a dropped connection: within a heartbeat)
    spectator.close()
    assert client.get(f"/v1/games/{game_id}").json["present"] == []


def test_a_turn_message_after_a_move_says_who_is_present(client, race):
    game_id, tokens = race
    seat0 = Stream(client, game_id, tokens[0])
    assert seat0.next("turn")["present"] == [0]
    seat1 = Stream(client, game_id, tokens[1])
    seat1.next("turn")
    assert client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[0])).status_code == 200
    assert seat0.next("turn")["present"] == [0, 1]
    seat1.close()
    seat0.close()


def test_presence_is_not_in_the_history(client, race):
    game_id, tokens = race
    seat0 = Stream(client, game_id, tokens[0])
    seat0.next("turn")
    play_to_the_end(client, game_id, tokens)
    seat0.close()
    history = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True)
    assert "present" not in history
    verdict = client.post("/v1/replays", data=history, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"]


def test_a_seat_holds_its_chat_and_presence_channels_through_pushpin_a_spectator_only_its_chat():
    assert hold_channels("g1", 0, "seats") == ["chat:g1:seats", "presence:g1:s0"]
    assert hold_channels("g1", None, "spectators") == ["chat:g1:spectators"]
    headers = hold_headers("game:g1:s0", 7, "/next", 15, 30, hold_channels("g1", 0, "seats"))
    # only the game's channel is chained by version; the others take items as they come
    assert headers["Grip-Channel"] == "game:g1:s0; prev-id=7, chat:g1:seats, presence:g1:s0"


# ------------------------------------------------------------------ chat
def test_seats_and_spectators_each_read_their_own_channel_until_the_end(client, race):
    game_id, tokens = race
    said = say(client, game_id, "I hold the Kilo, honest", tokens[0])
    assert said.status_code == 201, said.json
    assert {k: said.json[k] for k in ("channel", "seat", "text")} == {
        "channel": "seats", "seat": 0, "text": "I hold the Kilo, honest"}
    watched = say(client, game_id, "seat 0 is bluffing", name="Kibitzer")
    assert watched.status_code == 201 and watched.json["seat"] is None and watched.json["name"] == "Kibitzer"
    assert say(client, game_id, "who are you?").json["name"] == "spectator"

    seats = chat_page(client, game_id, tokens[1]).json
    assert seats["channel"] == "seats" and [m["text"] for m in seats["messages"]] == ["I hold the Kilo, honest"]
    spectators = chat_page(client, game_id).json
    assert spectators["channel"] == "spectators"
    assert [m["text"] for m in spectators["messages"]] == ["seat 0 is bluffing", "who are you?"]
    # the spectators never read the seats' channel during the game, nor the seats the spectators' (coaching)
    assert problem(chat_page(client, game_id, channel="seats"), 403)["code"] == "chat-channel-forbidden"
    assert problem(chat_page(client, game_id, tokens[0], channel="spectators"), 403)["param"] == "channel"
    assert problem(client.get(f"/v1/games/{game_id}/chat/export"), 403)["code"] == "game-not-finished"

    play_to_the_end(client, game_id, tokens)
    assert [m["text"] for m in chat_page(client, game_id, channel="seats").json["messages"]] == [
        "I hold the Kilo, honest"]
    assert len(chat_page(client, game_id, tokens[0], channel="spectators").json["messages"]) == 2
    export = client.get(f"/v1/games/{game_id}/chat/export")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in export.get_data(as_text=True).splitlines()]
    assert lines[0] == {"format": "tabletop-cartel-chat/1", "game_id": game_id}
    assert [m["text"] for m in lines[1:]] == ["I hold the Kilo, honest", "seat 0 is bluffing", "who are you?"]


def test_chat_pages_resume_after_the_last_id_read(client, race):
    game_id, tokens = race
    ids = [say(client, game_id, f"line {n}", tokens[n % 2]).json["id"] for n in range(4)]
    first = chat_page(client, game_id, tokens[0], limit=3).json
    assert [m["id"] for m in first["messages"]] == ids[:3] and first["has_more"] and first["next_after"] == ids[2]
    rest = chat_page(client, game_id, tokens[0], after=first["next_after"]).json
    assert [m["text"] for m in rest["messages"]] == ["line 3"] and not rest["has_more"]
    assert [m["seat"] for m in first["messages"]] == [0, 1, 0]


def test_chat_is_kept_beside_the_history_not_in_it(app, client, race, redis_client):
    game_id, tokens = race
    play_to_the_end(client, game_id, tokens)
    before = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True)
    say(client, game_id, "good game", tokens[0])
    say(client, game_id, "well played", name="Fan")
    after = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True)
    assert after == before and "good game" not in after  # the export is byte for byte what it was
    verdict = client.post("/v1/replays", data=after, content_type="application/x-ndjson").json
    assert verdict["valid"] and verdict["complete"]
    assert redis_client.xlen(chat_key(game_id, "seats")) == 1
    assert 0 < redis_client.ttl(chat_key(game_id, "seats")) <= app.config["CHAT_KEEP_SECONDS"]


def test_chat_reaches_its_own_channels_live_followers_only(client, race):
    game_id, tokens = race
    seat1, spectator = Stream(client, game_id, tokens[1]), Stream(client, game_id)
    seat1.next("turn"), spectator.next("turn")
    say(client, game_id, "from the table", tokens[0])
    say(client, game_id, "from the rail", name="Fan")
    heard = seat1.next("chat")
    assert heard["text"] == "from the table" and heard["name"] and heard["seat"] == 0
    assert spectator.next("chat")["text"] == "from the rail"  # the seats' message never reached it
    # a chat message has no SSE id: a reconnect's Last-Event-ID stays the last event's version
    assert chat_message(heard).startswith("event: chat\ndata: ") and "\nid:" not in chat_message(heard)
    client.post(f"/v1/games/{game_id}/commands", json={"type": "Roll"}, headers=bearer(tokens[0]))
    assert seat1.next("message")["version"] >= 1
    spectator.close()  # last opened, first closed: the test client's streams share this thread's request contexts
    seat1.close()


def test_chat_has_a_rate_limit_of_its_own_per_token_and_per_address(app, client, race):
    game_id, tokens = race
    app.config.update(CHAT_PER_MINUTE=2, CHAT_BURST=2)
    assert [say(client, game_id, "hi", tokens[0]).status_code for _ in range(2)] == [201, 201]
    refused = say(client, game_id, "hi again", tokens[0])
    assert problem(refused, 429)["code"] == "chat-rate-limited" and int(refused.headers["Retry-After"]) >= 1
    assert say(client, game_id, "me too", tokens[1]).status_code == 201  # another seat's token: its own limit
    assert [say(client, game_id, "go!").status_code for _ in range(3)] == [201, 201, 429]  # spectators: per address
    assert [m["text"] for m in chat_page(client, game_id, tokens[0]).json["messages"]] == ["hi", "hi", "me too"]
