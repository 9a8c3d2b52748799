"""Trafficking describes itself: commands, events and the view in the rulebook's words
(docs/rules/trafficking.md "Commands", "Events", "View"), a label for every legal move, and the static data
(the reconstructed board with its drawing grid and arrows, the Dealers, the 32 cards) from the files the
rules read.

Labels are read by the seat that may send the move, so they name only what is public: squares by their
names, Dealers by their characters, the fares and prices of the rulebook."""
from __future__ import annotations

from rules.blocks import offers
from rules.describe import BOOL, INT, NAT, STR, arr, dict_of, nullable, obj, one_of_consts
from rules.narration import Names
from rules.trafficking import board
from rules.trafficking.data import BOARD, BOARD_DIGEST, CARDS_DATA, CARDS_DIGEST, DEALER_IDS, DEALERS, SQUARES
from rules.trafficking.dealing import BUY_PRICE, MARCUS_PRICE, PASS_PRICE, SELL_PRICE
from rules.trafficking.movement import PUSHER_PRICE
from rules.trafficking.state import GRAFT_TAX, HANDS, KILO, START_CASH

SQUARE = "a square id (see the board: GET /v1/rulesets/trafficking/data)"
OFFER = "the id of an open offer addressed to you (see the view's offers)"
TERMS = ('the deal, from the offerer\'s side: {"direction": "sell" | "buy", "lids": n >= 1, '
         '"price": total dollars, a multiple of $10}')
HAND = 'a hand: "left" or "right"'
COMMAND_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "ChooseDealer": ("3d: assume the identity of one of the eight Dealer characters (high roller chooses first)",
                     {"dealer": "the character: " + ", ".join(DEALER_IDS)}),
    "PlaceNarc": ("3f: the Narc places his piece on any one of the four Cop Shops",
                  {"square": "a Cop Shop: " + ", ".join(board.COP_SHOPS)}),
    "Roll": ("4: roll one die (it also settles a bet placed at the gambling square)", {}),
    "Move": ("4c/4d: choose where the roll takes you (a Cop Shop's two arrows; the Narc moves in any direction)",
             {"to": "the square landed on, one of the turn's choices in the view"}),
    "Buy": ("6c: buy Lids from the square's proprietor: roll one die, that many Lids at $50 each", {}),
    "Sell": ("6d/7a: sell Lids: roll one die, then sell up to that many at $100 (at Marcus: $150 each)", {}),
    "SellLids": ("6d: sell any amount up to the number showing on the die; or (version 2) as many as a "
                 "Concert Crowd / House Party card allows", {"count": "how many Lids sold"}),
    "PickUpLid": ("11a: pick up a Lid: roll both dice, 11 or 7 is free, else pay $10 x the dice", {}),
    "BuyPass": ("11d/10a: buy a THC Transit Pass for $50", {}),
    "RideSubway": ("10d: with a THC Transit Pass, take a subway ride to any THC Subway station",
                   {"to": "another THC Subway station"}),
    "TakeCab": ("12a: take a Blitz Cab to any square, $10 a square following the arrows",
                {"to": SQUARE}),
    "Gamble": ("15b: risk money predicting your next roll of the die: EXACT NUMBER (5-1) and/or EVENS OR ODDS (1-1)",
               {"bets": '{"exact": {"number": 1-6, "stake": $}} and/or {"parity": {"pick": "even" | "odd", '
                        '"stake": $}}; stakes in multiples of $10'}),
    "EndTurn": ("6l: state \"Pass\" (or stay put) and play continues", {}),
    "HideLids": ("16: Airport Customs: secretly put all your Lids in one hand", {"hand": HAND}),
    "ChooseHand": ("16: the Customs Officer (the Narc) chooses a hand", {"hand": HAND}),
    "MakeOffer": ("6f: negotiate a direct transaction with a Dealer on your square; with the lending option "
                  "(17b, version 2), offer or ask for a loan on your turn",
                  {"to": "the seat of a Dealer on your square (a loan: any other Dealer)",
                   "terms": TERMS + '; a loan: {"loan": "lend" | "borrow", "amount": dollars in tens}'}),
    "AcceptOffer": ("6f: accept the deal offered to you; Lids and cash change hands", {"offer": OFFER}),
    "DeclineOffer": ("6f: decline the deal offered to you", {"offer": OFFER}),
    "CounterOffer": ("6f: answer the lander's offer with your own terms", {"offer": OFFER, "terms": TERMS}),
    "RepayLoan": ("17b (the lending option, version 2): pay back some or all of a loan on your turn",
                  {"loan": "the loan's id (see the view's loans)", "amount": "dollars in tens, up to what you owe"}),
}

EVENT_DOCS: dict[str, str] = {
    "GameStarted": "The table is set: the rolls (lowest is the Narc), Lids per Dealer, the order of play, who "
                   "chooses a character first, the passes, digests of the board and cards (stack order: nobody)",
    "DealerChosen": "A player chose his Dealer character and starts on its Hang Out",
    "NarcPlaced": "The Narc placed his piece on a Cop Shop",
    "TurnStarted": "A player's turn begins (again: a Roll Again square or Buddy Jim's)",
    "TurnMissed": "A player missed his turn (Miss a Turn)",
    "TurnEnded": "A player's turn is over",
    "Passed": "A Dealer said \"Pass\" (automatic when nothing is left to choose)",
    "MoveRolled": "A player rolled one die: where it can take him",
    "BetSettled": "A gamble was settled by the roll: the payout",
    "Moved": "A piece moved (by roll, Expressway, Time Warp, subway, cab or card; from version 2 the Narc "
             "escorting a busted Dealer, how: escort), with the path",
    "Busted": "A Dealer was charged with an offense: Lids confiscated, legal fees, escorted to a Cop Shop; "
              "out of the game on the third",
    "Bankrupt": "A Dealer could not pay and is out of the game",
    "CardUsed": "A kept card was used (Al Bluff's Retainer, the Slush Fund) and returned to its stack",
    "CashPaid": "A Dealer paid the Underground Bank (Graft Tax, a card)",
    "CashCollected": "A Dealer collected money from the Underground Bank",
    "LidsLost": "A Dealer lost Lids to the Underground Bank",
    "LidsGained": "A Dealer received free Lids (Jack Pot, a card)",
    "LidsBought": "A Dealer bought Lids (a Dealing square, The Pusher)",
    "BuyFailed": "A Dealer could not afford the Lids rolled: no deal",
    "SellRolled": "A Dealer rolled to sell: he may sell up to the die",
    "LidsSold": "A Dealer sold Lids (to the bank, Marcus M. Mark or by a card): marked on the Scores card",
    "LidPickedUp": "A Dealer picked up a Lid at an 11-7 store (free on 11 or 7)",
    "PassBought": "A Dealer got a THC Transit Pass",
    "CabTaken": "A Dealer took a Blitz Cab and paid the fare",
    "BetPlaced": "A Dealer placed a bet at the gambling square",
    "CardDrawn": "A Dealer drew a Sour Grapes or Flip Out card (a kept card: which, his only)",
    "MissTurnMarked": "A Dealer will miss his next turn",
    "RollAgainMarked": "A Dealer rolls again",
    "TimeWarpRolled": "The Time Warp at the Roxy: both dice rolled twice",
    "CustomsOpened": "A Dealer with Lids must clear Airport Customs with the Narc",
    "LidsHidden": "The Dealer put his Lids in one hand (which: his only, until the reveal)",
    "HandChosen": "The Narc chose a hand (which: his only, until the reveal)",
    "CustomsCleared": "Both hands shown: the Dealer cleared customs, or was caught",
    **offers.event_docs("deal", "A Dealer", "never in play: an offer stands until it is answered"),
    "DealMade": "Two Dealers dealt directly: Lids for cash",
    "LoanMade": "A loan between Dealers was accepted: the cash went from the lender to the borrower (17b option)",
    "LoanRepaid": "A borrower paid back some or all of a loan (17b option)",
    "GameWon": "The game is over: the Traffic King (a Kilo sold), or the Narc (every Dealer out)",
}

# ------------------------------------------------------------- event data
# The JSON Schema of each event type's `data` as its owner reads it (served by GET /v1/rulesets/{name}/schema
# and typed in the spec): `secret` is optional, since every other reader gets the event without it.
# a deal's terms: lids for cash, or (the lending option) a loan
_TERMS_DATA = obj(
    {"direction": STR, "lids": INT, "price": INT, "loan": STR, "amount": INT},
    optional=("direction", "lids", "price", "loan", "amount"),
)
EVENT_DATA: dict[str, dict] = {
    "GameStarted": obj(
        {
            "seats": INT,
            "rolls": arr(dict_of(arr(INT))),
            "narc": INT,
            "lids": arr(INT),
            "order": arr(INT),
            "choosers": arr(INT),
            "passes": INT,
            "board": STR,
            "cards": STR,
            "lending": BOOL,
            "secret": obj({"decks": obj({"sour_grapes": arr(INT), "flip_out": arr(INT)})}),
            "rules_version": INT,
        },
        optional=("lending", "secret"),  # lending: only in a game with the lending option (17b)
    ),
    "DealerChosen": obj({"seat": INT, "dealer": STR, "square": STR}),
    "NarcPlaced": obj({"square": STR}),
    "TurnStarted": obj({"seat": INT, "again": BOOL}, optional=("again",)),
    "MoveRolled": obj({"seat": INT, "die": INT, "destinations": dict_of(arr(STR))}),
    "Moved": obj({"seat": INT, "to": STR, "path": arr(STR), "how": STR}),
    "SellRolled": obj({"seat": INT, "die": INT}),
    "LidsSold": obj({"seat": INT, "die": INT, "lids": INT, "each": INT, "to": STR}, optional=("die",)),
    "Passed": obj({"seat": INT, "automatic": BOOL}, optional=("automatic",)),
    "TurnEnded": obj({"seat": INT}),
    "RollAgainMarked": obj({"seat": INT, "why": STR}),
    "CardDrawn": obj(
        {"seat": INT, "deck": STR, "card": STR, "name": STR, "kept": BOOL, "secret": obj({"card": STR})},
        optional=(
            "card",
            "name",
            "kept",
            "secret",
        ),
    ),
    "MissTurnMarked": obj({"seat": INT, "why": STR}),
    "CashPaid": obj({"seat": INT, "amount": INT, "why": STR}),
    "TurnMissed": obj({"seat": INT}),
    "Busted": obj(
        {"seat": INT, "cause": STR, "offense": INT, "lids": INT, "fee": INT, "to": nullable(STR), "out": BOOL}
    ),
    "LidsBought": obj({"seat": INT, "die": INT, "lids": INT, "paid": INT, "where": STR}),
    "BetPlaced": obj(
        {
            "seat": INT,
            "bets": dict_of(
                obj(
                    {"pick": STR, "stake": INT, "number": INT},
                    optional=(
                        "pick",
                        "number",
                    ),
                )
            ),
            "stake": INT,
        }
    ),
    "BetSettled": obj(
        {
            "seat": INT,
            "die": INT,
            "bets": dict_of(
                obj(
                    {"pick": STR, "stake": INT, "number": INT},
                    optional=(
                        "pick",
                        "number",
                    ),
                )
            ),
            "payout": INT,
        }
    ),
    "TimeWarpRolled": obj({"seat": INT, "dice": arr(INT)}),
    "LidsGained": obj({"seat": INT, "lids": INT, "why": STR}),
    "LidPickedUp": obj({"seat": INT, "dice": arr(INT), "free": BOOL, "paid": INT}),
    "PassBought": obj({"seat": INT, "paid": INT, "why": STR}),
    "CustomsOpened": obj({"dealer": INT, "narc": INT}),
    "LidsHidden": obj({"seat": INT, "secret": obj({"hand": STR})}, optional=("secret",)),
    "HandChosen": obj({"seat": INT, "secret": obj({"hand": STR})}, optional=("secret",)),
    "CustomsCleared": obj({"dealer": INT, "hidden": STR, "guess": STR, "caught": BOOL}),
    "CabTaken": obj({"seat": INT, "to": STR, "fare": INT}),
    "Bankrupt": obj(
        {"seat": INT, "why": STR, "owed": INT, "die": INT, "dice": arr(INT)},
        optional=(
            "die",
            "dice",
        ),
    ),
    "LidsLost": obj({"seat": INT, "lids": INT, "why": STR}),
    "GameWon": obj({"winners": arr(INT), "reason": STR}),
    "OfferMade": obj({"offer": INT, "from": INT, "to": INT, "terms": _TERMS_DATA}),
    "OfferAccepted": obj({"offer": INT, "from": INT, "to": INT, "terms": _TERMS_DATA}),
    "DealMade": obj({"seller": INT, "buyer": INT, "lids": INT, "price": INT}),
    "OfferDeclined": obj({"offer": INT, "by": INT}),
    "CashCollected": obj({"seat": INT, "amount": INT, "why": STR}),
    "BuyFailed": obj({"seat": INT, "die": INT, "cost": INT}),
    "CardUsed": obj({"seat": INT, "card": STR, "use": STR, "cause": STR}),
    "OfferCountered": obj({"offer": INT, "by": INT, "counter": INT, "to": INT, "terms": _TERMS_DATA}),
    "OfferWithdrawn": obj({"offer": INT, "by": INT}),
    "LoanMade": obj({"loan": INT, "lender": INT, "borrower": INT, "amount": INT}),
    "LoanRepaid": obj({"loan": INT, "lender": INT, "borrower": INT, "amount": INT}),
}

# ------------------------------------------------------------------ the view
SEAT: dict = {"type": "integer", "minimum": 0, "maximum": 8}
DIE: dict = {"type": "integer", "minimum": 1, "maximum": 6}
DOLLARS: dict = {"type": "integer", "minimum": 0, "multipleOf": 10}
STAKE: dict = {"type": "integer", "minimum": 10, "multipleOf": 10}
_SQUARE = one_of_consts(*SQUARES)
_HAND = one_of_consts(*HANDS)
_BET = {**obj({"exact": obj({"number": DIE, "stake": STAKE}),
               "parity": obj({"pick": one_of_consts("even", "odd"), "stake": STAKE})},
              optional=("exact", "parity")), "minProperties": 1}
_PLAYER = obj({
    "seat": SEAT, "role": one_of_consts("narc", "dealer"), "dealer": nullable(one_of_consts(*DEALER_IDS)),
    "square": nullable(_SQUARE), "lids": NAT, "cash": DOLLARS, "offenses": {**NAT, "maximum": 3}, "sold": NAT,
    "out": nullable(one_of_consts("busted", "bankrupt")), "pass": BOOL, "miss": BOOL, "kept_count": NAT,
    "bet": nullable(_BET), "to_sell": NAT,
    "kept": arr(obj({"card": one_of_consts(*(c["id"] for c in CARDS_DATA["cards"])), "name": STR, "text": STR})),
}, optional=("kept",))  # a Dealer's kept cards: his only
_TURN = obj({
    "seat": SEAT, "stage": one_of_consts("roll", "move", "landed", "sell", "customs", "done"),
    "die": nullable(DIE), "choices": {**dict_of(arr(_SQUARE)), "propertyNames": _SQUARE},
    "how": nullable(one_of_consts("roll", "expressway", "time_warp", "subway", "cab", "card", "escort")),
    "again": BOOL, "transaction": BOOL, "sell_die": nullable(DIE),
    "card_sale": obj({"card": STR, "most": {"type": "integer", "minimum": 1, "maximum": 3}, "each": DOLLARS}),
}, optional=("card_sale",))  # version 2: a Concert Crowd / House Party card's sale, open until made or the turn ends
_CUSTOMS = obj({"dealer": SEAT, "narc": SEAT, "hands": arr(_HAND), "dealer_chosen": BOOL, "narc_chosen": BOOL,
                "your_hand": _HAND}, optional=("your_hand",))  # your own secret choice, until the reveal
_TERMS = obj({"direction": one_of_consts("sell", "buy"), "lids": {"type": "integer", "minimum": 1},
              "price": DOLLARS})
_LOAN_TERMS = obj({"loan": one_of_consts("lend", "borrow"), "amount": STAKE})
VIEW_SCHEMA = obj({
    "game": {"const": "trafficking"},
    "you": nullable(SEAT),
    "board": {"const": BOARD_DIGEST, "description": "sha256 of board.json (GET /v1/rulesets/trafficking/data)"},
    "phase": one_of_consts("characters", "place_narc", "play", "over"),
    "narc": SEAT,
    "order": arr(SEAT),
    "choosers": arr(SEAT),
    "players": arr(_PLAYER),
    "turn": nullable(_TURN),
    "customs": nullable(_CUSTOMS),
    "hands": arr(_HAND),
    "offers": arr(obj({"id": NAT, "from": SEAT, "to": SEAT, "terms": {"anyOf": [_TERMS, _LOAN_TERMS]}})),
    "lending": {"const": True, "description": "the 17b lending option is on (version 2; absent: off)"},
    "loans": arr(obj({"loan": NAT, "lender": SEAT, "borrower": SEAT, "amount": STAKE})),
    "stacks": obj({"sour_grapes": NAT, "flip_out": NAT}),
    "shown": obj({"sour_grapes": nullable(STR), "flip_out": nullable(STR)}),
    "transit_passes_in_bank": NAT,
    "kilo": {"const": KILO},
    "result": nullable(obj({"winners": arr(SEAT), "reason": STR})),
}, optional=("lending", "loans"))


# ------------------------------------------------------------------ labels
# A label is written from the seat's view (Ruleset.label): squares, Dealers and cards by their printed
# names, seats by the players' names; no ids, no seat numbers.
def square(square_id: str) -> str:
    """A square by its name on the board."""
    s = SQUARES.get(square_id)
    return s["name"] if s else "a square"


def _character(view: dict, seat: int) -> str:
    """The character a seat plays: its Dealer's printed name, or the Narc ("" before it has chosen)."""
    p = view["players"][seat]
    return DEALERS[p["dealer"]]["name"] if p["dealer"] else ("the Narc" if p["role"] == "narc" else "")


def _who(view: dict, names: Names, seat) -> str:
    """A seat as the table knows it: "Janet Planet (Ana)"."""
    if not isinstance(seat, int) or not 0 <= seat < len(view["players"]):
        return "another player"
    character = _character(view, seat)
    return f"{character} ({names(seat)})" if character else names(seat)


def _there(view: dict, seat: int, to: str) -> str:
    """Who stands on a square (public), for the Narc's choice and any move."""
    here = [s for s, p in enumerate(view["players"]) if s != seat and p["square"] == to and p["out"] is None]
    return f" ({', '.join(_character(view, s) for s in here)} there)" if here else ""


def _move(view: dict, seat: int, names: Names, m: dict) -> str:
    """A Dealer's choice is which arrow out of a Cop Shop: name the first square of the way."""
    path = view["turn"]["choices"].get(m["to"], ())
    via = f" via {square(path[0])}" if view["players"][seat]["role"] == "dealer" and len(path) > 1 else ""
    return f"Move to {square(m['to'])}{via}{_there(view, seat, m['to'])}"


def _sell(view: dict, seat: int, names: Names, m: dict) -> str:
    if board.kind(view["players"][seat]["square"]) == "marcus":
        return f"Sell to Marcus M. Mark: roll one die, that many Lids at ${MARCUS_PRICE}"
    return f"Sell Lids: roll one die, up to that many at ${SELL_PRICE}"


def _sale_price(view: dict) -> int:
    """A Lid's price for SellLids: the bank's, or a card's sale (version 2)."""
    turn = view["turn"] or {}
    sale = turn.get("card_sale")
    return sale["each"] if sale and turn["stage"] == "landed" else SELL_PRICE


def _fare(view: dict, seat: int, to: str) -> int:
    """12a: $10 a square along the arrows from where the seat stands."""
    return 10 * (board.arrow_distances(view["players"][seat]["square"]).get(to) or 0)


def _gamble(view: dict, seat: int, names: Names, m: dict) -> str:
    bets = []
    if "exact" in m["bets"]:
        bets.append(f"EXACT NUMBER {m['bets']['exact']['number']} for ${m['bets']['exact']['stake']}")
    if "parity" in m["bets"]:
        bets.append(f"{m['bets']['parity']['pick'].upper()}S for ${m['bets']['parity']['stake']}")
    return "Gamble on your next roll: " + " and ".join(bets)


def _deal(terms: dict, you_offer: bool) -> str:
    """A deal's terms as the reader would do it: "you sell 2 Lids for $200" (a loan: "you lend $100")."""
    if "loan" in terms:
        lend = (terms["loan"] == "lend") == you_offer
        return f"you {'lend' if lend else 'borrow'} ${terms['amount']}"
    direction = terms["direction"] if you_offer else {"sell": "buy", "buy": "sell"}[terms["direction"]]
    lids = terms["lids"]
    return f"you {direction} {lids} Lid{'s' if lids != 1 else ''} for ${terms['price']}"


def _offer(view: dict, offer_id: int) -> dict:
    found = next((o for o in view["offers"] if o["id"] == offer_id), None)
    return found or {"from": None, "terms": {"direction": "sell", "lids": 0, "price": 0}}


def _lender(view: dict, loan: int):
    return next((x["lender"] for x in view.get("loans", ()) if x["loan"] == loan), None)


def _answer(verb: str, view: dict, names: Names, m: dict, terms: dict | None = None) -> str:
    """Accept, Decline or Counter an open offer: "Accept Janet Planet (Ana)'s deal: you buy 3 Lids for $240"."""
    offer = _offer(view, m["offer"])
    return f"{verb} {_who(view, names, offer['from'])}'s deal: " + (
        _deal(offer["terms"], False) if terms is None else _deal(terms, True))


LABELS = {
    "ChooseDealer": lambda v, seat, n, m: f"Play {DEALERS[m['dealer']]['name']} (Hang Out: "
                                          f"{square(DEALERS[m['dealer']]['hang_out'])})",
    "PlaceNarc": lambda v, seat, n, m: f"Place the Narc on the {square(m['square'])}",
    "Roll": lambda v, seat, n, m: "Roll the die" + (" (it settles your bet)" if v["players"][seat]["bet"] else ""),
    "Move": _move,
    "Buy": lambda v, seat, n, m: f"Buy Lids: roll one die, that many at ${BUY_PRICE} each",
    "Sell": _sell,
    "SellLids": lambda v, seat, n, m: f"Sell {m['count']} Lid{'s' if m['count'] != 1 else ''} for "
                                      f"${m['count'] * _sale_price(v)}",
    "PickUpLid": lambda v, seat, n, m: "Pick up a Lid: roll both dice (11 or 7 free, else $10 x the dice)",
    "BuyPass": lambda v, seat, n, m: f"Buy a THC Transit Pass for ${PASS_PRICE}",
    "RideSubway": lambda v, seat, n, m: f"Ride the THC Subway to {square(m['to']).removeprefix('THC Subway: ')}",
    "TakeCab": lambda v, seat, n, m: f"Take a Blitz Cab to {square(m['to'])} for ${_fare(v, seat, m['to'])}",
    "Gamble": _gamble,
    "EndTurn": lambda v, seat, n, m: "Pass",
    "HideLids": lambda v, seat, n, m: f"Hide your Lids in your {m['hand']} hand",
    "ChooseHand": lambda v, seat, n, m: f"Choose {_character(v, v['customs']['dealer'])}'s {m['hand']} hand",
    "MakeOffer": lambda v, seat, n, m: f"Offer {_who(v, n, m['to'])} a deal: {_deal(m['terms'], True)}",
    "RepayLoan": lambda v, seat, n, m: f"Repay ${m['amount']} of your loan from "
                                       f"{_who(v, n, _lender(v, m['loan']))}",
    "AcceptOffer": lambda v, seat, n, m: _answer("Accept", v, n, m),
    "DeclineOffer": lambda v, seat, n, m: _answer("Decline", v, n, m),
    "CounterOffer": lambda v, seat, n, m: _answer("Counter", v, n, m, m["terms"]),
}


def label(view: dict, seat: int, move: dict, names: Names = Names()) -> str:
    """A legal move in the rulebook's words, from the seat's view, e.g. "Take a Blitz Cab to Vito's Pizza
    Parlour for $70"."""
    return LABELS[move["type"]](view, seat, names, move)


# ------------------------------------------------------------------ static data
def static_data() -> dict:
    """board.json (every square with its kind, name, drawing position x, y on the grid and red arrows; the
    Dealers and their Hang Outs) and cards.json (the 32 Sour Grapes and Flip Out cards), as the rules read
    them, with each square's arrows and the lines to draw; the digests match the view's `board` and the
    GameStarted event's."""
    squares = [{**s, "arrows": board.arrows(s["id"]), "neighbours": list(board.neighbours(s["id"]))}
               for s in BOARD["squares"]]
    lines = [{"from": s["id"], "to": to, "kind": "arrow"} for s in squares for to in s["arrows"]]
    lines += [{"from": s["id"], "to": s["expressway_to"], "kind": "expressway"} for s in squares
              if s.get("expressway_to") and s["id"] < s["expressway_to"]]
    return {
        "source": "rules/trafficking/board.json and cards.json, as the rules read them (reconstructed: "
                  "docs/rules/trafficking-board.md, docs/rules/trafficking.md)",
        "board": {"reconstructed": BOARD["reconstructed"], "grid": dict(BOARD["grid"]), "fields": dict(BOARD["fields"]),
                  "narc": BOARD["narc"], "dealers": [dict(d) for d in BOARD["dealers"]], "squares": squares,
                  "lines": lines, "cop_shops": list(board.COP_SHOPS), "subway_stations": list(board.SUBWAY_STATIONS),
                  "digest": BOARD_DIGEST},
        "cards": {**CARDS_DATA, "digest": CARDS_DIGEST},
        "prices": {"start_cash": START_CASH, "buy_lid": BUY_PRICE, "sell_lid": SELL_PRICE, "marcus_lid": MARCUS_PRICE,
                   "pusher_lid": PUSHER_PRICE, "transit_pass": PASS_PRICE, "cab_per_square": 10,
                   "graft_tax": list(GRAFT_TAX), "kilo": KILO},
    }
