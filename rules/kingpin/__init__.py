"""Kingpin (2nd edition, Sporktopia Games) as a pure ruleset.

Rulebook: kingpin.txt (shared/rules); rulings and the command reference:
docs/rules/kingpin.md.  Modules by rulebook topic:

    cards.py     card data (cards.json), validated at import
    state.py     state shape and queries
    evolve.py    evolve: one handler per event
    commands.py  command shapes (BadCommand)
    turn.py      Initial Setup, purchases, the roll, Jail/bail, end of turn, Winning the Game
    flow.py      who acts, their legal moves, clock defaults, the automatic step (a win)
    dice.py      Roll Outcomes, Purchasing Hits, OD
    specials.py  Special Cards and their response windows
    view.py      view, outcome, invariants
    describe.py  command and event docs, the view's JSON Schema, move labels
    narration.py each event as a sentence in the rulebook's words
    bots.py      "random" and "greedy" bots
"""
from __future__ import annotations

from typing import Mapping

from rules.base import Event, Option, Rng
from rules.kingpin import bots, commands, describe, dice, flow, search, specials, turn
from rules.kingpin import narration as narration_mod
from rules.kingpin import view as view_mod
from rules.kingpin.cards import CATALOG, DATA
from rules.kingpin.evolve import EVOLVERS
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

HANDLERS = {**turn.HANDLERS, **dice.HANDLERS, **specials.HANDLERS}


class Kingpin(Ruleset):
    """The Kingpin ruleset: declarations; the rules live in the modules above."""

    name = "kingpin"
    title = noun = "Kingpin"
    versions = ((1, "as first released"),
                (2, "Distribute: Hits your Dealers can hold must be placed; only the extra is discarded"))
    min_seats, max_seats = 2, 6
    bot_levels = ("random", "greedy", "ismcts")
    options: Mapping[str, Option] = {
        "target": Option(5000, (3000, 5000, 10000),
                         "Bankroll that wins: $5,000; $3,000 for a shorter game, $10,000 for an epic one."),
        "turn_limit": Option(0, (0, 25, 50, 100),
                             "House rule (off by default): after this many rounds the richest player wins, "
                             "as if nobody could gain any more money. 0 = no limit."),
    }
    commands, handlers, evolvers = commands.SCHEMA, HANDLERS, EVOLVERS
    shared_in_clone = frozenset({"catalog"})  # evolve.py never changes the catalogue: a fold's clone shares it
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    event_schemas = describe.EVENT_DATA  # each event type's data
    outcome_schema = describe.EVENT_DATA["GameEnded"]  # outcome(state) is what GameEnded said
    narrations = narration_mod.NARRATIONS  # narration.py: each event in the rulebook's words
    setup_rule = "Initial Setup"
    turn_rule = "On Your Turn"

    # flow.py: who acts, what they may do, clock defaults; the one automatic step (Winning the Game)
    legal_moves, is_legal, step = staticmethod(flow.legal_moves), staticmethod(flow.is_legal), staticmethod(flow.step)
    awaiting, timeout_default = staticmethod(flow.awaiting), staticmethod(flow.timeout_default)
    # view.py (the open table, see docs/rules/kingpin.md "View": nothing in Kingpin is secret),
    # describe.py (labels in the rulebook's words), bots.py
    view, outcome, invariants = staticmethod(view_mod.view), staticmethod(view_mod.outcome), \
        staticmethod(view_mod.invariants)
    label, choose_bot_move = staticmethod(describe.label), bots.choose
    evaluate = staticmethod(search.evaluate)  # rules/search: ISMCTS improves on the greedy bot
    search_settings = SearchSettings(policy=search.POLICY, rollout_moves=search.ROLLOUT_MOVES)

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """GameStarted, FirstPlayerRolled, TurnStarted."""
        return turn.setup_events(CATALOG, options, seats, rng)

    def static_data(self) -> dict:
        """cards.json as the rules read it, and the catalogue built from it (prices, card ids)."""
        return {"cards": DATA, "catalog": CATALOG}


RULESET = Kingpin()

__all__ = ["RULESET", "Kingpin", "HANDLERS"]
