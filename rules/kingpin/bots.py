"""Kingpin bots.

"random": uniform over legal_moves, through the rng it is given.
"greedy": plays to win with a one-move lookahead.  It folds each candidate
move's events (from the same handlers the server uses) and scores the result
with `value`: bankroll first, then what will turn into bankroll (Hits, Junkie
cash, cards that add dice), minus a share of the leading opponent's worth.
Buying, sale sizes (OD risk) and window answers use small explicit rules.
"""
from __future__ import annotations

from rules.base import Rng
from rules.kingpin.state import kind_of

HIT_ON_DEALER = 110
HIT_ON_TRUCK = 70
JUNKIE_CASH = 0.45
BASIC_CARD = 90
ACTIVE_SPECIAL = 160
EXHAUSTED_SPECIAL = 70
UNUSED_DIE = 2
OPPONENT_SHARE = 0.35
SURVIVE = {0: 1.0, 1: 1 - (1 / 2) ** 3, 2: 1 - (1 / 2) ** 2, 3: 1 / 2}  # P(any die <= 3) by dice rolled


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    """A legal move for `seat` at this bot level."""
    moves = ruleset.legal_moves(state, seat)
    if level == "random" or len(moves) == 1:
        return rng.choice(moves)
    if state["window"] is not None:
        return _answer_window(state, seat, moves)
    if state["phase"] == "buy":
        return _buy(state, seat, moves)
    if state["pending"] is not None and state["pending"]["kind"] == "sale":
        return _best_sale(state, seat, moves)
    return _lookahead(ruleset, state, seat, moves)


# ----------------------------------------------------------------------------
# Valuation
# ----------------------------------------------------------------------------

def _card_value(state: dict, card: dict) -> float:
    """One card's contribution to its owner's worth."""
    if card["owner"] is None or card["where"] == "removed":
        return 0.0
    scale = 1.0 if card["where"] == "play" else 0.3
    if card["type"] == "junkie":
        k = state["catalog"]["kinds"][card["kind"]]
        return scale * (BASIC_CARD + JUNKIE_CASH * card["cash"] + 0.6 * k["payday"])
    if card["type"] in ("truck", "dealer"):
        size = state["catalog"]["kinds"][card["kind"]]["size"]
        per_hit = HIT_ON_DEALER if card["type"] == "dealer" else HIT_ON_TRUCK
        return scale * (BASIC_CARD + 8 * size + per_hit * card["hits"])
    return scale * (EXHAUSTED_SPECIAL if card["exhausted"] else ACTIVE_SPECIAL)


def worth(state: dict, base: tuple | None = None) -> list[float]:
    """Each seat's estimated worth: bankroll plus what its cards will earn.

    `base` = (an earlier state, its card totals per seat): evolve copies only the
    cards an event changes, so a lookahead re-scores just those."""
    if base is None:
        totals = [0.0] * state["seats"]
        for card in state["cards"].values():
            if card["owner"] is not None:
                totals[card["owner"]] += _card_value(state, card)
    else:
        before, base_totals = base
        totals = list(base_totals)
        if state["cards"] is not before["cards"]:
            for new, old in zip(state["cards"].values(), before["cards"].values()):
                if new is not old:
                    if old["owner"] is not None:
                        totals[old["owner"]] -= _card_value(before, old)
                    if new["owner"] is not None:
                        totals[new["owner"]] += _card_value(state, new)
    out = [b + t for b, t in zip(state["bankrolls"], totals)]
    pending = state["pending"]
    if pending is not None and pending["kind"] == "distribute":
        out[state["current"]] += HIT_ON_DEALER * pending["hits"]
    elif pending is not None:
        out[state["current"]] += max(0.0, max(
            _sale_score(state, state["current"], h, _cash_for(state, h))
            for h in range(1, state["cards"][pending["dealer"]]["hits"] + 1)))
    window = state["window"]
    if window is not None and window["kind"] in ("cop", "hitman"):
        victim = state["cards"][window["card"]]
        out[victim["owner"]] -= 150 + (JUNKIE_CASH * victim.get("cash", 0))
        if window["kind"] == "hitman":
            out[window["attacker"]] -= window["bounty"]
    return out


def card_totals(state: dict) -> list[float]:
    """Per seat, the summed value of its cards (the cached part of `worth`)."""
    totals = [0.0] * state["seats"]
    for card in state["cards"].values():
        if card["owner"] is not None:
            totals[card["owner"]] += _card_value(state, card)
    return totals


def value(state: dict, seat: int, base: tuple | None = None) -> float:
    """Seat's worth minus a share of the best opponent's (so attacks on the leader pay)."""
    w = worth(state, base)
    if state["result"] is not None:
        return 1e9 if seat in state["result"]["winners"] else -1e9
    best_other = max(v for s, v in enumerate(w) if s != seat)
    unused = state["used"].count(False) if state["phase"] == "dice" and state["current"] == seat else 0
    return w[seat] - OPPONENT_SHARE * best_other + UNUSED_DIE * unused


# ----------------------------------------------------------------------------
# Decisions
# ----------------------------------------------------------------------------

SINGLE_FACE = {"Ship": 1, "Distribute": 2, "PurchaseHits": 3, "Payday": 4, "StealDeal": 5, "Chloroform": 6}
GROUPS = ("ActivateCard", "CollectDouble", "UseTriple", "UseQuadruple")


def _lookahead(ruleset, state: dict, seat: int, moves: list[dict]) -> dict:
    """The move whose resulting state `value`s best (ties: the earlier listed move).

    Groups of dice (doubles, triples, quadruples) are only tried on the face
    whose best single use scores lowest, to keep the search small."""
    probe = Rng("kingpin-greedy-lookahead", state["turn"])
    base = (state, card_totals(state))
    scored: list[tuple[float, int, dict]] = []
    single_best: dict[int, float] = {}

    def score(move: dict) -> float:
        if move["type"] == "EndTurn":
            after = dict(state, phase="specials", pending=None)
        else:
            events = ruleset.handlers[move["type"]](state, seat, move, probe)
            after = ruleset.fold(state, [e for e in events if e.type != "TurnStarted"])
        result = value(after, seat, base)
        if move["type"] in ("UseCop", "UseHitMan", "PlaceRegulator", "Chloroform"):
            result += _attack_bonus(state, seat, move)
        return result

    groups = []
    for i, move in enumerate(_prune_sales(state, seat, _distinct(state, moves))):
        if move["type"] in GROUPS:
            groups.append((i, move))
            continue
        result = score(move)
        scored.append((result, -i, move))
        face = SINGLE_FACE.get(move["type"])
        if face is not None:
            single_best[face] = max(single_best.get(face, float("-inf")), result)
    by_type: dict[str, list] = {}
    for i, move in groups:
        by_type.setdefault(move["type"], []).append((i, move))
    for entries in by_type.values():
        face = min({m["face"] for _, m in entries}, key=lambda f: (single_best.get(f, float("-inf")), f))
        scored += [(score(m), -i, m) for i, m in entries if m["face"] == face]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def _signature(state: dict, move: dict) -> tuple:
    """A move with card ids replaced by what matters about the card (interchangeable cards look alike)."""
    out = []
    for key, arg in sorted(move.items()):
        card = state["cards"].get(arg) if isinstance(arg, str) else None
        if card is not None:
            arg = (card["kind"], card["owner"], card.get("hits"), card.get("cash"), card.get("exhausted"),
                   card.get("target"))
        out.append((key, arg))
    return tuple(out)


def _distinct(state: dict, moves: list[dict]) -> list[dict]:
    """Moves with a different effect (e.g. one Ship per kind of empty truck)."""
    seen, out = set(), []
    for move in moves:
        sig = _signature(state, move)
        if sig not in seen:
            seen.add(sig)
            out.append(move)
    return out


def _prune_sales(state: dict, seat: int, moves: list[dict]) -> list[dict]:
    """Keep only the most promising PurchaseHits and StealDeal (scored without folding)."""
    best: dict[str, tuple[float, dict]] = {}
    rest = []
    for move in moves:
        if move["type"] not in ("PurchaseHits", "StealDeal"):
            rest.append(move)
            continue
        probe = dict(state, pending={"kind": "sale", "junkie": move["junkie"], "dealer": move["dealer"]})
        score = max(_sale_score(probe, seat, h, _cash_for(probe, h))
                    for h in range(1, state["cards"][move["dealer"]]["hits"] + 1))
        if move["type"] not in best or score > best[move["type"]][0]:
            best[move["type"]] = (score, move)
    return rest + [move for _, move in best.values()]


def _leader(state: dict, seat: int) -> int:
    w = worth(state)
    return max((s for s in range(state["seats"]) if s != seat), key=lambda s: w[s])


def _attack_bonus(state: dict, seat: int, move: dict) -> float:
    """Prefer hurting the leading opponent; Regulators hurt over many turns."""
    leader = _leader(state, seat)
    if move["type"] == "PlaceRegulator":
        return 120 if move["target"] == leader else 20
    target = move.get("target") if move["type"] != "Chloroform" else move["card"]
    owner = state["cards"][target]["owner"]
    return 60 if owner == leader else -60


def _sale_score(state: dict, seat: int, hits: int, cash: int) -> float:
    pending = state["pending"]
    junkie = state["cards"][pending["junkie"]]
    k = kind_of(state, pending["junkie"])
    over = hits - k["od"]
    survive = 0.0 if over >= 4 else SURVIVE[max(over, 0)]
    lost_hits = hits * HIT_ON_DEALER * 0.6
    if junkie["owner"] == seat:
        junkie_worth = BASIC_CARD + JUNKIE_CASH * (junkie["cash"] - cash) + 0.6 * k["payday"] * 4
        return cash * (1 - JUNKIE_CASH) - lost_hits - (1 - survive) * junkie_worth
    victim_worth = BASIC_CARD + JUNKIE_CASH * (junkie["cash"] - cash) + 0.6 * k["payday"]
    return cash * (1 + OPPONENT_SHARE * JUNKIE_CASH) - lost_hits + (1 - survive) * OPPONENT_SHARE * victim_worth


def _cash_for(state: dict, hits: int) -> int:
    """Most cash `hits` Hits can fetch from the pending sale's Junkie."""
    junkie = state["pending"]["junkie"]
    return min(state["cards"][junkie]["cash"], hits * kind_of(state, junkie)["max_pay"])


def _best_sale(state: dict, seat: int, moves: list[dict]) -> dict:
    sales = [m for m in moves if m["type"] == "SellHits"]
    return max(sales, key=lambda m: (_sale_score(state, seat, m["hits"], m["cash"]), -m["hits"]))


BUY_ORDER = ("junkie1000", "junkie800", "junkie600", "dealer6", "truck5", "junkie400", "dealer12", "truck4",
             "hitman", "cop", "dealer3", "junkie200", "truck3", "regulator", "immunity")


def _buy(state: dict, seat: int, moves: list[dict]) -> dict:
    """Buy income while far from the target, keeping a small reserve; then roll."""
    bank = state["bankrolls"][seat]
    target = state["options"]["target"]
    bribes = [m for m in moves if m["type"] == "BribeRegulator"]
    if bribes and bank > 1500:
        return bribes[0]
    if bank < target * 0.55:
        reserve = 200
        kinds = {m["kind"]: m for m in moves if m["type"] == "PurchaseCard"}
        for kind in BUY_ORDER:
            if kind in kinds and bank - state["catalog"]["kinds"][kind]["price"] >= reserve:
                if kind in ("hitman", "cop", "regulator", "immunity") and bank < 1500:
                    continue
                return kinds[kind]
    return {"type": "RollDice"}


def _answer_window(state: dict, seat: int, moves: list[dict]) -> dict:
    """Bribe or double when the card is worth it and money allows; Immunity against a Hit Man."""
    window = state["window"]
    types = {m["type"]: m for m in moves}
    bank = state["bankrolls"][seat]
    card = state["cards"][window["card"]] if "card" in window else None
    if window["kind"] == "hitman":
        doubles = [m for m in moves if m["type"] == "DoubleBounty"]
        if doubles and bank - 2 * window["bounty"] >= 600:
            return max(doubles, key=lambda m: _card_worth(state, m["target"]))
        if "UseImmunity" in types and _card_worth(state, window["card"]) >= 300:
            return types["UseImmunity"]
        return types["AcceptHit"]
    if window["kind"] == "cop":
        if "UseImmunity" in types and _card_worth(state, window["card"]) >= 500:
            return types["UseImmunity"]
        if "BribeCop" in types and _card_worth(state, window["card"]) > window["bribe"] and card is not None:
            return types["BribeCop"]
        return types["AcceptJail"]
    if "BribeRegulator" in types and bank > 2000:
        return types["BribeRegulator"]
    return types["AcceptRegulator"]


def _card_worth(state: dict, card_id: str) -> float:
    card = state["cards"][card_id]
    k = kind_of(state, card_id)
    if card["type"] == "junkie":
        return BASIC_CARD + card["cash"] * 0.8 + k["payday"]
    if card["type"] == "dealer":
        return BASIC_CARD + 100 * k["size"] + HIT_ON_DEALER * card["hits"]
    return ACTIVE_SPECIAL + 300
