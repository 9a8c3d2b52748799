"""A game as loaded: the read model every part of the engine hands around.

`Game` composes the table (events/table.py) and the game's own state, both folded from its
events, with its version and meta record; `fold_game` is that fold.  The repository
(events/repository.py) builds it, the command handler and the table commands decide against it,
the committer (events/committer.py) builds the next one from an append.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from events import clocks
from events import table as tables
from events.envelope import Envelope
from events.forks import fold_events
from events.seeds import effective_seed
from events.table import ENDED, ENGINE_EVENTS, GameClosed
from rules.base import Event, KeyedRng, Rng
from rules.narration import Names
from rules.ruleset import Ruleset


class GameNotFound(LookupError):
    pass


@dataclass
class Game:
    """A game as loaded: the table (seats, control, clock settings, timeouts) and the game's own
    state, both folded from its events; its version; and its meta record (the seed, token hashes
    and deadlines, with the table's projection)."""

    id: str
    ruleset: Ruleset
    meta: dict[str, str]
    version: int
    state: Any
    table: dict
    fresh: bool = True  # False: this process's cached copy, possibly behind the store
    # An archived game (events/retention.py): read from the archive store, gone from Redis; `history`
    # is its every event, and `archived_text` the archived history, served as it is
    archived: bool = False
    history: tuple[Envelope, ...] = ()
    archived_text: str = ""

    @property
    def status(self) -> str:
        """open (seats to fill), active, finished or abandoned: read off the folded states."""
        return tables.game_status(self.table, self.state, self.ruleset)

    @property
    def ended(self) -> bool:
        """Finished or abandoned: it takes no more moves, and its secrets and seed are published."""
        return self.status in ENDED

    @property
    def seats(self) -> list[dict]:
        return [dict(seat) for seat in self.table["seats"]]

    @property
    def options(self) -> dict:
        return dict(self.table["options"])

    @property
    def names(self) -> Names:
        """The names the players chose, for the events' sentences (events/narration.py)."""
        return Names.of_table(self.table)

    @property
    def clock(self) -> dict:
        return dict(self.table["clock"])

    @property
    def deadlines(self) -> dict[int, int]:
        return {int(k): v for k, v in json.loads(self.meta.get("deadlines") or "{}").items()}

    @property
    def timeouts(self) -> dict[int, int]:
        return {int(k): v for k, v in self.table["timeouts"].items()}

    @property
    def seed(self) -> str:
        """The server's secret seed, the one committed to at creation (revealed at the end)."""
        return self.meta["seed"]

    @property
    def draw_counters(self) -> dict[str, int]:
        """Under draw keys: each roller's draw calls so far by kind, {"2/dice": 5, ...} (rules/base.py
        KeyedRng), written by the same atomic append as the events that made them."""
        return json.loads(self.meta.get("draw_counters") or "{}")

    @property
    def window_closes(self) -> int | None:
        """When the contribution window closes (ms), while it is open (events/table.py)."""
        window = self.table.get("window")
        if not window or window["closed"] or self.state is not None or not self.meta.get("window_closes"):
            return None  # none, closed, or the game started (every human seat sent its entropy)
        return int(self.meta["window_closes"])

    def command_rng(self, roller: str, record: bool = True) -> Rng:
        """The stream the next command draws from: under draw keys (GameCreated's draw_keys) each draw
        call on its roller's own stream, counted from the game's counters (a copy: the append writes
        them); before, one stream labelled by the command's first version (docs/fairness.md)."""
        if self.table.get("draw_keys"):
            return KeyedRng(self.effective_seed, self.draw_counters, roller, record=record)
        return Rng(self.effective_seed, self.version + 1, record=record)

    @property
    def effective_seed(self) -> str:
        """The seed every stream of the game is keyed by: the server's mixed with the players'
        entropy (events/seeds.py); the server's itself when nobody sent any.  As secret as the seed."""
        return effective_seed(self.seed, self.table)

    def awaiting(self) -> dict[int, str]:
        """Whom the game awaits now, seat -> kind of wait (events/clocks.py)."""
        return clocks.awaited(self.status, self.ruleset, self.state)

    def outcome(self) -> dict | None:
        return tables.game_outcome(self.table, self.state, self.ruleset)

    def last_human_at(self) -> int | None:
        """When a human last did something here (created, claimed, moved, reclaimed), from the meta
        record (None in a game recorded before the engine kept it)."""
        value = self.meta.get("human_at")
        return int(value) if value else None


def fold_game(ruleset: Ruleset, events: Iterable[Event], table: dict | None, state: Any) -> tuple[dict | None, Any]:
    """The engine's events into the table, the game's into its state.  The two folds read nothing
    of each other, so the game's events are folded in one go (in place, on the fold's own copy,
    for a ruleset that can: rules/ruleset.py fold_in_place), never changing `state`.  A fork's ForkDealt
    sets the state it deals (events/forks.py)."""
    game_events = []
    for event in events:
        if event.type in ENGINE_EVENTS:
            table = tables.evolve(table, event)
        else:
            game_events.append(event)
    return table, fold_events(ruleset, game_events, state)


def refuse_if_closed(game: Game) -> None:
    """GameClosed for an archived or abandoned game: it takes no command of any kind."""
    if game.archived:
        raise GameClosed(f"the game was {game.status} and has been archived: it takes no more commands; "
                         f"its history is at GET /v1/games/{game.id}/history", kind="game-archived")
    clocks.refuse_if_abandoned(game.table)
