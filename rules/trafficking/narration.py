"""Trafficking narrates its events: one sentence per event in the rulebook's words (rules/narration.py).

Squares are named as the board names them (board.json), Dealer characters and the Sour Grapes and
Flip Out cards as printed (cards.json), money in dollars, rolls as dice.  A kept card (Al Bluff's
Retainer, the Slush Fund) and a hand at Airport Customs are secret to their seat until used or shown:
the narrator reads the event as its reader may, so the others read "Ana drew a Flip Out card and kept
it." and Ana reads which.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.narration import Names, Narration, Narrator, dice, plural, ref, said, seats_named
from rules.trafficking.data import CARDS, DEALERS, SQUARES

Data = Mapping[str, Any]
DECKS = {"sour_grapes": "Sour Grapes", "flip_out": "Flip Out"}


# ------------------------------------------------------------------ words
def square(sid: Any) -> dict:
    """The ref of a square, named as the board names it."""
    known = SQUARES.get(sid) if isinstance(sid, str) else None
    return ref("place", sid, known["name"] if known else "a square")


def card(cid: Any) -> dict:
    """The ref of a Sour Grapes or Flip Out card, named as printed."""
    known = CARDS.get(cid) if isinstance(cid, str) else None
    return ref("card", cid, known["name"] if known else "a card")


def dealer(did: Any) -> dict:
    """The ref of a Dealer character (a piece on the board)."""
    known = DEALERS.get(did) if isinstance(did, str) else None
    return ref("piece", did, known["name"] if known else "a Dealer")


def money(amount: int) -> str:
    return f"${amount}"


def lids(n: int) -> str:
    return plural(n, "Lid")


def listing(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}" if words else "nothing"


def why(reason: Any) -> str:
    """What made it happen, as the rules wrote it: " (Graft Tax)"; " (a card)" for "card"."""
    if not reason:
        return ""
    return " (a card)" if reason == "card" else f" ({reason})"


def _seat(d: Data, names: Names, text: str, *refs: dict, key: str = "seat") -> Narration:
    """A sentence about one seat: "{name} " + text."""
    return said(f"{names(d[key])} {text}", names.ref(d[key]), *refs)


# ------------------------------------------------------------------ 3 Preparation
def game_started(d: Data, names: Names) -> Narration:
    rolls = "; then ".join(", ".join(f"{names(int(s))} {dice(*v)}" for s, v in r.items()) for r in d["rolls"])
    narc = names(d["narc"])
    order = ", ".join(names(s) for s in d["order"])
    return said(f"The table is set for {d['seats']} players: rolled {rolls}; {narc} is the Narc; the Dealers "
                f"play {order}.", names.ref(d["narc"]))


def dealer_chosen(d: Data, names: Names) -> Narration:
    who, where = dealer(d["dealer"]), square(d["square"])
    return _seat(d, names, f"plays {who['text']}, starting at {where['text']}.", who, where)


def narc_placed(d: Data, names: Names) -> Narration:
    where = square(d["square"])
    return said(f"The Narc took his place at {where['text']}.", where)


# ------------------------------------------------------------------ 4 Play: turns and moves
def turn_started(d: Data, names: Names) -> Narration:
    return _seat(d, names, "rolls again." if d.get("again") else "takes the turn.")


def turn_missed(d: Data, names: Names) -> Narration:
    return _seat(d, names, "missed a turn.")


def turn_ended(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])}'s turn is over.", names.ref(d["seat"]))


def passed(d: Data, names: Names) -> Narration:
    # the rulebook's "simply state \"Pass\" and play continues" (6l, 11c, 15a), in the past tense
    return _seat(d, names, "had nothing left to choose and passed." if d.get("automatic") else "passed.")


def move_rolled(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"rolled {d['die']}.")


HOW = {"roll": "", "expressway": " along the Expressway", "time_warp": " through the Time Warp",
       "subway": " by THC Subway", "cab": " by Blitz Cab", "card": " as a card says",
       "escort": " escorting the busted Dealer"}


def moved(d: Data, names: Names) -> Narration:
    to = square(d["to"])
    return _seat(d, names, f"moved{HOW.get(d.get('how'), '')} to {to['text']}.", to)


def time_warp_rolled(d: Data, names: Names) -> Narration:
    rolled = d["dice"]
    pairs = " then ".join(dice(*rolled[i:i + 2]) for i in range(0, len(rolled), 2))
    return _seat(d, names, f"entered the Time Warp and rolled {pairs}.")


def miss_turn_marked(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"will miss the next turn{why(d.get('why'))}.")


def roll_again_marked(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"rolls again{why(d.get('why'))}.")


# ------------------------------------------------------------------ busts and money
def busted(d: Data, names: Names) -> Narration:
    text = (f"was busted ({d['cause']}): offense {d['offense']}, {lids(d['lids'])} confiscated, "
            f"{money(d['fee'])} in legal fees")
    if d.get("out") or d.get("to") is None:  # the third offense: out of the game, escorted nowhere
        return _seat(d, names, text + "; out of the game.")
    to = square(d["to"])
    return _seat(d, names, text + f", escorted to {to['text']}.", to)


def bankrupt(d: Data, names: Names) -> Narration:
    rolled = f", having rolled {dice(*d['dice'])}" if d.get("dice") else \
        (f", having rolled {d['die']}" if d.get("die") is not None else "")
    reason = d.get("why", "")
    reason = "could not pay (a card)" if reason == "card" else \
        reason if reason.startswith("could not") else f"could not pay the {reason}" if reason else "could not pay"
    return _seat(d, names, f"is bankrupt: {reason} ({money(d['owed'])} owed{rolled}) and is out of the game.")


USES = {"retainer": "Al Bluff's Retainer", "slush_fund": "the Slush Fund"}


def card_used(d: Data, names: Names) -> Narration:
    c = card(d["card"])
    return _seat(d, names, f"used {c['text']}{why(d.get('cause'))}.", c)


def cash_paid(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"paid {money(d['amount'])} to the Underground Bank{why(d.get('why'))}.")


def cash_collected(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"collected {money(d['amount'])} from the Underground Bank{why(d.get('why'))}.")


def lids_lost(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"lost {lids(d['lids'])} to the Underground Bank{why(d.get('why'))}.")


def lids_gained(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"received {lids(d['lids'])}{why(d.get('why'))}.")


# ------------------------------------------------------------------ dealing
def lids_bought(d: Data, names: Names) -> Narration:
    text = f"rolled {d['die']} and bought {lids(d['lids'])} for {money(d['paid'])}"
    if d.get("where") == "pusher":
        pusher = square("pusher")
        return _seat(d, names, f"{text} from {pusher['text']}.", pusher)
    return _seat(d, names, text + ".")


def buy_failed(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"rolled {d['die']} but could not afford the {money(d['cost'])}: no deal.")


def sell_rolled(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"rolled {d['die']} to sell.")


SOLD_TO = {"bank": "the bank", "card": "a card's buyer"}


def lids_sold(d: Data, names: Names) -> Narration:
    price = f"at {money(d['each'])} each"
    if d.get("to") == "marcus":
        marcus = square("marcus")
        return _seat(d, names, f"sold {lids(d['lids'])} to {marcus['text']} {price}.", marcus)
    return _seat(d, names, f"sold {lids(d['lids'])} to {SOLD_TO.get(d.get('to'), 'a buyer')} {price}.")


def lid_picked_up(d: Data, names: Names) -> Narration:
    rolled = dice(*d["dice"])
    paid = "free" if d.get("free") else f"for {money(d['paid'])}"
    return _seat(d, names, f"rolled {rolled} at the 11-7 and picked up a Lid {paid}.")


def pass_bought(d: Data, names: Names) -> Narration:
    reason = d.get("why")
    where = " at the 11-7" if reason == "11-7" else why(reason)
    paid = f" for {money(d['paid'])}" if d.get("paid") else ""
    return _seat(d, names, f"got a THC Transit Pass{paid}{where}.")


def cab_taken(d: Data, names: Names) -> Narration:
    to = square(d["to"])
    return _seat(d, names, f"took a Blitz Cab to {to['text']} for {money(d['fare'])}.", to)


def _bets(bets: Mapping[str, Any]) -> str:
    words = []
    if "exact" in bets:
        words.append(f"{money(bets['exact']['stake'])} on {bets['exact']['number']}")
    if "parity" in bets:
        words.append(f"{money(bets['parity']['stake'])} on {bets['parity']['pick']}")
    return listing(words)


def bet_placed(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"bet {_bets(d['bets'])} at the Lucky Seven Club.")


def bet_settled(d: Data, names: Names) -> Narration:
    won = f"won {money(d['payout'])}" if d.get("payout") else "lost the bet"
    return _seat(d, names, f"rolled {d['die']} and {won}.")


def card_drawn(d: Data, names: Names) -> Narration:
    deck = DECKS.get(d.get("deck"), "a")
    if d.get("kept"):
        held = (d.get("secret") or {}).get("card")
        if held is None:
            return _seat(d, names, f"drew a {deck} card and kept it.")
        c = card(held)
        return _seat(d, names, f"drew {c['text']} from {deck} and kept it.", c)
    c = card(d.get("card"))
    return _seat(d, names, f"drew {c['text']} from {deck}.", c)


# ------------------------------------------------------------------ Airport Customs
def customs_opened(d: Data, names: Names) -> Narration:
    return said(f"{names(d['dealer'])} must clear Airport Customs with {names(d['narc'])}, the Narc.",
                names.ref(d["dealer"]), names.ref(d["narc"]))


def lids_hidden(d: Data, names: Names) -> Narration:
    hand = (d.get("secret") or {}).get("hand")
    return _seat(d, names, f"put the Lids in the {hand} hand." if hand else "put the Lids in one hand.")


def hand_chosen(d: Data, names: Names) -> Narration:
    hand = (d.get("secret") or {}).get("hand")
    return _seat(d, names, f"chose the {hand} hand." if hand else "chose a hand.")


def customs_cleared(d: Data, names: Names) -> Narration:
    outcome = "was caught" if d.get("caught") else "cleared customs"
    return said(f"The Lids were in the {d['hidden']} hand, the Narc chose the {d['guess']}: "
                f"{names(d['dealer'])} {outcome}.", names.ref(d["dealer"]))


# ------------------------------------------------------------------ deals between Dealers
def _terms(terms: Mapping[str, Any]) -> str:
    if "loan" in terms:   # the 17b lending option (version 2)
        return f"to {terms['loan']} {money(terms['amount'])}"
    verb = "buy" if terms.get("direction") == "buy" else "sell"
    return f"to {verb} {lids(terms['lids'])} for {money(terms['price'])}"


def _offer(maker: str, other: str, terms: Mapping[str, Any]) -> str:
    """"to sell Bo 2 Lids for $200" / "to buy 2 Lids from Bo for $200", as the maker offers it; a loan
    (the 17b option): "to lend Bo $100" / "to borrow $100 from Bo"."""
    if "loan" in terms:
        if terms["loan"] == "borrow":
            return f"to borrow {money(terms['amount'])} from {other}"
        return f"to lend {other} {money(terms['amount'])}"
    if terms.get("direction") == "buy":
        return f"to buy {lids(terms['lids'])} from {other} for {money(terms['price'])}"
    return f"to sell {other} {lids(terms['lids'])} for {money(terms['price'])}"


def offer_made(d: Data, names: Names) -> Narration:
    return said(f"{names(d['from'])} offered {_offer(names(d['from']), names(d['to']), d['terms'])}.",
                names.ref(d["from"]), names.ref(d["to"]))


def offer_accepted(d: Data, names: Names) -> Narration:
    return said(f"{names(d['to'])} accepted {names(d['from'])}'s offer {_terms(d['terms'])}.",
                names.ref(d["to"]), names.ref(d["from"]))


def offer_declined(d: Data, names: Names) -> Narration:
    return _seat(d, names, "declined an offer.", key="by")


def offer_countered(d: Data, names: Names) -> Narration:
    return said(f"{names(d['by'])} answered with a counter-offer {_offer(names(d['by']), names(d['to']), d['terms'])}.",
                names.ref(d["by"]), names.ref(d["to"]))


def offer_withdrawn(d: Data, names: Names) -> Narration:
    who = d.get("by", d.get("from"))
    if isinstance(who, int):
        return said(f"{names(who)} withdrew an offer.", names.ref(who))
    return said("An offer was withdrawn.")


def deal_made(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seller'])} sold {names(d['buyer'])} {lids(d['lids'])} for {money(d['price'])}.",
                names.ref(d["seller"]), names.ref(d["buyer"]))


def loan_made(d: Data, names: Names) -> Narration:
    return said(f"{names(d['lender'])} lent {names(d['borrower'])} {money(d['amount'])}.",
                names.ref(d["lender"]), names.ref(d["borrower"]))


def loan_repaid(d: Data, names: Names) -> Narration:
    return said(f"{names(d['borrower'])} paid {names(d['lender'])} back {money(d['amount'])} of a loan.",
                names.ref(d["borrower"]), names.ref(d["lender"]))


def game_won(d: Data, names: Names) -> Narration:
    winners = listing([names(s) for s in d["winners"]])
    reason = seats_named(d.get("reason", ""), names)
    return said(f"{winners} won" + (f": {reason}." if reason else "."), *[names.ref(s) for s in d["winners"]])


NARRATIONS: dict[str, Narrator] = {
    "GameStarted": game_started,
    "DealerChosen": dealer_chosen,
    "NarcPlaced": narc_placed,
    "TurnStarted": turn_started,
    "TurnMissed": turn_missed,
    "TurnEnded": turn_ended,
    "Passed": passed,
    "MoveRolled": move_rolled,
    "BetSettled": bet_settled,
    "Moved": moved,
    "Busted": busted,
    "Bankrupt": bankrupt,
    "CardUsed": card_used,
    "CashPaid": cash_paid,
    "CashCollected": cash_collected,
    "LidsLost": lids_lost,
    "LidsGained": lids_gained,
    "LidsBought": lids_bought,
    "BuyFailed": buy_failed,
    "SellRolled": sell_rolled,
    "LidsSold": lids_sold,
    "LidPickedUp": lid_picked_up,
    "PassBought": pass_bought,
    "CabTaken": cab_taken,
    "BetPlaced": bet_placed,
    "CardDrawn": card_drawn,
    "MissTurnMarked": miss_turn_marked,
    "RollAgainMarked": roll_again_marked,
    "TimeWarpRolled": time_warp_rolled,
    "CustomsOpened": customs_opened,
    "LidsHidden": lids_hidden,
    "HandChosen": hand_chosen,
    "CustomsCleared": customs_cleared,
    "DealMade": deal_made,
    "LoanMade": loan_made,
    "LoanRepaid": loan_repaid,
    "GameWon": game_won,
    "OfferMade": offer_made,
    "OfferAccepted": offer_accepted,
    "OfferDeclined": offer_declined,
    "OfferCountered": offer_countered,
    "OfferWithdrawn": offer_withdrawn,
}
