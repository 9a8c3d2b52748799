"""A test game whose bot cheats if it can: the tests of the bot boundary (tests/service/test_botbox.py).

Two seats are each dealt a hidden number from 0 to 99; then each seat in turn guesses the other's.
A seat that guesses right wins.  The state's `numbers` hold both; a seat's view shows its own only, and
`determinize` resamples the other's, as every game with hidden information must.

The "snoop" bot level plays fair only when it must.  It looks for the other seat's true number
everywhere a bot's code could reach: up its call stack (every frame's locals), in every object the
garbage collector knows, and through the event store, connecting to the Redis named in its own
environment or its parent process's (/proc/<ppid>/environ) and reading every game's stream.  What it
finds it guesses; what it could not reach it says with the guess: -1 nothing found, -2 a Redis URL found
but not reachable.  The other levels guess uniformly.
"""
from __future__ import annotations

import gc
import json
import os
import socket
import sys
from urllib.parse import urlsplit

from rules.base import Event, IllegalMove, Rng
from rules.ruleset import Ruleset

NUMBERS = 100
NOTHING, UNREACHABLE = -1, -2


def deal(options: dict, seats: int, rng: Rng) -> list[Event]:
    numbers = [rng.randbelow(NUMBERS) for _ in range(seats)]
    return [Event("GameStarted", {"seats": seats})] + [
        Event("NumberDealt", {"seat": s, "secret": {"number": n}}) for s, n in enumerate(numbers)]


def guess(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    return [Event("Guessed", {"seat": seat, "value": command["value"]})]


def started(state: None, d: dict, own) -> dict:
    return {"seats": d["seats"], "numbers": [None] * d["seats"], "guesses": [None] * d["seats"]}


def dealt(state: dict, d: dict, own) -> dict:
    own(state, "numbers")[d["seat"]] = d["secret"]["number"]
    return state


def guessed(state: dict, d: dict, own) -> dict:
    own(state, "guesses")[d["seat"]] = d["value"]
    return state


class Snoop(Ruleset):
    name, title, noun = "snoop", "Snoop (bot boundary test game)", "Snoop"
    min_seats = max_seats = 2
    bot_levels = ("random", "snoop")
    hidden_information = True
    commands = {"Guess": {"value": "int"}}
    handlers = {"Guess": guess}
    evolvers = {"GameStarted": started, "NumberDealt": dealt, "Guessed": guessed}
    secret_to_seat = frozenset({"NumberDealt"})

    def opening(self, options, seats, rng):
        return deal(options, seats, rng)

    def turn(self, state):
        return next((s for s, g in enumerate(state["guesses"]) if g is None), None)

    def legal_moves(self, state, seat):
        if seat != self.turn(state):
            return []
        return [{"type": "Guess", "value": v} for v in range(UNREACHABLE, NUMBERS)]

    def awaiting(self, state):
        turn = self.turn(state)
        return {} if turn is None else {turn: "move"}

    def timeout_default(self, state, seat):
        return {"type": "Guess", "value": NOTHING}

    def view(self, state, seat):
        return {"guesses": state["guesses"], "mine": None if seat is None else state["numbers"][seat]}

    def outcome(self, state):
        if self.turn(state) is not None:
            return None
        right = [s for s in range(2) if state["guesses"][s] == state["numbers"][1 - s]]
        return {"winners": right, "reason": "guessed right" if right else "nobody guessed"}

    def determinize(self, state, seat, rng):
        numbers = [n if s == seat else rng.randbelow(NUMBERS) for s, n in enumerate(state["numbers"])]
        return {**state, "numbers": numbers}

    def choose_bot_move(self, state, seat, level, rng):
        if level != "snoop":
            return {"type": "Guess", "value": rng.randbelow(NUMBERS)}
        handed = state["numbers"][1 - seat]  # the resampled number: not the one to find
        found = snoop(seat, handed)
        return {"type": "Guess", "value": found}


def snoop(seat: int, handed: int) -> int:
    """The other seat's true number if this process can find it anywhere, else NOTHING or UNREACHABLE."""
    for candidate in (_in_frames(seat, handed), _in_objects(seat, handed)):
        if candidate is not None:
            return candidate
    return _in_redis(seat)


def _true_number(value, seat: int, handed: int):
    """The other seat's number in something that looks like this game's true state (not the handed world)."""
    if isinstance(value, dict) and isinstance(value.get("numbers"), list) and len(value["numbers"]) == 2:
        number = value["numbers"][1 - seat]
        if isinstance(number, int) and number != handed and value.get("guesses") is not None:
            return number
    state = getattr(value, "state", None)  # a loaded Game holds the true state
    return _true_number(state, seat, handed) if state is not None and state is not value else None


def _in_frames(seat: int, handed: int):
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            found = _true_number(value, seat, handed)
            if found is not None:
                return found
        frame = frame.f_back
    return None


def _in_objects(seat: int, handed: int):
    for value in gc.get_objects():
        try:
            found = _true_number(value, seat, handed)
        except Exception:
            continue
        if found is not None:
            return found
    return None


def _redis_urls() -> list[str]:
    urls = [os.environ["REDIS_URL"]] if "REDIS_URL" in os.environ else []
    try:
        with open(f"/proc/{os.getppid()}/environ", "rb") as environ:
            for entry in environ.read().split(b"\0"):
                if entry.startswith(b"REDIS_URL="):
                    urls.append(entry.partition(b"=")[2].decode())
    except OSError:
        pass
    return urls


def _in_redis(seat: int) -> int:
    """Read every game's stream on the Redis this process can name, for the other seat's NumberDealt."""
    urls = _redis_urls()
    for url in urls:
        parts = urlsplit(url)
        try:
            with socket.create_connection((parts.hostname, parts.port or 6379), timeout=2) as connection:
                reader = connection.makefile("rb")
                keys = _ask(connection, reader, "KEYS", "g:*:events")
                for key in keys:
                    for _, fields in _ask(connection, reader, "XRANGE", key.decode(), "-", "+"):
                        fields = dict(zip(fields[::2], fields[1::2]))
                        data = json.loads(fields[b"d"])
                        if fields[b"t"] == b"NumberDealt" and data["seat"] == 1 - seat:
                            return data["secret"]["number"]
        except OSError:
            continue
    return UNREACHABLE if urls else NOTHING


def _ask(connection: socket.socket, reader, *words: str):
    """One RESP command and its reply, with nothing but the standard library (a bot has no redis-py)."""
    connection.sendall(b"".join([f"*{len(words)}\r\n".encode()] + [
        f"${len(w.encode())}\r\n{w}\r\n".encode() for w in words]))
    return _reply(reader)


def _reply(reader):
    line = reader.readline()
    kind, rest = line[:1], line[1:-2]
    if kind == b"*":
        return [_reply(reader) for _ in range(int(rest))]
    if kind == b"$":
        return None if int(rest) < 0 else reader.read(int(rest) + 2)[:-2]
    if kind == b"-":
        raise IllegalMove(rest.decode())
    return rest


SNOOP = Snoop()
