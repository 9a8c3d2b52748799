"""Who acts now, what they may do, what a clock does for them, and the one automatic step (Winning the Game)."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import windows
from rules.kingpin import dice, specials, turn
from rules.kingpin.state import must_place_hits

# command type -> the part of legal_moves that lists it (window answers aside)
MOVES_OF = {**dict.fromkeys(turn.HANDLERS, turn.moves), **dict.fromkeys(dice.HANDLERS, dice.moves),
            **dict.fromkeys(specials.HANDLERS, specials.moves)}

# Roll Outcomes: Single Die -- the face each single-die command allocates (the others name theirs)
FACE_OF = {"Ship": 1, "Distribute": 2, "PurchaseHits": 3, "Payday": 4, "StealDeal": 5, "Chloroform": 6}

ROLL_DICE, END_TURN = {"type": "RollDice"}, {"type": "EndTurn"}

TIMEOUT_ANSWERS = {"cop": {"type": "AcceptJail"}, "hitman": {"type": "AcceptHit"},
                   "regulator": {"type": "AcceptRegulator"}}


def step(state: dict, rng: Rng) -> list[Event]:
    """Reaching the target bankroll ends the game at once (checked after every command)."""
    won = turn.win_event(state)
    return [won] if won else []


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every command `seat` may send now, each postable as-is."""
    if state["phase"] in ("over", "setup"):
        return []
    if state["window"] is not None:
        return specials.window_moves(state, seat)
    if seat != state["current"]:
        return []
    if state["phase"] == "buy":
        return turn.moves(state, seat)[:-1] + specials.moves(state, seat) + [{"type": "RollDice"}]
    return dice.moves(state, seat) + specials.moves(state, seat) + turn.moves(state, seat)


def is_legal(state: dict, seat: int, cmd: dict) -> bool:
    """`cmd in legal_moves(state, seat)`, listing only the part of the moves that can hold
    a command of its type (the dice's, the Special Cards' or the turn's): `decide` asks this for
    every command, and a replay for thousands."""
    if state["phase"] in ("over", "setup"):
        return False
    if state["window"] is not None:
        return cmd in specials.window_moves(state, seat)
    if seat != state["current"]:
        return False
    ctype = cmd.get("type")
    part = MOVES_OF.get(ctype)
    # the two commands of nearly every turn, as turn.moves lists them (without listing the rest)
    if ctype == "RollDice":  # listed last in the buy phase, never after it
        return state["phase"] == "buy" and cmd == ROLL_DICE
    if ctype == "EndTurn":  # listed last after the roll, unless Hits must be placed
        return state["phase"] != "buy" and cmd == END_TURN and not must_place_hits(state)
    if state["phase"] == "buy":
        if part is turn.moves:  # PurchaseCard and RollDice, which turn.moves lists last
            return cmd in turn.moves(state, seat)
        return part is specials.moves and cmd in specials.moves(state, seat)
    if part is dice.moves:  # only the allocations of the die face the command uses
        return cmd in dice.moves(state, seat, FACE_OF.get(cmd["type"], cmd.get("face")))
    return cmd in part(state, seat)


def awaiting(state: dict) -> dict[int, str]:
    """{current seat: "move"}, or {responder: "response"} during a window; {} once over."""
    if state["phase"] in ("over", "setup"):
        return {}
    if state["window"] is not None:
        return windows.awaiting([state["window"]["responder"]])  # a window one seat answers
    return {state["current"]: "move"}


def timeout_default(state: dict, seat: int) -> dict:
    """Roll if not rolled yet, else end the turn; in a window: no bribe, no doubling, no Immunity;
    a Distribute that must be placed (version 2): as many Hits as fit on the first Dealer with room."""
    if state["window"] is not None:
        return dict(TIMEOUT_ANSWERS[state["window"]["kind"]])
    if must_place_hits(state):
        return dice.place_default(state, seat)
    return {"type": "RollDice"} if state["phase"] == "buy" else {"type": "EndTurn"}
