"""Analysis (issue 39 item 4): what the search bot weighs for one seat of a game at one version.

`POST /v1/analysis {game, version, seat}` (service/api/analysis.py) answers, for each of the seat's legal
moves, the search's value and visit share with the move's label: the served search level ("ismcts") at its
fixed budget (the ruleset's `search_settings.iterations`), searched from the seat's world (its view, every
hidden part resampled with the game's bot key: rules/bot_seat.py `seat_state`) with the bot's own stream.
So the move it marks `bot_move` is the one a bot of that level would play there, and the whole answer is a
function of what the seat may know and the bot key: resampling what the seat cannot see changes nothing
(tests/service/test_secrecy_by_resampling.py).

Who may ask (`refusal`): for a finished (or abandoned) game, anyone, for any seat: its seed and history are
public.  While the game is on, only the seat's own token (or its player's key) for that seat, and only at a
table created with `analysis: true` (off by default); such a table is never rated (events/ratings.py), so a
rated game is never analysed while it is on.

The search runs on the RQ workers, never in a web process: the view enqueues a job under a deterministic id
(`analysis-<id>-r<bots revision>`, the id `<game>-<version>-<seat>-<budget>`), waits up to
ANALYSIS_WAIT_SECONDS for it, and otherwise answers 202 with where to follow it.  The job's result is the
cache: kept ANALYSIS_KEEP_SECONDS, so the same (game, version, seat, budget) is searched once.  Only a request
that enqueues a search pays ANALYSIS_PER_MINUTE (per token, or per address without one); a cached answer costs
the general limits only.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from events.game import Game
from events.ratings import result_of
from rules.bot_seat import BOTS_REVISION, bot_analysis, seat_state, wire
from rules.describe import move_labels
from rules.levels import SEARCH_LEVEL
from rules.search.ismcts import move_key

ANALYSE = "service.jobs.analyse"
POLL_SECONDS = 0.05  # how often a waiting request looks at its job


class Refused(Exception):
    """An analysis nobody may have, or not this caller: (status, code, detail) for the problem document."""

    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def budget_of(ruleset: Any) -> int:
    """The search's iterations an analysis spends: the served level's own, fixed (never a client's)."""
    return ruleset.search_settings.iterations


def analysis_id(game_id: str, version: int, seat: int, budget: int) -> str:
    return f"{game_id}-{version}-{seat}-{budget}"


def parse_id(text: str) -> tuple[str, int, int, int] | None:
    """(game, version, seat, budget) of an analysis id, or None when it is not one."""
    parts = text.rsplit("-", 3)
    if len(parts) != 4 or not all(p.isdigit() and len(p) <= 9 for p in parts[1:]) or not parts[0]:
        return None
    return parts[0], int(parts[1]), int(parts[2]), int(parts[3])


def refusal(latest: Game, at: Game | None, seat: int, reader: int | None) -> Refused | None:
    """Why `reader` (a seat, None for a token-less caller) may not have `seat`'s analysis of the game at a
    version (`at`: None when the version is past the game's), or None when it may."""
    if SEARCH_LEVEL not in latest.ruleset.bot_levels:
        return Refused(422, "analysis-not-offered", f"{latest.ruleset.name} has no search bot to analyse with")
    if at is None:
        return Refused(422, "version-out-of-range", f"the game is at version {latest.version}")
    if not 0 <= seat < len(latest.seats):
        return Refused(422, "seat-out-of-range", f"the table has seats 0 to {len(latest.seats) - 1}")
    if not latest.ended:
        if reader is None:
            return Refused(401, "token-required", "while the game is on, a seat is analysed only for its own "
                                                  "seat token: send it as 'Authorization: Bearer <token>'")
        if reader != seat:
            return Refused(403, "token-not-for-this-seat", f"while the game is on, only seat {seat}'s own token "
                                                           f"may analyse it")
        if result_of(latest.id, latest.ruleset.name, latest.table, {"winners": []}) is not None:
            return Refused(403, "analysis-not-allowed", "a rated game is analysed once it has ended, never while "
                                                        "it is on")
        if not latest.table.get("analysis"):
            return Refused(403, "analysis-not-allowed", "this table was not created with `analysis: true`: it is "
                                                        "analysed once it has ended")
    if at.state is None or seat not in at.awaiting() or not at.ruleset.legal_moves(at.state, seat):
        return Refused(409, "seat-not-awaited", f"seat {seat} has no move to make at version {at.version}")
    return None


def moves_document(ruleset: Any, state: Any, seat: int, names: Any, searched: Mapping[str, Any]) -> list[dict]:
    """The seat's legal moves with their labels (from its view) and what the search found of each
    (rules/bot_seat.py `bot_analysis`), best first: the move the bot plays, then by visits and value."""
    moves = ruleset.legal_moves(state, seat)
    labels = move_labels(ruleset, state, seat, moves, names)
    found = {move_key(seat, m["move"]): m for m in searched["moves"]}
    chosen = move_key(seat, searched["chosen"])
    total = sum(m["visits"] for m in searched["moves"])
    rows = []
    for index, (move, label) in enumerate(zip(moves, labels)):
        stats = found.get(move_key(seat, move), {"visits": 0, "value": None})
        key = move_key(seat, move)
        share = stats["visits"] / total if total else float(key == chosen)
        rows.append((key != chosen, -stats["visits"], -(stats["value"] if stats["value"] is not None else -1), index,
                     {"move": move, "label": label, "value": stats["value"], "share": share,
                      "visits": stats["visits"], "bot_move": key == chosen}))
    return [row[-1] for row in sorted(rows, key=lambda row: row[:4])]


def analysed(ruleset: Any, state: Any, seat: int, names: Any, key: str, version: int, budget: int,
             search: Callable[..., dict] = bot_analysis) -> list[dict]:
    """The analysis of `seat` in the true `state` at `version`: its world made from what it may know (the bot
    key's resampling), searched by `search` (the worker's bot process; by default in this process), and
    labelled from its view.  What the job answers, and what the resampling test compares."""
    world = wire(seat_state(ruleset, state, seat, key, version))
    return moves_document(ruleset, state, seat, names, search(ruleset, world, seat, key, version, budget))


def document(analysis: str, status: str, result: Mapping[str, Any] | None = None, detail: str | None = None) -> dict:
    game_id, version, seat, budget = parse_id(analysis)
    return {"id": analysis, "game": game_id, "version": version, "seat": seat, "budget": budget, "status": status,
            "moves": list(result["moves"]) if result else None, "detail": detail}


# ------------------------------------------------------------------ the job, from the web's side
def job_id(analysis: str) -> str:
    return f"analysis-{analysis}-r{BOTS_REVISION}"


def enqueue_analysis(queue: Queue, game_id: str, version: int, seat: int, budget: int, keep_seconds: int) -> Job:
    """The search job for one analysis (service/jobs.py `analyse`), its result kept as the cache."""
    return queue.enqueue(ANALYSE, game_id, version, seat, budget, job_id=job_id(analysis_id(game_id, version, seat,
                                                                                               budget)),
                         result_ttl=keep_seconds, failure_ttl=60, job_timeout=120)


def job_of(queue: Queue, analysis: str) -> Job | None:
    try:
        return Job.fetch(job_id(analysis), connection=queue.connection)
    except NoSuchJobError:
        return None


def needs_search(job: Job | None) -> bool:
    """No job for it (never asked, or its result expired), or one that failed: a search is to be enqueued."""
    return job is None or job.get_status(refresh=False) in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)


def wait_for(job: Job, seconds: float) -> None:
    """Until the job has finished or failed, at most `seconds`."""
    ends = time.monotonic() + seconds
    while job.get_status() not in (JobStatus.FINISHED, JobStatus.FAILED) and time.monotonic() < ends:
        time.sleep(POLL_SECONDS)


def state_of(job: Job, analysis: str) -> tuple[dict, bool]:
    """(the analysis document as its job stands, whether it is done: finished or failed)."""
    status = job.get_status(refresh=False)
    if status == JobStatus.FINISHED:
        return document(analysis, "done", job.return_value()), True
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        return document(analysis, "failed", detail="the search failed; POST /v1/analysis again to retry"), True
    return document(analysis, "running" if status == JobStatus.STARTED else "queued"), False
