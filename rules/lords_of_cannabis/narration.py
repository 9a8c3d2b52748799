"""Lords of Cannabis's events in the rulebook's words (rules/narration.py): "Ana rolled 3 and 5 for 8: Bo
collected 1 FUEL."  Resources are named as the rulebook prints them (FUEL, CEMENT, WATER, SEEDS, SOIL).

Places: a sentence names a brick, an intersection or a path by the resources around it ("between
FUEL, SEEDS and SOIL"), from the fixed board (board.json), since the narrator reads only the event.
Their refs are places whose id says which of the board's three numberings it is in, "brick:5",
"intersection:12", "path:30" (the number the views and commands use after the colon), because a bare
12 would be ambiguous between them.  Crop Cards are cards with their crops.json id.

Secrets: a bought Crop Card and a stolen Stash Card are named only to the readers their event's
`secret` reaches (the narrator is handed the event as its reader may read it).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from rules.lords_of_cannabis.board import BRICK_RESOURCE, NODE_BRICKS, NODE_DOCK, PATHS, RESOURCES
from rules.lords_of_cannabis.cards import CARD
from rules.narration import Names, Narration, dice, ref, said


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def cards(counts: Any) -> str:
    """Stash Cards by resource, a list of 5 counts or {name: n}: "1 CEMENT and 2 WATER"."""
    named = counts.items() if isinstance(counts, Mapping) else zip(RESOURCES, counts)
    words = [f"{n} {name}" for name, n in named if n]
    return _and(words) if words else "no Stash Card"


def _around(bricks: Any) -> str:
    return _and([RESOURCES[BRICK_RESOURCE[b]] for b in sorted(bricks, key=lambda b: BRICK_RESOURCE[b])])


def brick(b: int) -> tuple[str, dict]:
    """ "a SEEDS brick" and its ref."""
    text = f"a {RESOURCES[BRICK_RESOURCE[b]]} brick"
    return text, ref("place", f"brick:{b}", text)


def intersection(node: int) -> tuple[str, dict]:
    """ "between FUEL, SEEDS and SOIL" (on the coast: "on the coast by SEEDS, at a 2:1 SEEDS dock")."""
    bricks = NODE_BRICKS[node]
    text = f"between {_around(bricks)}" if len(bricks) == 3 else f"on the coast by {_around(bricks)}"
    dock = NODE_DOCK[node]
    if dock is not None:
        text += ", at a 3:1 loading dock" if dock == "?" else f", at a 2:1 {RESOURCES[dock]} loading dock"
    return text, ref("place", f"intersection:{node}", text)


def path(p: int) -> tuple[str, dict]:
    """ "between FUEL and SEEDS" (where the two bricks meet) or "on the coast of SEEDS"."""
    a, b = PATHS[p]
    beside = sorted(set(NODE_BRICKS[a]) & set(NODE_BRICKS[b]))
    text = f"between {_around(beside)}" if len(beside) == 2 else f"on the coast of {_around(beside)}"
    return text, ref("place", f"path:{p}", text)


def crop(card_id: str) -> tuple[str, dict]:
    name = CARD[card_id]["name"] if card_id in CARD else "a Crop Card"
    return name, ref("card", card_id, name)


# ------------------------------------------------------------------ Placement
def game_started(d: Mapping[str, Any], names: Names) -> Narration:
    """The roll for who starts, as dice; the deck's order is nobody's to read."""
    rolls = [f"{names(seat)} {dice(a, b)}" for seat, a, b in d.get("rolls") or []]
    rolled = f"For who starts, {'; '.join(rolls)}: " if rolls else ""
    return said(f"{rolled}{names(d['first'])} places first.", names.ref(d["first"]))


def deferred(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} deferred the first placement to the next player.", names.ref(d["seat"]))


def _built(verb: str, what: str, where: Callable[[int], tuple[str, dict]], key: str) -> Callable:
    def narrate(d: Mapping[str, Any], names: Names) -> Narration:
        place, place_ref = where(d[key])
        free = " free" if d.get("free") else ""
        return said(f"{names(d['seat'])} {verb} a {what}{free} {place}.", names.ref(d["seat"]), place_ref)
    return narrate


def starting_stash_taken(d: Mapping[str, Any], names: Names) -> Narration:
    place, place_ref = intersection(d["at"])
    return said(f"{names(d['seat'])} took a starting Stash of {cards(d['cards'])} from the Greenhouse {place}.",
                names.ref(d["seat"]), place_ref)


# ------------------------------------------------------------------ the turn
def dice_rolled(d: Mapping[str, Any], names: Names) -> Narration:
    """A 7 produces nothing and calls the Sheriff; otherwise who collects what."""
    who, rolled = names(d["seat"]), dice(*d["dice"])
    if d.get("gains") is None:
        return said(f"{who} rolled {rolled}: a 7, the Sheriff moves.", names.ref(d["seat"]))
    collected = [(seat, cards(gain)) for seat, gain in enumerate(d["gains"]) if any(gain)]
    told = "; ".join(f"{names(seat)} collected {what}" for seat, what in collected) or "nobody collected"
    return said(f"{who} rolled {rolled} for {sum(d['dice'])}: {told}.", names.ref(d["seat"]),
                *(names.ref(seat) for seat, _ in collected if seat != d["seat"]))


def sheriff_moved(d: Mapping[str, Any], names: Names) -> Narration:
    place, place_ref = brick(d["brick"])
    busted = list(d.get("discard") or [])
    must = (f"; {_and([names(s) for s in busted])} must discard a Stash Card" if busted else "")
    return said(f"{names(d['seat'])} moved the Sheriff to {place}{must}.", names.ref(d["seat"]), place_ref,
                *(names.ref(s) for s in busted if s != d["seat"]))


def stash_discarded(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} discarded 1 {d['resource']}.", names.ref(d["seat"]))


def crop_bought(d: Mapping[str, Any], names: Names) -> Narration:
    """Which card: its buyer (the secret), or everyone for a card drawn face up (version 2)."""
    card_id = d.get("card") or (d.get("secret") or {}).get("card")
    who = names(d["seat"])
    if card_id:
        name, card_ref = crop(card_id)
        return said(f"{who} bought a Crop Card: {name}.", names.ref(d["seat"]), card_ref)
    face_down = ", a Victory Point card laid face down" if d.get("victory") else ""
    return said(f"{who} bought a Crop Card{face_down}.", names.ref(d["seat"]))


def card_stolen(d: Mapping[str, Any], names: Names) -> Narration:
    """Which card: the thief and the victim only."""
    taken = (d.get("secret") or {}).get("resource")
    what = f"1 {taken}" if taken else "a random Stash Card"
    return said(f"{names(d['seat'])} took {what} from {names(d['from'])}.", names.ref(d["seat"]),
                names.ref(d["from"]))


# ------------------------------------------------------------------ Crop Cards
def gangsta_played(d: Mapping[str, Any], names: Names) -> Narration:
    place, place_ref = brick(d["brick"])
    return said(f"{names(d['seat'])} played a Gangsta and sent the Sheriff to {place}.", names.ref(d["seat"]),
                place_ref)


def tunnel_building_played(d: Mapping[str, Any], names: Names) -> Narration:
    count = d["tunnels"]
    free = "1 free Tunnel" if count == 1 else f"{count} free Tunnels"
    return said(f"{names(d['seat'])} played Tunnel Building: {free} to build.", names.ref(d["seat"]))


def tunnel_building_ended(d: Mapping[str, Any], names: Names) -> Narration:
    unused = d.get("unused") or 0
    lost = f", {unused} free Tunnel{'s' if unused > 1 else ''} unused" if unused else ""
    return said(f"{names(d['seat'])} finished Tunnel Building{lost}.", names.ref(d["seat"]))


def up_sizing_played(d: Mapping[str, Any], names: Names) -> Narration:
    place, place_ref = intersection(d["at"])
    return said(f"{names(d['seat'])} played Up-Sizing: the Greenhouse {place} became a Plantation.",
                names.ref(d["seat"]), place_ref)


def strong_arm_played(d: Mapping[str, Any], names: Names) -> Narration:
    resource = d["resource"]
    gave = [f"{names(s)} gave {n}" if n else f"{names(s)} had none" for s, n in enumerate(d.get("taken") or [])
            if s != d["seat"]]
    return said(f"{names(d['seat'])} played Strong-Arm on {resource}" + (f": {_and(gave)}." if gave else "."),
                names.ref(d["seat"]))


def mass_production_played(d: Mapping[str, Any], names: Names) -> Narration:
    counts = {r: list(d["resources"]).count(r) for r in RESOURCES}
    return said(f"{names(d['seat'])} played Mass Production: {cards(counts)} from the bank.", names.ref(d["seat"]))


def get_jacked_played(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} played Get Jacked! against {names(d['victim'])}.", names.ref(d["seat"]),
                names.ref(d["victim"]))


# ------------------------------------------------------------------ trade
def bank_traded(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} traded {cards(d['give'])} to the bank for 1 {d['get']}.", names.ref(d["seat"]))


def offer_made(d: Mapping[str, Any], names: Names) -> Narration:
    terms = d["terms"]
    return said(f"{names(d['from'])} offered {names(d['to'])} {cards(terms['give'])} for {cards(terms['get'])}.",
                names.ref(d["from"]), names.ref(d["to"]))


def offer_accepted(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['to'])} accepted {names(d['from'])}'s offer.", names.ref(d["to"]), names.ref(d["from"]))


def offer_declined(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['by'])} declined an offer.", names.ref(d["by"]))


def offer_countered(d: Mapping[str, Any], names: Names) -> Narration:
    terms = d["terms"]
    return said(f"{names(d['by'])} answered {names(d['to'])} with a counter-offer: {cards(terms['give'])} for "
                f"{cards(terms['get'])}.", names.ref(d["by"]), names.ref(d["to"]))


def offer_withdrawn(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['by'])} withdrew an offer.", names.ref(d["by"]))


def stash_traded(d: Mapping[str, Any], names: Names) -> Narration:
    """The offer's terms are its maker's (`from`): they give `give` and get `get`."""
    terms = d["terms"]
    return said(f"{names(d['from'])} gave {names(d['to'])} {cards(terms['give'])} for {cards(terms['get'])}.",
                names.ref(d["from"]), names.ref(d["to"]))


def turn_ended(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} passed the dice to {names(d['next'])}.", names.ref(d["seat"]),
                *([names.ref(d["next"])] if d["next"] != d["seat"] else []))


def game_won(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} reached {d['points']} Victory Points: the Lord of Cannabis!",
                names.ref(d["seat"]))


NARRATIONS: dict[str, Callable[[Mapping[str, Any], Names], Narration]] = {
    "GameStarted": game_started, "Deferred": deferred,
    "GreenhousePlaced": _built("placed", "Greenhouse", intersection, "at"),
    "TunnelPlaced": _built("placed", "Tunnel", path, "path"),
    "StartingStashTaken": starting_stash_taken, "DiceRolled": dice_rolled, "SheriffMoved": sheriff_moved,
    "StashDiscarded": stash_discarded,
    "TunnelBuilt": _built("built", "Tunnel", path, "path"),
    "GreenhouseBuilt": _built("built", "Greenhouse", intersection, "at"),
    "PlantationBuilt": _built("built", "Plantation", intersection, "at"),
    "CropBought": crop_bought, "GangstaPlayed": gangsta_played, "CardStolen": card_stolen,
    "TunnelBuildingPlayed": tunnel_building_played, "TunnelBuildingEnded": tunnel_building_ended,
    "UpSizingPlayed": up_sizing_played, "StrongArmPlayed": strong_arm_played,
    "MassProductionPlayed": mass_production_played, "GetJackedPlayed": get_jacked_played,
    "BankTraded": bank_traded, "OfferMade": offer_made, "OfferAccepted": offer_accepted,
    "OfferDeclined": offer_declined, "OfferCountered": offer_countered, "OfferWithdrawn": offer_withdrawn,
    "StashTraded": stash_traded, "TurnEnded": turn_ended, "GameWon": game_won,
}
