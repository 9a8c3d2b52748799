"""Playing Crop Cards: one per turn, before or after the roll; Gangsta (the Sheriff, a random card from
each busted player, the Mob Boss) and the five Progress cards (texts reconstructed, crops.json)."""
from __future__ import annotations

from itertools import combinations_with_replacement

from rules.base import Event, IllegalMove, Rng
from rules.lords_of_cannabis import guards
from rules.lords_of_cannabis.board import BRICK_NODES, RESOURCES
from rules.lords_of_cannabis.building import check_own_greenhouse
from rules.lords_of_cannabis.guards import CROPS, GANGSTA, PROGRESS
from rules.lords_of_cannabis.state import seats_around, tunnel_spots
from rules.lords_of_cannabis.turn import check_new_brick, sheriff_bricks

PAIRS = tuple(list(pair) for pair in combinations_with_replacement(RESOURCES, 2))


def _playing(state: dict, seat: int, card: str, rule: str) -> None:
    """ "You may play only one Crop Card at any time during your turn" """
    guards.my_action(state, seat, "playing a Crop card", CROPS, after_roll=False)
    if state["crop_played"]:
        raise IllegalMove("only one Crop Card may be played per turn", rule=CROPS)
    if card not in state["crops"][seat]:
        raise IllegalMove(f"you hold no {card} card", rule=rule)


def steal(state: dict, thief: int, victim: int, rng: Rng) -> list[Event]:
    """A random card out of the victim's hand (seen only by the two of them); nothing from an empty hand."""
    hand = state["hands"][victim]
    total = sum(hand)
    if not total:
        return []
    pick = rng.randbelow(total)
    for r, n in enumerate(hand):
        if pick < n:
            return [Event("CardStolen", {"seat": thief, "from": victim, "secret": {"resource": RESOURCES[r]}})]
        pick -= n
    raise AssertionError("unreachable: pick < total")


def decide_gangsta(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "remove the Sheriff ... dispatch him to another location of your choice. The player or players who
    are now busted ... must allow the dispatcher to select a random card out of each of their decks" """
    _playing(state, seat, "gangsta", GANGSTA)
    b = check_new_brick(state, command["brick"], GANGSTA)
    events = [Event("GangstaPlayed", {"seat": seat, "brick": b})]
    for victim in seats_around(state, BRICK_NODES[b]):
        if victim != seat:
            events += steal(state, seat, victim, rng)
    return events


def decide_tunnel_building(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _playing(state, seat, "tunnel_building", PROGRESS)
    return [Event("TunnelBuildingPlayed", {"seat": seat, "tunnels": min(2, state["stock"][seat][0])})]


def decide_end_tunnel_building(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    guards.phase(state, ("tunnels",), "ending Tunnel Building", PROGRESS)
    guards.my_turn(state, seat)
    return [Event("TunnelBuildingEnded", {"seat": seat, "unused": state["free_tunnels"]})]


def decide_up_sizing(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _playing(state, seat, "up_sizing", PROGRESS)
    at = check_own_greenhouse(state, seat, command["at"], PROGRESS)
    return [Event("UpSizingPlayed", {"seat": seat, "at": at})]


def decide_strong_arm(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _playing(state, seat, "strong_arm", PROGRESS)
    r = guards.resource(command["resource"], PROGRESS)
    taken = [0 if s == seat else hand[r] for s, hand in enumerate(state["hands"])]
    return [Event("StrongArmPlayed", {"seat": seat, "resource": RESOURCES[r], "taken": taken})]


def decide_mass_production(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _playing(state, seat, "mass_production", PROGRESS)
    names = command["resources"]
    if len(names) != 2:
        raise IllegalMove("Mass Production takes exactly 2 Stash cards", rule=PROGRESS)
    wanted = [0] * 5
    for name in names:
        wanted[guards.resource(name, PROGRESS)] += 1
    if any(w > b for w, b in zip(wanted, state["bank"])):
        raise IllegalMove("the bank does not hold those Stash cards", rule=PROGRESS)
    return [Event("MassProductionPlayed", {"seat": seat, "resources": list(names)})]


def decide_get_jacked(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _playing(state, seat, "get_jacked", PROGRESS)
    victim = command["victim"]
    if victim == seat or victim not in range(state["seats"]):
        raise IllegalMove("choose another player to take a card from", rule=PROGRESS)
    return [Event("GetJackedPlayed", {"seat": seat, "victim": victim})] + steal(state, seat, victim, rng)


def moves(state: dict, seat: int) -> list[dict]:
    """Crop cards the active player may play now (one per turn)."""
    if state["crop_played"]:
        return []
    held, out = set(state["crops"][seat]), []
    if "gangsta" in held:
        out += [{"type": "PlayGangsta", "brick": b} for b in sheriff_bricks(state)]
    if "tunnel_building" in held and state["stock"][seat][0] and tunnel_spots(state, seat):
        out.append({"type": "PlayTunnelBuilding"})
    if "up_sizing" in held:
        out += [{"type": "PlayUpSizing", "at": n} for n, s in enumerate(state["sites"]) if s == [seat, 1]]
    if "strong_arm" in held:
        out += [{"type": "PlayStrongArm", "resource": r} for r in RESOURCES]
    if "mass_production" in held:
        bank = state["bank"]
        out += [{"type": "PlayMassProduction", "resources": pair} for pair in PAIRS
                if all(bank[RESOURCES.index(n)] >= pair.count(n) for n in pair)]
    if "get_jacked" in held:
        out += [{"type": "PlayGetJacked", "victim": s} for s in range(state["seats"]) if s != seat]
    return out


def free_tunnel_moves(state: dict, seat: int) -> list[dict]:
    """While Tunnel Building lasts: a free Tunnel on any legal path, or stop."""
    if seat != state["current"]:
        return []
    return [{"type": "BuildTunnel", "path": p} for p in tunnel_spots(state, seat)] + [{"type": "EndTunnelBuilding"}]
