"""Rule 3 Load Weight.

Each of your regions produces its Weight Value (WV) in units of the types it lists, drawn from the
supply (58/58/30/30 markers: what is not there cannot be drawn).  "This weight is first filled with
WV from the Region": min(WV, SC) units go onto the region itself; the rest of its WV may fill the
spare Supply Capacity (SC minus its own fill) of your other regions, in any of the producing region's
types; only what no spare capacity can hold goes to the Traphouse.

state["loading"][seat] = {"production": {region: units still to draw}, "own": {region: units still
due on itself}, "room": {region: spare SC left for other regions' excess}} while seat loads.
`LoadWeight` places one type from one source onto one place; `LoadDefault` places everything left.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.blocks.families import Family, one
from rules.druglord.data import BOARD, WEIGHT_TYPES
from rules.druglord.guards import region_name, require_phase
from rules.druglord.state import demand, produces, regions_of

RULE = "3"


def plan(state: dict, seat: int) -> dict | None:
    """The loading bookkeeping for a seat at the start of the Region Phase (None: nothing to load)."""
    mine = regions_of(state, seat)
    if not mine:
        return None
    regions = BOARD.regions
    return {"production": {r: regions[r].wv for r in mine},
            "own": {r: min(regions[r].wv, regions[r].sc) for r in mine},
            "room": {r: regions[r].sc - min(regions[r].wv, regions[r].sc) for r in mine}}


def loading_started(state: dict) -> Event:
    return Event("LoadingStarted", {"loads": [plan(state, s) for s in range(state["seats"])]})


def places(load: dict, source: str) -> list[str]:
    """Where the next unit from `source` may go: itself, spare room elsewhere, or the Traphouse."""
    if load["production"][source] <= 0:
        return []
    if load["own"][source] > 0:
        return [source]
    rooms = [r for r, n in sorted(load["room"].items()) if n > 0 and r != source]
    return rooms or ["traphouse"]


def limit(load: dict, source: str, to: str) -> int:
    """Units of the source that may go to `to` in one LoadWeight (before the supply limit)."""
    if to == source:
        return load["own"][source]
    if to == "traphouse":
        return load["production"][source]
    return min(load["production"][source], load["room"][to])


def families(state: dict, seat: int) -> list[Family]:
    """A LoadWeight family per source, place and type (its units 1..what fits and the supply has),
    then LoadDefault while anything can be placed."""
    load = state["loading"][seat] if state["phase"] == "load" else None
    if load is None:
        return []
    supply, production, own, room = state["supply"], load["production"], load["own"], load["room"]
    rooms = sorted(r for r, n in room.items() if n > 0)  # `places` for every source at once
    out = []
    for source in sorted(production):
        left = production[source]
        if left <= 0:
            continue
        if own[source] > 0:
            spots = ((source, own[source]),)
        else:
            spots = [(r, min(left, room[r])) for r in rooms if r != source] or [("traphouse", left)]
        for to, top in spots:  # top: `limit`
            for wtype in produces(source):
                most = min(top, supply[wtype])
                if most > 0:
                    out.append(({"type": "LoadWeight", "from": source, "to": to, "weight": wtype}, "units",
                                range(1, most + 1)))
    if out:
        out.append(one({"type": "LoadDefault"}))
    return out


def decide_load(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """LoadWeight{from, to, weight, units}."""
    require_phase(state, "load", "loading weight", RULE)
    load = state["loading"][seat]
    if load is None:
        raise IllegalMove("you have finished loading this turn", rule=RULE)
    source, to, wtype, units = cmd["from"], cmd["to"], cmd["weight"], cmd["units"]
    if source not in load["production"]:
        raise IllegalMove(f"{region_name(source)} is not one of your regions", rule=RULE)
    if load["production"][source] <= 0:
        raise IllegalMove(f"all of {region_name(source)}'s Weight Value is placed", rule=RULE)
    if wtype not in produces(source):
        raise IllegalMove(f"{region_name(source)} produces {', '.join(produces(source))}, not {wtype!r}; "
                          f"\"Weight placed must match the supply represented\"", rule=RULE)
    allowed = places(load, source)
    if to not in allowed:
        if load["own"][source] > 0:
            why = f"{region_name(source)}'s own Supply Capacity is filled first"
        elif to == "traphouse":
            why = "only Weight that exceeds the total Supply Capacity goes to the Traphouse"
        else:
            why = f"{region_name(to)} has no spare Supply Capacity of yours"
        raise IllegalMove(f"{why}; {region_name(source)}'s weight may go to {', '.join(allowed)}", rule=RULE)
    if units < 1 or units > limit(load, source, to):
        raise IllegalMove(f"{units} unit(s) do not fit: at most {limit(load, source, to)} from "
                          f"{region_name(source)} to {to}", rule=RULE)
    if units > state["supply"][wtype]:
        raise IllegalMove(f"only {state['supply'][wtype]} {wtype} markers are left in the supply", rule=RULE)
    return [Event("WeightLoaded", {"seat": seat, "placements": [[source, to, wtype, units]]})]


def default_placements(state: dict, seat: int) -> list[list]:
    """Everything left, loading toward Demand: each unit is the producible type (still in the supply)
    that the seat's regions want most relative to what is already loaded; excess fills the roomiest
    region, then the Traphouse."""
    load = {k: dict(v) for k, v in state["loading"][seat].items()}
    supply = dict(state["supply"])
    mine = regions_of(state, seat)
    want = {t: sum(demand(r, t) for r in mine) for t in WEIGHT_TYPES}
    have = {t: sum(state["weight"][r][t] + state["stored"][r][t] for r in mine) for t in WEIGHT_TYPES}
    out: list[list] = []
    for source in sorted(load["production"]):
        while load["production"][source] > 0:
            types = [t for t in produces(source) if supply[t] > 0]
            if not types:
                break
            wtype = max(types, key=lambda t: (want[t] - have[t], -WEIGHT_TYPES.index(t)))
            to = source if load["own"][source] > 0 else _roomiest(load["room"], source)
            supply[wtype] -= 1
            have[wtype] += 1
            load["production"][source] -= 1
            if to == source:
                load["own"][source] -= 1
            elif to != "traphouse":
                load["room"][to] -= 1
            if out and out[-1][:3] == [source, to, wtype]:
                out[-1][3] += 1
            else:
                out.append([source, to, wtype, 1])
    return out


def _roomiest(room: dict, source: str) -> str:
    """Of the places `source`'s excess may go (`places`), the one with the most spare room (ties: the
    last region id), else the Traphouse."""
    best = None
    for region, left in room.items():
        if left > 0 and region != source and (best is None or (left, region) > best):
            best = (left, region)
    return "traphouse" if best is None else best[1]


def decide_default(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """LoadDefault: place all that is left by the default plan."""
    require_phase(state, "load", "loading weight", RULE)
    if state["loading"][seat] is None:
        raise IllegalMove("you have finished loading this turn", rule=RULE)
    placements = default_placements(state, seat)
    if not placements:
        raise IllegalMove("the supply has none of the weight your regions produce", rule=RULE)
    return [Event("WeightLoaded", {"seat": seat, "placements": placements})]


def can_place(state: dict, load: dict) -> bool:
    """Whether a seat loading has any LoadWeight listed (`families`): a region with Weight Value still
    to place and one of its types left in the supply -- every place `places` names has room for a unit."""
    supply = state["supply"]
    for source, left in load["production"].items():  # loops, not generators: asked for every seat loading
        if left > 0:                                   # after every command of the Region Phase
            for wtype in produces(source):
                if supply[wtype] > 0:
                    return True
    return False


def load_step(state: dict) -> list[Event]:
    """Seats that can place nothing more (the supply ran out of their types) finish, forfeiting the rest."""
    for seat, load in enumerate(state["loading"]):
        if load is not None and not can_place(state, load):
            return [Event("LoadingFinished", {"seat": seat, "forfeited": sum(load["production"].values())})]
    return []
