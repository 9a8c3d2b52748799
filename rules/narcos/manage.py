"""Phase 2, Network Management (6.2): actions on the network (Laboratory, Transport), extra actions
from workers and Cartel card backs, deliveries to Dealers mid-phase (1 action) and at the end (free),
collecting sales, and the leftover Dealers other seats use in turn order."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.narcos.sales import check_sale, sale_event
from rules.narcos.state import (
    dealers_free,
    fallback_open,
    player,
    production,
    require,
    require_turn,
    ship_units,
)

RULE = "6.2"
DEA_ACTIONS = 5  # "si un jugador llega a realizar 5 o más acciones"


def require_action(state: dict) -> None:
    require(state["turn"]["actions"] > 0, "you have no action left: spend a worker or a Cartel card back, "
            "or end your actions", RULE)


def decide_produce(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Laboratory: one action makes what its table shows for your crops."""
    require_turn(state, seat, ("manage",), "6.2 Laboratory")
    require_action(state)
    units = production(state, seat)
    require(units > 0, "no white cube is left in the supply: sell merchandise before producing more", "3")
    return [Event("Produced", {"seat": seat, "units": units, "cost": 1})]


def decide_ship(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Transport: one action moves up to the card's capacity from the Laboratory to the Storage."""
    require_turn(state, seat, ("manage",), "6.2 Transport")
    require_action(state)
    units = ship_units(state, seat)
    require(units > 0, "nothing to ship: the Laboratory is empty or the Storage full", "6.2 Storage")
    return [Event("Shipped", {"seat": seat, "units": units, "cost": 1})]


def sale_cost(state: dict, seat: int) -> int:
    """Mid-phase a delivery costs an action; the end-of-Management one and a leftover Dealer cost none."""
    t = state["turn"]
    if t["phase"] == "manage" and seat == t["seat"]:
        require_action(state)
        return 1
    if t["phase"] == "close" and seat == t["seat"]:
        require(not t["free_used"], "the free delivery at the end of Management is used", "6.2 Dealers")
        return 0
    if t["phase"] == "sales" and t["queue"] and sales_head(state) == seat:
        return 0
    require(False, "you cannot deliver to a Dealer now", "6.2 Dealers")
    return 0


def decide_deliver(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Move your whole Storage to a Dealer on the rack."""
    require(state.get("ended") is None, "the game is over", "end")
    cost = sale_cost(state, seat)
    check_sale(state, seat, command["dealer"], command["workers"])
    events = [sale_event(state, seat, command["dealer"], command["workers"], cost)]
    if state["turn"]["phase"] == "sales":  # a leftover sale is collected at once
        d = events[0].data
        events.append(Event("SalesCollected", {"seat": seat, "amount": player(state, seat)["uncollected"]
                                               + d["paid"] + d["bonus"]}))
    return events


def decide_fallback(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Sell your whole Storage to the −2 Dealer."""
    require(state.get("ended") is None, "the game is over", "end")
    require(state["turn"]["phase"] in ("manage", "close") and seat == state["turn"]["seat"],
            "the −2 Dealer is for the seat whose turn it is", "6.2 Dealers")
    cost = sale_cost(state, seat)
    check_sale(state, seat, None, command["workers"])
    return [sale_event(state, seat, None, command["workers"], cost)]


def decide_spend_worker(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Discard a worker for one more action."""
    require_turn(state, seat, ("manage",), "8")
    require(player(state, seat)["workers"] > 0, "you have no worker left", "8")
    return [Event("WorkerSpent", {"seat": seat})]


def decide_spend_back(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Place a Cartel card face down for one more action (which card stays secret)."""
    require_turn(state, seat, ("manage",), "7")
    require(command["card"] in player(state, seat)["hand"], "that Cartel card is not in your hand", "7")
    return [Event("CartelBackSpent", {"seat": seat, "secret": {"card": command["card"]}})]


def can_convert(state: dict, seat: int) -> bool:
    p = player(state, seat)
    return p["workers"] > 0 and p["money"] >= 2 and state["supply"] > 0


def decide_convert(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Pay a worker 2 million to become a sicario (at any moment you have the move)."""
    require(state.get("ended") is None, "the game is over", "end")
    require(can_convert(state, seat), "converting takes a worker, 2 million and a sicario left in the supply", "8")
    return [Event("WorkerConverted", {"seat": seat})]


def decide_end_actions(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Finish your actions (unused ones are lost); the free delivery and collecting follow."""
    require_turn(state, seat, ("manage",), RULE)
    return [Event("ActionsEnded", {"seat": seat, "unused": state["turn"]["actions"]})]


def decide_collect(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Collect your sales; the DEA agent watching notices 5 or more actions; leftover Dealers go round."""
    require_turn(state, seat, ("close",), "6.2 Collecting sales")
    t, events = state["turn"], []
    owed = player(state, seat)["uncollected"]
    if owed:
        events.append(Event("SalesCollected", {"seat": seat, "amount": owed}))
    if state["dea"]["actions"] == "watching" and t["performed"] >= DEA_ACTIONS:
        events.append(Event("DeaAgentMoved", {"agent": "actions", "seat": seat}))
    queue = [(seat + i) % state["seats"] for i in range(1, state["seats"])]
    return events + [Event("ManagementEnded", {"seat": seat, "performed": t["performed"], "queue": queue})]


def sales_head(state: dict) -> int | None:
    queue = state["turn"]["queue"]
    return queue[0] if queue else None


def decide_pass_sale(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Leave the remaining Dealers to the next seats."""
    require(state.get("ended") is None and state["turn"]["phase"] == "sales" and sales_head(state) == seat,
            "you have no leftover Dealer to answer", "6.2 Dealers")
    return [Event("SalePassed", {"seat": seat})]


def sales_automatic(state: dict) -> list[Event]:
    """The leftover round skips a seat with nothing to sell, and closes when no Dealer or seat is left."""
    head = sales_head(state)
    if head is None or not dealers_free(state):
        return [Event("SalesClosed", {"seat": state["turn"]["seat"]})]
    if player(state, head)["stored"] == 0:
        return [Event("SalePassed", {"seat": head})]
    return []


def sale_moves(state: dict, seat: int) -> list[dict]:
    """Deliveries the seat may make now (dealers on the rack, then the −2 Dealer)."""
    p = player(state, seat)
    if p["stored"] == 0:
        return []
    workers = [0, 1] if state["mode"] == "advanced" and p["workers"] > 0 else [0]
    moves = [{"type": "Deliver", "dealer": d, "workers": w} for d in dealers_free(state) for w in workers]
    t = state["turn"]
    if seat == t["seat"] and t["phase"] in ("manage", "close"):
        if fallback_open(state, seat):
            moves += [{"type": "SellFallback", "workers": w} for w in workers]
    return moves


def manage_moves(state: dict, seat: int) -> list[dict]:
    t, p = state["turn"], player(state, seat)
    moves = []
    if t["actions"] > 0:
        if production(state, seat) > 0:
            moves.append({"type": "Produce"})
        if ship_units(state, seat) > 0:
            moves.append({"type": "Ship"})
        moves += sale_moves(state, seat)
    if p["workers"] > 0:
        moves.append({"type": "SpendWorker"})
    moves += [{"type": "SpendCartel", "card": c} for c in sorted(set(p["hand"]))]
    moves.append({"type": "EndActions"})
    return moves


def close_moves(state: dict, seat: int) -> list[dict]:
    moves = [] if state["turn"]["free_used"] else sale_moves(state, seat)
    return moves + [{"type": "CollectSales"}]
