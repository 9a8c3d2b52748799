"""Trafficking (The Underground Games Co., 1983) as a pure ruleset: one Narc against the Dealers.

Rulebook: trafficking.txt (shared/rules); rulings and the command reference: docs/rules/trafficking.md
(the board: docs/rules/trafficking-board.md).  Modules by rulebook section:

    data.py, board.json, cards.json   the board and the 32 cards (reconstructed), validated at import
    board.py                 arrows, the Narc's ways, the closest en route Cop Shop, cab fares, distances
    state.py, evolve.py      state shape and queries; evolve, one function per event
    setup.py                 3 Preparation: the roll for the Narc, characters, $1,000 and Lids, order
    movement.py              4 Movement, landing: busts, Expressway, Time Warp, Subway, Cabs, Jack Pot, Pusher
    dealing.py               6 Dealing with the bank, 7 Marcus, 11 the 11-7 stores, 15 gambling, Pass
    deals.py                 6f-6j deals between Dealers (rules.blocks.offers)
    lending.py               17b's variant: loans between Dealers (the "lending" option, version 2)
    offenses.py              5 Busting, 9 Graft Tax, bankruptcy
    customs.py               16 Airport Customs (rules.blocks.choices)
    draws.py                 18 Sour Grapes and Flip Out
    flow.py                  who acts, clock defaults, automatic steps, the win
    view.py, bots.py         view, outcome, invariants; "random" and "greedy" bots for both roles
    describe.py              command and event docs, the view's JSON Schema, move labels, static data
"""
from __future__ import annotations

from typing import Mapping

from rules.base import Option
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings
from rules.trafficking import bots, customs, dealing, deals, describe, flow, lending, movement, narration, search, setup
from rules.trafficking import view as view_mod
from rules.trafficking.evolve import EVOLVERS

COMMANDS = {
    "ChooseDealer": {"dealer": "str"}, "PlaceNarc": {"square": "str"},
    "Roll": {}, "Move": {"to": "str"},
    "Buy": {}, "Sell": {}, "SellLids": {"count": "int"},
    "PickUpLid": {}, "BuyPass": {}, "RideSubway": {"to": "str"}, "TakeCab": {"to": "str"},
    "Gamble": {"bets": "obj"}, "EndTurn": {},
    "HideLids": {"hand": "str"}, "ChooseHand": {"hand": "str"},
    **deals.COMMANDS, **lending.COMMANDS,
}
HANDLERS = {
    "ChooseDealer": setup.decide_choose, "PlaceNarc": setup.decide_place,
    "Roll": movement.decide_roll, "Move": movement.decide_move,
    "Buy": dealing.decide_buy, "Sell": dealing.decide_sell, "SellLids": dealing.decide_sell_lids,
    "PickUpLid": dealing.decide_pick_up, "BuyPass": dealing.decide_buy_pass,
    "RideSubway": movement.decide_subway, "TakeCab": movement.decide_cab,
    "Gamble": dealing.decide_gamble, "EndTurn": dealing.decide_end_turn,
    "HideLids": customs.decide_hide, "ChooseHand": customs.decide_guess,
    "MakeOffer": deals.decide_make, "AcceptOffer": deals.decide_accept, "DeclineOffer": deals.decide_decline,
    "CounterOffer": deals.decide_counter, "RepayLoan": lending.decide_repay,
}
RULE_OF_COMMAND = {"ChooseDealer": "3d", "PlaceNarc": "3f", "Roll": "4", "Move": "4", "Buy": "6", "Sell": "6",
                   "SellLids": "6d", "PickUpLid": "11", "BuyPass": "10", "RideSubway": "10", "TakeCab": "12",
                   "Gamble": "15", "EndTurn": "4", "HideLids": "16", "ChooseHand": "16", "MakeOffer": "6f",
                   "AcceptOffer": "6f", "DeclineOffer": "6f", "CounterOffer": "6f", "RepayLoan": "17b"}
SECRET_TO_SEAT = ("LidsHidden", "HandChosen", "CardDrawn")


class Trafficking(Ruleset):
    """Declarations; the rules live in the modules above."""

    name, title, noun = "trafficking", "Trafficking", "Trafficking"
    # Version 2 (issue 24): see docs/rules/trafficking.md "Versions"
    versions = ((1, "as first released"),
                (2, "the Narc escorts a busted Dealer to the Cop Shop (5b ii, 16d); no Graft Tax where the Narc "
                    "stands (9b); a Dealer out of the game turns over his THC Transit Pass; Concert Crowd and "
                    "House Party sell as many as the Dealer chooses; Transit Pass pays $50 only when the bank has "
                    "none; the lending option (17b)"))
    min_seats, max_seats = 3, 9
    bot_levels = ("random", "greedy", "ismcts")
    hidden_information = True  # a kept card, a hand at Customs, the stacks' order
    commands, handlers, evolvers = COMMANDS, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    event_schemas = describe.EVENT_DATA  # each event type's data
    outcome_schema = describe.EVENT_DATA["GameWon"]  # outcome(state) is what GameWon said
    narrations = narration.NARRATIONS  # narration.py: every event as a sentence for its reader
    open_arguments = {**deals.OPEN_ARGUMENTS, **lending.OPEN_ARGUMENTS, "Gamble": frozenset({"bets"})}
    rule_of_command = RULE_OF_COMMAND
    secret_to_seat = frozenset(SECRET_TO_SEAT)  # a kept card, a hand at Customs; the stacks' order: nobody
    setup_rule = "3"

    @property
    def options(self) -> Mapping[str, Option]:  # type: ignore[override]
        """Version 2 offers 17b's lending variant; version 1 has no options."""
        return lending.OPTIONS if self.version >= 2 else {}

    turn_rule = "4"

    # setup.py (3 Preparation); flow.py: the automatic steps and the win, who acts, clock defaults
    opening, step = staticmethod(setup.opening), staticmethod(flow.step)
    legal_moves, awaiting, timeout_default = staticmethod(flow.legal_moves), staticmethod(flow.awaiting), \
        staticmethod(flow.timeout_default)
    # view.py (see docs/rules/trafficking.md "View"), describe.py (labels; the board and the 32 cards), bots.py
    view, hidden_from, outcome = staticmethod(view_mod.view), staticmethod(view_mod.hidden_from), \
        staticmethod(view_mod.outcome)
    invariants, label = staticmethod(view_mod.invariants), staticmethod(describe.label)
    static_data, choose_bot_move = staticmethod(describe.static_data), bots.choose
    # rules/search: what a search bot may sample; ISMCTS improves on the greedy bot
    determinize, evaluate = staticmethod(search.determinize), staticmethod(search.evaluate)
    search_settings = SearchSettings(policy=search.POLICY, rollout_moves=search.ROLLOUT_MOVES)
    # bots revision 1 (rules/bot_seat.py): the same search, its playouts scored by the summed worth
    search_revisions = {1: SearchSettings(policy=search.POLICY, rollout_moves=search.ROLLOUT_MOVES,
                                          evaluate=search.evaluate_by_worth)}


RULESET = Trafficking()

__all__ = ["RULESET", "Trafficking"]
