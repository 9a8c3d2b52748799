"""What a seat sees, and the outcome.

Public: every card turned (the rack, the discard pile, `seen` this round), the deck's size and
composition when shuffled, money (as green and gold cubes too), workers, sicarios, crops, network
cards and merchandise, the board (advanced), the DEA agents, Cartel cards played face up and how
many each seat holds.  Secret: the Narcos and Cartel deck orders (nobody), a Cartel hand and the
cards spent face down (their seat), the card a Snitch let the seat look at (that seat).
"""
from __future__ import annotations

from rules.narcos.data import GOLD
from rules.narcos.state import card_actions, crops_left, guns, merchandise_left, sirens


def cubes(money: int) -> dict:
    """Money as the box pays it: gold cubes of 5 million and green cubes of 1 ("1 oro vale por 5 millones")."""
    return {"gold": money // GOLD, "green": money % GOLD}


def _player(state: dict, seat: int, viewer: int | None) -> dict:
    p = state["players"][seat]
    out = {"seat": seat, "money": p["money"], "cubes": cubes(p["money"]), "uncollected": p["uncollected"],
           "workers": p["workers"], "sicarios": p["sicarios"], "crops": p["crops"],
           "laboratory": p["laboratory"], "lab": p["lab"], "transport": p["transport"], "storage": p["storage"],
           "stored": p["stored"], "hand_count": len(p["hand"]), "backs_spent": p["backs"]}
    if viewer == seat:
        out["hand"] = list(p["hand"])
    return out


def _turn(state: dict, viewer: int | None) -> dict:
    t = state["turn"]
    out = {k: t[k] for k in ("seat", "phase", "table", "agents", "activated", "owed", "press_owed", "bust", "actions",
                             "performed", "used_dealers", "fallback_used", "free_used", "queue", "bought",
                             "confiscated", "fresh")}
    out.update(sirens=sirens(state), guns=guns(state), looking=t["peeked"] is not None,
               earned=card_actions(state) if t["phase"] == "draw" else t["actions"])
    if viewer == t["seat"] and t["peeked"] is not None:
        out["peeked"] = t["peeked"]
    return out


def _window(window: dict | None) -> dict | None:
    """A reaction asked of a seat on another's turn (public: who is asked, by whom, with which card)."""
    if window is None:
        return None
    return {"kind": window["kind"], "waiting": list(window["waiting"]), "attacker": window["attacker"],
            "card": window["card"]}


def view(state: dict, seat: int | None) -> dict:
    """The table as `seat` (None: a spectator) may see it."""
    return {
        "game": "narcos", "you": seat, "mode": state["mode"], "round": state["round"],
        "deck_count": len(state["deck"]), "pool": dict(state["pool"]), "seen": list(state["seen"]),
        "reserve_count": len(state["reserve"]), "discard": list(state["discard"]),
        "cartel_deck_count": len(state["cartel_deck"]), "cartel_played": list(state["cartel_discard"]),
        "permanent_dealer": state["permanent"], "tokens": state["tokens"], "warehouse": dict(state["warehouse"]),
        "cities": {c: list(n) for c, n in state["cities"].items()}, "sicario_supply": state["supply"],
        "dea": dict(state["dea"]), "current": state["turn"]["seat"], "turn": _turn(state, seat),
        "window": _window(state["window"]),
        "supply": {"merchandise": merchandise_left(state), "crops": crops_left(state)},
        "players": [_player(state, s, seat) for s in range(state["seats"])],
        "outcome": outcome(state),
    }


def outcome(state: dict) -> dict | None:
    ended = state["ended"]
    if ended is None:
        return None
    return {"winners": list(ended["winners"]), "reason": ended["reason"], "money": list(ended["money"])}


def hidden_from(state: dict, seat: int) -> list:
    """Values no seat may read while playing: the deck orders (when more than one card is left)."""
    return [order for order in (state["deck"], state["cartel_deck"]) if len(order) > 1]
