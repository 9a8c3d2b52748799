"""Cartel cards (7): abilities played from the hand at the timing the card names, paying its cost.
The backs (one extra action each) are spent in manage.py.  The card designs are in cartel.json.

«La carta de habilidad se puede usar en cualquier momento si la habilidad indicada lo permite (aun cuando no
sea tu turno)» (ruling C1): a "draw" or "manage" card is played in that phase of its owner's turn; an "any"
card whenever its owner has a move, on its turn or in a window of another's; a "reaction" card answers
the response window its ability names, on another seat's turn (Crop guards: Burn the crops aimed at you).
"""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import windows
from rules.folding import rules_version
from rules.narcos.data import CARTEL, cartel_kind, kind
from rules.narcos.draw import UNPAID, pay_automatic, peek_event
from rules.narcos.evolve import fold
from rules.narcos.state import (
    ELIMINATE_COST,
    eliminable,
    player,
    production,
    rack_count,
    require,
    ship_units,
)

RULE = "7"
NO_TARGET = -1
BURN = "burn-crops"  # the window Burn the crops opens for its target
DEA_MONEY = "dea-money"  # the window before the DEA agent of money is checked at a turn's end (version 3)


def own_timing(state: dict, seat: int, card: str) -> list[int]:
    """A "draw" or "manage" card, in that phase of its owner's turn."""
    t, p, design = state["turn"], player(state, seat), cartel_kind(card)
    if seat != t["seat"] or state["window"] is not None or t["phase"] != CARTEL[card]["timing"]:
        return []
    if t["phase"] == "draw":
        if t["peeked"] is not None or t["owed"]:
            return []
        if design == "lawyer":
            return [NO_TARGET] if eliminable(state) else []
        # tip-off: like the Snitch's peek, when another card could be turned and no Press is owed; from
        # version 2 after a card is turned, as a Snitch always is (ruling D11: at least one card turned)
        ok = state["deck"] and rack_count(state) < 7 and not t["press_owed"] and not t["fresh"] \
            and (rules_version(state) < 2 or bool(t["table"]))
        return [NO_TARGET] if ok else []
    if design == "rob-warehouse":
        w = state["warehouse"]
        return [NO_TARGET] if p["sicarios"] >= 2 and (w["goods"] or w["money"]) else []
    if design == BURN:
        return [s for s in range(state["seats"]) if s != seat and state["players"][s]["crops"] >= 2] \
            if p["sicarios"] >= 1 else []
    if design == "secret-route":
        return [NO_TARGET] if ship_units(state, seat) > 0 else []
    return [NO_TARGET] if production(state, seat) > 0 else []  # bumper-crop


def usable(state: dict, seat: int, card: str) -> list[int]:
    """The targets the card may be played on now ([-1] for an untargeted card; [] when it cannot be).
    An "any" card's caller checks that the seat has a move (flow.legal_moves)."""
    spec, p, design = CARTEL[card], player(state, seat), cartel_kind(card)
    if spec["advanced_only"] and state["mode"] != "advanced":
        return []
    if spec["timing"] == "reaction":  # crop-guards: answer the Burn the crops aimed at you
        w = state["window"]
        return [w["attacker"]] if w is not None and w["kind"] == BURN and seat in w["waiting"] else []
    if spec["timing"] == "any":
        if design == "recruit":
            return [NO_TARGET] if p["money"] >= 1 and state["supply"] > 0 else []
        return [NO_TARGET] if p["workers"] >= 1 else []  # laundering
    return own_timing(state, seat, card)


def cartel_moves(state: dict, seat: int, timings: tuple = ("draw", "manage", "reaction", "any")) -> list[dict]:
    return [{"type": "PlayCartel", "card": card, "target": target}
            for card in sorted(set(player(state, seat)["hand"])) if CARTEL[card]["timing"] in timings
            for target in usable(state, seat, card)]


def decide_play(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Play a Cartel card's ability."""
    require(state.get("ended") is None, "the game is over", "end")
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
        return [played, Event("Produced", {"seat": seat, "units": production(state, seat), "cost": 0})]
    if design == "secret-route":
        return [played, Event("Shipped", {"seat": seat, "units": ship_units(state, seat), "cost": 0})]
    if design == BURN:
        return [played, *burn_answer(state, seat, card, target)]
    return [played]


def burn_answer(state: dict, attacker: int, card: str, target: int) -> list[Event]:
    """The target of Burn the crops may answer on the attacker's turn; asked whenever it holds a Cartel card
    (its hand's size is public, its contents are not: asking only holders of Crop guards would tell)."""
    if player(state, target)["hand"]:
        return [Event("ReactionAsked", {"kind": BURN, "seat": target, "attacker": attacker, "card": card})]
    return [Event("CropBurned", {"seat": target, "by": attacker, "card": card})]


def decide_pass_reaction(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Answer nothing more in the window: let the attack aimed at you happen (your crop burns); from version 3
    also leave an owed card unpaid, or let the DEA agent of money follow the richest (ruling C1)."""
    w = state["window"]
    require(state.get("ended") is None, "the game is over", "end")
    windows.require_waiting(w["waiting"] if w else [], seat, "reaction", RULE)
    passed = Event("ReactionPassed", {"seat": seat, "kind": w["kind"]})
    if w["kind"] == UNPAID:  # the card goes unpaid; the rest of what is owed is settled as before
        unpaid = Event("DangerPaid", {"seat": seat, "card": w["card"], "paid": None, "chosen": True})
        return [passed, unpaid, *pay_automatic(fold(state, [passed, unpaid]))]
    if w["kind"] == DEA_MONEY:  # the turn's end goes on: the agent follows the richest (flow.between_turns)
        return [passed]
    return [passed, Event("CropBurned", {"seat": seat, "by": w["attacker"], "card": w["card"]})]


def reaction_moves(state: dict, seat: int) -> list[dict]:
    """In the window: a reaction card, or let it happen."""
    return cartel_moves(state, seat, ("reaction",)) + [{"type": "PassReaction"}]


__all__ = ["cartel_moves", "decide_pass_reaction", "decide_play", "reaction_moves"]
