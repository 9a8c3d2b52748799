"""Druglord Rule 3 Load Weight: WV drawn from the supply, own Supply Capacity first, excess elsewhere,
overflow to the Traphouse; loading is simultaneous."""
from __future__ import annotations

from rules.druglord import load
from tests.rules.druglord.support import D, first, given, legal, play, refused, table, types


def loading(empires, version=None):
    """The Region Phase's Load Weight step for these empires."""
    state = table(empires, version=version)
    return given(state, load.loading_started(state))


def lw(source, to, weight, units=1):
    return {"type": "LoadWeight", "from": source, "to": to, "weight": weight, "units": units}


def test_everyone_loads_at_once_and_the_timeout_loads_by_default():
    # Druglord 3: "Draw Weight equal to the total Weight Value of all Regions" -- every player at the same time.
    state = loading([["FS5"], ["AE4"]])
    assert D.awaiting(state) == {0: "move", 1: "move"}
    assert state["loading"][0] == {"production": {"FS5": 3}, "own": {"FS5": 2}, "room": {"FS5": 0}}
    assert D.on_timeout(state, 1) == {"type": "LoadDefault"}


def test_a_region_fills_its_own_capacity_first_with_its_own_types():
    # Druglord 3: "This weight is first filled with WV from the Region, before any excess WV is used to fill other
    # cards."  "Weight placed must match the supply represented, but may be in any combination."
    state = loading([["FS5", "AE3"], ["AE1"]])        # Southwest WV 3 SC 2 (R/P); Belgium WV 2 SC 3 (P/R)
    assert {(m["to"], m["weight"]) for m in legal(state, 0) if m.get("from") == "FS5"} == {
        ("FS5", "reefer"), ("FS5", "pills")}
    refused(state, 0, lw("FS5", "AE3", "reefer"), rule="3", match="own Supply Capacity is filled first")
    refused(state, 0, lw("FS5", "FS5", "cocaine"), rule="3", match="produces")
    _, state = play(state, 0, lw("FS5", "FS5", "reefer"))
    _, state = play(state, 0, lw("FS5", "FS5", "pills"))
    # the 3rd unit is excess: it goes to Belgium's spare capacity (SC 3 - WV 2 = 1), not to the Traphouse
    assert {m["to"] for m in legal(state, 0) if m.get("from") == "FS5"} == {"AE3"}
    refused(state, 0, lw("FS5", "traphouse", "reefer"), rule="3", match="exceeds the total Supply Capacity")
    _, state = play(state, 0, lw("FS5", "AE3", "reefer"))
    assert state["weight"]["FS5"] == {"reefer": 1, "pills": 1, "cocaine": 0, "opiates": 0}
    assert state["weight"]["AE3"]["reefer"] == 1


def test_weight_beyond_all_supply_capacity_goes_to_the_traphouse():
    # Druglord 3: "If a Player's WV exceeds the Region Cards total SC, the excess Weight is immediately transferred
    # to the Player's Traphouse (Rule 7.)."
    state = loading([["FS5"], ["AE1"]])
    _, state = play(state, 0, lw("FS5", "FS5", "reefer", 2))
    assert [m for m in legal(state, 0) if m["type"] == "LoadWeight"] == [
        lw("FS5", "traphouse", "reefer"), lw("FS5", "traphouse", "pills")]
    _, state = play(state, 0, lw("FS5", "traphouse", "pills"))
    assert state["players"][0]["traphouse"]["pills"] == 1 and state["loading"][0] is None
    assert D.awaiting(state) == {1: "move"}                            # seat 1 is still loading
    assert state["supply"]["reefer"] == 56 and state["supply"]["pills"] == 57


def test_the_supply_limits_what_can_be_drawn():
    # Druglord components: "Weight Markers: 58 Reefer, 58 Pills, 30 Cocaine, 30 Opiates" -- a hard limit.
    state = loading([["CO3"], ["AE1"]])                               # Cali: WV 3, cocaine or reefer
    state = dict(state, supply=dict(state["supply"], cocaine=1), players=[
        dict(state["players"][0], traphouse=dict(state["players"][0]["traphouse"], cocaine=29)),
        state["players"][1]])
    assert max(m["units"] for m in legal(state, 0) if m.get("weight") == "cocaine") == 1
    refused(state, 0, lw("CO3", "CO3", "cocaine", 2), rule="3")
    state = dict(state, supply=dict(state["supply"], reefer=0), players=[
        dict(state["players"][0], traphouse=dict(state["players"][0]["traphouse"], reefer=58)),
        state["players"][1]])
    events, state = play(state, 0, lw("CO3", "CO3", "cocaine"))
    # nothing the region grows is left: the rest of its WV is forfeited
    assert first(events, "LoadingFinished") == {"seat": 0, "forfeited": 2}


def test_load_default_loads_toward_demand_and_finishes():
    # Druglord 3 (LoadDefault, our convenience): each unit is the type the seat's regions demand most.
    state = loading([["FS5", "AS2"], ["AE1"]])                         # Southwest wants R3 P2; New York R2 P2
    events, state = play(state, 0, {"type": "LoadDefault"})
    placements = first(events, "WeightLoaded")["placements"]
    assert sum(p[3] for p in placements) == 3 + 1 and state["loading"][0] is None
    assert state["weight"]["FS5"]["reefer"] + state["weight"]["FS5"]["pills"] == 2


def test_when_everyone_has_loaded_action_order_is_rolled():
    # Druglord 4: "Players roll for Action order, highest rolling player acting first."  (Version 2: at once;
    # version 3 opens a Sway window first: test_rules_version_3.py.)
    state = loading([["FS5"], ["AE1"]], version=2)
    _, state = play(state, 0, {"type": "LoadDefault"})
    events, state = play(state, 1, {"type": "LoadDefault"})
    assert types(events)[-2:] == ["ActionOrderRolled", "PhaseStarted"]
    assert state["phase"] == "action" and state["wtype"] == "reefer"



def test_a_seat_can_place_exactly_while_it_has_load_weight_moves():
    # Druglord 3: a seat finishes loading when the supply has none of its types left, Weight Value left or
    # not (load_step asks can_place, which must agree with the listed LoadWeight moves).
    state = loading([["FS5", "AE3"], ["AE1", "CO1"]])
    for step in range(60):
        if state["phase"] != "load":
            break
        for seat, entry in enumerate(state["loading"]):
            if entry is not None:
                assert load.can_place(state, entry) == any(m["type"] == "LoadWeight" for m in legal(state, seat))
        seat = min(D.awaiting(state))
        moves = legal(state, seat)                                   # (version 3: a seat may be asked only
        _, state = play(state, seat, moves[step % min(3, len(moves))])  # what its Regions store: 1-2 moves)
    else:
        raise AssertionError("loading did not finish")
    state = loading([["CO3"], ["AE1"]])                               # Cali: WV 3, cocaine or reefer
    assert load.can_place(state, state["loading"][0])
    state = dict(state, supply=dict(state["supply"], cocaine=0, reefer=0))
    assert not load.can_place(state, state["loading"][0]) and not legal(state, 0)
    assert load.can_place(state, state["loading"][1])
