"""Following a game live over Server-Sent Events: the :class:`EventStream` that ``CartelClient.follow`` returns.

The wire format is parsed by :mod:`clients._sse`; this module adds what
following a game needs on top of it: reconnecting with ``Last-Event-ID``,
honouring the stream's ``retry`` delay and the server's ``Retry-After``, and
giving up after too many failures in a row with an error that says why.
"""
from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Generator

import requests

from clients._sse import SSEMessage, SSEParser
from clients.sdk._http import error_gist, quote_segment
from clients.sdk.errors import (
    ProblemError,
    RateLimited,
    ServerError,
    TransportError,
    could_not_connect,
    problem_from_response,
)
from clients.sdk.models import JSON, Event, Turn

if TYPE_CHECKING:  # only for annotations: client.py imports this module to build an EventStream
    from clients.sdk.client import CartelClient

__all__ = ["EventStream"]


class EventStream:
    """The iterator ``CartelClient.follow`` returns.

    ``last_event_id`` is the version of the last event delivered (what a
    reconnect resumes from), ``connections`` how many SSE connections were
    opened so far, ``finished`` whether the server said ``end``, ``turn`` the
    last turn state the server sent (whose turn it is, the caller's legal
    moves; see :class:`Turn`), ``outcome`` the result the ``end`` carried.
    """

    def __init__(self, client: CartelClient, game_id: str, after: int = 0, *, max_failures: int = 5,
                 read_timeout: float = 60.0):
        self.client = client
        self.game_id = game_id
        self.last_event_id = int(after)
        self.max_failures = max_failures
        self.read_timeout = read_timeout
        self.connections = 0
        self.finished = False
        self.turn: Turn | None = None
        self.outcome: JSON | None = None
        self.retry_ms = 2000
        self._response: requests.Response | None = None
        self._contributed = False
        self._iterator = self._run()

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> Event:
        while True:
            item = next(self._iterator)
            if isinstance(item, Event):
                return item

    def turns(self) -> Generator[Turn, None, None]:
        """The turn state after each batch of events, with that batch as its ``events``: what a bot acts
        on, with no read of the game.  After the last one the game is over (``finished``, ``outcome``)."""
        batch: list[Event] = []
        for item in self._iterator:
            if isinstance(item, Event):
                batch.append(item)
                continue
            # a turn message older than this client's own last command in the game was on its way when
            # that command landed: acting on it would only meet a 409
            moved = self.client.moved_to.get(self.game_id, -1)
            yield Turn.from_json(item.raw, batch, overtaken=item.raw["version"] < moved)
            batch = []

    def _contribute_if_owed(self, turn: Turn) -> None:
        """The game waits for this seat's entropy: send it (once), unless the client says not to."""
        if turn.owes_entropy and not self._contributed:
            self._contributed = True
            self.client.contribute_if_owed(self.game_id, turn.you, turn.contributions)

    def close(self) -> None:
        """Stop following and drop the connection."""
        self._iterator.close()
        if self._response is not None:
            self._response.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> requests.Response:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id:
            headers["Last-Event-ID"] = str(self.last_event_id)
        client = self.client
        response = client.session.get(client.base_url + f"/v1/games/{quote_segment(self.game_id)}/events",
                                      params={"after": self.last_event_id}, headers=client._headers(headers),
                                      stream=True, timeout=(client.timeout, self.read_timeout))
        return self._checked(response)

    def _checked(self, response: requests.Response) -> requests.Response:
        """The stream's response, or the error it is (a problem, or not an event stream)."""
        if response.status_code >= 400:
            try:
                raise problem_from_response(response)
            finally:
                response.close()
        if "text/event-stream" not in response.headers.get("Content-Type", ""):
            response.close()
            raise ProblemError(response.status_code, None,
                               f"expected text/event-stream, got {response.headers.get('Content-Type')!r}",
                               "GET", response.url)
        return response

    def _run(self) -> Generator[Event | Turn, None, None]:
        failures = 0
        while not self.finished:
            try:
                self._response = response = self._connect()
            except (requests.ConnectionError, requests.Timeout, ServerError, RateLimited) as error:
                failures += 1
                self._give_up_after(failures, error)
                time.sleep(self._wait_before_retry(error))
                continue
            # A stream that opened proves the URL right and the server up: the budget is for failures in a
            # row, so a quiet game followed for hours survives any number of broken connections.
            failures = 0
            self.connections += 1
            try:
                yield from self._read(response)
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as error:
                failures += 1
                self._give_up_after(failures, error)
                time.sleep(self.retry_ms / 1000)
            finally:
                response.close()
                self._response = None

    def _read(self, response: requests.Response) -> Generator[Event | Turn, None, None]:
        """Deliver one connection's events and turn states; return when the server closes it (or says ``end``)."""
        opened, delivered = time.monotonic(), 0
        for message in self._messages(response):
            if message.event == "end":
                self.outcome = json.loads(message.data).get("outcome")
                self.finished = True
                return
            if message.event == "turn":
                self.turn = Turn.from_json(json.loads(message.data))
                self._contribute_if_owed(self.turn)
                yield self.turn
                continue
            if message.event != "message":
                continue
            event = Event.from_json(json.loads(message.data))
            if event.version <= self.last_event_id:
                continue  # already delivered (never expected, but harmless)
            self.last_event_id = event.version
            delivered += 1
            yield event
        self._pause_if_idle(opened, delivered)

    def _messages(self, response: requests.Response) -> Generator[SSEMessage, None, None]:
        """One connection's messages as they come, keeping the stream's ``retry`` delay."""
        parser = SSEParser()
        for chunk in response.iter_content(chunk_size=None):
            for message in parser.feed(chunk):
                if parser.retry is not None:
                    self.retry_ms = parser.retry
                yield message
        if parser.retry is not None:
            self.retry_ms = parser.retry

    def _pause_if_idle(self, opened: float, delivered: int) -> None:
        """The server closed the stream (its SSE_MAX_SECONDS): reconnect at once with Last-Event-ID, unless it
        closed an idle stream right away (then wait its retry delay, not to hammer it)."""
        if not delivered and time.monotonic() - opened < 0.5:
            time.sleep(self.retry_ms / 1000)

    def _wait_before_retry(self, error: BaseException) -> float:
        """The server's Retry-After on a 429/503 (bounded), else the stream's retry delay."""
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            return min(retry_after, self.client.max_retry_wait)
        return self.retry_ms / 1000

    def _give_up_after(self, failures: int, error: BaseException) -> None:
        """Raise once ``max_failures`` failures in a row are used up, saying truthfully what happened."""
        if failures <= self.max_failures:
            return
        if isinstance(error, ProblemError):
            raise error
        url = self.client.base_url
        if self.connections and could_not_connect(error):
            what = f"the server stopped answering after {self.connections} successful connection(s)"
        elif self.connections or not could_not_connect(error):
            what = f"the stream kept breaking ({failures} times in a row)"
        else:
            what = "the server could not be reached"
        raise TransportError(f"following {self.game_id} at {url}: {what}: {error_gist(error)}", url, error,
                             reached=bool(self.connections) or not could_not_connect(error)) from None

