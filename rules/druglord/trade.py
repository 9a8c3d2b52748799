"""Rule 5 Move Weight (Domestic, Land, Extended Land, Sea, Hybrid, Air), Rule 7 Traphouse export,
Rule 6 scoring, and the Sea Trade re-roll.

One Move Weight action is any number of trade rolls of the phase's weight type into ONE destination
region of yours ("Multiple Trades to the same destination can be attempted, 1 roll per attempt"):
the first `Trade` picks the destination, later ones must keep it, `EndAction` stops.  Each roll
carries 1+ units from one source over one route; all its units succeed or fail together.
"""
from __future__ import annotations

from rules import memo
from rules.base import Event, IllegalMove, Rng
from rules.blocks.families import Family
from rules.druglord import geo, trial
from rules.druglord.guards import region_name, require_actor, require_own_region
from rules.druglord.state import DEMAND, controlled, demand, usable
from rules.folding import rules_version

RULE = "5"
DOMESTIC, EXPORT = geo.TARGETS["domestic"], geo.TARGETS["export"]


def room_at(state: dict, region: str) -> int:
    """Units of this phase's type the region still takes this turn (its Demand less what arrived)."""
    return demand(region, state["wtype"]) - state["delivered"].get(region, 0)


def options(state: dict, seat: int, into: str | None = None) -> tuple[tuple[str, str, str, int, int], ...]:
    """(from, to, route, roll needed, max units) for every trade seat may roll now (only those into
    region `into`, if given: a destination's trades depend on no other destination).  Remembered by the
    base for the state this thread last asked (rules/memo.py): a Trade's handler asks about the state
    its bot or legality check just listed."""
    found = memo.peek(None, _every_option, state, seat)
    if found is None:
        if into is not None:
            return tuple(_options(state, seat, into))
        found = memo.remembered(None, _every_option, state, seat)
    return found if into is None else tuple(o for o in found if o[1] == into)


def _every_option(_: None, state: dict, seat: int) -> tuple[tuple[str, str, str, int, int], ...]:
    return tuple(_options(state, seat, None))


def can_trade(state: dict, seat: int) -> bool:
    """Whether `options` lists any trade, without finding routes: two regions always have one (Air
    Trade when nothing else joins them), so a destination with room needs only weight to send."""
    action = state["action"]
    if action is not None and action["kind"] != "move":
        return False
    wtype = state["wtype"]
    weight, stored = state["weight"], state["stored"]
    mine = [r for r, s in state["owner"].items() if s == seat]
    dests = [to for to, _ in _rooms(state, seat, mine)]
    if not dests:
        return False
    if usable(state, seat, wtype) > 0 or any(weight[to][wtype] + stored[to][wtype] >= 2 for to in dests):
        return True
    loaded = [r for r in mine if weight[r][wtype] > 0]
    return any(source != to for to in dests for source in loaded)


def _rooms(state: dict, seat: int, mine: list[str], into: str | None = None) -> list[tuple[str, int]]:
    """(region, units it still takes) for each region seat may trade into now: one of `mine` (the
    seat's regions) with Demand left, during a Move Weight action only its destination; only `into`
    if given.  `room_at` of each, from the Demand table."""
    action = state["action"]
    if action is None:
        dests = mine if into is None else [to for to in mine if to == into]
    else:
        to = action["to"]
        dests = [to] if (into is None or into == to) and state["owner"].get(to) == seat else []
    wants, delivered = DEMAND[state["wtype"]], state["delivered"]
    rooms = [(to, wants[to] - delivered.get(to, 0)) for to in dests]
    return [(to, room) for to, room in rooms if room > 0]


def _options(state: dict, seat: int, into: str | None) -> list[tuple[str, str, str, int, int]]:
    action = state["action"]
    if action is not None and action["kind"] != "move":
        return []
    wtype = state["wtype"]
    version = rules_version(state)
    mine, held, theirs = geo.held(state["owner"], seat, version)
    rooms = _rooms(state, seat, mine, into)
    if not rooms:
        return []
    weight, stored = state["weight"], state["stored"]
    penalty = state["players"][seat]["crackdowns"][wtype]
    spare = usable(state, seat, wtype)
    # the regions with this phase's weight loaded (the sources of Land, Sea, Hybrid and Air Trades)
    sources = [(source, weight[source][wtype]) for source in mine if weight[source][wtype] > 0]
    out = []
    for to, room in rooms:
        local = weight[to][wtype] + stored[to][wtype]
        if local >= 2:
            out.append((to, to, "domestic", DOMESTIC + penalty, min(local // 2, room)))
        for source, have in sources:
            if source != to:
                most = min(have, room)
                for route, need in geo.held_routes(source, to, theirs, held, version):
                    out.append((source, to, route, need + penalty, most))
        if spare > 0:
            out.append(("traphouse", to, "export", EXPORT + penalty, min(spare, room)))
    return out


def families(state: dict, seat: int) -> list[Family]:
    """One Trade family per option, its units 1..most."""
    return [({"type": "Trade", "from": f, "to": t, "route": r}, "units", range(1, most + 1))
            for f, t, r, _, most in options(state, seat)]


def decide_trade(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Trade{from, to, route, units}: lift the weight and start the trade roll (Sway comes next)."""
    require_actor(state, seat, RULE)
    action = state["action"]
    wtype = state["wtype"]
    source, to, route, units = cmd["from"], cmd["to"], cmd["route"], cmd["units"]
    if action is not None and action["kind"] != "move":
        raise IllegalMove("you already took your action this phase", rule="4")
    if action is not None and action.get("reroll"):
        raise IllegalMove("first decide on the failed Sea Trade: ReRoll or AcceptBust", rule="5.C")
    if action is not None and to != action["to"]:
        raise IllegalMove(f"this Move Weight action trades into {region_name(action['to'])}; one action is "
                          f"trades to one destination (\"Multiple Trades to the same destination\")", rule=RULE)
    require_own_region(state, seat, to, RULE)
    if demand(to, wtype) <= 0:
        raise IllegalMove(f"{region_name(to)} has no Demand for {wtype}", rule=RULE)
    if units < 1:
        raise IllegalMove("a trade moves at least 1 unit", rule=RULE)
    if units > room_at(state, to):
        raise IllegalMove(f"{region_name(to)} takes only {max(room_at(state, to), 0)} more {wtype} this turn "
                          f"(its Demand is {demand(to, wtype)})", rule=RULE)
    if source != "traphouse":
        require_own_region(state, seat, source, RULE)
    match = [o for o in options(state, seat, to) if o[:3] == (source, to, route)]
    if not match:
        raise IllegalMove(_why_no_route(state, seat, source, to, route), rule=geo.RULE_OF_ROUTE.get(
            geo.route_kind(route), RULE))
    _, _, _, need, most = match[0]
    if units > most:
        raise IllegalMove(f"only {most} unit(s) can go on this trade", rule=RULE)
    held = units * 2 if route == "domestic" else units
    return [Event("TradeDeclared", {"seat": seat, "from": source, "to": to, "route": route, "weight": wtype,
                                    "units": units, "held": held, "target": need,
                                    "ocean": geo.route_ocean(route), "reroll": False})]


def _why_no_route(state: dict, seat: int, source: str, to: str, route: str) -> str:
    wtype = state["wtype"]
    kind = geo.route_kind(route)
    if kind not in geo.ROUTE_WORDS:
        return f"unknown route {route!r}; routes: domestic, land, extended, sea:<ocean>, hybrid:<ocean>, air, export"
    if kind == "domestic":
        if source != to:
            return "a Domestic Trade stays inside one region (from = to)"
        return (f"a Domestic Trade needs at least 2 {wtype} on {region_name(to)} (exchange is 2 to 1)")
    if kind == "export":
        if source != "traphouse":
            return "an export comes from your Traphouse (from = \"traphouse\")"
        return f"you have no usable {wtype} in your Traphouse (Draw 2 weight waits for its next phase)"
    if source == "traphouse":
        return "Traphouse weight is moved with route \"export\""
    if state["weight"][source][wtype] <= 0:
        return f"{region_name(source)} has no {wtype} loaded this turn"
    if kind == "air":
        return (f"Air Trade is for \"weight that can be moved via no other means\"; "
                f"{region_name(source)} reaches {region_name(to)} by another route")
    return f"{geo.ROUTE_WORDS[kind]} is not possible from {region_name(source)} to {region_name(to)} ({route})"


def resolve(state: dict, roll: dict, naturals: dict, totals: dict, rng: Rng) -> list[Event]:
    """Rule 5 and 6: success scores one stack per unit; failure is a Case per unit (or a re-roll offer)."""
    seat = roll["roller"]
    ctx = roll["context"]
    data = {"seat": seat, **{k: ctx[k] for k in ("from", "to", "route", "weight", "units", "held", "target",
                                                 "ocean", "reroll")}}
    success = naturals["trade"] != 1 and totals["trade"] >= ctx["target"]
    if success:
        score = state["players"][seat]["score"] + ctx["units"]
        return [Event("TradeSucceeded", {**data, "stacks": ctx["units"], "score": score})]
    ocean = ctx["ocean"]
    if ocean is not None and rerolls_left(state, seat, ocean, ctx["from"], ctx["to"]) > 0:
        return [Event("TradeFailed", {**data, "reroll_offered": True, "cases_added": 0})]
    return bust(state, seat, data, "TradeFailed")


def bust(state: dict, seat: int, data: dict, event_type: str) -> list[Event]:
    """The weight is lost to the supply and becomes Cases; maybe a Trial.  "An unsuccessful Trade becomes a
    Case (Rule 8.), one per unit of Weight": version 2 counts every unit lost (a Domestic Trade loses 2 per
    unit traded), version 1 counted the units traded.  The region "responsible for bringing Player to
    Trial" is the supplying one; a Traphouse export has none from version 2 (version 1: the destination)."""
    lost = data["held"] if rules_version(state) >= 2 else data["units"]
    added = trial.cases_to_add(state, seat, lost)
    if data["from"] != "traphouse":
        responsible = data["from"]
    else:
        responsible = None if rules_version(state) >= 2 else data["to"]
    event = Event(event_type, {**data, "reroll_offered": False, "cases_added": added})
    return [event] + trial.after_bust(state, seat, data["weight"], added, responsible)


def rerolls_left(state: dict, seat: int, ocean: str, source: str, to: str) -> int:
    """Rule 5.C: one re-roll per 2 additional coastal regions of yours on that ocean, per turn."""
    allowance = geo.reroll_allowance(ocean, source, to, controlled(state, seat), rules_version(state))
    return allowance - state["rerolls"][seat].get(ocean, 0)


def offer_moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "ReRoll"}, {"type": "AcceptBust"}]


def _require_offer(state: dict, seat: int) -> dict:
    require_actor(state, seat, "5.C")
    action = state["action"]
    if action is None or action["kind"] != "move" or not action.get("reroll"):
        raise IllegalMove("there is no failed Sea Trade waiting for a re-roll decision", rule="5.C")
    return action["reroll"]


def decide_reroll(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """ReRoll: use one of this turn's re-rolls on that ocean; the roll starts again (new Sway)."""
    offer = _require_offer(state, seat)
    return [Event("RerollTaken", {"seat": seat, "ocean": offer["ocean"], "from": offer["from"],
                                  "to": offer["to"], "units": offer["units"]})]


def decide_accept_bust(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """AcceptBust: keep the failure; its units become Cases."""
    offer = _require_offer(state, seat)
    return bust(state, seat, {"seat": seat, **offer}, "BustAccepted")
