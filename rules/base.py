"""The pieces every game shares: events, refusals, the Rng, command shapes, options.

The contract itself, every hook with its default, is rules/ruleset.py `Ruleset`
(docs/adding-a-game.md lists it).  At its core a ruleset is a Decider (../docs/architecture.md):

    setup(options, seats, rng)        -> [Event]        opening events
    decide(state, seat, command, rng) -> [Event]        or raise IllegalMove
    evolve(state, event)              -> state          pure, never rolls dice
    legal_moves(state, seat)          -> [command]      each postable as-is
    awaiting(state)                   -> {seat: "move" | "response"}
    on_timeout(state, seat)           -> command        what a clock applies
    view(state, seat | None)          -> dict           what that seat may see
    visible_to(event)                 -> "public" | set of seats who see data["secret"]
    outcome(state)                    -> None | {"winners": [...], "reason": str, ...}

State is a JSON-serialisable dict (so it can be snapshotted) and `evolve` must
never mutate the state it is given.  Commands are dicts `{"type": ..., **args}`
exactly as clients post them.  Events are `Event(type, data)`; any part of an
event that not every seat may read lives under `data["secret"]`, and
`visible_to` names the seats that may read it.

Nothing here imports random, time, I/O or a framework: randomness comes only
from the `Rng` handed to `setup`/`decide`, itself derived from the game's
secret seed, so any finished game can be re-derived roll by roll.
"""
from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

Seat = int
State = dict
Command = Mapping[str, Any]
PUBLIC = "public"


@dataclass(frozen=True)
class Event:
    """Something that happened, past tense (`HitsSold`); `data` is JSON-able."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)


class IllegalMove(Exception):
    """A command the rules forbid now; `rule` names the rulebook section."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


class BadCommand(IllegalMove):
    """A command that is malformed for this ruleset (unknown type, missing or
    mistyped argument) rather than forbidden by the rules: HTTP 400, not 422."""


# --------------------------------------------------------------------------
# Deterministic, verifiable randomness
# --------------------------------------------------------------------------

# HMAC-SHA256 (RFC 2104) with the seed's padded-key hashes kept: a game makes an Rng per command
# (and a bot one per move) from the same seed, and the two pad hashes are half of an HMAC's work
# (the library's HMAC also sets up OpenSSL afresh each time).  Equal to hmac.digest(seed, msg, "sha256").
try:  # CPython's own SHA-256 (3.11: _sha256, 3.12 on: _sha2): the same digests as hashlib's OpenSSL one,
    from _sha256 import sha256 as _sha256  # about twice as fast on the few bytes an Rng hashes at a time
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256 as _sha256
    except ImportError:
        _sha256 = hashlib.sha256
_BLOCK_INTS = struct.Struct(">4Q")  # a SHA-256 block is four big-endian 8-byte ints
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=256)
def _hmac_pads(seed: str) -> tuple[Any, Any]:
    key = seed.encode("utf-8")
    if len(key) > 64:
        key = _sha256(key).digest()
    key = key.ljust(64, b"\0")
    return _sha256(key.translate(_IPAD)), _sha256(key.translate(_OPAD))


def _hmac_sha256(seed: str, message: bytes) -> bytes:
    inner, outer = _hmac_pads(seed)
    inner, outer = inner.copy(), outer.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


class Rng:
    """Counter-mode SHA-256 stream keyed by HMAC-SHA256(seed, str(version)).

    Deliberately not `random.Random`: the stream is specified in three lines,
    so a history can be verified in any language, and it does not depend on
    CPython's Mersenne Twister or its seeding algorithm staying the same.

        key    = HMAC-SHA256(seed_utf8, utf8(str(version)))  (a bot's stream: Rng(bot key, "bot:2:17"),
                 the bot key one-way from the seed, rules/bot_seat.py)
        block_i = SHA-256(key || i as 8-byte big-endian), i = 0, 1, ...
        ints are read 8 bytes at a time; randbelow(n) rejects values
        >= the largest multiple of n below 2**64 (no modulo bias).

    docs/fairness.md specifies it in full, with every draw the games derive from
    it, and tests/data/rng-vectors.json holds its test vectors.  `record=True`
    keeps each randbelow's (bound, value) in `draws`, in order: what a history
    records beside a command's events, for a verifier that knows only the spec.
    """

    __slots__ = ("_seed", "_version", "_key", "_counter", "_ints", "draws")

    def __init__(self, seed: str, version: int | str, record: bool = False):
        # The key is derived at the first draw: most commands roll nothing (a verification makes
        # an Rng for every command it re-decides).
        self._seed, self._version, self._key = seed, version, b""
        self._counter = 0
        self._ints: list[int] = []  # the current block's unread ints, the next one last
        # [bound, value] of each randbelow, when recording: off for bots and searches, which draw millions
        self.draws: list[list[int]] | None = [] if record else None

    def _u64(self) -> int:
        if not self._ints:
            if not self._key:
                self._key = _hmac_sha256(self._seed, str(self._version).encode("utf-8"))
            block = _sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._ints = list(_BLOCK_INTS.unpack(block))[::-1]
        return self._ints.pop()

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._u64()
            if value < limit:
                value %= n
                if self.draws is not None:
                    self.draws.append([n, value])
                return value

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[Any]) -> Any:
        """One item of a non-empty sequence."""
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Iterable[Any]) -> list:
        """A new list with the items in random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def roll(self, count: int, faces: Sequence[int] = (1, 2, 3, 4, 5, 6)) -> list[int]:
        """`count` dice with the given faces (Druglord's Classy Dice are 1,2,3,4,5,9)."""
        return [faces[self.randbelow(len(faces))] for _ in range(count)]

    def roller(self, name: str) -> Rng:
        """The stream `name` (a seat's number as a string, or "world") draws from.  One plain stream
        serves a whole command whoever draws in it (games before draw keys, bots, searches)."""
        return self

    def recorded(self) -> list | None:
        """What a history stores beside the command's first event: its draws (record=True), else None."""
        return self.draws


WORLD = "world"  # the roller of the set-up and of every automatic step: nobody's move


class KeyedRng(Rng):
    """The draws of one command, each draw call (a roll, a shuffle, a pick) on a stream of its own,
    keyed by who draws and how many such calls they made before in this game:

        label = "<roller>/<kind>/<n>"    roller: the seat whose move draws ("2") or "world" (the set-up
                                         and every automatic step); kind: dice, shuffle or pick; n: that
                                         roller's earlier calls of that kind, from 0
        stream = Rng(seed, label)        the plain counter-mode stream, specified in docs/fairness.md

    So the value a roll gets depends on nothing anybody can shift: not the game's version, not another
    seat's move, not when a clock ran out (the design notes' "draws nobody can steer").  `counters` is
    the game's {"<roller>/<kind>": next n}, shared by every view of this command (`roller`) and advanced
    in place; `recorded()` is every call's [label, [[bound, value], ...]] in order, when recording."""

    __slots__ = ("_who", "_counters", "streams")

    def __init__(self, seed: str, counters: dict[str, int], roller: str = WORLD, record: bool = False,
                 streams: list | None = None):
        super().__init__(seed, "")
        self._who, self._counters = roller, counters
        self.streams: list | None = streams if streams is not None else ([] if record else None)

    def roller(self, name: str) -> KeyedRng:
        return KeyedRng(self._seed, self._counters, name, streams=self.streams)

    @property
    def counters(self) -> dict[str, int]:
        """The game's draw counters as this command leaves them."""
        return self._counters

    def recorded(self) -> list | None:
        return self.streams

    def stream(self, kind: str) -> Rng:
        """A new draw call's own stream: the next label of (this roller, `kind`)."""
        key = f"{self._who}/{kind}"
        count = self._counters.get(key, 0)
        self._counters[key] = count + 1
        label = f"{key}/{count}"
        stream = Rng(self._seed, label, record=self.streams is not None)
        if self.streams is not None:
            self.streams.append([label, stream.draws])
        return stream

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        return self.stream("pick").randbelow(n)

    def randint(self, low: int, high: int) -> int:
        return self.stream("pick").randint(low, high)

    def choice(self, items: Sequence[Any]) -> Any:
        return self.stream("pick").choice(items)

    def shuffled(self, items: Iterable[Any]) -> list:
        return self.stream("shuffle").shuffled(items)

    def roll(self, count: int, faces: Sequence[int] = (1, 2, 3, 4, 5, 6)) -> list[int]:
        return self.stream("dice").roll(count, faces)


def seed_commitment(seed: str) -> str:
    """What is published at creation: SHA-256 hex of the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------
# Command shapes
# --------------------------------------------------------------------------

# Argument kinds a ruleset's command schema may use, and how a refusal names them.
ARG_KINDS = {"str": "a string", "str?": "a string or null", "int": "an integer", "seat": "a seat number",
             "strs": "a list of strings", "obj": "a JSON object"}


def _arg_ok(value: Any, kind: str) -> bool:
    """Whether a JSON value has the argument kind's type (bools are not numbers)."""
    if kind == "str":
        return isinstance(value, str)
    if kind == "str?":
        return value is None or isinstance(value, str)
    if kind == "strs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "obj":
        return isinstance(value, Mapping)
    return isinstance(value, int) and not isinstance(value, bool)  # "int", "seat"


def validate_command(command: Any, schema: Mapping[str, Mapping[str, str]], game: str) -> dict:
    """The command as a plain dict if it has one of `schema`'s shapes ({type: {arg: kind}}),
    else BadCommand naming what is wrong (unknown type, missing, extra or mistyped argument).
    Whether a well-formed command is allowed *now* is the rules' business, not this."""
    if type(command) is not dict and not isinstance(command, Mapping):
        raise BadCommand('a command must be a JSON object with a "type"')
    ctype = command.get("type")
    if not isinstance(ctype, str):
        raise BadCommand('a command needs a string "type"')
    if ctype not in schema:
        raise BadCommand(f"unknown {game} command {ctype!r}; known: {', '.join(sorted(schema))}")
    spec = schema[ctype]
    # "type" and every argument, nothing else, when the sizes agree and every argument is there
    if len(command) != len(spec) + 1 or not all(arg in command for arg in spec):
        extra = sorted(set(command) - set(spec) - {"type"})
        if extra:
            raise BadCommand(f"{ctype} takes no argument(s) {', '.join(extra)}; "
                             f"it takes: {', '.join(spec) or 'none'}")
    for arg, kind in spec.items():
        if arg not in command:
            raise BadCommand(f"{ctype} needs argument {arg!r}")
        if not _arg_ok(command[arg], kind):
            raise BadCommand(f"{ctype}: {arg!r} must be {ARG_KINDS[kind]}, not {command[arg]!r}")
    if "strs" not in spec.values():
        return dict(command)
    return {k: (list(v) if spec.get(k) == "strs" else v) for k, v in command.items()}


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One game option a client may set at creation."""

    default: Any
    choices: tuple = ()
    description: str = ""
    # JSON Schema of a value where `choices` do not list them (a list of seats); {}: the type of `default`
    schema: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def describe(self) -> dict:
        return {"default": self.default, "choices": list(self.choices), "description": self.description}


def normalize_options(spec: Mapping[str, Option], given: Mapping[str, Any] | None) -> dict:
    """Fill defaults and reject unknown options or values outside `choices`."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise BadCommand(f"unknown option(s): {', '.join(unknown)}; known: {', '.join(sorted(spec)) or 'none'}",
                         rule="options")
    out = {}
    for name, option in spec.items():
        value = given.get(name, option.default)
        # by type as well as value: 1 == True and 3000.0 == 3000 in Python, yet `1` is not a yes and the
        # typed options in openapi.yaml refuse it (a client checked by them must meet the same server)
        if option.choices and not any(value == choice and type(value) is type(choice) for choice in option.choices):
            raise BadCommand(f"option {name!r} must be one of {list(option.choices)}, not {value!r}", rule="options")
        out[name] = value
    return out


# --------------------------------------------------------------------------
# Folding and deciding through the contract
# --------------------------------------------------------------------------

class RulesetRoot:
    """The root of rules/ruleset.py `Ruleset`, the one ruleset class (which imports this module): lets
    the helpers below tell a Ruleset from a bare Decider not yet adopted."""

    __slots__ = ()


def fold(ruleset: Any, events: Iterable[Event], state: State | None = None) -> State | None:
    """Apply events in order; `state=None` starts from nothing (before setup): Ruleset.fold (in
    place for a long fold).  A bare Decider not yet adopted (rules.ruleset.adopt) evolves."""
    if isinstance(ruleset, RulesetRoot):
        return ruleset.fold(state, events)
    for event in events:
        state = ruleset.evolve(state, event)
    return state


def decide_and_apply(ruleset: Any, state: State, seat: Seat, command: Command,
                     rng: Rng) -> tuple[list[Event], State]:
    """`ruleset.decide` and the state after its events (Ruleset.decide_and_apply; a bare
    Decider decides, then folds)."""
    if isinstance(ruleset, RulesetRoot):
        return ruleset.decide_and_apply(state, seat, command, rng)
    events = ruleset.decide(state, seat, command, rng)
    return events, fold(ruleset, events, state)


def redact(ruleset: Any, event: Event, seat: Seat | None) -> Event:
    """The event as `seat` (None: a spectator) may read it: `secret` removed
    unless `visible_to` names that seat."""
    if "secret" not in event.data:
        return event
    audience = ruleset.visible_to(event)
    if audience == PUBLIC or (seat is not None and seat in audience):
        return event
    return Event(event.type, {k: v for k, v in event.data.items() if k != "secret"})
