"""The client: :class:`CartelClient`, one method per endpoint of ``openapi.yaml``, and :func:`send_fresh`.

Calls that are safe to repeat are retried after connection errors and
timeouts; 429 (and 503 for those calls) are waited out after ``Retry-After``.
See the package docstring (:mod:`clients.sdk`) for the whole policy.
"""
from __future__ import annotations

import json
import random
import secrets
import time
import uuid
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Mapping, Protocol, Sequence

import requests

from clients.sdk._http import error_gist, quote_segment
from clients.sdk.errors import (
    Conflict,
    ProblemError,
    TransportError,
    could_not_connect,
    problem_from_response,
    retry_after_seconds,
)
from clients.sdk.models import (
    JSON,
    Analysis,
    ClaimedSeat,
    ClockSpec,
    Command,
    CommandResult,
    CreatedGame,
    Event,
    EventsPage,
    Game,
    Health,
    HistoryInput,
    Lobby,
    ReclaimedSeat,
    ReplayResult,
    Ruleset,
    SeatSpec,
    StateAt,
    Turn,
)
from clients.sdk.my_stream import MyStream
from clients.sdk.stream import EventStream

__all__ = ["CartelClient", "send_fresh", "DEFAULT_URL"]

DEFAULT_URL = "http://127.0.0.1:8000"


class CartelClient:
    """One server, one identity: a seat token, or none (a spectator).

    ``timeout`` is the per-request timeout in seconds (connect and read);
    ``retries`` how many times a call that is safe to repeat is retried after a
    connection error or timeout.  A 429 (rate limited), and a 503 on a call
    safe to repeat, is retried after the server's ``Retry-After`` up to
    ``throttle_retries`` times, if that wait is at most ``max_retry_wait``
    seconds; then :class:`RateLimited` / :class:`ServiceUnavailable` is raised.
    A client holds a ``requests.Session``: use one per thread (``with_token``
    shares the session, so give each thread its own client), and ``close()``
    it (or use it as a context manager) when done.
    """

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, timeout: float = 10.0, *,
                 retries: int = 2, backoff: float = 0.25, session: requests.Session | None = None,
                 user_agent: str = "tabletop-cartel-sdk/1", throttle_retries: int = 3, max_retry_wait: float = 30.0,
                 commitments: dict[str, str] | None = None, auto_contribute: bool = True):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.throttle_retries = throttle_retries
        self.max_retry_wait = max_retry_wait
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", user_agent)
        self.last_idempotency_key: str | None = None
        """The Idempotency-Key of the last ``send`` (generated with uuid4 unless one was given)."""
        # game id -> (version, ETag) of the last document this client read: an ETag names the version and the
        # audience (this client's seat), so only the server's own ETag revalidates, never a made-up one
        self._etags: dict[str, tuple[int, str]] = {}
        self.commitments: dict[str, str] = commitments if commitments is not None else {}
        """game id -> the seed commitment this client was shown when it created, joined or contributed to the
        game (shared by its ``with_token`` clients): ``verify`` holds a history to it.  Pass a dict you keep
        (a file, a database) to hold them across runs, as the ``cartel`` CLI does."""
        self.moved_to: dict[str, int] = {}
        """game id -> the version this client's last accepted command took the game to (``send``): the turns
        it follows mark older turn messages ``overtaken``."""
        self.auto_contribute = auto_contribute
        """Send this seat's own entropy when a followed game waits for it (``turns``, ``follow``): on by default,
        so nobody can choose the game's rolls, the server included (docs/fairness.md)."""

    # ------------------------------------------------------------ lifecycle
    def with_token(self, token: str | None) -> CartelClient:
        """A client for another seat (or a spectator, with None) on the same server and session."""
        return CartelClient(self.base_url, token, self.timeout, retries=self.retries, backoff=self.backoff,
                            session=self.session, throttle_retries=self.throttle_retries,
                            max_retry_wait=self.max_retry_wait, commitments=self.commitments,
                            auto_contribute=self.auto_contribute)

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> CartelClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"CartelClient({self.base_url!r}, token={'***' if self.token else None})"

    # ----------------------------------------------------------- transport
    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = {"Accept": "application/json, application/problem+json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update(extra or {})
        return headers

    def _request(self, method: str, path: str, *, idempotent: bool, params: Mapping[str, Any] | None = None,
                 json_body: Any = None, data: bytes | None = None, headers: Mapping[str, str] | None = None,
                 ok: Sequence[int] = (), stream: bool = False,
                 timeout: float | tuple[float, float] | None = None) -> requests.Response:
        """Send one request; retry connection errors if ``idempotent``, and 429 (and 503 if ``idempotent``)
        after their Retry-After; raise ProblemError for error answers (except the statuses listed in ``ok``).

        Every attempt sends the same headers, so a command keeps its Idempotency-Key across retries."""
        url = self.base_url + path
        params = {k: v for k, v in (params or {}).items() if v is not None}
        all_headers = self._headers(headers)
        for throttled in range(self.throttle_retries + 1):
            response = self._send_once(method, url, idempotent, params=params, json=json_body, data=data,
                                        headers=all_headers, stream=stream,
                                        timeout=timeout if timeout is not None else self.timeout)
            if response.status_code < 400 or response.status_code in ok:
                return response
            try:
                error = problem_from_response(response)
            finally:
                response.close()
            wait = self._throttle_wait(error, idempotent)
            if wait is None or throttled >= self.throttle_retries:
                raise error
            time.sleep(wait)
        raise AssertionError("unreachable")

    def _send_once(self, method: str, url: str, idempotent: bool, **kwargs: Any) -> requests.Response:
        """One request, retrying connection errors and timeouts (``idempotent`` only) with backoff."""
        attempts = 1 + (self.retries if idempotent else 0)
        for attempt in range(attempts):
            try:
                return self.session.request(method, url, **kwargs)
            except (requests.ConnectionError, requests.Timeout) as error:
                if attempt + 1 >= attempts:
                    reached = not could_not_connect(error)
                    what = ("did not answer in time" if isinstance(error, requests.Timeout) and reached
                            else "broke the connection" if reached else "could not be reached")
                    raise TransportError(f"the server {what}: {method} {url} ({error_gist(error)})", url, error,
                                         reached=reached) from None
                time.sleep(self.backoff * (2 ** attempt))
        raise AssertionError("unreachable")

    def _throttle_wait(self, error: ProblemError, idempotent: bool) -> float | None:
        """Seconds to wait before retrying this error answer, or None not to retry it.

        A 429 is refused before the server does anything, so any request may be repeated; a 503 only
        if it is safe to repeat.  A wait longer than ``max_retry_wait`` is not worth blocking for."""
        retryable = error.status == 429 or (error.status == 503 and idempotent)
        if not retryable or error.retry_after is None or error.retry_after > self.max_retry_wait:
            return None
        return error.retry_after

    def _json(self, method: str, path: str, *, idempotent: bool = True, **kwargs: Any) -> JSON:
        response = self._request(method, path, idempotent=idempotent, **kwargs)
        try:
            doc: JSON = response.json()
            return doc
        except ValueError:
            raise ProblemError(response.status_code, None, f"expected JSON, got: {response.text[:200]}",
                               method, response.url) from None

    # -------------------------------------------------------------- health
    def health(self) -> Health:
        """``GET /healthz``: the web process is up."""
        return self._health("/healthz")

    def ready(self) -> Health:
        """``GET /readyz``: Redis answers and a worker is alive (``ok`` False on 503, no exception)."""
        return self._health("/readyz")

    def metrics(self) -> str:
        """``GET /metrics``: the node's Prometheus metrics, as text (format version 0.0.4)."""
        response = self._request("GET", "/metrics", idempotent=True, headers={"Accept": "text/plain"})
        response.encoding = "utf-8"
        return response.text

    def _health(self, path: str) -> Health:
        response = self._request("GET", path, idempotent=True, ok=(503,))
        doc = response.json()
        return Health(response.status_code == 200, doc.get("status", ""), dict(doc.get("checks") or {}), doc)

    # ------------------------------------------------------------ rulesets
    def rulesets(self) -> list[Ruleset]:
        """``GET /v1/rulesets``: every game the server hosts."""
        return [Ruleset.from_json(r) for r in self._json("GET", "/v1/rulesets")["rulesets"]]

    def ruleset(self, name: str) -> Ruleset:
        """``GET /v1/rulesets/{name}`` (NotFound if the server has no such ruleset)."""
        return Ruleset.from_json(self._json("GET", f"/v1/rulesets/{quote_segment(name)}"))

    def leaderboard(self, ruleset: str, limit: int = 50) -> dict:
        """``GET /v1/rulesets/{name}/leaderboard``: the ruleset's players by rating, best first (`players`), and
        its bot levels by rating (`bots`: pick an opponent near your own `rating`)."""
        return self._json("GET", f"/v1/rulesets/{quote_segment(ruleset)}/leaderboard?limit={int(limit)}")

    # --------------------------------------------------------------- games
    def create_game(self, ruleset: str, seats: Sequence[SeatSpec | Mapping[str, Any]], *,
                    options: Mapping[str, Any] | None = None, seed: str | None = None,
                    clock: ClockSpec | Mapping[str, Any] | None = None,
                    contribution_seconds: int | None = None, visibility: str | None = None,
                    analysis: bool | None = None) -> CreatedGame:
        """``POST /v1/games``.  Human seats get their token in the answer (``.tokens``), only there; the seed
        commitment is kept (``commitments``).  Each human seat then adds its own entropy, after the commitment:
        a client following the game with that seat's token does it by itself (``auto_contribute``), or call
        ``contribute``.  ``contribution_seconds``: how long the game waits for them (the server's default: 30 s);
        ``seed`` only where the server's operator allows fixed seeds (tests, tournaments).  ``visibility``:
        ``public`` (the default), ``unlisted`` or ``private``; an unlisted or private table's open seats carry
        their invitations (``seats[n].invitation``).  ``SeatSpec.human(as_player=True)`` binds a seat to the
        player whose key this client holds.  ``analysis=True``: each seat may analyse its own seat while the game is
        on (``analyse``); such a game is never rated.

        Not retried on a connection error (a retry could create a second game).
        """
        body = _creation(seats, seed, clock, contribution_seconds, visibility)
        body["ruleset"] = ruleset
        if options:
            body["options"] = dict(options)
        if analysis is not None:
            body["analysis"] = analysis
        return self._created(body)

    def fork(self, game_id: str, version: int, seats: Sequence[SeatSpec | Mapping[str, Any]], *,
             ruleset: str | None = None, seed: str | None = None, clock: ClockSpec | Mapping[str, Any] | None = None,
             contribution_seconds: int | None = None, visibility: str | None = None) -> CreatedGame:
        """``POST /v1/games`` with ``from``: a new game starting at the position of the finished game ``game_id``
        after event ``version``, with these seats (as many as it had) and its ruleset, rules version and options;
        every hidden part (hands, deck orders) is dealt afresh from the new game's own seed.  Its history begins with
        ``ForkedFrom``; ``verify`` checks a fork's history against its original's (the server finds it by id).
        Refusals: ``fork-of-unfinished-game``, ``fork-version-out-of-range``, ``fork-seats-mismatch``, ``not-found``.
        ``ruleset``: the original's (read from the game when not given).  The other arguments are
        ``create_game``'s.  Not retried on a connection error."""
        body = _creation(seats, seed, clock, contribution_seconds, visibility)
        body["ruleset"] = ruleset or self.game(game_id).ruleset
        body["from"] = {"game": game_id, "version": version}
        return self._created(body)

    def _created(self, body: JSON) -> CreatedGame:
        created = CreatedGame.from_json(self._json("POST", "/v1/games", idempotent=False, json_body=body))
        self.commitments[created.id] = created.seed_commitment
        return created

    def games(self, *, status: str | None = None, ruleset: str | None = None, offset: int = 0,
              limit: int = 20) -> Lobby:
        """``GET /v1/games``: the lobby newest first (``status``: ``open``, ``active``, ``finished``, ``abandoned``)."""
        return Lobby.from_json(self._json("GET", "/v1/games", params={"status": status, "ruleset": ruleset,
                                                                     "offset": offset, "limit": limit}))

    lobby = games

    def claim(self, game_id: str, seat: int, name: str | None = None, *, entropy: str | None = None,
              invitation: str | None = None) -> ClaimedSeat:
        """``POST /v1/games/{id}/seats/{seat}/claim``: take an open seat; the answer holds its token (once).

        ``entropy``: the seat's own contribution to the game's seed (public; docs/fairness.md); by default
        16 random bytes drawn here, so that nobody, the server included, can choose the game's rolls.
        The game's seed commitment is kept (``commitments``).  The last claim starts the game (once every
        human seat has sent its entropy).  A client holding a player key binds the seat to its player (who
        then finds it in ``my_games``); ``invitation``: the seat's, for a private table.  Not retried on a
        connection error.
        """
        body: JSON = {"name": name} if name else {}
        body["entropy"] = entropy if entropy is not None else secrets.token_hex(16)
        claimed = ClaimedSeat.from_json(self._json(
            "POST", f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/claim", idempotent=False, json_body=body,
            headers={"X-Cartel-Invitation": invitation} if invitation else None))
        if claimed.raw.get("seed_commitment"):
            self.commitments.setdefault(game_id, claimed.raw["seed_commitment"])
        return claimed

    def contribute(self, game_id: str, seat: int, entropy: str | None = None) -> JSON:
        """``POST /v1/games/{id}/seats/{seat}/entropy`` with this client's token: the seat's own entropy for the
        game's seed, once, before the game starts (by default 16 random bytes drawn here).  Followed games get
        it by themselves (``auto_contribute``).  Raises ``ProblemError`` 409 ``contribution-refused`` when the
        game has started or the seat contributed already."""
        doc = self._json("POST", f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/entropy", idempotent=False,
                         json_body={"entropy": entropy if entropy is not None else secrets.token_hex(16)})
        if doc.get("seed_commitment"):
            self.commitments.setdefault(game_id, doc["seed_commitment"])
        return doc

    def reclaim(self, game_id: str, seat: int) -> ReclaimedSeat:
        """``POST /v1/games/{id}/seats/{seat}/reclaim``: take back this client's seat after the clock handed it
        to a bot (commands from a seat played by a bot are refused with a 409 until then)."""
        path = f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/reclaim"
        return ReclaimedSeat.from_json(self._json("POST", path, idempotent=False))

    def resign(self, game_id: str, seat: int) -> dict:
        """``POST .../seats/{seat}/resign``: resign a game in play (a bot plays the seat on; the last seat left
        that has not resigned wins).  The answer: ``{game_id, seat, status, version, outcome, rematch}``."""
        return self._seat_action(game_id, seat, "resign")

    def abort(self, game_id: str, seat: int) -> dict:
        """``POST .../seats/{seat}/abort``: end a game that has not started, with no result."""
        return self._seat_action(game_id, seat, "abort")

    def leave(self, game_id: str, seat: int) -> dict:
        """``POST .../seats/{seat}/leave``: give up a seat at a table not started (this token stops working)."""
        return self._seat_action(game_id, seat, "leave")

    def rematch(self, game_id: str, seat: int) -> dict:
        """``POST .../seats/{seat}/rematch``: ask to play the finished game again; ``rematch`` in the answer is
        the new game's id once every player asked (this client's token holds the same seat there)."""
        return self._seat_action(game_id, seat, "rematch")

    # ------------------------------------------------------------- players
    def create_player(self, name: str, *, external_id: str | None = None) -> dict:
        """``POST /v1/players``: ``{id, name, key, created_at, external_id}``; the key is shown here only.  Use
        ``login(key)`` for a client that acts as the player.  ``external_id`` only with the operator's app
        key.  Not retried on a connection error."""
        body: JSON = {"name": name, **({"external_id": external_id} if external_id is not None else {})}
        return self._json("POST", "/v1/players", idempotent=False, json_body=body)

    def login(self, key: str) -> CartelClient:
        """A client holding the player key ``key`` (same server and session), checked with ``me()`` first:
        ``ProblemError`` 401 ``player-key-invalid`` for a key that holds no player."""
        client = self.with_token(key)
        client.me()
        return client

    def me(self) -> dict:
        """``GET /v1/players/me``: the player this client's key is."""
        return self._json("GET", "/v1/players/me")

    def my_games(self, *, offset: int = 0, limit: int = 20) -> dict:
        """``GET /v1/players/me/games``: ``{games: [{id, ruleset, status, seats, ..., seat}], total, ...}``, newest
        first: every game where a seat is bound to this client's player."""
        return self._json("GET", "/v1/players/me/games", params={"offset": offset, "limit": limit})

    def rotate_key(self) -> str:
        """``POST /v1/players/me/key``: a new key (this client holds it from now on); the old one stops working."""
        key = self._json("POST", "/v1/players/me/key", idempotent=False)["key"]
        self.token = key
        return key

    def renew_seat_token(self, game_id: str, seat: int) -> str:
        """``POST /v1/games/{id}/seats/{seat}/token`` with this client's player key: a fresh token for a seat bound
        to the player (the old one stops working)."""
        return self._json("POST", f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/token",
                          idempotent=False)["token"]

    def invite(self, game_id: str, seat: int) -> dict:
        """``POST /v1/games/{id}/seats/{seat}/invitation`` (this client's seat token or player key, a player at the
        table): ``{invitation, link, expires_at, ...}`` for an open seat; the seat's earlier one stops working."""
        return self._json("POST", f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/invitation",
                          idempotent=False)

    def my_stream(self, after: str | None = None, *, max_failures: int = 5, read_timeout: float = 60.0) -> MyStream:
        """Follow what concerns this client's player across games (``GET /v1/players/me/stream``): an iterator of
        :class:`Note` (``game_started``, ``your_turn``, ``game_finished``, ``rematch_offer``, ``challenge``,
        ``challenge_accepted``, ``challenge_declined``).  From after the note ``after`` (``"0-0"``: every note the
        feed keeps), by default from now on.  It reconnects with ``Last-Event-ID`` as :meth:`follow` does and
        never ends by itself: ``break`` or ``close()`` it."""
        return MyStream(self, after, max_failures=max_failures, read_timeout=read_timeout)

    def challenge(self, to: str | Mapping[str, str], ruleset: str, *, options: Mapping[str, Any] | None = None,
                  clock: Mapping[str, Any] | None = None, visibility: str | None = None,
                  seats: int | None = None) -> dict:
        """``POST /v1/challenges``: challenge the player named ``to``, or a bot level (``{"bot": "greedy"}``).  A
        player's challenge is ``open`` until they accept or decline it (a day); a bot level's game is created at
        once: ``game_id``, ``seat`` 0 and its ``token`` are in the answer."""
        body: JSON = {"to": to, "ruleset": ruleset, **({"options": dict(options)} if options else {}),
                      **({"clock": dict(clock)} if clock else {}), **({"visibility": visibility} if visibility else {}),
                      **({"seats": seats} if seats else {})}
        return self._json("POST", "/v1/challenges", idempotent=False, json_body=body)

    def accept(self, challenge_id: str) -> dict:
        """``POST /v1/challenges/{id}/accept``: the game is created with both seats bound; ``game_id``, your
        ``seat`` and its ``token`` (shown once) are in the answer."""
        return self._json("POST", f"/v1/challenges/{quote_segment(challenge_id)}/accept", idempotent=False)

    def decline(self, challenge_id: str) -> dict:
        """``POST /v1/challenges/{id}/decline`` (the challenger is told on their stream)."""
        return self._json("POST", f"/v1/challenges/{quote_segment(challenge_id)}/decline", idempotent=False)

    def cancel_challenge(self, challenge_id: str) -> dict:
        """``POST /v1/challenges/{id}/cancel``: withdraw a challenge you made while it is open."""
        return self._json("POST", f"/v1/challenges/{quote_segment(challenge_id)}/cancel", idempotent=False)

    def my_challenges(self) -> list[dict]:
        """``GET /v1/players/me/challenges``: your challenges, sent and received, newest first."""
        return self._json("GET", "/v1/players/me/challenges")["challenges"]

    def _seat_action(self, game_id: str, seat: int, action: str) -> dict:
        return self._json("POST", f"/v1/games/{quote_segment(game_id)}/seats/{int(seat)}/{action}", idempotent=False)

    def game(self, game_id: str) -> Game:
        """``GET /v1/games/{id}`` as this client's seat (or as a spectator without a token).  A game that waits
        for this seat's entropy gets it first (``auto_contribute``), and is read again."""
        game = self._remember(game_id, self._request("GET", f"/v1/games/{quote_segment(game_id)}", idempotent=True))
        if self.contribute_if_owed(game_id, game.you, game.raw.get("contributions")):
            return self._remember(game_id, self._request("GET", f"/v1/games/{quote_segment(game_id)}",
                                                         idempotent=True))
        return game

    def contribute_if_owed(self, game_id: str, seat: int | None, contributions: JSON | None) -> bool:
        """Send this seat's entropy if the game waits for it and ``auto_contribute`` is on: whether it was sent."""
        if not (self.auto_contribute and self.token and seat is not None
                and seat in ((contributions or {}).get("owed") or ())):
            return False
        try:
            self.contribute(game_id, seat)
        except ProblemError as problem:
            if problem.status != 409:  # contributed or started meanwhile: nothing to do
                raise
            return False
        return True

    def game_if_changed(self, game_id: str, version: int) -> Game | None:
        """Like ``game`` but None while the game is still at ``version`` (a cheap 304 when this client last
        read that version: its ETag goes back in If-None-Match)."""
        held = self._etags.get(game_id)
        headers = {"If-None-Match": held[1]} if held and held[0] == int(version) else {}
        response = self._request("GET", f"/v1/games/{quote_segment(game_id)}", idempotent=True, headers=headers)
        if response.status_code == 304:
            return None
        game = self._remember(game_id, response)
        return None if game.version == int(version) else game

    def _remember(self, game_id: str, response: requests.Response) -> Game:
        """The game document, its ETag kept for the next ``game_if_changed``."""
        game = Game.from_json(response.json())
        if response.headers.get("ETag"):
            self._etags[game_id] = (game.version, response.headers["ETag"])
        return game

    # ------------------------------------------------------------- commands
    def send(self, game_id: str, command: Command, expected_version: int | None = None,
             idempotency_key: str | None = None, *, resend_if_still_legal: int = 3) -> CommandResult:
        """``POST /v1/games/{id}/commands``: send one of ``Game.legal_moves`` as this client's seat.

        With ``expected_version`` (sent as ``If-Match``) a game that moved on
        answers 409 instead of re-deciding the command against a state the
        caller has not seen.  The 409 says whether the same command is still
        legal at the current version (another seat acted first in a phase
        where several act at once, say): then it is resent at once against
        that version, up to ``resend_if_still_legal`` times (asked of the server
        first, with ``Prefer: handling=lenient``, so it mostly costs no 409); otherwise (or
        with ``resend_if_still_legal=0``, for a choice that depends on what
        the caller saw) :class:`Conflict` is raised, its ``.version`` the
        current one and ``.still_legal`` the server's verdict.
        An ``Idempotency-Key`` is always sent (a fresh uuid4 unless given), so
        the request is retried after a connection error or timeout: if the
        first attempt did land, the server answers the original result with
        ``duplicate=True`` and appends nothing.  A resend after a 409 keeps the
        key: the 409 appended and recorded nothing, and it is the same command.
        """
        if "type" not in command:
            raise ValueError("a command needs a 'type' (pick one from Game.legal_moves)")
        if resend_if_still_legal < 0:
            raise ValueError("resend_if_still_legal must be 0 or more")
        key = idempotency_key or uuid.uuid4().hex
        self.last_idempotency_key = key
        headers = {"Idempotency-Key": key}
        if expected_version is not None:
            headers["If-Match"] = f'"{int(expected_version)}"'
            if resend_if_still_legal:  # the server decides it at the current version itself: no 409 round trip
                headers["Prefer"] = "handling=lenient"
        resent = 0
        while True:
            try:
                doc = self._json("POST", f"/v1/games/{quote_segment(game_id)}/commands", idempotent=True,
                                 json_body=dict(command), headers=headers)
                result = CommandResult.from_json(doc)
                self.moved_to[game_id] = max(self.moved_to.get(game_id, -1), result.version)
                return result
            except Conflict as conflict:
                if conflict.still_legal is not True or conflict.version is None or resent >= resend_if_still_legal:
                    raise
                resent += 1
                headers["If-Match"] = f'"{int(conflict.version)}"'

    def send_fresh(self, game_id: str, choose: Callable[[Game], Command | None], *,
                   attempts: int = 5, backoff: float = 0.1) -> CommandResult | None:
        """Fetch the game, let ``choose(game)`` pick a command, send it against that version; on 409 wait a
        little (``backoff`` s, doubled per retry, at most 1 s, jittered), fetch again and re-choose (even when
        the 409 says the command is still legal: the choice was made from what the caller saw), up to
        ``attempts`` times (then the last Conflict is raised).

        ``choose`` returns None when there is nothing to do (e.g. not our turn): then so does ``send_fresh``.
        """
        return send_fresh(self, game_id, choose, attempts=attempts, backoff=backoff)

    # --------------------------------------------------------------- events
    def events(self, game_id: str, after: int = 0, limit: int = 100) -> EventsPage:
        """``GET /v1/games/{id}/events?after=&limit=``: one page of the feed, redacted for this reader."""
        return EventsPage.from_json(self._json("GET", f"/v1/games/{quote_segment(game_id)}/events",
                                               params={"after": after, "limit": limit}))

    def iter_events(self, game_id: str, after: int = 0, page_size: int = 500) -> Iterator[Event]:
        """Every event after ``after`` up to the current version, page by page (not live: see ``follow``)."""
        while True:
            page = self.events(game_id, after, page_size)
            yield from page.events
            if not page.has_more or not page.events:
                return
            after = page.next_after

    def turns(self, game_id: str, after: int = 0, *, max_failures: int = 5,
              read_timeout: float = 60.0) -> Iterator[Turn]:
        """Follow the game live and get, after each batch of its events, where it stands (:class:`Turn`:
        whose turn it is, this seat's legal moves with their labels, the batch's ``events``): a bot acts
        on it with no read of the game, sending ``turn.legal_moves[i]`` with ``expected_version=turn.version``.
        The first comes as the stream opens; the last has the ``outcome``.  See :meth:`follow` for
        reconnecting and failures."""
        return self.follow(game_id, after, max_failures=max_failures, read_timeout=read_timeout).turns()

    def follow(self, game_id: str, after: int = 0, *, max_failures: int = 5,
               read_timeout: float = 60.0) -> EventStream:
        """Follow the game live over Server-Sent Events: an iterator of :class:`Event` from ``after`` on.

        When the server closes the stream (it does so every ``SSE_MAX_SECONDS``)
        the iterator reconnects at once with ``Last-Event-ID``; after a
        connection error it waits the stream's ``retry`` delay first, giving up
        after ``max_failures`` failures in a row.  Events are never repeated or
        skipped across reconnects.  It stops after the server's ``end`` message
        (the game is finished); ``break`` out of the loop or ``close()`` it to
        stop earlier.
        """
        return EventStream(self, game_id, after, max_failures=max_failures, read_timeout=read_timeout)

    # ---------------------------------------------------------- time travel
    def state(self, game_id: str, version: int | None = None) -> StateAt:
        """``GET /v1/games/{id}/state?version=``: the caller's view at ``version`` (default: the latest)."""
        return StateAt.from_json(self._json("GET", f"/v1/games/{quote_segment(game_id)}/state",
                                            params={"version": version}))

    # -------------------------------------------------------------- analysis
    def analyse(self, game_id: str, version: int, seat: int, *, wait: float = 60.0) -> Analysis:
        """``POST /v1/analysis``: each of ``seat``'s legal moves at ``version`` with the search bot's value and
        visit share, best first (the bot's own move first).  Any seat of an ended game; while the game is on, only
        this client's own seat (its token), at a table created with ``analysis=True``.  The search runs on the
        server's workers: an answer not done at once is followed (``GET /v1/analysis/{id}``, after each
        Retry-After) for up to ``wait`` seconds, then returned as it stands (``status`` queued or running)."""
        response = self._request("POST", "/v1/analysis", idempotent=True,
                                 json_body={"game": game_id, "version": version, "seat": seat})
        ends = time.monotonic() + wait
        while response.status_code == 202 and time.monotonic() < ends:
            follow = f"/v1/analysis/{quote_segment(response.json()['id'])}"
            time.sleep(min(retry_after_seconds(response) or 1.0, max(0.0, ends - time.monotonic())))
            response = self._request("GET", follow, idempotent=True)
        return Analysis.from_json(response.json())

    def analysis(self, analysis_id: str) -> Analysis:
        """``GET /v1/analysis/{id}``: an analysis as it stands now."""
        return Analysis.from_json(self._json("GET", f"/v1/analysis/{quote_segment(analysis_id)}"))

    # -------------------------------------------------------------- history
    def history(self, game_id: str) -> str:
        """``GET /v1/games/{id}/history``: the finished game's full history as JSON Lines text
        (Forbidden until the game is finished)."""
        response = self._request("GET", f"/v1/games/{quote_segment(game_id)}/history", idempotent=True,
                                 headers={"Accept": "application/x-ndjson, application/problem+json"})
        response.encoding = "utf-8"
        return response.text

    def export_history(self, game_id: str, out: IO[bytes] | str | Path) -> int:
        """Stream the history into a binary file object or to a path; returns the bytes written."""
        response = self._request("GET", f"/v1/games/{quote_segment(game_id)}/history", idempotent=True, stream=True,
                                 headers={"Accept": "application/x-ndjson, application/problem+json"})
        written = 0
        try:
            if isinstance(out, (str, Path)):
                with open(out, "wb") as handle:
                    for chunk in response.iter_content(chunk_size=65536):
                        written += handle.write(chunk)
            else:
                for chunk in response.iter_content(chunk_size=65536):
                    written += out.write(chunk) or 0
        finally:
            response.close()
        return written

    def verify(self, history: HistoryInput, expect_commitment: str | None = None) -> ReplayResult:
        """``POST /v1/replays``: re-fold a history (text, bytes, or a path to a ``.jsonl`` file) and re-derive every
        roll from its revealed seed.  ``valid``: every event re-derives and the header says nothing the events
        contradict (False comes with ``reason``, ``diverged_at`` where an event diverged, ``mismatches`` for header
        fields); ``complete``: the events are the whole game the header records (a prefix is valid, not complete).
        ``summary`` says both in one sentence.

        The history is checked against the seed commitment you were shown: ``expect_commitment``, else the one
        this client kept when it created, joined or contributed to the game (``commitments``); a history that
        commits to another seed is not valid (a forger can re-seed a whole game and recompute its draws)."""
        if isinstance(history, Path):
            body = history.read_bytes()
        elif isinstance(history, str):
            body = history.encode("utf-8")
        else:
            body = bytes(history)
        expected = expect_commitment or self.commitments.get(history_game_id(body) or "")
        return ReplayResult.from_json(self._json("POST", "/v1/replays", data=body,
                                                 params={"expect_commitment": expected} if expected else None,
                                                 headers={"Content-Type": "application/x-ndjson"}))


def _creation(seats: Sequence[SeatSpec | Mapping[str, Any]], seed: str | None,
              clock: ClockSpec | Mapping[str, Any] | None, contribution_seconds: int | None,
              visibility: str | None) -> JSON:
    """The body fields a new game and a fork share."""
    body: JSON = {"seats": [s.to_json() if isinstance(s, SeatSpec) else dict(s) for s in seats]}
    if seed is not None:
        body["seed"] = seed
    if clock is not None:
        body["clock"] = clock.to_json() if isinstance(clock, ClockSpec) else dict(clock)
    if contribution_seconds is not None:
        body["contribution_seconds"] = contribution_seconds
    if visibility is not None:
        body["visibility"] = visibility
    return body


class _Mover(Protocol):
    """What :func:`send_fresh` needs of a client: reading a game and sending a command against a version."""

    def game(self, game_id: str) -> Game: ...

    def send(self, game_id: str, command: Command, expected_version: int | None = None, *,
             resend_if_still_legal: int = 3) -> CommandResult: ...


def send_fresh(client: _Mover, game_id: str, choose: Callable[[Game], Command | None], *,
               attempts: int = 5, backoff: float = 0.1) -> CommandResult | None:
    """The loop behind :meth:`CartelClient.send_fresh` (see there), for any object with its ``game`` and ``send``.

    It is a function so that a wrapper or a test double of the client gets the same loop.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    if backoff < 0:
        raise ValueError("backoff must be 0 or more")
    for attempt in range(attempts):
        if attempt:
            time.sleep(fresh_backoff(backoff, attempt))
        game = client.game(game_id)
        command = choose(game)
        if command is None:
            return None
        try:
            # no resend of a still-legal command: `choose` chooses again from what the game is now
            return client.send(game_id, command, expected_version=game.version, resend_if_still_legal=0)
        except Conflict:
            if attempt + 1 >= attempts:
                raise
    raise AssertionError("unreachable")


def fresh_backoff(base: float, attempt: int) -> float:
    """How long :func:`send_fresh` waits before its ``attempt``-th retry (1, 2, ...): ``base`` doubled per retry,
    at most 1 s, times a random 0.5-1.  The waits let a burst of other seats' moves pass (three bots loading
    their Weight one unit at a time, say), where retrying at once races the same burst again; the jitter keeps
    two clients that lost together from retrying together."""
    return min(base * 2 ** (attempt - 1), 1.0) * random.uniform(0.5, 1.0)



def history_game_id(body: bytes) -> str | None:
    """The game id a history's header names (None for a file without one: verification says what is wrong)."""
    first = body.split(b"\n", 1)[0]
    try:
        header = json.loads(first)
    except ValueError:
        return None
    return header.get("game_id") if isinstance(header, dict) and isinstance(header.get("game_id"), str) else None
