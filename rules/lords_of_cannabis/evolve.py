"""Evolve: one small function per event type, (state, data, own) -> state.  Each changes the state it is
given and returns it, the lists inside it through `own` (rules/folding.py); it never rolls, and reads
what decide wrote into the event."""
from __future__ import annotations

from rules.base import Event
from rules.blocks import offers
from rules.blocks.turns import order_from
from rules.folding import Evolver, Own, rules_version
from rules.lords_of_cannabis.board import NODE_PATHS, PATHS, RESOURCE_INDEX
from rules.lords_of_cannabis.cards import (
    COSTS,
    LONGEST_TUNNEL_MIN,
    MOB_BOSS_MIN,
    STASH_PER_RESOURCE,
    TILES_PER_COLOUR,
    TUNNELS_PER_COLOUR,
)
from rules.lords_of_cannabis.state import face_up, longest_trail, minus, plus, shown_crops


# ------------------------------------------------------------------ helpers
def _pay(state: dict, own: Own, seat: int, cost) -> None:
    """Cards go from a seat's hand back to the bank."""
    hands = own(state, "hands")
    hands[seat] = minus(hands[seat], cost)
    state["bank"] = plus(state["bank"], cost)


def _move_cards(state: dict, own: Own, giver: int, taker: int, cards) -> None:
    hands = own(state, "hands")
    hands[giver] = minus(hands[giver], cards)
    hands[taker] = plus(hands[taker], cards)


def _one(resource: str) -> list[int]:
    out = [0] * 5
    out[RESOURCE_INDEX[resource]] = 1
    return out


def _counts(cards: dict) -> list[int]:
    """{"FUEL": 2} as a count per resource."""
    out = [0] * 5
    for name, n in cards.items():
        out[RESOURCE_INDEX[name]] += n
    return out


def _award_longest(state: dict, lengths: list[int]) -> None:
    """The Longest Tunnel card after lengths changed: the holder keeps it while no one is longer (ties
    too); a longer route takes it; broken below the best or below 5 it goes to the one longest route,
    else back to the table."""
    holder, best = state["longest"], max(lengths)
    if best < LONGEST_TUNNEL_MIN:
        holder = None
    elif holder is None or lengths[holder] < best:
        leaders = [s for s, n in enumerate(lengths) if n == best]
        holder = leaders[0] if len(leaders) == 1 else None
    state["tunnel_length"], state["longest"] = lengths, holder


def _relength(state: dict, seats) -> None:
    lengths = list(state["tunnel_length"])
    for seat in seats:
        lengths[seat] = longest_trail(state, seat)
    _award_longest(state, lengths)


def _build_site(state: dict, own: Own, seat: int, node: int) -> None:
    own(state, "sites")[node] = [seat, 1]
    stock = own(state, "stock")
    stock[seat] = [stock[seat][0], stock[seat][1] - 1]
    own(state, "points")[seat] += 1
    crossed = {state["tunnels"][p] for p in NODE_PATHS[node]} - {None, seat}
    if crossed:  # an opponent's route may be broken here
        _relength(state, sorted(crossed))


def _build_tunnel(state: dict, own: Own, seat: int, path: int) -> None:
    own(state, "tunnels")[path] = seat
    stock = own(state, "stock")
    stock[seat] = [stock[seat][0] - 1, stock[seat][1]]
    _relength(state, [seat])


# ------------------------------------------------------------------ setup
def started(state: None, d: dict, own: Own) -> dict:
    n = d["seats"]
    return {
        "seats": n, "first": d["first"], "current": d["first"], "phase": "place",
        "setup": {"round": 1, "queue": order_from(d["first"], n), "deferred": [], "placed": [], "greenhouse": None},
        "stash_pending": [], "chips": list(d["chips"]), "sheriff": None,
        "hands": [[0] * 5 for _ in range(n)], "bank": [STASH_PER_RESOURCE] * 5,
        "crops": [[] for _ in range(n)], "deck": list(d["secret"]["deck"]), "gangstas": [0] * n,
        "sites": [None] * len(NODE_PATHS), "tunnels": [None] * len(PATHS),
        "stock": [[TUNNELS_PER_COLOUR, TILES_PER_COLOUR] for _ in range(n)], "points": [0] * n,
        "tunnel_length": [0] * n, "longest": None, "mob_boss": None,
        "rolled": False, "crop_played": False, "offers_made": 0, "offers_announced": 0, "dice": None,
        "offers": offers.empty(),
        "free_tunnels": 0, "resume": None, "discarding": [], "winner": None,
    }


def _next_placer(setup: dict) -> tuple[dict, int | None]:
    """Who places next: the round's queue, then (round 1) the deferrers, last to defer first."""
    if setup["queue"]:
        return setup, setup["queue"][0]
    if setup["deferred"]:
        return setup, setup["deferred"][-1]
    if setup["round"] == 1:  # "Deferment is only allowed during the first placement round"; round 2 snakes back
        second = {**setup, "round": 2, "queue": list(reversed(setup["placed"])), "placed": []}
        return second, second["queue"][0]
    return setup, None


def deferred(state: dict, d: dict, own: Own) -> dict:
    setup = {**state["setup"], "queue": state["setup"]["queue"][1:],
             "deferred": state["setup"]["deferred"] + [d["seat"]]}
    state["setup"], state["current"] = _next_placer(setup)
    return state


def greenhouse_placed(state: dict, d: dict, own: Own) -> dict:
    _build_site(state, own, d["seat"], d["at"])
    own(state, "setup")["greenhouse"] = d["at"]
    return state


def tunnel_placed(state: dict, d: dict, own: Own) -> dict:
    _build_tunnel(state, own, d["seat"], d["path"])
    setup = dict(state["setup"])
    if setup["queue"] and setup["queue"][0] == d["seat"]:
        setup["queue"] = setup["queue"][1:]
    else:
        setup["deferred"] = setup["deferred"][:-1]
    setup["placed"] = setup["placed"] + [d["seat"]]
    setup["greenhouse"] = None
    setup, placer = _next_placer(setup)
    if placer is None:  # "All players then decide from one of their two placements ..."
        state["setup"], state["phase"] = None, "stash"
        state["stash_pending"], state["current"] = list(range(state["seats"])), state["first"]
    else:
        state["setup"], state["current"] = setup, placer
    return state


def stash_taken(state: dict, d: dict, own: Own) -> dict:
    hands = own(state, "hands")
    hands[d["seat"]] = plus(hands[d["seat"]], d["cards"])
    state["bank"] = minus(state["bank"], d["cards"])
    state["stash_pending"] = pending = [s for s in state["stash_pending"] if s != d["seat"]]
    if not pending:  # "The player who had the highest roll starts the game by rolling both dice."
        state["phase"], state["current"] = "roll", state["first"]
    return state


# ------------------------------------------------------------------ rolling, the Sheriff
def dice_rolled(state: dict, d: dict, own: Own) -> dict:
    state["dice"], state["rolled"] = d["dice"], True  # never changed after: the event's own list is kept
    if sum(d["dice"]) == 7:
        state["phase"] = "sheriff"
        return state
    gains = d["gains"]
    state["hands"] = [plus(h, g) for h, g in zip(state["hands"], gains)]
    bank = list(state["bank"])
    for g in gains:
        bank = minus(bank, g)
    state["bank"], state["phase"] = bank, "main"
    return state


def sheriff_moved(state: dict, d: dict, own: Own) -> dict:
    waiting = d["discard"]
    state["sheriff"], state["discarding"] = d["brick"], list(waiting)
    state["phase"] = "discard" if waiting else "main"
    return state


def stash_discarded(state: dict, d: dict, own: Own) -> dict:
    _pay(state, own, d["seat"], _one(d["resource"]))
    state["discarding"] = waiting = [s for s in state["discarding"] if s != d["seat"]]
    state["phase"] = "discard" if waiting else "main"
    return state


# ------------------------------------------------------------------ building
def tunnel_built(state: dict, d: dict, own: Own) -> dict:
    if d["free"]:
        left = state["free_tunnels"] - 1
        _build_tunnel(state, own, d["seat"], d["path"])
        if left <= 0 or state["stock"][d["seat"]][0] == 0:
            state["free_tunnels"], state["phase"], state["resume"] = 0, state["resume"], None
        else:
            state["free_tunnels"] = left
        return state
    _pay(state, own, d["seat"], COSTS["tunnel"])
    _build_tunnel(state, own, d["seat"], d["path"])
    return state


def greenhouse_built(state: dict, d: dict, own: Own) -> dict:
    _pay(state, own, d["seat"], COSTS["greenhouse"])
    _build_site(state, own, d["seat"], d["at"])
    return state


def plantation_built(state: dict, d: dict, own: Own) -> dict:
    if not d["free"]:
        _pay(state, own, d["seat"], COSTS["plantation"])
    own(state, "sites")[d["at"]] = [d["seat"], 2]
    own(state, "points")[d["seat"]] += 1
    return state


# ------------------------------------------------------------------ Crop cards
def _show(state: dict, seat: int, hand: list[str]) -> None:
    shown = [list(shown_crops(state, s)) for s in range(state["seats"])]
    shown[seat] = hand
    state["crops_shown"] = shown


def crop_bought(state: dict, d: dict, own: Own) -> dict:
    """A card off the top of the deck; one drawn in the open (version 2: it had come back face up) is
    public in the buyer's hand until played."""
    _pay(state, own, d["seat"], COSTS["crop"])
    public = "card" in d
    crops = own(state, "crops")
    crops[d["seat"]] = crops[d["seat"]] + [d["card"] if public else d["secret"]["card"]]
    state["deck"] = state["deck"][1:]
    if public:
        hand = shown_crops(state, d["seat"]) + [d["card"]]
        state["deck_face_up"] = face_up(state) - 1
        _show(state, d["seat"], hand)
    return state


def _played(state: dict, own: Own, seat: int, card: str, to_deck: bool) -> None:
    """A Crop card leaves the hand; a Progress card goes face up to the bottom of the deck (version 2:
    the state counts the face-up cards there, and a played card seen drawn is no longer shown)."""
    own(own(state, "crops"), seat).remove(card)
    if to_deck:
        state["deck"] = state["deck"] + [card]
    state["crop_played"] = True
    if rules_version(state) < 2:
        return
    shown = list(shown_crops(state, seat))
    if card in shown:
        shown.remove(card)
    state["deck_face_up"] = face_up(state) + to_deck
    _show(state, seat, shown)


def gangsta_played(state: dict, d: dict, own: Own) -> dict:
    seat = d["seat"]
    _played(state, own, seat, "gangsta", False)
    gangstas = own(state, "gangstas")
    gangstas[seat] += 1
    boss = state["mob_boss"]
    if gangstas[seat] >= MOB_BOSS_MIN and (boss is None or gangstas[seat] > gangstas[boss]):
        boss = seat
    state["mob_boss"], state["sheriff"] = boss, d["brick"]
    return state


def card_stolen(state: dict, d: dict, own: Own) -> dict:
    _move_cards(state, own, d["from"], d["seat"], _one(d["secret"]["resource"]))
    return state


def tunnel_building_played(state: dict, d: dict, own: Own) -> dict:
    _played(state, own, d["seat"], "tunnel_building", True)
    if d["tunnels"]:
        state["free_tunnels"], state["resume"], state["phase"] = d["tunnels"], state["phase"], "tunnels"
    return state


def tunnel_building_ended(state: dict, d: dict, own: Own) -> dict:
    state["free_tunnels"], state["phase"], state["resume"] = 0, state["resume"], None
    return state


def up_sizing_played(state: dict, d: dict, own: Own) -> dict:
    _played(state, own, d["seat"], "up_sizing", True)
    return plantation_built(state, {**d, "free": True}, own)


def strong_arm_played(state: dict, d: dict, own: Own) -> dict:
    _played(state, own, d["seat"], "strong_arm", True)
    r = RESOURCE_INDEX[d["resource"]]
    hands = own(state, "hands")
    for giver, n in enumerate(d["taken"]):
        own(hands, giver)[r] -= n
        own(hands, d["seat"])[r] += n
    return state


def mass_production_played(state: dict, d: dict, own: Own) -> dict:
    _played(state, own, d["seat"], "mass_production", True)
    cards = _counts({name: d["resources"].count(name) for name in d["resources"]})
    hands = own(state, "hands")
    hands[d["seat"]] = plus(hands[d["seat"]], cards)
    state["bank"] = minus(state["bank"], cards)
    return state


def get_jacked_played(state: dict, d: dict, own: Own) -> dict:
    _played(state, own, d["seat"], "get_jacked", True)
    return state


# ------------------------------------------------------------------ trade
def bank_traded(state: dict, d: dict, own: Own) -> dict:
    give, get = _counts(d["give"]), _one(d["get"])
    hands = own(state, "hands")
    hands[d["seat"]] = plus(minus(hands[d["seat"]], give), get)
    state["bank"] = minus(plus(state["bank"], give), get)
    return state


def offer_event(name: str) -> Evolver:
    """Evolver for one of the offers block's events (the book, and how many offers this turn: `offers_made`
    counts each addressee's, `offers_announced` each offer or counter-offer, an offer to all once: its
    first OfferMade finds the book empty, as every new offer does)."""

    def evolver(state: dict, d: dict, own: Own) -> dict:
        announced = (name == "OfferMade" and not state["offers"]["open"]) or name == "OfferCountered"
        state["offers"] = offers.evolve(state["offers"], Event(name, d))
        state["offers_made"] += name == "OfferMade"
        # .get: a snapshot saved before the count existed (a version-1 game, which never reads it)
        state["offers_announced"] = state.get("offers_announced", 0) + announced
        return state

    return evolver


def stash_traded(state: dict, d: dict, own: Own) -> dict:
    """The terms of an accepted offer: `from` gives `give` and gets `get` from `to`."""
    _move_cards(state, own, d["from"], d["to"], _counts(d["terms"]["give"]))
    _move_cards(state, own, d["to"], d["from"], _counts(d["terms"]["get"]))
    return state


# ------------------------------------------------------------------ turns, the end
def turn_ended(state: dict, d: dict, own: Own) -> dict:
    state.update(current=d["next"], phase="roll", rolled=False, crop_played=False, offers_made=0,
                 offers_announced=0, dice=None)
    return state


def game_won(state: dict, d: dict, own: Own) -> dict:
    state.update(winner=d["seat"], phase="over", discarding=[], offers=offers.empty())
    return state


EVOLVERS: dict[str, Evolver] = {
    "GameStarted": started, "Deferred": deferred, "GreenhousePlaced": greenhouse_placed,
    "TunnelPlaced": tunnel_placed, "StartingStashTaken": stash_taken,
    "DiceRolled": dice_rolled, "SheriffMoved": sheriff_moved, "StashDiscarded": stash_discarded,
    "TunnelBuilt": tunnel_built, "GreenhouseBuilt": greenhouse_built, "PlantationBuilt": plantation_built,
    "CropBought": crop_bought, "GangstaPlayed": gangsta_played, "CardStolen": card_stolen,
    "TunnelBuildingPlayed": tunnel_building_played, "TunnelBuildingEnded": tunnel_building_ended,
    "UpSizingPlayed": up_sizing_played, "StrongArmPlayed": strong_arm_played,
    "MassProductionPlayed": mass_production_played, "GetJackedPlayed": get_jacked_played,
    "BankTraded": bank_traded, "StashTraded": stash_traded, "TurnEnded": turn_ended, "GameWon": game_won,
    **{name: offer_event(name) for name in offers.EVENTS},
}
