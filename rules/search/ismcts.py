"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse
2012), for any ruleset, through the contract only.

Each iteration:
  1. determinize: `ruleset.determinize(state, seat, rng)` gives a full state the searching seat
     cannot tell from the true one (its hidden parts resampled), so the search never reads a card
     it may not see; a ruleset without hidden information returns the state itself;
  2. select: walk down the tree, one node per move (keyed by who moved and the command), among the
     moves legal in *this* determinization, by UCB1 with availability counts (a move is scored
     against how often it was available, not how often its parent was visited);
  3. expand one untried move; chance (dice, shuffles) is whatever `decide` rolls with the search's
     rng, so it is sampled anew on every descent (an open-loop tree over moves, not outcomes);
  4. play out with random legal moves for at most `rollout_moves` moves, then score the state:
     the outcome's winners share 1 when the game is over, else `ruleset.evaluate(state)`
     (per-seat shares of a win) for a truncated playout;  a ruleset that says whose turn it is
     (`turn_holder`) has its horizon counted in turns instead (`rollout_rounds`, see `turn_horizon`).
     The settings are the ruleset's `search_settings` (SearchSettings, below).
  5. back up every seat's score along the path (max-n: each node is chosen by the seat that moves
     there, on that seat's own score).

The move played is the root's most visited child among the seat's legal moves.  `search` returns it with
the root's statistics (each move's visits and mean score for the searching seat): what an analysis shows
(service/analysis.py), from the very search a bot of the level makes.

A ruleset whose hand-written bot is stronger than this search can afford to be at about 200
iterations names that bot's level as its settings' `policy`; `choose` then runs `guided` (below) instead:
a rollout-based improvement of that policy that keeps the policy's move unless the playouts show,
with confidence, that another move is better.  Everything random
comes from the Rng handed in, so a fixed iteration budget makes the choice a function of the state,
the seat and the rng: reproducible from the game's seed.  `out_of_time` (a callable the caller
supplies: rules/ reads no clock) may stop the search early; the choice then depends on the
machine's speed, which is why it is only a cap (see README "Search bots").
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import Rng

DEFAULT_ITERATIONS = 200
DEFAULT_ROLLOUT_MOVES = 20
EXPLORATION = 0.7  # UCB1's constant for scores in [0, 1]
CANDIDATES = 4       # guided: root moves compared, the policy's and the best others one step ahead
CONFIDENCE = 2.0     # guided: standard errors by which a move must beat the policy's to replace it


@dataclass(frozen=True)
class SearchSettings:
    """How the search bot plays one game: a ruleset declares one (Ruleset.search_settings);
    the code hooks that go with it (determinize, evaluate, turn_holder, search_moves) are methods."""

    iterations: int = DEFAULT_ITERATIONS  # the served budget: what level "ismcts" searches a move (fixed, not timed)
    policy: str | None = None  # a bot level the search improves on (`guided`); None: plain ISMCTS
    rollout_moves: int = DEFAULT_ROLLOUT_MOVES  # a playout's horizon in commands
    rollout_moves_per_seat: int | None = None  # the horizon per seat at the table, instead of rollout_moves
    rollout_rounds: int | None = None  # the horizon in rounds of turns (needs `turn_holder`); the moves only cap it
    rollout_level: str | None = None  # the bot level playouts follow; None: uniformly random legal moves
    candidates: int = CANDIDATES  # guided: root moves compared, the policy's included
    confidence: float = CONFIDENCE  # guided: standard errors by which a move must beat the policy's to replace it
    halving: bool = False  # guided: compare the candidates in rounds, dropping the worse half each round
    grouped: bool = False  # guided: candidates of different kinds (command types) first
    # what a playout's end is scored by instead of the ruleset's `evaluate` hook: an earlier bots revision's
    # value, kept so that its moves re-run (Ruleset.search_revisions, rules/bot_seat.py)
    evaluate: Callable[[Any], list[float] | None] | None = None


def revised(ruleset: Any, settings: SearchSettings) -> Any:
    """The ruleset as an earlier bots revision searched it (rules/bot_seat.py, Ruleset.search_revisions): a
    shallow copy with that revision's `search_settings`, and its `evaluate` when the settings name one;
    everything else the ruleset's.  What the search reads of either is then that revision's, as it was."""
    searched = copy.copy(ruleset)
    searched.search_settings = settings
    if settings.evaluate is not None:
        searched.evaluate = settings.evaluate
    return searched


class Node:
    """A move in the tree: who made it, its statistics, and the moves after it."""

    __slots__ = ("seat", "move", "visits", "available", "score", "children")

    def __init__(self, seat: int | None, move: Mapping[str, Any] | None, seats: int):
        self.seat, self.move = seat, move
        self.visits, self.available = 0, 1
        self.score = [0.0] * seats
        self.children: dict[tuple, Node] = {}

    def ucb(self) -> float:
        mean = self.score[self.seat] / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def move_key(seat: int, move: Mapping[str, Any]) -> tuple:
    """A hashable, order-independent key of a command (its arguments may be lists or objects)."""
    return seat, _frozen(move)


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def scores(ruleset: Any, state: Any, seats: int) -> list[float]:
    """Per-seat shares of a win: the outcome's winners split 1; a game not over is the ruleset's
    `evaluate` (equal shares for a ruleset that has none)."""
    outcome = ruleset.outcome(state)
    if outcome is not None:
        winners = outcome.get("winners") or []
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]
    values = ruleset.evaluate(state)
    return list(values) if values is not None else [1.0 / seats] * seats


def mover(ruleset: Any, state: Any) -> int | None:
    """Who moves next in a simulated game: the lowest awaited seat (as the worker plays bot seats)."""
    awaiting = ruleset.awaiting(state)
    return min(awaiting) if awaiting else None


def step(ruleset: Any, state: Any, seat: int, move: Mapping[str, Any], rng: Rng) -> Any:
    return ruleset.decide_and_apply(state, seat, move, rng)[1]


def horizon(ruleset: Any, state: Any) -> int:
    """Playout moves: the settings' `rollout_moves_per_seat` times the seats where it counts the
    horizon per seat (so a playout reaches as many turns of each seat at any table size), else its
    `rollout_moves`."""
    settings = ruleset.search_settings
    if settings.rollout_moves_per_seat:
        return settings.rollout_moves_per_seat * ruleset.seat_count(state)
    return settings.rollout_moves


# A horizon counted in commands rewards a move for the commands it uses up: a declined offer in Lords of
# Cannabis (offer, decline: the same position, two commands later) scored exactly as the policy's own move
# with the playout cut two commands short, and the search made it again and again instead of rolling.  A
# ruleset that says whose turn it is (`turn_holder(state)`, any value that changes exactly when a turn
# ends) gets its horizon counted in turns: every playout of a choice stops at the same turn boundary,
# `rollout_rounds` rounds (that many turns of each seat) after the position searched, however many
# commands each line took to get there; `rollout_moves` then only caps a playout that never gets there.
def turn_horizon(ruleset: Any, state: Any) -> int | None:
    """Turn ends a playout runs to, counted from the position searched (None: count commands)."""
    rounds = ruleset.search_settings.rollout_rounds  # Ruleset checks it comes with a turn_holder
    if not rounds:
        return None
    return rounds * ruleset.seat_count(state)


def turns_left(ruleset: Any, before: Any, after: Any, left: int | None) -> int | None:
    """`left` less the turn that ended between two positions, if one did."""
    if left is None:
        return None
    return left - (ruleset.turn_holder(after) != ruleset.turn_holder(before))


def searched_moves(ruleset: Any, state: Any, seat: int) -> list:
    """The legal moves the search considers: all of them, less those the ruleset's `search_moves`
    drops (moves that only repeat what the table just refused: a declined offer made again)."""
    moves = ruleset.legal_moves(state, seat)
    return ruleset.search_moves(state, seat, moves) if moves else moves


def choose(ruleset: Any, state: Any, seat: int, rng: Rng, iterations: int = DEFAULT_ITERATIONS,
           out_of_time: Callable[[], bool] | None = None, rollout_moves: int | None = None) -> dict:
    """The move ISMCTS picks for `seat` (one of its legal moves) after `iterations` iterations,
    or fewer if `out_of_time()` turns true (checked between iterations, after the first)."""
    return search(ruleset, state, seat, rng, iterations, out_of_time, rollout_moves).chosen


@dataclass(frozen=True)
class RootMove:
    """One of the searching seat's legal moves as the search ended: how many of its iterations (playouts,
    when guided) went through it, and the seat's mean score over them (None: the search never tried it)."""

    move: dict
    visits: int
    value: float | None


@dataclass(frozen=True)
class Searched:
    """What one search found: the move it plays (`choose`'s) and its root's statistics, one per move in the
    order of the seat's searched legal moves.  A seat with one move is not searched: that move, no visits."""

    chosen: dict
    moves: tuple[RootMove, ...]


def search(ruleset: Any, state: Any, seat: int, rng: Rng, iterations: int = DEFAULT_ITERATIONS,
           out_of_time: Callable[[], bool] | None = None, rollout_moves: int | None = None) -> Searched:
    """`choose`'s search, with its root's statistics (what an analysis shows): the same draws from `rng` in
    the same order, so its `chosen` is the move `choose` returns."""
    moves = searched_moves(ruleset, state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move to search")
    if len(moves) == 1:
        return Searched(moves[0], (RootMove(moves[0], 0, None),))
    if rollout_moves is None:
        rollout_moves = horizon(ruleset, state)
    turns = turn_horizon(ruleset, state)
    policy = ruleset.search_settings.policy
    if policy is not None:
        return guided(ruleset, state, seat, moves, rng, iterations, out_of_time, rollout_moves, policy, turns)
    seats = ruleset.seat_count(state)
    root = Node(None, None, seats)
    for done in range(iterations):
        if done and out_of_time is not None and out_of_time():
            break
        iterate(ruleset, root, ruleset.determinize(state, seat, rng), seat, seats, rng, rollout_moves, turns)
    legal = {move_key(seat, m): m for m in moves}
    ranked = [(child.visits, -index, key) for index, (key, child) in enumerate(root.children.items()) if key in legal]
    chosen = legal[max(ranked)[2]] if ranked else moves[0]
    children = [root.children.get(move_key(seat, move)) for move in moves]
    return Searched(chosen, tuple(RootMove(move, child.visits, child.score[seat] / child.visits)
                                  if child is not None and child.visits else RootMove(move, 0, None)
                                  for move, child in zip(moves, children)))


def iterate(ruleset: Any, root: Node, world: Any, seat: int, seats: int, rng: Rng, rollout_moves: int,
            turns: int | None = None) -> None:
    """One iteration on one determinization: select, expand, play out (to `turns` turn ends from
    the root, when the horizon is counted in turns), back up."""
    node, path = root, [root]
    while ruleset.outcome(world) is None:
        actor = seat if node is root else mover(ruleset, world)
        if actor is None:
            break
        moves = searched_moves(ruleset, world, actor)
        if not moves:
            break
        untried = []
        for move in moves:
            child = node.children.get(move_key(actor, move))
            if child is None:
                untried.append(move)
            else:
                child.available += 1
        if untried:
            move = rng.choice(untried)
            child = node.children[move_key(actor, move)] = Node(actor, move, seats)
            node = child
        else:
            keys = [move_key(actor, m) for m in moves]
            node = max((node.children[k] for k in keys), key=Node.ucb)
        before, world = world, step(ruleset, world, actor, node.move, rng)
        turns = turns_left(ruleset, before, world, turns)  # the tree's own moves count against the horizon
        path.append(node)
        if untried:
            break
    world = playout(ruleset, world, rng, rollout_moves, turns=turns)
    result = scores(ruleset, world, seats)
    for visited in path:
        visited.visits += 1
        for s in range(seats):
            visited.score[s] += result[s]


def playout(ruleset: Any, world: Any, rng: Rng, moves_left: int, level: str | None = None,
            turns: int | None = None) -> Any:
    """Moves of the `level` bot (default: the settings' `rollout_level`; None: uniformly random
    legal moves) until the game ends, `turns` more turns end (when given) or `moves_left` moves
    are made."""
    if level is None:
        level = ruleset.search_settings.rollout_level
    for _ in range(moves_left):
        if ruleset.outcome(world) is not None or (turns is not None and turns <= 0):
            break
        actor = mover(ruleset, world)
        if actor is None:
            break
        if level is not None:
            move = ruleset.bot_move(world, actor, level, rng)
        else:
            moves = searched_moves(ruleset, world, actor)
            if not moves:
                break
            move = rng.choice(moves)
        before, world = world, step(ruleset, world, actor, move, rng)
        turns = turns_left(ruleset, before, world, turns)
    return world


# ------------------------------------------------------------------ guided by a policy
# A ruleset with a good hand-written bot names its level as the settings' `policy` ("greedy").  The search
# then improves on that policy instead of searching from scratch (a rollout algorithm: Bertsekas &
# Tsitsiklis; Tesauro & Galperin 1996): at the root, the policy's own move and the few moves that
# look best one step ahead are each played out in the same determinizations, every seat following
# the policy for `rollout_moves` moves before `evaluate` scores the state.  Comparing the
# candidates world by world, with the same dice for each (common random numbers), removes most of
# the luck the comparison would otherwise measure.  The policy's move is kept unless another one
# beats it by CONFIDENCE standard errors, so the search is never much worse than its policy.
MIN_WORLDS = 4       # determinizations before any move may replace the policy's


def guided(ruleset: Any, state: Any, seat: int, moves: list, rng: Rng, iterations: int,
           out_of_time: Callable[[], bool] | None, rollout_moves: int, policy: str,
           turns: int | None = None) -> Searched:
    """The policy's move, or a candidate that beats it in paired playouts (one iteration is one
    playout of one candidate; counted in turns, every candidate's playout stops at the same turn end).
    With `halving`, the candidates are compared in rounds, each round's worse half dropped (the policy's
    move always stays), so the last round's few share most of the budget."""
    settings = ruleset.search_settings
    default = ruleset.bot_move(state, seat, policy, rng)
    candidates = [default] + alternatives(ruleset, state, seat, moves, default, rng, settings.candidates - 1,
                                          settings.grouped)
    if len(candidates) == 1:
        return Searched(default, tuple(RootMove(move, 0, None) for move in moves))
    rounds = max(1, math.ceil(math.log2(len(candidates)))) if settings.halving else 1
    alive = list(range(len(candidates)))
    differences: list[list[float]] = [[] for _ in candidates]
    totals = [0.0] * len(candidates)  # each candidate's summed score, for the analysis's values
    played = 0
    for round_index in range(rounds):
        for _ in range(max(1, iterations // rounds // len(alive))):
            if played and out_of_time is not None and out_of_time():
                break
            world = ruleset.determinize(state, seat, rng)
            dice = str(rng.randbelow(1 << 62))  # every candidate meets the same chance stream
            values = {j: candidate_value(ruleset, world, seat, candidates[j], dice, rollout_moves, policy, turns)
                      for j in alive}
            for j in alive:
                differences[j].append(values[j] - values[0])
                totals[j] += values[j]
            played += 1
        if round_index < rounds - 1:
            ahead = sorted(alive[1:], key=lambda j: (-sum(differences[j]) / len(differences[j]), j))
            alive = [0] + sorted(ahead[:max(1, len(alive) // 2 - 1)])
    best = confident_best([differences[j] for j in alive], settings.confidence)
    return Searched(candidates[alive[best]], candidate_stats(seat, moves, candidates, differences, totals))


def candidate_stats(seat: int, moves: list, candidates: list, differences: list[list[float]],
                    totals: list[float]) -> tuple[RootMove, ...]:
    """Each move's playouts and mean score in a guided search: the candidates' (the policy's move among them,
    even where `search_moves` dropped it), none for the moves it did not compare."""
    tried = {move_key(seat, c): j for j, c in enumerate(candidates)}
    listed = {move_key(seat, m) for m in moves}
    stats = []
    for move in [*moves, *(c for c in candidates if move_key(seat, c) not in listed)]:
        j = tried.get(move_key(seat, move))
        played = len(differences[j]) if j is not None else 0
        stats.append(RootMove(move, played, totals[j] / played if played else None))
    return tuple(stats)


def candidate_value(ruleset: Any, world: Any, seat: int, move: Mapping[str, Any], dice: str, rollout_moves: int,
                    policy: str, turns: int | None = None) -> float:
    """The seat's score after `move` and a playout of the policy (chance from `dice`, the same for
    every candidate in this world)."""
    chance = Rng(dice, "playout")
    after = step(ruleset, world, seat, move, chance)
    end = playout(ruleset, after, chance, rollout_moves, policy, turns_left(ruleset, world, after, turns))
    return scores(ruleset, end, ruleset.seat_count(world))[seat]


def confident_best(differences: list[list[float]], confidence: float = CONFIDENCE) -> int:
    """The index of the candidate whose mean paired difference to candidate 0 is largest and
    at least `confidence` standard errors above zero; 0 when none is."""
    best, best_mean = 0, 0.0
    for j, diffs in enumerate(differences[1:], start=1):
        n = len(diffs)
        if n < MIN_WORLDS:
            continue
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean > confidence * spread and mean > best_mean:
            best, best_mean = j, mean
    return best


def alternatives(ruleset: Any, state: Any, seat: int, moves: list, default: Mapping[str, Any], rng: Rng,
                 count: int, grouped: bool = False) -> list[dict]:
    """Up to `count` legal moves other than `default`, the best first by `evaluate` one move ahead
    (chance in that move sampled once, the same for every move).  `grouped`: the best of each kind of
    move (command type) first, so variants of one choice (how much to Sway, which card to give) do not
    crowd out the other choices, then the next best of any kind."""
    if count <= 0:
        return []
    seats = ruleset.seat_count(state)
    world = ruleset.determinize(state, seat, rng)
    dice = str(rng.randbelow(1 << 62))
    key = move_key(seat, default)
    ranked = []
    for index, move in enumerate(moves):
        if move_key(seat, move) == key:
            continue
        after = step(ruleset, world, seat, move, Rng(dice, "probe"))
        ranked.append((-scores(ruleset, after, seats)[seat], index, move))
    ranked.sort(key=lambda t: (t[0], t[1]))
    if grouped:
        kinds, first = {default["type"]}, set()
        for _, index, move in ranked:
            if move["type"] not in kinds:
                kinds.add(move["type"])
                first.add(index)
        ranked.sort(key=lambda t: (t[1] not in first, t[0], t[1]))
    return [move for _, _, move in ranked[:count]]
