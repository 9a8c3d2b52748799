"""The game runner: load -> decide -> compare-and-append, for any ruleset.

It knows neither HTTP nor any particular game.  The HTTP views, the bot jobs and
the clock jobs all submit through `GameRunner.execute`, so a move is validated
and recorded the same way whoever makes it.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from events.envelope import ENGINE_EVENTS, Envelope, actor_for, canonical
from events.store import ConcurrencyConflict, DuplicateCommand, EventStore, PendingEvent
from rules.base import BadCommand, Event, IllegalMove, Rng, Ruleset, fold, redact, seed_commitment
from rules.ruleset import table_checks

SNAPSHOT_EVERY = 200
CACHE_GAMES = 2000
RETRIES_ON_CONFLICT = 8


class GameNotFound(LookupError):
    pass


class NotAwaited(IllegalMove):
    """The seat may not act now (not its turn, game over or not started)."""


class SeatPlayedByBot(NotAwaited):
    """The seat was handed to a bot (its clock ran out too often): its human must reclaim it first."""


class IdempotencyMismatch(Exception):
    """An Idempotency-Key reused with a different command."""


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Game:
    """A game as loaded: its meta record, its version and its folded state."""

    id: str
    ruleset: Ruleset
    meta: dict[str, str]
    version: int
    state: Any
    fresh: bool = True  # False: this process's cached copy, possibly behind the store

    @property
    def status(self) -> str:
        return self.meta.get("status", "open")

    @property
    def seats(self) -> list[dict]:
        return json.loads(self.meta["seats"])

    @property
    def options(self) -> dict:
        return json.loads(self.meta["options"])

    @property
    def clock(self) -> dict:
        return json.loads(self.meta.get("clock") or "{}")

    @property
    def deadlines(self) -> dict[int, int]:
        return {int(k): v for k, v in json.loads(self.meta.get("deadlines") or "{}").items()}

    @property
    def timeouts(self) -> dict[int, int]:
        return {int(k): v for k, v in json.loads(self.meta.get("timeouts") or "{}").items()}

    @property
    def seed(self) -> str:
        return self.meta["seed"]

    def awaiting(self) -> dict[int, str]:
        if self.status != "active":
            return {}
        return {int(seat): kind for seat, kind in self.ruleset.awaiting(self.state).items()}

    def outcome(self) -> dict | None:
        return self.ruleset.outcome(self.state) if self.state is not None else None


@dataclass
class CommandResult:
    game: Game
    first_version: int  # first event this command appended (version + 1 when nothing was)
    events: list[Envelope] = field(default_factory=list)
    duplicate: bool = False


def fingerprint(command: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(command, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class GameRunner:
    def __init__(self, store: EventStore, rulesets: Mapping[str, Ruleset],
                 after_append: Callable[[Game, Game | None], None] | None = None,
                 clock: Callable[[], int] = now_ms, snapshot_every: int = SNAPSHOT_EVERY):
        self.store = store
        self.rulesets = rulesets
        self.after_append = after_append
        self.clock = clock
        self.snapshot_every = snapshot_every
        # game id -> (version, state, command id of the event at that version, meta)
        self._cache: OrderedDict[str, tuple[int, Any, str, dict]] = OrderedDict()

    # ----------------------------------------------------------------- loading
    def load(self, game_id: str, version: int | None = None) -> Game:
        """The game at its latest version (or at `version`, for time travel)."""
        if version is not None:
            return self._load_at(game_id, version)
        cached = self._cache.get(game_id)
        base_version, state, base_command = cached[:3] if cached else (*(self.store.snapshot(game_id) or (0, None)), "")
        # The tail starts at the base version's own event, to check it is still the one folded.
        meta, tail = self.store.meta_and_tail(game_id, base_version, inclusive=True)
        if base_version:
            if tail and tail[0].version == base_version and (cached is None or tail[0].command_id == base_command):
                base_command, tail = tail[0].command_id, tail[1:]
            elif meta:
                # Redis no longer holds the event this process folded last: a failover lost the last
                # writes (asynchronous replication), or a backup was restored.  Redis is the truth.
                self._cache.pop(game_id, None)
                base_version, state, base_command = 0, None, ""
                meta, tail = self.store.meta_and_tail(game_id, 0)
        if not meta:
            raise GameNotFound(game_id)
        ruleset = self.rulesets[meta["ruleset"]]
        state, last, command = self._fold_envelopes(ruleset, tail, state, base_version, base_command)
        if last < int(meta.get("version", 0)):  # a tail longer than one page
            state, last, command = self._fold_envelopes(ruleset, self.store.read_all(game_id, after=last), state,
                                                        last, command)
        self._remember(game_id, last, state, command, meta)
        return Game(game_id, ruleset, meta, last, state)

    def peek(self, game_id: str) -> Game:
        """The game as this process last saw it, without reading Redis (or loaded, if not cached).
        Whoever acts on it must tolerate a stale copy: the append's version check catches it."""
        cached = self._cache.get(game_id)
        if cached is None:
            return self.load(game_id)
        version, state, _, meta = cached
        return Game(game_id, self.rulesets[meta["ruleset"]], dict(meta), version, state, fresh=False)

    @staticmethod
    def _fold_envelopes(ruleset: Ruleset, envelopes, state: Any, last: int, command: str) -> tuple[Any, int, str]:
        for envelope in envelopes:
            if not envelope.is_engine:
                state = ruleset.evolve(state, envelope.event)
            last, command = envelope.version, envelope.command_id
        return state, last, command

    def _load_at(self, game_id: str, version: int) -> Game:
        meta = self.store.meta(game_id)
        if not meta:
            raise GameNotFound(game_id)
        ruleset = self.rulesets[meta["ruleset"]]
        events = (e.event for e in self.store.read_all(game_id) if not e.is_engine and e.version <= version)
        state = fold(ruleset, events) if version > 0 else None
        return Game(game_id, ruleset, meta, min(version, int(meta["version"])), state)

    def _remember(self, game_id: str, version: int, state: Any, command_id: str, meta: dict) -> None:
        self._cache[game_id] = (version, state, command_id, meta)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_GAMES:
            self._cache.popitem(last=False)

    # ---------------------------------------------------------------- creating
    def create_game(self, ruleset_name: str, seats: list[dict], options: Mapping[str, Any] | None = None,
                    seed: str | None = None, clock: Mapping[str, Any] | None = None,
                    token_hashes: Mapping[int, str] | None = None) -> Game:
        """Record a new game; start it at once unless a seat is still open."""
        ruleset = self.rulesets[ruleset_name]
        levels = [seat.get("level", "random") for seat in seats if seat["kind"] == "bot"]
        try:  # clock.bot_level: the level a timed-out seat goes to, refused now rather than at the hand-over
            options = table_checks(ruleset, len(seats), options, levels, (clock or {}).get("bot_level"))
        except BadCommand as refusal:  # well-formed, but a table this ruleset is not played at: 422
            raise IllegalMove(refusal.reason, rule=refusal.rule) from None
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = secrets.token_hex(8)
        created_at = self.clock()
        public_seats = [{k: v for k, v in seat.items() if k in ("kind", "level", "name")} for seat in seats]
        meta = {
            "ruleset": ruleset_name, "options": json.dumps(options), "seats": json.dumps(public_seats),
            "seed": seed, "seed_commitment": seed_commitment(seed), "status": "open",
            "created_at": str(created_at), "clock": json.dumps(dict(clock or {})),
            "deadlines": "{}", "timeouts": "{}",
        }
        for seat, token_hash in (token_hashes or {}).items():
            meta[f"tok:{seat}"] = token_hash
        created = Event("GameCreated", {"ruleset": ruleset_name, "options": options, "seats": public_seats,
                                        "seed_commitment": meta["seed_commitment"], "clock": dict(clock or {})})
        self.store.append(game_id, 0, [PendingEvent(created, "system", {"type": "CreateGame"})],
                          at=created_at, command_id="create", meta=meta)
        self.store.index_game(game_id, ruleset_name, created_at, "open")
        game = self.load(game_id)
        if all(seat["kind"] != "open" for seat in public_seats):
            game = self._start(game)
        return game

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str | None = None) -> Game:
        """Turn an open seat into a human one; the last claim starts the game."""
        game = self.load(game_id)
        seats = game.seats
        if not 0 <= seat < len(seats):
            raise GameNotFound(f"seat {seat}")
        if seats[seat]["kind"] != "open":
            raise IllegalMove(f"seat {seat} is not open (it is {seats[seat]['kind']})", rule="lobby")
        seats[seat] = {"kind": "human", **({"name": name} if name else {})}
        claimed = Event("SeatClaimed", {"seat": seat, **({"name": name} if name else {})})
        self.store.append(game_id, game.version, [PendingEvent(claimed, "system", {"type": "ClaimSeat", "seat": seat})],
                          at=self.clock(), command_id=f"claim-{seat}",
                          meta={"seats": json.dumps(seats), f"tok:{seat}": token_hash})
        game = self.load(game_id)
        if all(s["kind"] != "open" for s in seats):
            game = self._start(game)
        return game

    def _start(self, game: Game) -> Game:
        """Append the ruleset's setup events; they are rolled with Rng(seed, first version)."""
        events = game.ruleset.setup(game.options, len(game.seats), Rng(game.seed, game.version + 1))
        return self._commit(game, None, events, "system", {"type": "StartGame"}, "start",
                            extra_meta={"status": "active"})[0]

    # --------------------------------------------------------------- commanding
    def execute(self, game_id: str, seat: int, command: Mapping[str, Any], *, actor_kind: str = "seat",
                expected_version: int | None = None, idempotency_key: str | None = None,
                loaded: Game | None = None, schedule: bool = True) -> CommandResult:
        """Validate `command` for `seat` and append its events atomically.

        With `expected_version` a moved-on game raises ConcurrencyConflict;
        without one the command is re-decided against the new state (it was
        only ever checked against a state that is gone).  `loaded` saves a
        read when the caller has just loaded the game (to authenticate).
        `schedule=False` skips the after-append hook (a bot job playing several
        bot moves in a row schedules once, at the end).
        """
        command = dict(command)
        scope = f"{seat}:{idempotency_key}" if idempotency_key else None
        # Decide against this process's cached copy when it has one: the append's version check
        # catches a stale copy, and then (or on any refusal) the game is read afresh and decided again.
        game = loaded or self.peek(game_id)
        for _ in range(RETRIES_ON_CONFLICT):
            try:
                if expected_version is not None and expected_version != game.version:
                    raise ConcurrencyConflict(expected_version, game.version)
                self._check_may_act(game, seat, actor_kind)
                events = game.ruleset.decide(game.state, seat, command, Rng(game.seed, game.version + 1))
            except (IllegalMove, ConcurrencyConflict):
                # a retried command answers as it did the first time, even if it is illegal now
                record = self.store.idempotency_record(game_id, scope) if scope else None
                if record:
                    return self._replay(game_id, record, command)
                if not game.fresh:  # refuse only what the stored game refuses
                    game = self.load(game_id)
                    continue
                raise
            if not events:
                return CommandResult(game, game.version + 1)
            idem = (scope, {"first": game.version + 1, "last": game.version + len(events),
                            "seat": seat, "fingerprint": fingerprint(command)}) if scope else None
            try:
                after, envelopes = self._commit(game, seat, events, actor_for(actor_kind, seat), command,
                                                secrets.token_hex(8), idempotency=idem, schedule=schedule)
            except ConcurrencyConflict:
                if expected_version is not None:
                    raise
                game = self.load(game_id)
                continue
            except DuplicateCommand as duplicate:
                return self._replay(game_id, duplicate.record, command)
            return CommandResult(after, game.version + 1, envelopes)
        raise ConcurrencyConflict(game.version, self.store.version(game_id))

    def _check_may_act(self, game: Game, seat: int, actor_kind: str = "seat") -> None:
        if actor_kind == "seat" and game.seats[seat]["kind"] == "bot":
            raise SeatPlayedByBot(f"seat {seat} is played by a bot since its clock ran out; reclaim it "
                                  f"(POST /v1/games/{game.id}/seats/{seat}/reclaim) to play again", rule="seat control")
        if game.status != "active":
            reason = "the game is over" if game.status == "finished" else "the game has not started: seats are still open"
            raise NotAwaited(reason, rule="game status")
        awaiting = game.awaiting()
        if seat not in awaiting:
            waiting_for = ", ".join(f"seat {s} ({kind})" for s, kind in sorted(awaiting.items())) or "nobody"
            raise NotAwaited(f"seat {seat} may not act now; waiting for {waiting_for}", rule="turn order")

    def _replay(self, game_id: str, record: dict, command: Mapping[str, Any]) -> CommandResult:
        if record["fingerprint"] != fingerprint(command):
            raise IdempotencyMismatch("this Idempotency-Key was already used with a different command")
        game = self.load(game_id)
        return CommandResult(game, record["first"],
                             self.store.read(game_id, record["first"] - 1, until=record["last"]), duplicate=True)

    def _commit(self, game: Game, seat: int | None, events: list[Event], actor: str, command: Mapping[str, Any],
                command_id: str, extra_meta: Mapping[str, str] | None = None,
                idempotency: tuple[str, dict] | None = None, schedule: bool = True) -> tuple[Game, list[Envelope]]:
        """Fold, then compare-and-append the events with the meta they change."""
        # Fold what is stored (JSON, keys sorted), so that this process's cached state is exactly
        # what another process folds from Redis (dict order included: rules iterate dicts).
        events = [Event(e.type, canonical(e.data)) for e in events]
        state = fold(game.ruleset, (e for e in events if e.type not in ENGINE_EVENTS), game.state)
        after = Game(game.id, game.ruleset, dict(game.meta), game.version + len(events), state)
        meta = dict(extra_meta or {})
        after.meta.update(meta)
        finished = after.status == "active" and game.ruleset.outcome(state) is not None
        if finished:
            meta["status"] = after.meta["status"] = "finished"
        meta["deadlines"] = after.meta["deadlines"] = json.dumps(self._deadlines(game, after))
        pending = [PendingEvent(event, actor, command if i == 0 else None) for i, event in enumerate(events)]
        at = self.clock()
        self.store.append(game.id, game.version, pending, at=at, command_id=command_id,
                          meta=meta, idempotency=idempotency)
        self._remember(game.id, after.version, state, command_id, after.meta)
        if after.version // self.snapshot_every > game.version // self.snapshot_every:
            self.store.save_snapshot(game.id, after.version, state)
        if after.status != game.status:
            self.store.index_game(game.id, game.meta["ruleset"], int(game.meta["created_at"]), after.status, game.status)
        if self.after_append and schedule:
            self.after_append(after, game)
        envelopes = [Envelope(game.id, game.version + i + 1, p.event.type, p.event.data, p.actor, at, command_id,
                              command=p.command) for i, p in enumerate(pending)]
        return after, envelopes

    def _deadlines(self, before: Game, after: Game) -> dict[int, int]:
        """A human seat's clock starts when it becomes awaited (or its kind of wait
        changes) and runs until it is no longer awaited: one deadline per stretch."""
        clock = after.clock
        if not clock or after.status != "active":
            return {}
        old_awaiting, old_deadlines, now = before.awaiting(), before.deadlines, self.clock()
        out = {}
        for seat, kind in after.awaiting().items():
            if after.seats[seat]["kind"] != "human":
                continue
            seconds = clock.get("move_seconds" if kind == "move" else "response_seconds")
            if not seconds:
                continue
            if old_awaiting.get(seat) == kind and seat in old_deadlines:
                out[seat] = old_deadlines[seat]
            else:
                out[seat] = now + int(seconds * 1000)
        return out

    # ------------------------------------------------------- seats and clocks
    def hand_to_bot(self, game: Game, seat: int, level: str, reason: str) -> Game:
        """Give a seat to a bot (after repeated timeouts); recorded in the stream."""
        seats = game.seats
        seats[seat] = {**seats[seat], "kind": "bot", "level": level}
        event = Event("SeatHandedToBot", {"seat": seat, "level": level, "reason": reason})
        return self._commit(game, None, [event], "system", {"type": "HandSeatToBot", "seat": seat},
                            f"bot-{seat}-{secrets.token_hex(4)}", extra_meta={"seats": json.dumps(seats)})[0]

    def reclaim_seat(self, game_id: str, seat: int) -> Game:
        """Give a seat that was handed to a bot back to its human, with a clean timeout count."""
        game = self.load(game_id)
        seats = game.seats
        if not 0 <= seat < len(seats):
            raise GameNotFound(f"seat {seat}")
        if seats[seat]["kind"] != "bot" or game.status != "active":
            raise NotAwaited(f"seat {seat} is not played by a bot in an active game: nothing to reclaim",
                             rule="seat control")
        seats[seat] = {k: v for k, v in seats[seat].items() if k != "level"} | {"kind": "human"}
        timeouts = {s: n for s, n in game.timeouts.items() if s != seat}
        event = Event("SeatReclaimed", {"seat": seat})
        return self._commit(game, None, [event], "system", {"type": "ReclaimSeat", "seat": seat},
                            f"reclaim-{seat}-{secrets.token_hex(4)}",
                            extra_meta={"seats": json.dumps(seats), "timeouts": json.dumps(timeouts)})[0]

    def record_timeout(self, game: Game, seat: int) -> int:
        """Count one expired clock for `seat`; returns the seat's total."""
        timeouts = game.timeouts
        timeouts[seat] = timeouts.get(seat, 0) + 1
        self.store.set_meta(game.id, {"timeouts": json.dumps(timeouts)})
        return timeouts[seat]

    # ------------------------------------------------------------------ reading
    def events_for(self, game: Game, seat: int | None, after: int = 0, limit: int | None = None) -> list[dict]:
        """The feed as `seat` may read it."""
        return [redact_envelope(game.ruleset, e, seat) for e in self.store.read(game.id, after, limit)]


def redact_envelope(ruleset: Ruleset, envelope: Envelope, seat: int | None) -> dict:
    if envelope.is_engine:
        return envelope.public_dict()
    return envelope.public_dict(redact(ruleset, envelope.event, seat).data)
