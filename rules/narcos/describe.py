"""Narcos describes itself: commands, events and the view in the rulebook's words (docs/rules/narcos.md
"Commands", "Events and secrets", "View"), a label for every legal move, and the static data (the Narcos
deck's cards, the starting network, the Plantation, the cities, the Cartel cards, the box's cubes) from
the files the rules read -- the catalogue, never a deck's order."""
from __future__ import annotations

from rules.describe import BOOL, INT, STR, arr, dict_of, nullable, obj, one_of_consts
from rules.narcos.data import CARDS, CARTEL, CROPS, GOLD, MERCHANDISE, SICARIOS, game_data
from rules.narcos.sales import FALLBACK_PENALTY
from rules.narration import Names, plural

CARD = "a card id on the rack, e.g. storage-8-1"
CARTEL_CARD = "a Cartel card id in your hand, e.g. burn-crops-1"
WORKERS = "employees sent to the Dealer's city: 0, or 1 (advanced mode only)"
COMMAND_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "PlayOn": ("5: play the last cards (fewer than 7) of the Round 1 deck", {}),
    "StartRoundTwo": ("5: prepare the Round 2 deck now (fewer than 7 cards left in Round 1)", {}),
    "Draw": ("6.1: turn the top card of the Narcos deck face up", {}),
    "Stop": ("6.1: stand, ending your Actions phase with the cards on the rack", {}),
    "Eliminate": ("6.1 Plata o plomo: send sicarios against the Police, Military or Press just turned", {}),
    "Peek": ("6.1 Snitch: look privately at the next card of the deck", {}),
    "PlaceCard": ("6.1 Snitch: put the card you looked at on the rack", {}),
    "DeclineCard": ("6.1 Snitch: leave the card you looked at on the deck (your drawing ends)", {}),
    "PayPolice": ("6.1 Plata o plomo: say where the Police takes its merchandise from",
                  {"source": "laboratory or storage (money is taken by itself when you have no merchandise)"}),
    "ChooseBonus": ("6.1 advantages: four guns give 1 sicario or 2 Cartel cards", {"choice": "sicario or cartel"}),
    "Produce": ("6.2 Laboratory: one action makes what the table shows for your crops", {}),
    "Ship": ("6.2 Transport: one action moves merchandise from the Laboratory to the Storage", {}),
    "Deliver": ("6.2 Dealers: move your whole Storage to a free Dealer on the rack",
                {"dealer": "a Dealer card id on the rack, e.g. dealer-chicago-1", "workers": WORKERS}),
    "SellFallback": (f"6.2 Dealers: sell your whole Storage to the −{FALLBACK_PENALTY} Dealer", {"workers": WORKERS}),
    "SpendWorker": ("8: discard a worker for one more action", {}),
    "SpendCartel": ("7: spend a Cartel card face down for one more action", {"card": CARTEL_CARD}),
    "PlayCartel": ("7: play a Cartel card's ability",
                   {"card": CARTEL_CARD, "target": "the seat aimed at (Burn the crops; Crop guards: the attacker), "
                                                  "else -1"}),
    "PassReaction": ("7: answer nothing more in your window: let the attack aimed at you happen, leave the owed "
                     "card unpaid, or let the DEA agent of money follow the richest", {}),
    "ConvertWorker": ("8: pay a worker 2 million to become a sicario", {}),
    "EndActions": ("6.2: finish your actions (unused ones are lost)", {}),
    "CollectSales": ("6.2 Collecting sales: collect 1 million a unit sold; leftover Dealers go round", {}),
    "PassSale": ("6.2 Dealers: leave the remaining Dealers to the next seats", {}),
    "Buy": ("6.3: buy a Laboratory, Transport or Storage card left on the rack", {"card": CARD}),
    "AddCrop": ("6.3: plant one more crop for the price on the Plantation", {}),
    "PassImprovement": ("6.3: make no investment this turn", {}),
    "PassBuy": ("6.3: buy none of the cards left", {}),
}

EVENT_DOCS: dict[str, str] = {
    "GameStarted": "The table is set: seats, mode, first seat, permanent Dealer or city tokens, the Round 2 reserve",
    "DeckShuffled": "A Narcos deck was shuffled: its size and composition by kind (its order: nobody)",
    "CartelShuffled": "The Cartel deck was shuffled (its order: nobody)",
    "CartelDealt": "A seat was dealt Cartel cards (which: that seat only)",
    "TurnStarted": "A seat's turn begins, with the DEA agents pursuing it",
    "PlayedOn": "The seat plays the last Round 1 cards",
    "RoundTwoStarted": "Round 2 begins: its deck is built from the discards, the reserve and the cards left",
    "TurnEnded": "The turn is over: the rack goes to the discard pile",
    "GameEnded": "The game is over: winners, reason, money",
    "CardDrawn": "A card was turned face up on the rack",
    "DangerEliminated": "A Police, Military or Press card just turned was eliminated (sicarios or a Lawyer)",
    "DangersActivated": "The danger reached 2 sirens: the Police and Military on the rack are owed",
    "DangerPaid": "An owed Police or Military was paid (from the Laboratory, the Storage or money), or not",
    "CardPeeked": "A seat looked at the next card (which: that seat only)",
    "PeekDeclined": "The card looked at stays on the deck",
    "DrawEnded": "The Actions phase is over: why, guns, sirens, actions earned, the advantage",
    "DeaAgentMoved": "A DEA agent went to a seat or back to watching",
    "BonusChosen": "Four guns: the seat took a sicario or Cartel cards",
    "Produced": "A Laboratory made merchandise",
    "Shipped": "A Transport moved merchandise to the Storage",
    "Delivered": "A Storage was sold to a Dealer: units, tribute, pay, bonus, employees",
    "WorkerSpent": "A worker was discarded for one more action",
    "CartelBackSpent": "A Cartel card was spent face down for one more action (which: that seat only)",
    "WorkerConverted": "A worker became a sicario for 2 million",
    "CartelPlayed": "A Cartel card's ability was played (face up)",
    "ReactionAsked": "A seat may answer: an attack aimed at it on another's turn (Burn the crops); from version 3 "
                     "a card about to go unpaid (unpaid) or the DEA agent of money coming to it (dea-money)",
    "ReactionPassed": "The seat answered nothing more in its window",
    "CropBurned": "A crop was burned: one brown cube back to the supply",
    "ActionsEnded": "The seat finished its actions",
    "SalesCollected": "Sales were collected",
    "ManagementEnded": "Management is over: the order in which the others may use leftover Dealers",
    "SalePassed": "A seat left the leftover Dealers",
    "SalesClosed": "No leftover Dealer is used any more",
    "CardBought": "A seat bought a card from the rack (it replaces its own)",
    "CropAdded": "A seat planted a crop",
    "ImprovementPassed": "The seat made no investment",
    "BuyPassed": "A seat bought none of the cards left",
}

# ------------------------------------------------------------- event data
# The JSON Schema of each event type's `data` as its owner reads it (served by GET /v1/rulesets/{name}/schema
# and typed in the spec): `secret` is optional, since every other reader gets the event without it.
EVENT_DATA: dict[str, dict] = {
    "GameStarted": obj(
        {
            "seats": INT,
            "mode": STR,
            "first": INT,
            "permanent": nullable(STR),  # the basic mode's permanent Dealer; advanced: tokens instead
            "tokens": nullable(dict_of(STR)),
            "reserve": arr(STR),
            "supply": INT,
            "rules_version": INT,
        }
    ),
    "DeckShuffled": obj(
        {"round": INT, "count": INT, "kinds": dict_of(INT), "secret": obj({"order": arr(STR)})}, optional=("secret",)
    ),
    "CartelShuffled": obj({"count": INT, "secret": obj({"order": arr(STR)})}, optional=("secret",)),
    "CartelDealt": obj({"seat": INT, "count": INT, "secret": obj({"cards": arr(STR)})}, optional=("secret",)),
    "TurnStarted": obj({"seat": INT, "agents": arr(STR)}),
    "WorkerConverted": obj({"seat": INT}),
    "CardDrawn": obj({"seat": INT, "card": STR, "peeked": BOOL}),
    "DangerEliminated": obj(
        {"seat": INT, "card": STR, "sicarios": INT, "by": STR, "instead_of": INT}, optional=("instead_of",)
    ),
    "DrawEnded": obj(
        {"seat": INT, "reason": STR, "bust": BOOL, "guns": INT, "sirens": INT, "actions": INT, "bonus": nullable(STR)}
    ),
    "Shipped": obj({"seat": INT, "units": INT, "cost": INT}),
    "CartelBackSpent": obj({"seat": INT, "secret": obj({"card": STR})}, optional=("secret",)),
    "ActionsEnded": obj({"seat": INT, "unused": INT}),
    "ManagementEnded": obj({"seat": INT, "performed": INT, "queue": arr(INT)}),
    "SalesClosed": obj({"seat": INT}),
    "ImprovementPassed": obj({"seat": INT}),
    "BuyPassed": obj({"seat": INT}),
    "TurnEnded": obj({"seat": INT, "discarded": arr(STR)}),
    "CardBought": obj({"seat": INT, "card": STR, "price": INT, "replaced": STR, "out_of_turn": BOOL}),
    "WorkerSpent": obj({"seat": INT}),
    "Delivered": obj(
        {
            "seat": INT,
            "dealer": nullable(STR),
            "city": STR,
            "units": INT,
            "tribute": arr(obj({"seat": INT, "units": INT, "kept": INT})),
            "paid": INT,
            "bonus": INT,
            "workers": INT,
            "cost": INT,
        }
    ),
    "Produced": obj({"seat": INT, "units": INT, "cost": INT}),
    "SalesCollected": obj({"seat": INT, "amount": INT}),
    "CartelPlayed": obj({"seat": INT, "card": STR, "target": INT}),
    "CardPeeked": obj({"seat": INT, "secret": obj({"card": STR})}, optional=("secret",)),
    "PeekDeclined": obj({"seat": INT}),
    "SalePassed": obj({"seat": INT}),
    "DangersActivated": obj({"seat": INT, "owed": arr(STR)}),
    "DeaAgentMoved": obj({"agent": STR, "seat": nullable(INT)}),
    "CropAdded": obj({"seat": INT, "price": INT}),
    "DangerPaid": obj({"seat": INT, "card": STR, "paid": nullable(STR), "chosen": BOOL}),
    "RoundTwoStarted": obj({"called_by": nullable(INT), "left_in_deck": INT}),
    "BonusChosen": obj({"seat": INT, "choice": STR, "sicario": BOOL}),
    "GameEnded": obj({"winners": arr(INT), "money": arr(INT), "reason": STR}),
    "PlayedOn": obj({"seat": INT, "left_in_deck": INT}),
    "CropBurned": obj({"seat": INT, "by": INT, "card": STR}),
    "ReactionAsked": obj({"kind": STR, "seat": INT, "attacker": INT, "card": STR}),
    "ReactionPassed": obj({"seat": INT, "kind": STR}),
}

# ------------------------------------------------------------------ the view
PHASES = ("setup", "start", "draw", "bonus", "manage", "close", "sales", "improve", "buys", "over")
_GOODS = obj({"goods": INT, "money": INT})
_DEA = {"anyOf": [INT, one_of_consts(None, "watching", "table")]}
_TURN = obj({
    "seat": INT, "phase": one_of_consts(*PHASES),
    "table": arr(obj({"card": STR, "status": one_of_consts("on", "unpaid", "eliminated", "removed")})),
    "agents": arr(one_of_consts("actions", "money")), "activated": BOOL, "owed": arr(STR), "press_owed": BOOL,
    "bust": BOOL, "actions": INT, "performed": INT, "used_dealers": arr(STR), "fallback_used": BOOL,
    "free_used": BOOL, "queue": arr(INT), "bought": arr(STR), "confiscated": _GOODS, "fresh": BOOL,
    "sirens": INT, "guns": INT, "looking": BOOL, "earned": INT, "peeked": STR,
}, optional=("peeked",))
_PLAYER = obj({
    "seat": INT, "money": INT, "cubes": obj({"gold": INT, "green": INT}), "uncollected": INT, "workers": INT,
    "sicarios": INT, "crops": INT, "laboratory": STR, "lab": INT, "transport": STR, "storage": STR, "stored": INT,
    "hand_count": INT, "backs_spent": INT, "hand": arr(STR),
}, optional=("hand",))
VIEW_SCHEMA = obj({
    "game": {"const": "narcos"},
    "you": nullable(INT),
    "mode": one_of_consts("basic", "advanced"),
    "round": one_of_consts(1, 2),
    "deck_count": INT,
    "pool": dict_of(INT),
    "seen": arr(STR),
    "reserve_count": INT,
    "discard": arr(STR),
    "cartel_deck_count": INT,
    "cartel_played": arr(STR),
    "permanent_dealer": nullable(STR),
    "tokens": nullable(dict_of(STR)),
    "warehouse": _GOODS,
    "cities": dict_of(arr(INT)),
    "sicario_supply": INT,
    "dea": obj({"actions": _DEA, "money": _DEA}),
    "current": INT,
    "turn": _TURN,
    "window": nullable(obj({"kind": one_of_consts("burn-crops", "unpaid", "dea-money"), "waiting": arr(INT),
                            "attacker": INT, "card": STR})),
    "supply": obj({"merchandise": INT, "crops": INT}),
    "players": arr(_PLAYER),
    "outcome": nullable(obj({"winners": arr(INT), "reason": STR, "money": arr(INT)})),
})


# ------------------------------------------------------------------ labels
# A label is written from the seat's view (Ruleset.label): cards by their printed names (a second card of
# the same name on the rack by its place there: "Miami dealer no. 2"), seats by the players' names; no ids.
def _card(view: dict, card: str) -> str:
    """A Narcos card as printed: "Speedboat", "Speedboat no. 2" when the rack shows two."""
    entry = CARDS.get(card)
    if not entry:
        return "a card"
    alike = [e["card"] for e in view["turn"]["table"] if CARDS.get(e["card"], {}).get("name") == entry["name"]]
    return f"{entry['name']} no. {alike.index(card) + 1}" if card in alike and len(alike) > 1 else entry["name"]


def _cartel(card: str) -> str:
    entry = CARTEL.get(card)
    return entry["english"] if entry else "a Cartel card"


def _employee(move: dict) -> str:
    return " sending an employee to the city (+1 million)" if move.get("workers") else ""


def _play(view: dict, seat: int, names: Names, move: dict) -> str:
    target = move["target"]
    aimed = f" on {names(target)}" if target != -1 and view["window"] is None else ""
    answer = f" against {names(target)}'s attack" if target != -1 and view["window"] is not None else ""
    return f"Play {_cartel(move['card'])}{aimed}{answer}"


def _eliminate(view: dict) -> str:
    table = view["turn"]["table"]
    return f"Eliminate {_card(view, table[-1]['card'])} with sicarios" if table else "Eliminate the danger just turned"


def _pay(view: dict, move: dict) -> str:
    owed = view["turn"]["owed"]
    return f"Pay {_card(view, owed[0]) if owed else 'the Police'} {PAY_FROM.get(move['source'], move['source'])}"


PASS_LABELS = {"burn-crops": lambda v: "Let the attack happen",
               "unpaid": lambda v: f"Leave {_card(v, v['window']['card'])} unpaid",
               "dea-money": lambda v: "Go on: the DEA agent of money follows the richest"}
PAY_FROM = {"laboratory": "1 merchandise from your Laboratory", "storage": "1 merchandise from your Storage",
            "money": "1 million"}
LABELS = {
    "PlayOn": lambda v, s, n, m: f"Play the last {plural(v['deck_count'], 'card')} of Round 1",
    "StartRoundTwo": lambda v, s, n, m: "Prepare the Round 2 deck now",
    "Draw": lambda v, s, n, m: "Turn a card",
    "Stop": lambda v, s, n, m: "Stand",
    "Eliminate": lambda v, s, n, m: _eliminate(v),
    "Peek": lambda v, s, n, m: "Snitch: look at the next card",
    "PlaceCard": lambda v, s, n, m: "Place the card you looked at on the rack",
    "DeclineCard": lambda v, s, n, m: "Leave the card you looked at on the deck",
    "PayPolice": lambda v, s, n, m: _pay(v, m),
    "ChooseBonus": lambda v, s, n, m: "Take 1 sicario" if m["choice"] == "sicario" else "Take 2 Cartel cards",
    "Produce": lambda v, s, n, m: "Produce in your Laboratory (1 action)",
    "Ship": lambda v, s, n, m: "Ship from your Laboratory to your Storage (1 action)",
    "Deliver": lambda v, s, n, m: f"Deliver your Storage to {_card(v, m['dealer'])}{_employee(m)}",
    "SellFallback": lambda v, s, n, m: f"Sell your Storage to the −{FALLBACK_PENALTY} Dealer{_employee(m)}",
    "SpendWorker": lambda v, s, n, m: "Spend a worker for one more action",
    "SpendCartel": lambda v, s, n, m: f"Spend {_cartel(m['card'])} face down for one more action",
    "PlayCartel": _play,
    "PassReaction": lambda v, s, n, m: PASS_LABELS[v["window"]["kind"]](v),
    "ConvertWorker": lambda v, s, n, m: "Convert a worker into a sicario (2 million)",
    "EndActions": lambda v, s, n, m: "End your actions",
    "CollectSales": lambda v, s, n, m: "Collect your sales",
    "PassSale": lambda v, s, n, m: "Leave the Dealers to the others",
    "Buy": lambda v, s, n, m: f"Buy {_card(v, m['card'])}",
    "AddCrop": lambda v, s, n, m: "Plant a crop",
    "PassImprovement": lambda v, s, n, m: "Make no investment",
    "PassBuy": lambda v, s, n, m: "Buy nothing",
}


def label(view: dict, seat: int, move: dict, names: Names = Names()) -> str:
    """A legal move in the rulebook's words, from the seat's view, e.g. "Deliver your Storage to Chicago dealer"."""
    return LABELS[move["type"]](view, seat, names, move)


# ------------------------------------------------------------------ static data
def static_data() -> dict:
    """The card catalogue (cards.json, cartel.json) as the rules read it, and the box's limited pieces."""
    return {**game_data(), "box": {"merchandise": MERCHANDISE, "crops": CROPS, "sicarios": SICARIOS,
                                   "gold_value": GOLD, "money": "unlimited (cubes are change)"}}
