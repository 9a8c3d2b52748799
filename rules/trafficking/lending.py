"""Section 17b's variant, the "lending" option (rules version 2): money lent between Dealers.

17b: "Absolutely no borrowing or lending of money is allowed in the game of TRAFFICKING. However, should
all players agree to allow the lending of money before the game begins, toss this rule out."  The players
agree by creating the game with {"lending": true}; the rulebook sets no terms, so a loan is cash from one
Dealer to another, on the books until the borrower repays it, in part or whole, when he chooses.

A loan is an offer (rules.blocks.offers, like the deals of 6f): on his turn, before his roll or after his
landing, a Dealer offers another Dealer anywhere on the board a loan, `MakeOffer{to, terms: {"loan": "lend"
| "borrow", "amount": $}}` ("lend": the offerer lends; "borrow": he asks to borrow), once to each Dealer a
turn; the addressee accepts or declines (a loan is not countered; his clock declines).  `RepayLoan{loan,
amount}` pays some or all of a debt back on the borrower's turn.  Loans are public (the Scores card is).
A loan is written off when the lender or the borrower goes out of the game.  The Narc has no money (4g).
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Option, Rng
from rules.blocks import offers
from rules.folding import Own
from rules.trafficking.state import active_dealers, player

RULE = "17b"
TEMPLATE_AMOUNT = 100   # the loan listed as a legal move (clients send their own amount)
OPTIONS = {"lending": Option(False, (False, True),
                             "17b: all players agree before the game begins to allow the lending of money between "
                             "Dealers (MakeOffer with loan terms, RepayLoan)")}
COMMANDS = {"RepayLoan": {"loan": "int", "amount": "int"}}
OPEN_ARGUMENTS = {"RepayLoan": frozenset({"amount"})}
FORBIDDEN = ('"Absolutely no borrowing or lending of money is allowed in the game of TRAFFICKING" (17b); '
             'create the game with the lending option to allow it')


def lending(state: dict) -> bool:
    return bool(state.get("lending"))


def is_loan(terms: object) -> bool:
    return isinstance(terms, dict) and "loan" in terms


def sides(offerer: int, other: int, terms: dict) -> tuple[int, int]:
    """(lender, borrower) of a loan offer."""
    return (offerer, other) if terms["loan"] == "lend" else (other, offerer)


def terms_problem(state: dict, offerer: int, other: int, terms: dict) -> str | None:
    """Why this loan cannot be made now (None: it can)."""
    if set(terms) != {"loan", "amount"} or terms["loan"] not in ("lend", "borrow"):
        return 'a loan is {"loan": "lend" | "borrow", "amount": dollars}'
    amount = terms["amount"]
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 10 or amount % 10:
        return "a loan is a whole number of dollars in tens, at least $10"
    lender, _ = sides(offerer, other, terms)
    if player(state, lender)["cash"] < amount:
        return f"seat {lender} has only ${player(state, lender)['cash']} to lend"
    return None


def _on_turn(state: dict, seat: int) -> bool:
    """A Dealer's own turn, before his roll or after his landing, with no offer waiting."""
    turn = state["turn"]
    return (state["phase"] == "play" and turn is not None and turn["seat"] == seat
            and turn["stage"] in ("roll", "landed") and not state["offers"]["open"]
            and seat in active_dealers(state))


def _require_turn(state: dict, seat: int, what: str) -> None:
    if not lending(state):
        raise IllegalMove(FORBIDDEN, rule=RULE)
    if not _on_turn(state, seat):
        raise IllegalMove(f"a Dealer {what} on his own turn, before his roll or after his landing", rule=RULE)


def decide_offer(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """MakeOffer{to, terms: {"loan", "amount"}}: a loan offered or asked for."""
    _require_turn(state, seat, "offers a loan")
    to = cmd["to"]
    if to == seat or to not in active_dealers(state):
        raise IllegalMove(f"seat {to} is not another Dealer in the game", rule=RULE)
    if to in state["turn"].get("loans_offered", []):
        raise IllegalMove(f"you have offered seat {to} a loan this turn already", rule=RULE)
    problem = terms_problem(state, seat, to, cmd["terms"])
    if problem:
        raise IllegalMove(problem, rule=RULE)
    return offers.make(state["offers"], seat, to, cmd["terms"])


def accepted(state: dict, accept: Event) -> list[Event]:
    """AcceptOffer of a loan: the cash changes hands at once (LoanMade)."""
    d = accept.data
    problem = terms_problem(state, d["from"], d["to"], d["terms"])
    if problem:
        raise IllegalMove(problem, rule=RULE)
    lender, borrower = sides(d["from"], d["to"], d["terms"])
    return [accept, Event("LoanMade", {"loan": d["offer"], "lender": lender, "borrower": borrower,
                                       "amount": d["terms"]["amount"]})]


def owed(state: dict, seat: int) -> list[dict]:
    """The loans `seat` owes, oldest first."""
    return [loan for loan in sorted(state.get("loans", {}).values(), key=lambda x: x["loan"])
            if loan["borrower"] == seat]


def decide_repay(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """RepayLoan{loan, amount}: the borrower pays back some or all of a loan."""
    _require_turn(state, seat, "repays a loan")
    loan = state.get("loans", {}).get(str(cmd["loan"]))
    if loan is None or loan["borrower"] != seat:
        raise IllegalMove(f"you owe no loan {cmd['loan']!r}", rule=RULE)
    amount, cash = cmd["amount"], player(state, seat)["cash"]
    if amount < 10 or amount % 10 or amount > loan["amount"] or amount > cash:
        raise IllegalMove(f"repay $10 to ${min(loan['amount'], cash) // 10 * 10} in tens (you owe "
                          f"${loan['amount']} and hold ${cash})", rule=RULE)
    return [Event("LoanRepaid", {"loan": loan["loan"], "lender": loan["lender"], "borrower": seat, "amount": amount})]


def moves(state: dict, seat: int) -> list[dict]:
    """A loan template to each other Dealer not yet offered one this turn, and each debt repaid in full
    (or as far as the cash goes)."""
    if not lending(state) or not _on_turn(state, seat):
        return []
    out = []
    for other in active_dealers(state):
        if other == seat or other in state["turn"].get("loans_offered", []):
            continue
        for kind in ("lend", "borrow"):
            terms = {"loan": kind, "amount": TEMPLATE_AMOUNT}
            if terms_problem(state, seat, other, terms) is None:
                out.append({"type": "MakeOffer", "to": other, "terms": terms})
    cash = player(state, seat)["cash"]
    for loan in owed(state, seat):
        amount = min(loan["amount"], cash // 10 * 10)
        if amount >= 10:
            out.append({"type": "RepayLoan", "loan": loan["loan"], "amount": amount})
    return out


# ------------------------------------------------------------------ evolve
def loan_made(state: dict, d: dict, own: Own) -> dict:
    _cash(state, own, d["lender"], -d["amount"])
    _cash(state, own, d["borrower"], d["amount"])
    own(state, "loans")[str(d["loan"])] = {"loan": d["loan"], "lender": d["lender"], "borrower": d["borrower"],
                                           "amount": d["amount"]}
    return state


def loan_repaid(state: dict, d: dict, own: Own) -> dict:
    _cash(state, own, d["borrower"], -d["amount"])
    _cash(state, own, d["lender"], d["amount"])
    loans, key = own(state, "loans"), str(d["loan"])
    left = loans[key]["amount"] - d["amount"]
    if left:
        own(loans, key)["amount"] = left
    else:
        del loans[key]
    return state


def written_off(state: dict, seat: int) -> None:
    """A Dealer out of the game: his loans, lent or owed, are written off (the rulebook sets no terms)."""
    if "loans" in state:
        state["loans"] = {k: v for k, v in state["loans"].items() if seat not in (v["lender"], v["borrower"])}


def _cash(state: dict, own: Own, seat: int, delta: int) -> None:
    own(own(state, "players"), seat)["cash"] += delta
