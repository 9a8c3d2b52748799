"""Kingpin card data (rules/kingpin/cards.json)."""
from __future__ import annotations

import copy
import json

import pytest

from rules.kingpin.cards import CATALOG, DATA, DATA_FILE, CardDataError, validate


def count(type_=None, special=None):
    return sum(k["count"] for k in DATA["kinds"]
               if (type_ is None or k["type"] == type_) and (special is None or k.get("special") == special))


def test_contents_match_the_box():
    # Kingpin "Contents": 25 Junkies, 16 Dealers, 18 Supply Trucks, 2 Cop, 3 Regulator, 2 Hit Man,
    # 1 Immunity, 1 Jail.
    assert (count("junkie"), count("dealer"), count("truck")) == (25, 16, 18)
    assert [count(special=s) for s in ("cop", "regulator", "hitman", "immunity")] == [2, 3, 2, 1]
    assert DATA["jail_cards"] == 1


def test_sizes_starters_and_sample_junkie():
    # Kingpin "Basic Cards": trucks 3/4/5, dealers 3/6/12; "Initial Setup" for up to 6 players;
    # "Sample Turn": the Junkie with the $400 Payday and OD 1 that paid $800 for 2 Hits.
    kinds = {k["kind"]: k for k in DATA["kinds"]}
    assert kinds["truck3"]["count"] >= 6 and kinds["dealer3"]["count"] >= 6
    assert kinds["junkie200"]["count"] >= 6 and kinds["junkie200"]["cash_on_hand"] == 200
    sample = kinds["junkie800"]
    assert sample["payday"] == 400 and sample["od"] == 1 and sample["max_pay"] * 2 >= 800


def test_reconstructed_values_are_marked():
    # rules-gaps 2.2/2.3: invented data is labelled reconstructed (not from publisher) in the JSON itself.
    assert {"junkies", "truck_split", "dealer_split", "hit_man_bounty", "cop_bribe",
            "regulator_bribe", "die_faces"} <= set(DATA["reconstructed"])
    for k in DATA["kinds"]:
        assert "note" in k


def test_catalog_prices():
    # Kingpin "Purchase Cards": prices derive from the card values.
    kinds = CATALOG["kinds"]
    assert kinds["junkie1000"]["price"] == 500 and kinds["dealer12"]["price"] == 1200
    assert kinds["truck4"]["price"] == 400 and kinds["hitman"]["price"] == 600
    assert kinds["cop"]["ids"] == ["cop-1", "cop-2"]


@pytest.mark.parametrize("breakage", [
    lambda d: d["kinds"].pop(),                                                  # a kind missing
    lambda d: d["kinds"][0].update(count=7),                                     # 17 trucks
    lambda d: [k.update(od=2) for k in d["kinds"] if k["kind"] == "junkie800"],  # no sample junkie
    lambda d: [k.update(count=5) for k in d["kinds"] if k["kind"] == "junkie200"],
    lambda d: [k.update(cash_on_hand=300) for k in d["kinds"] if k["kind"] == "junkie400"],
])
def test_validation_rejects_broken_data(breakage):
    # Kingpin "Contents": cards.json is validated on load.
    data = copy.deepcopy(json.loads(DATA_FILE.read_text()))
    breakage(data)
    with pytest.raises((CardDataError, KeyError)):
        validate(data)
