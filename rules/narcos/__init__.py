"""Narcos (Invedars provisional rulebook; English edition "Narco Empire") as a pure ruleset.

Rulebook: narcos-es.txt with our translation narcos-en.md (shared/rules); rulings, reconstructed
cards and the command reference: docs/rules/narcos.md.  Modules by rulebook section:

    data.py, cards.json, cartel.json   the Narcos deck, starting network, Plantation, Cartel deck (validated)
    state.py, evolve.py                state shape and queries; evolve, one function per event
    flow.py                            4 set-up, 5 rounds and the end, turn order, who acts, clocks
    draw.py                            6.1 Actions: turning cards, sirens, Plata o plomo, Snitch, Press, DEA
    manage.py, sales.py                6.2 Management: production, transport, storage, Dealers, sales
    improve.py                         6.3 Improvements
    cartel.py                          7 Cartel cards
    view.py                            view, secrets, outcome
    describe.py                        command and event docs, the view's JSON Schema, move labels, static data
    bots.py                            "random" and "greedy"
"""
from __future__ import annotations

from typing import Mapping

from rules.base import Event, Option, Rng
from rules.narcos import bots, cartel, describe, draw, flow, improve, manage, search
from rules.narcos import view as view_mod
from rules.narcos.evolve import EVOLVERS
from rules.ruleset import RulesetBase

SCHEMA = {
    "PlayOn": {}, "StartRoundTwo": {},
    "Draw": {}, "Stop": {}, "Eliminate": {}, "Peek": {}, "PlaceCard": {}, "DeclineCard": {},
    "PayPolice": {"source": "str"}, "ChooseBonus": {"choice": "str"},
    "Produce": {}, "Ship": {}, "Deliver": {"dealer": "str", "workers": "int"}, "SellFallback": {"workers": "int"},
    "SpendWorker": {}, "SpendCartel": {"card": "str"}, "PlayCartel": {"card": "str", "target": "int"},
    "PassReaction": {},
    "ConvertWorker": {}, "EndActions": {}, "CollectSales": {}, "PassSale": {},
    "Buy": {"card": "str"}, "AddCrop": {}, "PassImprovement": {}, "PassBuy": {},
}
HANDLERS = {
    "PlayOn": flow.decide_play_on, "StartRoundTwo": flow.decide_round_two,
    "Draw": draw.decide_draw, "Stop": draw.decide_stop, "Eliminate": draw.decide_eliminate,
    "Peek": draw.decide_peek, "PlaceCard": draw.decide_place, "DeclineCard": draw.decide_decline,
    "PayPolice": draw.decide_pay, "ChooseBonus": draw.decide_bonus,
    "Produce": manage.decide_produce, "Ship": manage.decide_ship, "Deliver": manage.decide_deliver,
    "SellFallback": manage.decide_fallback, "SpendWorker": manage.decide_spend_worker,
    "SpendCartel": manage.decide_spend_back, "PlayCartel": cartel.decide_play,
    "PassReaction": cartel.decide_pass_reaction,
    "ConvertWorker": manage.decide_convert, "EndActions": manage.decide_end_actions,
    "CollectSales": manage.decide_collect, "PassSale": manage.decide_pass_sale,
    "Buy": improve.decide_buy, "AddCrop": improve.decide_add_crop,
    "PassImprovement": improve.decide_pass_improvement, "PassBuy": improve.decide_pass_buy,
}
RULE_OF_COMMAND = {
    "PlayOn": "5", "StartRoundTwo": "5", "Draw": "6.1", "Stop": "6.1", "Eliminate": "6.1 Plata o plomo",
    "Peek": "6.1 Snitch", "PlaceCard": "6.1 Snitch", "DeclineCard": "6.1 Snitch", "PayPolice": "6.1 Plata o plomo",
    "ChooseBonus": "6.1 advantages", "Produce": "6.2 Laboratory", "Ship": "6.2 Transport", "Deliver": "6.2 Dealers",
    "SellFallback": "6.2 Dealers", "SpendWorker": "8", "SpendCartel": "7", "PlayCartel": "7", "PassReaction": "7",
    "ConvertWorker": "8", "EndActions": "6.2", "CollectSales": "6.2 Collecting sales", "PassSale": "6.2 Dealers",
    "Buy": "6.3", "AddCrop": "6.2 Plantation", "PassImprovement": "6.3", "PassBuy": "6.3",
}
SECRET_TO_SEAT = ("CartelDealt", "CardPeeked", "CartelBackSpent")


class Narcos(RulesetBase):
    """The Narcos ruleset: declarations; the rules live in the modules above."""

    name = "narcos"
    title = "Narcos (Narco Empire)"
    noun = "Narcos"
    min_seats, max_seats = 2, 4
    bot_levels = ("random", "greedy", "ismcts")
    determinize = staticmethod(search.determinize)  # rules/search: what a search bot may sample
    evaluate = staticmethod(search.evaluate)
    search_policy, rollout_moves = search.POLICY, search.ROLLOUT_MOVES  # ISMCTS improves on the greedy bot
    options: Mapping[str, Option] = {
        "mode": Option("basic", ("basic", "advanced"),
                       "basic: a permanent −2 Dealer; advanced: the board's 4 cities with tokens, employees' "
                       "majorities and tribute, the Police Warehouse and the Cartel cards that rob it."),
    }
    commands, handlers, evolvers = SCHEMA, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    rule_of_command = RULE_OF_COMMAND
    secret_to_seat = frozenset(SECRET_TO_SEAT)  # Cartel hands, face-down backs, a peeked card; decks: nobody
    setup_rule = "4"
    turn_rule = "6"

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """Set-up events; the first turn starts by itself (consequences)."""
        events = flow.opening(options, seats, rng)
        return events + flow.advance(self.fold(None, events), rng)

    def consequences(self, after: dict, rng: Rng) -> list[Event]:
        """Every automatic event up to the next decision (payments, fleeing, turn ends, rounds)."""
        return flow.advance(after, rng)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return flow.legal_moves(state, seat)

    def awaiting(self, state: dict) -> dict[int, str]:
        return flow.awaiting(state)

    def timeout_default(self, state: dict, seat: int) -> dict:
        return flow.timeout_default(state, seat)

    def view(self, state: dict, seat: int | None) -> dict:
        """The table as seat sees it; see docs/rules/narcos.md "View"."""
        return view_mod.view(state, seat)

    def hidden_from(self, state: dict, seat: int) -> list:
        return view_mod.hidden_from(state, seat)

    def outcome(self, state: dict) -> dict | None:
        return view_mod.outcome(state)

    def label(self, state: dict, seat: int, move: dict) -> str:
        """A legal move in the rulebook's words (describe.py)."""
        return describe.label(state, seat, move)

    def static_data(self) -> dict:
        """cards.json and cartel.json as the rules read them, and the box's limited pieces (no deck order)."""
        return describe.static_data()

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        return bots.choose(self, state, seat, level, rng)


RULESET = Narcos()
