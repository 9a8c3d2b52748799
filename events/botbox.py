"""Bots behind a process boundary: a bot's code never shares a process with a game's true state or seed.

The worker determinizes the bot's seat itself (rules/bot_seat.py `seat_state`: what the seat may know,
every hidden part resampled) and hands a bot process only that world, the seat, the level, the game's
bot key and the version, as one line of JSON; the process answers the command `bot_choice` gives.
Whatever a bot level's code does there, walking up its call stack, reading its globals, the garbage
collector's objects or its environment, it finds the world it was handed: the true hidden values, the
seed and the connection to Redis are in another process (tests/service/test_botbox.py tries each).

The bot process is started afresh (never forked from the worker, whose memory holds seeds), with an
environment stripped of everything but what Python needs to import the package (no REDIS_URL, no keys),
in an empty working directory, and without a network where the machine allows it: BOT_PROCESS_PREFIX,
a command the bot process is started under, is by default `unshare --net` (a network namespace of its
own, with no interface up: Redis, and every other server, out of reach) when that works here, as root or
through a user namespace.  A process of the worker's own user can still read the worker's files and
/proc; an operator running third-party bot levels sets the prefix to also change user (docs/deployment.md).

Served levels are deterministic (a fixed iteration budget), so a move takes what it takes; the worker
waits at most BOT_MOVE_LIMIT_SECONDS, a safety, not a budget.  Past it the process is killed and the
seat plays the ruleset's random level instead, recorded in the move's provenance (`played`, `cut`), so
verification re-runs the random level for that move and says the search was cut.

Verification re-runs recorded bot moves through a bot process too (`rerun`), so a verifier hands a bot
exactly what a worker did, in a process set up alike: the same environment, the same hash seed
(PYTHONHASHSEED=0, so a bot that iterates a set meets it in the same order in the worker and the verifier).

    python -m events.botbox [module:attribute ...]     the bot process (the rulesets beyond the package's)
"""
from __future__ import annotations

import json
import os
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Mapping

from rules.bot_seat import BOTS_REVISION, bot_analysis, bot_choice, provenance, seat_state, wire

BOT_MOVE_LIMIT_SECONDS = float(os.environ.get("BOT_MOVE_LIMIT_SECONDS", "30"))
STARTUP_SECONDS = 60.0  # for a new bot process to import the rules and say it is ready (not a move's time)
RERUN_LIMIT_SECONDS = 600.0  # a verifier's re-run of one move: a search level re-run on request takes its time
READY = "ready"
FALLBACK_LEVEL = "random"  # what a seat plays when its level's move is cut (every ruleset has it)
# what the bot process keeps of the worker's environment: enough to find the interpreter and the package
KEPT_ENVIRONMENT = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "SYSTEMROOT", "VIRTUAL_ENV")
# ...and the names an operator adds (BOT_PROCESS_ENV="A,B": settings a third-party bot level reads)
NO_NETWORK_PREFIXES = (["unshare", "--net"], ["unshare", "--net", "--map-root-user"])


class BotFailed(RuntimeError):
    """The bot process answered with an error (the bot's code raised) or died."""


class BotTimedOut(BotFailed):
    """The bot process gave no answer within the limit."""


def process_prefix() -> list[str]:
    """The command the bot process starts under: BOT_PROCESS_PREFIX if set (empty: none), else the first
    of NO_NETWORK_PREFIXES this machine runs (as root, or with unprivileged user namespaces), else none."""
    configured = os.environ.get("BOT_PROCESS_PREFIX")
    if configured is not None:
        return shlex.split(configured)
    if not shutil.which("unshare"):
        return []
    for prefix in NO_NETWORK_PREFIXES:
        try:
            if subprocess.run([*prefix, "true"], capture_output=True, timeout=10).returncode == 0:
                return list(prefix)
        except (OSError, subprocess.TimeoutExpired):
            continue
    return []


def process_environment() -> dict[str, str]:
    """The bot process's environment: what Python needs to import what this process imports (its
    sys.path, so a ruleset from outside the package is found as here), what BOT_PROCESS_ENV names, and
    one hash seed for every bot process, the workers' and the verifiers' alike."""
    kept = set(KEPT_ENVIRONMENT) | {n.strip() for n in os.environ.get("BOT_PROCESS_ENV", "").split(",") if n.strip()}
    env = {name: os.environ[name] for name in sorted(kept) if name in os.environ}
    env["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
    env["PYTHONHASHSEED"] = "0"
    return env


def ruleset_specs(rulesets: Mapping[str, Any]) -> list[str]:
    """Import paths ("module:attribute") of the rulesets the bot process cannot find in the package's
    registry (a third-party game, a test's): found as module-level names of their own modules."""
    from rules import RULESETS
    from rules.ruleset import Adopted

    specs = []
    for name, ruleset in rulesets.items():
        found = ruleset.foreign if isinstance(ruleset, Adopted) else ruleset  # the object its module holds
        if RULESETS.get(name) is found or RULESETS.get(name) is ruleset:
            continue
        for candidate in (type(found).__module__, getattr(found, "__module__", None)):
            module = sys.modules.get(candidate or "")
            attribute = next((k for k, v in vars(module).items() if v is found), None) if module else None
            if attribute:
                specs.append(f"{module.__name__}:{attribute}")
                break
        else:
            raise ValueError(f"the ruleset {name!r} is not a module-level name: the bot process cannot import it")
    return specs


class BotBox:
    """The worker's side: one bot process, started when first needed and again after a kill."""

    def __init__(self, rulesets: Mapping[str, Any], limit_seconds: float = BOT_MOVE_LIMIT_SECONDS):
        self.specs = ruleset_specs(rulesets)
        self.limit_seconds = limit_seconds
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()  # one request at a time on the pipe
        self.workdir = tempfile.mkdtemp(prefix="cartel-bots-")
        self.prefix = process_prefix()

    def choose(self, ruleset: Any, world: Any, seat: int, level: str, key: str, version: int) -> tuple[dict, dict]:
        """(the command, its provenance): the level's move, or past the limit the random level's."""
        request = {"ruleset": ruleset.name, "rules_version": ruleset.version, "world": world, "seat": seat,
                   "level": level, "key": key, "version": version}
        try:
            return self.ask(request), provenance(level)
        except BotTimedOut:
            self.close()
        command = self.ask({**request, "level": FALLBACK_LEVEL})
        return command, provenance(level, played=FALLBACK_LEVEL, cut=f"{self.limit_seconds:g} s")

    def command(self, ruleset: Any, state: Any, seat: int, level: str, key: str, version: int,
                revision: int = BOTS_REVISION) -> dict:
        """The command a bot of `level` plays for `seat` in the true `state` at `version`, as a worker gets it
        and as the bots of `revision` chose it: the seat's world made here, the choice in the bot process
        (verification's re-run; no safety cut)."""
        world = wire(seat_state(ruleset, state, seat, key, version))
        return self.ask({"ruleset": ruleset.name, "rules_version": ruleset.version, "world": world, "seat": seat,
                         "level": level, "key": key, "version": version, "revision": revision})

    def analyse(self, ruleset: Any, world: Any, seat: int, key: str, version: int, iterations: int) -> dict:
        """The search level's root statistics for `seat` in the `world` made by the worker (rules/bot_seat.py
        `bot_analysis`), computed in the bot process like a move: the true state and the seed stay here."""
        return self.ask({"ruleset": ruleset.name, "rules_version": ruleset.version, "world": world, "seat": seat,
                         "key": key, "version": version, "analyse": iterations}, answer="analysis")

    def warm(self) -> None:
        """Start the bot process now, so that no bot move waits for its imports."""
        with self.lock:
            self._started()

    def ask(self, request: dict, answer: str = "command") -> dict:
        line = json.dumps(request, separators=(",", ":")) + "\n"
        with self.lock:
            process = self._started()
            try:
                process.stdin.write(line)
                process.stdin.flush()
            except (BrokenPipeError, OSError) as error:
                self._kill()
                raise BotFailed(f"the bot process died: {error}") from None
            reply = json.loads(self._read_line(process))
        if "error" in reply:
            raise BotFailed(reply["error"])
        return reply[answer]

    def _read_line(self, process: subprocess.Popen, seconds: float | None = None) -> str:
        """The process's next line, within the limit; BotTimedOut (the process killed) past it."""
        seconds = self.limit_seconds if seconds is None else seconds
        ends = time.monotonic() + seconds
        while True:
            left = ends - time.monotonic()
            if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
                if time.monotonic() >= ends:
                    self._kill()
                    raise BotTimedOut(f"no answer within {seconds:g} s")
                continue
            line = process.stdout.readline()
            if not line:
                self._kill()
                raise BotFailed("the bot process died")
            return line

    def _started(self) -> subprocess.Popen:
        """The bot process, started and ready (its imports done: they are not a move's time)."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([*self.prefix, sys.executable, "-m", "events.botbox", *self.specs],
                                            env=process_environment(), cwd=self.workdir, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
            if self._read_line(self.process, STARTUP_SECONDS).strip() != READY:
                self._kill()
                raise BotFailed("the bot process did not start")
        return self.process

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def close(self) -> None:
        with self.lock:
            self._kill()


_BOXES: dict[tuple[str, ...], BotBox] = {}
_BOXES_LOCK = threading.Lock()


def rerun(rulesets: Mapping[str, Any]) -> Callable[..., dict]:
    """Verification's re-run of a bot move (rules/bot_seat.py bot_command's signature), through this
    process's bot process for these rulesets: started once, shared by the threads that verify."""
    specs = tuple(ruleset_specs(rulesets))
    with _BOXES_LOCK:
        box = _BOXES.get(specs)
        if box is None:
            box = _BOXES[specs] = BotBox(rulesets, limit_seconds=RERUN_LIMIT_SECONDS)
    return box.command


# ----------------------------------------------------------------- the bot process
def serve(specs: list[str], lines: Any = sys.stdin, out: Any = sys.stdout) -> None:
    """Answer each request line with the bot's command (or the error its code raised)."""
    import importlib

    from rules import RULESETS
    from rules.ruleset import ruleset_at

    rulesets = dict(RULESETS)
    for spec in specs:
        module, _, attribute = spec.partition(":")
        ruleset = getattr(importlib.import_module(module), attribute)
        rulesets[ruleset.name] = ruleset
    out.write(READY + "\n")
    out.flush()
    for line in lines:
        try:
            request = json.loads(line)
            ruleset = ruleset_at(rulesets[request["ruleset"]], request["rules_version"])
            reply = answer_request(ruleset, request)
        except Exception as error:  # the bot's own failure: the worker marks the seat stuck, as before
            reply = {"error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


def answer_request(ruleset: Any, request: Mapping[str, Any]) -> dict:
    """A request's answer: the search's statistics for an analysis (service/analysis.py), else the bot's move."""
    if "analyse" in request:
        return {"analysis": bot_analysis(ruleset, request["world"], request["seat"], request["key"],
                                         request["version"], request["analyse"])}
    return {"command": bot_choice(ruleset, request["world"], request["seat"], request["level"], request["key"],
                                  request["version"], revision=request.get("revision", BOTS_REVISION))}


if __name__ == "__main__":
    serve(sys.argv[1:])
