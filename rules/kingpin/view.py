"""What a seat sees (Kingpin's table is open information), the outcome, and state invariants."""
from __future__ import annotations

from rules.kingpin.guards import FACE_NAMES
from rules.kingpin.state import dice_pool, regulators_on, usable_against_others


def card_view(state: dict, card_id: str) -> dict:
    """One card as a frontend draws it: printed values plus its live status."""
    c = state["cards"][card_id]
    k = state["catalog"]["kinds"][c["kind"]]
    out = {"id": card_id, "kind": c["kind"], "type": c["type"], "name": k["name"], "owner": c["owner"],
           "where": c["where"]}
    if c["type"] == "truck":
        out.update(size=k["size"], hits=c["hits"], empty=c["hits"] == 0)
    elif c["type"] == "dealer":
        out.update(size=k["size"], hits=c["hits"], max_hits=k["size"])
    elif c["type"] == "junkie":
        out.update(cash=c["cash"], cash_on_hand=k["cash_on_hand"], payday=k["payday"], max_pay=k["max_pay"],
                   od=k["od"])
    else:
        out.update(special=c["special"], status="exhausted" if c["exhausted"] else "active",
                   target=c["target"], acquired_turn=c["acquired"],
                   ready=(not c["exhausted"]) and usable_against_others(state, card_id))
        for extra in ("bribe", "bounty"):
            if extra in k:
                out[extra] = k[extra]
    if c["where"] == "jail":
        out["status"] = "jailed"
    return out


def view(state: dict, seat: int | None) -> dict:
    """The whole table (nothing in Kingpin is hidden) plus "you"."""
    players = []
    for s in range(state["seats"]):
        mine = [cid for cid, c in state["cards"].items() if c["owner"] == s]
        players.append({
            "seat": s,
            "bankroll": state["bankrolls"][s],
            "cards": [card_view(state, cid) for cid in mine if state["cards"][cid]["where"] == "play"],
            "jailed": [card_view(state, cid) for cid in mine if state["cards"][cid]["where"] == "jail"],
            "regulated_by": regulators_on(state, s),
            "dice_pool": dice_pool(state, s),
        })
    kinds = state["catalog"]["kinds"]
    stacks = {k: {"remaining": len(state["stacks"][k]), "price": kinds[k]["price"], "type": kinds[k]["type"],
                  "name": kinds[k]["name"],
                  **{f: kinds[k][f] for f in ("size", "cash_on_hand", "payday", "max_pay", "od", "special",
                                               "bribe", "bounty") if f in kinds[k]}}
              for k in state["catalog"]["order"]}
    return {
        "game": "kingpin",
        "you": seat,
        "target": state["options"]["target"],
        "turn_limit": state["options"].get("turn_limit", 0),
        "turn": state["turn"],
        "current": state["current"],
        "phase": state["phase"],
        "players": players,
        "stacks": stacks,
        "jail": [card_view(state, cid) for cid, c in state["cards"].items() if c["where"] == "jail"],
        "removed": list(state["removed"]),
        "dice": [{"face": f, "action": FACE_NAMES[f], "used": u} for f, u in zip(state["dice"], state["used"])],
        "roll_given_up": state["given_up"],
        "bought_this_turn": list(state["bought"]),
        "bailed_this_turn": state["bailed"],
        "shipments_blocked_this_turn": list(state["blocked"]),
        "pending": state["pending"],
        "window": state["window"],
        "first_player_rolls": state["first_rolls"],
        "outcome": state["result"],
    }


def outcome(state: dict) -> dict | None:
    """None while playing, else {"winners", "reason", "bankrolls"}."""
    return state["result"]


def invariants(state: dict) -> list[str]:
    """Violated invariants: money balances with the bank, cards are conserved, limits hold."""
    bad = []
    cards = state["cards"]
    held = sum(state["bankrolls"]) + sum(c["cash"] for c in cards.values() if c["type"] == "junkie")
    if held != state["bank_net"]:
        bad.append(f"money: bankrolls + junkie cash = {held} but the bank paid out {state['bank_net']} net")
    if any(b < 0 for b in state["bankrolls"]):
        bad.append(f"negative bankroll {state['bankrolls']}")
    kinds = state["catalog"]["kinds"]
    for kind, entry in kinds.items():
        ids = [cid for cid, c in cards.items() if c["kind"] == kind]
        if sorted(ids) != sorted(entry["ids"]):
            bad.append(f"{kind}: card ids changed")
        in_stack = [cid for cid in ids if cards[cid]["where"] == "stack"]
        if sorted(in_stack) != sorted(state["stacks"][kind]):
            bad.append(f"{kind}: stack {state['stacks'][kind]} != cards marked in stack {in_stack}")
    for cid, c in cards.items():
        if c["where"] == "stack" and c["owner"] is not None:
            bad.append(f"{cid} is in its stack but owned")
        if c["where"] != "stack" and c["owner"] is None:
            bad.append(f"{cid} is out of its stack but unowned")
        if c["where"] == "jail" and c["type"] == "truck":
            bad.append(f"{cid}: a Supply Truck in Jail")
        if c["where"] == "removed" and c["type"] == "truck":
            bad.append(f"{cid}: a Supply Truck removed from the game")
        if c["type"] in ("truck", "dealer") and not 0 <= c["hits"] <= kinds[c["kind"]]["size"]:
            bad.append(f"{cid} holds {c['hits']} hits")
        if c["type"] == "junkie" and (c["cash"] < 0 or (c["where"] != "play" and c["cash"])):
            bad.append(f"{cid} has cash {c['cash']} while {c['where']}")
        if c["type"] == "special" and c["target"] is not None and (c["where"] != "play" or c["special"] != "regulator"
                                                                   or c["target"] == c["owner"]):
            bad.append(f"{cid} targets seat {c['target']} while {c['where']}")
    if sorted(state["removed"]) != sorted(cid for cid, c in cards.items() if c["where"] == "removed"):
        bad.append("removed list disagrees with the cards")
    for s in range(state["seats"]):
        for type_ in ("truck", "dealer"):
            if not any(c["owner"] == s and c["where"] == "play" and c["type"] == type_ for c in cards.values()):
                bad.append(f"seat {s} has no {type_} in play")
    return bad
