"""Section 6f-6j: direct deals between Dealers on the same square, through the offers block.

The Dealer who landed may offer each Dealer on his square one deal; the addressee accepts, declines or
counters (once: a counter is accepted or declined); the clock declines.  Terms, from the offerer's side:
{"direction": "sell" | "buy", "lids": n >= 1, "price": total dollars, a multiple of $10}.  An accepted deal
is the lander's one transaction (6i, 6j) and the seller's Lids sold count on the Scores card.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.blocks import offers
from rules.trafficking import lending
from rules.trafficking.movement import require_stage
from rules.trafficking.state import deal_partners, player

RULE = "6f"
COMMANDS = {k: v for k, v in offers.COMMANDS.items() if k != "WithdrawOffer"}
OPEN_ARGUMENTS = offers.OPEN_ARGUMENTS


def sides(offerer: int, other: int, terms: dict) -> tuple[int, int]:
    """(seller, buyer) of an offer."""
    return (offerer, other) if terms["direction"] == "sell" else (other, offerer)


def terms_problem(state: dict, offerer: int, other: int, terms: dict) -> str | None:
    """Why these terms cannot be dealt now (None: they can)."""
    if set(terms) != {"direction", "lids", "price"} or terms["direction"] not in ("sell", "buy"):
        return 'terms are {"direction": "sell" | "buy", "lids": n, "price": dollars}'
    lids, price = terms["lids"], terms["price"]
    if not isinstance(lids, int) or isinstance(lids, bool) or lids < 1:
        return "a deal moves at least one Lid"
    if not isinstance(price, int) or isinstance(price, bool) or price < 0 or price % 10:
        return "the price is a whole number of dollars in tens ($0, $10, $20, ...)"
    seller, buyer = sides(offerer, other, terms)
    if player(state, seller)["lids"] < lids:
        return f"seat {seller} has only {player(state, seller)['lids']} Lids"
    if player(state, buyer)["cash"] < price:
        return f"seat {buyer} has only ${player(state, buyer)['cash']} (no borrowing, 17b)"
    return None


def template(state: dict, offerer: int, other: int) -> dict | None:
    """A valid offer to list as a legal move (clients send their own terms)."""
    for direction, price in (("sell", 100), ("buy", 100), ("sell", 0), ("buy", 0)):
        terms = {"direction": direction, "lids": 1, "price": price}
        if terms_problem(state, offerer, other, terms) is None:
            return terms
    return None


def lander(state: dict) -> int:
    return state["turn"]["seat"]


def decide_make(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """MakeOffer{to, terms}; a loan's terms are lending.py's (the 17b option)."""
    if lending.is_loan(cmd["terms"]):
        return lending.decide_offer(state, seat, cmd, rng)
    require_stage(state, seat, "landed", "offer a deal", RULE)
    if state["turn"]["transaction"]:
        raise IllegalMove("you have made your one transaction on this square", rule="6i")
    if state["offers"]["open"]:
        raise IllegalMove("your offer awaits its answer", rule=RULE)
    if cmd["to"] not in deal_partners(state, seat):
        raise IllegalMove(f"seat {cmd['to']} is not a Dealer on your square you can deal with", rule=RULE)
    if cmd["to"] in state["turn"]["offered"]:
        raise IllegalMove(f"you have made seat {cmd['to']} an offer on this square already", rule=RULE)
    problem = terms_problem(state, seat, cmd["to"], cmd["terms"])
    if problem:
        raise IllegalMove(problem, rule=RULE)
    return offers.make(state["offers"], seat, cmd["to"], cmd["terms"])


def decide_accept(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """AcceptOffer{offer}: the deal is made at once."""
    events = offers.accept(state["offers"], seat, cmd["offer"])
    d = events[0].data
    if lending.is_loan(d["terms"]):
        return lending.accepted(state, events[0])
    problem = terms_problem(state, d["from"], seat, d["terms"])
    if problem:
        raise IllegalMove(problem, rule=RULE)
    seller, buyer = sides(d["from"], seat, d["terms"])
    return events + [Event("DealMade", {"seller": seller, "buyer": buyer, "lids": d["terms"]["lids"],
                                        "price": d["terms"]["price"]})]


def decide_decline(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    return offers.decline(state["offers"], seat, cmd["offer"])


def decide_counter(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """CounterOffer{offer, terms}: only the lander's own offer may be countered."""
    found = offers.offer(state["offers"], cmd["offer"])
    if lending.is_loan(found["terms"]) or lending.is_loan(cmd["terms"]):
        raise IllegalMove("a loan is accepted or declined, not countered", rule=lending.RULE)
    if found["to"] == seat and found["from"] != lander(state):
        raise IllegalMove("a counter-offer is accepted or declined, not countered again", rule=RULE)
    problem = found["to"] == seat and terms_problem(state, seat, found["from"], cmd["terms"])
    if problem:
        raise IllegalMove(problem, rule=RULE)
    return offers.counter(state["offers"], seat, cmd["offer"], cmd["terms"])


def decide_withdraw(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    raise IllegalMove("an offer stands until it is answered (the addressee's clock declines it)", rule=RULE)


def answer_moves(state: dict, seat: int) -> list[dict]:
    """Accept, decline, and counter (the lander's offers only) for the addressee."""
    out = []
    for found in sorted(state["offers"]["open"].values(), key=lambda o: o["id"]):
        if found["to"] != seat:
            continue
        out += [{"type": "AcceptOffer", "offer": found["id"]}, {"type": "DeclineOffer", "offer": found["id"]}]
        counter = template(state, seat, found["from"]) \
            if found["from"] == lander(state) and not lending.is_loan(found["terms"]) else None
        if counter:
            out.append({"type": "CounterOffer", "offer": found["id"], "terms": counter})
    return out


def offer_moves(state: dict, seat: int) -> list[dict]:
    """MakeOffer to each partner not yet offered, with a valid template."""
    turn = state["turn"]
    if turn["transaction"]:
        return []
    out = []
    for other in deal_partners(state, seat):
        terms = template(state, seat, other) if other not in turn["offered"] else None
        if terms:
            out.append({"type": "MakeOffer", "to": other, "terms": terms})
    return out
