"""State shape and the queries every module asks (sirens, guns, actions, dealers on the rack, sales).

The state is JSON: `deck` (the Narcos deck's order: secret), `seen` (cards turned since the last
shuffle: public), `pool` (the deck's composition by kind when it was shuffled: public), `reserve`
(the Round 2 cards), `discard`, the Cartel deck and hands, the board (advanced mode), one dict per
player and the `turn` (the active seat's rack and phase).
"""
from __future__ import annotations

from rules.base import IllegalMove
from rules.narcos.data import (
    ACTION_LIMIT,
    CARDS,
    CITY_TOKENS,
    CROPS,
    HAND_LIMIT,
    MERCHANDISE,
    PLANTATION,
    kind,
    side,
)

ELIMINATE_COST = {"police": 1, "press": 1, "military": 2}  # "1 sicario ... o la de militar enviando 2 sicarios"
IMPROVEMENTS = ("laboratory", "transport", "storage")
ON_RACK = ("on", "unpaid")  # statuses of cards that are on the rack (eliminated and removed ones are not)


def player(state: dict, seat: int) -> dict:
    return state["players"][seat]


def turn(state: dict) -> dict:
    return state["turn"]


def rack(state: dict) -> list[dict]:
    return state["turn"]["table"]


def on_rack(state: dict) -> list[dict]:
    """Cards on the rack now (eliminated ones and a removed eighth card are not)."""
    return [e for e in rack(state) if e["status"] in ON_RACK]


def sirens(state: dict) -> int:
    """The danger level: legal-side cards on the rack plus the DEA agents the seat carries."""
    return state["turn"]["dea"] + sum(side(e["card"]) == "siren" for e in on_rack(state))


def guns(state: dict) -> int:
    return sum(side(e["card"]) == "gun" and e["status"] == "on" for e in rack(state))


def rack_count(state: dict) -> int:
    """Cards toward the 7-card time limit."""
    return len(on_rack(state))


def card_actions(state: dict) -> int:
    """Actions earned in Phase 1: 1 if the seat fled, else counted cards and DEA agents, at most 7."""
    if state["turn"]["bust"]:
        return 1
    counted = sum(e["status"] == "on" for e in rack(state)) + state["turn"]["dea"]
    return min(ACTION_LIMIT, counted)


def last(state: dict) -> dict | None:
    return rack(state)[-1] if rack(state) else None


def can_draw(state: dict) -> bool:
    """Another card may be turned: the deck has one, and the rack is under 7 (or a Press on the 7th forces an 8th)."""
    t = state["turn"]
    if not state["deck"] or t["peeked"] is not None or t["bust"]:
        return False
    return rack_count(state) < HAND_LIMIT or (t["press_owed"] and rack_count(state) == HAND_LIMIT)


def eliminable(state: dict) -> dict | None:
    """The card that may be eliminated now: the one just turned, if a Police, Military or Press."""
    entry = last(state)
    if entry and state["turn"]["fresh"] and entry["status"] == "on" and kind(entry["card"]) in ELIMINATE_COST:
        return entry
    return None


def lab_output(state: dict, seat: int) -> int:
    """Merchandise one Laboratory action makes: the lab's table at the Plantation's crops."""
    p = player(state, seat)
    return CARDS[p["laboratory"]]["table"][p["crops"] - 1]


def merchandise_left(state: dict) -> int:
    """White cubes in the supply: the box's 50 less those in the networks, the Police Warehouse and on this
    turn's Police cards (sold, lost and basic-mode confiscated merchandise goes back to the supply)."""
    in_play = sum(p["lab"] + p["stored"] for p in state["players"])
    return MERCHANDISE - in_play - state["warehouse"]["goods"] - state["turn"]["confiscated"]["goods"]


def crops_left(state: dict) -> int:
    """Brown cubes in the supply: the box's 12 less the crops planted (a burned crop goes back)."""
    return CROPS - sum(p["crops"] for p in state["players"])


def production(state: dict, seat: int) -> int:
    """What one Laboratory action makes now: its table's output, no more than the white cubes left."""
    return min(lab_output(state, seat), merchandise_left(state))


def capacity(card: str) -> int:
    return CARDS[card]["capacity"]


def room(state: dict, seat: int) -> int:
    p = player(state, seat)
    return capacity(p["storage"]) - p["stored"]


def ship_units(state: dict, seat: int) -> int:
    """What one Transport action moves: the card's capacity, limited by the lab's stock and the Storage's room."""
    p = player(state, seat)
    return max(0, min(capacity(p["transport"]), p["lab"], room(state, seat)))


def crop_price(state: dict, seat: int) -> int | None:
    """Price of the next crop, None when the Plantation is full."""
    crops = player(state, seat)["crops"]
    return PLANTATION["crop_prices"][crops] if crops < PLANTATION["slots"] else None


def dealers_free(state: dict) -> list[str]:
    """Dealers on the rack nobody has sold to this turn."""
    used = state["turn"]["used_dealers"]
    return [e["card"] for e in rack(state)
            if e["status"] == "on" and kind(e["card"]) == "dealer" and e["card"] not in used]


def improvements_free(state: dict) -> list[str]:
    """Laboratory, Transport and Storage cards on the rack not bought yet."""
    return [e["card"] for e in rack(state)
            if e["status"] == "on" and kind(e["card"]) in IMPROVEMENTS and e["card"] not in state["turn"]["bought"]]


def city_of_fallback(state: dict) -> str:
    """The −2 city: the permanent Dealer's (basic) or the board's «−2» token (advanced)."""
    if state["mode"] == "advanced":
        return next(city for city, token in state["tokens"].items() if token == CITY_TOKENS[0])
    return CARDS[state["permanent"]]["city"]


def fallback_open(state: dict, seat: int) -> bool:
    """The −2 Dealer: once a turn, to the seat whose turn it is; in basic mode only with no Dealer free."""
    t = state["turn"]
    if seat != t["seat"] or t["fallback_used"]:
        return False
    return state["mode"] == "advanced" or not dealers_free(state)


def richest(state: dict, holder: int | None, start: int) -> int:
    """Who has the most money; the holder keeps a tie, else the first tied seat in turn order from `start`."""
    money = [p["money"] for p in state["players"]]
    top = max(money)
    if holder is not None and money[holder] == top:
        return holder
    return next(s for s in ((start + i) % state["seats"] for i in range(state["seats"])) if money[s] == top)


def require(condition: bool, reason: str, rule: str) -> None:
    if not condition:
        raise IllegalMove(reason, rule=rule)


def require_turn(state: dict, seat: int, phases: tuple, rule: str) -> None:
    """IllegalMove unless it is `seat`'s turn in one of `phases`."""
    require(state.get("ended") is None, "the game is over", rule="end")
    t = state["turn"]
    require(t["phase"] in phases, f"this is not possible in the {t['phase']} step of the turn", rule)
    require(seat == t["seat"], f"it is seat {t['seat']}'s turn", rule)
