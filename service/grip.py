"""Live streams through Pushpin (GRIP): Pushpin holds the followers' connections, this service
answers each stream request at once with the catch-up and a hold on the reader's channel, and
publishes every appended batch, redacted per audience, after the append.

The protocol (https://pushpin.org/docs/protocols/grip/), as used here:
- a request that came through Pushpin carries `Grip-Sig`, a JWT (HS256) signed with the key both
  are configured with (GRIP_KEY here, `sig_key` in pushpin.conf): only then is a hold answered;
- the hold: `Grip-Hold: stream`, `Grip-Channel: <channel>; prev-id=<last version sent>`, a next
  link (`Grip-Link: <...>; rel=next`) and `Grip-Keep-Alive` (the heartbeat comment);
- each published item has `id` = the batch's last version and `prev-id` = the version before it.
  When an item does not follow what a stream was sent last (a publish lost to a killed process or
  a Pushpin outage, or a batch appended between the catch-up and the hold), Pushpin drops it and
  requests the next link with `Grip-Last: <channel>; last-id=<last version sent>`; that answer is
  the catch-up from there and a new hold. So a follower never sees a gap or a duplicate;
- a game's last batch has no next one to heal its loss: it is marked pending until every Pushpin
  took it, and the workers' sweeper publishes it again (`republish`).
The next link names the reader by a proof (an HMAC under GRIP_KEY), never by its token: Pushpin
sends no client header on it, and it never reaches the client.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence
from urllib.parse import quote

import requests

from events.envelope import Envelope
from events.presence import Presence
from events.runner import Game, GameRunner, now_ms
from service.sse import chat_message, end_message, event_message, note_message, replay_finished, turn_message

RETRY = "retry: 2000\n\n"  # as the hub's stream starts (service/sse.py follow_events)
HEARTBEAT = ": heartbeat\n\n"
BACKGROUND_QUEUE = 10_000  # batches a process holds for its publishing thread before it skips (and the sweeper heals)
PROOF_PREFIX = "grip."  # a next link's `ticket`: the reader proven by GRIP_KEY, not a stored ticket


# ------------------------------------------------------------- who is asking
def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed_by_pushpin(token: str | None, key: bytes, now: float | None = None) -> bool:
    """Whether `token` (the Grip-Sig header) is a current HS256 JWT signed with `key`."""
    if not token or not key:
        return False
    try:
        header, claims, signature = token.strip().split(".")
        expected = hmac.new(key, f"{header}.{claims}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(_b64url(signature), expected):
            return False
        if json.loads(_b64url(header)).get("alg") != "HS256":
            return False
        exp = json.loads(_b64url(claims)).get("exp")
    except (ValueError, binascii.Error, AttributeError):
        return False
    return isinstance(exp, int | float) and exp > (time.time() if now is None else now)


def audience(seat: int | None) -> str:
    return "spectator" if seat is None else f"s{seat}"


def channel(game_id: str, seat: int | None) -> str:
    """One channel per game and audience: every follower of a seat (token or ticket) shares one."""
    return f"game:{game_id}:{audience(seat)}"


def chat_channel(game_id: str, chat: str) -> str:
    """A game's chat channel (events/chat.py) as a Pushpin channel: its items carry no id, so a hold takes
    them as they come, without the game's version chain (a lost one is not healed: the page has it)."""
    return f"chat:{game_id}:{chat}"


def feed_channel(player_id: str) -> str:
    """A player's feed (events/feeds.py, GET /v1/players/me/stream): its items chained by entry id."""
    return f"player:{player_id}"


def presence_channel(game_id: str, seat: int) -> str:
    """A channel nothing is ever published to, held by a seat's followers beside the game's: Pushpin resets
    a hold's next-link timer only when every channel it holds had an item, so this one makes it ask the next
    link every GRIP_RECOVER_SECONDS even while moves flow, and each such ask renews the seat's presence."""
    return f"presence:{game_id}:s{seat}"


def hold_channels(game_id: str, seat: int | None, chat: str | None) -> list[str]:
    """The channels a reader's hold takes besides the game's own: its chat channel, and a seat's presence."""
    return ([chat_channel(game_id, chat)] if chat else []) + ([] if seat is None else [presence_channel(game_id, seat)])


def hold_presence_seconds(recover_seconds: int) -> int:
    """How long a seat's follower through Pushpin counts as present after a hold is answered: the next
    is asked within GRIP_RECOVER_SECONDS (presence_channel), so twice that never lapses while it follows
    (a loaded node answers late), and it lapses that long after the follower went."""
    return 2 * max(1, recover_seconds)


def reader_proof(key: bytes, game_id: str, seat: int | None) -> str:
    """The next link's stand-in for the reader's token: only this service (and Pushpin, which is
    handed it) can name a seat with it."""
    mac = hmac.new(key, f"{game_id}:{audience(seat)}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{PROOF_PREFIX}{audience(seat)}.{mac}"


def proven_reader(key: bytes, game_id: str, proof: str) -> tuple[bool, int | None]:
    """(valid, seat) for a next link's proof (`reader_proof`)."""
    _, _, rest = proof.partition(PROOF_PREFIX)
    who, _, _ = rest.partition(".")
    seat = None if who == "spectator" else int(who[1:]) if who[:1] == "s" and who[1:].isdigit() else -1
    if seat == -1 or not hmac.compare_digest(proof, reader_proof(key, game_id, seat)):
        return False, None
    return True, seat


def last_id(grip_last: str | None, name: str) -> int | None:
    """The version Pushpin last sent on `name`, from a next-link request's Grip-Last header
    (`<channel>; last-id=<id>`, comma-separated when several)."""
    value = last_id_text(grip_last, name)
    return int(value) if value is not None and value.isdigit() else None


def last_id_text(grip_last: str | None, name: str) -> str | None:
    """The id Pushpin last sent on `name` (Grip-Last) as it is: a version, or a player's feed's entry id."""
    for part in (grip_last or "").split(","):
        fields = [f.strip() for f in part.split(";")]
        if fields[0] != name:
            continue
        for param in fields[1:]:
            key, _, value = param.partition("=")
            if key.strip() == "last-id":
                return value.strip().strip('"')
    return None


# ------------------------------------------------------------ what is sent
def events_text(game: Game, envelopes: Iterable[Envelope], seat: int | None) -> str:
    """A batch of events as `seat` reads them, as SSE messages: the very bytes the hub's stream
    sends for them (service/sse.py follow_events)."""
    return "".join(event_message(game, envelope, seat) for envelope in envelopes)


def batch_text(game: Game, envelopes: Sequence[Envelope], seat: int | None, present: list[int] = ()) -> str:
    """What a follower of `seat` is sent for a batch that left the game as `game`: the events, the
    turn state after them (`present` the seats followed live then), and the end when the game is over."""
    text = events_text(game, envelopes, seat) + turn_message(game, seat, present)
    return text + end_message(game, game.version) if game.ended else text


@dataclass(frozen=True)
class Answer:
    """A stream request's answer through Pushpin: the body, and the hold (None: no hold, the
    stream ends with the body, as an ended game's does)."""

    body: str
    hold: dict[str, str] | None


def answer(runner: GameRunner, game: Game, seat: int | None, after: int, next_link: str,
           heartbeat_seconds: float, opening: bool, recover_seconds: int = 60, chat: str | None = None,
           present: list[int] = ()) -> Answer:
    """The catch-up after `after` for `seat` (the retry line first when the stream `opening`; the
    turn state when the stream opens or events were sent, `present` the seats followed live) and,
    unless the game has ended, the hold on its channel from the last version sent (and on its chat
    channel `chat`, and a seat's presence channel)."""
    body = RETRY if opening else ""
    if game.ended:  # the catch-up, the turn state and the end, as the hub's stream of an ended game
        return Answer(body + "".join(replay_finished(runner, game, seat, after)), None)
    envelopes = [e for e in runner.envelopes(game, after) if e.version <= game.version]
    body += events_text(game, envelopes, seat)
    if opening or envelopes:
        body += turn_message(game, seat, present)
    sent = envelopes[-1].version if envelopes else after
    return Answer(body, hold_headers(channel(game.id, seat), sent, next_link, heartbeat_seconds,
                                     link_seconds(recover_seconds, opening), hold_channels(game.id, seat, chat)))


OPENING_CHECK_SECONDS = 5  # an opening hold's next-link timeout, when GRIP_RECOVER_SECONDS is longer


def link_seconds(recover_seconds: int, opening: bool) -> int:
    """The next link's timeout for a hold: an opening hold's is short, since a hold that arrives just after a
    publish misses it, and Pushpin asks the next link at once only for the first of several such holds (it
    forgets the channel's last id on that first mismatch; the others sat short of the move until the
    timeout, 57 s late as shipped, in a burst of a thousand followers).  One ask a few seconds after a
    follower opens costs a request per follower once; the holds after it take GRIP_RECOVER_SECONDS."""
    return min(recover_seconds, OPENING_CHECK_SECONDS) if opening else recover_seconds


def hold_headers(name: str, prev_id: int, next_link: str, heartbeat_seconds: float,
                 recover_seconds: int = 60, also: Sequence[str] = ()) -> dict[str, str]:
    """The hold on `name` from `prev_id`.  The next link's `timeout`: a stream that was sent nothing
    for `recover_seconds` asks it for what it missed (`link_seconds`: without it, a follower whose hold
    arrived just after a game's move waited for the game's next move, or for Pushpin's default of 120 s).
    `also`: channels held beside it without a version chain
    (chat, presence)."""
    keep_alive = HEARTBEAT.replace("\n", "\\n")
    return {"Grip-Hold": "stream", "Grip-Channel": ", ".join([f"{name}; prev-id={prev_id}", *also]),
            "Grip-Link": f"<{next_link}>; rel=next; timeout={max(1, int(recover_seconds))}",
            "Grip-Keep-Alive": f"{keep_alive}; format=cstring; timeout={max(1, round(heartbeat_seconds))}"}


def next_link(key: bytes, game_id: str, seat: int | None) -> str:
    return f"/v1/games/{quote(game_id)}/events?ticket={quote(reader_proof(key, game_id, seat))}"


def publish_items(before: Game, after: Game, envelopes: Sequence[Envelope], present: list[int] = ()) -> list[dict]:
    """Every audience's item for a batch (each seat's and the spectators'), chained by version; an
    ended game's channels are closed after it."""
    first, last = envelopes[0].version, envelopes[-1].version
    items = []
    for seat in [*range(len(after.seats)), None]:
        name = channel(after.id, seat)
        items.append({"channel": name, "id": str(last), "prev-id": str(first - 1),
                      "formats": {"http-stream": {"content": batch_text(after, envelopes, seat, present)}}})
        if after.ended:
            items.append({"channel": name, "id": f"{last}-end", "prev-id": str(last),
                          "formats": {"http-stream": {"action": "close"}}})
    return items


# -------------------------------------------------------------- publishing
class PublishSkipped(ConnectionError):
    """Not sent: the last publish failed moments ago (the batch's followers catch up by Pushpin's
    next-link request when the next batch arrives)."""


# The last batch of each game not yet published to every Pushpin.  A lost publish heals when the game's next
# batch is published (its prev-id does not follow what the followers hold: Pushpin asks for the catch-up),
# but a game's last batch has no next one: its followers would stay held short of the end.  So the publish
# step marks the game pending before it posts and clears the mark once every Pushpin has the batch (a game's
# final batch: once the sweeper has published it a second time, see Publisher.__call__); what is
# still marked a moment later (the post failed, was skipped, or its process was killed between the append
# and the post) the workers' sweeper publishes again (`republish`).  Only the highest version is kept:
# once a game's latest batch reached every Pushpin, any follower behind it catches up through the next link.
PENDING = "{grip}:pending"  # hash: game id -> the highest version marked
PENDING_SINCE = "{grip}:pending:since"  # sorted set: game id -> ms when it was first marked
_MARK = """
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if not current or current < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[1])
"""
_CLEAR = """
if tonumber(redis.call('HGET', KEYS[1], ARGV[1])) == tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[1], ARGV[1]); redis.call('ZREM', KEYS[2], ARGV[1])
end
"""


def mark_pending(redis, game_id: str, version: int) -> None:
    redis.eval(_MARK, 2, PENDING, PENDING_SINCE, game_id, version, int(time.time() * 1000))


def clear_pending(redis, game_id: str, version: int) -> None:
    """Unmark the game if `version` is still the highest marked (a newer batch keeps it marked)."""
    redis.eval(_CLEAR, 2, PENDING, PENDING_SINCE, game_id, version)


@dataclass
class Publisher:
    """Posts each batch to every Pushpin's publish endpoint (GRIP_PUBLISH_URL, comma-separated:
    with several nodes, every follower's Pushpin must hear every batch).  It runs as the runner's
    `publish` step after the append: it never fails a command (the runner counts and logs a failure,
    cartel_after_append_failures_total{step="publish"}), and a failure makes it skip that endpoint for
    `pause` seconds, so a slow or dead Pushpin costs a command at most one `timeout` per pause.  The
    pause is each endpoint's own: one node's Pushpin down must not cost the other nodes' followers
    their batches (a skipped batch is only caught up by the next one, and a game's last has none)."""

    urls: list[str]
    timeout: float = 0.5
    pause: float = 2.0
    session: requests.Session = field(default_factory=requests.Session)
    redis: object | None = None  # where pending batches are marked (PENDING); None: not marked
    # Post from a thread of this process (GRIP_PUBLISH_BACKGROUND=1, off by default), so a command's answer
    # waits for the mark, not for Pushpin: with thousands of followers Pushpin is busy fanning the last
    # batch out and answers a publish late.  A batch the thread could not post stays marked (the sweeper
    # republishes it), and `on_failure(game id, error)` counts it as the synchronous step would.  Off by
    # default: on a loaded machine the thread fell more than the sweeper's 2 s behind, the sweeper then
    # republished a finished game's end while the thread's older batches were still queued, and a
    # follower's stream was closed before its `end` (a CI run); it needs the sweeper to know the thread.
    background: bool = False
    on_failure: Callable[[str, Exception], None] | None = None
    _failed_at: dict[str, float] = field(default_factory=dict)
    _queue: queue.Queue | None = None
    _queue_pid: int = 0

    def __call__(self, before: Game, after: Game, envelopes: Sequence[Envelope], again: bool = False) -> None:
        """Publish a batch (`again`: the sweeper's republish of a game's last batch)."""
        if not envelopes:
            return
        marked = self._mark(after)
        # A game's final batch stays marked after it was posted, so the sweeper publishes it once more a
        # moment later: a follower whose hold was catching up through its next link when the final batch
        # came can miss it, and no batch comes after a game's last to show Pushpin the gap.  Its stream
        # then stays held, heartbeating, short of the end (a follower in tests/service/test_serve.py
        # waited two minutes for it).  The second publish's prev-id does not follow what such a follower
        # holds, so Pushpin asks the next link, whose answer ends the stream.
        settled = again or not after.ended
        batch = (after.id, after.version, publish_items(before, after, envelopes, self._present(after)),
                 marked and settled)
        if self.background:
            self._enqueue(batch)
        else:
            self._deliver(*batch)

    def _deliver(self, game_id: str, version: int, items: list[dict], clear: bool) -> None:
        self._post(items)
        if clear:  # every Pushpin has it: nothing for the sweeper
            clear_pending(self.redis, game_id, version)

    def _enqueue(self, batch: tuple) -> None:
        if self._queue_pid != os.getpid():  # first use in this process (gunicorn forks its workers after import)
            self._queue, self._queue_pid = queue.Queue(maxsize=BACKGROUND_QUEUE), os.getpid()
            threading.Thread(target=self._drain, args=(self._queue,), daemon=True, name="grip-publish").start()
        try:
            self._queue.put_nowait(batch)
        except queue.Full:
            raise PublishSkipped(f"{BACKGROUND_QUEUE} batches are waiting to be published: this one stays "
                                 "marked for the sweeper") from None

    def _drain(self, batches: queue.Queue) -> None:
        while True:
            game_id, *rest = batches.get()
            try:
                self._deliver(game_id, *rest)
            except Exception as error:  # never let the thread die: the next batch, or the sweeper, heals it
                if self.on_failure:
                    self.on_failure(game_id, error)

    def publish_chat(self, game_id: str, chat: str, said: dict) -> None:
        """A chat message (events/chat.py) to the followers of its channel, as the `chat` message the hub's
        stream sends: no id, so it does not touch the game's version chain.  Not marked for the sweeper:
        a lost one stays on the chat page."""
        self._post([{"channel": chat_channel(game_id, chat), "formats": {"http-stream": {
            "content": chat_message(said)}}}])

    def publish_note(self, player_id: str, note, prev: str) -> None:
        """A note of a player's feed to the followers of its channel, chained to the one before it (`prev`): a
        follower that missed one asks the next link for the catch-up."""
        self._post([{"channel": feed_channel(player_id), "id": note.id, "prev-id": prev,
                     "formats": {"http-stream": {"content": note_message(note)}}}])

    def _present(self, after: Game) -> list[int]:
        """The seats followed live, for the batch's turn state ([] without a Redis, or when it failed: a
        publish never fails for presence)."""
        if self.redis is None:
            return []
        try:
            return Presence(self.redis).present(after.id, now_ms())
        except Exception:  # redis-py's errors: the batch goes out without it
            return []

    def _mark(self, after: Game) -> bool:
        """Mark the batch pending; False without a Redis to mark it in or when that Redis refused (the
        post is still tried: its followers then heal only with the game's next batch)."""
        if self.redis is None:
            return False
        try:
            mark_pending(self.redis, after.id, after.version)
        except Exception:  # redis-py's errors: the append itself got through moments ago
            return False
        return True

    def _post(self, items: list[dict]) -> None:
        now = time.monotonic()
        paused = [url for url in self.urls if now - self._failed_at.get(url, -1e9) < self.pause]
        if len(paused) == len(self.urls):
            raise PublishSkipped("a publish to Pushpin failed less than "
                                 f"{self.pause:g}s ago; this batch was not published")
        body = {"items": items}
        failures = []
        for url in self.urls:
            if url in paused:
                continue
            try:
                self.session.post(url, json=body, timeout=self.timeout).raise_for_status()
            except requests.RequestException as error:
                self._failed_at[url] = time.monotonic()
                failures.append(f"publishing to {url}: {error}")
        if failures:
            raise ConnectionError("; ".join(failures))
        if paused:
            raise PublishSkipped(f"not published to {', '.join(paused)}: a publish there failed less than "
                                 f"{self.pause:g}s ago")


def republish(runner: GameRunner, publisher: Publisher, older_than_ms: int = 2000, limit: int = 100) -> int:
    """Publish again the last batch of each game marked pending for longer than `older_than_ms` (the workers'
    sweeper calls it); the number published.  The item is the game's last event (prev-id the version
    before it): a follower holding that version gets it, any other asks Pushpin's next link for its
    catch-up, so each follower ends with every version once."""
    redis = publisher.redis
    due = redis.zrangebyscore(PENDING_SINCE, "-inf", int(time.time() * 1000) - older_than_ms, start=0, num=limit)
    published, failures = 0, []
    for game_id in due:
        game_id = game_id.decode() if isinstance(game_id, bytes) else game_id
        try:
            game = runner.load(game_id)
        except LookupError:  # gone (deleted or archived away): nothing to follow
            game = None
        last = [e for e in runner.envelopes(game, game.version - 1) if e.version <= game.version] if game else []
        if not last:
            clear_pending(redis, game_id, redis.hget(PENDING, game_id) or 0)
            continue
        try:
            publisher(game, game, last, again=True)
            published += 1
        except ConnectionError as error:  # a Pushpin still unreachable: this game is tried again next sweep
            failures.append(f"{game_id}: {error}")
    if failures:
        raise ConnectionError(f"republished {published}, {len(failures)} still pending ({failures[0]})")
    return published


@dataclass(frozen=True)
class Push:
    """This process's Pushpin settings: the shared key and the publisher."""

    key: bytes
    publisher: Publisher


def push_from_environment(environ) -> Push | None:
    """GRIP_KEY and GRIP_PUBLISH_URL both set: streams go through Pushpin; else the hub serves them."""
    key, urls = environ.get("GRIP_KEY", ""), [u.strip() for u in environ.get("GRIP_PUBLISH_URL", "").split(",")
                                              if u.strip()]
    if not key or not urls:
        return None
    return Push(key.encode(), Publisher(urls, timeout=float(environ.get("GRIP_PUBLISH_TIMEOUT", "0.5")),
                                        background=environ.get("GRIP_PUBLISH_BACKGROUND", "0") == "1"))
