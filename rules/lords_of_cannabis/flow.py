"""Who acts now, with which moves, what a clock does, and the win that follows by itself."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import offers
from rules.lords_of_cannabis import building, crops, placement, trade
from rules.lords_of_cannabis.cards import WINNING_POINTS
from rules.lords_of_cannabis.state import total_points
from rules.lords_of_cannabis.turn import sheriff_bricks

ROLL, END = {"type": "Roll"}, {"type": "EndTurn"}


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every command the seat may send now."""
    phase = state["phase"]
    if phase == "roll" or phase == "main":
        if state["offers"]["open"]:
            return trade.answer_moves(state, seat)
        if seat != state["current"]:
            return []
        if phase == "roll":
            return [ROLL] + crops.moves(state, seat) + trade.moves(state, seat)
        return building.moves(state, seat) + crops.moves(state, seat) + trade.moves(state, seat) + [END]
    if phase == "place":
        return placement.moves(state, seat)
    if phase == "discard":
        if seat not in state["discarding"]:
            return []
        hand = state["hands"][seat]
        return [{"type": "Discard", "resource": name} for r, name in enumerate(trade.RESOURCES) if hand[r]]
    if phase == "sheriff":
        return [{"type": "MoveSheriff", "brick": b} for b in sheriff_bricks(state)] if seat == state["current"] else []
    if phase == "tunnels":
        return crops.free_tunnel_moves(state, seat)
    if phase == "stash":
        return placement.stash_moves(state, seat)
    return []  # over


def awaiting(state: dict) -> dict[int, str]:
    """The seats that must act: the active player, or the addressees of open offers, or the players who
    must discard after a 7, or (setup) those taking their starting Stash."""
    phase = state["phase"]
    if phase == "over":
        return {}
    if phase in ("roll", "main") and state["offers"]["open"]:
        return offers.awaiting(state["offers"])
    if phase == "discard":
        return {s: "response" for s in state["discarding"]}
    if phase == "stash":
        return {s: "move" for s in state["stash_pending"]}
    return {state["current"]: "move"}


def timeout_default(state: dict, seat: int) -> dict:
    """A clock declines an offer, discards the most plentiful card, rolls, ends the turn; in setup it
    places on the first free spot."""
    phase = state["phase"]
    if phase in ("roll", "main") and state["offers"]["open"]:
        return offers.timeout_answer(state["offers"], seat)
    if phase == "roll":
        return ROLL
    if phase == "main":
        return END
    if phase == "tunnels":
        return {"type": "EndTunnelBuilding"}
    if phase == "discard":
        hand = state["hands"][seat]
        return {"type": "Discard", "resource": trade.RESOURCES[hand.index(max(hand))]}
    return legal_moves(state, seat)[0]


def step(state: dict, rng: Rng) -> list[Event]:
    """The one automatic step: "The first player to accumulate at least TEN Victory Points during his
    turn immediately wins" (checked after every command)."""
    if state["phase"] in ("over", "place", "stash"):
        return []
    seat = state["current"]
    points = total_points(state, seat)
    if points >= WINNING_POINTS:
        return [Event("GameWon", {"seat": seat, "points": points})]
    return []
