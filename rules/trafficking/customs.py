"""Section 16 Airport Customs: the Dealer hides all his Lids in one hand, the Narc picks a hand; a
simultaneous secret choice (rules.blocks.choices), revealed together.  Caught: an offense, escorted to
the West End Cop Shop (16d)."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.blocks import choices
from rules.trafficking import board, offenses
from rules.trafficking.evolve import evolve
from rules.trafficking.state import HANDS, Tx

RULE = "16"


def _require(state: dict, seat: int, role: str, slot: str, hand: str) -> None:
    customs = state["customs"]
    if customs is None or customs[role] != seat:
        raise IllegalMove("nobody is clearing Airport Customs with you", rule=RULE)
    if customs[slot] is not None:
        raise IllegalMove("you have chosen your hand already", rule=RULE)
    if hand not in HANDS:
        raise IllegalMove('a hand is "left" or "right"', rule=RULE)


def decide_hide(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """HideLids{hand}: the Dealer's secret hand (only he reads it until the reveal)."""
    _require(state, seat, "dealer", "hidden", cmd["hand"])
    return [choices.chosen_event("LidsHidden", seat, hand=cmd["hand"])]


def decide_guess(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """ChooseHand{hand}: the Customs Officer's pick, secret to the Narc until the reveal."""
    _require(state, seat, "narc", "guess", cmd["hand"])
    return [choices.chosen_event("HandChosen", seat, hand=cmd["hand"])]


def slots(state: dict) -> list:
    customs = state["customs"]
    return [customs["hidden"], customs["guess"]]


def waiting(state: dict) -> dict[int, str]:
    """Both answer at once: the Dealer and the Narc."""
    customs = state["customs"]
    who = (customs["dealer"], customs["narc"])
    return {who[i]: kind for i, kind in choices.awaiting(slots(state)).items()}


def moves(state: dict, seat: int) -> list[dict]:
    customs = state["customs"]
    if seat == customs["dealer"] and customs["hidden"] is None:
        return [{"type": "HideLids", "hand": h} for h in HANDS]
    if seat == customs["narc"] and customs["guess"] is None:
        return [{"type": "ChooseHand", "hand": h} for h in HANDS]
    return []


def reveal(state: dict) -> list[Event]:
    """Both hands shown: the right guess is an offense (16b), the wrong one clears customs (16a)."""
    customs = state["customs"]
    if not choices.all_chosen(slots(state)):
        return []
    caught = customs["hidden"] == customs["guess"]
    tx = Tx(state, evolve)
    tx.add("CustomsCleared", dealer=customs["dealer"], hidden=customs["hidden"], guess=customs["guess"],
           caught=caught)
    if caught:
        offenses.charge(tx, customs["dealer"], "Airport Customs", escort_to=board.WEST_END)
    return tx.events
