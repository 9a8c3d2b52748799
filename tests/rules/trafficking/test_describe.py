"""Trafficking describes itself (issue 10): move labels in the rulebook's words, and static data a frontend can
draw the reconstructed board from (docs/rules/trafficking-board.md)."""
from __future__ import annotations

import json

from rules.trafficking import board
from rules.trafficking.data import SQUARES
from tests.rules.trafficking.support import T, game, label, legal, play, roll_to


def test_a_cab_label_states_the_fare():
    # Trafficking 12a: "move for $10 a square (following the directions of the arrows) to any square"
    state = game(at={3: "cab-stand-1"}, turn=3)
    state = {**state, "turn": {**state["turn"], "stage": "landed", "how": "roll"}}
    three_on = board.advance("cab-stand-1", 3)[-1]
    assert label(state, 3, {"type": "TakeCab", "to": three_on}) == f"Take a Blitz Cab to {SQUARES[three_on]['name']} for $30"


def test_a_cop_shop_branch_label_names_the_way_out():
    # Trafficking 4c: on the roll after a Cop Shop, "a choice of two directions in which to proceed"
    _, state = roll_to(game(at={3: "cop-shop-north"}), 3, 4)
    moves = {m["to"]: label(state, 3, m) for m in legal(state, 3)}
    assert set(moves) == {"flip-out-2", "eleven-seven-2"}
    for to, text in moves.items():
        first_step = SQUARES[state["turn"]["choices"][to][0]]["name"]
        assert text == f"Move to {SQUARES[to]['name']} via {first_step}"


def test_a_deal_label_reads_from_the_side_of_the_one_answering():
    # Trafficking 6f: "the two may buy or sell Lids for any price agreed upon": the lander's sale is the buy answered
    _, state = roll_to(game(at={2: "mcdoobies"}, lids={3: 5}), 3, 1)
    sell = {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 3, "price": 240}}
    assert label(state, 3, sell).endswith("a deal: you sell 3 Lids for $240")
    _, state = play(state, 3, sell)
    accept = next(m for m in legal(state, 2) if m["type"] == "AcceptOffer")
    assert label(state, 2, accept).endswith("'s deal: you buy 3 Lids for $240")


def test_static_data_draws_the_board_and_its_arrows():
    # the reconstructed board: every square on its own spot of the grid, a line per red arrow and the Expressway
    data = json.loads(json.dumps(T.static_data()))
    b = data["board"]
    assert "reconstructed" in data["source"] and b["reconstructed"]
    squares = {s["id"]: s for s in b["squares"]}
    assert squares.keys() == SQUARES.keys()
    assert len({(s["x"], s["y"]) for s in squares.values()}) == len(squares)
    assert all(0 <= s["x"] < b["grid"]["width"] and 0 <= s["y"] < b["grid"]["height"] for s in squares.values())
    arrows = [(line["from"], line["to"]) for line in b["lines"] if line["kind"] == "arrow"]
    assert sorted(arrows) == sorted((s, to) for s in squares for to in board.arrows(s))
    assert [line["kind"] for line in b["lines"]].count("expressway") == 1
    assert {s for s in squares if len(squares[s]["arrows"]) == 2} == set(board.COP_SHOPS)   # 4c: two ways out
    assert b["digest"] == T.view(game(), None)["board"]
    assert len(data["cards"]["cards"]) == 32 and len(b["dealers"]) == 8
