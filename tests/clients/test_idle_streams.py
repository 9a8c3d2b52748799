"""Live streams of a quiet game stay open (issue 7, section 2), over real gunicorn, RQ worker and Redis.

redis-py 8 times socket reads out after 5 s by default; the SSE waits for new
events with XREAD BLOCK.  Here the heartbeat (and so each XREAD block) is 7 s,
over that default, and the streams stay open 21 s on a game where nobody moves:
a raw SSE reader, the SDK's `follow` and `cartel watch` follow it at the same
time (one game, one server, one 21 s wait), then a move is made and all three
must deliver it.  A second scenario breaks streams on purpose with a proxy.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from clients.sdk import CartelClient, EventStream, SeatSpec, TransportError
from tests.support.cutting_proxy import CuttingProxy
from tests.support.processes import database, free_port, python_env, running_service, wait_until

HEARTBEAT_SECONDS = 7  # over redis-py's 5 s default socket timeout: each XREAD blocks this long
QUIET_SECONDS = 21
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    env = {"SSE_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS), "SSE_MAX_SECONDS": "120"}
    with running_service(database(redis_server.url, 10), tmp_path_factory.mktemp("idle-server"), env) as web:
        yield web


def quiet_game(client: CartelClient) -> tuple[str, int, CartelClient]:
    """A game between two humans nobody plays: (id, version, the client of the seat to move)."""
    created = client.create_game("kingpin", [SeatSpec.human(), SeatSpec.human()], seed="quiet")
    mover = next(client.with_token(t) for t in created.tokens.values()
                 if client.with_token(t).game(created.id).legal_moves)
    return created.id, client.game(created.id).version, mover


def make_a_move(mover: CartelClient, game_id: str) -> int:
    game = mover.game(game_id)
    return mover.send(game_id, game.legal_moves[0], expected_version=game.version).events[0].version


def cartel(*args: str, url: str) -> subprocess.Popen:
    """`cartel ARGS` as its own process, as a user runs it."""
    env = python_env("redis://unused", CARTEL_URL=url)
    env.pop("CARTEL_TOKEN", None)
    return subprocess.Popen([sys.executable, "-m", "clients.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@dataclass
class RawStream:
    """What a plain SSE reader saw: heartbeat times, events (time, version), how its stream ended."""

    opened: float = 0.0
    heartbeats: list[float] = field(default_factory=list)
    events: list[tuple[float, int]] = field(default_factory=list)
    error: str | None = None

    def read(self, url: str, after: int, until_version: int) -> None:
        try:
            with requests.get(url, params={"after": after}, headers={"Accept": "text/event-stream"}, stream=True,
                              timeout=(5, 60)) as response:
                self.opened = time.monotonic()
                buffer = ""
                for chunk in response.iter_content(chunk_size=None, decode_unicode=True):
                    buffer += chunk
                    *lines, buffer = buffer.split("\n")
                    for line in lines:
                        if line.startswith(": heartbeat"):
                            self.heartbeats.append(time.monotonic() - self.opened)
                        elif line.startswith("id: "):
                            self.events.append((time.monotonic() - self.opened, int(line[4:])))
                            if int(line[4:]) >= until_version:
                                return
                self.error = "the server ended the stream"
        except requests.RequestException as error:
            self.error = repr(error)


@pytest.fixture(scope="module")
def followed_quietly(server):
    """Follow a quiet game three ways at once for QUIET_SECONDS, then move once."""
    with CartelClient(server.url) as client:
        game_id, version, mover = quiet_game(client)
        raw = RawStream()
        raw_reader = threading.Thread(target=raw.read, args=(f"{server.url}/v1/games/{game_id}/events", version,
                                                               version + 1))
        sdk_stream = client.with_token(None).follow(game_id, after=version)
        sdk_events = []
        sdk_reader = threading.Thread(target=lambda: sdk_events.append(next(sdk_stream)))
        watch = cartel("watch", game_id, "--after", str(version), "--json", url=server.url)
        raw_reader.start()
        sdk_reader.start()
        time.sleep(QUIET_SECONDS)
        watch_alive_before_the_move = watch.poll() is None
        moved_to = make_a_move(mover, game_id)
        raw_reader.join(15)
        sdk_reader.join(15)
        try:
            watch_line = watch.stdout.readline()
        finally:
            watch.terminate()
        watch_err = watch.communicate(timeout=10)[1]
        sdk_stream.close()
        return {"moved_to": moved_to, "raw": raw, "sdk_events": sdk_events, "sdk_stream": sdk_stream,
                "watch_alive": watch_alive_before_the_move, "watch_line": watch_line, "watch_err": watch_err,
                "log": server.log.read_text()}


def test_an_idle_sse_stream_stays_open_with_heartbeats_then_delivers(followed_quietly):
    raw: RawStream = followed_quietly["raw"]
    assert raw.error is None
    assert len(raw.heartbeats) >= QUIET_SECONDS // HEARTBEAT_SECONDS - 1
    gaps = [b - a for a, b in zip([0.0] + raw.heartbeats, raw.heartbeats)]
    assert all(gap >= HEARTBEAT_SECONDS - 1 for gap in gaps), gaps  # each XREAD really blocked over 5 s
    assert raw.events and raw.events[-1][1] == followed_quietly["moved_to"]
    assert raw.events[-1][0] >= QUIET_SECONDS - 1  # on the same connection, opened 21 s before
    assert "Traceback" not in followed_quietly["log"] and "Timeout reading" not in followed_quietly["log"]


def test_sdk_follow_waits_through_the_silence_on_one_connection(followed_quietly):
    stream: EventStream = followed_quietly["sdk_stream"]
    assert [e.version for e in followed_quietly["sdk_events"]] == [followed_quietly["moved_to"]]
    assert stream.connections == 1 and not stream.finished  # never broken, so never reconnected


def test_cartel_watch_waits_through_the_silence(followed_quietly):
    assert followed_quietly["watch_alive"], followed_quietly["watch_err"]
    assert json.loads(followed_quietly["watch_line"])["version"] == followed_quietly["moved_to"]
    assert "error" not in followed_quietly["watch_err"]


def test_broken_streams_are_resumed_and_a_lost_server_is_reported_truthfully(server):
    """A proxy cuts every connection after 0.5 s: `follow` (allowed one failure in a row) and `cartel watch`
    reconnect each time, deliver the move, and when the proxy goes away say the server stopped answering,
    not that the URL is wrong.  Each step waits for what it needs (so many broken connections, the move
    delivered), with bounds far above what an idle machine takes: a loaded one is slow, not wrong."""
    proxy = CuttingProxy(server.port, cut_after=0.5)
    with CartelClient(server.url) as client:
        game_id, version, mover = quiet_game(client)
        stream = CartelClient(proxy.url).follow(game_id, after=version, max_failures=1)
        delivered, ended = [], []

        def read() -> None:
            try:
                delivered.extend(stream)
            except TransportError as error:
                ended.append(error)

        reader = threading.Thread(target=read)
        reader.start()
        watch = cartel("watch", game_id, "--after", str(version), url=proxy.url)
        watch_lines: list[str] = []
        watch_reader = threading.Thread(target=lambda: watch_lines.extend(watch.stdout))
        watch_reader.start()
        # each cut is followed by the server's 2 s retry delay; `cartel watch` is one more connection
        wait_until(lambda: stream.connections >= 3 and proxy.accepted > stream.connections, timeout=60,
                   what="three broken connections of follow and one of cartel watch")
        moved_to = make_a_move(mover, game_id)
        wait_until(lambda: delivered and any(f"{moved_to:>6}" in line for line in watch_lines), timeout=60,
                   what="the move delivered through the cuts")
        broken_connections = stream.connections
        proxy.close()
        reader.join(60)
        try:
            watch.wait(timeout=60)  # 5 refused reconnects, 2 s apart, then it says so
        finally:
            watch.kill()
        watch_reader.join(10)
        err = watch.stderr.read()
    assert broken_connections >= 3  # more broken connections than max_failures, and it went on
    assert [e.version for e in delivered] == [moved_to]
    assert ended and ended[0].reached and "stopped answering after" in str(ended[0])
    assert watch.returncode == 3 and any(f"{moved_to:>6}" in line for line in watch_lines), watch_lines
    assert "stopped answering after" in err and "set --url" not in err


def test_a_closed_proxy_ends_the_connections_it_holds():
    """The proxy the test above closes: a connection it accepted a moment before (younger than its cut)
    ends at once, and no connection is accepted after.  (close() alone left such a connection open and
    silent until the client's 60 s read timeout: `cartel watch` then outlived the test's bound whenever a
    loaded machine shifted its reconnects into that window.)"""
    upstream = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    threading.Thread(target=lambda: held.append(upstream.accept()[0]), daemon=True).start()
    proxy = CuttingProxy(upstream.getsockname()[1], cut_after=30)
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as connection:
        wait_until(lambda: proxy.accepted == 1, what="the proxy to accept")
        proxy.close()
        assert connection.recv(1) == b""  # the end of the stream, not the 10 s timeout
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
    upstream.close()


def test_cartel_watch_on_a_wrong_url_says_so():
    watch = cartel("watch", "some-game", url=f"http://127.0.0.1:{free_port()}")
    out, err = watch.communicate(timeout=30)
    assert watch.returncode == 3 and "could not be reached" in err and "set --url" in err
