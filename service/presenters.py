"""Documents the API returns, built from a loaded Game for one reader."""
from __future__ import annotations

import json
import time

from events import clocks
from events.runner import Game
from rules import narration
from rules.describe import move_labels

# who sends a seat's moves now: its human, a bot (from the start, or since its clock ran out), or nobody yet
CONTROLLER = {"human": "human", "bot": "bot", "open": "nobody"}


def seat_list(game: Game) -> list[dict]:
    return [{"seat": n, **spec} for n, spec in enumerate(game.seats)]


def summary(game_id: str, meta: dict) -> dict:
    """A lobby row, from the meta hash alone (no events read)."""
    seats = json.loads(meta["seats"])
    return {"id": game_id, "ruleset": meta["ruleset"], "ruleset_version": int(meta.get("ruleset_version", 1)),
            "status": meta.get("status", "open"),
            "version": int(meta.get("version", 0)), "created_at": int(meta.get("created_at", 0)),
            "seats": [{"seat": n, **spec} for n, spec in enumerate(seats)],
            "open_seats": [n for n, spec in enumerate(seats) if spec["kind"] == "open"],
            # what the table is, before anyone joins: its options (every one, defaults filled in) and clock
            "options": json.loads(meta.get("options") or "{}"),
            "clock": json.loads(meta.get("clock") or "null") or None,
            "seed_source": meta.get("seed_source", "server"), "visibility": meta.get("visibility") or "public",
            "analysis": meta.get("analysis") == "1",
            "rematch_of": meta.get("rematch_of")}


def turn_state(game: Game, seat: int | None, view: dict | None = None, now: int | None = None,
               present: list[int] = ()) -> dict:
    """Whose turn it is and what `seat` (None: a spectator) may send now: what a client acts on.
    The game document holds it all; the live stream sends it after each batch of events (`turn`).
    `now`: the server's clock in ms (by default this process's), for the time left beside each deadline;
    `present`: the seats with a live follower (events/presence.py), read by the caller."""
    now = int(time.time() * 1000) if now is None else now
    seats, awaiting = game.seats, game.awaiting()
    # a seat its clock handed to a bot is the bot's until its human reclaims it: its human is offered no
    # move (each would be refused, seat-played-by-bot), and told how to take it back
    played_by_bot = seat is not None and clocks.controller_of(seats, seat) == "bot"
    moves = game.ruleset.legal_moves(game.state, seat) if clocks.is_awaited(awaiting, seat) and not played_by_bot \
        else []
    return {
        "ruleset": game.ruleset.name,  # what types the moves and the outcome (the spec's <Game>TurnState)
        "version": game.version,
        "status": game.status,
        "you": seat,
        "awaiting": {str(s): kind for s, kind in sorted(awaiting.items())},
        # the same seats as integers, like `you`: JSON object keys are strings, so a client comparing
        # `you` with `awaiting`'s keys must convert; this list needs no conversion
        "awaiting_seats": sorted(awaiting),
        # several seats awaited at once (a simultaneous phase, a window of answers): a turn message may be
        # overtaken by another seat's move before the reader's arrives
        "simultaneous": len(awaiting) > 1,
        "controlled_by": {str(n): CONTROLLER[spec["kind"]] for n, spec in enumerate(seats)},
        "present": sorted(present),  # seats someone follows live now: not part of the game, nor of its history
        "reclaim": (f"/v1/games/{game.id}/seats/{seat}/reclaim" if played_by_bot and game.status == "active"
                    else None),
        "clocks": {str(s): deadline for s, deadline in sorted(game.deadlines.items())},
        "clocks_remaining_ms": {str(s): max(0, deadline - now) for s, deadline in sorted(game.deadlines.items())},
        "legal_moves": moves,
        # each written from the seat's view, never the true state (rules/ruleset.py `label`)
        "move_labels": move_labels(game.ruleset, game.state, seat, moves, game.names, view),
        "outcome": outcome(game) if game.ended else None,  # finished or abandoned: the outcome is known
        # before the start: the human seats whose entropy it waits for (a client holding one sends some)
        "contributions": contributions(game, now),
    }


def outcome(game: Game) -> dict | None:
    """How the game ended (the rules' outcome, or the table's when it was abandoned) with `text`, a sentence
    naming seats as the game does ("Ana wins: reached 10 Victory Points on their own turn.")."""
    result = game.outcome()
    if result is None:
        return None
    return {**result, "text": narration.outcome_text(result, game.names)}


def contributions(game: Game, now: int | None = None) -> dict | None:
    """While the game waits for its human seats' entropy (events/table.py): who, and until when
    (`remaining_ms` from `now`, the server's clock in ms: by default this process's)."""
    owed = clocks.owed(game.table) if game.status == "open" else []
    if not owed:
        return None
    closes = game.window_closes
    now = int(time.time() * 1000) if now is None else now
    return {"owed": owed, "closes_at": closes, "remaining_ms": None if closes is None else max(0, closes - now)}


def game_document(game: Game, seat: int | None, now: int, present: list[int] = ()) -> dict:
    """What `seat` (None: a spectator) may know about the game now (`now`: the server's clock, ms)."""
    doc = summary(game.id, game.meta)
    view = game.ruleset.view(game.state, seat) if game.state is not None else None
    # its labels are written from the same view; now: the runner's clock
    doc.update(turn_state(game, seat, view, now, present))
    doc["seed_commitment"] = game.meta["seed_commitment"]
    doc["view"] = view
    rematch = game.table.get("rematch") if game.table else None
    doc["rematch"] = {"asked": list(rematch.get("asked", ())), "game_id": rematch.get("game_id")} if rematch else None
    doc["forked_from"] = dict(game.table["fork"]) if game.table and "fork" in game.table else None
    if game.ended:
        doc["seed"] = game.seed  # the game is over: the seed is published
    return doc
