"""Guards and wording shared by the Kingpin command handlers."""
from __future__ import annotations

from rules.base import IllegalMove
from rules.folding import rules_version
from rules.kingpin.state import kind_of

FACE_NAMES = {1: "Shipment", 2: "Distribute", 3: "Purchase Hits", 4: "Payday", 5: "Steal a Deal", 6: "Chloroform"}
FACE_RULE = "Roll Outcomes: Single Die"


def money(amount: int) -> str:
    """$1,200 style."""
    return f"${amount:,}"


def describe(state: dict, card_id: str) -> str:
    """A card as a human reads it: 'Dealer (6) dealer6-2'."""
    return f"{kind_of(state, card_id)['name']} {card_id}"


def card(state: dict, card_id: str, rule: str) -> dict:
    """The card with this id, or IllegalMove if there is none."""
    try:
        return state["cards"][card_id]
    except KeyError:
        raise IllegalMove(f"there is no card {card_id!r}", rule=rule) from None


def require_active_player(state: dict, seat: int, rule: str = "On Your Turn") -> None:
    """Only the player whose turn it is may act, and not while someone else must answer."""
    if state["phase"] == "over":
        raise IllegalMove("the game is over", rule="Winning the Game")
    window = state["window"]
    if window is not None:
        if seat == window["responder"]:
            raise IllegalMove(f"answer the {WINDOW_NAMES[window['kind']]} first "
                              f"(see your legal moves)", rule=WINDOW_RULES[window["kind"]])
        raise IllegalMove(f"waiting for seat {window['responder']} to answer the "
                          f"{WINDOW_NAMES[window['kind']]}", rule=WINDOW_RULES[window["kind"]])
    if seat != state["current"]:
        raise IllegalMove(f"it is seat {state['current']}'s turn, not seat {seat}'s", rule=rule)


def require_no_pending(state: dict) -> None:
    """A Distribute or a sale in progress must be finished first."""
    pending = state["pending"]
    if pending is None:
        return
    if pending["kind"] == "distribute":
        raise IllegalMove(f"finish distributing the {pending['hits']} Hit(s) from {pending['truck']} first "
                          f"(PlaceHits{'' if rules_version(state) >= 2 else ' or FinishDistribute'})", rule=FACE_RULE)
    raise IllegalMove(f"finish the sale to {pending['junkie']} first (SellHits)", rule="Purchasing Hits")


def require_phase(state: dict, phases: tuple, what: str, rule: str) -> None:
    """IllegalMove unless the turn is in one of `phases` (see PHASE_WORDS)."""
    if state["phase"] not in phases:
        raise IllegalMove(f"{what} is not possible {PHASE_WORDS[state['phase']]}", rule=rule)


def require_funds(state: dict, seat: int, amount: int, what: str, rule: str) -> None:
    """IllegalMove unless seat's bankroll covers `amount`."""
    have = state["bankrolls"][seat]
    if have < amount:
        raise IllegalMove(f"you have {money(have)} but {what} costs {money(amount)}", rule=rule)


def require_own_in_play(state: dict, seat: int, card_id: str, types: tuple, rule: str) -> dict:
    """One of seat's own cards of one of `types`, in play (not jailed or removed)."""
    c = card(state, card_id, rule)
    label = describe(state, card_id)
    if c["type"] not in types and c.get("special") not in types:
        raise IllegalMove(f"{label} is not a {' or '.join(types)}", rule=rule)
    if c["owner"] != seat:
        raise IllegalMove(f"{label} is not yours", rule=rule)
    if c["where"] != "play":
        raise IllegalMove(f"{label} is {WHERE_WORDS[c['where']]}", rule=rule)
    return c


PHASE_WORDS = {
    "setup": "before the game starts",
    "buy": "before you roll (step 1 is purchases, step 2 the roll)",
    "dice": "while you allocate dice",
    "specials": "after you started using Special Cards (step 4 comes after allocating dice)",
    "bail": "after you bailed a card out (step 5 is the last step)",
    "over": "after the game is over",
}
WHERE_WORDS = {"stack": "still in its stack", "play": "in play", "jail": "in Jail", "removed": "removed from the game"}
WINDOW_NAMES = {"cop": "Cop (bribe or go to Jail)", "hitman": "Hit Man (accept or double the bounty)",
                "regulator": "Regulator (accept or bribe)"}
WINDOW_RULES = {"cop": "Special Cards: Cop", "hitman": "Special Cards: Hit Man",
                "regulator": "Special Cards: Regulator"}
