"""What a seat sees, the outcome, and state invariants.

Public: the board (markers, weight on regions, stored weight), scores, Traphouses, Cases,
Crackdowns, the phase, the action order, the draft offer, a pending roll with every Sway and card
played on it.  Secret: the deck orders (nobody), each seat's setup draw and choice and its Baller
hand (that seat only; others see counts).
"""
from __future__ import annotations

from rules.druglord.data import (
    BOARD,
    CARDS,
    MARKER_SETS,
    MARKERS_PER_PLAYER,
    PHASE_NAMES,
    REGION_IDS,
    WEIGHT_TOTALS,
    WEIGHT_TYPES,
    baller_deck,
)
from rules.druglord.state import (
    actor,
    case_total,
    free_markers,
    markers_in_use,
    regions_of,
    score_markers,
    totals_ok,
    trial_at,
    weight_in_play,
)
from rules.folding import rules_version


def _player_view(state: dict, seat: int, viewer: int | None) -> dict:
    p = state["players"][seat]
    mine = viewer == seat
    out = {
        "seat": seat, "markers": MARKER_SETS[seat], "score": p["score"], "laps": p["score"] // 20,
        "regions": regions_of(state, seat),
        "traphouse": dict(p["traphouse"]), "traphouse_locked": dict(p["locked"]),
        "cases": dict(p["cases"]), "case_total": case_total(state, seat), "crackdowns": dict(p["crackdowns"]),
        "markers_free": free_markers(state, seat), "score_markers": score_markers(p["score"]),
        "hand_count": len(p["hand"]), "rerolls_used": dict(state["rerolls"][seat]),
        "setup": ({"drawn_count": len(p["drawn"]), "chosen": p["kept"] is not None}
                  if state["phase"] == "empire" else None),
    }
    if mine:
        out["hand"] = list(p["hand"])
        if state["phase"] == "empire":
            out["setup"].update(drawn=list(p["drawn"]), kept=p["kept"], keep=p["keep"])
    return out


def view(state: dict, seat: int | None) -> dict:
    """The table as `seat` (None: a spectator) may see it."""
    regions = {r: {"owner": s, "weight": dict(state["weight"][r]), "stored": dict(state["stored"][r])}
               for r, s in sorted(state["owner"].items())}
    draft = state["draft"]
    return {
        "game": "druglord",
        "you": seat,
        "options": dict(state["options"]),
        "turn": state["turn"],
        "phase": state["phase"],
        "phase_name": PHASE_NAMES.get(state["wtype"]) if state["wtype"] else None,
        "weight_type": state["wtype"],
        "action_order": list(state["order"]),
        "actor": actor(state),
        "scoop": state["scoop"],
        "trial_at": trial_at(state),
        "game_to": state["options"]["game_to"],
        "endgame_triggered_by": state["endgame"],
        "supply": dict(state["supply"]),
        "dime_bags": state["dime_bags"],
        "regions": regions,
        "players": [_player_view(state, s, seat) for s in range(state["seats"])],
        "draft": None if draft is None else {
            "offer": list(draft["offer"]), "order": list(draft["order"]), "pos": draft["pos"],
            "claims": [dict(c) for c in draft["claims"]], "claim_pos": draft["claim_pos"], "drawer": draft["drawer"]},
        "lost_to_next_draft": [dict(c) for c in state["lost"]],
        "delivered_this_phase": dict(state["delivered"]),
        "action": None if state["action"] is None else dict(state["action"]),
        "roll": None if state["roll"] is None else {k: v for k, v in state["roll"].items()},
        "last_roll": state["last_roll"],
        "loading": [None if load is None else {k: dict(v) for k, v in load.items()} for load in state["loading"]],
        "region_deck_count": len(state["deck"]),
        "baller_deck_count": len(state["baller_deck"]),
        "baller_discard": list(state["baller_discard"]),
        "rolloffs": state["rolloffs"],
        "storing": [None if chosen is None else list(chosen) for chosen in state["storing"]],
        "outcome": state["result"],
    }


def outcome(state: dict) -> dict | None:
    """None while playing, else {"winners", "reason", "scores", "rolloff"}."""
    return state["result"]


def invariants(state: dict) -> list[str]:
    """Violated invariants: weight conserved, markers, every Region Card in one place, Baller cards."""
    bad = []
    if not totals_ok(state):
        bad.append(f"weight not conserved: supply {state['supply']} + in play {weight_in_play(state)} "
                   f"!= {dict(WEIGHT_TOTALS)}")
    for t in WEIGHT_TYPES:
        if state["supply"][t] < 0:
            bad.append(f"negative supply of {t}")
    for table in ("weight", "stored"):
        if set(state[table]) != set(state["owner"]):
            bad.append(f"{table} regions differ from the occupied regions")
        for r, per in state[table].items():
            if any(n < 0 for n in per.values()):
                bad.append(f"negative {table} on {r}: {per}")
    for r, per in state["stored"].items():
        if any(n > 1 for n in per.values()):
            bad.append(f"more than 1 unit stored on {r}: {per}")
    for s, p in enumerate(state["players"]):
        if free_markers(state, s) < 0 and len(regions_of(state, s)) > MARKERS_PER_PLAYER - 1:
            bad.append(f"seat {s} uses more than {MARKERS_PER_PLAYER} Region Markers")
        elif rules_version(state) >= 3 and markers_in_use(state, s) > MARKERS_PER_PLAYER:
            bad.append(f"seat {s} has {markers_in_use(state, s)} Region Markers on the board and the racetrack, "
                       f"more than {MARKERS_PER_PLAYER}")
        for t in WEIGHT_TYPES:
            if p["traphouse"][t] < 0 or not 0 <= p["locked"][t] <= p["traphouse"][t]:
                bad.append(f"seat {s} traphouse/locked {t} out of range")
            if p["cases"][t] < 0:
                bad.append(f"seat {s} negative cases")
        if case_total(state, s) > trial_at(state):
            bad.append(f"seat {s} has {case_total(state, s)} Cases, more than {trial_at(state)}")
        if p["score"] < 0:
            bad.append(f"seat {s} negative score")
        if len(p["hand"]) > 3:
            bad.append(f"seat {s} holds {len(p['hand'])} Baller cards")
    # Region Cards: deck, setup hands, draft offer, lost pool, the board -- each exactly once
    places = list(state["deck"]) + [c["region"] for c in state["lost"]] + list(state["owner"])
    for p in state["players"]:
        places += p["drawn"]
    if state["draft"] is not None:
        places += state["draft"]["offer"]
    if sorted(places) != sorted(REGION_IDS):
        missing = sorted(set(REGION_IDS) - set(places))
        extra = sorted(r for r in set(places) if places.count(r) > 1)
        bad.append(f"region cards misplaced: missing {missing}, duplicated {extra}")
    for r in state["owner"]:
        if r not in BOARD.regions:
            bad.append(f"unknown region {r} on the board")
    cards = list(state["baller_deck"]) + list(state["baller_discard"])
    for p in state["players"]:
        cards += p["hand"]
    if sorted(cards) != sorted(baller_deck()):
        bad.append("Baller cards not conserved")
    if any(c not in CARDS for c in cards):
        bad.append("unknown Baller card")
    if not 0 <= state["dime_bags"] <= 10 or state["dime_bags"] != max(0, 10 - sum(
            sum(p["crackdowns"].values()) for p in state["players"])):
        bad.append("Dime Bags not conserved")
    return bad
