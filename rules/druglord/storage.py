"""Rule 5.A storing weight locally, version 3: the player chooses.

5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight may be
stored locally and combined with weight from subsequent turns to later complete the Domestic Trade."
Rule 5: "Any Weight not traded may be moved to the Traphouse".  Both say *may*: from version 3 each seat
holding such a Region chooses, in the Load Weight step of every turn, which of them keep their unit
stored when it is not traded (`StoreLocally{regions}`); the rest of each phase's untraded weight goes
to the Traphouse at the phase's end, as before.

"A Region that only produces 1" is read from its card: Weight Value 1 (it never produces a second unit
of any type in a turn, so alone it can never supply a Domestic pair), the type among those it produces,
and Demand for it.  Such a Region produces one unit a turn, so one choice a turn covers all four phases.
At most one unit is stored per type and Region (a second one would make the pair the rule stores for).
Versions 1 and 2 (actions.stores_locally) chose for the player.
state["storing"][seat]: None (not asked, or not answered this turn) or the Regions chosen.
"""
from __future__ import annotations

from itertools import combinations

from rules.base import Event, IllegalMove, Rng
from rules.druglord.data import BOARD
from rules.druglord.guards import region_name, require_phase
from rules.druglord.state import demand, produces, regions_of
from rules.ruleset import rules_version

RULE = "5.A"


def only_produces_one(region: str, wtype: str) -> bool:
    """5.A's Region: Weight Value 1, producing `wtype`, with local Demand for it."""
    return BOARD.regions[region].wv == 1 and wtype in produces(region) and demand(region, wtype) > 0


def offered(state: dict, seat: int) -> list[str]:
    """Seat's Regions that 5.A lets keep a unit stored, of some type they produce (sorted)."""
    return [r for r in regions_of(state, seat) if any(only_produces_one(r, t) for t in produces(r))]


def asking(state: dict) -> bool:
    """Whether the Load Weight step asks for storage choices (version 3)."""
    return rules_version(state) >= 3 and state["phase"] == "load" and state["roll"] is None


def awaited(state: dict) -> list[int]:
    """Seats still to choose what their Regions store this turn (asked at once, with their loading)."""
    if not asking(state):
        return []
    return [s for s in range(state["seats"]) if state["storing"][s] is None and offered(state, s)]


def moves(state: dict, seat: int) -> list[dict]:
    """Every choice: each subset of the offered Regions (everything stored first, nothing stored last)."""
    if seat not in awaited(state):
        return []
    regions = offered(state, seat)
    return [{"type": "StoreLocally", "regions": list(kept)}
            for n in range(len(regions), -1, -1) for kept in combinations(regions, n)]


def normalize(cmd: dict) -> dict:
    regions = cmd["regions"]
    return dict(cmd, regions=sorted(regions)) if all(isinstance(r, str) for r in regions) else cmd


def decide_store(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """StoreLocally{regions}: the Regions whose unit stays stored this turn when it is not traded; the rest
    of each phase's untraded weight goes to the Traphouse when the phase ends."""
    require_phase(state, "load", "choosing what to store", RULE)
    if rules_version(state) < 3:
        raise IllegalMove("the game's rules version stores weight for the player", rule=RULE)
    if not asking(state):
        raise IllegalMove("what to store is chosen in the Load Weight step", rule=RULE)
    allowed = offered(state, seat)
    if not allowed or state["storing"][seat] is not None:
        raise IllegalMove("you have no Region that may store weight (or you already chose this turn)", rule=RULE)
    regions = cmd["regions"]
    for region in regions:
        if region not in allowed:
            raise IllegalMove(f"{region_name(region)} cannot store weight: a Region stores 1 unit of a type only if "
                              f"it produces only 1 (Weight Value 1) and has Demand for it; yours: "
                              f"{', '.join(allowed)}", rule=RULE)
    if len(set(regions)) != len(regions):
        raise IllegalMove("name each Region once", rule=RULE)
    return [Event("StorageChosen", {"seat": seat, "stored": sorted(regions), "offered": allowed})]


def stores(state: dict, seat: int, region: str) -> int:
    """Units of this phase's type `region` keeps stored at the sweep (version 3: as its owner chose)."""
    chosen = state["storing"][seat]
    return 1 if chosen is not None and region in chosen and only_produces_one(region, state["wtype"]) else 0
