"""Trade routes between two of a player's Regions (Rule 5), on top of board.py.

A route is a string: "domestic", "land", "extended", "sea:<ocean>", "hybrid:<ocean>",
"air", or "export" (from the Traphouse, Rule 7).  `routes` answers which routes
join two regions for a trader and the roll each needs before modifiers.
"""
from __future__ import annotations

from functools import cache, lru_cache
from typing import Iterable, Mapping, NamedTuple

from rules.druglord.board import (
    board_at,
    coastal_regions_on,
    extended_land_trade,
    extended_land_trade_either_way,
    hybrid_ports,
    land_trade,
    neighbours,
    same_zone_coastal,
    sea_oceans,
    violence_range,
)

# Roll needed (before Sway, cards and Crackdowns) per route kind.
TARGETS = {"domestic": 2, "land": 2, "extended": 3, "sea": 3, "sea_same_zone": 2, "hybrid": 3,
           "hybrid_same_zone": 2, "air": 4, "export": 4}
RULE_OF_ROUTE = {"domestic": "5.A", "land": "5.B", "extended": "5.B", "sea": "5.C", "hybrid": "5.D",
                 "air": "5.E", "export": "7"}
ROUTE_WORDS = {"domestic": "Domestic Trade", "land": "Land Trade", "extended": "Extended Land Trade (+1 Penalty)",
               "sea": "Sea Trade", "hybrid": "Hybrid Trade", "air": "Air Trade", "export": "Traphouse export"}


def route_kind(route: str) -> str:
    """"sea:atlantic" -> "sea"."""
    return route.split(":", 1)[0]


def route_ocean(route: str) -> str | None:
    """"sea:atlantic" -> "atlantic"; None for routes over no ocean."""
    return route.split(":", 1)[1] if ":" in route else None


def _hybrid_same_zone(board, a: str, b: str, ocean: str, controlled: frozenset) -> bool:
    """Whether some controlled port next to the landlocked end reaches the other end on `ocean`
    as a same-zone coastal pair (the Sea Trade that succeeds on 2+)."""
    regions = board.regions
    inland, other = (a, b) if not regions[a].ports else (b, a)
    for port in neighbours(board, inland):
        if port in controlled and port != other and ocean in sea_oceans(board, port, other, controlled) \
                and same_zone_coastal(board, port, other) and ocean in regions[port].ports \
                and ocean in regions[other].ports:
            return True
    return False


def routes(a: str, b: str, blocked: frozenset, controlled: frozenset, version: int) -> tuple:
    """((route, roll needed), ...) from region a to region b (a != b) for a trader who controls
    `controlled` and whose opponents hold `blocked`, in a game of rules `version` (its map; from
    version 2 Extended Land Trade goes both ways).  Air only when nothing else joins them."""
    near = _near(version)
    return held_routes(a, b, near.bits(blocked), near.bits(controlled), version)


def held_routes(a: str, b: str, blocked: int, controlled: int, version: int) -> tuple:
    """`routes` on sets of regions written as bits (`held`).  Only the regions that can change the
    answer are kept (`_routes` is cached on those), so the routes found in one game or position
    serve every other where the same few regions agree."""
    near = _near(version)
    return _routes(a, b, blocked & (near.zone_of[a] | near.zone_of[b]),
                   controlled & (near.interoceanic | near.borders[a] | near.borders[b]), version)


class _Near(NamedTuple):
    """A set of regions as an int, one bit per region (a trader's board is asked about for every pair
    of its regions: cutting and hashing ints costs next to nothing), and per region the regions whose
    holders can change its routes (see held_routes)."""

    bit: Mapping[str, int]               # each region's bit
    regions: tuple                       # the region of each bit, lowest first
    of_bit: Mapping[int, str]            # the region of a bit (1 << i)
    zone_of: Mapping[str, int]           # its zone's regions: Land and Extended Land Trade stay in a zone
    borders: Mapping[str, int]           # its neighbours: the ports a Hybrid Trade starts from
    interoceanic: int                    # ports joining oceans, anywhere: Sea Trade's reach

    def bits(self, regions: Iterable[str]) -> int:
        bit = self.bit
        out = 0
        for r in regions:
            out |= bit[r]
        return out

    def regions_in(self, bits: int) -> frozenset:
        return _regions_in(bits, self.of_bit)


@cache
def _near(version: int) -> _Near:
    board = board_at(version)
    order = tuple(sorted(board.regions))
    bit = {r: 1 << i for i, r in enumerate(order)}
    near = _Near(bit, order, {b: r for r, b in bit.items()}, {}, {}, 0)
    zones = {zone: near.bits(r for r, region in board.regions.items() if region.zone == zone)
             for zone in {region.zone for region in board.regions.values()}}
    return near._replace(zone_of={r: zones[region.zone] for r, region in board.regions.items()},
                         borders={r: near.bits(board.borders[r]) for r in board.regions},
                         interoceanic=near.bits(r for r, region in board.regions.items() if region.interoceanic))


def held(owner: Mapping[str, int], seat: int, version: int) -> tuple[list[str], int, int]:
    """(seat's regions sorted, the same as bits, its opponents' regions as bits), from the Region
    Markers `owner` = {region: seat}."""
    bit = _near(version).bit
    regions = []
    mine = theirs = 0
    for region, holder in owner.items():
        if holder == seat:
            regions.append(region)
            mine |= bit[region]
        else:
            theirs |= bit[region]
    regions.sort()
    return regions, mine, theirs


def _regions_in(bits: int, of_bit: Mapping[int, str]) -> frozenset:
    out = []
    while bits:
        low = bits & -bits
        out.append(of_bit[low])
        bits ^= low
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def _routes(a: str, b: str, blocked: int, controlled: int, version: int) -> tuple:
    near = _near(version)
    return routes_on_board(a, b, near.regions_in(blocked), near.regions_in(controlled), version)


def routes_on_board(a: str, b: str, blocked: frozenset, controlled: frozenset, version: int) -> tuple:
    """routes(), uncached, on the whole of `blocked` and `controlled` (routes passes only the regions
    that matter to a and b: Land and Extended Land Trade (board.land_trade, _open_gateways) walk only
    a's and b's zones; Sea Trade (board.sea_oceans) needs only the interoceanic ports held; Hybrid
    Trade, the held ports bordering its landlocked end)."""
    board = board_at(version)
    extended = extended_land_trade_either_way if version >= 2 else extended_land_trade
    out = []
    if land_trade(board, a, b, blocked):
        out.append(("land", TARGETS["land"]))
    elif extended(board, a, b, blocked):
        out.append(("extended", TARGETS["extended"]))
    ra, rb = board.regions[a], board.regions[b]
    for ocean in sorted(sea_oceans(board, a, b, controlled)):
        near = ra.zone == rb.zone and ocean in ra.ports and ocean in rb.ports
        out.append((f"sea:{ocean}", TARGETS["sea_same_zone" if near else "sea"]))
    for ocean in sorted(hybrid_ports(board, a, b, controlled)):
        near = _hybrid_same_zone(board, a, b, ocean, controlled)
        out.append((f"hybrid:{ocean}", TARGETS["hybrid_same_zone" if near else "hybrid"]))
    if not out:
        out.append(("air", TARGETS["air"]))
    return tuple(out)


def reroll_allowance(ocean: str, a: str, b: str, controlled: frozenset, version: int) -> int:
    """Rule 5.C: one re-roll per turn on `ocean` for every 2 of the trader's coastal regions on it
    besides the two trading regions."""
    extra = [r for r in coastal_regions_on(board_at(version), ocean, controlled) if r not in (a, b)]
    return len(extra) // 2


def in_range(attacker: str, defender: str, occupied: frozenset, version: int) -> bool:
    """Rule 9 range (board.violence_range) on the map of rules `version`."""
    return held_in_range(attacker, defender, _near(version).bits(occupied), version)


def held_in_range(attacker: str, defender: str, occupied: int, version: int) -> bool:
    """`in_range` on the occupied regions written as bits, cached on those of the attacker's zone,
    the only ones its path inside the zone may cross."""
    return _in_range(attacker, defender, occupied & _near(version).zone_of[attacker], version)


def held_range(attacker: str, occupied: int, version: int) -> tuple[str, ...]:
    """Every region in range of `attacker` (held_in_range), sorted, whoever holds it."""
    return _range(attacker, occupied & _near(version).zone_of[attacker], version)


@lru_cache(maxsize=1 << 14)
def _range(attacker: str, occupied: int, version: int) -> tuple[str, ...]:
    return tuple(d for d in _within_reach(version)[attacker] if _in_range(attacker, d, occupied, version))


@cache
def _within_reach(version: int) -> dict[str, tuple[str, ...]]:
    """Per region, sorted, the regions Rule 9 range may ever include on the map of rules `version`:
    those bordering it or in its zone (board.violence_range); who holds what decides the rest."""
    board = board_at(version)
    regions, borders = board.regions, board.borders
    return {a: tuple(sorted(d for d in regions if d != a and (d in borders[a] or regions[a].zone == regions[d].zone)))
            for a in regions}


@lru_cache(maxsize=1 << 16)
def _in_range(attacker: str, defender: str, occupied: int, version: int) -> bool:
    return violence_range(board_at(version), attacker, defender, _near(version).regions_in(occupied))
