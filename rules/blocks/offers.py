"""Offers between players: offer -> accept, decline or counter by the addressee; withdrawn by the
offerer; a clock that runs out on the addressee declines.

The game keeps an offer book `{"open": {id: offer}, "next": id}` in its state
(ids are strings in `open`, so the book survives a JSON round trip).  What the
terms mean and whether a seat can honour them is the game's: it validates
terms before `make`/`counter`, and on `OfferAccepted` applies them with its own
events.  These helpers keep the bookkeeping every trading game repeats.

Commands (merge COMMANDS into the game's command shapes; `terms` is an object
the game defines, so its legal moves list a template and the base checks the
rest, see OPEN_ARGUMENTS):

    MakeOffer {to, terms}   (make_each: the same terms to several seats, one offer each)
    AcceptOffer {offer}   DeclineOffer {offer}
    CounterOffer {offer, terms}   WithdrawOffer {offer}
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.base import Event, IllegalMove

RULE = "offers"
COMMANDS: dict[str, dict[str, str]] = {
    "MakeOffer": {"to": "seat", "terms": "obj"},
    "AcceptOffer": {"offer": "int"},
    "DeclineOffer": {"offer": "int"},
    "CounterOffer": {"offer": "int", "terms": "obj"},
    "WithdrawOffer": {"offer": "int"},
}
# Arguments whose values a legal-move list cannot enumerate: the game's handler checks them.
OPEN_ARGUMENTS = {"MakeOffer": frozenset({"terms"}), "CounterOffer": frozenset({"terms"})}
EVENTS = ("OfferMade", "OfferAccepted", "OfferDeclined", "OfferCountered", "OfferWithdrawn")


def event_docs(what: str, maker: str, withdrawn: str) -> dict[str, str]:
    """The EVENTS' descriptions in a game's words: what an offer is ("trade"), who makes one."""
    return {"OfferMade": f"{maker} offered a {what}",
            "OfferAccepted": f"A {what} offer was accepted",
            "OfferDeclined": f"A {what} offer was declined",
            "OfferCountered": f"A {what} offer was answered with a counter-offer",
            "OfferWithdrawn": f"A {what} offer was withdrawn ({withdrawn})"}


def empty() -> dict:
    return {"open": {}, "next": 1}


def offer(book: dict, offer_id: Any) -> dict:
    """The open offer with this id, or IllegalMove."""
    found = book["open"].get(str(offer_id)) if isinstance(offer_id, int) else None
    if found is None:
        raise IllegalMove("that offer is not open: answered, withdrawn or never made", rule=RULE)
    return found


# ------------------------------------------------------------------ decide
def make(book: dict, seat: int, to: int, terms: Mapping[str, Any]) -> list[Event]:
    """Seat offers `terms` to seat `to` (the game checked the terms)."""
    if to == seat:
        raise IllegalMove("an offer goes to another player", rule=RULE)
    return [Event("OfferMade", {"offer": book["next"], "from": seat, "to": to, "terms": dict(terms)})]


def make_each(book: dict, seat: int, addressees: list[int], terms: Mapping[str, Any]) -> list[Event]:
    """One offer of the same terms to each addressee (an offer "to all"), with consecutive ids; each is
    answered on its own (the game decides what an acceptance does to the others)."""
    if not addressees or seat in addressees:
        raise IllegalMove("an offer goes to other players", rule=RULE)
    return [Event("OfferMade", {"offer": book["next"] + i, "from": seat, "to": to, "terms": dict(terms)})
            for i, to in enumerate(addressees)]


def accept(book: dict, seat: int, offer_id: int) -> list[Event]:
    """The addressee accepts: the game adds the events that carry out the terms."""
    found = _addressed_to(book, seat, offer_id)
    return [Event("OfferAccepted", {"offer": offer_id, "from": found["from"], "to": seat, "terms": found["terms"]})]


def decline(book: dict, seat: int, offer_id: int) -> list[Event]:
    _addressed_to(book, seat, offer_id)
    return [Event("OfferDeclined", {"offer": offer_id, "by": seat})]


def counter(book: dict, seat: int, offer_id: int, terms: Mapping[str, Any]) -> list[Event]:
    """The addressee answers with other terms: the offer closes and a new one goes back."""
    found = _addressed_to(book, seat, offer_id)
    return [Event("OfferCountered", {"offer": offer_id, "by": seat, "counter": book["next"],
                                     "to": found["from"], "terms": dict(terms)})]


def withdraw(book: dict, seat: int, offer_id: int) -> list[Event]:
    found = offer(book, offer_id)
    if found["from"] != seat:
        raise IllegalMove(f"only seat {found['from']}, who made that offer, may withdraw it", rule=RULE)
    return [Event("OfferWithdrawn", {"offer": offer_id, "by": seat})]


def _addressed_to(book: dict, seat: int, offer_id: int) -> dict:
    found = offer(book, offer_id)
    if found["to"] != seat:
        raise IllegalMove(f"that offer is addressed to seat {found['to']}, not to you", rule=RULE)
    return found


# ------------------------------------------------------------------ evolve
def evolve(book: dict, event: Event) -> dict:
    """The book after one of EVENTS."""
    d = event.data
    opened = {k: v for k, v in book["open"].items() if k != str(d["offer"])}
    if event.type == "OfferMade":
        return {"open": {**book["open"], str(d["offer"]): {"id": d["offer"], "from": d["from"], "to": d["to"],
                                                         "terms": d["terms"]}},
                "next": d["offer"] + 1}
    if event.type == "OfferCountered":
        back = {"id": d["counter"], "from": d["by"], "to": d["to"], "terms": d["terms"]}
        return {"open": {**opened, str(d["counter"]): back}, "next": d["counter"] + 1}
    if event.type in ("OfferAccepted", "OfferDeclined", "OfferWithdrawn"):
        return {"open": opened, "next": book["next"]}
    raise ValueError(f"not an offer event: {event.type}")


# ------------------------------------------------------------- who answers
def awaiting(book: dict) -> dict[int, str]:
    """Addressees of open offers must answer."""
    return {o["to"]: "response" for o in book["open"].values()}


def moves(book: dict, seat: int, terms_template: Mapping[str, Any]) -> list[dict]:
    """The offer commands `seat` may send now (counter terms: the game's template to fill in)."""
    out = []
    for found in sorted(book["open"].values(), key=lambda o: o["id"]):
        if found["to"] == seat:
            out += [{"type": "AcceptOffer", "offer": found["id"]}, {"type": "DeclineOffer", "offer": found["id"]},
                    {"type": "CounterOffer", "offer": found["id"], "terms": dict(terms_template)}]
        elif found["from"] == seat:
            out.append({"type": "WithdrawOffer", "offer": found["id"]})
    return out


def timeout_answer(book: dict, seat: int) -> dict | None:
    """What the clock does for an addressee who does not answer: decline the oldest offer to it."""
    for found in sorted(book["open"].values(), key=lambda o: o["id"]):
        if found["to"] == seat:
            return {"type": "DeclineOffer", "offer": found["id"]}
    return None
