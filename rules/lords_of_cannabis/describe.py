"""Lords of Cannabis describes itself: commands, events and the view in the rulebook's words
(docs/rules/lords-of-cannabis.md "Commands", "Events", "View"), a label for every legal move, and the
static data (the reconstructed board with drawing positions, the Crop deck, the Building Conversions Card)
from the files the rules read.

Labels are read by the seat that may send the move, so they name only what that seat can see: bricks by
resource and chip, an intersection by the bricks around it, never another player's hand."""
from __future__ import annotations

import math

from rules.blocks import offers
from rules.describe import BOOL, INT, NAT, STR, arr, dict_of, nullable, obj, one_of_consts
from rules.lords_of_cannabis.board import (
    BRICK_COORDS,
    BRICK_NODES,
    BRICK_RESOURCE,
    BRICK_XY,
    BRICKS,
    CHIPS,
    DATA,
    NODE_BRICKS,
    NODE_DOCK,
    NODE_NEIGHBOURS,
    NODE_PATHS,
    NODE_XY,
    PATHS,
    RESOURCES,
)
from rules.lords_of_cannabis.cards import (
    CARD,
    COSTS,
    CROPS,
    LONGEST_TUNNEL_MIN,
    MOB_BOSS_MIN,
    REWARD_POINTS,
    STASH_PER_RESOURCE,
    TILES_PER_COLOUR,
    TUNNELS_PER_COLOUR,
    WINNING_POINTS,
)
from rules.narration import Names, ordinal

AT = "an intersection id, 0-65 (see the board: GET /v1/rulesets/lords_of_cannabis/data)"
PATH = "a path id, 0-88: where two resource bricks (or a brick and the coast) meet"
BRICK = "a resource brick id, 0-23"
RESOURCE = "a resource: FUEL, CEMENT, WATER, SEEDS or SOIL"
TERMS = ('the trade, from your side: {"give": {RESOURCE: count, ...}, "get": {RESOURCE: count, ...}}, '
         "each side at least one card, no resource on both sides")
# the Building Conversions Card's point values: "Each Greenhouse is worth 1 Victory Point", "Each Plantation
# is worth 2 Victory Points" (Tunnels and Crop Cards score only through the reward and Victory Point cards)
POINTS = {"tunnel": 0, "greenhouse": 1, "plantation": 2, "crop": 0}
OFFER = "the id of an open offer addressed to you (see the view's offers)"
COMMAND_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "Defer": ("Placement: defer your turn to the next player (first placement round only)", {}),
    "PlaceGreenhouse": ("Placement: place a Greenhouse on a vacant intersection, all three adjacent ones vacant",
                        {"at": AT}),
    "PlaceTunnel": ("Placement: place the Tunnel connected to the Greenhouse just placed",
                    {"path": PATH + ", touching the Greenhouse just placed"}),
    "TakeStartingStash": ("Placement: receive your first Stash Cards, one of each resource bordering one of "
                          "your two Greenhouses", {"at": "the intersection of your Greenhouse chosen"}),
    "Roll": ("Turn Overview: roll both dice; everyone built around the rolled number collects Stash Cards", {}),
    "MoveSheriff": ("Special Actions: a 7 was rolled, move the Sheriff to a new resource; anyone built around "
                    "it discards one Stash Card", {"brick": BRICK + ", not the one the Sheriff is on"}),
    "Discard": ("Special Actions: busted by the Sheriff, discard one of your Stash Cards",
                {"resource": RESOURCE + " you hold"}),
    "EndTurn": ("Turn Overview: pass the dice to the person to your left", {}),
    "BuildTunnel": ("Tunnels (1 CEMENT, 1 WATER; free during Tunnel Building): connect a new Tunnel to your "
                    "Tunnel or establishment", {"path": PATH + ", empty, touching your Tunnels or buildings"}),
    "BuildGreenhouse": ("Greenhouse (1 each of CEMENT, WATER, SEEDS, SOIL): build on your Tunnel, on a vacant "
                        "intersection whose three adjacent ones are vacant", {"at": AT}),
    "BuildPlantation": ("Plantation (3 FUEL, 2 SOIL): flip one of your Greenhouses to its Plantation side",
                        {"at": "the intersection of your Greenhouse"}),
    "BuyCrop": ("Buying a Crop Card (1 each of FUEL, SEEDS, SOIL): take one from the top of the pile", {}),
    "PlayGangsta": ("Gangsta Card: dispatch the Sheriff elsewhere and take a random card from each player "
                    "busted there", {"brick": BRICK + ", not the one the Sheriff is on"}),
    "PlayTunnelBuilding": ("Progress Card Tunnel Building: build up to 2 Tunnels free of cost", {}),
    "EndTunnelBuilding": ("Stop building free Tunnels (any left are lost)", {}),
    "PlayUpSizing": ("Progress Card Up-Sizing: flip one of your Greenhouses to a Plantation free of cost",
                     {"at": "the intersection of your Greenhouse"}),
    "PlayStrongArm": ("Progress Card Strong-Arm: name a resource; every other player gives you all of it",
                      {"resource": RESOURCE}),
    "PlayMassProduction": ("Progress Card Mass Production: take any 2 Stash Cards from the bank",
                           {"resources": "the two resources taken (the same one twice if you like)"}),
    "PlayGetJacked": ("Progress Card Get Jacked!: take a random Stash Card from one other player",
                      {"victim": "the seat of the other player"}),
    "TradeWithBank": ("Trade with the Bank: four matching Stash Cards (3 at a \"?\" loading dock, 2 at the "
                      "dock of that resource) for one of your choice",
                      {"give": RESOURCE + " given, as many as your rate", "get": RESOURCE + " received"}),
    "TradeAnyFour": ("Longest Tunnel: exchange any four Resource Cards into the bank for one of your choice",
                     {"give": "the four Stash Cards given, by resource name", "get": RESOURCE + " received"}),
    "MakeOffer": ("Trade: announce to one player the Stash Cards you would like and those you give up",
                  {"to": "the seat offered the trade", "terms": TERMS}),
    "OfferToAll": ("Trade: announce the same trade to every other player (each answers on their own)",
                   {"terms": TERMS}),
    "AcceptOffer": ("Trade: accept an offer made to you; the cards change hands", {"offer": OFFER}),
    "DeclineOffer": ("Trade: decline an offer made to you", {"offer": OFFER}),
    "CounterOffer": ("Trade: make a counter-offer (the offer closes, yours goes back)",
                     {"offer": OFFER, "terms": TERMS}),
}

EVENT_DOCS: dict[str, str] = {
    "GameStarted": "The table is set: seats, the chips on the bricks, the rolls for who starts, the first "
                   "player (the Crop deck's order: nobody)",
    "Deferred": "A player deferred his first placement",
    "GreenhousePlaced": "A player placed a Greenhouse during Placement",
    "TunnelPlaced": "A player placed the Tunnel connected to it",
    "StartingStashTaken": "A player took his first Stash Cards from one of his Greenhouses",
    "DiceRolled": "The dice were rolled: the Stash Cards each player collects (none on a 7)",
    "SheriffMoved": "After a 7 the Sheriff moved; the players built around his brick must discard",
    "StashDiscarded": "A busted player discarded a Stash Card",
    "TunnelBuilt": "A Tunnel was built (paid, or free during Tunnel Building)",
    "GreenhouseBuilt": "A Greenhouse was built",
    "PlantationBuilt": "A Greenhouse was flipped to a Plantation",
    "CropBought": "A Crop Card was bought (which: its buyer only; version 2: `victory` says whether it is a "
                  "Victory Point card, laid face down in front of the buyer, and a card that had come back "
                  "face up is drawn in the open, `card`)",
    "GangstaPlayed": "A Gangsta Card was played: the Sheriff moved",
    "CardStolen": "A random Stash Card was taken (which: the two players only)",
    "TunnelBuildingPlayed": "Tunnel Building was played: free Tunnels to build",
    "TunnelBuildingEnded": "Tunnel Building is over",
    "UpSizingPlayed": "Up-Sizing was played: a Greenhouse became a Plantation",
    "StrongArmPlayed": "Strong-Arm was played: every other player gave up the named resource",
    "MassProductionPlayed": "Mass Production was played: 2 Stash Cards from the bank",
    "GetJackedPlayed": "Get Jacked! was played against a player",
    "BankTraded": "Stash Cards were traded with the bank",
    **offers.event_docs("trade", "A player", "another of the player's offers was accepted"),
    "StashTraded": "Stash Cards changed hands by an accepted offer",
    "TurnEnded": "The dice passed to the next player",
    "GameWon": "A player reached ten Victory Points on his turn: the Lord of Cannabis",
}

# ------------------------------------------------------------- event data
# The JSON Schema of each event type's `data` as its owner reads it (served by GET /v1/rulesets/{name}/schema
# and typed in the spec): `secret` is optional, since every other reader gets the event without it.
EVENT_DATA: dict[str, dict] = {
    "GameStarted": obj(
        {
            "seats": INT,
            "chips": arr(INT),
            "rolls": arr(arr(INT)),
            "first": INT,
            "secret": obj({"deck": arr(STR)}),
            "rules_version": INT,
        },
        optional=("secret",),
    ),
    "GreenhousePlaced": obj({"seat": INT, "at": INT}),
    "TunnelPlaced": obj({"seat": INT, "path": INT}),
    "StartingStashTaken": obj({"seat": INT, "at": INT, "cards": arr(INT)}),
    "DiceRolled": obj({"seat": INT, "dice": arr(INT), "gains": nullable(arr(arr(INT)))}),
    "TurnEnded": obj({"seat": INT, "next": INT}),
    "PlantationBuilt": obj({"seat": INT, "at": INT, "free": BOOL}),
    "OfferMade": obj({"offer": INT, "from": INT, "to": INT, "terms": obj({"give": dict_of(INT), "get": dict_of(INT)})}),
    "OfferDeclined": obj({"offer": INT, "by": INT}),
    "CropBought": obj({"seat": INT, "victory": BOOL, "secret": obj({"card": STR})}, optional=("secret",)),
    "GetJackedPlayed": obj({"seat": INT, "victim": INT}),
    "CardStolen": obj({"seat": INT, "from": INT, "secret": obj({"resource": STR})}, optional=("secret",)),
    "SheriffMoved": obj({"seat": INT, "brick": INT, "discard": arr(INT)}),
    "GangstaPlayed": obj({"seat": INT, "brick": INT}),
    "StashDiscarded": obj({"seat": INT, "resource": STR}),
    "BankTraded": obj({"seat": INT, "give": dict_of(INT), "get": STR}),
    "OfferAccepted": obj(
        {"offer": INT, "from": INT, "to": INT, "terms": obj({"give": dict_of(INT), "get": dict_of(INT)})}
    ),
    "StashTraded": obj({"from": INT, "to": INT, "terms": obj({"give": dict_of(INT), "get": dict_of(INT)})}),
    "TunnelBuilt": obj({"seat": INT, "path": INT, "free": BOOL}),
    "StrongArmPlayed": obj({"seat": INT, "resource": STR, "taken": arr(INT)}),
    "TunnelBuildingPlayed": obj({"seat": INT, "tunnels": INT}),
    "GreenhouseBuilt": obj({"seat": INT, "at": INT}),
    "MassProductionPlayed": obj({"seat": INT, "resources": arr(STR)}),
    "UpSizingPlayed": obj({"seat": INT, "at": INT}),
    "GameWon": obj({"seat": INT, "points": INT}),
    "OfferCountered": obj(
        {"offer": INT, "by": INT, "counter": INT, "to": INT, "terms": obj({"give": dict_of(INT), "get": dict_of(INT)})}
    ),
    "TunnelBuildingEnded": obj({"seat": INT, "unused": INT}),
    "OfferWithdrawn": obj({"offer": INT, "by": INT}),
    "Deferred": obj({"seat": INT}),
}

# ------------------------------------------------------------------ the view
SEAT: dict = {"type": "integer", "minimum": 0, "maximum": 5}
ID_KEYS = {"propertyNames": {"pattern": "^[0-9]+$"}}  # ids as JSON object keys
_RESOURCE = one_of_consts(*RESOURCES)
_HAND = obj({name: NAT for name in RESOURCES})
_SIDE = {**obj({name: {"type": "integer", "minimum": 1} for name in RESOURCES}, optional=RESOURCES),
         "minProperties": 1}
_TERMS = obj({"give": _SIDE, "get": _SIDE})
# outcome(state) (view.py): the one seat that reached 10 Victory Points, and every seat's points then
OUTCOME_SCHEMA = obj({"winners": arr(SEAT), "reason": STR, "points": arr(NAT)})

_PLAYER = obj({
    "seat": SEAT, "stash_count": NAT, "crop_count": NAT, "gangstas": NAT, "points": NAT,
    "tunnels_left": NAT, "tiles_left": NAT, "tunnel_length": NAT,
    "stash": _HAND, "crops": arr(one_of_consts(*CARD)), "total_points": NAT, "hidden_points": NAT,
    "victory_cards": NAT, "crops_shown": arr(one_of_consts(*CARD)),
}, optional=("stash", "crops", "total_points", "hidden_points",  # the seat's own (everyone's once over)
             "victory_cards", "crops_shown"))  # version 2: face down in front of them; drawn face up
_BOARD = obj({
    "bricks": arr(obj({"id": NAT, "coords": {**arr(INT), "minItems": 2, "maxItems": 2}, "resource": _RESOURCE,
                       "chip": {"type": "integer", "minimum": 2, "maximum": 12},
                       "corners": {**arr(NAT), "minItems": 6, "maxItems": 6}})),
    "paths": arr({**arr(NAT), "minItems": 2, "maxItems": 2}),
    "docks": {**dict_of(one_of_consts("?", *RESOURCES)), **ID_KEYS},
})
_OWNERS = {**dict_of(SEAT), **ID_KEYS}
VIEW_SCHEMA = obj({
    "phase": one_of_consts("place", "stash", "roll", "main", "sheriff", "discard", "tunnels", "over"),
    "current": SEAT,
    "first": SEAT,
    "you": nullable(SEAT),
    "board": _BOARD,
    "sheriff": nullable(NAT),
    "dice": nullable({**arr({"type": "integer", "minimum": 1, "maximum": 6}), "minItems": 2, "maxItems": 2}),
    "greenhouses": _OWNERS,
    "plantations": _OWNERS,
    "tunnels": _OWNERS,
    "players": arr(_PLAYER),
    "bank": _HAND,
    "crop_deck_count": NAT,
    "crop_deck_face_up": arr(one_of_consts(*CARD)),
    "longest_tunnel": nullable(SEAT),
    "mob_boss": nullable(SEAT),
    "rolled": BOOL,
    "crop_played": BOOL,
    "offers": arr(obj({"id": NAT, "from": SEAT, "to": SEAT, "terms": _TERMS})),
    "discarding": arr(SEAT),
    "free_tunnels": NAT,
    "placement": nullable(obj({"round": one_of_consts(1, 2), "queue": arr(SEAT), "deferred": arr(SEAT),
                               "placed": arr(SEAT), "greenhouse": nullable(NAT)})),
    "stash_pending": arr(SEAT),
    "winner": nullable(SEAT),
}, optional=("crop_deck_face_up",))  # version 2: the played Progress cards at the bottom, face up


# ------------------------------------------------------------------ labels
# A label is written from the seat's view (Ruleset.label): bricks by resource and chip, an intersection
# or a path by the bricks around it (on the coast, by which corner or side of its brick), seats by the
# players' names; never a board id or a seat number.
CORNERS = ("top-right", "top", "top-left", "bottom-left", "bottom", "bottom-right")  # by angle: 30, 90, 150...
SIDES_WORDS = ("right", "top-right", "top-left", "left", "bottom-left", "bottom-right")  # by angle: 0, 60, 120...


def _towards(origin: tuple[float, float], point: tuple[float, float], words: tuple, offset: float) -> str:
    """Which of six directions `point` lies in from `origin` (the board's y grows downwards)."""
    angle = math.degrees(math.atan2(origin[1] - point[1], point[0] - origin[0]))
    return words[round((angle - offset) / 60) % 6]


def brick(view: dict, b: int) -> str:
    """A brick as the table sees it: "SEEDS 9" (its resource and numbered chip); where another brick has the
    same, with its row counted from the top ("SEEDS 9 (row 2)", "SEEDS 9 (row 2, 1st from the left)")."""
    bricks = view["board"]["bricks"]
    name = f"{bricks[b]['resource']} {bricks[b]['chip']}"
    twins = [x for x, other in enumerate(bricks) if (other["resource"], other["chip"]) == (bricks[b]["resource"],
                                                                                          bricks[b]["chip"])]
    if len(twins) == 1:
        return name
    row = BRICK_COORDS[b][1]
    in_row = [x for x in twins if BRICK_COORDS[x][1] == row]  # bricks are in reading order: left to right
    where = f"row {row - BRICK_COORDS[0][1] + 1}"
    if len(in_row) > 1:
        where += f", {ordinal(in_row.index(b) + 1)} from the left"
    return f"{name} ({where})"


def _listing(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def intersection(view: dict, node: int) -> str:
    """An intersection by the bricks around it: "the corner of FUEL 4, SEEDS 9 and SOIL 6", on the coast "the
    top-left corner of SEEDS 9, at a 2:1 SEEDS dock"."""
    around = NODE_BRICKS[node]
    if len(around) == 1:
        where = f"the {_towards(BRICK_XY[around[0]], NODE_XY[node], CORNERS, 30)} corner of {brick(view, around[0])}"
    else:
        where = f"the {'coast ' if len(around) == 2 else ''}corner of {_listing([brick(view, b) for b in around])}"
    dock = NODE_DOCK[node]
    return where + ("" if dock is None else f", at a {'3:1' if dock == '?' else '2:1 ' + RESOURCES[dock]} dock")


def path(view: dict, p: int) -> str:
    """A path by the bricks it runs between: "between FUEL 4 and SEEDS 9", on the coast "the top-left side of
    SEEDS 9"."""
    a, b = PATHS[p]
    beside = sorted(set(NODE_BRICKS[a]) & set(NODE_BRICKS[b]))
    if len(beside) == 2:
        return f"between {brick(view, beside[0])} and {brick(view, beside[1])}"
    middle = ((NODE_XY[a][0] + NODE_XY[b][0]) / 2, (NODE_XY[a][1] + NODE_XY[b][1]) / 2)
    return f"the {_towards(BRICK_XY[beside[0]], middle, SIDES_WORDS, 0)} side of {brick(view, beside[0])}"


def cards(counts) -> str:
    """A count per resource (list or {name: n}) as "1 CEMENT + 1 WATER"."""
    named = counts.items() if isinstance(counts, dict) else zip(RESOURCES, counts)
    return " + ".join(f"{n} {name}" for name, n in named if n) or "nothing"


def _cost(what: str) -> str:
    return cards(COSTS[what])


def _offer(view: dict, offer_id: int) -> dict:
    found = next((o for o in view["offers"] if o["id"] == offer_id), None)
    return found or {"from": None, "terms": {"give": {}, "get": {}}}


def _who(names: Names, seats: list[int]) -> str:
    return _listing([names(s) for s in seats])


def _busted(view: dict, b: int) -> list[int]:
    """Players built around a brick who hold a Stash card (public: buildings and how many cards each holds)."""
    corners = {str(n) for n in BRICK_NODES[b]}
    built = {seat for sites in (view["greenhouses"], view["plantations"]) for n, seat in sites.items() if n in corners}
    return sorted(s for s in built if view["players"][s]["stash_count"])


def _move_sheriff(view: dict, seat: int, names: Names, m: dict) -> str:
    """Who must discard: everyone built around the brick holding a card, the roller too (all public)."""
    busted = _busted(view, m["brick"])
    return f"Move the Sheriff to {brick(view, m['brick'])}" + (
        f": {_who(names, busted)} discard{'s' if len(busted) == 1 else ''}" if busted else "")


def _gangsta(view: dict, seat: int, names: Names, m: dict) -> str:
    """Who loses a random card: the other players built around the brick who hold one."""
    victims = [s for s in _busted(view, m["brick"]) if s != seat]
    return f"Play a Gangsta: send the Sheriff to {brick(view, m['brick'])}" + (
        f", taking a card from {_who(names, victims)}" if victims else "")


def _build_tunnel(view: dict, seat: int, names: Names, m: dict) -> str:
    if view["phase"] == "tunnels":
        return f"Build a free Tunnel {_on(view, m['path'])}, {view['free_tunnels']} free left"
    return f"Build a Tunnel {_on(view, m['path'])} for {_cost('tunnel')}"


def _on(view: dict, p: int) -> str:
    """Where a Tunnel goes: "between FUEL 4 and SEEDS 9", "on the top side of SEEDS 9"."""
    where = path(view, p)
    return where if where.startswith("between") else f"on {where}"


def _bank_rate(view: dict, seat: int, give: str) -> int:
    """Cards of a resource given for one from the bank: 4, 3 with a "?" dock, 2 with its own dock (the
    seat's buildings on docks are public)."""
    mine = {int(n) for sites in (view["greenhouses"], view["plantations"]) for n, s in sites.items() if s == seat}
    docks = {NODE_DOCK[n] for n in mine if NODE_DOCK[n] is not None}
    return 2 if RESOURCES.index(give) in docks else 3 if "?" in docks else 4


def _answer(verb: str, view: dict, names: Names, m: dict) -> str:
    offer = _offer(view, m["offer"])
    terms, who = offer["terms"], names(offer["from"]) if offer["from"] is not None else "another player"
    if verb == "Accept":
        return f"Accept {who}'s offer: give {cards(terms['get'])}, get {cards(terms['give'])}"
    if verb == "Decline":
        return f"Decline {who}'s offer of {cards(terms['give'])} for {cards(terms['get'])}"
    return f"Counter {who}'s offer: your {cards(m['terms']['give'])} for their {cards(m['terms']['get'])}"


def _stash(view: dict, seat: int, names: Names, m: dict) -> str:
    got = [0] * 5
    for b in NODE_BRICKS[m["at"]]:
        got[BRICK_RESOURCE[b]] = 1
    return f"Take your starting Stash from the Greenhouse at {intersection(view, m['at'])}: {cards(got)}"


LABELS = {
    "Defer": lambda v, seat, n, m: "Defer your placement to the next player",
    "PlaceGreenhouse": lambda v, seat, n, m: f"Place a Greenhouse at {intersection(v, m['at'])}",
    "PlaceTunnel": lambda v, seat, n, m: f"Place a Tunnel {_on(v, m['path'])}",
    "TakeStartingStash": _stash,
    "Roll": lambda v, seat, n, m: "Roll the dice",
    "MoveSheriff": _move_sheriff,
    "Discard": lambda v, seat, n, m: f"Discard 1 {m['resource']}",
    "EndTurn": lambda v, seat, n, m: "End your turn: pass the dice",
    "BuildTunnel": _build_tunnel,
    "BuildGreenhouse": lambda v, seat, n, m: f"Build a Greenhouse at {intersection(v, m['at'])} for "
                                             f"{_cost('greenhouse')}",
    "BuildPlantation": lambda v, seat, n, m: f"Upgrade your Greenhouse at {intersection(v, m['at'])} to a "
                                             f"Plantation for {_cost('plantation')}",
    "BuyCrop": lambda v, seat, n, m: f"Buy a Crop Card for {_cost('crop')} ({v['crop_deck_count']} in the pile)",
    "PlayGangsta": _gangsta,
    "PlayTunnelBuilding": lambda v, seat, n, m: "Play Tunnel Building: " + (
        "up to 2 free Tunnels" if v["players"][seat]["tunnels_left"] >= 2 else "1 free Tunnel (your last)"),
    "EndTunnelBuilding": lambda v, seat, n, m: f"Stop building free Tunnels ({v['free_tunnels']} unused)",
    "PlayUpSizing": lambda v, seat, n, m: f"Play Up-Sizing: your Greenhouse at {intersection(v, m['at'])} "
                                          "becomes a Plantation",
    "PlayStrongArm": lambda v, seat, n, m: f"Play Strong-Arm: every other player gives you all their "
                                           f"{m['resource']}",
    "PlayMassProduction": lambda v, seat, n, m: f"Play Mass Production: take {' and '.join(m['resources'])} "
                                                "from the bank",
    "PlayGetJacked": lambda v, seat, n, m: f"Play Get Jacked!: take a random Stash Card from {n(m['victim'])}",
    "TradeWithBank": lambda v, seat, n, m: f"Trade {_bank_rate(v, seat, m['give'])} {m['give']} to the bank "
                                           f"for 1 {m['get']}",
    "TradeAnyFour": lambda v, seat, n, m: f"Longest Tunnel: trade "
                                          f"{cards({r: m['give'].count(r) for r in RESOURCES})} to the bank for "
                                          f"1 {m['get']}",
    "MakeOffer": lambda v, seat, n, m: f"Offer {n(m['to'])} your {cards(m['terms']['give'])} for their "
                                       f"{cards(m['terms']['get'])}",
    "OfferToAll": lambda v, seat, n, m: f"Offer everyone your {cards(m['terms']['give'])} for their "
                                        f"{cards(m['terms']['get'])}",
    "AcceptOffer": lambda v, seat, n, m: _answer("Accept", v, n, m),
    "DeclineOffer": lambda v, seat, n, m: _answer("Decline", v, n, m),
    "CounterOffer": lambda v, seat, n, m: _answer("Counter", v, n, m),
}


def label(view: dict, seat: int, move: dict, names: Names = Names()) -> str:
    """A legal move in the rulebook's words, from the seat's view, e.g. "Build a Greenhouse at the corner of
    FUEL 4, SEEDS 9 and SOIL 6 for 1 CEMENT + 1 WATER + 1 SEEDS + 1 SOIL"."""
    return LABELS[move["type"]](view, seat, names, move)


# ------------------------------------------------------------------ static data
def _dock(dock) -> str | None:
    return dock if dock is None or dock == "?" else RESOURCES[dock]


def static_data() -> dict:
    """The board (board.json with its derived geometry and drawing positions), the Crop deck (crops.json)
    and the Building Conversions Card, as the rules read them.  The chips' placement is per game (the view's
    board); here is the set of chips."""
    bricks = [{"id": b, "resource": RESOURCES[BRICK_RESOURCE[b]], "coords": list(BRICK_COORDS[b]),
               "cube": [*BRICK_COORDS[b], -sum(BRICK_COORDS[b])], "x": BRICK_XY[b][0], "y": BRICK_XY[b][1],
               "corners": list(BRICK_NODES[b])} for b in range(BRICKS)]
    intersections = [{"id": n, "x": NODE_XY[n][0], "y": NODE_XY[n][1], "bricks": list(NODE_BRICKS[n]),
                      "paths": list(NODE_PATHS[n]), "neighbours": list(NODE_NEIGHBOURS[n]),
                      "dock": _dock(NODE_DOCK[n])}
                     for n in range(len(NODE_XY))]
    paths = [{"id": p, "ends": list(ends),
              "bricks": sorted(set(NODE_BRICKS[ends[0]]) & set(NODE_BRICKS[ends[1]]))} for p, ends in enumerate(PATHS)]
    return {
        "source": "rules/lords_of_cannabis/board.json and crops.json, as the rules read them "
                  "(reconstructed: docs/rules/lords-of-cannabis.md)",
        "board": {"reconstructed": DATA["reconstructed"], "rows": list(DATA["rows"]),
                  "layout": "x to the right, y downward; a brick is 1 wide and rows are 0.75 apart (a brick wall, "
                            "each brick touching two beside it, two above, two below); positions derived from the "
                            "reconstructed axial coordinates",
                  "bricks": bricks, "intersections": intersections, "paths": paths, "docks": list(DATA["docks"]),
                  "chips": list(CHIPS)},
        "resources": list(RESOURCES),
        "crops": CROPS,
        "building_conversions": {what: {"cost": dict(zip(RESOURCES, cost)), "points": POINTS[what]}
                                 for what, cost in COSTS.items()},
        "rewards": {"longest_tunnel": {"points": REWARD_POINTS, "min_tunnels": LONGEST_TUNNEL_MIN},
                    "mob_boss": {"points": REWARD_POINTS, "min_gangstas": MOB_BOSS_MIN}},
        "limits": {"tunnels_per_colour": TUNNELS_PER_COLOUR, "tiles_per_colour": TILES_PER_COLOUR,
                   "stash_per_resource": STASH_PER_RESOURCE, "winning_points": WINNING_POINTS},
    }

