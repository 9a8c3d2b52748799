"""Who may act, and when: the turn and the clock, decided once.

Every question about whose turn it is and whose clock runs is answered here,
from the table (events/table.py), the game's status and whom its rules await,
and, for a clock, the time `now`, which the caller passes in:

    who may act        awaited, check_may_act     (the command handler, verify_history)
                       is_awaited, controls       (the game document's legal moves, the clock job)
    when a game starts ready_to_start, owed       (the runner, verify_history, the window's job)
    a deadline starts  deadlines, started         (the runner after each append, the scheduler)
    ... and stops      clock_current, clock_running (the clock job, between default moves)
    ... and expires    clock_wake, overdue_clocks (the clock job, the sweeper)
    what it counts     expire_clock               (the table's ExpireClock: the count, the hand-over)
    who a bot moves    bots_to_move               (the bot job, the scheduler, the sweeper)

A human seat's clock starts when the seat becomes awaited (or its kind of wait
changes) and runs until it is no longer awaited: one deadline per stretch.  At
the deadline the seat's ExpireClock counts it (once per deadline, so a clock
job run twice never counts twice) and at `timeouts_before_bot` the seat goes to
a bot until its human reclaims it.

Pure like `rules/`: no I/O, no clock, no logging.  The runner, the RQ jobs and
the verifier are its shells.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.base import Event, IllegalMove

DEFAULT_TIMEOUTS_BEFORE_BOT = 3
ACTOR_CONTROL = {"seat": "human", "clock": "human", "bot": "bot"}  # who sends -> who must control the seat


class GameClosed(IllegalMove):
    """A command to a game that was abandoned (or archived): it takes none any more.
    `kind` names the problem for HTTP (`game-abandoned`, `game-archived`)."""

    def __init__(self, reason: str, kind: str = "game-abandoned", rule: str | None = "retention"):
        super().__init__(reason, rule=rule)
        self.kind = kind


class NotAwaited(IllegalMove):
    """The seat may not act now (not its turn, game over or not started)."""


class NotInControl(NotAwaited):
    """The sender does not control the seat: a bot's move for a human's seat, a clock's for a bot's."""


class SeatPlayedByBot(NotInControl):
    """The seat was handed to a bot (its clock ran out too often): its human must reclaim it first."""


# ------------------------------------------------------------ who may act
def awaited(status: str, ruleset: Any, state: Any) -> dict[int, str]:
    """Whom the game awaits, seat -> kind of wait: nobody unless it is active."""
    if status != "active":
        return {}
    return {int(seat): kind for seat, kind in ruleset.awaiting(state).items()}


def refuse_if_abandoned(table: Mapping[str, Any]) -> None:
    """GameClosed for an abandoned game: it takes no command of any kind."""
    if table.get("abandoned"):
        raise GameClosed(f"the game was abandoned (no human command for {table['abandoned']['idle_seconds']} s): "
                         "it takes no more commands")


def check_may_act(table: Mapping[str, Any], status: str, awaiting: Mapping[int, str], seat: int,
                  sender: str, game_id: str = "<game>") -> None:
    """Whether `seat` may send a game command now, sent by `sender` ("seat": its human, "bot", or
    "clock": the human's clock): GameClosed, SeatPlayedByBot, NotAwaited or NotInControl if not."""
    refuse_if_abandoned(table)
    seats = table["seats"]
    controller = controller_of(seats, seat)
    if status != "active":  # first: a finished game's seat is not reclaimed to play again
        reason = "the game is over" if status == "finished" else "the game has not started: seats are still open"
        raise NotAwaited(reason, rule="game status")
    if sender == "seat" and controller == "bot":
        raise SeatPlayedByBot(f"seat {seat} is played by a bot since its clock ran out; reclaim it "
                              f"(POST /v1/games/{game_id}/seats/{seat}/reclaim) to play again", rule="seat control")
    if not is_awaited(awaiting, seat):
        waiting_for = ", ".join(f"seat {s} ({kind})" for s, kind in sorted(awaiting.items())) or "nobody"
        raise NotAwaited(f"seat {seat} may not act now; waiting for {waiting_for}", rule="turn order")
    if not controls(seats, seat, sender):
        raise NotInControl(f"seat {seat} is controlled by {controller or 'nobody'}, not by a {sender}",
                           rule="seat control")


def is_awaited(awaiting: Mapping[int, str], seat: int | None) -> bool:
    """The turn order: whether the game awaits `seat` (None, a spectator, never), so that it may send
    a game command and its legal moves are listed (service/presenters.py turn_state)."""
    return seat is not None and seat in awaiting


def controller_of(seats: list[Mapping[str, Any]], seat: int) -> str | None:
    """Who controls `seat` now: "human", "bot" or "open" (None: no such seat)."""
    return seats[seat]["kind"] if 0 <= seat < len(seats) else None


def controls(seats: list[Mapping[str, Any]], seat: int, sender: str) -> bool:
    """Whether `sender` ("seat", "bot" or "clock") acts for `seat`: a human's seat is played by its
    human and, when time runs out, its clock; a bot's by the bot.  A clock that handed its seat to a
    bot acts no more (service/jobs.py)."""
    return controller_of(seats, seat) == ACTOR_CONTROL.get(sender)


def ready_to_start(table: Mapping[str, Any] | None, state: Any) -> bool:
    """The game starts (the ruleset's setup is appended) once no seat is open and its contribution
    window (events/table.py) waits for nobody: every human seat has sent its entropy, or the window
    has closed.  Only once."""
    if table is None or state is not None or table.get("abandoned") or table.get("aborted"):
        return False
    if any(seat["kind"] == "open" for seat in table["seats"]):
        return False
    return not owed(table)


def contributed(table: Mapping[str, Any]) -> set[int]:
    """The seats that have sent their entropy (with a claim or on their own)."""
    return {int(part["by"][5:]) for part in table.get("entropy") or () if part["by"].startswith("seat:")}


def owed(table: Mapping[str, Any]) -> list[int]:
    """The human seats an open contribution window still waits for (bots send none; a table from
    before windows, or whose window closed, waits for nobody)."""
    window = table.get("window")
    if not window or window["closed"]:
        return []
    done = contributed(table)
    return [n for n, seat in enumerate(table["seats"]) if seat["kind"] == "human" and n not in done]


def schedules(seats: list[Mapping[str, Any]], clock: Mapping[str, Any]) -> bool:
    """Whether a game's appends can call for jobs: it has a bot seat or a clock (a seat handed to a
    bot later is handed over by an append to a game with a clock)."""
    return bool(clock) or any(seat["kind"] == "bot" for seat in seats)


def bots_to_move(seats: list[Mapping[str, Any]], awaiting: Mapping[int, str],
                 stuck: set[int] = frozenset()) -> list[int]:
    """The awaited seats a bot plays (those whose move failed for good left out), lowest first."""
    return sorted(seat for seat in awaiting if seats[seat]["kind"] == "bot" and seat not in stuck)


# ---------------------------------------------------------------- deadlines
def deadlines(table: Mapping[str, Any], awaiting: Mapping[int, str], before: Mapping[int, str],
              running: Mapping[int, int], now: int) -> dict[int, int]:
    """The human seats' deadlines once the game awaits `awaiting` (it awaited `before`, with the
    clocks `running`): a clock starts when its seat becomes awaited or its kind of wait changes,
    keeps its deadline while the seat is awaited the same way, and stops when it no longer is."""
    clock = table["clock"]
    if not clock:
        return {}
    out = {}
    for seat, kind in awaiting.items():
        if table["seats"][seat]["kind"] != "human":
            continue
        seconds = clock.get("move_seconds" if kind == "move" else "response_seconds")
        if not seconds:
            continue
        if before.get(seat) == kind and seat in running:
            out[seat] = running[seat]
        else:
            out[seat] = now + int(seconds * 1000)
    return out


def started(previous: Mapping[int, int], current: Mapping[int, int]) -> dict[int, int]:
    """The deadlines in `current` that `previous` did not have: the clocks an append started."""
    return {seat: deadline for seat, deadline in current.items() if previous.get(seat) != deadline}


def earliest(running: Mapping[int, int]) -> int | None:
    """The first deadline to fall, or None when no clock runs."""
    return min(running.values()) if running else None


def clock_wake(running: Mapping[int, int], seat: int, deadline: int, now: int, early_wait_ms: int) -> tuple[str, int]:
    """What a clock job made for (`seat`, `deadline`) does when it wakes at `now`: ("stale", 0) when
    that deadline is no longer the seat's, ("early", ms) when it woke more than `early_wait_ms` before
    it (to be run again nearer the deadline), else ("due", ms to wait first, 0 once it has passed)."""
    if not clock_current(running, seat, deadline):
        return "stale", 0
    early = deadline - now
    if early > early_wait_ms:
        return "early", early
    return "due", max(early, 0)


def clock_current(running: Mapping[int, int], seat: int, deadline: int) -> bool:
    """Whether `deadline` is still the seat's (a move since started another clock, or stopped it)."""
    return running.get(seat) == deadline


def clock_running(running: Mapping[int, int], awaiting: Mapping[int, str], seat: int, deadline: int) -> bool:
    """Whether the clock that fell due at `deadline` still holds `seat` (the default moves go on)."""
    return clock_current(running, seat, deadline) and seat in awaiting


def overdue_clocks(running: Mapping[int, int], before: int, stuck: set[int] = frozenset()) -> dict[int, int]:
    """The clocks whose deadline fell by `before` and still run (their job was lost), bar those given up."""
    return {seat: deadline for seat, deadline in running.items() if deadline <= before and seat not in stuck}


# ----------------------------------------------------------- what it counts
def expire_clock(table: Mapping[str, Any], awaiting: Mapping[int, str], seat: int, deadline: int,
                 bot_levels: tuple = ("random",)) -> list[Event]:
    """One expired clock counted (once per deadline); the seat goes to a bot when the count reaches the limit."""
    if seat not in awaiting:
        raise IllegalMove(f"seat {seat} is not awaited: its clock is not running", rule="clocks")
    if table["expired"].get(str(seat)) == deadline:
        return []  # this deadline was counted already (a clock job run twice)
    count = table["timeouts"].get(str(seat), 0) + 1
    events = [Event("ClockExpired", {"seat": seat, "deadline": deadline, "timeouts": count})]
    if count >= timeouts_before_bot(table):
        events.append(hand_over(seat, table["clock"].get("bot_level") or bot_levels[0], f"{count} clock timeouts"))
    return events


def timeouts_before_bot(table: Mapping[str, Any]) -> int:
    """How many expired clocks hand a seat to a bot (the table's clock settings, else 3)."""
    return int(table["clock"].get("timeouts_before_bot") or DEFAULT_TIMEOUTS_BEFORE_BOT)


def hand_over(seat: int, level: str, reason: str) -> Event:
    """A human seat given to a bot of `level`."""
    return Event("SeatHandedToBot", {"seat": seat, "level": level, "reason": reason})
