"""What a seat sees, the outcome, and invariants.

Public: the board, every piece, Lids, cash, offenses, Lids sold (the Scores card), passes, bets, the turn,
open offers, who has chosen at Airport Customs.  Secret: the order of both card stacks (nobody), the cards a
Dealer keeps (his alone; others see how many), and each hand chosen at Airport Customs until the reveal.
"""
from __future__ import annotations

from rules.trafficking.data import BOARD_DIGEST, CARDS
from rules.trafficking.state import HANDS, KILO


def _player(state: dict, seat: int, viewer: int | None) -> dict:
    p = state["players"][seat]
    out = {k: p[k] for k in ("role", "dealer", "square", "lids", "cash", "offenses", "sold", "out", "pass", "miss")}
    out.update(seat=seat, kept_count=len(p["kept"]), bet=p["bet"], to_sell=max(0, KILO - p["sold"]))
    if viewer == seat:
        out["kept"] = [{"card": c, "name": CARDS[c]["name"], "text": CARDS[c]["text"]} for c in p["kept"]]
    return out


def view(state: dict, seat: int | None) -> dict:
    turn, customs = state["turn"], state["customs"]
    return {
        "game": "trafficking", "you": seat, "board": BOARD_DIGEST, "phase": state["phase"], "narc": state["narc"],
        "order": list(state["order"]), "choosers": list(state["choosers"]),
        "players": [_player(state, s, seat) for s in range(state["seats"])],
        "turn": None if turn is None else {**{k: turn[k] for k in ("seat", "stage", "die", "choices", "how", "again",
                                                                  "transaction", "sell_die")},
                                           **({"card_sale": dict(turn["card_sale"])} if turn.get("card_sale") else {})},
        "customs": None if customs is None else {
            "dealer": customs["dealer"], "narc": customs["narc"], "hands": list(HANDS),
            "dealer_chosen": customs["hidden"] is not None, "narc_chosen": customs["guess"] is not None,
            **({"your_hand": customs["hidden"]} if seat == customs["dealer"] and customs["hidden"] else {}),
            **({"your_hand": customs["guess"]} if seat == customs["narc"] and customs["guess"] else {})},
        "hands": list(HANDS),
        "offers": [dict(o) for o in sorted(state["offers"]["open"].values(), key=lambda o: o["id"])],
        "stacks": {k: len(v) for k, v in state["decks"].items()},
        # the card last read aloud from each stack (put back under it): public, though the stack's order is not
        "shown": {k: state.get("shown", {}).get(k) for k in state["decks"]},
        "transit_passes_in_bank": state["passes"],
        "kilo": KILO,
        "result": state["result"],
        **({"lending": True, "loans": sorted((dict(x) for x in state["loans"].values()), key=lambda x: x["loan"])}
           if "loans" in state else {}),   # version 2's 17b option: loans are public
    }


def hidden_from(state: dict, seat: int) -> list:
    """The order of both stacks is nobody's to read."""
    return [list(d) for d in state["decks"].values() if len(d) > 1]


def outcome(state: dict) -> dict | None:
    return None if state["result"] is None else dict(state["result"])


def invariants(state: dict) -> list[str]:
    """Cards are conserved (32, each in one place), nobody holds negative Lids or cash, passes add up."""
    broken = []
    cards = [c for d in state["decks"].values() for c in d] + [c for p in state["players"] for c in p["kept"]]
    if sorted(cards) != sorted(CARDS):
        broken.append("the 32 cards are not each in exactly one place")
    for seat, p in enumerate(state["players"]):
        if p["lids"] < 0 or p["cash"] < 0:
            broken.append(f"seat {seat} holds {p['lids']} Lids and ${p['cash']}")
        if p["cash"] % 10:
            broken.append(f"seat {seat} holds ${p['cash']}, not a sum of Underground Bucks")
    if state["passes"] + sum(p["pass"] for p in state["players"] if p["out"] is None) > 8:
        broken.append("more than 8 THC Transit Passes")
    return broken
