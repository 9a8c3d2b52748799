"""Druglord: Lord of Drugs (Raw & Uncut Edition, R. Jesse Deneaux) as a pure ruleset.

Rulebook: druglord.txt (shared/rules); rulings and the command reference:
docs/rules/druglord.md (the map: docs/rules/druglord-board.md).  Modules by rule:

    board.py, board.json     the world map (Regions, zones, borders, oceans) and its queries
    data.py                  component limits, the Classy Die, baller_cards.json (the Baller Moves deck)
    geo.py                   trade routes between two regions (Rule 5) on top of board.py
    state.py, evolve.py      state shape and queries; evolve, one handler per event
    flow.py                  who acts now, clock defaults, and the automatic steps between decisions (`step`)
    commands.py              command shapes (BadCommand)
    regions.py               Rules 1, 1.2, 2, 2.2: secret starting empires, the draft, markers
    load.py                  Rule 3: Load Weight
    actions.py               Rules 4, 10, 12: action order, Draw 2, passing, phases, the Endgame
    trade.py                 Rules 5, 6, 7 (export): trades, scoring, Sea re-rolls
    rolls.py                 Rule 7: Sway windows and casting the Classy Dice; roll-offs
    trial.py                 Rule 8: Cases and the Trial
    violence.py              Rule 9: Violence
    baller.py                Rule 11: Baller Moves
    view.py                  view, outcome, invariants
    describe.py              command and event docs, the view's JSON Schema, move labels, static data
    bots.py                  "random" and "greedy" bots
"""
from __future__ import annotations

from typing import Mapping

from rules.base import Event, Option, Rng
from rules.blocks import families
from rules.describe import NAT, arr
from rules.druglord import (
    actions,
    baller,
    bots,
    commands,
    describe,
    flow,
    load,
    narration,
    regions,
    rolls,
    search,
    storage,
    trade,
    violence,
)
from rules.druglord import view as view_mod
from rules.druglord.evolve import EVOLVERS
from rules.memo import remembering
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

HANDLERS = {
    "KeepRegions": regions.decide_keep,
    "ClaimRegion": regions.decide_claim,
    "DraftRegion": regions.decide_draft,
    "DeclineDraft": regions.decide_decline,
    "LoadWeight": load.decide_load,
    "LoadDefault": load.decide_default,
    "StoreLocally": storage.decide_store,
    "Trade": trade.decide_trade,
    "ReRoll": trade.decide_reroll,
    "AcceptBust": trade.decide_accept_bust,
    "EndAction": actions.decide_end_action,
    "Pass": actions.decide_pass,
    "Attack": violence.decide_attack,
    "PressAttack": violence.decide_press,
    "Counterattack": violence.decide_counter,
    "DeclineCounter": violence.decide_decline_counter,
    "DrawWeight": actions.decide_draw_weight,
    "DrawBaller": baller.decide_draw,
    "PlayCard": baller.decide_play,
    "Sway": rolls.decide_sway,
    "EndSway": rolls.decide_end_sway,
}
RULE_OF_COMMAND = {"KeepRegions": "1", "ClaimRegion": "1.2", "DraftRegion": "1.2", "DeclineDraft": "1.2",
                   "LoadWeight": "3", "LoadDefault": "3", "StoreLocally": "5.A", "Trade": "5", "ReRoll": "5.C",
                   "AcceptBust": "5.C",
                   "EndAction": "4", "Pass": "4", "Attack": "9", "PressAttack": "9", "Counterattack": "9",
                   "DeclineCounter": "9", "DrawWeight": "10", "DrawBaller": "11", "PlayCard": "11",
                   "Sway": "7", "EndSway": "7"}

OPTIONS_V1: Mapping[str, Option] = {
    "faster_play": Option(False, (False, True),
                          "Optional Rule A: draw 6 Region Cards and keep 4 (new players draw 7)."),
    "california_style": Option(False, (False, True), "Trial at 3 Cases instead of 5 (Rule 8)."),
    "game_to": Option(20, (20, 40), "Score that triggers the Endgame: 20, or a game of 40 (Rule 12)."),
    "new_players": Option([], (), "Seats of first-time players (a list of seat numbers): they draw one "
                                  "Region Card more at setup (Rule 1).",
                          {**arr(NAT), "uniqueItems": True}),  # each below the seat count (regions.py)
}
# Version 2: "A game of 40 (or more) may be played by placing additional Score Markers on the loop space,
# adding 20 for each Score Marker" -- any multiple of 20 up to 100 (5 of the 14 Region Markers on the track).
OPTIONS_V2: Mapping[str, Option] = {
    **OPTIONS_V1,
    "game_to": Option(20, (20, 40, 60, 80, 100), "Score that triggers the Endgame: 20, or a game of 40 or more, "
                                                 "20 more per extra Score Marker (Rule 12)."),
}
VERSIONS = (
    (1, "as first released"),
    (2, "Violence claim is the winner's draft pick; a failed Domestic Trade is a Case per unit lost; only a "
        "lone produced unit is stored locally; Extended Land Trade both ways; games to 60-100; Crackdowns "
        "uncapped; a Traphouse export's Trial loses no Region; map: Oregon-Nevada border, Antioquia on the "
        "Pacific, Levant on the Indian Ocean"),
    (3, "Sway on the action-order roll, the draft roll-off and the endgame roll-off; a Region that only produces "
        "1 of a type may store it or move it to the Traphouse (the player chooses); the racetrack's markers for "
        "the game's length come out of the 14 first; the board served per version"),
    (4, "roll-offs have no declarer: every seat with weight sways at once and may answer every Sway; a Region "
        "that only produces 1 of a type is one loaded with a single unit of it this turn; storing is chosen at "
        "each action phase's end, once the untraded weight is known"),
)


class Druglord(Ruleset):
    """The Druglord ruleset: declarations; the rules live in the modules above."""

    name = "druglord"
    title = "Druglord: Lord of Drugs"
    noun = "Druglord"
    min_seats, max_seats = 2, 6
    bot_levels = ("random", "greedy", "ismcts")
    versions = VERSIONS
    hidden_information = True  # secret starting empires, Region Card draws, Baller hands, deck orders

    @property
    def options(self) -> Mapping[str, Option]:  # type: ignore[override]
        """The options of the rules version this instance plays (version 2 allows longer games)."""
        return OPTIONS_V2 if self.version >= 2 else OPTIONS_V1
    commands, handlers, evolvers = commands.SCHEMA, HANDLERS, EVOLVERS
    command_docs, event_docs, view_schema = describe.COMMAND_DOCS, describe.EVENT_DOCS, describe.VIEW_SCHEMA
    event_schemas = describe.EVENT_DATA  # each event type's data
    outcome_schema = describe.EVENT_DATA["GameEnded"]  # outcome(state) is what GameEnded said
    argument_values = describe.ARGUMENT_VALUES  # weight types, routes, Regions...: enums in the schemas
    narrations = narration.NARRATIONS  # narration.py: every event as a sentence for its reader
    rule_of_command = RULE_OF_COMMAND
    # setup draws, empire choices and Baller draws: their seat; deck orders: nobody
    secret_to_seat = frozenset({"RegionCardsDrawn", "EmpireChosen", "BallerDrawn"})
    setup_rule = "1"
    turn_rule = "4"

    # flow.py: reveals, draft steps, rolls nobody sways, phase ends; who acts; clock defaults
    step, awaiting, timeout_default = staticmethod(flow.step), staticmethod(flow.awaiting), \
        staticmethod(flow.timeout_default)
    # view.py (see docs/rules/druglord.md "View"), describe.py (labels in the rulebook's words), bots.py
    view, outcome, invariants = staticmethod(view_mod.view), staticmethod(view_mod.outcome), \
        staticmethod(view_mod.invariants)
    label, choose_bot_move = staticmethod(describe.label), bots.choose
    # rules/search: what a search bot may sample; ISMCTS improves on the greedy bot, its playouts
    # counted in commands a seat
    determinize, evaluate = staticmethod(search.determinize), staticmethod(search.evaluate)
    search_settings = SearchSettings(policy=search.POLICY, rollout_moves_per_seat=search.ROLLOUT_MOVES_PER_SEAT)
    # bots revision 1 (rules/bot_seat.py): the same search, its playouts scored by the summed worth
    search_revisions = {1: SearchSettings(policy=search.POLICY, rollout_moves_per_seat=search.ROLLOUT_MOVES_PER_SEAT,
                                          evaluate=search.evaluate_by_worth)}

    def static_data(self) -> dict:
        """The map this instance's rules version is played on (version 2 redrew borders and coasts)."""
        return describe.static_data(self.version)

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """GameStarted and each seat's secret draw of Region Cards."""
        return regions.setup_events(regions.normalize_options(options, seats), seats, rng, self.version)

    def normalize(self, state: dict, seat: int, cmd: dict) -> dict:
        """Kept regions and drawn weights in the one order legal_moves lists them."""
        if cmd["type"] == "KeepRegions":
            return regions.normalize_keep(state, seat, cmd)
        if cmd["type"] == "DrawWeight":
            return actions.normalize_draw(cmd)
        if cmd["type"] == "StoreLocally":
            return storage.normalize(cmd)
        return cmd

    # -- Legal moves as move families (flow.listing) ---------------------------------
    # The listing is what the rules build; the base remembers it for the state last asked in each
    # thread (rules/memo.py): a bot's move and `decide`'s check of it ask about the same state.
    listing = remembering(flow.listing)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return families.expand(self.listing(state, seat))

    def pick(self, state: dict, seat: int, rng: Rng) -> dict:
        """The random bot's move: `rng.choice(legal_moves)` without the list."""
        return families.pick(self.listing(state, seat), rng)

    def is_legal(self, state: dict, seat: int, cmd: dict) -> bool:
        """Listed among the seat's legal moves, checked against the families without building the
        list (Druglord has no open arguments)."""
        return families.contains(self.listing(state, seat), cmd)


RULESET = Druglord()

__all__ = ["RULESET", "Druglord"]
