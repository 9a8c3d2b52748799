"""Kingpin (2nd edition, Sporktopia Games) as a pure ruleset.

Rulebook: kingpin.txt (shared/rules); rulings and the command reference:
docs/rules/kingpin.md.  Modules by rulebook topic:

    cards.py     card data (cards.json), validated at import
    state.py     state shape and queries
    evolve.py    evolve: one handler per event
    commands.py  command shapes (BadCommand)
    turn.py      Initial Setup, purchases, the roll, Jail/bail, end of turn, Winning the Game
    dice.py      Roll Outcomes, Purchasing Hits, OD
    specials.py  Special Cards and their response windows
    view.py      view, outcome, invariants
    describe.py  command and event docs, the view's JSON Schema, move labels
    bots.py      "random" and "greedy" bots
"""
from __future__ import annotations

from typing import Mapping

from rules.base import Event, Option, Rng
from rules.blocks import windows
from rules.kingpin import bots, commands, describe, dice, search, specials, turn
from rules.kingpin import view as view_mod
from rules.kingpin.cards import CATALOG, DATA
from rules.kingpin.evolve import EVOLVERS
from rules.kingpin.state import must_place_hits
from rules.ruleset import RulesetBase

HANDLERS = {**turn.HANDLERS, **dice.HANDLERS, **specials.HANDLERS}

# command type -> the part of legal_moves that lists it (window answers aside)
MOVES_OF = {**dict.fromkeys(turn.HANDLERS, turn.moves), **dict.fromkeys(dice.HANDLERS, dice.moves),
            **dict.fromkeys(specials.HANDLERS, specials.moves)}

# Roll Outcomes: Single Die -- the face each single-die command allocates (the others name theirs)
FACE_OF = {"Ship": 1, "Distribute": 2, "PurchaseHits": 3, "Payday": 4, "StealDeal": 5, "Chloroform": 6}

ROLL_DICE, END_TURN = {"type": "RollDice"}, {"type": "EndTurn"}

TIMEOUT_ANSWERS = {"cop": {"type": "AcceptJail"}, "hitman": {"type": "AcceptHit"},
                   "regulator": {"type": "AcceptRegulator"}}


class Kingpin(RulesetBase):
    """The Kingpin ruleset: declarations; the rules live in the modules above."""

    name = "kingpin"
    title = noun = "Kingpin"
    versions = ((1, "as first released"),
                (2, "Distribute: Hits your Dealers can hold must be placed; only the extra is discarded"))
    min_seats, max_seats = 2, 6
    bot_levels = ("random", "greedy", "ismcts")
    evaluate = staticmethod(search.evaluate)
    search_policy, rollout_moves = search.POLICY, search.ROLLOUT_MOVES  # ISMCTS improves on the greedy bot
    options: Mapping[str, Option] = {
        "target": Option(5000, (3000, 5000, 10000),
                         "Bankroll that wins: $5,000; $3,000 for a shorter game, $10,000 for an epic one."),
        "turn_limit": Option(0, (0, 25, 50, 100),
                             "House rule (off by default): after this many rounds the richest player wins, "
                             "as if nobody could gain any more money. 0 = no limit."),
    }
    commands, handlers, evolvers = commands.SCHEMA, HANDLERS, EVOLVERS
    evolves_in_place, shared_in_clone = True, frozenset({"catalog"})  # evolve.py; the catalogue never changes
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    setup_rule = "Initial Setup"
    turn_rule = "On Your Turn"

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """GameStarted, FirstPlayerRolled, TurnStarted."""
        return turn.setup_events(CATALOG, options, seats, rng)

    def consequences(self, after: dict, rng: Rng) -> list[Event]:
        """Reaching the target bankroll (or the turn limit) ends the game at once."""
        won = turn.win_event(after)
        return [won] if won else []

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

    def is_legal(self, state: dict, seat: int, cmd: dict) -> bool:
        """`cmd in self.legal_moves(state, seat)`, listing only the part of the moves that can hold
        a command of its type (the dice's, the Special Cards' or the turn's): `decide` asks this for
        every command, and a replay for thousands."""
        if state["phase"] in ("over", "setup"):
            return False
        if state["window"] is not None:
            return cmd in specials.window_moves(state, seat)
        if seat != state["current"]:
            return False
        ctype = cmd.get("type")
        part = MOVES_OF.get(ctype)
        # the two commands of nearly every turn, as turn.moves lists them (without listing the rest)
        if ctype == "RollDice":  # listed last in the buy phase, never after it
            return state["phase"] == "buy" and cmd == ROLL_DICE
        if ctype == "EndTurn":  # listed last after the roll, unless Hits must be placed
            return state["phase"] != "buy" and cmd == END_TURN and not must_place_hits(state)
        if state["phase"] == "buy":
            if part is turn.moves:  # PurchaseCard and RollDice, which turn.moves lists last
                return cmd in turn.moves(state, seat)
            return part is specials.moves and cmd in specials.moves(state, seat)
        if part is dice.moves:  # only the allocations of the die face the command uses
            return cmd in dice.moves(state, seat, FACE_OF.get(cmd["type"], cmd.get("face")))
        return cmd in part(state, seat)

    def awaiting(self, state: dict) -> dict[int, str]:
        """{current seat: "move"}, or {responder: "response"} during a window; {} once over."""
        if state["phase"] in ("over", "setup"):
            return {}
        if state["window"] is not None:
            return windows.awaiting([state["window"]["responder"]])  # a window one seat answers
        return {state["current"]: "move"}

    def timeout_default(self, state: dict, seat: int) -> dict:
        """Roll if not rolled yet, else end the turn; in a window: no bribe, no doubling, no Immunity;
        a Distribute that must be placed (version 2): as many Hits as fit on the first Dealer with room."""
        if state["window"] is not None:
            return dict(TIMEOUT_ANSWERS[state["window"]["kind"]])
        if must_place_hits(state):
            return dice.place_default(state, seat)
        return {"type": "RollDice"} if state["phase"] == "buy" else {"type": "EndTurn"}

    # -- Reading ---------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        """The open table; see docs/rules/kingpin.md "View".  Nothing in Kingpin is secret."""
        return view_mod.view(state, seat)

    def outcome(self, state: dict) -> dict | None:
        """None while playing, else {"winners", "reason", "bankrolls"}."""
        return view_mod.outcome(state)

    def label(self, state: dict, seat: int, move: dict) -> str:
        """A legal move in the rulebook's words (describe.py)."""
        return describe.label(state, seat, move)

    def static_data(self) -> dict:
        """cards.json as the rules read it, and the catalogue built from it (prices, card ids)."""
        return {"cards": DATA, "catalog": CATALOG}

    def invariants(self, state: dict) -> list[str]:
        """Violated invariants (money balances, cards conserved); [] when all hold."""
        return view_mod.invariants(state)

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        return bots.choose(self, state, seat, level, rng)


RULESET = Kingpin()

__all__ = ["RULESET", "Kingpin", "HANDLERS"]
