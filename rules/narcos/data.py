"""Narcos card data: the Narcos deck, the starting network and the Plantation (cards.json), and
the Cartel deck (cartel.json), reconstructed where the rulebook prints no value; validated at import."""
from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

HERE = Path(__file__).parent
SIDES = ("gun", "siren")
KINDS = {"laboratory": "gun", "transport": "gun", "storage": "gun", "dealer": "gun",
         "press": "siren", "snitch": "siren", "police": "siren", "military": "siren", "dea": "siren"}
# "68 cartas del mazo Narcos > 4 x laboratorio > 8 x transporte > 12 x traficante > 12 x almacenamiento
#  > 5 x prensa > 8 x sapo > 10 x policia > 7 x militar > 2 x DEA"
COUNTS = {"laboratory": 4, "transport": 8, "dealer": 12, "storage": 12, "press": 5, "snitch": 8,
          "police": 10, "military": 7, "dea": 2}
# "(un agente DEA, 7 militares, 4 aviones de transporte y 4 de almacenamientos valor 12)"
ROUND_TWO = {"dea": 1, "military": 7, "transport": 4, "storage": 4}
TIMINGS = ("draw", "manage", "reaction", "any")  # cartel.json "note"
SICARIOS = 8          # "8 Meeples de sicario"
START_MONEY, START_WORKERS, START_SICARIOS = 3, 5, 2
HAND_LIMIT = 7        # "el límite de tiempo (7 cartas)"
ACTION_LIMIT = 7      # "Hay un límite de 7 acciones conseguidas con las cartas"
GOLD = 5              # "1 oro vale por 5 millones"
MERCHANDISE = 50      # "50 cubos blancos (cargamentos de droga)": a hard limit (ruling K1)
CROPS = 12            # "12 cubos marrones (cultivos)": a hard limit (ruling K2)


def _expand(entries: list) -> list[dict]:
    """Card groups with "copies" become one card each (id = group-n)."""
    cards = []
    for entry in entries:
        if "group" in entry:
            base = {k: v for k, v in entry.items() if k not in ("group", "copies")}
            cards += [{**base, "id": f"{entry['group']}-{n}"} for n in range(1, entry["copies"] + 1)]
        else:
            cards.append(dict(entry))
    return cards


def _validate_deck(data: dict) -> list[dict]:
    """The Narcos deck as the rulebook counts it; ValueError names what is wrong."""
    cards = _expand(data["deck"])
    ids = [c["id"] for c in cards]
    if len(set(ids)) != len(ids) or len(cards) != 68:
        raise ValueError("cards.json: the Narcos deck has 68 cards with distinct ids")
    for kind, count in COUNTS.items():
        if sum(c["kind"] == kind for c in cards) != count:
            raise ValueError(f"cards.json: {count} {kind} cards expected")
        if sum(c["kind"] == kind and c["round"] == 2 for c in cards) != ROUND_TWO.get(kind, 0):
            raise ValueError(f"cards.json: wrong Round 2 reserve of {kind}")
    for c in cards:
        if KINDS[c["kind"]] != c["side"]:
            raise ValueError(f"cards.json: {c['id']} is on the wrong side")
        if c["kind"] == "laboratory" and len(c["table"]) != data["plantation"]["slots"]:
            raise ValueError(f"cards.json: {c['id']} needs one output per crop count")
        if c["kind"] == "dealer" and c["city"] not in data["cities"]:
            raise ValueError(f"cards.json: {c['id']} is in no known city")
    if {c["capacity"] for c in cards if c["kind"] == "storage" and c["round"] == 2} != {12}:
        raise ValueError("cards.json: the Round 2 Storage cards are of value 12")
    return cards


def _validate_cartel(data: dict) -> list[dict]:
    """The 20 Cartel cards; ValueError names what is wrong."""
    cards = _expand(data["cards"])
    if len(cards) != 20 or len({c["id"] for c in cards}) != 20:
        raise ValueError("cartel.json: the Cartel deck has 20 cards")
    if any(c["timing"] not in TIMINGS for c in cards):
        raise ValueError("cartel.json: unknown timing")
    return cards


RAW = json.loads((HERE / "cards.json").read_text(encoding="utf-8"))
CARTEL_RAW = json.loads((HERE / "cartel.json").read_text(encoding="utf-8"))
DECK = tuple(_validate_deck(RAW))
CARDS = MappingProxyType({c["id"]: MappingProxyType(c) for c in DECK} |
                         {c["id"]: MappingProxyType(c) for c in RAW["starting"].values()})
CARTEL_DECK = tuple(_validate_cartel(CARTEL_RAW))
CARTEL = MappingProxyType({c["id"]: MappingProxyType(c) for c in CARTEL_DECK})
CITIES = tuple(RAW["cities"])
CITY_TOKENS = tuple(RAW["city_tokens"])
PLANTATION = MappingProxyType(RAW["plantation"])
STARTING = MappingProxyType({k: v["id"] for k, v in RAW["starting"].items()})


def kind(card: str) -> str:
    return CARDS[card]["kind"]


def side(card: str) -> str:
    return CARDS[card].get("side", "gun")


def cartel_kind(card: str) -> str:
    """The Cartel card's design (its group: "lawyer", "burn-crops", ...)."""
    return card.rsplit("-", 1)[0]


def game_data() -> dict:
    """The static card catalogue, as served."""
    return {"deck": [dict(c) for c in DECK], "starting": RAW["starting"], "plantation": RAW["plantation"],
            "cities": list(CITIES), "city_tokens": list(CITY_TOKENS), "cartel": [dict(c) for c in CARTEL_DECK]}
