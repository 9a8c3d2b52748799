"""Rule 8: Cases and the Trial (with Sway), and its seven results."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.druglord import rolls
from rules.druglord.data import WEIGHT_TYPES
from rules.druglord.state import case_total, trial_at
from rules.folding import rules_version

RULE = "8"
RESULTS = {1: "Local Boss Executed", 2: "Crackdown", 3: "Setback", 4: "Mass Raids", 5: "Asset Seizure",
           6: "Local Busts", 7: "Nothing"}


def cases_to_add(state: dict, seat: int, units: int) -> int:
    """"If the number of Busts exceeds 5 (or 3), any excess Busts are ignored"."""
    return max(0, min(units, trial_at(state) - case_total(state, seat)))


def after_bust(state: dict, seat: int, wtype: str, added: int, region: str | None) -> list[Event]:
    """The Trial roll starts at once when the Cases reach 5 (3 California Style); `region` is the
    supplying Region of the bust that brought it (None: weight from the Traphouse, version 2)."""
    if case_total(state, seat) + added < trial_at(state):
        return []
    cases = dict(state["players"][seat]["cases"])
    cases[wtype] += added
    return [rolls.start("trial", seat, ["trial"], {"trial": seat},
                        {"region": region, "weight": wtype, "cases": cases})]


def result_of(total: int) -> int:
    """1..6 as printed, 7 for "7+" (a Sway below 1 still reads as 1)."""
    return max(1, min(total, 7))


def _tie_break(options: list, rng: Rng) -> tuple[str, list]:
    """"Roll randomly" among tied weight types: a roll-off of Classy Dice, one per type."""
    if len(options) == 1:
        return options[0], []
    rounds, winner = rolls.first_by_rolloff(options, rng)
    return winner, rounds


def holdings(state: dict, seat: int) -> list[tuple[str, str, str, int]]:
    """(place, table, type, units) for all of seat's weight: regions (loaded, stored) and the Traphouse."""
    out = []
    for region, owner in sorted(state["owner"].items()):
        if owner == seat:
            for table in ("weight", "stored"):
                for t in WEIGHT_TYPES:
                    if state[table][region][t]:
                        out.append((region, table, t, state[table][region][t]))
    for t in WEIGHT_TYPES:
        n = state["players"][seat]["traphouse"][t]
        if n:
            out.append(("traphouse", "traphouse", t, n))
    return out


def resolve(state: dict, roll: dict, naturals: dict, totals: dict, rng: Rng) -> list[Event]:
    """TrialResolved, the result's effect, then CasesReset."""
    seat = roll["roller"]
    ctx = roll["context"]
    result = result_of(totals["trial"])
    events = [Event("TrialResolved", {"seat": seat, "total": totals["trial"], "result": result,
                                      "name": RESULTS[result], "walked": False})]
    return events + effect(state, seat, result, ctx, rng) + [Event("CasesReset", {"seat": seat})]


def effect(state: dict, seat: int, result: int, ctx: dict, rng: Rng) -> list[Event]:
    """The printed Trial results."""
    player = state["players"][seat]
    if result == 1:
        # "Lose final supplying Region responsible for bringing Player to Trial": none when the Traphouse
        # supplied the bust (version 2; context region None), nor when it is no longer seat's
        region = ctx["region"]
        if region is None or state["owner"].get(region) != seat:
            return []
        return [Event("RegionLost", {"region": region, "seat": seat, "priority": None, "cause": "trial"})]
    if result == 2:
        cases = ctx["cases"]
        most = max(cases.values())
        weight, rounds = _tie_break([t for t in WEIGHT_TYPES if cases[t] == most], rng)
        # version 1 used the 10 Dime Bags as a cap (an 11th Crackdown did nothing); the rule has none:
        # "-1 Trade Roll penalty ... for remainder of game", so from version 2 every Crackdown counts
        counts = state["dime_bags"] > 0 or rules_version(state) >= 2
        return [Event("CrackdownImposed", {"seat": seat, "weight": weight, "tie_rolls": rounds,
                                           "marker": counts})]
    if result == 3:
        return [Event("ScoreSetBack", {"seat": seat, "from": player["score"], "to": max(0, player["score"] - 3)})]
    if result == 4:
        wtype = ctx["weight"]
        removed = [[place, table, t, n] for place, table, t, n in holdings(state, seat)
                   if t == wtype and place != "traphouse"]
        return [Event("WeightRemoved", {"seat": seat, "cause": "mass_raids", "removed": removed})]
    if result == 5:
        removed = [[place, table, t, n] for place, table, t, n in holdings(state, seat) if place == "traphouse"]
        return [Event("WeightRemoved", {"seat": seat, "cause": "asset_seizure", "removed": removed})]
    if result == 6:
        return local_busts(state, seat, rng)
    return []


def local_busts(state: dict, seat: int, rng: Rng) -> list[Event]:
    """"Lose 2 of most prominent Weight from any Region or Traphouse": the type seat holds most of (ties
    rolled off); each unit comes from the place holding most of it (Traphouse first on a tie)."""
    held = holdings(state, seat)
    per_type = {t: sum(n for _, _, tt, n in held if tt == t) for t in WEIGHT_TYPES}
    most = max(per_type.values())
    if most == 0:
        return [Event("WeightRemoved", {"seat": seat, "cause": "local_busts", "removed": [], "tie_rolls": []})]
    weight, rounds = _tie_break([t for t in WEIGHT_TYPES if per_type[t] == most], rng)
    places = {(p, table): n for p, table, t, n in held if t == weight}
    taken: dict = {}
    for _ in range(min(2, most)):
        key = max(places, key=lambda k: (places[k], k[0] == "traphouse", k[1] == "weight", k[0]))
        places[key] -= 1
        taken[key] = taken.get(key, 0) + 1
        if not places[key]:
            del places[key]
    removed = [[p, table, weight, n] for (p, table), n in taken.items()]
    return [Event("WeightRemoved", {"seat": seat, "cause": "local_busts", "removed": removed,
                                    "tie_rolls": rounds})]
