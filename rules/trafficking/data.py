"""Trafficking's data: the board (board.json) and the Sour Grapes and Flip Out cards (cards.json), both
reconstructed (the rulebook prints neither), validated once at import.

Board checks: every square the rulebook names, in its counts; one red arrow out of every square and a
second one only at a Cop Shop; every square reachable from every other along the arrows; the Expressway's
two ends paired; Airport Customs' closest en route Cop Shop is the West End Cop Shop.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import MappingProxyType

HERE = Path(__file__).parent
KINDS = ("hang_out", "dealing", "cop_shop", "eleven_seven", "subway", "cab_stand", "expressway", "jack_pot",
         "marcus", "pusher", "buddy_jims", "roxy", "roll_again", "miss_turn", "no_bust_zone", "customs", "gambling",
         "sour_grapes", "flip_out", "street")
# the counts the rulebook states (the other kinds: at least one)
COUNTS = {"hang_out": 8, "dealing": 8, "cop_shop": 4, "eleven_seven": 4, "expressway": 2, "jack_pot": 1,
          "marcus": 1, "pusher": 1, "buddy_jims": 1, "roxy": 1, "no_bust_zone": 1, "customs": 1, "gambling": 1}
DEALING_NAMES = {"McDoobie's Hamburgers", "Zombieland Video Arcade", "J.C.'s Flower Shoppe", "E.Z.'s Smoke Shop",
                 "Vito's Pizza Parlour", "Dexy's All Night Donuts", "Hashton Arms Hotel", "The Rock Hard Cafe"}
EFFECTS = ("narc_time_warp", "narc_to_you", "lose_lids", "lose_half_lids", "pay", "collect", "gain_lids",
           "miss_turn", "offense", "go_to_cop_shop", "go_to", "advance", "sell", "transit_pass", "roll_again",
           "keep")
KEEP_USES = ("retainer", "slush_fund")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _reach(start: str, arrows: dict) -> set:
    seen, todo = {start}, [start]
    while todo:
        for nxt in arrows[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def validate_board(data: dict) -> dict:
    """The board as loaded, or ValueError naming what breaks the rulebook."""
    squares = data["squares"]
    by_id = {s["id"]: s for s in squares}
    _require(len(by_id) == len(squares), "board.json: duplicate square id")
    _require(len({(s["x"], s["y"]) for s in squares}) == len(squares), "board.json: two squares share a position")
    for s in squares:
        _require(s["kind"] in KINDS, f"square {s['id']}: unknown kind {s['kind']!r}")
        _require(s["next"] in by_id, f"square {s['id']}: its arrow leads nowhere")
        _require(("branch" in s) == (s["kind"] == "cop_shop"), f"square {s['id']}: a second arrow only at a Cop Shop")
        _require(s.get("branch", s["next"]) in by_id and s.get("branch") != s["next"],
                 f"square {s['id']}: bad branch")
        _require(isinstance(s["x"], int) and isinstance(s["y"], int), f"square {s['id']}: needs x, y")
    for kind, count in COUNTS.items():
        _require(sum(s["kind"] == kind for s in squares) == count, f"board.json: {count} {kind} squares expected")
    for kind in KINDS:
        _require(any(s["kind"] == kind for s in squares), f"board.json: no {kind} square")
    _require({s["name"] for s in squares if s["kind"] == "dealing"} == DEALING_NAMES, "board.json: Dealing squares")
    dealers = {d["id"]: d for d in data["dealers"]}
    _require(len(dealers) == 8, "board.json: eight Dealers")
    for d in dealers.values():
        home = by_id.get(d["hang_out"])
        _require(home is not None and home["kind"] == "hang_out" and home["dealer"] == d["id"],
                 f"dealer {d['id']}: Hang Out")
    arrows = {s["id"]: [s["next"]] + ([s["branch"]] if "branch" in s else []) for s in squares}
    for s in squares:
        _require(_reach(s["id"], arrows) == set(by_id), f"board.json: not every square is reachable from {s['id']}")
    ends = [s for s in squares if s["kind"] == "expressway"]
    _require(ends[0]["expressway_to"] == ends[1]["id"] and ends[1]["expressway_to"] == ends[0]["id"],
             "board.json: the Expressway joins its two ends")
    west = [s["id"] for s in squares if s.get("west_end")]
    _require(len(west) == 1 and by_id[west[0]]["kind"] == "cop_shop", "board.json: one West End Cop Shop")
    customs = next(s for s in squares if s["kind"] == "customs")
    here = customs["next"]
    while by_id[here]["kind"] != "cop_shop":
        here = by_id[here]["next"]
    _require(here == west[0], "board.json: Airport Customs' closest en route Cop Shop must be the West End one")
    _require(data.get("reconstructed"), "board.json: mark the board reconstructed")
    return data


def validate_cards(data: dict) -> dict:
    """The card catalogue as loaded, or ValueError."""
    cards = data["cards"]
    _require(len({c["id"] for c in cards}) == len(cards), "cards.json: duplicate card id")
    for deck, size in (("sour_grapes", 16), ("flip_out", 16)):
        _require(sum(c["deck"] == deck for c in cards) == size == data["decks"][deck], f"cards.json: {size} {deck}")
    for c in cards:
        effect = c["effect"]
        _require(effect["kind"] in EFFECTS, f"card {c['id']}: unknown effect")
        _require(effect["kind"] != "keep" or effect["use"] in KEEP_USES, f"card {c['id']}: unknown kept card")
        _require(effect["kind"] != "go_to" or effect["square"] in {s["id"] for s in BOARD["squares"]},
                 f"card {c['id']}: unknown square")
        _require(c["name"] and c["text"] and c["source"], f"card {c['id']}: name, text, source")
    _require(any(c["effect"]["kind"] == "narc_time_warp" and c["deck"] == "sour_grapes" for c in cards),
             "cards.json: the known Sour Grapes card (the Narc enters the Time Warp)")
    _require(data["transit_passes"] == 8, "cards.json: 8 THC Transit Passes")
    return data


_BOARD_RAW = (HERE / "board.json").read_text(encoding="utf-8")
_CARDS_RAW = (HERE / "cards.json").read_text(encoding="utf-8")
BOARD = validate_board(json.loads(_BOARD_RAW))
CARDS_DATA = validate_cards(json.loads(_CARDS_RAW))
BOARD_DIGEST = hashlib.sha256(_BOARD_RAW.encode("utf-8")).hexdigest()
CARDS_DIGEST = hashlib.sha256(_CARDS_RAW.encode("utf-8")).hexdigest()
SQUARES = MappingProxyType({s["id"]: MappingProxyType(s) for s in BOARD["squares"]})
DEALERS = MappingProxyType({d["id"]: MappingProxyType(d) for d in BOARD["dealers"]})
DEALER_IDS = tuple(d["id"] for d in BOARD["dealers"])
CARDS = MappingProxyType({c["id"]: MappingProxyType(c) for c in CARDS_DATA["cards"]})
TRANSIT_PASSES = CARDS_DATA["transit_passes"]


def deck(name: str) -> list[str]:
    """One deck's card ids in catalogue order (shuffled at setup)."""
    return [c["id"] for c in CARDS_DATA["cards"] if c["deck"] == name]

# The search's fitted weights (rules/search/value.py; bench/fit_evaluate.py --write makes the file): data,
# measured like the reconstructed cards, read here as every data file of the game is.
SEARCH_WEIGHTS_FILE = Path(__file__).with_name("search_weights.json")
SEARCH_WEIGHTS = json.loads(SEARCH_WEIGHTS_FILE.read_text(encoding="utf-8"))
