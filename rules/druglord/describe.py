"""Druglord describes itself: commands, events and the view in the rulebook's words
(docs/rules/druglord.md "Command reference", "Events", "View"), a label for every legal move,
and the static data (the map with coordinates, the Baller deck) from the files the rules read."""
from __future__ import annotations

from rules.describe import ANY, BOOL, INT, STR, arr, dict_of, nullable, obj, one_of_consts, tuple_of
from rules.druglord.board import MAP, OCEANS, board_at
from rules.druglord.data import BALLER, BOARD, BOARDS, CARDS, PHASE_NAMES, WEIGHT_TYPES
from rules.druglord.geo import ROUTE_WORDS, route_kind, route_ocean
from rules.narration import Names

REGION = "a Region id, e.g. FS3 (see the map in GET /v1/rulesets/druglord/data)"
COMMAND_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "KeepRegions": ("Rule 1: choose the Region Cards you keep as your secret starting empire",
                    {"regions": "the Region ids kept, exactly your keep count of the cards you drew"}),
    "ClaimRegion": ("Rule 1.2: claim a Region you won through Violence before the draft", {"region": REGION}),
    "DraftRegion": ("Rule 1.2: draft a Region Card on offer", {"region": REGION}),
    "DeclineDraft": ("Rule 1.2: decline your claim or pick", {}),
    "LoadWeight": ("Rule 3: load units of weight from a Region's production",
                   {"from": "your Region producing the weight", "to": "where it goes: a Region id or \"traphouse\"",
                    "weight": "the weight type: reefer, pills, cocaine or opiates", "units": "how many units"}),
    "LoadDefault": ("Rule 3: load the rest the default way", {}),
    "StoreLocally": ("Rule 5.A: which of your Regions that only produce 1 keep a unit of untraded weight stored; "
                     "the rest goes to the Traphouse at the phase's end. Version 3: in the Load Weight step, for "
                     "the turn (Weight Value 1); version 4: at each action phase's end, once everyone has acted "
                     "(at most 1 unit of the phase's type loaded on the Region this turn)",
                     {"regions": "the Region ids whose unit stays stored (any of those offered; [] stores none)"}),
    "Trade": ("Rule 5: trade weight to a Region with Demand (roll for it)",
              {"from": "your Region holding the weight, or \"traphouse\"", "to": "your Region with Demand left",
               "route": "domestic, land, extended, sea:<ocean>, hybrid:<ocean>, air or export",
               "units": "how many units"}),
    "ReRoll": ("Rule 5.C: re-roll a failed Sea or Hybrid trade", {}),
    "AcceptBust": ("Rule 5.C: accept the bust (Cases follow)", {}),
    "EndAction": ("Rule 4: end your action", {}),
    "Pass": ("Rule 4: pass this phase", {}),
    "Attack": ("Rule 9: attack another player's Region in range",
               {"from": "your attacking Region", "target": "the Region attacked"}),
    "PressAttack": ("Rule 9: press the attack for another round", {}),
    "Counterattack": ("Rule 9: counterattack (you defended by 5 or more)", {}),
    "DeclineCounter": ("Rule 9: do not counterattack", {}),
    "DrawWeight": ("Rule 10: draw two units of weight into your Traphouse",
                   {"weights": "the two weight types drawn"}),
    "DrawBaller": ("Rule 11: draw a Baller Moves card", {}),
    "PlayCard": ("Rule 11: play a Baller Moves card from your hand",
                 {"card": "the card id", "region": "the Region it aims at (bonus-weight cards), else null"}),
    "Sway": ("Rule 7: sway a pending roll with Traphouse weight",
             {"die": "the die swayed, e.g. trade, attack, defence, trial; in a roll-off the contender's, seat<n>",
              "weight": "the weight type spent", "units": "signed: + helps the die, - hurts it"}),
    "EndSway": ("Rule 7: done swaying this roll", {}),
}

# Every value an argument may take, from the data the rules read (rules/describe.py makes them enums):
# the weight types, the routes (sea and hybrid name their ocean), the Baller card ids, and the Region
# ids of every board revision ("traphouse" where weight may come from or go to it).
REGIONS = tuple(sorted(set().union(*(board.regions for board in BOARDS.values()))))
ROUTES = tuple(kind for kind in ROUTE_WORDS if kind not in ("sea", "hybrid")) + \
    tuple(f"{kind}:{ocean}" for kind in ("sea", "hybrid") for ocean in OCEANS)
ARGUMENT_VALUES: dict[str, tuple] = {
    "weight": WEIGHT_TYPES, "DrawWeight.weights": WEIGHT_TYPES, "route": ROUTES, "card": tuple(CARDS),
    "region": REGIONS, "regions": REGIONS, "target": REGIONS, "Attack.from": REGIONS,
    "LoadWeight.from": REGIONS, "LoadWeight.to": (*REGIONS, "traphouse"),
    "Trade.from": (*REGIONS, "traphouse"), "Trade.to": REGIONS,
}

EVENT_DOCS: dict[str, str] = {
    "GameStarted": "The table is set: seats, options, digests of the board and Baller data, supply (decks secret)",
    "RegionCardsDrawn": "A seat drew its setup Region Cards (which ones: that seat only)",
    "EmpireChosen": "A seat chose its starting empire (which: that seat only)",
    "EmpiresRevealed": "Every starting empire is revealed",
    "DeckShuffled": "The Region deck was shuffled (its order: nobody)",
    "TurnStarted": "A new turn begins",
    "DraftOpened": "A draft opens: the cards on offer and the order of picks",
    "RegionClaimed": "A seat claimed a Region it won through Violence",
    "ClaimDeclined": "A claim was declined",
    "RegionDrafted": "A seat drafted a Region",
    "DraftDeclined": "A seat declined its pick",
    "DraftClosed": "The draft is over; unpicked cards return",
    "LoadingStarted": "Loading begins: each seat's production",
    "WeightLoaded": "A seat loaded weight onto Regions or its Traphouse",
    "StorageChosen": "A seat chose which Regions keep their untraded unit stored this turn (version 4: this "
                     "phase; the rest goes to the Traphouse)",
    "LoadingFinished": "A seat finished loading (anything forfeited)",
    "ActionOrderRolled": "The action order was rolled",
    "PhaseStarted": "A weight phase (Reefer, Pills, Coca, Opiates) begins",
    "Passed": "A seat passed",
    "ActionEnded": "A seat's action ended",
    "PhaseEnded": "A phase ended; leftover weight was swept",
    "TurnEnded": "The turn ended",
    "GameEnded": "The game is over: winners, scores, reason",
    "WeightDrawn": "A seat drew two units of weight",
    "RollStarted": "A roll is pending: its dice and who may sway them",
    "SwayDeclared": "A seat swayed a die with weight",
    "DeclarationClosed": "The roller closed its declaration; responders may sway",
    "SwayOpened": "Version 4: seats with Traphouse weight may sway the roll-off (seat: whose Sway they answer)",
    "SwayEnded": "A responder is done swaying",
    "RollCast": "The Classy Dice were cast: naturals, modifiers, totals",
    "TradeDeclared": "A seat declared a trade",
    "TradeSucceeded": "A trade succeeded and scored",
    "TradeFailed": "A trade failed (a re-roll may be offered, Cases added)",
    "RerollTaken": "A failed trade is re-rolled",
    "BustAccepted": "A bust was accepted",
    "EndgameTriggered": "A seat reached the game's score: the Endgame begins",
    "TrialResolved": "A Trial was decided",
    "RegionLost": "A seat lost a Region",
    "CrackdownImposed": "A Crackdown was imposed",
    "ScoreSetBack": "A score was set back",
    "WeightRemoved": "Weight was removed from the board",
    "CasesReset": "A seat's Cases were reset",
    "CasesCleared": "Cases were cleared",
    "AttackDeclared": "A seat attacked a Region",
    "WarResolved": "A round of Violence was decided",
    "AttackPressed": "An attack was pressed or countered",
    "WarCalledOff": "A war was called off by a card",
    "CounterDeclined": "The defender declined to counterattack",
    "BallerDrawn": "A seat drew a Baller Moves card (which: that seat only)",
    "BallerDeckShuffled": "The Baller deck was shuffled (its order: nobody)",
    "CardPlayed": "A Baller Moves card was played",
    "BonusWeight": "A card brought bonus weight",
}

# ------------------------------------------------------------- event data
# The JSON Schema of each event type's `data` as its owner reads it (served by GET /v1/rulesets/{name}/schema
# and typed in the spec): `secret` is optional, since every other reader gets the event without it.
EVENT_DATA: dict[str, dict] = {
    "GameStarted": obj(
        {
            "seats": INT,
            "options": obj({"faster_play": BOOL, "california_style": BOOL, "game_to": INT, "new_players": arr(INT)}),
            "board": STR,
            "baller": STR,
            "supply": obj({"reefer": INT, "pills": INT, "cocaine": INT, "opiates": INT}),
            "dime_bags": INT,
            "keep": arr(INT),
            "secret": obj({"deck": arr(STR), "baller_deck": arr(STR)}),
            "rules_version": INT,
        },
        optional=("secret",),
    ),
    "RegionCardsDrawn": obj({"seat": INT, "count": INT, "secret": obj({"regions": arr(STR)})}, optional=("secret",)),
    "EmpireChosen": obj({"seat": INT, "secret": obj({"regions": arr(STR)})}, optional=("secret",)),
    "EmpiresRevealed": obj({"empires": arr(arr(STR))}),
    "DeckShuffled": obj({"count": INT, "secret": obj({"deck": arr(STR)})}, optional=("secret",)),
    "TurnStarted": obj({"turn": INT}),
    "LoadingStarted": obj({"loads": arr(obj({"production": dict_of(INT), "own": dict_of(INT), "room": dict_of(INT)}))}),
    "WeightLoaded": obj({"seat": INT, "placements": arr(tuple_of(STR, STR, STR, INT))}),
    "StorageChosen": obj({"seat": INT, "stored": arr(STR), "offered": arr(STR)}),
    "RollStarted": obj(
        {
            "kind": STR,
            "roller": INT,
            "dice": arr(STR),
            "owners": dict_of(INT),
            "context": obj(
                {
                    "for": STR,
                    "slots": arr(arr(INT)),
                    "first_only": BOOL,
                    "rounds": arr({"type": "object"}),
                    "from": STR,
                    "target": STR,
                    "attacker": INT,
                    "defender": INT,
                    "round": STR,
                    "region": nullable(STR),
                    "weight": STR,
                    "cases": obj({"reefer": INT, "pills": INT, "cocaine": INT, "opiates": INT}),
                    "card": STR,
                },
                optional=(
                    "for",
                    "slots",
                    "first_only",
                    "rounds",
                    "from",
                    "target",
                    "attacker",
                    "defender",
                    "round",
                    "region",
                    "weight",
                    "cases",
                    "card",
                ),
            ),
        }
    ),
    "DeclarationClosed": obj({"seat": INT, "responders": arr(INT)}),
    "RollCast": obj(
        {
            "kind": STR,
            "roller": INT,
            "naturals": dict_of(INT),
            "modifiers": dict_of(INT),
            "totals": dict_of(INT),
            "cards": arr(tuple_of(INT, STR)),
        }
    ),
    "ActionOrderRolled": obj({"rounds": arr(obj({"who": arr(INT), "dice": arr(INT)})), "order": arr(INT)}),
    "PhaseStarted": obj({"wtype": STR}),
    "WeightDrawn": obj({"seat": INT, "weights": arr(STR)}),
    "ActionEnded": obj({"seat": INT, "action": STR}, optional=("action",)),
    "PhaseEnded": obj({"wtype": STR, "sweep": arr(tuple_of(INT, STR, INT, INT))}),
    "TradeDeclared": obj(
        {
            "seat": INT,
            "from": STR,
            "to": STR,
            "route": STR,
            "weight": STR,
            "units": INT,
            "held": INT,
            "target": INT,
            "ocean": nullable(STR),
            "reroll": BOOL,
        }
    ),
    "SwayOpened": obj({"seat": nullable(INT), "responders": arr(INT)}),
    "SwayEnded": obj({"seat": INT}),
    "TradeFailed": obj(
        {
            "seat": INT,
            "from": STR,
            "to": STR,
            "route": STR,
            "weight": STR,
            "units": INT,
            "held": INT,
            "target": INT,
            "ocean": nullable(STR),
            "reroll": BOOL,
            "reroll_offered": BOOL,
            "cases_added": INT,
        }
    ),
    "AttackDeclared": obj({"seat": INT, "from": STR, "target": STR, "defender": INT}),
    "SwayDeclared": obj({"seat": INT, "die": STR, "weight": STR, "units": INT}),
    "WarResolved": obj(
        {
            "round": STR,
            "attacker": INT,
            "defender": INT,
            "from": STR,
            "target": STR,
            "attack": INT,
            "defence": INT,
            "winner": STR,
            "offer": nullable(STR),
        }
    ),
    "WeightRemoved": obj(
        {
            "seat": INT,
            "cause": STR,
            "removed": arr(tuple_of(STR, STR, STR, INT)),
            "tie_rolls": arr(obj({"who": arr(STR), "dice": arr(INT)})),
        },
        optional=("tie_rolls",),
    ),
    "AttackPressed": obj({"seat": INT, "round": STR}),
    "Passed": obj({"seat": INT}),
    "TurnEnded": obj({"turn": INT}),
    "DraftOpened": obj(
        {
            "drawer": INT,
            "new": arr(STR),
            "lost": arr(obj({"region": STR, "priority": nullable(INT)})),
            "order": arr(INT),
            "rolloffs": arr(obj({"who": arr(INT), "dice": arr(INT)})),
        }
    ),
    "RegionDrafted": obj({"seat": INT, "region": STR}),
    "DraftDeclined": obj({"seat": INT, "reason": STR}),
    "DraftClosed": obj({"returned": arr(STR)}),
    "TradeSucceeded": obj(
        {
            "seat": INT,
            "from": STR,
            "to": STR,
            "route": STR,
            "weight": STR,
            "units": INT,
            "held": INT,
            "target": INT,
            "ocean": nullable(STR),
            "reroll": BOOL,
            "stacks": INT,
            "score": INT,
        }
    ),
    "BallerDrawn": obj({"seat": INT, "keep_open": BOOL, "secret": obj({"card": STR})}, optional=("secret",)),
    "CardPlayed": obj({"seat": INT, "card": STR, "region": nullable(STR), "die": nullable(STR), "amount": INT}),
    "WarCalledOff": obj({"seat": INT, "card": STR}),
    "RegionLost": obj({"region": STR, "seat": INT, "priority": nullable(INT), "cause": STR}),
    "ClaimDeclined": obj({"seat": INT, "region": STR, "reason": STR}),
    "TrialResolved": obj({"seat": INT, "total": nullable(INT), "result": INT, "name": STR, "walked": BOOL}),
    "CrackdownImposed": obj(
        {"seat": INT, "weight": STR, "tie_rolls": arr(obj({"who": arr(STR), "dice": arr(INT)})), "marker": BOOL}
    ),
    "CasesReset": obj({"seat": INT}),
    "CounterDeclined": obj({"seat": INT}),
    "RegionClaimed": obj({"seat": INT, "region": STR}),
    "EndgameTriggered": obj({"seat": INT, "score": INT}),
    "GameEnded": obj(
        {
            "winners": arr(INT),
            "scores": arr(INT),
            "reason": STR,
            "rolloff": arr(obj({"who": arr(INT), "dice": arr(INT)})),
        }
    ),
    "RerollTaken": obj({"seat": INT, "ocean": STR, "from": STR, "to": STR, "units": INT}),
    "BustAccepted": obj(
        {
            "seat": INT,
            "from": STR,
            "to": STR,
            "route": STR,
            "weight": STR,
            "units": INT,
            "held": INT,
            "target": INT,
            "ocean": STR,
            "reroll": BOOL,
            "reroll_offered": BOOL,
            "cases_added": INT,
        }
    ),
    "BonusWeight": obj({"seat": INT, "card": STR, "region": STR, "weight": STR, "rolled": INT, "units": INT}),
    "CasesCleared": obj({"seat": INT, "removed": dict_of(INT)}),
    "ScoreSetBack": obj({"seat": INT, "from": INT, "to": INT}),
    "BallerDeckShuffled": obj({"count": INT, "secret": obj({"deck": arr(STR)})}, optional=("secret",)),
    "LoadingFinished": obj({"seat": INT, "forfeited": INT}),
}

# ------------------------------------------------------------------ the view
PER_TYPE = dict_of(INT)
_PLAYER = obj({
    "seat": INT, "markers": STR, "score": INT, "laps": INT, "regions": arr(STR), "traphouse": PER_TYPE,
    "traphouse_locked": PER_TYPE, "cases": PER_TYPE, "case_total": INT, "crackdowns": PER_TYPE,
    "markers_free": INT, "score_markers": INT, "hand_count": INT, "rerolls_used": dict_of(INT),
    "setup": nullable(obj({"drawn_count": INT, "chosen": BOOL, "drawn": arr(STR), "kept": nullable(arr(STR)),
                           "keep": INT}, optional=("drawn", "kept", "keep"))),
    "hand": arr(STR),
}, optional=("hand",))
_ROLL = obj({"kind": one_of_consts("trade", "trial", "war", "bonus", "rolloff"), "roller": INT, "dice": arr(STR),
             "owners": dict_of(INT), "context": {"type": "object"}, "stage": one_of_consts("declare", "respond"),
             "waiting": arr(INT), "sway": arr(arr(ANY)), "mods": arr(arr(ANY))})
VIEW_SCHEMA = obj({
    "game": {"const": "druglord"},
    "you": nullable(INT),
    "options": obj({"faster_play": BOOL, "california_style": BOOL, "game_to": INT, "new_players": arr(INT)}),
    "turn": INT,
    "phase": one_of_consts("empire", "draft", "load", "action", "between", "over"),
    "phase_name": nullable(one_of_consts(*PHASE_NAMES.values())),
    "weight_type": nullable(one_of_consts(*WEIGHT_TYPES)),
    "action_order": arr(INT),
    "actor": nullable(INT),
    "scoop": nullable(INT),
    "trial_at": INT,
    "game_to": INT,
    "endgame_triggered_by": nullable(INT),
    "supply": PER_TYPE,
    "dime_bags": INT,
    "regions": dict_of(obj({"owner": INT, "weight": PER_TYPE, "stored": PER_TYPE})),
    "players": arr(_PLAYER),
    "draft": nullable(obj({"offer": arr(STR), "order": arr(INT), "pos": INT,
                           "claims": arr({"type": "object"}), "claim_pos": INT, "drawer": nullable(INT)})),
    "lost_to_next_draft": arr(obj({"region": STR, "priority": ANY})),
    "delivered_this_phase": dict_of(INT),
    "action": nullable(obj({"kind": one_of_consts("move", "violence", "draw_card"), "seat": INT}, open_=True)),
    "roll": nullable(_ROLL),
    "last_roll": nullable(obj({"kind": STR, "roller": INT, "naturals": dict_of(INT), "modifiers": dict_of(INT),
                               "totals": dict_of(INT)}, open_=True)),
    "loading": arr(nullable({"type": "object"})),
    "region_deck_count": INT,
    "baller_deck_count": INT,
    "baller_discard": arr(STR),
    "rolloffs": {"type": "object"},
    "storing": arr(nullable(arr(STR))),
    "outcome": nullable(obj({"winners": arr(INT), "reason": STR}, open_=True)),
})


# ------------------------------------------------------------------ labels
def _region(region: str | None) -> str:
    """A Region as the map names it: "Great Plains (FS3)"."""
    r = BOARD.regions.get(region) if region else None
    return f"{r.name} ({region})" if r else str(region)


def _place(where: str) -> str:
    return "your Traphouse" if where == "traphouse" else _region(where)


def _route(route: str) -> str:
    ocean = route_ocean(route)
    words = ROUTE_WORDS.get(route_kind(route), route)
    return f"{words} over the {ocean.title()}" if ocean else words


def _card(card: str) -> str:
    entry = CARDS.get(card)
    return entry["name"] if entry else card


def _die(die: str, seat: int, names: Names) -> str:
    """"the trade die"; a roll-off die ("seat2") is its contender's: "Ana's die", "your die"."""
    if not die.startswith("seat") or not die[4:].isdigit():
        return f"the {die} die"
    return "your die" if int(die[4:]) == seat else f"{names(int(die[4:]))}'s die"


def _units(n: int, weight: str) -> str:
    return f"{n} {PHASE_NAMES.get(weight, weight)}"


LABELS = {
    "KeepRegions": lambda m, s, n: "Keep " + ", ".join(_region(r) for r in m["regions"]),
    "ClaimRegion": lambda m, s, n: f"Claim {_region(m['region'])}",
    "DraftRegion": lambda m, s, n: f"Draft {_region(m['region'])}",
    "DeclineDraft": lambda m, s, n: "Decline",
    "LoadWeight": lambda m, s, n: f"Load {_units(m['units'], m['weight'])} from {_region(m['from'])}"
                                  + ("" if m["to"] == m["from"] else f" onto {_place(m['to'])}"),
    "LoadDefault": lambda m, s, n: "Load the rest by default",
    "StoreLocally": lambda m, s, n: ("Store 1 unit locally on " + ", ".join(_region(r) for r in m["regions"])
                                     if m["regions"] else "Store nothing locally"),
    "Trade": lambda m, s, n: f"Trade {m['units']} from {_place(m['from'])} to {_region(m['to'])} by "
                             f"{_route(m['route'])}",
    "ReRoll": lambda m, s, n: "Re-roll the failed trade",
    "AcceptBust": lambda m, s, n: "Accept the bust",
    "EndAction": lambda m, s, n: "End your action",
    "Pass": lambda m, s, n: "Pass",
    "Attack": lambda m, s, n: f"Attack {_region(m['target'])} from {_region(m['from'])}",
    "PressAttack": lambda m, s, n: "Press the attack",
    "Counterattack": lambda m, s, n: "Counterattack",
    "DeclineCounter": lambda m, s, n: "Decline to counterattack",
    "DrawWeight": lambda m, s, n: "Draw " + " and ".join(PHASE_NAMES.get(w, w) for w in m["weights"]),
    "DrawBaller": lambda m, s, n: "Draw a Baller Moves card",
    "PlayCard": lambda m, s, n: f"Play {_card(m['card'])}" + (f" on {_region(m['region'])}" if m["region"] else ""),
    "Sway": lambda m, s, n: f"Sway {_die(m['die'], s, n)} {m['units']:+d} with "
                            f"{PHASE_NAMES.get(m['weight'], m['weight'])}",
    "EndSway": lambda m, s, n: "Done swaying",
}


def label(view: dict, seat: int, move: dict, names: Names = Names()) -> str:
    """A legal move in the rulebook's words, e.g. "Sway the defence die -3 with Pills": Druglord's labels
    read the move and the map alone, and name seats by the players' names."""
    return LABELS[move["type"]](move, seat, names)


# ------------------------------------------------------------------ static data
def static_data(version: int) -> dict:
    """The map of rules `version` (every Region with its name, zone, borders, ports/oceans, demand and map
    coordinates) and the Baller Moves deck, from board.json and baller_cards.json as the rules loaded them."""
    board = board_at(version)
    points = MAP["coordinates"]
    regions = [{"id": r.id, "name": r.name, "zone": r.zone, "zone_name": board.zones[r.zone], "number": r.number,
                "wv": r.wv, "sc": r.sc, "produces": list(r.produces), "ports": list(r.ports),
                "demand": dict(r.demand), "island": r.island, "interoceanic": list(r.interoceanic),
                "landmass": r.landmass, "borders": sorted(board.borders[r.id]),
                "x": points[r.id][0], "y": points[r.id][1]}
               for r in board.regions.values()]
    return {"source": "rules/druglord/board.json and rules/druglord/baller_cards.json, as the rules read them "
                      "(reconstructed: docs/rules/druglord-board.md)",
            "zones": dict(board.zones), "oceans": list(OCEANS),
            "map": {"reconstructed": MAP.get("reconstructed"), "projection": MAP.get("projection")},
            "rules_version": version,
            "regions": regions, "baller": BALLER}
