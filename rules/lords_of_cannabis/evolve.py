"""Evolve: one small pure function per event type.  Each copies only the parts of the state it
changes (never mutates its input), never rolls, and reads what decide wrote into the event."""
from __future__ import annotations

from rules.base import Event
from rules.blocks import offers
from rules.blocks.turns import order_from
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
from rules.ruleset import rules_version


# ------------------------------------------------------------------ helpers
def _pay(state: dict, seat: int, cost) -> dict:
    """Cards go from a seat's hand back to the bank (state already copied by the caller)."""
    hands = list(state["hands"])
    hands[seat] = minus(hands[seat], cost)
    return {**state, "hands": hands, "bank": plus(state["bank"], cost)}


def _move_cards(state: dict, giver: int, taker: int, cards) -> dict:
    hands = list(state["hands"])
    hands[giver] = minus(hands[giver], cards)
    hands[taker] = plus(hands[taker], cards)
    return {**state, "hands": hands}


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


def _award_longest(state: dict, lengths: list[int]) -> dict:
    """The Longest Tunnel card after lengths changed: the holder keeps it while no one is longer (ties
    too); a longer route takes it; broken below the best or below 5 it goes to the one longest route,
    else back to the table."""
    holder, best = state["longest"], max(lengths)
    if best < LONGEST_TUNNEL_MIN:
        holder = None
    elif holder is None or lengths[holder] < best:
        leaders = [s for s, n in enumerate(lengths) if n == best]
        holder = leaders[0] if len(leaders) == 1 else None
    return {**state, "tunnel_length": lengths, "longest": holder}


def _relength(state: dict, seats) -> dict:
    lengths = list(state["tunnel_length"])
    for seat in seats:
        lengths[seat] = longest_trail(state, seat)
    return _award_longest(state, lengths)


def _build_site(state: dict, seat: int, node: int) -> dict:
    sites = list(state["sites"])
    sites[node] = [seat, 1]
    stock, points = list(state["stock"]), list(state["points"])
    stock[seat] = [stock[seat][0], stock[seat][1] - 1]
    points[seat] += 1
    state = {**state, "sites": sites, "stock": stock, "points": points}
    crossed = {state["tunnels"][p] for p in NODE_PATHS[node]} - {None, seat}
    return _relength(state, sorted(crossed)) if crossed else state  # an opponent's route may be broken here


def _build_tunnel(state: dict, seat: int, path: int) -> dict:
    tunnels = list(state["tunnels"])
    tunnels[path] = seat
    stock = list(state["stock"])
    stock[seat] = [stock[seat][0] - 1, stock[seat][1]]
    return _relength({**state, "tunnels": tunnels, "stock": stock}, [seat])


# ------------------------------------------------------------------ setup
def started(state: None, d: dict) -> dict:
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


def deferred(state: dict, d: dict) -> dict:
    setup = {**state["setup"], "queue": state["setup"]["queue"][1:],
             "deferred": state["setup"]["deferred"] + [d["seat"]]}
    setup, placer = _next_placer(setup)
    return {**state, "setup": setup, "current": placer}


def greenhouse_placed(state: dict, d: dict) -> dict:
    state = _build_site(state, d["seat"], d["at"])
    return {**state, "setup": {**state["setup"], "greenhouse": d["at"]}}


def tunnel_placed(state: dict, d: dict) -> dict:
    state = _build_tunnel(state, d["seat"], d["path"])
    setup = dict(state["setup"])
    if setup["queue"] and setup["queue"][0] == d["seat"]:
        setup["queue"] = setup["queue"][1:]
    else:
        setup["deferred"] = setup["deferred"][:-1]
    setup["placed"] = setup["placed"] + [d["seat"]]
    setup["greenhouse"] = None
    setup, placer = _next_placer(setup)
    if placer is None:  # "All players then decide from one of their two placements ..."
        return {**state, "setup": None, "phase": "stash", "stash_pending": list(range(state["seats"])),
                "current": state["first"]}
    return {**state, "setup": setup, "current": placer}


def stash_taken(state: dict, d: dict) -> dict:
    hands = list(state["hands"])
    hands[d["seat"]] = plus(hands[d["seat"]], d["cards"])
    pending = [s for s in state["stash_pending"] if s != d["seat"]]
    state = {**state, "hands": hands, "bank": minus(state["bank"], d["cards"]), "stash_pending": pending}
    if not pending:  # "The player who had the highest roll starts the game by rolling both dice."
        state = {**state, "phase": "roll", "current": state["first"]}
    return state


# ------------------------------------------------------------------ rolling, the Sheriff
def dice_rolled(state: dict, d: dict) -> dict:
    state = {**state, "dice": d["dice"], "rolled": True}
    if sum(d["dice"]) == 7:
        return {**state, "phase": "sheriff"}
    gains = d["gains"]
    hands = [plus(h, g) for h, g in zip(state["hands"], gains)]
    bank = list(state["bank"])
    for g in gains:
        bank = minus(bank, g)
    return {**state, "hands": hands, "bank": bank, "phase": "main"}


def sheriff_moved(state: dict, d: dict) -> dict:
    waiting = d["discard"]
    return {**state, "sheriff": d["brick"], "discarding": list(waiting), "phase": "discard" if waiting else "main"}


def stash_discarded(state: dict, d: dict) -> dict:
    state = _pay(state, d["seat"], _one(d["resource"]))
    waiting = [s for s in state["discarding"] if s != d["seat"]]
    return {**state, "discarding": waiting, "phase": "discard" if waiting else "main"}


# ------------------------------------------------------------------ building
def tunnel_built(state: dict, d: dict) -> dict:
    if d["free"]:
        left = state["free_tunnels"] - 1
        state = _build_tunnel(state, d["seat"], d["path"])
        if left <= 0 or state["stock"][d["seat"]][0] == 0:
            return {**state, "free_tunnels": 0, "phase": state["resume"], "resume": None}
        return {**state, "free_tunnels": left}
    return _build_tunnel(_pay(state, d["seat"], COSTS["tunnel"]), d["seat"], d["path"])


def greenhouse_built(state: dict, d: dict) -> dict:
    return _build_site(_pay(state, d["seat"], COSTS["greenhouse"]), d["seat"], d["at"])


def plantation_built(state: dict, d: dict) -> dict:
    if not d["free"]:
        state = _pay(state, d["seat"], COSTS["plantation"])
    sites, points = list(state["sites"]), list(state["points"])
    sites[d["at"]] = [d["seat"], 2]
    points[d["seat"]] += 1
    return {**state, "sites": sites, "points": points}


# ------------------------------------------------------------------ Crop cards
def _with_shown(state: dict, seat: int, hand: list[str]) -> dict:
    shown = [list(shown_crops(state, s)) for s in range(state["seats"])]
    shown[seat] = hand
    return {**state, "crops_shown": shown}


def crop_bought(state: dict, d: dict) -> dict:
    """A card off the top of the deck; one drawn in the open (version 2: it had come back face up) is
    public in the buyer's hand until played."""
    state = _pay(state, d["seat"], COSTS["crop"])
    crops = list(state["crops"])
    public = "card" in d
    crops[d["seat"]] = crops[d["seat"]] + [d["card"] if public else d["secret"]["card"]]
    state = {**state, "crops": crops, "deck": state["deck"][1:]}
    if public:
        state = _with_shown({**state, "deck_face_up": face_up(state) - 1}, d["seat"],
                            shown_crops(state, d["seat"]) + [d["card"]])
    return state


def _played(state: dict, seat: int, card: str, to_deck: bool) -> dict:
    """A Crop card leaves the hand; a Progress card goes face up to the bottom of the deck (version 2:
    the state counts the face-up cards there, and a played card seen drawn is no longer shown)."""
    crops = list(state["crops"])
    hand = list(crops[seat])
    hand.remove(card)
    crops[seat] = hand
    deck = state["deck"] + [card] if to_deck else state["deck"]
    state = {**state, "crops": crops, "deck": deck, "crop_played": True}
    if rules_version(state) < 2:
        return state
    shown = list(shown_crops(state, seat))
    if card in shown:
        shown.remove(card)
    return _with_shown({**state, "deck_face_up": face_up(state) + to_deck}, seat, shown)


def gangsta_played(state: dict, d: dict) -> dict:
    seat = d["seat"]
    state = _played(state, seat, "gangsta", False)
    gangstas = list(state["gangstas"])
    gangstas[seat] += 1
    boss = state["mob_boss"]
    if gangstas[seat] >= MOB_BOSS_MIN and (boss is None or gangstas[seat] > gangstas[boss]):
        boss = seat
    return {**state, "gangstas": gangstas, "mob_boss": boss, "sheriff": d["brick"]}


def card_stolen(state: dict, d: dict) -> dict:
    return _move_cards(state, d["from"], d["seat"], _one(d["secret"]["resource"]))


def tunnel_building_played(state: dict, d: dict) -> dict:
    state = _played(state, d["seat"], "tunnel_building", True)
    if d["tunnels"] == 0:
        return state
    return {**state, "free_tunnels": d["tunnels"], "resume": state["phase"], "phase": "tunnels"}


def tunnel_building_ended(state: dict, d: dict) -> dict:
    return {**state, "free_tunnels": 0, "phase": state["resume"], "resume": None}


def up_sizing_played(state: dict, d: dict) -> dict:
    return plantation_built(_played(state, d["seat"], "up_sizing", True), {**d, "free": True})


def strong_arm_played(state: dict, d: dict) -> dict:
    state = _played(state, d["seat"], "strong_arm", True)
    r = RESOURCE_INDEX[d["resource"]]
    hands = [list(h) for h in state["hands"]]
    for giver, n in enumerate(d["taken"]):
        hands[giver][r] -= n
        hands[d["seat"]][r] += n
    return {**state, "hands": hands}


def mass_production_played(state: dict, d: dict) -> dict:
    state = _played(state, d["seat"], "mass_production", True)
    cards = _counts({name: d["resources"].count(name) for name in d["resources"]})
    hands = list(state["hands"])
    hands[d["seat"]] = plus(hands[d["seat"]], cards)
    return {**state, "hands": hands, "bank": minus(state["bank"], cards)}


def get_jacked_played(state: dict, d: dict) -> dict:
    return _played(state, d["seat"], "get_jacked", True)


# ------------------------------------------------------------------ trade
def bank_traded(state: dict, d: dict) -> dict:
    give, get = _counts(d["give"]), _one(d["get"])
    hands = list(state["hands"])
    hands[d["seat"]] = plus(minus(hands[d["seat"]], give), get)
    return {**state, "hands": hands, "bank": minus(plus(state["bank"], give), get)}


def offer_event(name: str):
    """Evolver for one of the offers block's events (the book, and how many offers this turn: `offers_made`
    counts each addressee's, `offers_announced` each offer or counter-offer, an offer to all once: its
    first OfferMade finds the book empty, as every new offer does)."""

    def evolver(state: dict, d: dict) -> dict:
        book = offers.evolve(state["offers"], Event(name, d))
        made = state["offers_made"] + (name == "OfferMade")
        announced = (name == "OfferMade" and not state["offers"]["open"]) or name == "OfferCountered"
        # .get: a snapshot saved before the count existed (a version-1 game, which never reads it)
        return {**state, "offers": book, "offers_made": made,
                "offers_announced": state.get("offers_announced", 0) + announced}

    return evolver


def stash_traded(state: dict, d: dict) -> dict:
    """The terms of an accepted offer: `from` gives `give` and gets `get` from `to`."""
    state = _move_cards(state, d["from"], d["to"], _counts(d["terms"]["give"]))
    return _move_cards(state, d["to"], d["from"], _counts(d["terms"]["get"]))


# ------------------------------------------------------------------ turns, the end
def turn_ended(state: dict, d: dict) -> dict:
    return {**state, "current": d["next"], "phase": "roll", "rolled": False, "crop_played": False,
            "offers_made": 0, "offers_announced": 0, "dice": None}


def game_won(state: dict, d: dict) -> dict:
    return {**state, "winner": d["seat"], "phase": "over", "discarding": [], "offers": offers.empty()}


EVOLVERS = {
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
