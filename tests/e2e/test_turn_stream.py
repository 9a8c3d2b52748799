"""Issue 25 (2): a stream you can act on.  After each batch of events the SSE stream sends the reader's
turn state (`turn`: version, status, awaiting, clocks and, for a seat, its legal moves with labels),
and its `end` carries the outcome, so a bot plays a whole game on the stream alone."""
from __future__ import annotations

import json
import re
from collections import Counter

import requests

from clients._sse import parse_stream
from clients.sdk import CartelClient, Conflict, SeatSpec

GAME_PATH = re.compile(r"^/v1/games/[^/]+$")


def counting(client: CartelClient) -> Counter:
    """What the client's session asked for: reads of a game document, and 429 answers."""
    seen: Counter = Counter()

    def hook(response: requests.Response, *args, **kwargs) -> None:
        path = requests.utils.urlparse(response.request.url).path
        if response.request.method == "GET" and GAME_PATH.match(path):
            seen["game reads"] += 1
        if response.status_code == 429:
            seen["429"] += 1
        seen[response.request.method] += 1

    client.session.hooks["response"].append(hook)
    return seen


def test_a_druglord_seat_plays_a_whole_game_on_the_stream_alone_with_no_read_and_no_429(live_server):
    with CartelClient(live_server.url, timeout=10) as server:
        game = server.create_game("druglord", [SeatSpec.human("Ana"), SeatSpec.bot("greedy"), SeatSpec.bot("random")],
                                  options={"game_to": 20}, seed="turn-stream")
        me = server.with_token(game.tokens[0])
        seen = counting(me)
        own_turns, events = 0, 0
        for turn in me.turns(game.id):  # as the README's first game does
            events += len(turn.events)
            assert all(event.version <= turn.version for event in turn.events)
            if turn.my_turn:
                own_turns += 1
                assert len(turn.move_labels) == len(turn.legal_moves) > 0
                try:
                    me.send(game.id, turn.legal_moves[-1], expected_version=turn.version)
                except Conflict:  # a simultaneous phase: another seat moved first
                    pass
            elif not turn.overtaken:  # (an overtaken turn's moves were this seat's; its own command came after)
                assert turn.legal_moves == []  # a seat is never told moves it may not send
        assert turn.finished and turn.outcome and "winners" in turn.outcome
        assert own_turns > 5 and events > 50
        print(f"druglord over the stream: {own_turns} own turns, {events} events, {dict(seen)}")
        assert seen["game reads"] == 0 and seen["429"] == 0, seen
        assert seen["POST"] >= own_turns - seen["409"]


def test_a_spectator_is_sent_whose_turn_it_is_but_no_moves_and_the_end_carries_the_outcome(live_server):
    with CartelClient(live_server.url, timeout=10) as server:
        game = server.create_game("kingpin", [SeatSpec.bot("greedy"), SeatSpec.bot("random")],
                                  options={"target": 10000, "turn_limit": 50}, seed="turn-spectator")
        with requests.get(f"{live_server.url}/v1/games/{game.id}/events", stream=True, timeout=120,
                          headers={"Accept": "text/event-stream"}) as response:
            messages = list(parse_stream(response.iter_content(chunk_size=None)))
    kinds = [m.event for m in messages]
    assert kinds[-1] == "end" and "turn" in kinds
    turns = [json.loads(m.data) for m in messages if m.event == "turn"]
    assert all(t["you"] is None and t["legal_moves"] == [] for t in turns)
    assert any(t["awaiting"] for t in turns)  # a bot was awaited when some batch arrived
    last_event = 0
    for message in messages:  # a turn state is at the version of the last event before it: the two agree
        if message.event == "message":
            last_event = int(message.id)
        elif message.event == "turn" and last_event:
            assert json.loads(message.data)["version"] == last_event
    end = json.loads(messages[-1].data)
    assert end["status"] == "finished" and "winners" in end["outcome"]
    last_event = max(int(m.id) for m in messages if m.event == "message")
    assert end["version"] == last_event == turns[-1]["version"]


def test_a_seat_is_told_its_moves_as_the_stream_opens(live_server):
    with CartelClient(live_server.url, timeout=10) as server:
        game = server.create_game("kingpin", [SeatSpec.human("Ana"), SeatSpec.human("Bo")], seed="turn-open",
                                  contribution_seconds=0)  # started at once: its first turn state has moves
        ana = server.with_token(game.tokens[0])
        stream = ana.follow(game.id)
        first = next(stream.turns())
        stream.close()
    document = ana.game(game.id)
    assert first.version == document.version and first.awaiting == document.awaiting
    assert first.legal_moves == document.legal_moves and first.move_labels == document.raw["move_labels"]
