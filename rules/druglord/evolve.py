"""Druglord `evolve`: one small handler per event type.

`evolve` never rolls and never mutates its input: it shallow-copies the state
and copies only the containers an event changes.  Each handler takes `owned`
(rules/ruleset.py fold_in_place): True in a fold that has made the state its
own, where it skips those copies and changes the state in place.  The state's
shape is described in state.py.
"""
from __future__ import annotations

from typing import Any, Callable

from rules.base import Event
from rules.druglord.data import WEIGHT_TYPES
from rules.druglord.state import zero
from rules.ruleset import copy_containers as _copy
from rules.ruleset import evolve_by_type, rules_version


def _player(new: dict, owned: bool, seat: int, *keys: str) -> dict:
    """A private copy of one player (and of its named sub-dicts); new["players"] must be copied already.
    In an in-place fold (`owned`) the player itself, already private."""
    if owned:
        return new["players"][seat]
    player = dict(new["players"][seat])
    for key in keys:
        value = player[key]
        player[key] = dict(value) if isinstance(value, dict) else list(value)
    new["players"][seat] = player
    return player


def _region_table(new: dict, owned: bool, table: str, region: str) -> dict:
    """A private copy of new[table][region] ("weight" or "stored"); new[table] must be copied already
    (in an in-place fold, `owned`: the table itself)."""
    if owned:
        return new[table][region]
    per = dict(new[table][region])
    new[table][region] = per
    return per


def _supply_add(new: dict, wtype: str, units: int) -> None:
    """new["supply"] must be copied already."""
    new["supply"][wtype] += units


def _occupy(new: dict, seat: int, region: str) -> None:
    """Place a Region Marker (new owner/weight/stored copied already)."""
    new["owner"][region] = seat
    new["weight"][region] = zero()
    new["stored"][region] = zero()


def _vacate(new: dict, region: str) -> None:
    """Remove a Region Marker; the region's weight goes back to the supply (supply copied already)."""
    for table in ("weight", "stored"):
        for t, n in new[table].pop(region).items():
            new["supply"][t] += n
    del new["owner"][region]


# ----------------------------------------------------------------------------
# Setup, turns, draft
# ----------------------------------------------------------------------------

def _ev_game_started(state: Any, d: dict, owned: bool = False) -> dict:
    secret = d["secret"]
    n = d["seats"]
    return {
        "board": d["board"], "baller": d["baller"], "seats": n, "options": dict(d["options"]),
        "turn": 0, "phase": "empire", "wtype": None,
        "supply": dict(d["supply"]), "dime_bags": d["dime_bags"],
        "deck": list(secret["deck"]), "lost": [],
        "owner": {}, "weight": {}, "stored": {},
        "players": [{"score": 0, "traphouse": zero(), "locked": zero(), "cases": zero(), "crackdowns": zero(),
                     "hand": [], "drawn": [], "kept": None, "keep": d["keep"][s]} for s in range(n)],
        "draft": None, "loading": [None] * n, "order": [], "pos": 0, "delivered": {},
        "rerolls": [{} for _ in range(n)], "action": None, "roll": None,
        "baller_deck": list(secret["baller_deck"]), "baller_discard": [],
        "endgame": None, "scoop": None, "result": None, "rolloffs": {}, "last_roll": None,
        "storing": [None] * n,
    }


def _ev_region_cards_drawn(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    cards = d["secret"]["regions"]
    new["deck"] = state["deck"][len(cards):]
    _player(new, owned, d["seat"])["drawn"] = list(cards)
    return new


def _ev_empire_chosen(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    _player(new, owned, d["seat"])["kept"] = list(d["secret"]["regions"])
    return new


def _ev_empires_revealed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players", "owner", "weight", "stored")
    returned = []
    for seat, empire in enumerate(d["empires"]):
        player = _player(new, owned, seat)
        returned += [r for r in player["drawn"] if r not in empire]
        for region in empire:
            _occupy(new, seat, region)
        player["drawn"], player["kept"] = [], None
    new["deck"] = state["deck"] + returned
    new["phase"] = "between"
    return new


def _ev_deck_shuffled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["deck"] = list(d["secret"]["deck"])
    return new


def _ev_turn_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new.update(turn=d["turn"], rerolls=[{} for _ in range(state["seats"])], wtype=None, order=[], pos=0,
               action=None, roll=None, delivered={})
    return new


def _ev_draft_opened(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["deck"] = state["deck"][len(d["new"]):]
    new["lost"] = []
    new["phase"] = "draft"
    new["rolloffs"] = dict(state["rolloffs"], draft=d["rolloffs"])
    new["roll"] = None  # version 3: the roll-off that ranked the tied seats
    new["draft"] = {"offer": list(d["new"]) + [c["region"] for c in d["lost"]], "order": list(d["order"]),
                    "pos": 0, "claims": [{"region": c["region"], "seat": c["priority"]} for c in d["lost"]
                               if c["priority"] is not None], "claim_pos": 0,
                    "drawer": d["drawer"]}
    return new


def _ev_region_claimed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "owner", "weight", "stored")
    draft = dict(state["draft"])
    draft["offer"] = [r for r in draft["offer"] if r != d["region"]]
    draft["claim_pos"] += 1
    new["draft"] = draft
    _occupy(new, d["seat"], d["region"])
    return new


def _ev_claim_declined(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["draft"] = dict(state["draft"], claim_pos=state["draft"]["claim_pos"] + 1)
    return new


def _ev_region_drafted(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "owner", "weight", "stored")
    draft = dict(state["draft"])
    draft["offer"] = [r for r in draft["offer"] if r != d["region"]]
    draft["pos"] += 1
    new["draft"] = draft
    _occupy(new, d["seat"], d["region"])
    return new


def _ev_draft_declined(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["draft"] = dict(state["draft"], pos=state["draft"]["pos"] + 1)
    return new


def _ev_draft_closed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["deck"] = state["deck"] + list(d["returned"])
    new["draft"] = None
    return new


# ----------------------------------------------------------------------------
# Loading (Rule 3)
# ----------------------------------------------------------------------------

def _placed(new: dict, owned: bool, region: str, wtype: str, units: int) -> None:
    """Version 4: count units put on a region this turn (storage.py: "only produces 1 of a type")."""
    if not owned:
        new["placed"] = dict(new["placed"])
        new["placed"][region] = dict(new["placed"].get(region, {}))
    per = new["placed"].setdefault(region, {})
    per[wtype] = per.get(wtype, 0) + units


def _ev_loading_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["phase"] = "load"
    new["storing"] = [None] * state["seats"]  # version 3: asked again every turn (storage.py)
    if rules_version(state) >= 4:
        new["placed"] = {}  # what each region is loaded with this turn, by type
    new["loading"] = [None if load is None else {k: dict(v) for k, v in load.items()} for load in d["loads"]]
    return new


def _ev_weight_loaded(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "weight", "loading", "players")
    seat = d["seat"]
    load = new["loading"][seat]
    if not owned:
        load = {k: dict(v) for k, v in load.items()}
    player = new["players"][seat] if owned else _player(new, owned, seat, "traphouse")
    supply, weight = new["supply"], new["weight"]
    for source, to, wtype, units in d["placements"]:
        supply[wtype] -= units
        load["production"][source] -= units
        if to == "traphouse":
            player["traphouse"][wtype] += units
        else:
            (weight[to] if owned else _region_table(new, owned, "weight", to))[wtype] += units
            if "placed" in new:  # version 4
                _placed(new, owned, to, wtype, units)
            if to == source:
                load["own"][source] -= units
            else:
                load["room"][to] -= units
    new["loading"][seat] = None if not any(load["production"].values()) else load
    return new


def _ev_loading_finished(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "loading")
    new["loading"][d["seat"]] = None
    return new


# ----------------------------------------------------------------------------
# Action phases (Rule 4)
# ----------------------------------------------------------------------------

def _ev_action_order_rolled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new.update(order=list(d["order"]), pos=0, scoop=d["order"][0], roll=None,
               rolloffs=dict(state["rolloffs"], action=d["rounds"]))
    return new


def _ev_phase_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    wtype = d["wtype"]
    for seat in range(state["seats"]):
        if state["players"][seat]["locked"][wtype]:
            _player(new, owned, seat, "locked")["locked"][wtype] = 0
    new.update(phase="action", wtype=wtype, pos=0, delivered={}, action=None, roll=None)
    return new


def _ev_storage_chosen(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "storing")
    new["storing"][d["seat"]] = list(d["stored"])
    return new


def _ev_action_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["action"], new["pos"] = None, new["pos"] + 1
    return new


def _ev_phase_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "weight", "stored", "players")
    wtype = d["wtype"]
    for seat, region, to_trap, store in d["sweep"]:
        loaded = _region_table(new, owned, "weight", region)
        stored = _region_table(new, owned, "stored", region)
        loaded[wtype] = 0
        stored[wtype] = store
        if to_trap:
            _player(new, owned, seat, "traphouse")["traphouse"][wtype] += to_trap
    new.update(action=None, roll=None)
    if rules_version(state) >= 4:  # storage is chosen again at the next phase's end (storage.py)
        new["storing"] = [None] * state["seats"]
    return new


def _ev_turn_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new.update(action=None, roll=None, wtype=None, phase="between")
    return new


def _ev_game_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new.update(phase="over", action=None, roll=None, draft=None,
               result={"winners": list(d["winners"]), "reason": d["reason"], "scores": list(d["scores"]),
                       "rolloff": d["rolloff"]})
    return new


def _ev_passed(state: dict, d: dict, owned: bool = False) -> dict:
    return state


def _ev_weight_drawn(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "players")
    player = _player(new, owned, d["seat"], "traphouse", "locked")
    for wtype in d["weights"]:
        new["supply"][wtype] -= 1
        player["traphouse"][wtype] += 1
        player["locked"][wtype] += 1
    return new


# ----------------------------------------------------------------------------
# Rolls and Sway (Rule 7)
# ----------------------------------------------------------------------------

def _ev_roll_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["roll"] = new_roll(d["kind"], d["roller"], d["dice"], d["owners"], d["context"])
    return new


def _ev_sway_declared(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "players")
    units, seat, wtype = abs(d["units"]), d["seat"], d["weight"]
    (new["players"][seat] if owned else _player(new, owned, seat, "traphouse"))["traphouse"][wtype] -= units
    new["supply"][wtype] += units
    declared = [seat, d["die"], wtype, d["units"]]
    if owned:  # the roll and its list are the fold's own (new_roll made them, or the clone)
        new["roll"]["sway"].append(declared)
    else:
        roll = new["roll"] = dict(new["roll"])  # the roll, private to new
        roll["sway"] = roll["sway"] + [declared]
    return new


def _ev_declaration_closed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    roll = new["roll"] = new["roll"] if owned else dict(new["roll"])  # the roll, private to new
    roll["stage"], roll["waiting"] = "respond", list(d["responders"])
    return new


def _ev_sway_opened(state: dict, d: dict, owned: bool = False) -> dict:
    """Version 4's roll-off: the seats asked join those still answering."""
    new = state if owned else dict(state)
    roll = new["roll"] = new["roll"] if owned else dict(new["roll"])  # the roll, private to new
    roll["stage"], roll["waiting"] = "respond", sorted(set(roll["waiting"]) | set(d["responders"]))
    return new


def _ev_sway_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    roll = new["roll"] = new["roll"] if owned else dict(new["roll"])  # the roll, private to new
    roll["waiting"] = [s for s in roll["waiting"] if s != d["seat"]]
    return new


def _ev_roll_cast(state: dict, d: dict, owned: bool = False) -> dict:
    """The dice are recorded; the roll itself is cleared by the event that settles it."""
    new = state if owned else dict(state)
    new["last_roll"] = {"kind": d["kind"], "roller": d["roller"], "naturals": d["naturals"],
                        "modifiers": d["modifiers"], "totals": d["totals"]}
    return new


# ----------------------------------------------------------------------------
# Trades (Rule 5, 6)
# ----------------------------------------------------------------------------

def new_roll(kind: str, roller: int, dice: list, owners: dict, context: dict) -> dict:
    """A roll waiting for its roller's Sway declaration (Rule 7)."""
    return {"kind": kind, "roller": roller, "dice": list(dice), "owners": dict(owners), "context": dict(context),
            "stage": "declare", "waiting": [], "sway": [], "mods": []}


def _take_weight(new: dict, owned: bool, seat: int, source: str, wtype: str, held: int, domestic: bool) -> None:
    """Lift `held` units for a trade roll: from the Traphouse, or from a region (stored first for Domestic)."""
    if source == "traphouse":
        player = _player(new, owned, seat, "traphouse", "locked")
        player["traphouse"][wtype] -= held
        return
    stored = new["stored"][source][wtype]
    from_stored = min(stored, held) if domestic else 0
    if from_stored:
        _region_table(new, owned, "stored", source)[wtype] -= from_stored
    if held - from_stored:
        _region_table(new, owned, "weight", source)[wtype] -= held - from_stored


def _ev_trade_declared(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "weight", "stored", "players")
    _take_weight(new, owned, d["seat"], d["from"], d["weight"], d["held"], d["route"] == "domestic")
    if state["action"] is None:
        new["action"] = {"kind": "move", "seat": d["seat"], "to": d["to"], "rolls": 0, "reroll": None}
    new["action"] = dict(new["action"], rolls=new["action"]["rolls"] + 1)
    new["roll"] = new_roll("trade", d["seat"], ["trade"], {"trade": d["seat"]}, trade_context(d))
    return new


def trade_context(d: dict) -> dict:
    """What a trade roll carries: the trade, the weight riding on it and the roll it needs."""
    return {"from": d["from"], "to": d["to"], "route": d["route"], "weight": d["weight"], "units": d["units"],
            "held": d["held"], "target": d["target"], "ocean": d["ocean"], "reroll": d["reroll"]}


def _ev_trade_succeeded(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "players", "delivered")
    new["roll"] = None
    _supply_add(new, d["weight"], d["held"])
    _player(new, owned, d["seat"])["score"] += d["stacks"]
    new["delivered"][d["to"]] = new["delivered"].get(d["to"], 0) + d["units"]
    if state["action"] is not None and state["action"].get("reroll"):
        new["action"] = dict(state["action"], reroll=None)
    return new


def _add_cases(new: dict, owned: bool, seat: int, wtype: str, cases: int) -> None:
    if cases:
        _player(new, owned, seat, "cases")["cases"][wtype] += cases


def _ev_trade_failed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "players")
    new["roll"] = None
    if d["reroll_offered"]:
        new["action"] = dict(state["action"], reroll=trade_context(d))
        return new
    _supply_add(new, d["weight"], d["held"])
    _add_cases(new, owned, d["seat"], d["weight"], d["cases_added"])
    return new


def _ev_reroll_taken(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "rerolls")
    seat = d["seat"]
    new["rerolls"][seat] = dict(state["rerolls"][seat])
    new["rerolls"][seat][d["ocean"]] = new["rerolls"][seat].get(d["ocean"], 0) + 1
    context = dict(state["action"]["reroll"], reroll=True)
    new["action"] = dict(state["action"], reroll=None)
    new["roll"] = new_roll("trade", seat, ["trade"], {"trade": seat}, context)
    return new


def _ev_bust_accepted(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "players")
    _supply_add(new, d["weight"], d["held"])
    _add_cases(new, owned, d["seat"], d["weight"], d["cases_added"])
    new["action"] = dict(state["action"], reroll=None)
    return new


def _ev_endgame_triggered(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["endgame"] = d["seat"]
    return new


# ----------------------------------------------------------------------------
# Trial (Rule 8)
# ----------------------------------------------------------------------------

def _ev_region_lost(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "owner", "weight", "stored", "supply")
    _vacate(new, d["region"])
    new["lost"] = state["lost"] + [{"region": d["region"], "priority": d["priority"]}]
    return new


def _ev_crackdown_imposed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    if d["marker"]:
        # the Dime Bags only mark Crackdowns; from version 2 Crackdowns go on when they run out
        new["dime_bags"] = max(0, state["dime_bags"] - 1)
        _player(new, owned, d["seat"], "crackdowns")["crackdowns"][d["weight"]] += 1
    return new


def _ev_score_set_back(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    _player(new, owned, d["seat"])["score"] = d["to"]
    return new


def _ev_weight_removed(state: dict, d: dict, owned: bool = False) -> dict:
    """MassRaid, LocalBusts, AssetsSeized, WeightDestroyed: [[place, table, type, units]] back to the supply."""
    new = state if owned else _copy(state, "supply", "weight", "stored", "players")
    for place, table, wtype, units in d["removed"]:
        if place == "traphouse":
            player = _player(new, owned, d["seat"], "traphouse", "locked")
            player["traphouse"][wtype] -= units
            player["locked"][wtype] = min(player["locked"][wtype], player["traphouse"][wtype])
        else:
            _region_table(new, owned, table, place)[wtype] -= units
        new["supply"][wtype] += units
    return new


def _ev_cases_reset(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    _player(new, owned, d["seat"])["cases"] = zero()
    return new


def _ev_cases_cleared(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    player = _player(new, owned, d["seat"], "cases")
    for wtype, n in d["removed"].items():
        player["cases"][wtype] -= n
    return new


def _ev_trial_resolved(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["roll"] = None
    return new


# ----------------------------------------------------------------------------
# Violence (Rule 9)
# ----------------------------------------------------------------------------

def _ev_attack_declared(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["action"] = {"kind": "violence", "seat": d["seat"], "from": d["from"], "target": d["target"],
                     "defender": d["defender"], "round": "attack", "offer": None}
    return new


def _ev_war_resolved(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["roll"] = None
    action = new["action"] = new["action"] if owned else dict(new["action"])
    action["offer"] = d["offer"]
    return new


def _ev_attack_pressed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["action"] = dict(state["action"], round=d["round"], offer=None)
    return new


def _ev_counter_declined(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["action"] = dict(state["action"], offer=None)
    return new


def _ev_war_called_off(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["roll"] = None
    new["action"] = dict(state["action"], offer=None, called_off=True)
    return new


# ----------------------------------------------------------------------------
# Baller Moves (Rule 11)
# ----------------------------------------------------------------------------

def _ev_baller_drawn(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players")
    card = d["secret"]["card"]
    player = _player(new, owned, d["seat"], "hand")
    player["hand"].append(card)
    new["baller_deck"] = state["baller_deck"][1:]
    if d.get("keep_open"):
        new["action"] = {"kind": "draw_card", "seat": d["seat"]}
    return new


def _ev_baller_deck_shuffled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["baller_deck"] = list(d["secret"]["deck"])
    new["baller_discard"] = []
    return new


def _ev_card_played(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "players", "baller_discard")
    player = _player(new, owned, d["seat"], "hand")
    player["hand"].remove(d["card"])
    new["baller_discard"].append(d["card"])
    if d.get("die") is not None:
        roll = dict(state["roll"])
        roll["mods"] = roll["mods"] + [[d["seat"], d["card"], d["die"], d["amount"]]]
        new["roll"] = roll
    return new


def _ev_bonus_weight(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "supply", "weight")
    new["roll"] = None
    if d["units"]:
        new["supply"][d["weight"]] -= d["units"]
        _region_table(new, owned, "weight", d["region"])[d["weight"]] += d["units"]
        if "placed" in new:  # version 4: bonus weight is produced on the region too
            _placed(new, owned, d["region"], d["weight"], d["units"])
    return new


EVOLVERS: dict[str, Callable[[Any, dict], dict]] = {
    "GameStarted": _ev_game_started,
    "RegionCardsDrawn": _ev_region_cards_drawn,
    "EmpireChosen": _ev_empire_chosen,
    "EmpiresRevealed": _ev_empires_revealed,
    "DeckShuffled": _ev_deck_shuffled,
    "TurnStarted": _ev_turn_started,
    "DraftOpened": _ev_draft_opened,
    "RegionClaimed": _ev_region_claimed,
    "ClaimDeclined": _ev_claim_declined,
    "RegionDrafted": _ev_region_drafted,
    "DraftDeclined": _ev_draft_declined,
    "DraftClosed": _ev_draft_closed,
    "LoadingStarted": _ev_loading_started,
    "WeightLoaded": _ev_weight_loaded,
    "LoadingFinished": _ev_loading_finished,
    "ActionOrderRolled": _ev_action_order_rolled,
    "PhaseStarted": _ev_phase_started,
    "StorageChosen": _ev_storage_chosen,
    "ActionEnded": _ev_action_ended,
    "PhaseEnded": _ev_phase_ended,
    "TurnEnded": _ev_turn_ended,
    "GameEnded": _ev_game_ended,
    "Passed": _ev_passed,
    "WeightDrawn": _ev_weight_drawn,
    "RollStarted": _ev_roll_started,
    "SwayDeclared": _ev_sway_declared,
    "DeclarationClosed": _ev_declaration_closed,
    "SwayOpened": _ev_sway_opened,
    "SwayEnded": _ev_sway_ended,
    "RollCast": _ev_roll_cast,
    "TradeDeclared": _ev_trade_declared,
    "TradeSucceeded": _ev_trade_succeeded,
    "TradeFailed": _ev_trade_failed,
    "RerollTaken": _ev_reroll_taken,
    "BustAccepted": _ev_bust_accepted,
    "EndgameTriggered": _ev_endgame_triggered,
    "TrialResolved": _ev_trial_resolved,
    "RegionLost": _ev_region_lost,
    "CrackdownImposed": _ev_crackdown_imposed,
    "ScoreSetBack": _ev_score_set_back,
    "WeightRemoved": _ev_weight_removed,
    "CasesReset": _ev_cases_reset,
    "CasesCleared": _ev_cases_cleared,
    "AttackDeclared": _ev_attack_declared,
    "WarResolved": _ev_war_resolved,
    "AttackPressed": _ev_attack_pressed,
    "WarCalledOff": _ev_war_called_off,
    "CounterDeclined": _ev_counter_declined,
    "BallerDrawn": _ev_baller_drawn,
    "BallerDeckShuffled": _ev_baller_deck_shuffled,
    "CardPlayed": _ev_card_played,
    "BonusWeight": _ev_bonus_weight,
}


def evolve(state: dict | None, event: Event) -> dict:
    """Apply one event; returns a new state and leaves `state` untouched."""
    return evolve_by_type(EVOLVERS, "Druglord", state, event)


__all__ = ["evolve", "EVOLVERS", "WEIGHT_TYPES"]
