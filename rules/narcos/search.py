"""What a search bot needs of Narcos (rules/search): determinize and evaluate.

Hidden from a seat (view.py): the Narcos deck's order (its contents are public: the pool when
shuffled less the cards seen), the Cartel deck's order, the other seats' Cartel hands (sizes
public), the Cartel cards spent face down (count public) and the card a Snitch showed another seat.
The deck is reshuffled, except its top card when the seat itself is looking at it; the Cartel
cards the seat has not seen (the whole Cartel deck less its own hand and the cards played face up)
are dealt to the Cartel deck and the others' hands (the ones left over stand for the face-down
cards); a card another seat is looking at is whatever is now on top.

Not used: a card the seat looked at and left on the deck (DeclineCard) stays on top until drawn,
but the state no longer says which it was; the determinization reshuffles it.
"""
from __future__ import annotations

from rules.base import Rng
from rules.narcos.data import CARTEL_DECK
from rules.search.hidden import deal, others, shares

CARTEL_IDS = tuple(c["id"] for c in CARTEL_DECK)


def determinize(state: dict, seat: int | None, rng: Rng) -> dict:
    hidden = others(state["seats"], seat)
    turn = state["turn"]
    looking = turn["peeked"] is not None
    if looking and seat == turn["seat"]:
        deck = state["deck"][:1] + rng.shuffled(sorted(state["deck"][1:]))
    else:
        deck = rng.shuffled(sorted(state["deck"]))
    if looking and seat != turn["seat"]:
        turn = {**turn, "peeked": deck[0]}
    players = [dict(p) for p in state["players"]]
    seen = list(state["cartel_discard"]) + (list(players[seat]["hand"]) if seat is not None else [])
    unseen = list(CARTEL_IDS)
    for card in seen:
        unseen.remove(card)
    cartel_deck, *hands = deal(unseen, [len(state["cartel_deck"])] + [len(players[s]["hand"]) for s in hidden], rng)
    for s, hand in zip(hidden, hands):
        players[s]["hand"] = hand
    return {**state, "deck": deck, "turn": turn, "players": players, "cartel_deck": cartel_deck}


def evaluate(state: dict) -> list[float]:
    """Shares of the win by money (the richest seat wins)."""
    return shares([p["money"] + p["uncollected"] for p in state["players"]])
