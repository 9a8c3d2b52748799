"""Sales to Dealers (6.2 "Traficantes", "Cobrar las ventas"; advanced 9.1 board, 9.3 tokens):
a whole Storage to one Dealer, 1 million a unit; the −2 Dealer; tribute to city majorities."""
from __future__ import annotations

from rules.base import Event
from rules.folding import rules_version
from rules.narcos.data import CARDS, kind
from rules.narcos.state import (
    city_of_fallback,
    dealers_free,
    fallback_open,
    player,
    require,
    room,
)

RULE = "6.2 Dealers"
FALLBACK_PENALTY = 2           # "con una penalización de -2"
TOKEN_BONUS = {"speedboat": 2, "plane": 3, ">=8": 2}  # "2 millones extra", "+3 millones", "cobras 2 millones extra"
AIRCRAFT = ("plane", "light aircraft")  # version 1: the plane token paid a light aircraft too (ruling A4)


def tribute(state: dict, seat: int, city: str, units: int) -> list[dict]:
    """Advanced 9.1: one unit per employee to each rival with more employees in the city than the seller,
    in turn order from the seller; what a rival's Storage cannot hold is lost."""
    if state["mode"] != "advanced":
        return []
    counts, out, left = state["cities"][city], [], units
    for step in range(1, state["seats"]):
        rival = (seat + step) % state["seats"]
        if counts[rival] > counts[seat] and left:
            give = min(counts[rival], left)
            out.append({"seat": rival, "units": give, "kept": min(give, room(state, rival))})
            left -= give
    return out


def token_bonus(state: dict, seat: int, city: str, units: int, kept: int) -> int:
    """Advanced 9.3: the city's token pays extra for a speedboat, a plane, or a sale of 8 or more.
    From version 2 (ruling A4) «≥8» counts the units sold, after tribute (`kept`, as the Chicago example
    calls only the 6 left "por cobrar"), and the plane token pays a plane, not a light aircraft."""
    if state["mode"] != "advanced":
        return 0
    token, vehicle = state["tokens"][city], CARDS[player(state, seat)["transport"]].get("vehicle")
    old = rules_version(state) < 2
    aircraft, sold = (AIRCRAFT, units) if old else (("plane",), kept)
    if (token == "speedboat" and vehicle == "speedboat") or (token == "plane" and vehicle in aircraft) \
            or (token == ">=8" and sold >= 8):
        return TOKEN_BONUS[token]
    return 0


def sale_event(state: dict, seat: int, dealer: str | None, workers: int, cost: int) -> Event:
    """Delivered: the seat's whole Storage to `dealer` (None: the −2 Dealer)."""
    units = player(state, seat)["stored"]
    city = city_of_fallback(state) if dealer is None else CARDS[dealer]["city"]
    given = tribute(state, seat, city, units)
    kept = units - sum(g["units"] for g in given)
    paid = max(0, kept - FALLBACK_PENALTY) if dealer is None else kept
    bonus = (workers + token_bonus(state, seat, city, units, kept)) if state["mode"] == "advanced" else 0
    return Event("Delivered", {"seat": seat, "dealer": dealer, "city": city, "units": units, "tribute": given,
                               "paid": paid, "bonus": bonus, "workers": workers, "cost": cost})


def check_sale(state: dict, seat: int, dealer: str | None, workers: int) -> None:
    """IllegalMove unless the seat can sell its Storage to that Dealer with that many employees."""
    require(player(state, seat)["stored"] > 0, "your Storage is empty: nothing to sell", RULE)
    if dealer is None:
        require(fallback_open(state, seat), "the −2 Dealer is for the seat whose turn it is, once, "
                "and in basic mode only when no Dealer is free on the rack", RULE)
    else:
        require(isinstance(dealer, str) and dealer in CARDS and kind(dealer) == "dealer",
                f"{dealer!r} is not a Dealer", RULE)
        require(dealer in dealers_free(state), f"{dealer} is not a free Dealer on the rack this turn", RULE)
    require(workers in (0, 1), "a sale takes at most one employee to the city", "9.1")
    require(workers == 0 or state["mode"] == "advanced", "employees go to cities only in advanced mode", "9.1")
    require(player(state, seat)["workers"] >= workers, "you have no employee left", "8")
