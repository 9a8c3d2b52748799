"""Rule 9 Violence: range, the war roll (attacker and defender dice, both swayable), pressing the attack,
defending by 5 or more, the counterattack, and Regions lost into the next draft with priority.

The whole exchange is the attacker's one action; defending and counterattacking cost no action.
state["action"] = {"kind": "violence", seat, from, target, defender, round: "attack"|"press"|"counter",
offer: None | "press" (attacker may press) | "counter" (defender may counterattack)}.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.druglord import geo, rolls
from rules.druglord.data import BOARD, WEIGHT_TYPES
from rules.druglord.guards import region_name, require_no_action, require_own_region
from rules.druglord.state import occupied, region_weight
from rules.folding import rules_version

RULE = "9"


def targets(state: dict, seat: int) -> list[tuple[str, str]]:
    """(attacking region, defending region) pairs in range."""
    owner = state["owner"]
    version = rules_version(state)
    regions, mine, theirs = geo.held(owner, seat, version)
    return [(a, d) for a in regions for d in geo.held_range(a, mine | theirs, version)
            if owner.get(d, seat) != seat]


def moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "Attack", "from": a, "target": d} for a, d in targets(state, seat)]


def war_roll(roller: int, other: int, attacking: str, defending: str, round_: str) -> Event:
    return rolls.start("war", roller, ["attack", "defence"], {"attack": roller, "defence": other},
                       {"from": attacking, "target": defending, "attacker": roller, "defender": other,
                        "round": round_})


def decide_attack(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Attack{from, target}: your region attacks an opponent's region in range."""
    require_no_action(state, seat, "Violence", RULE)
    source, target = cmd["from"], cmd["target"]
    require_own_region(state, seat, source, RULE)
    if target not in BOARD.regions:
        raise IllegalMove(f"there is no region {target!r}", rule=RULE)
    defender = state["owner"].get(target)
    if defender is None:
        raise IllegalMove(f"{region_name(target)} is not occupied; Violence is against another player's "
                          f"Region", rule=RULE)
    if defender == seat:
        raise IllegalMove(f"{region_name(target)} is yours", rule=RULE)
    if not geo.in_range(source, target, occupied(state), rules_version(state)):
        raise IllegalMove(f"{region_name(target)} is out of range of {region_name(source)}: the attacking "
                          f"Region must border it, or share its Zone without crossing more than 1 unoccupied "
                          f"space", rule=RULE)
    return [Event("AttackDeclared", {"seat": seat, "from": source, "target": target, "defender": defender}),
            war_roll(seat, defender, source, target, "attack")]


def _weight_gone(state: dict, owner: int, region: str) -> Event:
    removed = [[region, table, t, state[table][region][t]] for table in ("weight", "stored")
               for t in WEIGHT_TYPES if state[table][region][t]]
    return Event("WeightRemoved", {"seat": owner, "cause": "violence", "removed": removed})


def resolve(state: dict, roll: dict, naturals: dict, totals: dict, rng: Rng) -> list[Event]:
    """Ties go to the defender; see the module docstring for what follows."""
    ctx = roll["context"]
    att, dfn = totals["attack"], totals["defence"]
    attacker, defender = ctx["attacker"], ctx["defender"]
    attacking, defending = ctx["from"], ctx["target"]
    round_ = ctx["round"]
    base = {"round": round_, "attacker": attacker, "defender": defender, "from": attacking, "target": defending,
            "attack": att, "defence": dfn}
    if round_ == "counter":
        if att > dfn:
            return [Event("WarResolved", {**base, "winner": "attacker", "offer": None}),
                    Event("RegionLost", {"region": defending, "seat": defender, "priority": attacker,
                                         "cause": "counterattack"})]
        return [Event("WarResolved", {**base, "winner": "defender", "offer": None})]
    if att > dfn:
        if round_ == "attack" and region_weight(state, defending) > 0:
            return [Event("WarResolved", {**base, "winner": "attacker", "offer": "press"}),
                    _weight_gone(state, defender, defending)]
        return [Event("WarResolved", {**base, "winner": "attacker", "offer": None}),
                Event("RegionLost", {"region": defending, "seat": defender, "priority": attacker,
                                     "cause": "violence"})]
    if dfn - att >= 5:
        return [Event("WarResolved", {**base, "winner": "defender by 5+", "offer": "counter"}),
                _weight_gone(state, attacker, attacking)]
    return [Event("WarResolved", {**base, "winner": "defender", "offer": None})]


def offer_moves(state: dict, seat: int) -> list[dict]:
    """The attacker's press offer or the defender's counterattack offer."""
    action = state["action"]
    if action["offer"] == "press" and seat == action["seat"]:
        return [{"type": "PressAttack"}, {"type": "EndAction"}]
    if action["offer"] == "counter" and seat == action["defender"]:
        return [{"type": "Counterattack"}, {"type": "DeclineCounter"}]
    return []


def _require_offer(state: dict, seat: int, offer: str, who: str) -> dict:
    action = state["action"] if state["phase"] == "action" else None
    if state["roll"] is not None or action is None or action["kind"] != "violence" or action["offer"] != offer:
        raise IllegalMove(f"there is no {'pressed attack' if offer == 'press' else 'counterattack'} to make now",
                          rule=RULE)
    if seat != action[who]:
        raise IllegalMove(f"only seat {action[who]} may decide this", rule=RULE)
    return action


def decide_press(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PressAttack: "If the Attacker succeeds in destroying the Weight, the Attack may be pressed"."""
    action = _require_offer(state, seat, "press", "seat")
    return [Event("AttackPressed", {"seat": seat, "round": "press"}),
            war_roll(seat, action["defender"], action["from"], action["target"], "press")]


def decide_counter(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Counterattack: after defending by 5 or more, the defending region attacks the attacking one."""
    action = _require_offer(state, seat, "counter", "defender")
    return [Event("AttackPressed", {"seat": seat, "round": "counter"}),
            war_roll(seat, action["seat"], action["target"], action["from"], "counter")]


def decide_decline_counter(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    _require_offer(state, seat, "counter", "defender")
    return [Event("CounterDeclined", {"seat": seat})]
