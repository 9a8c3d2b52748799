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
    offenses.py              5 Busting, 9 Graft Tax, bankruptcy
    customs.py               16 Airport Customs (rules.blocks.choices)
    draws.py                 18 Sour Grapes and Flip Out
    flow.py                  who acts, clock defaults, automatic steps, the win
    view.py, bots.py         view, outcome, invariants; "random" and "greedy" bots for both roles
    describe.py              command and event docs, the view's JSON Schema, move labels, static data
"""
from __future__ import annotations

from rules.base import Event, Rng
from rules.ruleset import RulesetBase
from rules.trafficking import bots, customs, dealing, deals, describe, flow, movement, search, setup
from rules.trafficking import view as view_mod
from rules.trafficking.evolve import EVOLVERS

COMMANDS = {
    "ChooseDealer": {"dealer": "str"}, "PlaceNarc": {"square": "str"},
    "Roll": {}, "Move": {"to": "str"},
    "Buy": {}, "Sell": {}, "SellLids": {"count": "int"},
    "PickUpLid": {}, "BuyPass": {}, "RideSubway": {"to": "str"}, "TakeCab": {"to": "str"},
    "Gamble": {"bets": "obj"}, "EndTurn": {},
    "HideLids": {"hand": "str"}, "ChooseHand": {"hand": "str"},
    **deals.COMMANDS,
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
    "CounterOffer": deals.decide_counter,
}
RULE_OF_COMMAND = {"ChooseDealer": "3d", "PlaceNarc": "3f", "Roll": "4", "Move": "4", "Buy": "6", "Sell": "6",
                   "SellLids": "6d", "PickUpLid": "11", "BuyPass": "10", "RideSubway": "10", "TakeCab": "12",
                   "Gamble": "15", "EndTurn": "4", "HideLids": "16", "ChooseHand": "16", "MakeOffer": "6f",
                   "AcceptOffer": "6f", "DeclineOffer": "6f", "CounterOffer": "6f"}
SECRET_TO_SEAT = ("LidsHidden", "HandChosen", "CardDrawn")


class Trafficking(RulesetBase):
    """Declarations; the rules live in the modules above."""

    name, title, noun = "trafficking", "Trafficking", "Trafficking"
    min_seats, max_seats = 3, 9
    bot_levels = ("random", "greedy", "ismcts")
    determinize = staticmethod(search.determinize)  # rules/search: what a search bot may sample
    evaluate = staticmethod(search.evaluate)
    search_policy, rollout_moves = search.POLICY, search.ROLLOUT_MOVES  # ISMCTS improves on the greedy bot
    commands, handlers, evolvers = COMMANDS, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    open_arguments = {**deals.OPEN_ARGUMENTS, "Gamble": frozenset({"bets"})}
    rule_of_command = RULE_OF_COMMAND
    secret_to_seat = frozenset(SECRET_TO_SEAT)  # a kept card, a hand at Customs; the stacks' order: nobody
    setup_rule = "3"
    turn_rule = "4"

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        return setup.opening(options, seats, rng)

    def consequences(self, after: dict, rng: Rng) -> list[Event]:
        return flow.advance(after, rng)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return flow.legal_moves(state, seat)

    def awaiting(self, state: dict) -> dict[int, str]:
        return flow.awaiting(state)

    def timeout_default(self, state: dict, seat: int) -> dict:
        return flow.timeout_default(state, seat)

    def view(self, state: dict, seat: int | None) -> dict:
        """The table as `seat` sees it; see docs/rules/trafficking.md "View"."""
        return view_mod.view(state, seat)

    def hidden_from(self, state: dict, seat: int) -> list:
        """The order of both stacks is nobody's to read."""
        return [list(d) for d in state["decks"].values() if len(d) > 1]

    def outcome(self, state: dict) -> dict | None:
        return view_mod.outcome(state)

    def label(self, state: dict, seat: int, move: dict) -> str:
        """A legal move in the rulebook's words (describe.py)."""
        return describe.label(state, seat, move)

    def static_data(self) -> dict:
        """The board (squares, drawing grid, arrows, Dealers) and the 32 cards (describe.py)."""
        return describe.static_data()

    def invariants(self, state: dict) -> list[str]:
        return view_mod.invariants(state)

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        return bots.choose(self, state, seat, level, rng)


RULESET = Trafficking()

__all__ = ["RULESET", "Trafficking"]
