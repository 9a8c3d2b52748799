"""Lords of Cannabis describes itself (issue 10): move labels in the rulebook's words that name only what the
seat may see, and static data a frontend can draw the board from."""
from __future__ import annotations

import json
import math

from rules.lords_of_cannabis.board import BRICK_NODES, NODE_DOCK, NODES, PATHS, RESOURCES
from tests.rules.lords_of_cannabis.support import L, cards, crops, greenhouse, label, legal, new_game, table


def labels(state: dict, seat: int, kind: str) -> list[str]:
    return [label(state, seat, m) for m in legal(state, seat) if m["type"] == kind]


def test_a_placement_label_names_the_bricks_around_the_intersection_and_its_dock():
    # Placement: a Greenhouse goes on an intersection; the label says which bricks (resource, chip) it borders
    state = new_game()
    seat = state["current"]
    at_0 = label(state, seat, {"type": "PlaceGreenhouse", "at": 0})
    (brick,) = [b for b in range(24) if 0 in BRICK_NODES[b]]
    # intersection 0 is the topmost, on the coast: the top corner of its one brick, at a 3:1 dock
    # (this board has two FUEL 6 bricks: the row tells them apart)
    assert at_0 == f"Place a Greenhouse at the top corner of {L.static_data()['board']['bricks'][brick]['resource']} " \
                   f"{state['chips'][brick]} (row 1), at a 3:1 dock"


def test_a_bank_trade_label_gives_the_seats_own_rate():
    # Trade: "You may also make a 2:1 trade if you have a loading dock with a resource symbol"
    fuel_dock = cards(greenhouse(table(3, phase="main"), 0, 2), 0, CEMENT=3, FUEL=2)   # node 2: the FUEL dock
    assert "Trade 2 FUEL to the bank for 1 SOIL" in labels(fuel_dock, 0, "TradeWithBank")


def test_a_build_label_states_the_building_conversions_cost():
    # Plantation "(requires 3 FUEL and 2 SOIL)"
    state = cards(greenhouse(table(3, phase="main"), 0, 2), 0, FUEL=3, SOIL=2)
    (upgrade,) = labels(state, 0, "BuildPlantation")
    assert upgrade.startswith("Upgrade your Greenhouse at the ") and ", at a 2:1 FUEL dock to a Plantation" in upgrade
    assert upgrade.endswith("3 FUEL + 2 SOIL")


def test_sheriff_labels_name_who_discards_and_who_is_robbed():
    # Special Actions: "Any player who is built around the selected space must discard" (the roller too);
    # "Gangsta" Cards: a random card "out of each of their decks" -- the other players busted there
    corners = BRICK_NODES[12]
    state = table(3, phase="sheriff")
    for seat, node in zip(range(3), (corners[0], corners[2], corners[4])):
        state = greenhouse(state, seat, node)
    state = cards(cards(state, 0, FUEL=1), 1, SOIL=2)   # seat 2 holds nothing: nothing to discard
    assert label(state, 0, {"type": "MoveSheriff", "brick": 12}).endswith(": Ana and Bo discard")
    state = crops({**state, "phase": "main"}, 0, "gangsta")
    assert label(state, 0, {"type": "PlayGangsta", "brick": 12}).endswith(", taking a card from Bo")


def test_labels_do_not_read_other_players_hands():
    # the view hides other hands; a label is shown to the seat that may send the move, so it must not tell more
    base = crops(cards(table(3, phase="main"), 0, FUEL=2, SOIL=1), 0, "strong_arm", "get_jacked")
    richer = cards(base, 1, SOIL=5, WATER=3)
    assert [label(base, 0, m) for m in legal(base, 0)] == [label(richer, 0, m) for m in legal(base, 0)]


def test_static_data_draws_the_board():
    # the reconstructed board (docs/rules/lords-of-cannabis.md): positions derived from the bricks' coordinates
    data = json.loads(json.dumps(L.static_data()))
    board = data["board"]
    assert "reconstructed" in board["reconstructed"]
    assert len(board["bricks"]) == 24 and len(board["intersections"]) == NODES and len(board["paths"]) == len(PATHS)
    points = {(n["x"], n["y"]) for n in board["intersections"]}
    assert len(points) == NODES   # no two intersections drawn on one spot
    for brick in board["bricks"]:   # a brick is drawn around its centre: its six corners average to it
        corners = [board["intersections"][n] for n in brick["corners"]]
        assert math.isclose(sum(c["x"] for c in corners) / 6, brick["x"], abs_tol=1e-6)
        assert math.isclose(sum(c["y"] for c in corners) / 6, brick["y"], abs_tol=1e-6)
        assert sum(brick["cube"]) == 0 and brick["resource"] in RESOURCES
    for path in board["paths"]:   # a path is one side of a brick: its ends are one short step apart
        a, b = (board["intersections"][n] for n in path["ends"])
        assert 0.45 < math.dist((a["x"], a["y"]), (b["x"], b["y"])) < 0.6
        assert 1 <= len(path["bricks"]) <= 2
    assert {n["id"]: n["dock"] for n in board["intersections"] if n["dock"]} == {
        n: d if d == "?" else RESOURCES[d] for n, d in enumerate(NODE_DOCK) if d is not None}
    assert sum(c["copies"] for c in data["crops"]["cards"]) == 38
    assert data["building_conversions"]["greenhouse"] == {"cost": {"FUEL": 0, "CEMENT": 1, "WATER": 1, "SEEDS": 1,
                                                                   "SOIL": 1}, "points": 1}
