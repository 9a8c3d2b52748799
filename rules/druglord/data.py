"""Druglord constants (the box's component limits) and the Baller Moves deck
(baller_cards.json, reconstructed except Armed Locals and Ideal Rainfall),
validated once at import."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import MappingProxyType

from rules.druglord.board import BOARD, BOARDS, OCEANS, WEIGHT_TYPES, board_data

# "Weight Markers: 58 Reefer, 58 Pills, 30 Cocaine, 30 Opiates."
WEIGHT_TOTALS = MappingProxyType({"reefer": 58, "pills": 58, "cocaine": 30, "opiates": 30})
# "Region Markers: 14 Sapphires, 14 Purple Diamonds, ..." (one of them is the Score Marker)
MARKERS_PER_PLAYER = 14
# "Each player selects a type of Region Marker" -- cosmetic; seat n gets the n-th set (view only).
MARKER_SETS = ("Sapphires", "Purple Diamonds", "Frosty Cubes", "Gold Bars", "Silver Blocks", "Crystal Shards")
# "2 Classy Dice": faces 1*, 2, 3, 4, 5, 9 -- "*(Always Fails)"
CLASSY_DIE = (1, 2, 3, 4, 5, 9)
# "10 Dime Bags" -- used here as Crackdown markers (ruling, see docs/rules/druglord.md)
DIME_BAGS = 10
PHASE_NAMES = {"reefer": "Reefer", "pills": "Pills", "cocaine": "Coca", "opiates": "Opiates"}
TRIAL_CASES = 5
TRIAL_CASES_CALIFORNIA = 3

BALLER_FILE = Path(__file__).with_name("baller_cards.json")
TIMINGS = ("turn", "trade", "attack", "defence", "interrupt", "trial")
EFFECTS = ("modify", "bonus_weight", "walk", "clear_cases", "call_off")


def _validate(data: dict) -> dict:
    """Check the Baller deck's shape; ValueError names what is wrong."""
    cards = data["cards"]
    ids = [c["id"] for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("baller_cards.json: duplicate card id")
    if sum(c["copies"] for c in cards) != data["deck_size"] or data["deck_size"] != 43:
        raise ValueError("baller_cards.json: the Baller Moves deck has 43 cards")
    for c in cards:
        if c["timing"] not in TIMINGS or c["effect"]["kind"] not in EFFECTS:
            raise ValueError(f"baller card {c['id']}: bad timing or effect")
        effect = c["effect"]
        if effect["kind"] == "modify" and effect["die"] not in ("trade", "attack", "defence", "trial"):
            raise ValueError(f"baller card {c['id']}: bad die")
        if effect["kind"] == "bonus_weight" and effect["weight"] not in WEIGHT_TYPES:
            raise ValueError(f"baller card {c['id']}: bad weight")
        for key in ("name", "text", "copies", "printed"):
            if key not in c:
                raise ValueError(f"baller card {c['id']}: missing {key}")
    return data


_RAW = BALLER_FILE.read_text(encoding="utf-8")
BALLER = _validate(json.loads(_RAW))
CARDS = MappingProxyType({c["id"]: MappingProxyType(c) for c in BALLER["cards"]})
HAND_LIMIT = BALLER["hand_limit"]
BALLER_DIGEST = hashlib.sha256(_RAW.encode("utf-8")).hexdigest()
# the digest a GameStarted records: of the map as of its rules version (board.json's "revisions")
BOARD_DIGESTS = MappingProxyType({v: hashlib.sha256(json.dumps(board_data(v), sort_keys=True).encode("utf-8"))
                                  .hexdigest() for v in BOARDS})
BOARD_DIGEST = BOARD_DIGESTS[1]


def board_digest(version: int) -> str:
    """The digest of the map a game of rules `version` is played on."""
    return BOARD_DIGESTS[max(v for v in BOARD_DIGESTS if v <= version)]
REGION_IDS = tuple(sorted(BOARD.regions))


def baller_deck() -> list[str]:
    """The 43 Baller Moves cards as card ids, unshuffled (copies adjacent)."""
    return [c["id"] for c in BALLER["cards"] for _ in range(c["copies"])]


def card_name(card: str) -> str:
    return CARDS[card]["name"]


__all__ = ["WEIGHT_TYPES", "OCEANS", "BOARD", "WEIGHT_TOTALS", "MARKERS_PER_PLAYER", "CLASSY_DIE", "DIME_BAGS",
           "CARDS", "HAND_LIMIT", "baller_deck", "card_name", "REGION_IDS", "PHASE_NAMES"]

# The search's fitted weights (rules/search/value.py; bench/fit_evaluate.py --write makes the file): data,
# measured like the reconstructed cards, read here as every data file of the game is.
SEARCH_WEIGHTS_FILE = Path(__file__).with_name("search_weights.json")
SEARCH_WEIGHTS = json.loads(SEARCH_WEIGHTS_FILE.read_text(encoding="utf-8"))
