"""Cartel cards (7): abilities played from the hand at the timing the card names, paying its cost.
The backs (one extra action each) are spent in manage.py.  The card designs are in cartel.json."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.narcos.data import CARTEL, cartel_kind, kind
from rules.narcos.draw import peek_event
from rules.narcos.state import (
    ELIMINATE_COST,
    eliminable,
    lab_output,
    player,
    rack_count,
    require,
    require_turn,
    ship_units,
)

RULE = "7"
NO_TARGET = -1


def usable(state: dict, seat: int, card: str) -> list[int]:
    """The targets the card may be played on now ([-1] for an untargeted card; [] when it cannot be)."""
    t, p, design = state["turn"], player(state, seat), cartel_kind(card)
    spec = CARTEL[card]
    if spec["advanced_only"] and state["mode"] != "advanced":
        return []
    if spec["timing"] == "draw":
        if t["phase"] != "draw" or t["peeked"] is not None:
            return []
        if design == "lawyer":
            return [NO_TARGET] if eliminable(state) else []
        # tip-off: like the Snitch's peek, when another card could be turned and no Press is owed
        ok = state["deck"] and rack_count(state) < 7 and not t["press_owed"] and not t["fresh"]
        return [NO_TARGET] if ok else []
    if t["phase"] != "manage":
        return []
    if design == "rob-warehouse":
        w = state["warehouse"]
        return [NO_TARGET] if p["sicarios"] >= 2 and (w["goods"] or w["money"]) else []
    if design == "burn-crops":
        return [s for s in range(state["seats"]) if s != seat and state["players"][s]["crops"] >= 2] \
            if p["sicarios"] >= 1 else []
    if design == "secret-route":
        return [NO_TARGET] if ship_units(state, seat) > 0 else []
    if design == "recruit":
        return [NO_TARGET] if p["money"] >= 1 and state["supply"] > 0 else []
    if design == "laundering":
        return [NO_TARGET] if p["workers"] >= 1 else []
    return [NO_TARGET]  # bumper-crop


def cartel_moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "PlayCartel", "card": card, "target": target}
            for card in sorted(set(player(state, seat)["hand"])) for target in usable(state, seat, card)]


def decide_play(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Play a Cartel card's ability."""
    require_turn(state, seat, ("draw", "manage"), RULE)
    card, target = command["card"], command["target"]
    require(card in player(state, seat)["hand"], "that Cartel card is not in your hand", RULE)
    require(target in usable(state, seat, card), f"{CARTEL[card]['english']} cannot be played "
            f"{'on that target ' if target != NO_TARGET else ''}now", RULE)
    played = Event("CartelPlayed", {"seat": seat, "card": card, "target": target})
    design = cartel_kind(card)
    if design == "lawyer":
        entry = eliminable(state)
        return [played, Event("DangerEliminated", {"seat": seat, "card": entry["card"], "sicarios": 0,
                                                   "by": card, "instead_of": ELIMINATE_COST[kind(entry["card"])]})]
    if design == "tip-off":
        return [played, peek_event(state, seat)]
    if design == "bumper-crop":
        return [played, Event("Produced", {"seat": seat, "units": lab_output(state, seat), "cost": 0})]
    if design == "secret-route":
        return [played, Event("Shipped", {"seat": seat, "units": ship_units(state, seat), "cost": 0})]
    return [played]


__all__ = ["cartel_moves", "decide_play"]
