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

Version 4 reads "only produces 1 of a type" per type, as the text says: a Region loaded with at most one unit
of the type this turn (`state["placed"]`: what the Load Weight step and Baller bonus weight put on it), with
Demand for it -- so a Weight Value 2 Region loaded with one unit of each of two types may store either, and a
Weight Value 1 Region that also received another Region's excess of its type (two units: a Domestic pair) may
not.  And it asks when the rules put the choice, "Any Weight not traded may be moved to the Traphouse": at
the end of each action phase, once every seat has acted, each seat holding such a Region with untraded weight
of the phase's type chooses which of them keep one unit stored (state["storing"] is reset each phase).
"""
from __future__ import annotations

from itertools import combinations

from rules.base import Event, IllegalMove, Rng
from rules.druglord.data import BOARD
from rules.druglord.guards import region_name, require_phase
from rules.druglord.state import actor, demand, produces, regions_of
from rules.folding import rules_version

RULE = "5.A"


def only_produces_one(region: str, wtype: str) -> bool:
    """5.A's Region: Weight Value 1, producing `wtype`, with local Demand for it."""
    return BOARD.regions[region].wv == 1 and wtype in produces(region) and demand(region, wtype) > 0


def offered(state: dict, seat: int) -> list[str]:
    """Seat's Regions that 5.A lets keep a unit stored, of some type they produce (sorted)."""
    return [r for r in regions_of(state, seat) if any(only_produces_one(r, t) for t in produces(r))]


def loaded_this_turn(state: dict, region: str, wtype: str) -> int:
    """Version 4: units of `wtype` put on `region` this turn (loading, Baller bonus weight)."""
    return state["placed"].get(region, {}).get(wtype, 0)


def only_produced_one(state: dict, region: str, wtype: str) -> bool:
    """Version 4's 5.A Region for `wtype`: at most one unit of it loaded this turn, and local Demand for it."""
    return demand(region, wtype) > 0 and loaded_this_turn(state, region, wtype) <= 1


def phase_offered(state: dict, seat: int) -> list[str]:
    """Version 4: seat's Regions holding untraded weight of the phase's type that 5.A lets keep a unit stored."""
    wtype, weight, stored = state["wtype"], state["weight"], state["stored"]
    return [r for r in regions_of(state, seat)
            if weight[r][wtype] + stored[r][wtype] > 0 and only_produced_one(state, r, wtype)]


def offered_now(state: dict, seat: int) -> list[str]:
    """The Regions the seat is asked about now (version 3: for the turn; version 4: for this phase's type)."""
    return phase_offered(state, seat) if rules_version(state) >= 4 else offered(state, seat)


def asking(state: dict) -> bool:
    """Whether storage choices are asked now: version 3 in the Load Weight step; version 4 at the end of an
    action phase, once every seat has acted (no action, roll or Endgame step pending)."""
    if rules_version(state) >= 4:
        return state["phase"] == "action" and state["roll"] is None and state["action"] is None \
            and actor(state) is None
    return rules_version(state) >= 3 and state["phase"] == "load" and state["roll"] is None


def awaited(state: dict) -> list[int]:
    """Seats still to choose what their Regions store (asked at once: with their loading in version 3, at the
    phase's end in version 4)."""
    if not asking(state):
        return []
    return [s for s in range(state["seats"]) if state["storing"][s] is None and offered_now(state, s)]


def moves(state: dict, seat: int) -> list[dict]:
    """Every choice: each subset of the offered Regions (everything stored first, nothing stored last)."""
    if seat not in awaited(state):
        return []
    regions = offered_now(state, seat)
    return [{"type": "StoreLocally", "regions": list(kept)}
            for n in range(len(regions), -1, -1) for kept in combinations(regions, n)]


def normalize(cmd: dict) -> dict:
    regions = cmd["regions"]
    return dict(cmd, regions=sorted(regions)) if all(isinstance(r, str) for r in regions) else cmd


def decide_store(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """StoreLocally{regions}: the Regions whose unit stays stored this turn when it is not traded; the rest
    of each phase's untraded weight goes to the Traphouse when the phase ends."""
    v4 = rules_version(state) >= 4
    require_phase(state, "action" if v4 else "load", "choosing what to store", RULE)
    if rules_version(state) < 3:
        raise IllegalMove("the game's rules version stores weight for the player", rule=RULE)
    if not asking(state):
        raise IllegalMove("what to store is chosen at the end of an action phase, once every seat has acted" if v4
                          else "what to store is chosen in the Load Weight step", rule=RULE)
    allowed = offered_now(state, seat)
    if not allowed or state["storing"][seat] is not None:
        raise IllegalMove("you have no Region that may store weight (or you already chose this "
                          f"{'phase' if v4 else 'turn'})", rule=RULE)
    regions = cmd["regions"]
    produced = ("a single unit of the phase's type loaded this turn" if v4 else "Weight Value 1")
    for region in regions:
        if region not in allowed:
            raise IllegalMove(f"{region_name(region)} cannot store weight: a Region stores 1 unit of a type only if "
                              f"it produces only 1 ({produced}) and has Demand for it; yours: "
                              f"{', '.join(allowed)}", rule=RULE)
    if len(set(regions)) != len(regions):
        raise IllegalMove("name each Region once", rule=RULE)
    return [Event("StorageChosen", {"seat": seat, "stored": sorted(regions), "offered": allowed})]


def stores(state: dict, seat: int, region: str) -> int:
    """Units of this phase's type `region` keeps stored at the sweep (from version 3: as its owner chose)."""
    chosen = state["storing"][seat]
    if chosen is None or region not in chosen:
        return 0
    if rules_version(state) >= 4:
        return 1 if only_produced_one(state, region, state["wtype"]) else 0
    return 1 if only_produces_one(region, state["wtype"]) else 0
