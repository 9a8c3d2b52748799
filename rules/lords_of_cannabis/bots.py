"""Bots: "random" (legal moves, with a bias toward progress so random games end) and "greedy" (a value
function over production, points, tunnel length, hand and docks, one step ahead, as catanatron's
value-function player does).  Both read only what their seat may see: the public state, their own
hand and Crop cards; lookahead runs only moves whose outcome reveals nothing hidden."""
from __future__ import annotations

from rules.base import Rng
from rules.lords_of_cannabis.board import (
    BRICK_NODES,
    BRICK_RESOURCE,
    NODE_BRICKS,
    NODE_DOCK,
    NODE_PATHS,
    PATHS,
    PIPS,
    RESOURCE_INDEX,
    RESOURCES,
)
from rules.lords_of_cannabis.cards import COSTS
from rules.lords_of_cannabis.state import (
    can_pay,
    greenhouse_spots,
    is_free_spot,
    own_nodes,
    total_points,
)

PROGRESS_BUILDS = ("BuildGreenhouse", "BuildPlantation")
OFFERS = ("MakeOffer", "OfferToAll")
LOOKAHEAD = ("BuildTunnel", "BuildGreenhouse", "BuildPlantation", "TradeWithBank", "TradeAnyFour",
             "PlayUpSizing", "PlayMassProduction", "EndTurn")


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    moves = ruleset.listed_moves(state, seat)  # read-only: bot_move hands out a copy of the move chosen
    if len(moves) == 1:
        return moves[0]
    if level == "greedy":
        return greedy(ruleset, state, seat, moves, rng)
    return random_move(state, moves, rng)


# ------------------------------------------------------------------ random
def random_move(state: dict, moves: list[dict], rng: Rng) -> dict:
    """Any legal move, biased toward progress (documented): a Greenhouse or Plantation whenever one can
    be built; rolls before anything else 3 times in 4; an offer to other players 1 time in 20 and at most
    once a turn; answers to an offer: accept or decline evenly, counter 1 time in 20."""
    phase = state["phase"]
    if phase in ("roll", "main") and state["offers"]["open"]:
        counters = [m for m in moves if m["type"] == "CounterOffer"]
        if counters and rng.randbelow(20) == 0:
            return counters[0]
        return rng.choice([m for m in moves if m["type"] != "CounterOffer"])
    if phase == "main" or phase == "roll":
        builds = [m for m in moves if m["type"] in PROGRESS_BUILDS]
        if builds:
            return rng.choice(builds)
        if phase == "roll" and rng.randbelow(4):
            return {"type": "Roll"}
        offers = [m for m in moves if m["type"] in OFFERS]
        if offers and not state["offers_made"] and rng.randbelow(20) == 0:
            return rng.choice(offers)
        return rng.choice([m for m in moves if m["type"] not in OFFERS])
    return rng.choice(moves)


# ------------------------------------------------------------------ what a seat can see, valued
def production(state: dict, seat: int) -> list[float]:
    """Expected Stash cards per roll (in 36ths) by resource, from the seat's buildings."""
    prod = [0.0] * 5
    chips, sheriff = state["chips"], state["sheriff"]
    for n, site in enumerate(state["sites"]):
        if site is not None and site[0] == seat:
            for b in NODE_BRICKS[n]:
                if b != sheriff:
                    prod[BRICK_RESOURCE[b]] += site[1] * PIPS[chips[b]]
    return prod


def spot_value(state: dict, node: int) -> float:
    """How good an empty intersection is to build on: the pips around it, more for varied resources."""
    chips = state["chips"]
    pips = sum(PIPS[chips[b]] for b in NODE_BRICKS[node])
    kinds = len({BRICK_RESOURCE[b] for b in NODE_BRICKS[node]})
    return pips + 2 * kinds + (2 if NODE_DOCK[node] is not None else 0)


def next_spots(state: dict, seat: int) -> list[int]:
    """Free intersections one more Tunnel away."""
    sites, tunnels, out = state["sites"], state["tunnels"], set()
    for n in own_nodes(state, seat):
        for p in NODE_PATHS[n]:
            if tunnels[p] is None:
                other = PATHS[p][0] if PATHS[p][1] == n else PATHS[p][1]
                if is_free_spot(sites, other):
                    out.add(other)
    return list(out)


def hand_value(state: dict, seat: int, hand: list[int]) -> float:
    """Cards count for what they are nearly enough for: the nearest worthwhile build most, the others a
    little (a Greenhouse is worth less while there is no spot for one on our Tunnels)."""
    has_greenhouse = any(s == [seat, 1] for s in state["sites"])
    stock = state["stock"][seat]
    targets = [("crop", 4.0)]
    if has_greenhouse:
        targets.append(("plantation", 30.0))
    if stock[1]:
        targets.append(("greenhouse", 24.0 if greenhouse_spots(state, seat) else 10.0))
    if stock[0]:
        targets.append(("tunnel", 6.0))
    scores = sorted((weight / (1 + sum(max(0, c - h) for c, h in zip(COSTS[what], hand))) ** 2
                     for what, weight in targets), reverse=True)
    return sum(hand) * 0.5 + scores[0] + 0.25 * sum(scores[1:])


def value(state: dict, seat: int) -> float:
    """The seat's position, from what it can see."""
    prod = production(state, seat)
    kinds = sum(1 for p in prod if p)
    spots = greenhouse_spots(state, seat)
    best_spots = sorted((spot_value(state, n) for n in spots), reverse=True)[:2]
    reach = sorted((spot_value(state, n) for n in next_spots(state, seat)), reverse=True)[:2]
    docks = sum(1 for n, s in enumerate(state["sites"]) if s is not None and s[0] == seat and NODE_DOCK[n] is not None)
    return (1000 * total_points(state, seat) + 6 * sum(prod) + 10 * kinds + 3 * sum(best_spots) + sum(reach)
            + 4 * state["tunnel_length"][seat] + hand_value(state, seat, state["hands"][seat]) + 3 * docks
            + 15 * state["free_tunnels"] * (state["current"] == seat))


# ------------------------------------------------------------------ greedy
def greedy(ruleset, state: dict, seat: int, moves: list[dict], rng: Rng) -> dict:
    phase = state["phase"]
    kind = moves[0]["type"]
    if phase in ("roll", "main") and state["offers"]["open"]:
        return answer(ruleset, state, seat, moves)
    if phase == "place":
        return place(state, seat, moves)
    if kind == "TakeStartingStash":
        return max(moves, key=lambda m: (len({BRICK_RESOURCE[b] for b in NODE_BRICKS[m["at"]]}), -m["at"]))
    if kind == "Discard":
        hand = state["hands"][seat]
        return max(moves, key=lambda m: hand[RESOURCE_INDEX[m["resource"]]] - need(state, seat)[
            RESOURCE_INDEX[m["resource"]]])
    if kind == "MoveSheriff":
        return {"type": "MoveSheriff", "brick": sheriff_target(state, seat)}
    card = crop_to_play(state, seat, moves)
    if card is not None:
        return card
    if phase == "roll":
        return {"type": "Roll"}
    best = lookahead(ruleset, state, seat, moves, rng)
    if best["type"] == "EndTurn" and phase == "main":
        offer = trade_offer(state, seat, moves)
        if offer is not None:
            return offer
        if {"type": "BuyCrop"} in moves and spare_for_crop(state, seat):
            return {"type": "BuyCrop"}
    return best


def lookahead(ruleset, state: dict, seat: int, moves: list[dict], rng: Rng) -> dict:
    """The deterministic move whose result values highest (ties: the first listed)."""
    best, best_value = None, None
    probe = Rng("greedy-lookahead", 0)  # these moves roll nothing
    for move in moves:
        if move["type"] not in LOOKAHEAD:
            continue
        events = ruleset.handlers[move["type"]](state, seat, move, probe)
        after = ruleset.fold(state, events)
        v = value(after, seat)
        if best_value is None or v > best_value + 1e-9:
            best, best_value = move, v
    if best is None:
        return next((m for m in moves if m["type"] in ("EndTunnelBuilding", "EndTurn")), moves[0])
    return best


def need(state: dict, seat: int) -> list[int]:
    """Cards still missing for the next Plantation (or Greenhouse)."""
    hand = state["hands"][seat]
    what = "plantation" if any(s == [seat, 1] for s in state["sites"]) else "greenhouse"
    return [max(0, c - h) for c, h in zip(COSTS[what], hand)]


def spare_for_crop(state: dict, seat: int) -> bool:
    hand = list(state["hands"][seat])
    return can_pay(hand, COSTS["crop"]) and sum(hand) >= 5


def trade_offer(state: dict, seat: int, moves: list[dict]) -> dict | None:
    """One card we have plenty of for one we miss, offered to all, once a turn."""
    if state["offers_made"] or not any(m["type"] == "OfferToAll" for m in moves):
        return None
    hand = state["hands"][seat]
    for what in ("plantation", "greenhouse", "tunnel"):
        cost = COSTS[what]
        missing = [r for r in range(5) if hand[r] < cost[r]]
        if len(missing) == 1 and cost[missing[0]] - hand[missing[0]] == 1:
            spare = [r for r in range(5) if hand[r] > cost[r]]
            if spare:
                give = max(spare, key=lambda r: hand[r] - cost[r])
                return {"type": "OfferToAll", "terms": {"give": {RESOURCES[give]: 1},
                                                        "get": {RESOURCES[missing[0]]: 1}}}
    return None


def answer(ruleset, state: dict, seat: int, moves: list[dict]) -> dict:
    """Accept an offer that makes our hand worth more, else decline."""
    for move in moves:
        if move["type"] == "AcceptOffer":
            found = state["offers"]["open"][str(move["offer"])]
            hand = list(state["hands"][seat])
            for name, n in found["terms"]["give"].items():
                hand[RESOURCE_INDEX[name]] += n
            for name, n in found["terms"]["get"].items():
                hand[RESOURCE_INDEX[name]] -= n
            if hand_value(state, seat, hand) > hand_value(state, seat, state["hands"][seat]) + 0.5:
                return move
    return next(m for m in moves if m["type"] == "DeclineOffer")


def place(state: dict, seat: int, moves: list[dict]) -> dict:
    """Setup: the richest free intersection; its Tunnel toward the richest spot beyond."""
    if moves[0]["type"] == "PlaceTunnel":
        def toward(move: dict) -> float:
            a, b = PATHS[move["path"]]
            far = b if state["sites"][b] is None else a
            ahead = [PATHS[p][0] if PATHS[p][1] == far else PATHS[p][1] for p in NODE_PATHS[far]]
            return max((spot_value(state, n) for n in ahead if is_free_spot(state["sites"], n)), default=0)
        return max(moves, key=toward)
    mine = production(state, seat)

    def worth(move: dict) -> float:
        if move["type"] != "PlaceGreenhouse":
            return -1
        n = move["at"]
        new = {BRICK_RESOURCE[b] for b in NODE_BRICKS[n]} - {r for r in range(5) if mine[r]}
        return spot_value(state, n) + 3 * len(new)
    return max(moves, key=worth)


def sheriff_target(state: dict, seat: int) -> int:
    """The brick whose blocking costs the others most and us nothing, the leader counted double."""
    leader = max((s for s in range(state["seats"]) if s != seat), key=lambda s: state["points"][s])
    chips, best, best_score = state["chips"], None, None
    for b in range(len(chips)):
        if b == state["sheriff"]:
            continue
        score = 0.0
        for n in BRICK_NODES[b]:
            site = state["sites"][n]
            if site is not None:
                weight = -3 if site[0] == seat else (2 if site[0] == leader else 1)
                score += weight * site[1] * PIPS[chips[b]]
        if best_score is None or score > best_score:
            best, best_score = b, score
    return best


def crop_to_play(state: dict, seat: int, moves: list[dict]) -> dict | None:
    """Play a Crop card when it plainly helps: Up-Sizing at once, Gangsta when the Sheriff sits on us or
    for the Mob Boss, the others when they bring a build within reach."""
    types = {m["type"] for m in moves}
    if "PlayUpSizing" in types:
        return max((m for m in moves if m["type"] == "PlayUpSizing"),
                   key=lambda m: spot_value(state, m["at"]))
    if "PlayGangsta" in types:
        on_us = state["sheriff"] is not None and any(
            state["sites"][n] is not None and state["sites"][n][0] == seat for n in BRICK_NODES[state["sheriff"]])
        boss = state["mob_boss"]
        chase = state["gangstas"][seat] + 1 >= 3 and (boss is None or boss == seat or
                                                       state["gangstas"][seat] + 1 > state["gangstas"][boss])
        if on_us or (chase and boss != seat) or state["phase"] == "roll":
            return {"type": "PlayGangsta", "brick": sheriff_target(state, seat)}
    if state["phase"] != "main":
        return None
    missing = need(state, seat)
    if "PlayMassProduction" in types and sum(missing):
        wanted = [RESOURCES[r] for r in range(5) for _ in range(missing[r])][:2]
        wanted += [RESOURCES[max(range(5), key=lambda r: missing[r])]] * (2 - len(wanted))
        move = {"type": "PlayMassProduction", "resources": sorted(wanted, key=RESOURCE_INDEX.__getitem__)}
        if move in moves:
            return move
    if "PlayStrongArm" in types and sum(missing):
        return {"type": "PlayStrongArm", "resource": RESOURCES[max(range(5), key=lambda r: missing[r])]}
    if "PlayGetJacked" in types:
        victim = max((s for s in range(state["seats"]) if s != seat), key=lambda s: sum(state["hands"][s]))
        if sum(state["hands"][victim]):
            return {"type": "PlayGetJacked", "victim": victim}
    if "PlayTunnelBuilding" in types and not greenhouse_spots(state, seat):
        return {"type": "PlayTunnelBuilding"}
    return None

