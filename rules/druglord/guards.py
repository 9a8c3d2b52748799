"""Guards and wording shared by the Druglord command handlers."""
from __future__ import annotations

from rules.base import IllegalMove
from rules.druglord.data import BOARD, PHASE_NAMES
from rules.druglord.state import actor

PHASE_WORDS = {"empire": "while the starting empires are being chosen", "draft": "during the Region Draft",
               "load": "while weight is being loaded", "action": "in an action phase", "between": "between turns",
               "over": "after the game is over"}


def region_name(region: str) -> str:
    r = BOARD.regions.get(region)
    return f"{r.name} ({region})" if r else repr(region)


def require_phase(state: dict, phase: str, what: str, rule: str) -> None:
    if state["phase"] == "over":
        raise IllegalMove("the game is over", rule="12")
    if state["phase"] != phase:
        raise IllegalMove(f"{what} is not possible {PHASE_WORDS.get(state['phase'], state['phase'])}", rule=rule)


def require_actor(state: dict, seat: int, rule: str = "4") -> None:
    """Seat takes its action now: action phase, its place in the order, no roll or answer pending."""
    require_phase(state, "action", "taking an action", rule)
    roll = state["roll"]
    if roll is not None:
        if roll["stage"] == "declare":
            raise IllegalMove(f"seat {roll['roller']} is declaring Sway on a {roll['kind']} roll first", rule="7")
        raise IllegalMove(f"waiting for seat(s) {', '.join(map(str, roll['waiting']))} to answer the "
                          f"{roll['kind']} roll (Sway or EndSway)", rule="7")
    current = actor(state)
    if seat != current:
        raise IllegalMove(f"it is seat {current}'s action in the {PHASE_NAMES[state['wtype']]} phase, "
                          f"not seat {seat}'s", rule=rule)


def require_no_action(state: dict, seat: int, what: str, rule: str) -> None:
    """One action per player per phase: nothing started yet."""
    require_actor(state, seat, rule)
    action = state["action"]
    if action is not None:
        raise IllegalMove(f"you already took your action this phase ({ACTION_WORDS[action['kind']]}); "
                          f"{what} would be a second one", rule="4")


def require_own_region(state: dict, seat: int, region: str, rule: str, role: str = "region") -> None:
    if region not in BOARD.regions:
        raise IllegalMove(f"there is no region {region!r}", rule=rule)
    if state["owner"].get(region) != seat:
        raise IllegalMove(f"{region_name(region)} is not one of your regions", rule=rule)


ACTION_WORDS = {"move": "Move Weight", "violence": "Violence", "draw_card": "Baller Move"}
