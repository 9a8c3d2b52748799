"""On Your Turn step 3: Roll Outcomes (single, double, triple, quadruple), Purchasing Hits and OD."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.kingpin.guards import (
    FACE_NAMES,
    FACE_RULE,
    card,
    describe,
    money,
    require_active_player,
    require_funds,
    require_no_pending,
    require_own_in_play,
    require_phase,
)
from rules.kingpin.state import kind_of, must_place_hits, owned, regulators_on, unused_faces

RULE_SALE = "Purchasing Hits"
RULE_OD = "OD"
RULE_DOUBLE = "Roll Outcomes: Double Die"
RULE_TRIPLE = "Roll Outcomes: Triple Die"
RULE_QUAD = "Roll Outcomes: Quadruple Die"


# ----------------------------------------------------------------------------
# Shared guards
# ----------------------------------------------------------------------------

def _require_dice(state: dict, seat: int, face: int, count: int, rule: str) -> None:
    """Active player, allocating dice, nothing pending, and `count` unused dice showing `face`."""
    require_active_player(state, seat, rule)
    require_phase(state, ("dice",), "allocating a die", rule)
    require_no_pending(state)
    if face not in range(1, 7):
        raise IllegalMove(f"a die has faces 1 to 6, not {face}", rule=rule)
    have = unused_faces(state).get(face, 0)
    if have < count:
        group = {1: "a die", 2: "a double", 3: "a triple", 4: "a quadruple"}[count]
        raise IllegalMove(f"you have {have} unused {face}(s); {group} of {face}s needs {count}", rule=rule)


def _used(seat: int, face: int, count: int, action: str) -> Event:
    return Event("DiceUsed", {"seat": seat, "face": face, "count": count, "action": action})


def _opponent_junkie(state: dict, seat: int, junkie_id: str, rule: str) -> dict:
    c = card(state, junkie_id, rule)
    if c["type"] != "junkie" or c["where"] != "play" or c["owner"] == seat:
        raise IllegalMove(f"{junkie_id} is not an opponent's Junkie in play; Steal a Deal sells to "
                          f"somebody else's Junkie", rule=rule)
    return c


def _stocked(state: dict, types: tuple) -> list[str]:
    """Kinds of these types with cards left in their stack."""
    kinds = state["catalog"]["kinds"]
    return [k for k in state["catalog"]["order"] if kinds[k]["type"] in types and state["stacks"][k]]


def dealer_space(state: dict, dealer_id: str) -> int:
    """How many more Hits a Dealer can hold."""
    return kind_of(state, dealer_id)["size"] - state["cards"][dealer_id]["hits"]


def chloroform_targets(state: dict, seat: int) -> list[str]:
    """Opponents' active Special Cards in play that are not Regulators currently targeting a player."""
    return [cid for cid, c in state["cards"].items()
            if c["type"] == "special" and c["owner"] not in (None, seat) and c["where"] == "play"
            and not c["exhausted"] and c["target"] is None]


# ----------------------------------------------------------------------------
# Single die outcomes
# ----------------------------------------------------------------------------

def decide_ship(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Ship{truck} (face 1): fill an EMPTY Supply Truck with its circle number of Hits, unless a Regulator blocks."""
    rule = FACE_RULE
    _require_dice(state, seat, 1, 1, rule)
    truck = require_own_in_play(state, seat, cmd["truck"], ("truck",), "Basic Cards: Supply Truck")
    if truck["hits"]:
        raise IllegalMove(f"{describe(state, cmd['truck'])} still holds {truck['hits']} Hit(s); a Shipment "
                          f"goes onto an empty Supply Truck", rule=rule)
    events = [_used(seat, 1, 1, "Shipment")]
    waiting = [r for r in regulators_on(state, seat) if r not in state["blocked"]]
    if waiting:
        return events + [Event("ShipmentBlocked", {"seat": seat, "truck": cmd["truck"], "regulator": waiting[0],
                                                   "owner": state["cards"][waiting[0]]["owner"]})]
    size = kind_of(state, cmd["truck"])["size"]
    return events + [Event("ShipmentMade", {"seat": seat, "truck": cmd["truck"], "hits": size})]


def decide_distribute(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Distribute{truck} (face 2): all Hits leave ONE truck; place them with PlaceHits, the rest is discarded."""
    rule = FACE_RULE
    _require_dice(state, seat, 2, 1, rule)
    truck = require_own_in_play(state, seat, cmd["truck"], ("truck",), "Basic Cards: Supply Truck")
    if not truck["hits"]:
        raise IllegalMove(f"{describe(state, cmd['truck'])} is empty; there is nothing to distribute", rule=rule)
    events = [_used(seat, 2, 1, "Distribute"),
              Event("DistributionStarted", {"seat": seat, "truck": cmd["truck"], "hits": truck["hits"]})]
    if not any(dealer_space(state, d) for d in owned(state, seat, "dealer")):
        events.append(Event("DistributionFinished", {"seat": seat, "discarded": truck["hits"]}))
    return events


def decide_place_hits(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PlaceHits{dealer, hits}: put some of the distributed Hits on one Dealer, up to its Maximum Hits Held."""
    rule = "Basic Cards: Dealer"
    require_active_player(state, seat, rule)
    pending = state["pending"]
    if not pending or pending["kind"] != "distribute":
        raise IllegalMove("there is no Distribute in progress", rule=FACE_RULE)
    require_own_in_play(state, seat, cmd["dealer"], ("dealer",), rule)
    hits, space = cmd["hits"], dealer_space(state, cmd["dealer"])
    if hits < 1 or hits > pending["hits"]:
        raise IllegalMove(f"place between 1 and {pending['hits']} Hit(s), not {hits}", rule=FACE_RULE)
    if hits > space:
        raise IllegalMove(f"{describe(state, cmd['dealer'])} can hold only {space} more Hit(s)", rule=rule)
    events = [Event("HitsPlaced", {"seat": seat, "dealer": cmd["dealer"], "hits": hits})]
    left = pending["hits"] - hits
    room = sum(dealer_space(state, d) for d in owned(state, seat, "dealer")) - hits
    if left == 0 or room == 0:
        events.append(Event("DistributionFinished", {"seat": seat, "discarded": left}))
    return events


def decide_finish_distribute(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """FinishDistribute (version 1 only): discard the Hits your Dealers did not take."""
    require_active_player(state, seat, FACE_RULE)
    pending = state["pending"]
    if not pending or pending["kind"] != "distribute":
        raise IllegalMove("there is no Distribute in progress", rule=FACE_RULE)
    if must_place_hits(state):
        raise IllegalMove(f"your Dealers still have room: place the {pending['hits']} Hit(s) (PlaceHits); "
                          f"only what they cannot hold is discarded", rule=FACE_RULE)
    return [Event("DistributionFinished", {"seat": seat, "discarded": pending["hits"]})]


def _start_sale(state: dict, seat: int, cmd: dict, face: int) -> list[Event]:
    """PurchaseHits / StealDeal: ONE Junkie buys from ONE of your Dealers; SellHits sets hits and cash."""
    action = "Purchase Hits" if face == 3 else "Steal a Deal"
    _require_dice(state, seat, face, 1, FACE_RULE)
    if face == 3:
        require_own_in_play(state, seat, cmd["junkie"], ("junkie",), RULE_SALE)
    else:
        _opponent_junkie(state, seat, cmd["junkie"], RULE_SALE)
    dealer = require_own_in_play(state, seat, cmd["dealer"], ("dealer",), RULE_SALE)
    if not dealer["hits"]:
        raise IllegalMove(f"{describe(state, cmd['dealer'])} holds no Hits to sell", rule=RULE_SALE)
    return [_used(seat, face, 1, action),
            Event("SaleStarted", {"seat": seat, "face": face, "junkie": cmd["junkie"], "dealer": cmd["dealer"]})]


def decide_purchase_hits(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PurchaseHits{junkie, dealer} (face 3): your own Junkie."""
    return _start_sale(state, seat, cmd, 3)


def decide_steal_deal(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """StealDeal{junkie, dealer} (face 5): somebody else's Junkie."""
    return _start_sale(state, seat, cmd, 5)


def sale_limit(state: dict, junkie_id: str, hits: int) -> int:
    """Most cash a sale of `hits` may collect: Max pay per Hit x hits, and no more than the Junkie has."""
    return min(state["cards"][junkie_id]["cash"], hits * kind_of(state, junkie_id)["max_pay"])


def od_events(state: dict, seat: int, junkie_id: str, hits: int, paid: int, rng: Rng) -> list[Event]:
    """OD: over by 1/2/3 rolls 3/2/1 dice, survives on any die <= 3; over by 4+ is instant death.
    A dead Junkie's remaining money (after paying `paid`) goes to the bank."""
    over = hits - kind_of(state, junkie_id)["od"]
    if over <= 0:
        return []
    died = Event("JunkieDied", {"junkie": junkie_id, "owner": state["cards"][junkie_id]["owner"],
                                "cash": state["cards"][junkie_id]["cash"] - paid, "cause": "OD"})
    if over >= 4:
        return [Event("ODRolled", {"seat": seat, "junkie": junkie_id, "over": over, "dice": [], "survived": False}),
                died]
    dice = rng.roll(4 - over)
    survived = any(d <= 3 for d in dice)
    events = [Event("ODRolled", {"seat": seat, "junkie": junkie_id, "over": over, "dice": dice,
                                 "survived": survived})]
    return events if survived else events + [died]


def decide_sell_hits(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """SellHits{hits, cash}: remove Hits from the Dealer, collect cash (in $100 steps) from the Junkie."""
    require_active_player(state, seat, RULE_SALE)
    pending = state["pending"]
    if not pending or pending["kind"] != "sale":
        raise IllegalMove("choose a Junkie and a Dealer first (PurchaseHits or StealDeal)", rule=RULE_SALE)
    hits, cash = cmd["hits"], cmd["cash"]
    on_dealer = state["cards"][pending["dealer"]]["hits"]
    if hits < 1 or hits > on_dealer:
        raise IllegalMove(f"{describe(state, pending['dealer'])} holds {on_dealer} Hit(s); sell 1 to {on_dealer}, "
                          f"not {hits}", rule=RULE_SALE)
    limit = sale_limit(state, pending["junkie"], hits)
    if cash < 0 or cash % 100:
        raise IllegalMove(f"cash moves in $100 steps; {cash} is not one", rule=RULE_SALE)
    if cash > limit:
        j = state["cards"][pending["junkie"]]
        raise IllegalMove(f"{describe(state, pending['junkie'])} has {money(j['cash'])} and pays at most "
                          f"{money(kind_of(state, pending['junkie'])['max_pay'])} per Hit: {hits} Hit(s) can "
                          f"fetch at most {money(limit)}", rule=RULE_SALE)
    return ([Event("HitsSold", {"seat": seat, "junkie": pending["junkie"], "dealer": pending["dealer"],
                                "hits": hits, "cash": cash, "face": pending["face"]})]
            + od_events(state, seat, pending["junkie"], hits, cash, rng))


def payday_payouts(state: dict, seats: list[int]) -> list[list]:
    """[junkie, Payday value] for every Junkie in play of these seats."""
    return [[cid, state["catalog"]["kinds"][c["kind"]]["payday"]] for cid, c in state["cards"].items()
            if c["type"] == "junkie" and c["where"] == "play" and c["owner"] in seats]


def decide_payday(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Payday (face 4): add each of your Junkies' Payday under ALL of your Junkies."""
    _require_dice(state, seat, 4, 1, FACE_RULE)
    return [_used(seat, 4, 1, "Payday"),
            Event("PaydayCollected", {"seats": [seat], "payouts": payday_payouts(state, [seat])})]


def decide_chloroform(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Chloroform{card} (face 6): pay $200 to Exhaust an opponent's active Special Card not targeting a player."""
    rule = "Roll Outcomes: Single Die"
    _require_dice(state, seat, 6, 1, rule)
    c = card(state, cmd["card"], rule)
    label = describe(state, cmd["card"])
    if c["type"] != "special":
        raise IllegalMove(f"{label} is not a Special Card; Chloroform Exhausts Special Cards", rule=rule)
    if c["owner"] in (None, seat) or c["where"] != "play":
        raise IllegalMove(f"{label} is not an opponent's Special Card in play", rule=rule)
    if c["exhausted"]:
        raise IllegalMove(f"{label} is already Exhausted", rule=rule)
    if c["target"] is not None:
        raise IllegalMove(f"{label} is targeting seat {c['target']}; a Regulator can only be Chloroformed if "
                          f"it is not currently targeting a player", rule="Special Cards: Regulator")
    cost = state["catalog"]["costs"]["chloroform"]
    require_funds(state, seat, cost, "Chloroform", rule)
    return [_used(seat, 6, 1, "Chloroform"),
            Event("CardChloroformed", {"seat": seat, "card": cmd["card"], "owner": c["owner"], "cost": cost})]


# ----------------------------------------------------------------------------
# Double, triple, quadruple outcomes
# ----------------------------------------------------------------------------

def decide_activate(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """ActivateCard{face, card}: a double re-activates one of your Exhausted Special Cards."""
    _require_dice(state, seat, cmd["face"], 2, RULE_DOUBLE)
    c = require_own_in_play(state, seat, cmd["card"], ("special",), RULE_DOUBLE)
    if not c["exhausted"]:
        raise IllegalMove(f"{describe(state, cmd['card'])} is already active", rule=RULE_DOUBLE)
    return [_used(seat, cmd["face"], 2, "Double: activate"),
            Event("CardActivated", {"seat": seat, "card": cmd["card"]})]


def decide_collect_double(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """CollectDouble{face}: a double pays $200 into your bankroll."""
    _require_dice(state, seat, cmd["face"], 2, RULE_DOUBLE)
    return [_used(seat, cmd["face"], 2, "Double: $200"),
            Event("DoubleCashed", {"seat": seat, "amount": state["catalog"]["costs"]["double_cash"]})]


def _free_card(state: dict, seat: int, kind: str | None, types: tuple, what: str, rule: str) -> list[Event]:
    """The free card of a triple/quadruple: the roller's choice of kind among stocked stacks (None if none)."""
    stocked = _stocked(state, types)
    if kind is None:
        if stocked:
            raise IllegalMove(f"choose the free {what}: one of {', '.join(stocked)}", rule=rule)
        return []
    if kind not in stocked:
        raise IllegalMove(f"{kind!r} is not a {what} kind with cards left; choose one of "
                          f"{', '.join(stocked) or 'none (use kind null)'}", rule=rule)
    return [Event("FreeCardTaken", {"seat": seat, "kind": kind, "card": state["stacks"][kind][0]})]


def decide_triple(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """UseTriple{face, kind}: every player's Junkies get a Payday, then the roller takes a free Basic Card."""
    _require_dice(state, seat, cmd["face"], 3, RULE_TRIPLE)
    free = _free_card(state, seat, cmd["kind"], ("truck", "dealer", "junkie"), "Basic Card", RULE_TRIPLE)
    everyone = list(range(state["seats"]))
    return ([_used(seat, cmd["face"], 3, "Triple"),
             Event("PaydayCollected", {"seats": everyone, "payouts": payday_payouts(state, everyone)})] + free)


def decide_quadruple(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """UseQuadruple{face, kind}: the roller takes a free Special Card."""
    _require_dice(state, seat, cmd["face"], 4, RULE_QUAD)
    free = _free_card(state, seat, cmd["kind"], ("special",), "Special Card", RULE_QUAD)
    return [_used(seat, cmd["face"], 4, "Quadruple")] + free


# ----------------------------------------------------------------------------
# Legal moves
# ----------------------------------------------------------------------------

def _sale_moves(state: dict) -> list[dict]:
    pending = state["pending"]
    out = []
    for hits in range(1, state["cards"][pending["dealer"]]["hits"] + 1):
        for cash in range(0, sale_limit(state, pending["junkie"], hits) + 1, 100):
            out.append({"type": "SellHits", "hits": hits, "cash": cash})
    return out


def _distribute_moves(state: dict, seat: int) -> list[dict]:
    pending = state["pending"]
    out = []
    for dealer in owned(state, seat, "dealer"):
        for hits in range(1, min(pending["hits"], dealer_space(state, dealer)) + 1):
            out.append({"type": "PlaceHits", "dealer": dealer, "hits": hits})
    if not must_place_hits(state):
        out.append({"type": "FinishDistribute"})
    return out


def place_default(state: dict, seat: int) -> dict:
    """What a clock places for a seat that must (version 2): as many Hits as fit on its first Dealer with room."""
    pending = state["pending"]
    dealer = next(d for d in owned(state, seat, "dealer") if dealer_space(state, d))
    return {"type": "PlaceHits", "dealer": dealer, "hits": min(pending["hits"], dealer_space(state, dealer))}


def moves(state: dict, seat: int, only_face: int | None = None) -> list[dict]:
    """Every die allocation (or sub-step of one) the active seat may make now; `only_face`: only
    the allocations of that face (what is pending is listed whatever the face)."""
    pending = state["pending"]
    if pending is not None:
        return _sale_moves(state) if pending["kind"] == "sale" else _distribute_moves(state, seat)
    if state["phase"] != "dice":
        return []
    out: list[dict] = []
    faces = unused_faces(state)
    if only_face is not None:
        faces = {only_face: faces[only_face]} if only_face in faces else {}
    trucks = owned(state, seat, "truck") if 1 in faces or 2 in faces else []
    dealers_with_hits = [d for d in owned(state, seat, "dealer") if state["cards"][d]["hits"]] \
        if 3 in faces or 5 in faces else []
    for face in sorted(faces):
        if face == 1:
            out += [{"type": "Ship", "truck": t} for t in trucks if not state["cards"][t]["hits"]]
        elif face == 2:
            out += [{"type": "Distribute", "truck": t} for t in trucks if state["cards"][t]["hits"]]
        elif face == 3:
            out += [{"type": "PurchaseHits", "junkie": j, "dealer": d}
                    for j in owned(state, seat, "junkie") for d in dealers_with_hits]
        elif face == 4:
            out.append({"type": "Payday"})
        elif face == 5:
            out += [{"type": "StealDeal", "junkie": j, "dealer": d}
                    for o in range(state["seats"]) if o != seat
                    for j in owned(state, o, "junkie") for d in dealers_with_hits]
        elif state["bankrolls"][seat] >= state["catalog"]["costs"]["chloroform"]:
            out += [{"type": "Chloroform", "card": c} for c in chloroform_targets(state, seat)]
        if faces[face] >= 2:
            out += [{"type": "ActivateCard", "face": face, "card": c}
                    for c in owned(state, seat, "special") if state["cards"][c]["exhausted"]]
            out.append({"type": "CollectDouble", "face": face})
        if faces[face] >= 3:
            out += [{"type": "UseTriple", "face": face, "kind": k}
                    for k in _stocked(state, ("truck", "dealer", "junkie")) or [None]]
        if faces[face] >= 4:
            out += [{"type": "UseQuadruple", "face": face, "kind": k} for k in _stocked(state, ("special",)) or [None]]
    return out


HANDLERS = {
    "Ship": decide_ship,
    "Distribute": decide_distribute,
    "PlaceHits": decide_place_hits,
    "FinishDistribute": decide_finish_distribute,
    "PurchaseHits": decide_purchase_hits,
    "StealDeal": decide_steal_deal,
    "SellHits": decide_sell_hits,
    "Payday": decide_payday,
    "Chloroform": decide_chloroform,
    "ActivateCard": decide_activate,
    "CollectDouble": decide_collect_double,
    "UseTriple": decide_triple,
    "UseQuadruple": decide_quadruple,
}

__all__ = ["HANDLERS", "moves", "FACE_NAMES", "dealer_space", "sale_limit", "chloroform_targets"]
