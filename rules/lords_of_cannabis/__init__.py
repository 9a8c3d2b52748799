"""Lords of Cannabis as a pure ruleset.

Rulebook: lords-of-cannabis.txt (shared/rules); rulings, reconstructed data and the command
reference: docs/rules/lords-of-cannabis.md.  Modules by rulebook heading:

    board.py, board.json   the board (reconstructed): bricks in cube coordinates, intersections,
                           paths and loading docks derived and validated at import
    cards.py, crops.json   the Building Conversions Card, supply limits, the Crop deck
    state.py, evolve.py    state shape and queries; evolve, one function per event
    guards.py              argument and situation checks shared by the handlers
    placement.py           Game Setup, Placement
    turn.py                Turn Overview, Resources (production), Special Actions (7, the Sheriff)
    building.py            Building: Tunnels, Greenhouses, Plantations, buying Crop cards
    crops.py               Playing Crop Cards: Gangsta, the Progress cards
    trade.py               Trade: offers between players, bank, docks, Longest Tunnel's 4-for-1
    flow.py                who acts, legal moves, clock defaults, winning (the automatic `step`)
    view.py                view, outcome, invariants
    describe.py            command and event docs, the view's JSON Schema, move labels, static data
    narration.py           each event as a sentence in the rulebook's words
    bots.py                "random" and "greedy"
"""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import offers
from rules.lords_of_cannabis import bots, building, crops, describe, flow, placement, search, trade, turn
from rules.lords_of_cannabis import narration as narration_mod
from rules.lords_of_cannabis import view as view_mod
from rules.lords_of_cannabis.board import RESOURCE_INDEX
from rules.lords_of_cannabis.evolve import EVOLVERS
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

COMMANDS = {
    "Defer": {}, "PlaceGreenhouse": {"at": "int"}, "PlaceTunnel": {"path": "int"}, "TakeStartingStash": {"at": "int"},
    "Roll": {}, "MoveSheriff": {"brick": "int"}, "Discard": {"resource": "str"}, "EndTurn": {},
    "BuildTunnel": {"path": "int"}, "BuildGreenhouse": {"at": "int"}, "BuildPlantation": {"at": "int"},
    "BuyCrop": {}, "PlayGangsta": {"brick": "int"}, "PlayTunnelBuilding": {}, "EndTunnelBuilding": {},
    "PlayUpSizing": {"at": "int"}, "PlayStrongArm": {"resource": "str"}, "PlayMassProduction": {"resources": "strs"},
    "PlayGetJacked": {"victim": "seat"},
    "TradeWithBank": {"give": "str", "get": "str"}, "TradeAnyFour": {"give": "strs", "get": "str"},
    "MakeOffer": offers.COMMANDS["MakeOffer"], "OfferToAll": {"terms": "obj"},
    "AcceptOffer": offers.COMMANDS["AcceptOffer"], "DeclineOffer": offers.COMMANDS["DeclineOffer"],
    "CounterOffer": offers.COMMANDS["CounterOffer"],
}
HANDLERS = {
    "Defer": placement.decide_defer, "PlaceGreenhouse": placement.decide_place_greenhouse,
    "PlaceTunnel": placement.decide_place_tunnel, "TakeStartingStash": placement.decide_take_stash,
    "Roll": turn.decide_roll, "MoveSheriff": turn.decide_move_sheriff, "Discard": turn.decide_discard,
    "EndTurn": turn.decide_end_turn,
    "BuildTunnel": building.decide_build_tunnel, "BuildGreenhouse": building.decide_build_greenhouse,
    "BuildPlantation": building.decide_build_plantation, "BuyCrop": building.decide_buy_crop,
    "PlayGangsta": crops.decide_gangsta, "PlayTunnelBuilding": crops.decide_tunnel_building,
    "EndTunnelBuilding": crops.decide_end_tunnel_building, "PlayUpSizing": crops.decide_up_sizing,
    "PlayStrongArm": crops.decide_strong_arm, "PlayMassProduction": crops.decide_mass_production,
    "PlayGetJacked": crops.decide_get_jacked,
    "TradeWithBank": trade.decide_bank_trade, "TradeAnyFour": trade.decide_any_four,
    "MakeOffer": trade.decide_make_offer, "OfferToAll": trade.decide_offer_to_all,
    "AcceptOffer": trade.decide_accept, "DeclineOffer": trade.decide_decline, "CounterOffer": trade.decide_counter,
}
RULE_OF_COMMAND = {"Defer": "Placement", "PlaceGreenhouse": "Placement", "PlaceTunnel": "Placement",
                   "TakeStartingStash": "Placement", "Roll": "Turn Overview", "MoveSheriff": "Special Actions",
                   "Discard": "Special Actions", "EndTurn": "Turn Overview", "BuildTunnel": "Tunnels",
                   "BuildGreenhouse": "Greenhouse", "BuildPlantation": "Plantation",
                   "BuyCrop": "Buying a Crop Card", "PlayGangsta": "Gangsta Cards",
                   "TradeWithBank": "Trade", "TradeAnyFour": "Tunnels", "MakeOffer": "Trade", "OfferToAll": "Trade",
                   "AcceptOffer": "Trade", "DeclineOffer": "Trade", "CounterOffer": "Trade"}
SECRET_TO_SEAT = ("CropBought",)


class LordsOfCannabis(Ruleset):
    """Declarations; the rules live in the modules above."""

    name = "lords_of_cannabis"
    title = "Lords of Cannabis"
    noun = "Lords of Cannabis"
    versions = ((1, "as first released"),
                (2, "at most 3 offers and counter-offers a turn; played Progress cards go back face up (public "
                    "until drawn); Victory Point cards lie face down in front of their owner (the count public)"),
                (3, "any number of offers and counter-offers a turn, as the rulebook (version 2's cap of 3 dropped)"))
    min_seats, max_seats = 2, 6
    bot_levels = ("random", "greedy", "ismcts")
    hidden_information = True  # bought Crop cards, the Crop deck's order
    commands, handlers, evolvers = COMMANDS, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    event_schemas = describe.EVENT_DATA  # each event type's data
    outcome_schema = describe.OUTCOME_SCHEMA
    narrations = narration_mod.NARRATIONS  # narration.py: each event in the rulebook's words
    open_arguments = {"MakeOffer": frozenset({"terms"}), "OfferToAll": frozenset({"terms"}),
                      "CounterOffer": frozenset({"terms"}), "TradeAnyFour": frozenset({"give"})}
    rule_of_command = {**RULE_OF_COMMAND, **{c: "Progress Cards" for c in COMMANDS if c not in RULE_OF_COMMAND}}
    secret_to_seat = frozenset(SECRET_TO_SEAT)  # a bought Crop card: its buyer; the deck's order: nobody
    setup_rule = "Game Setup"
    turn_rule = "Turn Overview"

    # flow.py: who acts, what they may do, clock defaults, the one automatic step (ten points win)
    legal_moves, step, awaiting = staticmethod(flow.legal_moves), staticmethod(flow.step), staticmethod(flow.awaiting)
    timeout_default = staticmethod(flow.timeout_default)
    # view.py, describe.py (labels name only what the seat can see; the board, the Crop deck and the
    # Building Conversions Card as static data), bots.py
    view, hidden_from, outcome = staticmethod(view_mod.view), staticmethod(view_mod.hidden_from), \
        staticmethod(view_mod.outcome)
    invariants, label = staticmethod(view_mod.invariants), staticmethod(describe.label)
    static_data, choose_bot_move = staticmethod(describe.static_data), bots.choose
    # rules/search: what a search bot may sample; ISMCTS improves on the greedy bot, its playouts
    # counted in rounds of turns (turn_holder), and it makes no second offer in a turn (search_moves)
    determinize, evaluate = staticmethod(search.determinize), staticmethod(search.evaluate)
    turn_holder, search_moves = staticmethod(search.turn_holder), staticmethod(search.search_moves)
    search_settings = SearchSettings(policy=search.POLICY, rollout_rounds=search.ROLLOUT_ROUNDS,
                                     rollout_moves_per_seat=search.ROLLOUT_MOVES_PER_SEAT)
    # bots revision 1 (rules/bot_seat.py): the same search, its playouts scored by the summed worth
    search_revisions = {1: SearchSettings(policy=search.POLICY, rollout_rounds=search.ROLLOUT_ROUNDS,
                                          rollout_moves_per_seat=search.ROLLOUT_MOVES_PER_SEAT,
                                          evaluate=search.evaluate_by_worth)}

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        return placement.opening(seats, rng)

    def normalize(self, state: dict, seat: int, cmd: dict) -> dict:
        """Mass Production's two resources in the board's resource order (as legal moves list them)."""
        if cmd["type"] == "PlayMassProduction" and all(n in RESOURCE_INDEX for n in cmd["resources"]):
            return {**cmd, "resources": sorted(cmd["resources"], key=RESOURCE_INDEX.__getitem__)}
        return cmd

    def visible_to(self, event: Event) -> str | set:
        """A bought Crop card: its buyer; a stolen card: thief and victim; the deck's order: nobody."""
        if event.type == "CardStolen" and "secret" in event.data:
            return {event.data["seat"], event.data["from"]}
        return super().visible_to(event)


RULESET = LordsOfCannabis()
