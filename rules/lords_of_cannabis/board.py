"""The board (board.json, reconstructed): resource bricks laid as a brick wall, which behaves like
hexes, so each brick has cube/axial coordinates (q, r) with q + r + s = 0.

Everything else is derived here by code, once at import, and validated: the intersections
(where three cells meet, a cell being a brick or the coast beyond it: three bricks, two and the
coast, or -- 20 of them, on the rim -- one brick and the coast on two sides), the paths (where two
bricks meet, or a brick and the coast: 34 of the 89 are such coast edges, ruled in
docs/rules/lords-of-cannabis.md, "Paths on the coast"), which intersections border which bricks,
the loading docks' intersections.
Ids are small ints in reading order (top to bottom, left to right), so commands and state stay
compact: bricks 0-23, intersections 0-(N-1), paths 0-(P-1).
"""
from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

BOARD_FILE = Path(__file__).with_name("board.json")
RESOURCES = ("FUEL", "CEMENT", "WATER", "SEEDS", "SOIL")
RESOURCE_INDEX = MappingProxyType({name: i for i, name in enumerate(RESOURCES)})
# Axial directions of a brick's six neighbours (two beside it, two above, two below), by side name.
SIDES = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def brick_coordinates(rows: list[int]) -> list[tuple[int, int]]:
    """Axial (q, r) of every brick in reading order; rows are centred on the middle row."""
    middle, widest = len(rows) // 2, max(rows)
    out = []
    for i, length in enumerate(rows):
        r = i - middle
        # every row's centre in x (q + r/2) is the widest row's: solve for twice the row's first q
        start2 = -(widest // 2) * 2 + (widest - 1) - r - (length - 1)
        if start2 % 2:
            raise ValueError(f"board.json: row {i} of {length} bricks cannot be centred in a brick wall")
        out += [(start2 // 2 + k, r) for k in range(length)]
    return out


def _centre(brick: tuple[int, int]) -> tuple[float, float]:
    q, r = brick
    return (q + r / 2, r * 0.75)


def derive(rows: list[int]) -> dict:
    """Intersections and paths of a brick wall with these rows, from its geometry."""
    bricks = brick_coordinates(rows)
    on_board = set(bricks)
    corners: dict[frozenset, None] = {}
    edges: dict[frozenset, tuple[frozenset, frozenset]] = {}
    for q, r in bricks:
        around = [(q + dq, r + dr) for dq, dr in DIRECTIONS]
        keys = [frozenset({(q, r), around[i], around[(i + 1) % 6]}) for i in range(6)]
        for key in keys:
            corners.setdefault(key)
        for i in range(6):
            edges.setdefault(frozenset({(q, r), around[i]}), (keys[i - 1], keys[i]))

    def place(cells) -> tuple[float, float]:
        points = [_centre(c) for c in cells]
        return (round(sum(p[1] for p in points) / len(points), 6), round(sum(p[0] for p in points) / len(points), 6))

    node_keys = sorted(corners, key=place)
    node_id = {key: i for i, key in enumerate(node_keys)}
    brick_id = {b: i for i, b in enumerate(bricks)}
    path_keys = sorted(edges, key=lambda e: place([c for k in edges[e] for c in k]))
    paths = [tuple(sorted(node_id[k] for k in edges[e])) for e in path_keys]
    node_bricks = [tuple(sorted(brick_id[c] for c in key if c in on_board)) for key in node_keys]
    brick_nodes = [tuple(n for n, bs in enumerate(node_bricks) if b in bs) for b in range(len(bricks))]
    neighbours = [tuple(sorted(brick_id[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in on_board))
                  for q, r in bricks]
    path_between = {frozenset(p): i for i, p in enumerate(paths)}
    side_path = {(brick_id[b], SIDES[i]): path_between[frozenset(node_id[k] for k in
                                                                  edges[frozenset({b, (b[0] + d[0], b[1] + d[1])})])]
                 for b in bricks for i, d in enumerate(DIRECTIONS)}
    coast = {i for i, e in enumerate(path_keys) if len(e & on_board) == 1}
    node_xy = [tuple(reversed(place(key))) for key in node_keys]  # the corner where its three cells meet
    return {"bricks": bricks, "paths": paths, "node_bricks": node_bricks, "brick_nodes": brick_nodes,
            "neighbours": neighbours, "side_path": side_path, "coast": coast, "node_xy": node_xy}


def node_links(paths: list[tuple[int, int]], nodes: int) -> tuple[tuple, tuple]:
    """For every intersection: the paths that end there, and the intersections one path away."""
    at: list[list[int]] = [[] for _ in range(nodes)]
    for i, (a, b) in enumerate(paths):
        at[a].append(i)
        at[b].append(i)
    return (tuple(tuple(p) for p in at),
            tuple(tuple(sorted(a if a != n else b for a, b in (paths[p] for p in ps))) for n, ps in enumerate(at)))


def validate(data: dict, geo: dict) -> None:
    """ValueError naming what is wrong with board.json or the derived geometry."""
    bricks, rows = geo["bricks"], data["rows"]
    if len(bricks) != 24 or sum(rows) != len(data["resources"]) or len(data["chips"]) != len(bricks):
        raise ValueError("board.json: 24 bricks, one resource and one numbered chip each")
    if any(res not in RESOURCES for res in data["resources"]):
        raise ValueError("board.json: unknown resource")
    counts = [data["resources"].count(res) for res in RESOURCES]
    if max(counts) - min(counts) > 1:
        raise ValueError(f"board.json: resources not about evenly split: {counts}")
    if any(c not in range(2, 13) or c == 7 for c in data["chips"]):
        raise ValueError("board.json: chips are 2-12 without 7")
    for n, around in enumerate(geo["node_bricks"]):
        if not 1 <= len(around) <= 3:
            raise ValueError(f"intersection {n} touches {len(around)} bricks")
    used = {n for p in geo["paths"] for n in p}
    if used != set(range(len(geo["node_bricks"]))) or any(a == b for a, b in geo["paths"]):
        raise ValueError("every path joins two intersections and every intersection ends a path")
    if any(len(ns) != 6 for ns in geo["brick_nodes"]):
        raise ValueError("every brick has six corners")
    taken: set[int] = set()
    for dock in data["docks"]:
        if dock["kind"] != "?" and dock["kind"] not in RESOURCES:
            raise ValueError(f"board.json: dock kind {dock['kind']!r}")
        path = geo["side_path"][(dock["brick"], dock["side"])]
        if path not in geo["coast"]:
            raise ValueError(f"board.json: dock on brick {dock['brick']} side {dock['side']} is not on the coast")
        if taken & set(geo["paths"][path]):
            raise ValueError("board.json: two docks share an intersection")
        taken |= set(geo["paths"][path])
    if sorted(d["kind"] for d in data["docks"] if d["kind"] != "?") != sorted(RESOURCES):
        raise ValueError("board.json: one 2:1 dock per resource")


def board_data() -> dict:
    return json.loads(BOARD_FILE.read_text(encoding="utf-8"))


DATA = board_data()
_GEO = derive(DATA["rows"])
validate(DATA, _GEO)

BRICK_COORDS = tuple(_GEO["bricks"])
BRICKS = len(BRICK_COORDS)
BRICK_RESOURCE = tuple(RESOURCE_INDEX[res] for res in DATA["resources"])  # resource index per brick
BRICK_NEIGHBOURS = _GEO["neighbours"]
BRICK_NODES = tuple(_GEO["brick_nodes"])
PATHS = tuple(_GEO["paths"])  # (intersection, intersection) per path
NODES = len(_GEO["node_bricks"])
NODE_BRICKS = tuple(_GEO["node_bricks"])
NODE_PATHS, NODE_NEIGHBOURS = node_links(list(PATHS), NODES)
CHIPS = tuple(sorted(DATA["chips"]))
# Drawing positions (x right, y down, a brick 1 wide, rows 0.75 apart), derived from the coordinates:
# a brick's centre, and an intersection where the centres of its three cells (bricks or coast) meet.
BRICK_XY = tuple(_centre(b) for b in BRICK_COORDS)
NODE_XY = tuple(_GEO["node_xy"])
COAST = frozenset(_GEO["coast"])
# Dock at each intersection: None, "?" (3:1) or a resource index (2:1 in that resource).
_DOCK: list = [None] * NODES
for _dock in DATA["docks"]:
    for _n in PATHS[_GEO["side_path"][(_dock["brick"], _dock["side"])]]:
        _DOCK[_n] = "?" if _dock["kind"] == "?" else RESOURCE_INDEX[_dock["kind"]]
NODE_DOCK = tuple(_DOCK)
# Chance of each sum of two dice, in 36ths ("pips"): how often a chip produces.
PIPS = MappingProxyType({n: 6 - abs(7 - n) for n in range(2, 13)})


def public_board(chips: list[int]) -> dict:
    """The board as every seat sees it (served with the view): bricks, chips, docks, geometry."""
    return {"bricks": [{"id": b, "coords": list(BRICK_COORDS[b]), "resource": RESOURCES[BRICK_RESOURCE[b]],
                        "chip": chips[b], "corners": list(BRICK_NODES[b])} for b in range(BRICKS)],
            "paths": [list(p) for p in PATHS],
            "docks": {str(n): (d if d == "?" or d is None else RESOURCES[d]) for n, d in enumerate(NODE_DOCK)
                      if d is not None}}
