"""The state's shape and the queries the rules ask of it.

State (JSON, compact; evolve copies only what changes):

    seats, first (highest roller), current (whose turn or placement), phase:
        "place" | "stash" | "roll" | "main" | "sheriff" | "discard" | "tunnels" | "over"
    setup          {"round", "queue", "deferred", "placed", "greenhouse"} while placing, else None
    stash_pending  seats still to take their starting Stash
    chips[brick], sheriff (brick or None: off the board at the start)
    hands[seat]    Stash cards as a count per resource (RESOURCES order); bank[resource]
    crops[seat]    Crop card ids in hand (hidden), deck (ids, top first), gangstas[seat] played face up
    deck_face_up   (version 2) how many cards at the bottom of the deck lie face up: played Progress cards,
                   public until drawn again (absent: none)
    crops_shown[seat]  (version 2) the cards of a hand everyone saw drawn face up (absent: none)
    sites[node]    None or [seat, 1 Greenhouse | 2 Plantation]; tunnels[path] None or seat
    stock[seat]    [Tunnels left, tiles left]; points[seat] from buildings; tunnel_length[seat]
    longest, mob_boss  the reward cards' holders (None: on the table)
    rolled, crop_played, offers_made   this turn (offers_made: one per addressee); dice (last roll);
                   offers (rules.blocks.offers book)
    offers_announced  offers and counter-offers this turn, an offer to all once (version 2's limit, trade.py)
    free_tunnels, resume   Tunnel Building: free Tunnels left, the phase to go back to
    discarding     seats that must discard one Stash card after a 7
    winner
"""
from __future__ import annotations

from rules.lords_of_cannabis.board import NODE_DOCK, NODE_NEIGHBOURS, NODE_PATHS, PATHS
from rules.lords_of_cannabis.cards import REWARD_POINTS, VICTORY_CARDS

DOCK_NODES = tuple((n, d) for n, d in enumerate(NODE_DOCK) if d is not None)


def can_pay(hand: list[int], cost) -> bool:
    """Whether a hand holds a cost (unrolled: asked thousands of times a game)."""
    return (hand[0] >= cost[0] and hand[1] >= cost[1] and hand[2] >= cost[2] and hand[3] >= cost[3]
            and hand[4] >= cost[4])


def minus(hand: list[int], cost) -> list[int]:
    return [h - c for h, c in zip(hand, cost)]


def plus(hand: list[int], gain) -> list[int]:
    return [h + g for h, g in zip(hand, gain)]


def face_up(state: dict) -> int:
    """How many cards at the bottom of the Crop deck lie face up (version 2): "All played Crop Cards are
    returned to the bottom of the deck face up." Cards are drawn from the top and returned to the bottom,
    so the face-up cards are always the deck's last ones."""
    return state.get("deck_face_up", 0)


def top_face_up(state: dict) -> bool:
    """Whether the next Crop card drawn is one that came back face up (everyone sees which it is)."""
    return bool(state["deck"]) and face_up(state) >= len(state["deck"])


def shown_crops(state: dict, seat: int) -> list[str]:
    """The cards of a seat's hand everyone saw it draw face up (version 2), until it plays them."""
    return state.get("crops_shown", [[]] * state["seats"])[seat]


def hidden_points(state: dict, seat: int) -> int:
    """Victory Point cards held face down."""
    return sum(1 for card in state["crops"][seat] if card in VICTORY_CARDS)


def public_points(state: dict, seat: int) -> int:
    """Buildings and reward cards: what every seat can count."""
    return (state["points"][seat] + REWARD_POINTS * (state["longest"] == seat)
            + REWARD_POINTS * (state["mob_boss"] == seat))


def total_points(state: dict, seat: int) -> int:
    """Every Victory Point the seat has, hidden Victory Point cards included."""
    return public_points(state, seat) + hidden_points(state, seat)


def bank_rates(state: dict, seat: int) -> list[int]:
    """Cards of a resource given for one from the bank: 4, 3 with a "?" dock, 2 with its own dock."""
    rates = [4] * 5
    sites = state["sites"]
    for node, dock in DOCK_NODES:
        site = sites[node]
        if site is not None and site[0] == seat:
            if dock == "?":
                rates = [min(r, 3) for r in rates]
            else:
                rates[dock] = 2
    return rates


def is_free_spot(sites: list, node: int) -> bool:
    """Vacant, and all adjacent intersections vacant (the distance rule)."""
    return sites[node] is None and all(sites[m] is None for m in NODE_NEIGHBOURS[node])


def own_nodes(state: dict, seat: int) -> set[int]:
    """Intersections a new Tunnel of `seat` may start from: its buildings, and its Tunnels' ends
    not occupied by another player's building."""
    sites, out = state["sites"], set()
    for path, owner in enumerate(state["tunnels"]):
        if owner == seat:
            for node in PATHS[path]:
                site = sites[node]
                if site is None or site[0] == seat:
                    out.add(node)
    for node, site in enumerate(sites):
        if site is not None and site[0] == seat:
            out.add(node)
    return out


def tunnel_spots(state: dict, seat: int) -> list[int]:
    """Empty paths that connect to the seat's Tunnels or buildings."""
    tunnels = state["tunnels"]
    return sorted({p for n in own_nodes(state, seat) for p in NODE_PATHS[n] if tunnels[p] is None})


def greenhouse_spots(state: dict, seat: int) -> list[int]:
    """Intersections where the seat may build a Greenhouse: free by the distance rule, on its Tunnels."""
    sites, spots = state["sites"], set()
    for path, owner in enumerate(state["tunnels"]):
        if owner == seat:
            spots.update(n for n in PATHS[path] if is_free_spot(sites, n))
    return sorted(spots)


def longest_trail(state: dict, seat: int) -> int:
    """The seat's longest continuous Tunnel: a route using each Tunnel once (forks do not count),
    never passing through an intersection occupied by another player's building."""
    mine = [p for p, owner in enumerate(state["tunnels"]) if owner == seat]
    if not mine:
        return 0
    sites = state["sites"]
    blocked = {n for n, s in enumerate(sites) if s is not None and s[0] != seat}
    links: dict[int, list[tuple[int, int]]] = {}
    for bit, path in enumerate(mine):
        a, b = PATHS[path]
        links.setdefault(a, []).append((b, 1 << bit))
        links.setdefault(b, []).append((a, 1 << bit))

    def walk(node: int, used: int) -> int:
        best = 0
        if node in blocked and used:
            return 0
        for other, bit in links.get(node, ()):
            if not used & bit:
                best = max(best, 1 + walk(other, used | bit))
        return best

    return max(walk(node, 0) for node in links)


def seats_around(state: dict, brick_nodes: tuple[int, ...]) -> list[int]:
    """Seats with a building on a corner of a brick, in seat order."""
    sites = state["sites"]
    return sorted({sites[n][0] for n in brick_nodes if sites[n] is not None})
