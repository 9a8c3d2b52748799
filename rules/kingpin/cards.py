"""Kingpin card data: cards.json, read once at import and validated.

The catalogue is copied into the GameStarted event, so a game replays with the
card values it was started with even if cards.json changes later.
"""
from __future__ import annotations

import json
from pathlib import Path

DATA_FILE = Path(__file__).with_name("cards.json")

BASIC_TYPES = ("truck", "dealer", "junkie")
SPECIALS = ("cop", "regulator", "hitman", "immunity")


class CardDataError(ValueError):
    """cards.json does not describe a playable Kingpin deck."""


def _require(condition: bool, message: str) -> None:
    """Raise CardDataError unless `condition` holds."""
    if not condition:
        raise CardDataError(message)


def validate(data: dict) -> None:
    """Check counts, starters and the rulebook's sample Junkie."""
    kinds = data["kinds"]
    names = [k["kind"] for k in kinds]
    _require(len(names) == len(set(names)), "duplicate kind names")
    counts: dict[str, int] = {}
    for k in kinds:
        key = k["special"] if k["type"] == "special" else k["type"]
        _require(k["type"] in BASIC_TYPES + ("special",), f"unknown type {k['type']}")
        _require(isinstance(k["count"], int) and k["count"] > 0, f"{k['kind']}: bad count")
        counts[key] = counts.get(key, 0) + k["count"]
        if k["type"] in ("truck", "dealer"):
            _require(isinstance(k["size"], int) and k["size"] > 0, f"{k['kind']}: bad size")
        if k["type"] == "junkie":
            for field in ("cash_on_hand", "payday", "max_pay"):
                _require(isinstance(k[field], int) and k[field] > 0 and k[field] % 100 == 0,
                         f"{k['kind']}: {field} must be a positive multiple of $100")
            _require(k["cash_on_hand"] % 200 == 0, f"{k['kind']}: Cash on Hand must halve to whole $100")
            _require(isinstance(k["od"], int) and k["od"] >= 1, f"{k['kind']}: bad OD")
    _require(counts == data["expected_counts"], f"card counts {counts} != {data['expected_counts']}")
    _require(sorted({k["size"] for k in kinds if k["type"] == "truck"}) == [3, 4, 5], "trucks must be 3/4/5")
    _require(sorted({k["size"] for k in kinds if k["type"] == "dealer"}) == [3, 6, 12], "dealers must be 3/6/12")
    by_kind = {k["kind"]: k for k in kinds}
    start = data["starting"]
    _require(by_kind[start["truck"]]["size"] == 3 and by_kind[start["truck"]]["count"] >= 6,
             "need at least 6 size-3 Supply Trucks for 6 players")
    _require(by_kind[start["dealer"]]["size"] == 3 and by_kind[start["dealer"]]["count"] >= 6,
             "need at least 6 size-3 Dealers for 6 players")
    _require(by_kind[start["junkie"]]["cash_on_hand"] == 200 and by_kind[start["junkie"]]["count"] >= 6,
             "need at least 6 starter Junkies with $200 Cash on Hand")
    _require(any(k["type"] == "junkie" and k["payday"] == 400 and k["od"] == 1 and k["max_pay"] >= 400
                 for k in kinds), "the Sample Turn's Junkie (Payday $400, OD 1, Max pay >= $400) is missing")
    _require(data["jail_cards"] == 1, "there is one Jail card")
    for k in kinds:
        if k["type"] == "special" and k["special"] in ("cop", "regulator"):
            _require(k["bribe"] > 0 and k["bribe"] % 100 == 0, f"{k['kind']}: bad bribe")
        if k["type"] == "special" and k["special"] == "hitman":
            _require(k["bounty"] > 0 and k["bounty"] % 100 == 0, f"{k['kind']}: bad bounty")


def price_of(kind: dict, prices: dict) -> int:
    """What a card of this kind costs to buy (rulebook "Purchase Cards")."""
    if kind["type"] == "junkie":
        return kind["cash_on_hand"] // 2
    if kind["type"] in ("truck", "dealer"):
        return prices["per_circle"] * kind["size"]
    return prices["special_card"]


def build_catalog(data: dict) -> dict:
    """The JSON-able catalogue stored in GameStarted: kinds (with price and card ids), costs, start."""
    kinds = {}
    for k in data["kinds"]:
        entry = {key: value for key, value in k.items() if key not in ("note",)}
        entry["price"] = price_of(k, data["prices"])
        entry["ids"] = [f"{k['kind']}-{i}" for i in range(1, k["count"] + 1)]
        kinds[k["kind"]] = entry
    return {
        "kinds": kinds,
        "order": [k["kind"] for k in data["kinds"]],
        "costs": dict(data["costs"]),
        "starting": dict(data["starting"]),
    }


def _load() -> dict:
    """Read and validate cards.json (once, at import)."""
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    validate(data)
    return data


DATA = _load()
CATALOG = build_catalog(DATA)
