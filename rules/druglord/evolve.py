"""Druglord `evolve`: one small function per event type, (state, data, own) -> state.

Each changes the state it is given and returns it; the players, regions' weight and the supply inside
it it changes through `own` (rules/folding.py: the base copies on write for `evolve`, and folds a long
history in place).  It never rolls.  The state's shape is described in state.py.
"""
from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.druglord.data import WEIGHT_TYPES
from rules.druglord.state import zero
from rules.folding import Evolver, Own, evolve_by_type, rules_version


def _player(state: dict, own: Own, seat: int) -> dict:
    """One player of the state, the evolver's to change (own its sub-dicts before changing them)."""
    return own(own(state, "players"), seat)


def _occupy(state: dict, own: Own, seat: int, region: str) -> None:
    """Place a Region Marker."""
    own(state, "owner")[region] = seat
    own(state, "weight")[region] = zero()
    own(state, "stored")[region] = zero()


def _vacate(state: dict, own: Own, region: str) -> None:
    """Remove a Region Marker; the region's weight goes back to the supply."""
    supply = own(state, "supply")
    for table in ("weight", "stored"):
        for t, n in own(state, table).pop(region).items():
            supply[t] += n
    del own(state, "owner")[region]


# ----------------------------------------------------------------------------
# Setup, turns, draft
# ----------------------------------------------------------------------------

def _ev_game_started(state: Any, d: dict, own: Own) -> dict:
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


def _ev_region_cards_drawn(state: dict, d: dict, own: Own) -> dict:
    cards = d["secret"]["regions"]
    state["deck"] = state["deck"][len(cards):]
    _player(state, own, d["seat"])["drawn"] = list(cards)
    return state


def _ev_empire_chosen(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["kept"] = list(d["secret"]["regions"])
    return state


def _ev_empires_revealed(state: dict, d: dict, own: Own) -> dict:
    returned = []
    for seat, empire in enumerate(d["empires"]):
        player = _player(state, own, seat)
        returned += [r for r in player["drawn"] if r not in empire]
        for region in empire:
            _occupy(state, own, seat, region)
        player["drawn"], player["kept"] = [], None
    state["deck"] = state["deck"] + returned
    state["phase"] = "between"
    return state


def _ev_deck_shuffled(state: dict, d: dict, own: Own) -> dict:
    state["deck"] = list(d["secret"]["deck"])
    return state


def _ev_turn_started(state: dict, d: dict, own: Own) -> dict:
    state.update(turn=d["turn"], rerolls=[{} for _ in range(state["seats"])], wtype=None, order=[], pos=0,
                 action=None, roll=None, delivered={})
    return state


def _ev_draft_opened(state: dict, d: dict, own: Own) -> dict:
    state["deck"] = state["deck"][len(d["new"]):]
    state["lost"] = []
    state["phase"] = "draft"
    state["rolloffs"] = dict(state["rolloffs"], draft=d["rolloffs"])
    state["roll"] = None  # version 3: the roll-off that ranked the tied seats
    state["draft"] = {"offer": list(d["new"]) + [c["region"] for c in d["lost"]], "order": list(d["order"]),
                      "pos": 0, "claims": [{"region": c["region"], "seat": c["priority"]} for c in d["lost"]
                                 if c["priority"] is not None], "claim_pos": 0,
                      "drawer": d["drawer"]}
    return state


def _taken(state: dict, d: dict, own: Own, turn: str) -> dict:
    """A Region taken from the draft's offer by a claim or a draft pick (`turn`: whose turn moves on)."""
    draft = own(state, "draft")
    draft["offer"] = [r for r in draft["offer"] if r != d["region"]]
    draft[turn] += 1
    _occupy(state, own, d["seat"], d["region"])
    return state


def _ev_region_claimed(state: dict, d: dict, own: Own) -> dict:
    return _taken(state, d, own, "claim_pos")


def _ev_claim_declined(state: dict, d: dict, own: Own) -> dict:
    own(state, "draft")["claim_pos"] += 1
    return state


def _ev_region_drafted(state: dict, d: dict, own: Own) -> dict:
    return _taken(state, d, own, "pos")


def _ev_draft_declined(state: dict, d: dict, own: Own) -> dict:
    own(state, "draft")["pos"] += 1
    return state


def _ev_draft_closed(state: dict, d: dict, own: Own) -> dict:
    state["deck"] = state["deck"] + list(d["returned"])
    state["draft"] = None
    return state


# ----------------------------------------------------------------------------
# Loading (Rule 3)
# ----------------------------------------------------------------------------

def _placed(state: dict, own: Own, region: str, wtype: str, units: int) -> None:
    """Version 4: count units put on a region this turn (storage.py: "only produces 1 of a type")."""
    placed = own(state, "placed")
    per = own(placed, region) if region in placed else placed.setdefault(region, {})
    per[wtype] = per.get(wtype, 0) + units


def _ev_loading_started(state: dict, d: dict, own: Own) -> dict:
    state["phase"] = "load"
    state["storing"] = [None] * state["seats"]  # version 3: asked again every turn (storage.py)
    if rules_version(state) >= 4:
        state["placed"] = {}  # what each region is loaded with this turn, by type
    state["loading"] = [None if load is None else {k: dict(v) for k, v in load.items()} for load in d["loads"]]
    return state


def _ev_weight_loaded(state: dict, d: dict, own: Own) -> dict:
    seat = d["seat"]
    loading = own(state, "loading")
    load = own(loading, seat)
    production = own(load, "production")
    supply, weight, traphouse = own(state, "supply"), own(state, "weight"), None
    for source, to, wtype, units in d["placements"]:
        supply[wtype] -= units
        production[source] -= units
        if to == "traphouse":
            if traphouse is None:
                traphouse = own(_player(state, own, seat), "traphouse")
            traphouse[wtype] += units
        else:
            own(weight, to)[wtype] += units
            if "placed" in state:  # version 4
                _placed(state, own, to, wtype, units)
            if to == source:
                own(load, "own")[source] -= units
            else:
                own(load, "room")[to] -= units
    loading[seat] = None if not any(production.values()) else load
    return state


def _ev_loading_finished(state: dict, d: dict, own: Own) -> dict:
    own(state, "loading")[d["seat"]] = None
    return state


# ----------------------------------------------------------------------------
# Action phases (Rule 4)
# ----------------------------------------------------------------------------

def _ev_action_order_rolled(state: dict, d: dict, own: Own) -> dict:
    state.update(order=list(d["order"]), pos=0, scoop=d["order"][0], roll=None,
                 rolloffs=dict(state["rolloffs"], action=d["rounds"]))
    return state


def _ev_phase_started(state: dict, d: dict, own: Own) -> dict:
    wtype = d["wtype"]
    for seat in range(state["seats"]):
        if state["players"][seat]["locked"][wtype]:
            own(_player(state, own, seat), "locked")[wtype] = 0
    state.update(phase="action", wtype=wtype, pos=0, delivered={}, action=None, roll=None)
    return state


def _ev_storage_chosen(state: dict, d: dict, own: Own) -> dict:
    own(state, "storing")[d["seat"]] = list(d["stored"])
    return state


def _ev_action_ended(state: dict, d: dict, own: Own) -> dict:
    state["action"], state["pos"] = None, state["pos"] + 1
    return state


def _ev_phase_ended(state: dict, d: dict, own: Own) -> dict:
    wtype = d["wtype"]
    weight, stored = own(state, "weight"), own(state, "stored")
    for seat, region, to_trap, store in d["sweep"]:
        own(weight, region)[wtype] = 0
        own(stored, region)[wtype] = store
        if to_trap:
            own(_player(state, own, seat), "traphouse")[wtype] += to_trap
    state.update(action=None, roll=None)
    if rules_version(state) >= 4:  # storage is chosen again at the next phase's end (storage.py)
        state["storing"] = [None] * state["seats"]
    return state


def _ev_turn_ended(state: dict, d: dict, own: Own) -> dict:
    state.update(action=None, roll=None, wtype=None, phase="between")
    return state


def _ev_game_ended(state: dict, d: dict, own: Own) -> dict:
    state.update(phase="over", action=None, roll=None, draft=None,
                 result={"winners": list(d["winners"]), "reason": d["reason"], "scores": list(d["scores"]),
                         "rolloff": d["rolloff"]})
    return state


def _ev_passed(state: dict, d: dict, own: Own) -> dict:
    return state


def _ev_weight_drawn(state: dict, d: dict, own: Own) -> dict:
    supply, player = own(state, "supply"), _player(state, own, d["seat"])
    traphouse, locked = own(player, "traphouse"), own(player, "locked")
    for wtype in d["weights"]:
        supply[wtype] -= 1
        traphouse[wtype] += 1
        locked[wtype] += 1
    return state


# ----------------------------------------------------------------------------
# Rolls and Sway (Rule 7)
# ----------------------------------------------------------------------------

def _ev_roll_started(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = new_roll(d["kind"], d["roller"], d["dice"], d["owners"], d["context"])
    return state


def _ev_sway_declared(state: dict, d: dict, own: Own) -> dict:
    units, seat, wtype = abs(d["units"]), d["seat"], d["weight"]
    own(_player(state, own, seat), "traphouse")[wtype] -= units
    own(state, "supply")[wtype] += units
    own(own(state, "roll"), "sway").append([seat, d["die"], wtype, d["units"]])
    return state


def _ev_declaration_closed(state: dict, d: dict, own: Own) -> dict:
    roll = own(state, "roll")
    roll["stage"], roll["waiting"] = "respond", list(d["responders"])
    return state


def _ev_sway_opened(state: dict, d: dict, own: Own) -> dict:
    """Version 4's roll-off: the seats asked join those still answering."""
    roll = own(state, "roll")
    roll["stage"], roll["waiting"] = "respond", sorted(set(roll["waiting"]) | set(d["responders"]))
    return state


def _ev_sway_ended(state: dict, d: dict, own: Own) -> dict:
    roll = own(state, "roll")
    roll["waiting"] = [s for s in roll["waiting"] if s != d["seat"]]
    return state


def _ev_roll_cast(state: dict, d: dict, own: Own) -> dict:
    """The dice are recorded; the roll itself is cleared by the event that settles it."""
    state["last_roll"] = {"kind": d["kind"], "roller": d["roller"], "naturals": d["naturals"],
                          "modifiers": d["modifiers"], "totals": d["totals"]}
    return state


# ----------------------------------------------------------------------------
# Trades (Rule 5, 6)
# ----------------------------------------------------------------------------

def new_roll(kind: str, roller: int, dice: list, owners: dict, context: dict) -> dict:
    """A roll waiting for its roller's Sway declaration (Rule 7)."""
    return {"kind": kind, "roller": roller, "dice": list(dice), "owners": dict(owners), "context": dict(context),
            "stage": "declare", "waiting": [], "sway": [], "mods": []}


def _take_weight(state: dict, own: Own, seat: int, source: str, wtype: str, held: int, domestic: bool) -> None:
    """Lift `held` units for a trade roll: from the Traphouse, or from a region (stored first for Domestic)."""
    if source == "traphouse":
        own(_player(state, own, seat), "traphouse")[wtype] -= held
        return
    stored = state["stored"][source][wtype]
    from_stored = min(stored, held) if domestic else 0
    if from_stored:
        own(own(state, "stored"), source)[wtype] -= from_stored
    if held - from_stored:
        own(own(state, "weight"), source)[wtype] -= held - from_stored


def _ev_trade_declared(state: dict, d: dict, own: Own) -> dict:
    _take_weight(state, own, d["seat"], d["from"], d["weight"], d["held"], d["route"] == "domestic")
    if state["action"] is None:
        state["action"] = {"kind": "move", "seat": d["seat"], "to": d["to"], "rolls": 0, "reroll": None}
    state["action"] = dict(state["action"], rolls=state["action"]["rolls"] + 1)
    state["roll"] = new_roll("trade", d["seat"], ["trade"], {"trade": d["seat"]}, trade_context(d))
    return state


def trade_context(d: dict) -> dict:
    """What a trade roll carries: the trade, the weight riding on it and the roll it needs."""
    return {"from": d["from"], "to": d["to"], "route": d["route"], "weight": d["weight"], "units": d["units"],
            "held": d["held"], "target": d["target"], "ocean": d["ocean"], "reroll": d["reroll"]}


def _ev_trade_succeeded(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    own(state, "supply")[d["weight"]] += d["held"]
    _player(state, own, d["seat"])["score"] += d["stacks"]
    delivered = own(state, "delivered")
    delivered[d["to"]] = delivered.get(d["to"], 0) + d["units"]
    if state["action"] is not None and state["action"].get("reroll"):
        state["action"] = dict(state["action"], reroll=None)
    return state


def _add_cases(state: dict, own: Own, seat: int, wtype: str, cases: int) -> None:
    if cases:
        own(_player(state, own, seat), "cases")[wtype] += cases


def _ev_trade_failed(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    if d["reroll_offered"]:
        state["action"] = dict(state["action"], reroll=trade_context(d))
        return state
    own(state, "supply")[d["weight"]] += d["held"]
    _add_cases(state, own, d["seat"], d["weight"], d["cases_added"])
    return state


def _ev_reroll_taken(state: dict, d: dict, own: Own) -> dict:
    seat = d["seat"]
    rerolls = own(own(state, "rerolls"), seat)
    rerolls[d["ocean"]] = rerolls.get(d["ocean"], 0) + 1
    context = dict(state["action"]["reroll"], reroll=True)
    state["action"] = dict(state["action"], reroll=None)
    state["roll"] = new_roll("trade", seat, ["trade"], {"trade": seat}, context)
    return state


def _ev_bust_accepted(state: dict, d: dict, own: Own) -> dict:
    own(state, "supply")[d["weight"]] += d["held"]
    _add_cases(state, own, d["seat"], d["weight"], d["cases_added"])
    state["action"] = dict(state["action"], reroll=None)
    return state


def _ev_endgame_triggered(state: dict, d: dict, own: Own) -> dict:
    state["endgame"] = d["seat"]
    return state


# ----------------------------------------------------------------------------
# Trial (Rule 8)
# ----------------------------------------------------------------------------

def _ev_region_lost(state: dict, d: dict, own: Own) -> dict:
    _vacate(state, own, d["region"])
    state["lost"] = state["lost"] + [{"region": d["region"], "priority": d["priority"]}]
    return state


def _ev_crackdown_imposed(state: dict, d: dict, own: Own) -> dict:
    if d["marker"]:
        # the Dime Bags only mark Crackdowns; from version 2 Crackdowns go on when they run out
        state["dime_bags"] = max(0, state["dime_bags"] - 1)
        own(_player(state, own, d["seat"]), "crackdowns")[d["weight"]] += 1
    return state


def _ev_score_set_back(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["score"] = d["to"]
    return state


def _ev_weight_removed(state: dict, d: dict, own: Own) -> dict:
    """MassRaid, LocalBusts, AssetsSeized, WeightDestroyed: [[place, table, type, units]] back to the supply."""
    for place, table, wtype, units in d["removed"]:
        if place == "traphouse":
            player = _player(state, own, d["seat"])
            traphouse, locked = own(player, "traphouse"), own(player, "locked")
            traphouse[wtype] -= units
            locked[wtype] = min(locked[wtype], traphouse[wtype])
        else:
            own(own(state, table), place)[wtype] -= units
        own(state, "supply")[wtype] += units
    return state


def _ev_cases_reset(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["cases"] = zero()
    return state


def _ev_cases_cleared(state: dict, d: dict, own: Own) -> dict:
    cases = own(_player(state, own, d["seat"]), "cases")
    for wtype, n in d["removed"].items():
        cases[wtype] -= n
    return state


def _ev_trial_resolved(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    return state


# ----------------------------------------------------------------------------
# Violence (Rule 9)
# ----------------------------------------------------------------------------

def _ev_attack_declared(state: dict, d: dict, own: Own) -> dict:
    state["action"] = {"kind": "violence", "seat": d["seat"], "from": d["from"], "target": d["target"],
                       "defender": d["defender"], "round": "attack", "offer": None}
    return state


def _ev_war_resolved(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    own(state, "action")["offer"] = d["offer"]
    return state


def _ev_attack_pressed(state: dict, d: dict, own: Own) -> dict:
    state["action"] = dict(state["action"], round=d["round"], offer=None)
    return state


def _ev_counter_declined(state: dict, d: dict, own: Own) -> dict:
    state["action"] = dict(state["action"], offer=None)
    return state


def _ev_war_called_off(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    state["action"] = dict(state["action"], offer=None, called_off=True)
    return state


# ----------------------------------------------------------------------------
# Baller Moves (Rule 11)
# ----------------------------------------------------------------------------

def _ev_baller_drawn(state: dict, d: dict, own: Own) -> dict:
    own(_player(state, own, d["seat"]), "hand").append(d["secret"]["card"])
    state["baller_deck"] = state["baller_deck"][1:]
    if d.get("keep_open"):
        state["action"] = {"kind": "draw_card", "seat": d["seat"]}
    return state


def _ev_baller_deck_shuffled(state: dict, d: dict, own: Own) -> dict:
    state["baller_deck"] = list(d["secret"]["deck"])
    state["baller_discard"] = []
    return state


def _ev_card_played(state: dict, d: dict, own: Own) -> dict:
    own(_player(state, own, d["seat"]), "hand").remove(d["card"])
    own(state, "baller_discard").append(d["card"])
    if d.get("die") is not None:
        own(own(state, "roll"), "mods").append([d["seat"], d["card"], d["die"], d["amount"]])
    return state


def _ev_bonus_weight(state: dict, d: dict, own: Own) -> dict:
    state["roll"] = None
    if d["units"]:
        own(state, "supply")[d["weight"]] -= d["units"]
        own(own(state, "weight"), d["region"])[d["weight"]] += d["units"]
        if "placed" in state:  # version 4: bonus weight is produced on the region too
            _placed(state, own, d["region"], d["weight"], d["units"])
    return state


EVOLVERS: dict[str, Evolver] = {
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
