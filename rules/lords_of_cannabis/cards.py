"""The Building Conversions Card (costs, points), the box's supply limits, and the Crop deck
(crops.json: names and the Gangsta and Victory Point cards from the rulebook, the split of the
38 cards and the Progress cards' texts reconstructed), validated once at import."""
from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

from rules.lords_of_cannabis.board import RESOURCES

CROPS_FILE = Path(__file__).with_name("crops.json")


def _cost(**counts: int) -> tuple[int, ...]:
    """A cost as a count per resource, in RESOURCES order."""
    return tuple(counts.get(name, 0) for name in RESOURCES)


# "Tunnels (requires 1 each of CEMENT and WATER)", "Greenhouse (requires 1 each of CEMENT, WATER, SEEDS,
# and SOIL)", "Plantation (requires 3 FUEL and 2 SOIL)", "Buying a Crop Card (requires 1 each of FUEL,
# SEEDS, and SOIL)"
COSTS = MappingProxyType({"tunnel": _cost(CEMENT=1, WATER=1), "greenhouse": _cost(CEMENT=1, WATER=1, SEEDS=1, SOIL=1),
                          "plantation": _cost(FUEL=3, SOIL=2), "crop": _cost(FUEL=1, SEEDS=1, SOIL=1)})
TUNNELS_PER_COLOUR = 14   # per colour: 14 Tunnels
TILES_PER_COLOUR = 6      # and 6 double-sided Greenhouse/Plantation tiles
STASH_PER_RESOURCE = 25   # 125 Stash cards, 25 per resource
WINNING_POINTS = 10       # "at least TEN Victory Points during his turn"
REWARD_POINTS = 2         # Longest Tunnel and Mob Boss are "worth 2 Victory Points"
LONGEST_TUNNEL_MIN = 5    # "a continuous Tunnel of five or more single Tunnels"
MOB_BOSS_MIN = 3          # "The first player to turn up three Gangsta Cards gets the Mob Boss Card"
KINDS = ("gangsta", "progress", "victory")


def _validate(data: dict) -> dict:
    """Check the Crop deck's shape; ValueError names what is wrong."""
    cards = data["cards"]
    if sum(c["copies"] for c in cards) != data["deck_size"] or data["deck_size"] != 38:
        raise ValueError("crops.json: the Crop deck has 38 cards")
    if len({c["id"] for c in cards}) != len(cards) or any(c["kind"] not in KINDS for c in cards):
        raise ValueError("crops.json: duplicate id or unknown kind")
    if sorted(c["name"] for c in cards if c["kind"] == "progress") != sorted(
            ["Tunnel Building", "Up-Sizing", "Strong-Arm", "Mass Production", "Get Jacked!"]):
        raise ValueError("crops.json: the five Progress cards are the rulebook's")
    if sum(1 for c in cards if c["kind"] == "victory") != 5:
        raise ValueError("crops.json: five Victory Point cards")
    return data


CROPS = _validate(json.loads(CROPS_FILE.read_text(encoding="utf-8")))
CARD = MappingProxyType({c["id"]: MappingProxyType(c) for c in CROPS["cards"]})
VICTORY_CARDS = frozenset(c["id"] for c in CROPS["cards"] if c["kind"] == "victory")


def crop_deck() -> list[str]:
    """The 38 Crop cards, unshuffled, as card ids."""
    return [c["id"] for c in CROPS["cards"] for _ in range(c["copies"])]

# The search's fitted weights (rules/search/value.py; bench/fit_evaluate.py --write makes the file): data,
# measured like the reconstructed cards, read here as every data file of the game is.
SEARCH_WEIGHTS_FILE = Path(__file__).with_name("search_weights.json")
SEARCH_WEIGHTS = json.loads(SEARCH_WEIGHTS_FILE.read_text(encoding="utf-8"))
