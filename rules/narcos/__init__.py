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

from rules.base import Option
from rules.narcos import bots, cartel, describe, draw, flow, improve, manage, narration, search
from rules.narcos import view as view_mod
from rules.narcos.evolve import EVOLVERS
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

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


class Narcos(Ruleset):
    """The Narcos ruleset: declarations; the rules live in the modules above."""

    name = "narcos"
    title = "Narcos (Narco Empire)"
    noun = "Narcos"
    versions = ((1, "as first released"),
                (2, "at least one card turned before declining a peeked card (Tip-off after a card); confiscations "
                    "reach the Police Warehouse when the Actions phase ends; «≥8» counts the units sold after "
                    "tribute and the plane token pays planes only; any-moment abilities while a peek or a Police "
                    "payment awaits"),
                (3, "any-moment abilities before an owed card goes unpaid and before the DEA agent of money "
                    "follows the richest at a turn's end"))
    min_seats, max_seats = 2, 4
    bot_levels = ("random", "greedy", "ismcts")
    hidden_information = True  # Cartel hands, face-down backs, the decks' order
    options: Mapping[str, Option] = {
        "mode": Option("basic", ("basic", "advanced"),
                       "basic: a permanent −2 Dealer; advanced: the board's 4 cities with tokens, employees' "
                       "majorities and tribute, the Police Warehouse and the Cartel cards that rob it."),
    }
    commands, handlers, evolvers = SCHEMA, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    event_schemas = describe.EVENT_DATA  # each event type's data
    outcome_schema = describe.EVENT_DATA["GameEnded"]  # outcome(state) is what GameEnded said
    narrations = narration.NARRATIONS  # narration.py: every event as a sentence for its reader
    rule_of_command = RULE_OF_COMMAND
    secret_to_seat = frozenset(SECRET_TO_SEAT)  # Cartel hands, face-down backs, a peeked card; decks: nobody
    setup_rule = "4"
    turn_rule = "6"

    # flow.py: set-up (the first turn then starts by itself: `step`), payments, fleeing, turn ends,
    # rounds; who acts, their legal moves, clock defaults
    opening, step = staticmethod(flow.opening), staticmethod(flow.step)
    legal_moves, awaiting, timeout_default = staticmethod(flow.legal_moves), staticmethod(flow.awaiting), \
        staticmethod(flow.timeout_default)
    # view.py (see docs/rules/narcos.md "View"), describe.py (labels; cards.json and cartel.json as the
    # rules read them, without deck order), bots.py
    view, hidden_from, outcome = staticmethod(view_mod.view), staticmethod(view_mod.hidden_from), \
        staticmethod(view_mod.outcome)
    label, static_data, choose_bot_move = staticmethod(describe.label), staticmethod(describe.static_data), bots.choose
    # rules/search: what a search bot may sample; ISMCTS improves on the greedy bot
    determinize, evaluate = staticmethod(search.determinize), staticmethod(search.evaluate)
    search_settings = SearchSettings(policy=search.POLICY, rollout_moves=search.ROLLOUT_MOVES)


RULESET = Narcos()
