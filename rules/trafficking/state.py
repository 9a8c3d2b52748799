"""Trafficking's state shape and the queries the rules share.

    seats, phase         "characters" | "place_narc" | "play" | "over"
    narc                 the Narc's seat; order: every seat in turn order (counter-clockwise from the Narc's right)
    choosers, chooser    Dealers in the order they pick their characters (high roller first), and whose pick it is
    players[seat]        role "narc" | "dealer", dealer (character id), square, lids, cash, offenses, sold,
                         out None | "busted" | "bankrupt", pass (THC Transit Pass), miss (Miss a Turn pending),
                         kept (card ids held in secret), bet (a pending gamble) ; the Narc only uses square
    decks                {"sour_grapes": [...], "flip_out": [...]} top first (secret order); passes: in the bank
    turn                 None | {seat, stage, die, choices, how, again, transaction, offered, picked, bought,
                         gambled, sell_die}: stage "roll" | "move" | "landed" | "sell" | "customs" | "done"
    customs              None | {dealer, hidden, guess} (the secret choice at Airport Customs)
    offers               the offer book (rules.blocks.offers) for deals between Dealers
    last                 whose turn ended last; result: None | {"winners", "reason"}
"""
from __future__ import annotations

from rules.base import Event
from rules.trafficking import board
from rules.trafficking.data import DEALERS, SQUARES

KILO = 36            # "sell a Kilo of marijuana (36 ounces or "Lids")"
START_CASH = 1000    # "i) $1,000"
GRAFT_TAX = (50, 100, 200)   # "NO OFFENSES-$50 NAME IN THE BOOK-$100 ON PROBATION-$200"
NO_DEALS = ("cop_shop", "customs")   # 6f: "Absolutely no deals ... on a COP SHOP square or AIRPORT CUSTOMS"
HANDS = ("left", "right")


class Tx:
    """Events decided one after another, each folded at once so the next decision sees it."""

    def __init__(self, state: dict, evolve):
        self.state, self.events, self._evolve = state, [], evolve

    def add(self, type_: str, **data) -> dict:
        event = Event(type_, data)
        self.state = self._evolve(self.state, event)
        self.events.append(event)
        return self.state


def player(state: dict, seat: int) -> dict:
    return state["players"][seat]


def is_dealer(state: dict, seat: int) -> bool:
    return state["players"][seat]["role"] == "dealer"


def active_dealers(state: dict) -> list[int]:
    """Dealers still in the game."""
    return [s for s, p in enumerate(state["players"]) if p["role"] == "dealer" and p["out"] is None]


def narc_square(state: dict) -> str | None:
    return state["players"][state["narc"]]["square"]


def dealers_at(state: dict, square: str, but: int | None = None) -> list[int]:
    return [s for s in active_dealers(state) if s != but and state["players"][s]["square"] == square]


def hang_out_owner(state: dict, square: str) -> int | None:
    """The seat playing the Dealer whose Hang Out this is (None: nobody plays that character)."""
    dealer = SQUARES[square].get("dealer")
    return next((s for s, p in enumerate(state["players"]) if p["dealer"] == dealer and dealer), None)


def immune(state: dict, seat: int, square: str) -> bool:
    """5a: own Hang Out, and the NO BUST ZONE."""
    if board.kind(square) == "no_bust_zone":
        return True
    home = SQUARES[square].get("dealer")
    return home is not None and home == state["players"][seat]["dealer"]


def deals_with_bank(state: dict, square: str) -> bool:
    """A Dealing square, or (6h) a vacant Hang Out: nobody plays its Dealer."""
    k = board.kind(square)
    return k == "dealing" or (k == "hang_out" and hang_out_owner(state, square) is None)


def deal_partners(state: dict, seat: int) -> list[int]:
    """6f: other Dealers on the lander's square, except on a Cop Shop or Airport Customs."""
    square = state["players"][seat]["square"]
    if square is None or board.kind(square) in NO_DEALS:
        return []
    return dealers_at(state, square, but=seat)


def dealer_name(state: dict, seat: int) -> str:
    p = state["players"][seat]
    return DEALERS[p["dealer"]]["name"] if p["dealer"] else ("the Narc" if p["role"] == "narc" else f"seat {seat}")


def next_seat(state: dict, after: int) -> int | None:
    """The next seat in turn order (counter-clockwise) still playing."""
    order = state["order"]
    i = order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if state["players"][seat]["out"] is None:
            return seat
    return None
