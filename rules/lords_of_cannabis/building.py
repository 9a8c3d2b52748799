"""Building: Tunnels, Greenhouses, Plantations and buying Crop cards, with the stock limits."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.folding import rules_version
from rules.lords_of_cannabis import guards
from rules.lords_of_cannabis.board import PATHS
from rules.lords_of_cannabis.cards import COSTS, VICTORY_CARDS
from rules.lords_of_cannabis.guards import BUILDING, GREENHOUSE, PLANTATION, TUNNELS
from rules.lords_of_cannabis.state import can_pay, greenhouse_spots, is_free_spot, own_nodes, top_face_up, tunnel_spots

CROP_RULE = "Buying a Crop Card"


def _afford(state: dict, seat: int, what: str, rule: str) -> None:
    if not can_pay(state["hands"][seat], COSTS[what]):
        raise IllegalMove(f"you do not hold the Stash cards a {what} costs", rule=rule)


def check_tunnel(state: dict, seat: int, value) -> int:
    """An empty path that connects to the seat's Tunnels or buildings, with a Tunnel in stock."""
    p = guards.path(value, TUNNELS)
    if state["stock"][seat][0] == 0:
        raise IllegalMove("you have no Tunnels left in stock", rule=BUILDING)
    if state["tunnels"][p] is not None:
        raise IllegalMove(f"path {p} already has a Tunnel", rule=TUNNELS)
    if not set(PATHS[p]) & own_nodes(state, seat):
        raise IllegalMove("a new Tunnel must connect to your existing Tunnel or establishment", rule=TUNNELS)
    return p


def decide_build_tunnel(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    if state["phase"] == "tunnels":  # Tunnel Building: free
        guards.my_turn(state, seat)
        return [Event("TunnelBuilt", {"seat": seat, "path": check_tunnel(state, seat, command["path"]),
                                      "free": True})]
    guards.my_action(state, seat, "building (roll first)", BUILDING, after_roll=True)
    p = check_tunnel(state, seat, command["path"])
    _afford(state, seat, "tunnel", TUNNELS)
    return [Event("TunnelBuilt", {"seat": seat, "path": p, "free": False})]


def decide_build_greenhouse(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    guards.my_action(state, seat, "building (roll first)", BUILDING, after_roll=True)
    at = guards.node(command["at"], GREENHOUSE)
    if state["stock"][seat][1] == 0:
        raise IllegalMove("you have no Greenhouse tiles left in stock", rule=BUILDING)
    if not is_free_spot(state["sites"], at):
        raise IllegalMove(f"intersection {at} is taken or next to a Greenhouse or Plantation", rule=GREENHOUSE)
    if at not in greenhouse_spots(state, seat):
        raise IllegalMove("a Greenhouse must be connected to at least one of your tunnels", rule=GREENHOUSE)
    _afford(state, seat, "greenhouse", GREENHOUSE)
    return [Event("GreenhouseBuilt", {"seat": seat, "at": at})]


def check_own_greenhouse(state: dict, seat: int, value, rule: str) -> int:
    at = guards.node(value, rule)
    if state["sites"][at] != [seat, 1]:
        raise IllegalMove(f"intersection {at} is not one of your Greenhouses", rule=rule)
    return at


def decide_build_plantation(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "If you decide to upgrade one of your Greenhouses to a Plantation, you flip the Greenhouse" """
    guards.my_action(state, seat, "building (roll first)", BUILDING, after_roll=True)
    at = check_own_greenhouse(state, seat, command["at"], PLANTATION)
    _afford(state, seat, "plantation", PLANTATION)
    return [Event("PlantationBuilt", {"seat": seat, "at": at, "free": False})]


def decide_buy_crop(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "you must take one from the top of the shuffled pile. Conceal all of your Crop Cards" """
    guards.my_action(state, seat, "buying (roll first)", CROP_RULE, after_roll=True)
    _afford(state, seat, "crop", CROP_RULE)
    if not state["deck"]:
        raise IllegalMove("the Crop deck is empty", rule=CROP_RULE)
    card = state["deck"][0]
    if rules_version(state) < 2:
        return [Event("CropBought", {"seat": seat, "secret": {"card": card}})]
    # Version 2 (ruling 21): a card that was returned "to the bottom of the deck face up" is drawn in the
    # open; a Victory Point card is "kept face down in front of you" (ruling 25): all see that it is one
    if top_face_up(state):
        return [Event("CropBought", {"seat": seat, "card": card})]
    return [Event("CropBought", {"seat": seat, "victory": card in VICTORY_CARDS, "secret": {"card": card}})]


def moves(state: dict, seat: int) -> list[dict]:
    """Building moves of the active player after the roll."""
    hand, stock, out = state["hands"][seat], state["stock"][seat], []
    if stock[0] and can_pay(hand, COSTS["tunnel"]):
        out += [{"type": "BuildTunnel", "path": p} for p in tunnel_spots(state, seat)]
    if stock[1] and can_pay(hand, COSTS["greenhouse"]):
        out += [{"type": "BuildGreenhouse", "at": n} for n in greenhouse_spots(state, seat)]
    if can_pay(hand, COSTS["plantation"]):
        out += [{"type": "BuildPlantation", "at": n} for n, s in enumerate(state["sites"]) if s == [seat, 1]]
    if state["deck"] and can_pay(hand, COSTS["crop"]):
        out.append({"type": "BuyCrop"})
    return out

