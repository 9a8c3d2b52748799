"""Bots: "random" (any legal move) and "greedy" (pushes its luck by the bust odds it can count from
public information only, then runs its network toward profit).

The greedy bot reads the seat's `view`, never the state's deck: the chance that the next card is a
siren is counted from the deck's public composition when it was shuffled (`pool`) less every card
turned since (`seen`); a card the Snitch showed it is in its own view.
"""
from __future__ import annotations

from collections import Counter

from rules.base import Rng
from rules.narcos.data import CARDS, KINDS, PLANTATION, cartel_kind, kind
from rules.narcos.sales import sale_event
from rules.narcos.view import view

USEFUL_ACTIONS = 6       # beyond this a turn rarely has anything left to do with an action
CARDS_PER_TURN = 4.5     # a rough length of a rack, to count the turns left


def siren_odds(v: dict) -> float:
    """P(next card is a siren) from the deck's composition at the shuffle less the cards seen since."""
    left = Counter(v["pool"])
    left.subtract(Counter(kind(c) for c in v["seen"]))
    total = sum(max(0, n) for n in left.values())
    if not total:
        return 1.0
    return sum(max(0, n) for k, n in left.items() if KINDS[k] == "siren") / total


def payments_at_two(v: dict) -> int:
    """What reaching 2 sirens would cost: the Police and Military on the rack."""
    return sum(kind(e["card"]) in ("police", "military") and e["status"] == "on" for e in v["turn"]["table"])


def keep_drawing(v: dict) -> bool:
    """Push on while the expected gain of one more action beats the expected loss."""
    t = v["turn"]
    earned, p = t["earned"], siren_odds(v)
    if earned >= USEFUL_ACTIONS:
        return False
    if t["sirens"] >= 2:  # a siren now means fleeing with a single action
        return (1 - p) * 1.0 > p * (earned - 1)
    cost = payments_at_two(v) if t["sirens"] == 1 else 0
    return (1 - p) * 1.0 + p * (1.0 - 0.5 * cost) > 0.3


def turns_left(v: dict) -> float:
    """My turns left in the game, roughly."""
    cards = v["deck_count"] + (v["reserve_count"] + len(v["discard"]) if v["round"] == 1 else 0)
    return cards / CARDS_PER_TURN / len(v["players"])


def best_sale(ruleset, state: dict, seat: int, moves: list[dict]) -> dict | None:
    """The delivery that pays most (public data only: Storage, cities, tokens); None if none pays."""
    best, value = None, 0
    for move in moves:
        if move["type"] not in ("Deliver", "SellFallback"):
            continue
        d = sale_event(state, seat, move.get("dealer"), move["workers"], 0).data
        gain = d["paid"] + d["bonus"] - (0.6 if move["workers"] else 0)
        if gain > value:
            best, value = move, gain
    return best


def improvement(v: dict, seat: int, moves: list[dict]) -> dict | None:
    """The investment that pays back soonest, if the game lasts long enough for it."""
    if turns_left(v) < 3:
        return None
    me = v["players"][seat]
    options = []
    for move in moves:
        if move["type"] == "AddCrop":
            gain = CARDS[me["laboratory"]]["table"][me["crops"]] - CARDS[me["laboratory"]]["table"][me["crops"] - 1]
            options.append((gain / PLANTATION["crop_prices"][me["crops"]], move))
        elif move["type"] == "Buy":
            card = CARDS[move["card"]]
            mine = CARDS[me[card["kind"]]]
            if card["kind"] == "laboratory":
                gain = card["table"][me["crops"] - 1] - mine["table"][me["crops"] - 1]
            else:
                gain = (card["capacity"] - mine["capacity"]) / 3
            options.append((gain / (card["price"] + (0 if v["turn"]["seat"] == seat else 1)), move))
    options = [o for o in options if o[0] > 0.25]
    return max(options, key=lambda o: o[0])[1] if options else None


def manage_move(ruleset, state: dict, v: dict, seat: int, moves: list[dict]) -> dict:
    """One Management decision: free Cartel abilities, sell when full, ship full loads, else produce."""
    t, me = v["turn"], v["players"][seat]
    by_type = {m["type"]: m for m in moves}
    for m in moves:
        if m["type"] == "PlayCartel" and cartel_kind(m["card"]) in ("bumper-crop", "secret-route", "rob-warehouse"):
            return m
    burn = [m for m in moves if m["type"] == "PlayCartel" and cartel_kind(m["card"]) == "burn-crops"]
    if burn:
        return max(burn, key=lambda m: v["players"][m["target"]]["money"])
    cap = CARDS[me["storage"]]["capacity"]
    room, ship = cap - me["stored"], min(CARDS[me["transport"]]["capacity"], me["lab"], cap - me["stored"])
    if t["actions"] > 0:
        dealers = [m for m in moves if m["type"] == "Deliver"]
        full = room == 0 or (t["actions"] == 1 and me["lab"] == 0)
        if me["stored"] and full and len({m["dealer"] for m in dealers}) >= 2:
            sale = best_sale(ruleset, state, seat, dealers)
            if sale:
                return sale
        if "Ship" in by_type and (me["lab"] >= min(CARDS[me["transport"]]["capacity"], room) or t["actions"] == 1):
            return by_type["Ship"]
        if "Produce" in by_type and (room > 0 or me["lab"] < 2 * CARDS[me["transport"]]["capacity"]):
            return by_type["Produce"]
        if "Ship" in by_type:
            return by_type["Ship"]
        return by_type.get("Produce") or by_type["EndActions"]  # no white cube left: nothing to make
    if ship > 0 or (room > 0 and turns_left(v) > 1):
        spare = [m for m in moves if m["type"] == "SpendCartel" and cartel_kind(m["card"]) in
                 ("tip-off", "recruit", "laundering", "burn-crops", "rob-warehouse", "lawyer")]
        if spare:
            return spare[0]
        keep = 2 if v["mode"] == "advanced" else 0
        if "SpendWorker" in by_type and me["workers"] > keep and ship > 0:
            return by_type["SpendWorker"]
    return by_type["EndActions"]


def greedy(ruleset, state: dict, seat: int, moves: list[dict]) -> dict:
    v = view(state, seat)
    t, me = v["turn"], v["players"][seat]
    by_type = {m["type"]: m for m in moves}
    phase = t["phase"]
    if v["window"] is not None:  # Burn the crops aimed at me: guard the crop if I can
        guards = [m for m in moves if m["type"] == "PlayCartel" and cartel_kind(m["card"]) == "crop-guards"]
        return guards[0] if guards else by_type["PassReaction"]
    if "PayPolice" in by_type:  # keep what is already in the Storage, nearer a sale
        return next((m for m in moves if m["type"] == "PayPolice" and m["source"] == "laboratory"), moves[0])
    if phase == "start":
        return by_type["PlayOn"]
    if phase == "draw":
        if "PlaceCard" in by_type:
            gun = CARDS[t["peeked"]].get("side") == "gun"  # no DeclineCard before a first card (version 2)
            return by_type["PlaceCard"] if gun else by_type.get("DeclineCard", by_type["PlaceCard"])
        lawyer = [m for m in moves if m["type"] == "PlayCartel" and cartel_kind(m["card"]) == "lawyer"]
        if t["fresh"] and t["sirens"] >= 2 and (lawyer or "Eliminate" in by_type):
            return lawyer[0] if lawyer else by_type["Eliminate"]
        if "Peek" in by_type:
            return by_type["Peek"]
        if "Draw" in by_type and ("Stop" not in by_type or keep_drawing(v)):
            return by_type["Draw"]
        return by_type.get("Stop") or moves[0]
    if phase == "bonus":
        return {"type": "ChooseBonus", "choice": "cartel"}
    if phase == "manage":
        return manage_move(ruleset, state, v, seat, moves)
    if phase in ("close", "sales"):
        sale = best_sale(ruleset, state, seat, moves)
        if sale and (sale["type"] == "Deliver" or me["stored"] >= 3):
            return sale
        return by_type.get("CollectSales") or by_type["PassSale"]
    if phase == "improve":
        return improvement(v, seat, moves) or by_type["PassImprovement"]
    choice = improvement(v, seat, moves) if turns_left(v) >= 5 else None
    return choice or by_type["PassBuy"]


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    moves = ruleset.legal_moves(state, seat)
    if level == "greedy":
        return greedy(ruleset, state, seat, moves)
    return rng.choice(moves)
