"""Seeded games played in-process exactly as the server would play them.

The server's randomness depends only on the game's seed and what was drawn before: a game the server
creates today draws under draw keys (`draw_keys=True`: rules/base.py KeyedRng, each draw call on its
roller's own stream, the setup's roller "world", a seat's move its seat's), the histories of formats
1-4 by version (the setup batch rolled with `Rng(seed, 2)`, GameCreated being version 1, each command
with `Rng(seed, version + 1)`; the in-process benches' histories still are).  A bot seat picks its move as the worker does
(rules/bot_seat.py `bot_command`: its seat's determinization and the bot key of
the seed).  So a game created with a given seed can
be played here first, without Redis, and its every command known in advance:
the HTTP bench hands wrk that list, the bot bench knows how many moves each
game will take, and the replay and memory benches get long histories fast.

`CYCLES` names, per ruleset, the command types of a cheap legal cycle (the
moves a player who does as little as possible sends); a ruleset without an
entry is played with `on_timeout`, the move a turn clock would apply, which
every ruleset must list among its legal moves.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from rules import RULESETS
from rules.base import WORLD, Event, KeyedRng, Rng, seed_commitment
from rules.bot_seat import bot_command, bot_key
from rules.ruleset import Ruleset, latest_version

# ruleset name -> command types to prefer, in order, among the legal moves
CYCLES: dict[str, tuple[str, ...]] = {
    "kingpin": ("EndTurn", "RollDice"),  # roll, end the turn: no purchases, so nobody earns and it never ends
}

# ruleset name -> options for games between random bots that end in a bounded number of moves
BOT_GAME_OPTIONS: dict[str, dict] = {
    "kingpin": {"target": 3000},
}
LONG_GAME_OPTIONS: dict[str, dict] = {
    "kingpin": {"target": 10000},
}

Policy = Callable[[Ruleset, dict, int, str, int], dict]  # (ruleset, state, seat, bot key, version)


def cheap_move(ruleset: Ruleset, state: Any, seat: int, key: str | None = None, version: int | None = None) -> dict:
    """The ruleset's cheap cycle: the first legal move of a preferred type, else the clock's default."""
    preferred = CYCLES.get(ruleset.name)
    if preferred:
        moves = ruleset.legal_moves(state, seat)
        for wanted in preferred:
            for move in moves:
                if move["type"] == wanted:
                    return move
    return ruleset.on_timeout(state, seat)


def random_bot_move(ruleset: Ruleset, state: Any, seat: int, key: str, version: int) -> dict:
    return bot_command(ruleset, state, seat, "random", key, version)


POLICIES: dict[str, Policy] = {"cheap": cheap_move, "random": random_bot_move}


@dataclass
class Batch:
    """One command and the events it appended, first at `version`."""

    version: int
    actor: str
    command: dict
    events: list[Event]
    seat: int | None = None
    draws: list | None = None  # the command's raw draws, exported on its first event (history format 4)


@dataclass
class PlayedGame:
    ruleset: Ruleset
    seats: int
    seed: str
    options: dict
    batches: list[Batch] = field(default_factory=list)
    state: Any = None

    @property
    def version(self) -> int:
        last = self.batches[-1]
        return last.version + len(last.events) - 1

    @property
    def commands(self) -> list[Batch]:
        """The batches players sent (not creation and setup)."""
        return [b for b in self.batches if b.seat is not None]

    @property
    def finished(self) -> bool:
        return self.state is not None and self.ruleset.outcome(self.state) is not None

    def events(self) -> Iterator[Event]:
        """The ruleset's events in order (what `evolve` folds; not the engine's GameCreated)."""
        for batch in self.batches[1:]:
            yield from batch.events


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


def play(ruleset: Ruleset | str, seats: int, seed: str, options: Mapping | None = None, *,
         policy: str = "cheap", actor_kind: str = "seat", max_commands: int = 100_000,
         until_version: int | None = None, draw_keys: bool = False) -> PlayedGame:
    """Play a game from creation as the server would: GameCreated (v1), setup, then
    commands chosen by `policy` for the lowest awaited seat, until the game ends,
    `max_commands` were sent or the version reaches `until_version`.  `draw_keys`: draw as a game the
    server creates today does (a plan for games created over HTTP); else as histories of format 4."""
    ruleset = RULESETS[ruleset] if isinstance(ruleset, str) else ruleset
    from rules.base import normalize_options
    options = normalize_options(ruleset.options, options)
    game = PlayedGame(ruleset, seats, seed, options)
    public_seats = [{"kind": "bot", "level": "random"} if actor_kind == "bot" else {"kind": "human"}] * seats
    created = Event("GameCreated", {"ruleset": ruleset.name, "ruleset_version": latest_version(ruleset),
                                    "options": options, "seats": public_seats,
                                    "seed_commitment": seed_commitment(seed), "clock": {},
                                    **({"draw_keys": "seat-counter"} if draw_keys else {})})
    game.batches.append(Batch(1, "system", {"type": "CreateGame"}, [created]))
    counters: dict[str, int] = {}  # under draw keys: the game's draw counters, advanced by each command's draws

    def rng_for(roller: str, version: int) -> Rng:
        return KeyedRng(seed, counters, roller, record=True) if draw_keys else Rng(seed, version, record=True)

    def drawn(rng: Rng) -> list:
        return rng.recorded() if draw_keys else rng.draws

    rng = rng_for(WORLD, 2)
    setup = [Event(e.type, _normal(dict(e.data))) for e in ruleset.setup(options, seats, rng)]
    game.batches.append(Batch(2, "system", {"type": "StartGame"}, setup, draws=drawn(rng)))
    state = None
    for event in setup:
        state = ruleset.evolve(state, event)
    version = game.version
    choose = POLICIES[policy]
    for _ in range(max_commands):
        if ruleset.outcome(state) is not None or (until_version is not None and version >= until_version):
            break
        seat = min(int(s) for s in ruleset.awaiting(state))
        command = choose(ruleset, state, seat, bot_key(seed), version)
        rng = rng_for(str(seat), version + 1)
        events = ruleset.decide(state, seat, command, rng)
        events = [Event(e.type, _normal(dict(e.data))) for e in events]
        game.batches.append(Batch(version + 1, f"{actor_kind}:{seat}", _normal(dict(command)), events, seat,
                                  drawn(rng)))
        for event in events:
            state = ruleset.evolve(state, event)
        version += len(events)
    game.state = state
    return game


def history_text(game: PlayedGame, game_id: str = "bench") -> str:
    """The game as `GET /v1/games/{id}/history` exports it: JSON Lines, header first."""
    from events.envelope import Envelope
    from events.history import history_lines

    seats = [{"kind": "bot", "level": "random"}] * game.seats
    header = {"game_id": game_id, "ruleset": game.ruleset.name, "ruleset_version": latest_version(game.ruleset),
              "options": game.options, "seats": seats,
              "seed": game.seed, "seed_commitment": seed_commitment(game.seed), "last_version": game.version,
              "outcome": game.ruleset.outcome(game.state)}
    envelopes = []
    for batch in game.batches:
        for i, event in enumerate(batch.events):
            envelopes.append(Envelope(game_id, batch.version + i, event.type, event.data, batch.actor,
                                      1_700_000_000_000 + batch.version, f"c{batch.version}",
                                      command=batch.command if i == 0 else None,
                                      draws=batch.draws if i == 0 else None))
    return "".join(history_lines(header, envelopes))


def history_records(game: PlayedGame, game_id: str = "bench") -> list[dict]:
    """The exported history parsed back (header, then one dict per event)."""
    from events.history import parse_history
    return parse_history(history_text(game, game_id))


def longest_game(ruleset: Ruleset | str, seats: int, seeds: list[str], options: Mapping | None = None,
                 policy: str = "random") -> PlayedGame:
    """Of the games these seeds give, the one with the most events (a long history, deterministically)."""
    games = [play(ruleset, seats, seed, options, policy=policy, actor_kind="bot") for seed in seeds]
    return max(games, key=lambda g: g.version)
