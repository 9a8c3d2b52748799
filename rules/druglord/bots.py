"""Druglord bots.

"random": uniform over legal_moves, through the rng it is given.
"greedy": plays a coherent game with explicit rules, scoring trades by expected stacks:
  * empires and drafts: the regions whose production reaches the most Demand by the safest routes;
  * loading: each unit the type with the best reachable market (toward Demand);
  * actions: the trade with the best expected value (stacks won minus the cost of Cases, which rises
    as a Trial nears; units split into single rolls when a bust would bring a Trial), else Violence on
    an empty region of the leader, a Baller card, Draw 2, or pass;
  * Sway: on its own rolls when the gain in expected stacks beats the weight spent; against the
    leader's big trades; on its Trial roll to walk; Baller cards when they fit.
"""
from __future__ import annotations

from functools import cache, lru_cache

from rules.base import Rng
from rules.druglord import geo, rolls, trade
from rules.druglord.data import BOARD, CARDS, CLASSY_DIE, WEIGHT_TYPES
from rules.druglord.state import (
    actor,
    blocked,
    case_total,
    controlled,
    demand,
    free_markers,
    produces,
    region_weight,
    regions_of,
    trial_at,
    usable,
    usable_total,
)
from rules.folding import rules_version

WEIGHT_UNIT = 0.3           # what a unit of Traphouse weight is worth (Sway, exports)
CASE_COST = 0.25            # a Case, far from a Trial
TRIAL_COST = 2.5            # expected loss of a Trial
TRADE_FLOOR = 0.15          # a trade must be worth this many expected stacks


@cache  # a few dozen (target, modifier) pairs; the search's playouts ask it constantly
def p_at_least(target: int, modifier: int = 0) -> float:
    """P(success) of a Classy Die roll needing `target` with a modifier (a natural 1 fails)."""
    return sum(1 for f in CLASSY_DIE if f != 1 and f + modifier >= target) / len(CLASSY_DIE)


def p_beats(mod_a: int, mod_d: int) -> tuple[float, float]:
    """(P(attack > defence), P(defence - attack >= 5)) with modifiers (natural 1 counts 1)."""
    win = by5 = 0
    for a in CLASSY_DIE:
        for d in CLASSY_DIE:
            ta = 1 if a == 1 else a + mod_a
            td = 1 if d == 1 else d + mod_d
            win += ta > td
            by5 += td - ta >= 5
    n = len(CLASSY_DIE) ** 2
    return win / n, by5 / n


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    """A legal move for `seat` at this bot level."""
    if level == "random":  # the draw rng.choice(legal_moves) makes, without building the list
        return ruleset.pick(state, seat, rng)
    moves = ruleset.legal_moves(state, seat)
    if len(moves) == 1:
        return rng.choice(moves)
    phase = state["phase"]
    if phase == "empire":
        return _keep(state, seat, moves)
    if phase == "draft":
        return _draft(state, seat, moves)
    if phase == "load":
        if moves[0]["type"] == "StoreLocally":  # version 3, loaded: keep every lone unit for a later Domestic pair
            return moves[0]
        return _load(state, seat, moves)
    if moves[0]["type"] == "StoreLocally":  # version 4, an action phase's end: store as version 3 did
        return moves[0]
    if state["roll"] is not None:
        return _sway(state, seat, moves)
    action = state["action"]
    if action is not None and action["kind"] == "violence":
        return _violence_offer(moves)
    if actor(state) == seat:
        return _act(state, seat, moves)
    return moves[-1]


# ----------------------------------------------------------------------------
# Empires
# ----------------------------------------------------------------------------

@lru_cache(maxsize=1 << 14)
def _empire_value(empire: frozenset, version: int) -> float:
    """Expected stacks per turn an empire could trade, roughly: each source's WV at its best market."""
    total = 0.0
    for s in sorted(empire):  # sorted: a float sum in a set's order would differ between processes (hash seeds)
        region = BOARD.regions[s]
        best = 0.0
        for t in region.produces:
            for d in sorted(empire):
                want = demand(d, t)
                if not want:
                    continue
                if d == s:
                    value = 0.5 * p_at_least(2) * min(1.0, want / max(region.wv, 1)) + 0.05
                else:
                    need = min(n for _, n in geo.routes(s, d, frozenset(), empire, version))
                    value = p_at_least(need) * min(1.0, want / max(region.wv, 1))
                best = max(best, value)
        total += region.wv * best + 0.02 * sum(region.demand.values())
    return total


def _keep(state: dict, seat: int, moves: list[dict]) -> dict:
    return max(moves, key=lambda m: _empire_value(frozenset(m["regions"]), rules_version(state)))


def _draft(state: dict, seat: int, moves: list[dict]) -> dict:
    mine = frozenset(regions_of(state, seat))
    base = _empire_value(mine, rules_version(state))
    best, gain = None, 0.05
    for m in moves:
        if m["type"] in ("DraftRegion", "ClaimRegion"):
            g = _empire_value(mine | {m["region"]}, rules_version(state)) - base
            if m["type"] == "ClaimRegion":
                g += 0.1
            if g > gain:
                best, gain = m, g
    return best or {"type": "DeclineDraft"}


# ----------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------

def _markets(state: dict, seat: int) -> dict:
    """{(source, type): best P(success) of a market for that type reachable from the source}."""
    mine = controlled(state, seat)
    opp = blocked(state, seat)
    out = {}
    for s in sorted(mine):  # sorted: the same order in every process, whatever its hash seed
        for t in produces(s):
            best = 0.0
            for d in sorted(mine):
                if demand(d, t) <= 0:
                    continue
                if d == s:
                    best = max(best, 0.5 * p_at_least(2 + state["players"][seat]["crackdowns"][t]))
                else:
                    need = min(n for _, n in geo.routes(s, d, opp, mine, rules_version(state)))
                    best = max(best, p_at_least(need + state["players"][seat]["crackdowns"][t]))
            out[(s, t)] = best
    return out


def _load(state: dict, seat: int, moves: list[dict]) -> dict:
    """The first LoadWeight of a plan that gives each unit the type with the best reachable market."""
    markets = _markets(state, seat)
    loads = [m for m in moves if m["type"] == "LoadWeight"]
    if not loads:
        return moves[-1]
    placed = {t: 0 for t in WEIGHT_TYPES}
    for r in regions_of(state, seat):
        for t in WEIGHT_TYPES:
            placed[t] += state["weight"][r][t]
    mine = regions_of(state, seat)
    want = {t: sum(demand(r, t) for r in mine) for t in WEIGHT_TYPES}

    def score(m: dict) -> tuple:
        t = m["weight"]
        crowd = 0.15 if placed[t] >= want[t] else 0.0
        return (markets.get((m["from"], t), 0.0) - crowd, m["to"] != "traphouse", m["units"])

    best = max(loads, key=score)
    return best


# ----------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------

def _case_cost(state: dict, seat: int, units: int) -> float:
    """The cost of `units` new Cases: small, plus a Trial's expected loss if they bring one."""
    cases = case_total(state, seat)
    cost = CASE_COST * units
    if cases + units >= trial_at(state):
        cost += TRIAL_COST
    return cost


def _sway_plan(state: dict, seat: int, target: int, units: int) -> int:
    """How much Sway (from usable Traphouse weight) is worth putting on one's own trade roll."""
    spare = usable_total(state, seat)
    best_k, best_v = 0, None
    for k in range(min(spare, 4) + 1):
        p = p_at_least(target, k)
        v = units * p - (1 - p) * _case_cost(state, seat, units) - k * WEIGHT_UNIT
        if best_v is None or v > best_v + 1e-9:
            best_k, best_v = k, v
    return best_k


def _trade_value(state: dict, seat: int, move: dict, need: int) -> float:
    units = move["units"]
    k = _sway_plan(state, seat, need, units)
    p = p_at_least(need, k)
    value = units * p - (1 - p) * _case_cost(state, seat, units) - k * WEIGHT_UNIT
    if move["route"] == "export":
        value -= units * WEIGHT_UNIT * 0.5       # Traphouse weight has other uses
    return value


def _best_trade(state: dict, seat: int, moves: list[dict]) -> tuple[dict | None, float]:
    needs = {(f, t, r): n for f, t, r, n, _ in trade.options(state, seat)}
    best, best_v = None, TRADE_FLOOR
    for m in moves:
        if m["type"] != "Trade":
            continue
        v = _trade_value(state, seat, m, needs[(m["from"], m["to"], m["route"])])
        if v > best_v + 1e-9 or (best is not None and abs(v - best_v) < 1e-9 and m["units"] > best["units"]):
            best, best_v = m, v
    return best, best_v


def _leader(state: dict, seat: int) -> int:
    scores = [p["score"] for p in state["players"]]
    return max((s for s in range(state["seats"]) if s != seat), key=lambda s: (scores[s], -s))


def _attack(state: dict, seat: int, moves: list[dict]) -> dict | None:
    """An attack on an empty region of the leader (taking it), or on a loaded one of theirs."""
    if free_markers(state, seat) <= 0:
        return None
    leader = _leader(state, seat)
    if state["players"][leader]["score"] < state["players"][seat]["score"]:
        return None
    best, best_v = None, 0.9
    for m in moves:
        if m["type"] != "Attack" or state["owner"][m["target"]] != leader:
            continue
        weight = region_weight(state, m["target"])
        mine = region_weight(state, m["from"])
        win, by5 = p_beats(0, 0)
        value = win * (1.5 if weight == 0 else 0.3 * weight) - by5 * 0.3 * mine
        if value > best_v:
            best, best_v = m, value
    return best


def _play_turn_card(state: dict, seat: int, moves: list[dict]) -> dict | None:
    plays = [m for m in moves if m["type"] == "PlayCard"]
    if not plays:
        return None
    markets = _markets(state, seat)
    for m in plays:
        effect = CARDS[m["card"]]["effect"]
        if effect["kind"] == "clear_cases" and case_total(state, seat) >= min(2, trial_at(state) - 1):
            return m
    # bonus weight only while its phase is still to come this turn (else it waits a turn on the Region)
    now = WEIGHT_TYPES.index(state["wtype"])
    bonus = [m for m in plays if CARDS[m["card"]]["effect"]["kind"] == "bonus_weight"
             and WEIGHT_TYPES.index(CARDS[m["card"]]["effect"]["weight"]) >= now]
    if bonus:
        return max(bonus, key=lambda m: markets.get((m["region"], CARDS[m["card"]]["effect"]["weight"]), 0.0))
    return None


def _draw_weight(state: dict, seat: int, moves: list[dict]) -> dict | None:
    draws = [m for m in moves if m["type"] == "DrawWeight"]
    if not draws:
        return None
    mine = regions_of(state, seat)
    want = {t: sum(demand(r, t) for r in mine) for t in WEIGHT_TYPES}
    return max(draws, key=lambda m: sum(want[w] for w in m["weights"]))


def _act(state: dict, seat: int, moves: list[dict]) -> dict:
    types = {m["type"] for m in moves}
    if "ReRoll" in types:
        return {"type": "ReRoll"}
    if "PressAttack" in types:
        return {"type": "PressAttack"}
    card = _play_turn_card(state, seat, moves)
    if card is not None:
        return card
    best, _ = _best_trade(state, seat, moves)
    if best is not None:
        return best
    if state["action"] is not None:
        return {"type": "EndAction"}
    attack = _attack(state, seat, moves)
    if attack is not None:
        return attack
    if "DrawBaller" in types and len(state["players"][seat]["hand"]) < 2:
        return {"type": "DrawBaller"}
    draw = _draw_weight(state, seat, moves)
    if draw is not None and usable_total(state, seat) < 12:
        return draw
    return {"type": "Pass"}


def _violence_offer(moves: list[dict]) -> dict:
    types = {m["type"] for m in moves}
    for pick in ("Counterattack", "PressAttack"):
        if pick in types:
            return {"type": pick}
    return moves[-1]


# ----------------------------------------------------------------------------
# Sway and cards on rolls
# ----------------------------------------------------------------------------

def _pay(state: dict, seat: int, die: str, amount: int, moves: list[dict]) -> dict | None:
    """A Sway move of `amount` (signed) on `die`, paid with the type least useful to seat."""
    if amount == 0:
        return None
    mine = regions_of(state, seat)
    want = {t: sum(demand(r, t) for r in mine) for t in WEIGHT_TYPES}
    options = [m for m in moves if m["type"] == "Sway" and m["die"] == die and
               (m["units"] > 0) == (amount > 0) and abs(m["units"]) <= abs(amount)]
    if not options:
        return None
    return max(options, key=lambda m: (abs(m["units"]), usable(state, seat, m["weight"]) - want[m["weight"]]))


def _swayed(roll: dict, seat: int, die: str) -> int:
    return sum(u for s, d, _, u in roll["sway"] if s == seat and d == die)


def _sway(state: dict, seat: int, moves: list[dict]) -> dict:
    roll = state["roll"]
    cards = {m["card"]: m for m in moves if m["type"] == "PlayCard"}
    mods = rolls.modifiers(roll)
    kind = roll["kind"]
    ctx = roll["context"]
    if kind == "rolloff":
        return _rolloff_sway(state, seat, roll, moves)
    if kind == "trade":
        if seat == roll["roller"]:
            if "greased_palms" in cards and ctx["units"] >= 2 and p_at_least(ctx["target"], mods["trade"]) < 0.8:
                return cards["greased_palms"]
            want = _sway_plan(state, seat, ctx["target"] - mods["trade"] + _swayed(roll, seat, "trade"),
                              ctx["units"])
            move = _pay(state, seat, "trade", want - _swayed(roll, seat, "trade"), moves)
            return move or {"type": "EndSway"}
        leader = _leader(state, seat)
        if roll["roller"] == leader and state["players"][leader]["score"] >= state["players"][seat]["score"]:
            p_now = p_at_least(ctx["target"], mods["trade"])
            if "snitch" in cards and ctx["units"] >= 2 and p_now > 0.3:
                return cards["snitch"]
            if ctx["units"] >= 2 and usable_total(state, seat) >= 4 and p_now > 0.3 and \
                    _swayed(roll, seat, "trade") == 0:
                move = _pay(state, seat, "trade", -1, moves)
                if move:
                    return move
        return {"type": "EndSway"}
    if kind == "trial":
        if seat != roll["roller"]:
            return {"type": "EndSway"}
        if "plea_deal" in cards:
            return cards["plea_deal"]
        if "bent_lawyer" in cards:
            return cards["bent_lawyer"]
        need = 7 - mods["trial"]
        spare = usable_total(state, seat)
        # walk on as many faces as reasonable: aim for 7 on a 5 (sway 2) when affordable
        want = max(0, min(need - 5, spare, 4))
        move = _pay(state, seat, "trial", want, moves) if want > 0 else None
        return move or {"type": "EndSway"}
    if kind == "war":
        defence_owner = roll["owners"]["defence"]
        if seat == roll["roller"]:
            if "hired_guns" in cards:
                return cards["hired_guns"]
            if mods["attack"] < 1:
                move = _pay(state, seat, "attack", 1, moves)
                if move:
                    return move
            return {"type": "EndSway"}
        if seat == defence_owner:
            if "armed_locals" in cards:
                return cards["armed_locals"]
            if "crooked_cop" in cards and region_weight(state, ctx["target"]) >= 2:
                return cards["crooked_cop"]
            if mods["defence"] - mods["attack"] < 2:
                move = _pay(state, seat, "defence", 1, moves)
                if move:
                    return move
        return {"type": "EndSway"}
    # bonus roll: +2 turns a 2 or 3 into 3 units
    if seat == roll["roller"] and mods["bonus"] < 2:
        move = _pay(state, seat, "bonus", 2 - mods["bonus"], moves)
        if move:
            return move
    return {"type": "EndSway"}


def _rolloff_sway(state: dict, seat: int, roll: dict, moves: list[dict]) -> dict:
    """Version 3: a tied winner spends all its Traphouse weight on its own die in the endgame roll-off
    (weight is worth nothing once the game is over); the action order and draft roll-offs are not worth it."""
    die = rolls.die_of(seat)
    if roll["context"]["for"] == "endgame" and die in roll["owners"]:
        move = _pay(state, seat, die, usable_total(state, seat), moves)
        if move:
            return move
    return {"type": "EndSway"}


__all__ = ["choose", "p_at_least", "p_beats"]
