"""Phase 3, Improvements (6.3): one investment a turn (a crop, or a Laboratory, Transport or Storage
card from the rack), then the other seats may buy what is left, in turn order, for 1 million more."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.narcos.data import CARDS, kind
from rules.narcos.state import (
    capacity,
    crop_price,
    crops_left,
    improvements_free,
    player,
    require,
    require_turn,
)

RULE = "6.3"
OUT_OF_TURN = 1  # "pagando 1 millón extra por realizar la operación fuera de su turno"


def price(state: dict, seat: int, card: str) -> int:
    return CARDS[card]["price"] + (0 if seat == state["turn"]["seat"] else OUT_OF_TURN)


def buy_problem(state: dict, seat: int, card: str) -> str | None:
    """Why the seat cannot buy `card` now, or None."""
    if not isinstance(card, str) or card not in improvements_free(state):
        return f"{card!r} is not a Laboratory, Transport or Storage card left on the rack"
    if player(state, seat)["money"] < price(state, seat, card):
        return f"{card} costs {price(state, seat, card)} million"
    if kind(card) == "storage" and capacity(card) < player(state, seat)["stored"]:
        return "that Storage cannot hold the merchandise you have in yours (never more than the card shows)"
    return None


def buys_head(state: dict) -> int | None:
    queue = state["turn"]["queue"]
    return queue[0] if queue and state["turn"]["phase"] == "buys" else None


def decide_buy(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Buy a card from the rack; it replaces yours and keeps the merchandise on it."""
    require(state.get("ended") is None, "the game is over", "end")
    t = state["turn"]
    own = t["phase"] == "improve" and seat == t["seat"]
    require(own or buys_head(state) == seat, "you cannot buy an improvement now (one investment a turn; "
            "others buy leftovers in turn order)", RULE)
    problem = buy_problem(state, seat, command["card"])
    require(problem is None, problem or "", RULE)
    card = command["card"]
    return [Event("CardBought", {"seat": seat, "card": card, "price": price(state, seat, card),
                                 "replaced": player(state, seat)[kind(card)], "out_of_turn": not own})]


def decide_add_crop(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Plant one more crop on your Plantation for the price the card shows."""
    require_turn(state, seat, ("improve",), "6.2 Plantation")
    cost = crop_price(state, seat)
    require(cost is not None, "your Plantation is full", "6.2 Plantation")
    require(crops_left(state) > 0, "no brown cube is left in the supply: every crop in the box is planted", "3")
    require(player(state, seat)["money"] >= cost, f"the next crop costs {cost} million", "6.2 Plantation")
    return [Event("CropAdded", {"seat": seat, "price": cost})]


def decide_pass_improvement(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    require_turn(state, seat, ("improve",), RULE)
    return [Event("ImprovementPassed", {"seat": seat})]


def decide_pass_buy(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    require(state.get("ended") is None and buys_head(state) == seat, "you have no leftover card to answer", RULE)
    return [Event("BuyPassed", {"seat": seat})]


def buy_moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "Buy", "card": c} for c in improvements_free(state) if buy_problem(state, seat, c) is None]


def improve_moves(state: dict, seat: int) -> list[dict]:
    moves = buy_moves(state, seat)
    cost = crop_price(state, seat)
    if cost is not None and player(state, seat)["money"] >= cost and crops_left(state) > 0:
        moves.append({"type": "AddCrop"})
    return moves + [{"type": "PassImprovement"}]


def buys_automatic(state: dict) -> list[Event]:
    """Skip a seat that cannot buy anything left; the turn ends when the round of buyers is done."""
    head = buys_head(state)
    if head is None or not improvements_free(state):
        return []  # flow ends the turn
    return [] if buy_moves(state, head) else [Event("BuyPassed", {"seat": head})]
