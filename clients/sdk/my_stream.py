"""Following a player's stream (``GET /v1/players/me/stream``): the :class:`MyStream` ``CartelClient.my_stream``
returns, an iterator of :class:`Note` across games, which reconnects with ``Last-Event-ID`` as a game's
:class:`~clients.sdk.stream.EventStream` does (the server ends each connection after ``SSE_MAX_SECONDS``)."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generator

import requests

from clients.sdk.models import JSON
from clients.sdk.stream import EventStream

if TYPE_CHECKING:
    from clients.sdk.client import CartelClient

__all__ = ["MyStream", "Note"]


@dataclass(frozen=True)
class Note:
    """One message of a player's stream: ``id`` (resume after it), ``kind`` (``game_started``, ``your_turn``,
    ``game_finished``, ``rematch_offer``, ``challenge``, ``challenge_accepted``, ``challenge_declined``) and its
    ``data`` (``game_id``, ``seat``, ``version``, ``challenge``, ... as docs/api.md lists them)."""

    id: str
    kind: str
    data: JSON

    @property
    def game_id(self) -> str | None:
        return self.data.get("game_id")


class MyStream(EventStream):
    """The iterator ``CartelClient.my_stream`` returns: never ends by itself (``break`` or ``close()``).
    ``last_event_id`` is the id of the last note delivered (``None`` before the first: the stream then
    starts after the feed's latest note, or after ``after``)."""

    def __init__(self, client: CartelClient, after: str | None = None, *, max_failures: int = 5,
                 read_timeout: float = 60.0):
        super().__init__(client, "my stream", 0, max_failures=max_failures, read_timeout=read_timeout)
        self.last_event_id = after  # type: ignore[assignment]  # an entry id here, not a version

    def __next__(self) -> Note:  # type: ignore[override]
        return next(self._iterator)  # type: ignore[return-value]

    def _connect(self) -> requests.Response:
        client = self.client
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id:
            headers["Last-Event-ID"] = str(self.last_event_id)
        response = client.session.get(client.base_url + "/v1/players/me/stream", headers=client._headers(headers),
                                      stream=True, timeout=(client.timeout, self.read_timeout))
        return self._checked(response)

    def _read(self, response: requests.Response) -> Generator[Note, None, None]:  # type: ignore[override]
        opened, delivered = time.monotonic(), 0
        for message in self._messages(response):
            if message.id:  # every note has one; a heartbeat is a comment
                self.last_event_id = message.id  # type: ignore[assignment]
                delivered += 1
                yield Note(message.id, message.event, json.loads(message.data))
        self._pause_if_idle(opened, delivered)
