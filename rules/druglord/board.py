"""The Druglord world map: board.json (reconstructed, not from the publisher),
validated once at import, and the pure geography queries Rule 5 and Rule 9 need.

Rulings and the full region table: docs/rules/druglord-board.md.  Nothing here
knows about players: callers pass the sets of region ids that matter
(`blocked` = held by an opponent of the trader, `controlled` = held by the
trader, `occupied` = held by anyone).
"""
from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType

DATA_FILE = Path(__file__).with_name("board.json")

WEIGHT_TYPES = ("reefer", "pills", "cocaine", "opiates")   # also the action-phase order
OCEANS = ("atlantic", "pacific", "indian", "caspian")
BARRIER_ZONE = "HB"      # the grey Himalayan Land Barrier: a zone with no region cards
REGION_COUNT = 74        # "74 Region Cards"
ZONE_COUNT = 15          # "divided into 15 Zones" (HB comes on top)


@dataclass(frozen=True)
class Region:
    """One Region card and its board space."""

    id: str
    zone: str
    number: int
    name: str
    wv: int
    sc: int
    produces: tuple
    ports: tuple
    demand: Mapping[str, int]
    island: bool
    interoceanic: tuple
    landmass: str = ""   # which continent/island its land borders stay on (validation, docs)


@dataclass(frozen=True)
class Board:
    """All regions, zone names (code -> name) and the symmetric land-border map.  Hashable (by its
    region ids, computed once), so the queries Rule 5 and Rule 9 ask over and over can be cached."""

    regions: Mapping[str, Region]
    zones: Mapping[str, str]
    borders: Mapping[str, frozenset]
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(frozenset(self.regions)))

    def __hash__(self) -> int:
        return self._hash


# --------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------

def _require(condition: bool, message: str) -> None:
    """Raise ValueError(message) unless `condition` holds."""
    if not condition:
        raise ValueError(message)


def _region(raw: dict, zones: Mapping[str, str]) -> Region:
    """One validated Region from its JSON object."""
    rid = raw.get("id", "?")
    for key in ("id", "zone", "number", "name", "wv", "sc", "produces", "ports", "demand", "island", "interoceanic"):
        _require(key in raw, f"region {rid}: missing {key!r}")
    zone, number = raw["zone"], raw["number"]
    _require(zone in zones and zone != BARRIER_ZONE, f"region {rid}: zone {zone!r} is not a card zone")
    _require(isinstance(number, int) and number >= 1 and rid == f"{zone}{number}",
             f"region {rid}: id must be zone + number ({zone}{number})")
    for key in ("wv", "sc"):
        _require(isinstance(raw[key], int) and raw[key] >= 1, f"region {rid}: {key} must be a positive int")
    _require(set(raw["produces"]) <= set(WEIGHT_TYPES) and raw["produces"], f"region {rid}: bad produces")
    _require(set(raw["ports"]) <= set(OCEANS), f"region {rid}: unknown ocean in ports")
    demand = raw["demand"]
    _require(set(demand) <= set(WEIGHT_TYPES) and all(isinstance(v, int) and v >= 1 for v in demand.values()),
             f"region {rid}: demand must map weight types to positive ints")
    inter = tuple(raw["interoceanic"])
    _require(not inter or (len(inter) >= 2 and set(inter) <= set(raw["ports"])),
             f"region {rid}: interoceanic must list 2+ of its own ports")
    _require(not (raw["island"] and not raw["ports"]), f"region {rid}: an island must have a port")
    return Region(rid, zone, number, raw["name"], raw["wv"], raw["sc"], tuple(raw["produces"]),
                  tuple(raw["ports"]), MappingProxyType(dict(demand)), bool(raw["island"]), inter,
                  raw.get("landmass", ""))


def _borders(pairs: Iterable, regions: Mapping[str, Region], forbidden: set) -> dict:
    """The symmetric border map, refusing unknown ids, self-borders, forbidden pairs, and sea crossings."""
    out: dict[str, set] = {rid: set() for rid in regions}
    for pair in pairs:
        a, b = pair
        _require(a in regions and b in regions, f"border {a}-{b}: unknown region")
        _require(a != b, f"border {a}-{b}: a region cannot border itself")
        _require(b not in out[a], f"border {a}-{b}: listed twice")
        _require(frozenset((a, b)) not in forbidden, f"border {a}-{b}: crosses a barrier (forbidden_borders)")
        # islands (and every landmass) keep their land borders on their own land
        _require(regions[a].landmass == regions[b].landmass,
                 f"border {a}-{b}: {regions[a].landmass} and {regions[b].landmass} share no land")
        out[a].add(b)
        out[b].add(a)
    return out


def _check_supply(regions: Mapping[str, Region], markers: Mapping[str, int]) -> None:
    """The weight markers can serve a turn in which all 74 regions are held and loaded: for every
    set S of types, the regions that can only take types in S load at most S's markers (Hall)."""
    _require(sum(r.wv for r in regions.values()) <= sum(markers.values()), "total WV exceeds the weight markers")
    for mask in range(1, 1 << len(WEIGHT_TYPES)):
        kinds = {t for i, t in enumerate(WEIGHT_TYPES) if mask >> i & 1}
        load = sum(min(r.wv, r.sc) for r in regions.values() if set(r.produces) <= kinds)
        _require(load <= sum(markers[t] for t in kinds),
                 f"regions producing only {sorted(kinds)} load more than their markers")
    for kind in ("cocaine", "opiates"):   # the scarce types: even full cards never exhaust them
        capacity = sum(r.sc for r in regions.values() if kind in r.produces)
        _require(capacity <= markers[kind], f"{kind} regions' SC total {capacity} exceeds its {markers[kind]} markers")


def load_board(data: dict) -> Board:
    """Validate board.json's content and build the Board (ValueError names what is wrong)."""
    zones = dict(data["zones"])
    _require(BARRIER_ZONE in zones and len(zones) == ZONE_COUNT + 1,
             f"need {ZONE_COUNT} card zones plus {BARRIER_ZONE}, got {sorted(zones)}")
    regions: dict[str, Region] = {}
    for raw in data["regions"]:
        region = _region(raw, zones)
        _require(region.id not in regions, f"region {region.id}: duplicate id")
        regions[region.id] = region
    expected = data.get("region_count", REGION_COUNT)
    _require(len(regions) == expected, f"{len(regions)} regions, expected {expected}")
    empty = sorted(z for z in zones if z != BARRIER_ZONE and not any(r.zone == z for r in regions.values()))
    _require(not empty, f"zones without regions: {empty}")
    forbidden = {frozenset(p[:2]) for p in data.get("forbidden_borders", [])}
    _require(all(r in regions for pair in forbidden for r in pair), "forbidden_borders names an unknown region")
    if "weight_markers" in data:
        _check_supply(regions, data["weight_markers"])
    borders = _borders(data["borders"], regions, forbidden)
    return Board(MappingProxyType(regions), MappingProxyType(zones),
                 MappingProxyType({rid: frozenset(n) for rid, n in borders.items()}))


def board_data(version: int = 1) -> dict:
    """A fresh copy of board.json's content as of rules `version`: the version-1 map plus every entry
    of "revisions" whose "since" is at most `version` (added borders, added ports).  Version-1 data is
    never edited in place, so a version-1 game keeps the map (and the digest) it was recorded with."""
    data = json.loads(_RAW)
    data.pop("map", None)  # drawing coordinates: no rule reads them, so they stay out of the digest
    for revision in data.pop("revisions", []):
        if revision["since"] > version:
            continue
        data["borders"] += [list(pair) for pair in revision.get("borders", [])]
        by_id = {r["id"]: r for r in data["regions"]}
        for rid, oceans in revision.get("ports", {}).items():
            _require(rid in by_id and not set(oceans) & set(by_id[rid]["ports"]),
                     f"revision {revision['since']}: bad ports for {rid}")
            by_id[rid]["ports"] = by_id[rid]["ports"] + list(oceans)
    return data


def revision_versions() -> tuple[int, ...]:
    """The rules versions board.json's "revisions" name, besides version 1."""
    return tuple(sorted({r["since"] for r in json.loads(_RAW).get("revisions", [])}))


def load_map(data: dict, board: Board) -> dict:
    """board.json's "map" (reconstructed drawing coordinates): one [x, y] per region, x a longitude
    in [-180, 180], y a latitude in [-90, 90]; ValueError names what is wrong."""
    layout = data.get("map")
    _require(isinstance(layout, dict) and isinstance(layout.get("coordinates"), dict), "board.json needs a map")
    coordinates = layout["coordinates"]
    _require(set(coordinates) == set(board.regions),
             f"map coordinates must name every region once: {sorted(set(coordinates) ^ set(board.regions))}")
    for rid, point in coordinates.items():
        _require(isinstance(point, list) and len(point) == 2 and all(isinstance(v, (int, float)) for v in point)
                 and -180 <= point[0] <= 180 and -90 <= point[1] <= 90, f"map: bad coordinates for {rid}: {point}")
    return layout


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------

def _get(board: Board, region_id: str) -> Region:
    """The region, or KeyError naming the unknown id."""
    try:
        return board.regions[region_id]
    except KeyError:
        raise KeyError(f"unknown region {region_id!r}") from None


def neighbours(board: Board, region_id: str) -> frozenset[str]:
    """Regions sharing a land border with `region_id`."""
    _get(board, region_id)
    return board.borders[region_id]


def zone_of(board: Board, region_id: str) -> str:
    """The zone code of a region."""
    return _get(board, region_id).zone


@cache
def regions_in_zone(board: Board, zone: str) -> tuple[str, ...]:
    """The ids of a zone's regions in card-number order (HB: none)."""
    return tuple(r.id for r in sorted(board.regions.values(), key=lambda r: r.number) if r.zone == zone)


def _zone_path_cost(board: Board, a: str, b: str, cost: Callable[[str], int | None]) -> int | None:
    """Least summed `cost` of the intermediate regions on a land path from a to b inside a's zone
    (0-1 BFS: cost is 0, 1 or None = impassable); None if no such path exists."""
    zone = board.regions[a].zone
    best = {a: 0}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            continue                          # b is the destination, never a way through
        for nxt in board.borders[here]:
            if board.regions[nxt].zone != zone:
                continue
            step = 0 if nxt == b else cost(nxt)   # the endpoints are never "intervening"
            if step is None:
                continue
            total = best[here] + step
            if total < best.get(nxt, total + 1):
                best[nxt] = total
                if step == 0:
                    queue.appendleft(nxt)
                else:
                    queue.append(nxt)
    return best.get(b)


def land_trade(board: Board, a: str, b: str, blocked: frozenset[str]) -> bool:
    """Rule 5.B: a land border, or same zone (no islands) joined by a land path inside the zone
    none of whose intermediate regions is in `blocked` (held by an opponent of the trader)."""
    ra, rb = _get(board, a), _get(board, b)
    if a == b:
        return False
    if b in board.borders[a]:
        return True
    if ra.zone != rb.zone or ra.island or rb.island:
        return False
    return _zone_path_cost(board, a, b, lambda r: None if r in blocked else 0) is not None


def extended_land_trade_either_way(board: Board, a: str, b: str, blocked: frozenset[str]) -> bool:
    """Rules version 2: Extended Land Trade joins a and b when either lies across the other's zone
    border ("Regions bordering the Zone also may be Land traded with": a trade between two regions,
    which, like a Land Trade over a shared border, moves weight both ways)."""
    return extended_land_trade(board, a, b, blocked) or extended_land_trade(board, b, a, blocked)


def extended_land_trade(board: Board, a: str, b: str, blocked: frozenset[str]) -> bool:
    """Rule 5.B "+1 Penalty": b lies outside a's zone and borders a region of a's zone that a
    reaches by land_trade (never True when plain land_trade already is; islands excluded)."""
    ra, rb = _get(board, a), _get(board, b)
    if a == b or ra.zone == rb.zone or ra.island or rb.island or land_trade(board, a, b, blocked):
        return False
    return any(b in board.borders[g] for g in _open_gateways(board, a, blocked))


@lru_cache(maxsize=1 << 14)
def _open_gateways(board: Board, a: str, blocked: frozenset[str]) -> tuple[str, ...]:
    """The regions of a's zone that a reaches by land_trade and that are not in `blocked` (a gateway
    region is itself "intervening" on the way out of the zone, so an opponent's does not count).
    Cached: Rule 5.B routes ask it for every destination of one trader's board."""
    return tuple(r for r in regions_in_zone(board, board.regions[a].zone)
                 if r != a and r not in blocked and land_trade(board, a, r, blocked))


@lru_cache(maxsize=1 << 12)
def _ocean_groups(board: Board, controlled: frozenset[str]) -> Mapping[str, frozenset[str]]:
    """Each ocean -> the oceans joined to it through interoceanic ports in `controlled` (cached:
    Rule 5.C asks it for every pair of one trader's regions; read-only)."""
    groups = {ocean: {ocean} for ocean in OCEANS}
    for rid in controlled:
        region = board.regions.get(rid)
        if region is None or not region.interoceanic:
            continue
        merged = set().union(*(groups[o] for o in region.interoceanic))
        for ocean in merged:
            groups[ocean] = merged
    return MappingProxyType({ocean: frozenset(group) for ocean, group in groups.items()})


def sea_oceans(board: Board, a: str, b: str, controlled: frozenset[str]) -> frozenset[str]:
    """Rule 5.C: the oceans over which a and b may Sea Trade (their shared oceans, plus each
    endpoint ocean linked to the other's through interoceanic ports in `controlled`)."""
    ra, rb = _get(board, a), _get(board, b)
    if a == b or not ra.ports or not rb.ports:
        return frozenset()
    groups = _ocean_groups(board, controlled)
    usable = {o for o in ra.ports if groups[o] & set(rb.ports)}
    usable |= {o for o in rb.ports if groups[o] & set(ra.ports)}
    return frozenset(usable)


def same_zone_coastal(board: Board, a: str, b: str) -> bool:
    """Rule 5.C: both coastal, same zone, a shared ocean (the Sea Trade that succeeds on 2+)."""
    ra, rb = _get(board, a), _get(board, b)
    return a != b and ra.zone == rb.zone and bool(set(ra.ports) & set(rb.ports))


def hybrid_ports(board: Board, a: str, b: str, controlled: frozenset[str]) -> frozenset[str]:
    """Rule 5.D: exactly one of a, b is landlocked; it borders a port region the trader controls
    that can Sea Trade with the other end: the oceans usable (empty = no Hybrid Trade)."""
    ra, rb = _get(board, a), _get(board, b)
    if a == b or bool(ra.ports) == bool(rb.ports):
        return frozenset()           # both coastal: plain Sea Trade; both landlocked: two land legs
    inland, other = (a, b) if not ra.ports else (b, a)
    usable: set[str] = set()
    for port in board.borders[inland]:
        if port in controlled and port != other and board.regions[port].ports:
            usable |= sea_oceans(board, port, other, controlled)
    return frozenset(usable)


def coastal_regions_on(board: Board, ocean: str, among: frozenset[str]) -> tuple[str, ...]:
    """Rule 5.C re-rolls: the regions of `among` with a port on `ocean`, sorted."""
    _require(ocean in OCEANS, f"unknown ocean {ocean!r}")
    return tuple(sorted(r for r in among if r in board.regions and ocean in board.regions[r].ports))


def violence_range(board: Board, attacker: str, defender: str, occupied: frozenset[str]) -> bool:
    """Rule 9: defender borders attacker, or shares its zone and some land path inside the zone
    crosses at most 1 unoccupied region (`occupied` = held by any player); an island and a
    region of its zone on a shared ocean are in range of each other."""
    ra, rd = _get(board, attacker), _get(board, defender)
    if attacker == defender:
        return False
    if defender in board.borders[attacker]:
        return True
    if ra.zone != rd.zone:
        return False
    # Rule 9, unlike 5.B, has no island exception: without this an island could never fight
    if (ra.island or rd.island) and set(ra.ports) & set(rd.ports):
        return True
    cost = _zone_path_cost(board, attacker, defender, lambda r: 0 if r in occupied else 1)
    return cost is not None and cost <= 1


def board_at(version: int) -> Board:
    """The board a game of rules `version` is played on (the latest revision not after it)."""
    return BOARDS[max(v for v in BOARDS if v <= version)]


_RAW = DATA_FILE.read_text(encoding="utf-8")
BOARDS: Mapping[int, Board] = MappingProxyType({v: load_board(board_data(v)) for v in (1, *revision_versions())})
BOARD: Board = BOARDS[max(BOARDS)]   # the latest map; rules that depend on borders or ports use board_at
MAP: dict = load_map(json.loads(_RAW), BOARD)
