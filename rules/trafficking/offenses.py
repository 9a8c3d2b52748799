"""Sections 5 Busting, 9 Cop Shops and Graft Tax, and bankruptcy ("unable to pay ... out of the game").

Kept cards answer here: Al Bluff's Retainer beats one offense, the Slush Fund pays one Graft Tax or
legal fee (both reconstructed Flip Out cards, returned to the bottom once used).
"""
from __future__ import annotations

from rules.folding import rules_version
from rules.trafficking import board
from rules.trafficking.data import CARDS
from rules.trafficking.state import GRAFT_TAX, Tx, dealers_at, immune, narc_square, player

RULE = "5"


def kept(state: dict, seat: int, use: str) -> str | None:
    """The first kept card of this use the Dealer holds."""
    return next((c for c in player(state, seat)["kept"] if CARDS[c]["effect"].get("use") == use), None)


def legal_fee(cash: int, offense: int) -> int:
    """5b iii: a quarter of cash on hand (1st offense), half (2nd); rounded down to $10."""
    return (cash // (4 if offense == 1 else 2)) // 10 * 10


def charge(tx: Tx, seat: int, cause: str, escort_to: str | None = None) -> None:
    """Charge a Dealer holding Lids with an offense: confiscate, escort, fees; out at the third."""
    state = tx.state
    p = player(state, seat)
    if p["lids"] <= 0 or p["out"] is not None:
        return
    retainer = kept(state, seat, "retainer")
    if retainer:
        tx.add("CardUsed", seat=seat, card=retainer, use="retainer", cause=cause)
        return
    offense = p["offenses"] + 1
    if offense >= 3:  # 5c: "ON THE THIRD OFFENSE, the Dealer is "Busted" and is out of the game"
        tx.add("Busted", seat=seat, cause=cause, offense=offense, lids=p["lids"], fee=0, to=None, out=True)
        return
    fee = legal_fee(p["cash"], offense)
    fund = kept(state, seat, "slush_fund") if fee else None
    if fund:
        tx.add("CardUsed", seat=seat, card=fund, use="slush_fund", cause="legal fees")
        fee = 0
    to = escort_to or board.en_route_cop_shop(p["square"])
    tx.add("Busted", seat=seat, cause=cause, offense=offense, lids=p["lids"], fee=fee, to=to, out=False)
    escort(tx, to)


def escort(tx: Tx, cop_shop: str) -> None:
    """5b ii: "the Narc escorts the Dealer to the closest en route Cop Shop" (16d: "the NARC must still
    escort that Dealer"): from version 2 the Narc's piece goes there too.  Version 1 moved the Dealer alone."""
    if rules_version(tx.state) >= 2 and narc_square(tx.state) != cop_shop:
        tx.add("Moved", seat=tx.state["narc"], to=cop_shop, path=[cop_shop], how="escort")


def busts_on(tx: Tx, square: str, cause: str) -> None:
    """5a: every Dealer on the square with Lids is charged, except where he is immune."""
    for seat in dealers_at(tx.state, square):
        if not immune(tx.state, seat, square):
            charge(tx, seat, cause)


def pay(tx: Tx, seat: int, amount: int, why: str) -> bool:
    """Pay the bank, or (17a) be out of the game when the cash is short; True when paid."""
    if amount <= 0:
        return True
    if player(tx.state, seat)["cash"] < amount:
        tx.add("Bankrupt", seat=seat, why=why, owed=amount)
        return False
    tx.add("CashPaid", seat=seat, amount=amount, why=why)
    return True


def graft_tax(tx: Tx, seat: int) -> None:
    """9a: a Dealer with Lids on a Cop Shop pays $50 / $100 / $200 by his offenses."""
    p = player(tx.state, seat)
    if p["lids"] <= 0:
        return
    fund = kept(tx.state, seat, "slush_fund")
    if fund:
        tx.add("CardUsed", seat=seat, card=fund, use="slush_fund", cause="Graft Tax")
        return
    pay(tx, seat, GRAFT_TAX[min(p["offenses"], 2)], "Graft Tax")
