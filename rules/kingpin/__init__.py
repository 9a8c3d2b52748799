"""Kingpin (2nd edition, Sporktopia Games) as a pure ruleset.

Rulebook: /work/shared/rules/kingpin.txt; rulings and the command reference:
docs/rules/kingpin.md.  Modules by rulebook topic:

    cards.py     card data (cards.json), validated at import
    state.py     state shape and queries
    evolve.py    evolve: one handler per event
    commands.py  command shapes (BadCommand)
    turn.py      Initial Setup, purchases, the roll, Jail/bail, end of turn, Winning the Game
    dice.py      Roll Outcomes, Purchasing Hits, OD
    specials.py  Special Cards and their response windows
    view.py      view, outcome, invariants
    bots.py      "random" and "greedy" bots
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.base import BadCommand, Event, IllegalMove, Option, Rng, normalize_options

from rules.kingpin import bots, commands, dice, specials, turn, view as view_mod
from rules.kingpin.cards import CATALOG
from rules.kingpin.evolve import evolve as _evolve

HANDLERS = {**turn.HANDLERS, **dice.HANDLERS, **specials.HANDLERS}
assert set(HANDLERS) == set(commands.SCHEMA), "every command type needs exactly one handler"

TIMEOUT_ANSWERS = {"cop": {"type": "AcceptJail"}, "hitman": {"type": "AcceptHit"},
                   "regulator": {"type": "AcceptRegulator"}}


class Kingpin:
    """The Kingpin ruleset (see rules/base.py for the contract)."""

    name = "kingpin"
    title = "Kingpin"
    min_seats = 2
    max_seats = 6
    bot_levels = ("random", "greedy")
    options: Mapping[str, Option] = {
        "target": Option(5000, (3000, 5000, 10000),
                         "Bankroll that wins: $5,000; $3,000 for a shorter game, $10,000 for an epic one."),
        "turn_limit": Option(0, (0, 25, 50, 100),
                             "House rule (off by default): after this many rounds the richest player wins, "
                             "as if nobody could gain any more money. 0 = no limit."),
    }

    # -- Decider ---------------------------------------------------------------

    def setup(self, options: Mapping[str, Any] | None, seats: int, rng: Rng) -> list[Event]:
        """GameStarted, FirstPlayerRolled, TurnStarted."""
        opts = normalize_options(self.options, options)
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_seats <= seats <= self.max_seats:
            raise BadCommand(f"Kingpin takes {self.min_seats} to {self.max_seats} players, not {seats!r}")
        return turn.setup_events(CATALOG, opts, seats, rng)

    def decide(self, state: dict, seat: int, command: Mapping[str, Any], rng: Rng) -> list[Event]:
        """Events for a command, or IllegalMove / BadCommand."""
        cmd = commands.validate(command)
        if state is None:
            raise IllegalMove("the game has not been set up", rule="Initial Setup")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(state["seats"]):
            raise BadCommand(f"there is no seat {seat!r} in this {state['seats']}-player game")
        events = HANDLERS[cmd["type"]](state, seat, cmd, rng)
        if cmd not in self.legal_moves(state, seat):  # the handlers' checks should make this unreachable
            raise IllegalMove(f"{cmd['type']} with these arguments is not one of your legal moves now",
                              rule="On Your Turn")
        after = state
        for event in events:
            after = _evolve(after, event)
        won = turn.win_event(after)
        return events + [won] if won else events

    def evolve(self, state: dict | None, event: Event) -> dict:
        """Pure: returns a new state."""
        return _evolve(state, event)

    # -- Who acts, and how -----------------------------------------------------

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        """Every command `seat` may send now, each postable as-is."""
        if state["phase"] in ("over", "setup"):
            return []
        if state["window"] is not None:
            return specials.window_moves(state, seat)
        if seat != state["current"]:
            return []
        if state["phase"] == "buy":
            return turn.moves(state, seat)[:-1] + specials.moves(state, seat) + [{"type": "RollDice"}]
        return dice.moves(state, seat) + specials.moves(state, seat) + turn.moves(state, seat)

    def awaiting(self, state: dict) -> dict[int, str]:
        """{current seat: "move"}, or {responder: "response"} during a window; {} once over."""
        if state["phase"] in ("over", "setup"):
            return {}
        if state["window"] is not None:
            return {state["window"]["responder"]: "response"}
        return {state["current"]: "move"}

    def on_timeout(self, state: dict, seat: int) -> dict:
        """Roll if not rolled yet, else end the turn; in a window: no bribe, no doubling, no Immunity."""
        waiting = self.awaiting(state)
        if seat not in waiting:
            raise IllegalMove(f"seat {seat} has nothing to answer now", rule="On Your Turn")
        if state["window"] is not None:
            return dict(TIMEOUT_ANSWERS[state["window"]["kind"]])
        return {"type": "RollDice"} if state["phase"] == "buy" else {"type": "EndTurn"}

    # -- Reading ---------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """The open table; see docs/rules/kingpin.md "View"."""
        return view_mod.view(state, seat)

    def visible_to(self, event: Event) -> str:
        """Nothing in Kingpin is secret (stacks are sorted, not shuffled)."""
        return "public"

    def outcome(self, state: dict) -> dict | None:
        """None while playing, else {"winners", "reason", "bankrolls"}."""
        return view_mod.outcome(state)

    def invariants(self, state: dict) -> list[str]:
        """Violated invariants (money balances, cards conserved); [] when all hold."""
        return view_mod.invariants(state)

    def bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        """A legal command chosen by the "random" or "greedy" bot."""
        if level not in self.bot_levels:
            raise BadCommand(f"unknown bot level {level!r}; levels: {', '.join(self.bot_levels)}")
        return bots.choose(self, state, seat, level, rng)


RULESET = Kingpin()

__all__ = ["RULESET", "Kingpin"]
