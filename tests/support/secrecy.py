"""Secrecy proven by resampling (issue 34 item 7): the check tests/service/test_secrecy_by_resampling.py runs.

A seat may read its view, its legal moves and their labels, the game document and the stream's turn
message the service builds from them (service/presenters.py, service/sse.py), the detail of a command
refused, and every event as redacted for it with its sentence (events/repository.py `redact_envelope`).  It
may not read what its view hides: other hands, deck orders, other seats' dice.

States.  `determinize(state, seat, rng)` deals a full state the seat cannot tell from the true one: what
its view hides, resampled.  Everything the seat reads must be the same in the true state and in each
resample; a difference is a secret told (a label that counts the table's dice, a legal move offered only
when an opponent holds a card, a refusal that names a hidden card).

Events.  Resampling a state reaches nothing of the events that led to it, so each command is checked as
a transition: the same command, with the same stream, decided in the true state and in its resamples (an
event's public part that copies a hidden value the state held: the card drawn from a resampled deck, the
dice under a resampled cup), and in the true state with one draw of its stream changed (an event's public
part that copies a fresh draw meant to be secret: a roll under a cup).  Whenever the seat's view after
two such runs is the same, what the seat is told (its redacted events and their sentences) must be the
same: an event may tell a seat no more than its view after it.  A changed draw whose whole effect is
gone from the state after (a public die nobody keeps) is allowed to show in the events.  So a view must keep
what the table was shown while it still matters: Trafficking's view did not keep the card just read aloud
and put under its stack, and now shows it (`shown`).

The check is run from the real code paths (presenters, redact, narrate), so a leak anywhere along them
fails it.  It returns counts of what it compared, for the tests to require that it compared something.
What it cannot see: a hidden value `determinize` keeps as it is (the check compares only what resampling
varies), and what a seat could piece together from several events over time (each is checked alone).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from events import table as tables
from events.narration import narrate
from events.runner import Game
from rules.base import Event, IllegalMove, Rng, redact
from rules.describe import move_labels
from rules.narration import Names, seats_named
from rules.ruleset import adopt
from service.presenters import game_document
from service.sse import turn_message

PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")


class Nudged(Rng):
    """The stream of (seed, label) with its `at`-th draw changed to another value its bound allows."""

    __slots__ = ("_at", "_count")

    def __init__(self, seed: str, label: Any, at: int):
        super().__init__(seed, label)
        self._at, self._count = at, 0

    def randbelow(self, n: int) -> int:
        value = super().randbelow(n)
        self._count += 1
        return (value + 1 + self._count % max(1, n - 1)) % n if self._count - 1 == self._at and n > 1 else value


@dataclass
class Tally:
    """What a run of the check compared (a check that compared nothing proves nothing)."""

    states: int = 0        # resampled states whose every readable part was compared with the true one's
    resampled: int = 0     # transitions from a resampled state told the seat the same as from the true one
    redrawn: int = 0       # transitions with one draw changed told the seat the same as the true one
    commands: int = 0
    kinds: set = field(default_factory=set)

    def __iadd__(self, other: Tally) -> Tally:
        self.states += other.states
        self.resampled += other.resampled
        self.redrawn += other.redrawn
        self.commands += other.commands
        self.kinds |= other.kinds
        return self


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)


# ---------------------------------------------------------------- what a seat reads of a state
def table_for(ruleset: Any, seats: int, options: dict) -> dict:
    """A table of named human seats, as the engine keeps it (events/table.py)."""
    created = tables.created(ruleset.name, options, [{"kind": "human", "name": PLAYERS[s]} for s in range(seats)],
                             "0" * 64, None, ruleset.version)
    return tables.evolve(None, created[0])


def game_of(ruleset: Any, table: dict, state: Any, version: int) -> Game:
    """The game as the service loads it, around `state` (nothing of it read from Redis)."""
    meta = {**tables.projection(table), "seed": "never-read", "status": "active", "created_at": "0",
            "deadlines": "{}", "version": str(version)}
    return Game(id="resampled", ruleset=ruleset, meta=meta, version=version, state=state, table=table)


def refused(ruleset: Any, state: Any, seat: int | None, command: dict, names: Names) -> Any:
    """What the seat reads when it sends `command`: "accepted", or the problem's detail and rule (seats named,
    as service/api/play.py words it)."""
    if seat is None:
        return None
    try:
        ruleset.decide(state, seat, command, Rng("probe", 0))
    except IllegalMove as refusal:
        return [type(refusal).__name__, seats_named(refusal.reason, names), refusal.rule]
    return "accepted"


def readable(ruleset: Any, table: dict, state: Any, version: int, seat: int | None, probes: list[dict]) -> dict:
    """Everything `seat` (None: a spectator) can read of the game in `state`, part by part."""
    game = game_of(ruleset, table, state, version)
    moves = ruleset.legal_moves(state, seat) if seat is not None else []
    return {"view": ruleset.view(state, seat),
            "legal moves": moves,
            "move labels": move_labels(ruleset, state, seat, moves, game.names),
            "awaited seats": sorted(ruleset.awaiting(state)),
            "game document": game_document(game, seat, 0),  # an active game: no clock in it
            "stream turn message": turn_message(game, seat),
            "refusals": [refused(ruleset, state, seat, probe, game.names) for probe in probes]}


def compare_states(name: str, ruleset: Any, table: dict, state: Any, version: int, seat: int | None,
                   twins: list, probes: list[dict]) -> int:
    """AssertionError naming the first part `seat` reads differently in a resampled twin; the twins compared."""
    real = readable(ruleset, table, state, version, seat, probes)
    for twin in twins:
        other = readable(ruleset, table, twin, version, seat, probes)
        for part, value in real.items():
            if value != other[part]:
                raise AssertionError(f"{name} at version {version}: {_who(seat)} reads different {part} in the true "
                                     f"state and in one resampled where it cannot see:\n  true:      "
                                     f"{_short(value)}\n  resampled: {_short(other[part])}")
    return len(twins)


def _short(value: Any, limit: int = 600) -> str:
    text = canonical(value)
    return text if len(text) <= limit else text[:limit] + "..."


# ---------------------------------------------------------------- what a seat is told by events
def told(ruleset: Any, events: list[Event], seat: int | None, names: Names) -> list:
    """The events as `seat` receives them: redacted data and sentence (events/repository.py redact_envelope)."""
    out = []
    for event in events:
        mine = redact(ruleset, event, seat)
        out.append([event.type, mine.data, narrate(ruleset, mine, names)["text"]])
    return out


def nudges(seed: str, label: Any, draws: int, count: int) -> list[int]:
    """Which draws of a stream of `draws` to change: up to `count`, spread over the stream."""
    if draws == 0:
        return []
    pick = Rng(f"nudges:{seed}", label)
    return sorted({pick.randbelow(draws) for _ in range(count)} | {0, draws - 1})[:count + 2]


def compare_transitions(name: str, ruleset: Any, worlds: list, actor: int, command: dict | None, seed: str,
                        label: Any, seat: int | None, names: Names, redraws: int, options: dict | None = None,
                        seats: int | None = None) -> tuple[int, int]:
    """AssertionError when `seat` is told different events by two runs of one command (`command` by `actor`;
    None: the opening, `setup(options, seats)`) after which its view is the same; (resampled, redrawn)
    comparisons made.  `worlds[0]` is the true state, the rest its resamples for `seat`."""
    def run(world: Any, rng: Rng) -> tuple[str, list, Any] | None:
        try:
            if command is None:
                events = ruleset.setup(options, seats, rng)
                after = ruleset.fold(None, events)
            else:
                events, after = ruleset.decide_and_apply(world, actor, command, rng)
        except IllegalMove:
            return None  # not legal in this resample (an opponent's card it was dealt otherwise)
        return ruleset.view(after, seat), told(ruleset, events, seat, names), after

    def differ(a: tuple, b: tuple, how: str) -> None:
        raise AssertionError(f"{name}: {how}, {_who(seat)}'s view after {_what(command, actor)} is the same but "
                             f"it is told different events:\n  one:   {_short(a[1])}\n  other: {_short(b[1])}")

    recorder = Rng(seed, label, record=True)
    real = run(worlds[0], recorder)
    if real is None:
        raise AssertionError(f"{name}: {_what(command, actor)} is not legal in the true state")
    resampled = redrawn = 0
    for world in worlds[1:]:  # the same stream, in a state resampled where the seat cannot see
        other = run(world, Rng(seed, label))
        if other is not None and other[0] == real[0]:
            if other[1] != real[1]:
                differ(real, other, "decided in a state resampled where it cannot see")
            resampled += 1
    for at in nudges(seed, label, len(recorder.draws), redraws):  # the true state, one draw changed
        other = run(worlds[0], Nudged(seed, label, at))
        if other[0] == real[0] and other[2] != real[2]:  # else the draw changed nothing the state keeps
            if other[1] != real[1]:
                differ(real, other, f"with draw {at} of its stream changed")
            redrawn += 1
    return resampled, redrawn


def _who(seat: int | None) -> str:
    return "a spectator" if seat is None else f"seat {seat}"


def _what(command: dict | None, actor: int) -> str:
    return "the opening" if command is None else f"{command} by seat {actor}"


# ---------------------------------------------------------------- random playouts
@dataclass(frozen=True)
class Plan:
    """How much of each game to check: games, seats, commands, how often, how many resamples and redraws."""

    games: int = 2
    max_commands: int = 400
    every: int = 3          # states compared at every `every`-th command (transitions: every command)
    twins: int = 2          # resamples per seat and state
    redraws: int = 2        # changed draws per command and seat
    options: tuple = ({},)  # the options of game 0, 1, ... (in turn)
    seats: tuple = ()       # the seat counts of game 0, 1, ... (in turn); () from the fewest up to 4


def positions(ruleset: Any, seats: int, options: dict, seed: str, max_commands: int) -> Iterator[tuple]:
    """(state, version, seat, command) along a game of random bot moves (each awaited seat in turn), to its end."""
    events = ruleset.setup(options, seats, Rng(seed, 1))
    state, version = ruleset.fold(None, events), 1 + len(events)
    for step in range(max_commands):
        awaiting = ruleset.awaiting(state)
        if not awaiting or ruleset.outcome(state) is not None:
            return
        seat = sorted(awaiting)[step % len(awaiting)]
        command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{step}"))
        yield state, version, seat, command
        events = ruleset.decide(state, seat, command, Rng(seed, version))
        state, version = ruleset.fold(state, events), version + len(events)


def check_secrecy(name: str, ruleset: Any, plan: Plan = Plan()) -> Tally:
    """Play `plan.games` random games of `ruleset` and compare, for every seat and a spectator, everything
    they can read between the true game and resamples of it (see the module's docstring)."""
    ruleset = adopt(ruleset)
    tally = Tally()
    for game in range(plan.games):
        seats = plan.seats[game % len(plan.seats)] if plan.seats else \
            ruleset.min_seats + game % (min(ruleset.max_seats, 4) - ruleset.min_seats + 1)
        options = plan.options[game % len(plan.options)]
        seed = f"secrecy-{name}-{game}"
        table = table_for(ruleset, seats, options)
        names = Names.of_table(table)
        readers = [None, *range(seats)]
        for seat in readers:
            _, redrawn = compare_transitions(name, ruleset, [None], 0, None, seed, 1, seat, names, plan.redraws,
                                             options, seats)
            tally.redrawn += redrawn
        for step, (state, version, actor, command) in enumerate(positions(ruleset, seats, options, seed,
                                                                          plan.max_commands)):
            tally.commands += 1
            tally.kinds.add(command["type"])
            others = [m for s in sorted(ruleset.awaiting(state)) if s != actor
                      for m in ruleset.legal_moves(state, s)[:2]] + [command]
            for seat in readers:
                rng = Rng(f"resample-{seed}", f"{step}:{seat}")
                twins = [ruleset.determinize(state, seat, rng) for _ in range(plan.twins)]
                if step % plan.every == 0:
                    tally.states += compare_states(name, ruleset, table, state, version, seat, twins,
                                                   [m for m in others if seat is not None])
                resampled, redrawn = compare_transitions(name, ruleset, [state, *twins], actor, command, seed, version,
                                                         seat, names, plan.redraws)
                tally.resampled += resampled
                tally.redrawn += redrawn
    return tally
