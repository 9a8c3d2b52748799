"""Kingpin describes itself: commands, events and the view in the rulebook's words
(docs/rules/kingpin.md "Command reference", "Events", "View"), and a label for every legal move."""
from __future__ import annotations

from rules.describe import ANY, BOOL, INT, STR, arr, dict_of, nullable, obj, one_of_consts, tuple_of
from rules.kingpin.guards import FACE_NAMES
from rules.narration import Names, plural

CARD = "a card id, e.g. truck3-1"
COMMAND_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "PurchaseCard": ("Purchase Cards: buy one card of a kind, before the roll",
                     {"kind": "the kind of card to buy, e.g. truck4 (see the stacks)"}),
    "RollDice": ("Roll the dice (mandatory, ends the purchases)", {}),
    "GiveUpRoll": ("Give up the die of one face you did not roll, once, before using any die",
                   {"face": "the face given up, 1 to 6"}),
    "Ship": ("Shipment (1): fill your empty Supply Truck with Hits", {"truck": "your empty Supply Truck, " + CARD}),
    "Distribute": ("Distribute (2): move the Hits of a Supply Truck onto your Dealers",
                   {"truck": "your Supply Truck holding Hits"}),
    "PlaceHits": ("Place Hits from the distributing Truck on one of your Dealers",
                  {"dealer": "your Dealer with room", "hits": "how many Hits to place"}),
    "FinishDistribute": ("Finish the distribution (Hits left on the Truck are discarded)", {}),
    "PurchaseHits": ("Purchase Hits (3): your Junkie buys Hits from your Dealer",
                     {"junkie": "your Junkie", "dealer": "your Dealer with Hits"}),
    "StealDeal": ("Steal a Deal (5): another player's Junkie buys Hits from your Dealer",
                  {"junkie": "another player's Junkie", "dealer": "your Dealer with Hits"}),
    "SellHits": ("Sell Hits in the sale in progress (an OD roll may follow)",
                 {"hits": "Hits sold", "cash": "cash the Junkie pays, in $100 steps"}),
    "Payday": ("Payday (4): every Junkie in play collects its Payday", {}),
    "Chloroform": ("Chloroform (6): pay $200 to exhaust an opponent's Active Special Card",
                   {"card": "an opponent's Active Special Card"}),
    "ActivateCard": ("Use a double to turn your Exhausted Special Card Active again",
                     {"face": "the face of the double", "card": "your Exhausted Special Card"}),
    "CollectDouble": ("Cash a double for $200", {"face": "the face of the double"}),
    "UseTriple": ("A triple: Payday for you and a free Basic card",
                  {"face": "the face of the triple", "kind": "the Basic kind taken free (null if none is in stock)"}),
    "UseQuadruple": ("A quadruple: a free Special card",
                     {"face": "the face of the quadruple",
                      "kind": "the Special kind taken free (null if none is in stock)"}),
    "UseCop": ("Use your Cop ($200) to send another player's card to Jail",
               {"cop": "your Active Cop", "target": "another player's Junkie, Dealer or Special Card"}),
    "UseHitMan": ("Use your Hit Man to eliminate another player's card (you pay the bounty)",
                  {"hitman": "your Active Hit Man", "target": "another player's Junkie, Dealer or Special Card"}),
    "PlaceRegulator": ("Place your Regulator on another player: it blocks their Shipments",
                       {"regulator": "your Active, untargeted Regulator", "target": "the seat regulated"}),
    "BribeRegulator": ("Pay the bribe to remove a Regulator that targets you",
                       {"regulator": "the Regulator targeting you"}),
    "BribeCop": ("Pay the Cop's owner the bribe: your card stays out of Jail", {}),
    "AcceptJail": ("Let the Cop send your card to Jail", {}),
    "AcceptHit": ("Let the Hit Man eliminate your card", {}),
    "DoubleBounty": ("Pay twice the bounty to turn the Hit Man on the player who hired it",
                     {"target": "a card of the player who targeted you"}),
    "AcceptRegulator": ("Accept the Regulator placed on you", {}),
    "UseImmunity": ("Play your Immunity: the attack on you has no effect", {"card": "your Active Immunity"}),
    "Bail": ("Bail a card out of Jail (this ends your turn)", {"card": "your jailed card"}),
    "EndTurn": ("End your turn", {}),
}

EVENT_DOCS: dict[str, str] = {
    "GameStarted": "The table is set: the whole card catalogue, options, seats, starting bankroll and cards",
    "FirstPlayerRolled": "Seats rolled for who starts (the rounds and the winner)",
    "TurnStarted": "A seat's turn begins",
    "TurnEnded": "A seat's turn is over",
    "CardPurchased": "A seat bought a card",
    "DiceRolled": "A seat rolled its dice",
    "RollGivenUp": "A seat gave up the die of one face",
    "DiceUsed": "Dice were spent on an action",
    "ShipmentMade": "A Supply Truck was filled with Hits",
    "ShipmentBlocked": "A Regulator blocked a Shipment",
    "DistributionStarted": "A Truck's Hits are being distributed",
    "HitsPlaced": "Hits were placed on a Dealer",
    "DistributionFinished": "A distribution ended (Hits left over are discarded)",
    "SaleStarted": "A Junkie is buying Hits from a Dealer",
    "HitsSold": "Hits were sold to a Junkie for cash",
    "SaleAbandoned": "A sale in progress was dropped at the end of the turn",
    "ODRolled": "A Junkie rolled for an overdose",
    "JunkieDied": "A Junkie died (overdose) and its cash went to the bank",
    "PaydayCollected": "Junkies collected their Payday",
    "CardChloroformed": "A Special Card was chloroformed (exhausted)",
    "CardActivated": "An Exhausted Special Card became Active again",
    "DoubleCashed": "A double was cashed",
    "FreeCardTaken": "A triple or quadruple gave a free card",
    "CopUsed": "A Cop was used against a card (its owner may bribe)",
    "CopBribed": "The Cop was bribed",
    "CardJailed": "A card went to Jail",
    "HitManUsed": "A Hit Man was sent against a card",
    "BountyDoubled": "The bounty was doubled and the Hit Man turned on its hirer",
    "CardEliminated": "A card was eliminated from the game",
    "RegulatorPlaced": "A Regulator was placed on a player",
    "RegulatorAccepted": "A Regulator was accepted",
    "RegulatorBribed": "A Regulator was bribed away",
    "ImmunityUsed": "Immunity blocked an attack",
    "CardBailed": "A card was bailed out of Jail",
    "GameEnded": "The game is over: winners, reason, bankrolls",
}

# ------------------------------------------------------------- event data
# The JSON Schema of each event type's `data` as its owner reads it (served by GET /v1/rulesets/{name}/schema
# and typed in the spec): `secret` is optional, since every other reader gets the event without it.
EVENT_DATA: dict[str, dict] = {
    "GameStarted": obj(
        {
            "catalog": obj(
                {
                    "kinds": dict_of({"type": "object"}),
                    "order": arr(STR),
                    "costs": obj(
                        {
                            "cop_use": INT,
                            "chloroform": INT,
                            "double_cash": INT,
                            "bail_special": INT,
                            "bail_per_dealer_circle": INT,
                            "bail_junkie": STR,
                        }
                    ),
                    "starting": obj(
                        {"bankroll_per_player": INT, "truck": STR, "dealer": STR, "junkie": STR, "truck_hits": INT}
                    ),
                }
            ),
            "options": obj({"target": INT, "turn_limit": INT}),
            "seats": INT,
            "bankroll": INT,
            "starting": arr(obj({"truck": STR, "dealer": STR, "junkie": STR})),
            "truck_hits": INT,
            "rules_version": INT,
        }
    ),
    "FirstPlayerRolled": obj({"rounds": arr(obj({"seats": arr(INT), "dice": arr(INT)})), "seat": INT}),
    "TurnStarted": obj({"seat": INT, "turn": INT}),
    "CardPurchased": obj({"seat": INT, "kind": STR, "card": STR, "price": INT}),
    "DiceRolled": obj({"seat": INT, "dice": arr(INT)}),
    "TurnEnded": obj({"seat": INT, "turn": INT}),
    "RollGivenUp": obj({"seat": INT, "face": INT}),
    "DiceUsed": obj({"seat": INT, "face": INT, "count": INT, "action": STR}),
    "PaydayCollected": obj({"seats": arr(INT), "payouts": arr(tuple_of(STR, INT))}),
    "FreeCardTaken": obj({"seat": INT, "kind": STR, "card": STR}),
    "DistributionStarted": obj({"seat": INT, "truck": STR, "hits": INT}),
    "HitsPlaced": obj({"seat": INT, "dealer": STR, "hits": INT}),
    "DistributionFinished": obj({"seat": INT, "discarded": INT}),
    "SaleStarted": obj({"seat": INT, "face": INT, "junkie": STR, "dealer": STR}),
    "HitsSold": obj({"seat": INT, "junkie": STR, "dealer": STR, "hits": INT, "cash": INT, "face": INT}),
    "DoubleCashed": obj({"seat": INT, "amount": INT}),
    "SaleAbandoned": obj({"seat": INT, "junkie": STR, "dealer": STR}),
    "ShipmentMade": obj({"seat": INT, "truck": STR, "hits": INT}),
    "CardChloroformed": obj({"seat": INT, "card": STR, "owner": INT, "cost": INT}),
    "CardActivated": obj({"seat": INT, "card": STR}),
    "CopUsed": obj({"seat": INT, "cop": STR, "target": STR, "owner": INT, "cost": INT, "bribe": INT}),
    "CardJailed": obj({"card": STR, "owner": INT, "cash": INT}),
    "CardBailed": obj({"seat": INT, "card": STR, "price": INT}),
    "CopBribed": obj({"seat": INT, "to": INT, "amount": INT, "card": STR, "cop": STR}),
    "RegulatorPlaced": obj({"seat": INT, "regulator": STR, "target": INT, "bribe": INT}),
    "RegulatorAccepted": obj({"seat": INT, "regulator": STR}),
    "HitManUsed": obj({"seat": INT, "hitman": STR, "target": STR, "owner": INT, "bounty": INT}),
    "CardEliminated": obj({"card": STR, "owner": INT, "paid_by": INT, "bounty": INT, "cash": INT, "hits": INT}),
    "ODRolled": obj({"seat": INT, "junkie": STR, "over": INT, "dice": arr(INT), "survived": BOOL}),
    "RegulatorBribed": obj({"seat": INT, "regulator": STR, "to": INT, "amount": INT}),
    "ShipmentBlocked": obj({"seat": INT, "truck": STR, "regulator": STR, "owner": INT}),
    "JunkieDied": obj({"junkie": STR, "owner": INT, "cash": INT, "cause": STR}),
    "GameEnded": obj({"winners": arr(INT), "reason": STR, "bankrolls": arr(INT)}),
    "ImmunityUsed": obj(
        {"seat": INT, "card": STR, "blocked": STR, "against": STR, "attacker": INT, "target": nullable(STR)}
    ),
    "BountyDoubled": obj({"seat": INT, "target": STR, "owner": INT, "bounty": INT}),
}

# ------------------------------------------------------------------ the view
_CARD = obj({"id": STR, "kind": STR, "type": one_of_consts("truck", "dealer", "junkie", "special"), "name": STR,
             "owner": nullable(INT), "where": STR, "size": INT, "hits": INT, "empty": BOOL, "max_hits": INT,
             "cash": INT, "cash_on_hand": INT, "payday": INT, "max_pay": INT, "od": INT, "special": STR,
             "status": one_of_consts("active", "exhausted", "jailed"), "target": nullable(INT),
             "acquired_turn": nullable(INT), "ready": BOOL, "bribe": INT, "bounty": INT},
            optional=("size", "hits", "empty", "max_hits", "cash", "cash_on_hand", "payday", "max_pay", "od",
                      "special", "status", "target", "acquired_turn", "ready", "bribe", "bounty"))
_STACK = obj({"remaining": INT, "price": INT, "type": STR, "name": STR, "size": INT, "cash_on_hand": INT,
              "payday": INT, "max_pay": INT, "od": INT, "special": STR, "bribe": INT, "bounty": INT},
             optional=("size", "cash_on_hand", "payday", "max_pay", "od", "special", "bribe", "bounty"))
_PLAYER = obj({"seat": INT, "bankroll": INT, "cards": arr(_CARD), "jailed": arr(_CARD), "regulated_by": arr(STR),
               "dice_pool": INT})
VIEW_SCHEMA = obj({
    "game": {"const": "kingpin"},
    "you": nullable(INT),
    "target": INT,
    "turn_limit": INT,
    "turn": INT,
    "current": nullable(INT),
    "phase": one_of_consts("setup", "buy", "dice", "specials", "bail", "over"),
    "players": arr(_PLAYER),
    "stacks": dict_of(_STACK),
    "jail": arr(_CARD),
    "removed": arr(STR),
    "dice": arr(obj({"face": INT, "action": STR, "used": BOOL})),
    "roll_given_up": nullable(INT),
    "bought_this_turn": arr(STR),
    "bailed_this_turn": BOOL,
    "shipments_blocked_this_turn": arr(STR),
    "pending": nullable(obj({"kind": one_of_consts("distribute", "sale")}, open_=True)),
    "window": nullable(obj({"kind": one_of_consts("cop", "hitman", "regulator"), "attacker": INT,
                            "responder": INT}, open_=True)),
    "first_player_rolls": ANY,
    "outcome": nullable(obj({"winners": arr(INT), "reason": STR}, open_=True)),
})


# ------------------------------------------------------------------ labels
# A label is written from the seat's view (Ruleset.label): cards by their printed names, seats by the
# players' names, never a card id or a seat number.
def _table(view: dict) -> dict[str, dict]:
    """Every card on the table (in play and in Jail), by id, as the view shows it."""
    return {card["id"]: card for player in view["players"] for card in player["cards"] + player["jailed"]}


def _name(view: dict, card_id: str) -> str:
    """A card as the table calls it: "Dealer (6)", or "Dealer (6) no. 2" when its owner holds more than one
    of its kind (numbered in the order they came into play, as the board lists them), never its id."""
    cards = _table(view)
    card = cards.get(card_id)
    if not card:
        return "that card"
    alike = sorted((c for c, other in cards.items()
                    if other["kind"] == card["kind"] and other["owner"] == card["owner"]), key=_card_order)
    return f"{card['name']} no. {alike.index(card_id) + 1}" if len(alike) > 1 else card["name"]


def _card_order(card_id: str) -> tuple:
    """Card ids are "<kind>-<n>": the n-th card of its kind to come into play."""
    kind, _, number = card_id.rpartition("-")
    return kind, int(number) if number.isdigit() else 0


def _kind(view: dict, kind: str | None) -> str:
    """A card kind's printed name."""
    entry = view["stacks"].get(kind) if kind else None
    return entry["name"] if entry else "nothing (none in stock)"


def _owner(view: dict, seat: int, names: Names, card_id: str) -> str:
    """Whose card: "Ana's ", "your " ("" for a card nobody holds)."""
    card = _table(view).get(card_id)
    if not card or card["owner"] is None:
        return ""
    return "your " if card["owner"] == seat else f"{names(card['owner'])}'s "


def _theirs(view: dict, seat: int, names: Names, card_id: str) -> str:
    return _owner(view, seat, names, card_id) + _name(view, card_id)


LABELS = {
    "PurchaseCard": lambda v, s, n, m: f"Buy a {_kind(v, m['kind'])} for ${v['stacks'][m['kind']]['price']}",
    "RollDice": lambda v, s, n, m: "Roll the dice",
    "GiveUpRoll": lambda v, s, n, m: f"Give up the {m['face']} ({FACE_NAMES.get(m['face'], '?')})",
    "Ship": lambda v, s, n, m: f"Shipment: fill {_name(v, m['truck'])}",
    "Distribute": lambda v, s, n, m: f"Distribute the Hits of {_name(v, m['truck'])}",
    "PlaceHits": lambda v, s, n, m: f"Place {plural(m['hits'], 'Hit')} on {_name(v, m['dealer'])}",
    "FinishDistribute": lambda v, s, n, m: "Finish distributing (discard the Hits left)",
    "PurchaseHits": lambda v, s, n, m: f"Purchase Hits: {_name(v, m['junkie'])} buys from {_name(v, m['dealer'])}",
    "StealDeal": lambda v, s, n, m: f"Steal a Deal: {_theirs(v, s, n, m['junkie'])} buys from {_name(v, m['dealer'])}",
    "SellHits": lambda v, s, n, m: f"Sell {plural(m['hits'], 'Hit')} for ${m['cash']}",
    "Payday": lambda v, s, n, m: "Payday: every Junkie collects",
    "Chloroform": lambda v, s, n, m: f"Chloroform {_theirs(v, s, n, m['card'])} ($200)",
    "ActivateCard": lambda v, s, n, m: f"Double {m['face']}s: activate {_name(v, m['card'])}",
    "CollectDouble": lambda v, s, n, m: f"Double {m['face']}s: collect $200",
    "UseTriple": lambda v, s, n, m: f"Triple {m['face']}s: Payday and a free {_kind(v, m['kind'])}",
    "UseQuadruple": lambda v, s, n, m: f"Quadruple {m['face']}s: a free {_kind(v, m['kind'])}",
    "UseCop": lambda v, s, n, m: f"Pay $200 to send the Cop after {_theirs(v, s, n, m['target'])}",
    "UseHitMan": lambda v, s, n, m: f"Send the Hit Man after {_theirs(v, s, n, m['target'])}",
    "PlaceRegulator": lambda v, s, n, m: f"Place {_name(v, m['regulator'])} on {n(m['target'])}",
    "BribeRegulator": lambda v, s, n, m: f"Bribe {_name(v, m['regulator'])} away",
    "BribeCop": lambda v, s, n, m: "Bribe the Cop",
    "AcceptJail": lambda v, s, n, m: "Accept Jail",
    "AcceptHit": lambda v, s, n, m: "Accept the hit",
    "DoubleBounty": lambda v, s, n, m: f"Double the bounty: turn the Hit Man on {_theirs(v, s, n, m['target'])}",
    "AcceptRegulator": lambda v, s, n, m: "Accept the Regulator",
    "UseImmunity": lambda v, s, n, m: f"Play {_name(v, m['card'])}",
    "Bail": lambda v, s, n, m: f"Bail {_name(v, m['card'])} out of Jail",
    "EndTurn": lambda v, s, n, m: "End your turn",
}


def label(view: dict, seat: int, move: dict, names: Names = Names()) -> str:
    """A legal move in the rulebook's words, from the seat's view, e.g. "Buy a Supply Truck (4) for $400"."""
    return LABELS[move["type"]](view, seat, names, move)
