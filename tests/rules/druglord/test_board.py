"""The Druglord world map (rules/druglord/board.json, reconstructed) and its geography queries.

Every rulebook example is its own test and cites the rule; the rulings are in
docs/rules/druglord-board.md.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from rules.druglord.board import (
    BOARDS,
    DATA_FILE,
    MAP,
    OCEANS,
    WEIGHT_TYPES,
    board_data,
    coastal_regions_on,
    extended_land_trade,
    hybrid_ports,
    land_trade,
    load_board,
    load_map,
    neighbours,
    regions_in_zone,
    same_zone_coastal,
    sea_oceans,
    violence_range,
    zone_of,
)

# The map as first released (rules version 1): most tests here pin it; version 2's review is tested at the end.
BOARD = BOARDS[1]
NONE: frozenset = frozenset()
MARKERS = {"reefer": 58, "pills": 58, "cocaine": 30, "opiates": 30}   # "Weight Markers: 58 Reefer, ..."
ZONE_SIZES = {"AE": 5, "AG": 4, "AR": 4, "AS": 5, "BR": 5, "CA": 5, "CO": 4, "FS": 6, "IR": 5,
              "ME": 6, "MX": 5, "NP": 4, "PE": 5, "SA": 6, "SE": 5}
ISLANDS = {"AE1", "AR4", "CA4", "CA5", "SE4", "SE5"}          # UK, Japan, Jamaica, Hispaniola, Jakarta, Australia
# the barriers (Rule 5.B): pairs that must never share a land border
GLACIERS = [("NP1", "BR4"), ("NP1", "BR3"), ("NP1", "AE1")]   # Canada-Russia (Alaska-Siberia), Canada-Scandinavia, Canada-UK
RACETRACK = [("PE5", "SE5"), ("SA1", "SA6"), ("SA6", "SE5"), ("PE5", "SA6")]   # no Antarctic land bridge
SOUTH_ASIA = {"IR1", "IR3"}                                   # Pakistan, India
BEYOND_HIMALAYA = {"AR1", "AR2", "AR3", "BR5"}                 # China and Central Asia


def rid(name: str) -> str:
    """The id of the region called `name`."""
    (found,) = [r.id for r in BOARD.regions.values() if r.name == name]
    return found


def region(name: str):
    """The Region called `name`."""
    return BOARD.regions[rid(name)]


def land_component(start: str) -> set[str]:
    """Every region reachable from `start` over land borders."""
    seen, todo = {start}, [start]
    while todo:
        for nxt in BOARD.borders[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


# --------------------------------------------------------------------------
# The data
# --------------------------------------------------------------------------

def test_74_region_cards():
    # Components: "74 Region Cards"; "a 74-spaced World Map and matching Region Cards"
    assert len(BOARD.regions) == 74


def test_15_zones_plus_the_himalayan_barrier_with_no_cards():
    # DRUGBOARD ZONES: "divided into 15 Zones"; 5.B: the Himalayan Land Barrier "is considered it's own Zone"
    assert set(BOARD.zones) == set(ZONE_SIZES) | {"HB"}
    assert BOARD.zones["CO"] == "Columbia"            # the rulebook's spelling
    assert regions_in_zone(BOARD, "HB") == ()
    assert Counter(r.zone for r in BOARD.regions.values()) == ZONE_SIZES


def test_ids_unique_and_made_of_zone_and_number():
    # Region card b.: "The specific Zone and number of the Region"
    for region_id, r in BOARD.regions.items():
        assert region_id == r.id == f"{r.zone}{r.number}"
        assert zone_of(BOARD, region_id) == r.zone
    for zone, size in ZONE_SIZES.items():
        assert [BOARD.regions[i].number for i in regions_in_zone(BOARD, zone)] == list(range(1, size + 1))
    assert len({r.name for r in BOARD.regions.values()}) == 74


def test_card_values_in_range():
    for r in BOARD.regions.values():
        assert 1 <= r.wv <= 3 and 1 <= r.sc <= 4, r.id
        assert r.produces and set(r.produces) <= set(WEIGHT_TYPES), r.id
        assert set(r.ports) <= set(OCEANS), r.id
        assert all(t in WEIGHT_TYPES and 1 <= d <= 4 for t, d in r.demand.items()), r.id
        assert r.demand, f"{r.id} is a market for nothing"


def test_marked_as_reconstructed():
    data = board_data()
    assert data["source"] == "reconstructed, not from the publisher"
    assert "not public" in data["reconstructed"]
    assert "per turn" in data["fields"]["demand"]


def test_borders_symmetric_between_existing_regions():
    for a, near in BOARD.borders.items():
        assert a in BOARD.regions and a not in near
        for b in near:
            assert b in BOARD.regions and a in BOARD.borders[b]
            assert neighbours(BOARD, b) == BOARD.borders[b]


@pytest.mark.parametrize("a,b", GLACIERS + RACETRACK)
def test_no_border_across_glaciers_or_racetrack(a, b):
    # 5.B: "Land Trades may not occur across the glaciers of the far north or the Racetrack at the lower edge"
    assert b not in neighbours(BOARD, a)
    assert not land_trade(BOARD, a, b, NONE) and not extended_land_trade(BOARD, a, b, NONE)


def test_no_border_across_the_himalayan_barrier():
    # 5.B: the Himalayan Land Barrier "may not be Land traded across"
    for a in SOUTH_ASIA:
        assert not neighbours(BOARD, a) & BEYOND_HIMALAYA
        for b in BEYOND_HIMALAYA:
            assert not land_trade(BOARD, a, b, NONE)
    assert rid("Beijing") not in neighbours(BOARD, rid("Badakhshan"))   # the Wakhan corridor
    # the barrier blocks only itself: Myanmar-Yunnan and Tajikistan-Afghanistan stay open
    assert rid("Guangdong") in neighbours(BOARD, rid("Shan State"))
    assert rid("Central Asia") in neighbours(BOARD, rid("Badakhshan"))


def test_forbidden_pairs_listed_in_the_data_are_not_borders():
    for a, b, reason in board_data()["forbidden_borders"]:
        assert b not in neighbours(BOARD, a), reason


def test_islands_have_no_land_border_off_their_island():
    assert {r.id for r in BOARD.regions.values() if r.island} == ISLANDS
    for island in ISLANDS:
        landmass = BOARD.regions[island].landmass
        assert all(BOARD.regions[n].landmass == landmass for n in neighbours(BOARD, island))
        assert BOARD.regions[island].ports   # an island is reached by sea


def test_each_landmass_is_one_connected_land_graph():
    by_land: dict[str, set] = {}
    for r in BOARD.regions.values():
        by_land.setdefault(r.landmass, set()).add(r.id)
    assert set(by_land) == {"Americas", "Afro-Eurasia", "Great Britain", "Japan", "Jamaica", "Hispaniola",
                            "Java and Sumatra", "Australia"}
    for ids in by_land.values():
        assert land_component(next(iter(ids))) == ids


def test_every_landlocked_region_borders_a_port():
    # 5.D: so every landlocked card has a Hybrid Trade to the sea
    for r in BOARD.regions.values():
        if not r.ports:
            assert any(BOARD.regions[n].ports for n in neighbours(BOARD, r.id)), r.id


def test_every_pair_can_air_trade():
    # 5.E: "can be flown between any 2 locations, anywhere on Earth": nothing on the map restricts it
    assert all(r.id in BOARD.regions for r in BOARD.regions.values())


# --------------------------------------------------------------------------
# Component totals
# --------------------------------------------------------------------------

def test_one_turn_of_all_74_regions_fits_the_weight_markers():
    # Components: 58 Reefer, 58 Pills, 30 Cocaine, 30 Opiates.  A 6-player game holds at most
    # 6 x (3 + N) regions after N drafts, so "all 74 held" is the worst case of any game length.
    assert board_data()["weight_markers"] == MARKERS
    assert sum(r.wv for r in BOARD.regions.values()) <= sum(MARKERS.values())
    for size in range(1, 5):
        for kinds in combinations(WEIGHT_TYPES, size):
            load = sum(min(r.wv, r.sc) for r in BOARD.regions.values() if set(r.produces) <= set(kinds))
            assert load <= sum(MARKERS[k] for k in kinds), kinds


def test_full_coca_and_poppy_cards_never_exhaust_their_markers():
    for kind in ("cocaine", "opiates"):
        assert sum(r.sc for r in BOARD.regions.values() if kind in r.produces) <= MARKERS[kind]


def test_coca_only_in_the_andes_and_poppies_where_they_grow():
    coca = {r.zone for r in BOARD.regions.values() if "cocaine" in r.produces}
    poppy = {r.zone for r in BOARD.regions.values() if "opiates" in r.produces}
    assert coca <= {"CO", "PE", "CA"} and {"CO", "PE"} <= coca
    assert poppy <= {"AG", "SE", "MX", "IR"} and {"AG", "SE", "MX"} <= poppy
    assert all("opiates" in r.produces for r in BOARD.regions.values() if r.zone == "AG")


def test_every_type_has_producers_and_markets():
    for kind in WEIGHT_TYPES:
        assert any(kind in r.produces for r in BOARD.regions.values())
        assert any(kind in r.demand for r in BOARD.regions.values())


# --------------------------------------------------------------------------
# The rulebook's named regions and examples
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Central Rif", "Antioquia", "Southwest", "Appalachia", "Bolivia", "Buenos Aires",
                                  "UK", "Panama", "Egypt", "Cape Town", "Jakarta"])
def test_every_region_the_rulebook_names_exists(name):
    assert region(name)


def test_antioquia_spelling_variant_is_noted():
    # Rule 1 spells it "Antiquia"
    (raw,) = [r for r in board_data()["regions"] if r["name"] == "Antioquia"]
    assert "Antiquia" in raw["note"]


def test_central_rif_and_antioquia_share_the_atlantic():
    # Druglord 1 (3 Region Starting Empire): "Central Rif and Antiquia both share Ports on the Atlantic Ocean, allowing for Sea Trades (Rule 5.C.)"
    assert "atlantic" in region("Central Rif").ports and "atlantic" in region("Antioquia").ports
    assert "atlantic" in sea_oceans(BOARD, rid("Central Rif"), rid("Antioquia"), NONE)


def test_southwest_has_extra_weight_value_and_the_rif_and_antioquia_high_supply_capacity():
    # Druglord 1: "The additional Weight Value on Southwest gives flexibility with the high Supply Capacity of the other 2 Regions."
    southwest, rif, antioquia = region("Southwest"), region("Central Rif"), region("Antioquia")
    assert southwest.wv > southwest.sc
    assert rif.sc == antioquia.sc == 4 and rif.sc > rif.wv and antioquia.sc > antioquia.wv
    assert southwest.wv + rif.wv + antioquia.wv <= southwest.sc + rif.sc + antioquia.sc   # the excess fits


@pytest.mark.parametrize("name", ["Central Rif", "Antioquia", "Southwest"])
def test_the_starting_empire_all_allow_domestic_trade(name):
    # Druglord 1: "All 3 cards allow for Domestic Trade (Rule 5.A.)"; 5.A: "supplying at least 2 of one kind of weight, with a market for same"
    r = region(name)
    assert r.sc >= 2 and set(r.produces) & set(r.demand)


def test_southwest_has_the_largest_demand():
    # Druglord 1: "The large Demand in Southwest invites Trade from all over"
    totals = {r.name: sum(r.demand.values()) for r in BOARD.regions.values()}
    assert totals["Southwest"] == max(totals.values())
    assert set(region("Southwest").demand) == set(WEIGHT_TYPES)


def test_appalachia_is_in_the_flyover_states():
    # Druglord 5.B: "Appalachia ... may Land trade with all Regions within its Zone (FS: Flyover States)"
    assert zone_of(BOARD, rid("Appalachia")) == "FS"


def test_bolivia_is_landlocked_and_borders_the_atlantic_port_buenos_aires():
    # Druglord 5.D: "the player controls Bolivia and Buenos Aires, which has a port on the Atlantic Ocean"
    assert region("Bolivia").ports == ()
    assert rid("Buenos Aires") in neighbours(BOARD, rid("Bolivia"))
    assert "atlantic" in region("Buenos Aires").ports


def test_the_four_interoceanic_ports():
    # Druglord 5.C: "4 Regions (Panama, Egypt, Cape-town, and Jakarta ...) connect multiple Oceans"
    links = {r.name: set(r.interoceanic) for r in BOARD.regions.values() if r.interoceanic}
    assert links == {"Panama": {"atlantic", "pacific"}, "Egypt": {"atlantic", "indian"},
                     "Cape Town": {"atlantic", "indian"}, "Jakarta": {"indian", "pacific"}}


def test_multi_ocean_regions_without_the_icon_do_not_link():
    # Druglord 5.C: "A Region bordering multiple Oceans ... must have the Interoceanic Icon ... to link Oceans"
    canada = rid("Canada")
    assert set(region("Canada").ports) == {"atlantic", "pacific"}
    assert sea_oceans(BOARD, rid("UK"), rid("Japan"), frozenset({canada})) == NONE


def test_the_uk_is_an_island():
    # 5.E names UK among the Air Trade routes; 5.B: "Island Regions may not Land Trade within their Zone"
    assert region("UK").island and neighbours(BOARD, rid("UK")) == NONE


# --------------------------------------------------------------------------
# Land Trade (5.B)
# --------------------------------------------------------------------------

FS = set(regions_in_zone(BOARD, "FS"))
APPALACHIA = "FS1"


def test_appalachia_land_trades_with_its_whole_zone_and_its_borders():
    # 5.B example: "Appalachia ... may Land trade with all Regions within its Zone (FS: Flyover States)"
    reach = {b for b in BOARD.regions if land_trade(BOARD, APPALACHIA, b, NONE)}
    assert reach == (FS - {APPALACHIA}) | neighbours(BOARD, APPALACHIA)


def test_appalachia_extended_land_trades_with_every_region_bordering_the_zone():
    # 5.B example: "... and Extended Land Trade to all Regions bordering this Zone"
    bordering_zone = {n for f in FS for n in neighbours(BOARD, f)} - FS
    extended = {b for b in BOARD.regions if extended_land_trade(BOARD, APPALACHIA, b, NONE)}
    assert extended == bordering_zone - neighbours(BOARD, APPALACHIA)
    assert extended == {"NP1", "NP2", "NP3", "NP4", "MX1", "MX2", "MX4"}
    assert not extended_land_trade(BOARD, APPALACHIA, rid("Florida"), NONE)        # borders no FS region
    assert not extended_land_trade(BOARD, APPALACHIA, rid("New York"), NONE)       # a plain Land Trade


def test_an_opponent_blocks_the_only_same_zone_path():
    # 5.B: "... so long as ... an opponent does not occupy any intervening Regions"
    plains = rid("Great Plains")
    assert land_trade(BOARD, APPALACHIA, rid("Southwest"), NONE)
    assert not land_trade(BOARD, APPALACHIA, rid("Southwest"), frozenset({plains}))
    assert land_trade(BOARD, APPALACHIA, plains, frozenset({plains}))     # a shared border has nothing intervening
    assert land_trade(BOARD, APPALACHIA, rid("Great Lakes"), frozenset({plains}))


def test_any_open_path_will_do():
    # ruling: some path whose intermediates are free, not only the shortest one
    assert land_trade(BOARD, rid("Rocky Mountains"), rid("Texas"), frozenset({rid("Great Plains")}))   # via Southwest
    assert not land_trade(BOARD, rid("Rocky Mountains"), rid("Texas"), frozenset({rid("Great Plains"), rid("Southwest")}))


def test_the_opponent_blocks_the_extended_trade_too():
    # ruling (rules-gaps 4): the path to the zone's edge obeys the same blocking
    blocked = frozenset({rid("Great Plains")})
    extended = {b for b in BOARD.regions if extended_land_trade(BOARD, APPALACHIA, b, blocked)}
    assert extended == {rid("Canada")}          # only through Great Lakes
    assert not extended_land_trade(BOARD, rid("Southwest"), rid("Canada"), frozenset({rid("Rocky Mountains"), rid("Great Plains")}))


def test_no_water_crossed_inside_a_zone():
    # 5.B: "... so long as no water is crossed"
    assert not land_trade(BOARD, rid("Central Rif"), rid("Egypt"), NONE)    # both ME, the Sahara is not in ME
    assert land_trade(BOARD, rid("Spain"), rid("Netherlands"), NONE)        # Spain-France-Belgium-Netherlands
    assert not land_trade(BOARD, rid("Spain"), rid("Netherlands"), frozenset({rid("France")}))


def test_islands_do_not_land_trade_within_their_zone():
    # 5.B: "Island Regions may not Land Trade within their Zone"
    for a, b in [("UK", "France"), ("Jamaica", "Hispaniola"), ("Jamaica", "Panama"), ("Japan", "Shanghai"),
                 ("Jakarta", "Thailand"), ("Australia", "Jakarta")]:
        assert zone_of(BOARD, rid(a)) == zone_of(BOARD, rid(b))
        assert not land_trade(BOARD, rid(a), rid(b), NONE) and not land_trade(BOARD, rid(b), rid(a), NONE)
        assert not extended_land_trade(BOARD, rid(a), rid("Germany"), NONE)


def test_land_trade_is_symmetric_and_never_to_itself():
    blocked = frozenset({"FS3", "ME4", "BR1"})
    for a, b in combinations(sorted(BOARD.regions), 2):
        assert land_trade(BOARD, a, b, blocked) == land_trade(BOARD, b, a, blocked)
    assert not land_trade(BOARD, APPALACHIA, APPALACHIA, NONE)


def test_unknown_region_is_a_key_error():
    with pytest.raises(KeyError, match="XX9"):
        land_trade(BOARD, "XX9", APPALACHIA, NONE)


# --------------------------------------------------------------------------
# Sea Trade (5.C) and Hybrid Trade (5.D)
# --------------------------------------------------------------------------

def test_sea_trade_needs_a_shared_ocean_or_a_controlled_interoceanic_port():
    # 5.C: Interoceanic Ports "expand Sea Trade for anyone controlling those Regions"
    antioquia, cali, panama = rid("Antioquia"), rid("Cali"), rid("Panama")
    assert sea_oceans(BOARD, antioquia, cali, NONE) == NONE
    assert sea_oceans(BOARD, antioquia, cali, frozenset({panama})) == {"atlantic", "pacific"}
    assert sea_oceans(BOARD, rid("Spain"), rid("India"), frozenset({rid("Egypt")})) == {"atlantic", "indian"}
    assert sea_oceans(BOARD, rid("Spain"), rid("India"), frozenset({rid("Cape Town")})) == {"atlantic", "indian"}
    assert sea_oceans(BOARD, rid("India"), rid("Japan"), frozenset({rid("Jakarta")})) == {"indian", "pacific"}


def test_interoceanic_links_chain():
    spain, japan = rid("Spain"), rid("Japan")
    assert sea_oceans(BOARD, spain, japan, frozenset({rid("Cape Town")})) == NONE
    assert sea_oceans(BOARD, spain, japan, frozenset({rid("Cape Town"), rid("Jakarta")})) == {"atlantic", "pacific"}


def test_the_caspian_is_its_own_sea():
    caspian_ports = {r.name for r in BOARD.regions.values() if "caspian" in r.ports}
    assert caspian_ports == {"Russia", "Central Asia", "Iran"}
    every_link = frozenset(r.id for r in BOARD.regions.values() if r.interoceanic)
    assert sea_oceans(BOARD, rid("Central Asia"), rid("Italy"), every_link) == NONE
    assert sea_oceans(BOARD, rid("Central Asia"), rid("Iran"), NONE) == {"caspian"}


def test_landlocked_regions_cannot_sea_trade():
    # 5.C: "Landlocked Regions must Trade via other means"
    assert sea_oceans(BOARD, rid("Bolivia"), rid("Buenos Aires"), frozenset({rid("Bolivia"), rid("Buenos Aires")})) == NONE


def test_same_zone_coastal():
    # 5.C: "Coastal Regions within the same Zone succeed on a roll of 2 or higher"
    assert same_zone_coastal(BOARD, rid("Central Rif"), rid("Egypt"))
    assert same_zone_coastal(BOARD, rid("Antioquia"), rid("Venezuela"))
    assert not same_zone_coastal(BOARD, rid("Antioquia"), rid("Cali"))           # Atlantic vs Pacific
    assert not same_zone_coastal(BOARD, rid("Bolivia"), rid("Lima"))             # Bolivia is landlocked
    assert not same_zone_coastal(BOARD, rid("Central Rif"), rid("Antioquia"))    # different zones


def test_bolivia_hybrid_trades_through_buenos_aires():
    # Druglord 5.D example: "the player controls Bolivia and Buenos Aires, which has a port on the Atlantic Ocean"
    bolivia, buenos_aires, uk = rid("Bolivia"), rid("Buenos Aires"), rid("UK")
    mine = frozenset({bolivia, buenos_aires})
    assert hybrid_ports(BOARD, bolivia, uk, mine) == {"atlantic"}
    assert hybrid_ports(BOARD, uk, bolivia, mine) == {"atlantic"}          # a landlocked destination
    assert hybrid_ports(BOARD, bolivia, uk, frozenset({bolivia})) == NONE  # ruling: the port must be the trader's


def test_hybrid_uses_whichever_controlled_port_reaches():
    bolivia, japan = rid("Bolivia"), rid("Japan")
    assert hybrid_ports(BOARD, bolivia, japan, frozenset({bolivia, rid("Buenos Aires")})) == NONE
    assert hybrid_ports(BOARD, bolivia, japan, frozenset({bolivia, rid("Chile")})) == {"pacific"}
    assert hybrid_ports(BOARD, bolivia, japan, frozenset({bolivia, rid("Buenos Aires"), rid("Panama")})) == {"atlantic", "pacific"}


def test_hybrid_is_one_land_leg_and_one_sea_leg():
    mine = frozenset(BOARD.regions)
    assert hybrid_ports(BOARD, rid("Bolivia"), rid("Appalachia"), mine) == NONE     # both landlocked
    assert hybrid_ports(BOARD, rid("Chile"), rid("Japan"), mine) == NONE            # both coastal: Sea Trade


def test_coastal_regions_on_an_ocean():
    # 5.C re-rolls: "For every 2 additional Coastal Regions sharing an Ocean"
    mine = frozenset({rid("Central Rif"), rid("Antioquia"), rid("Southwest"), rid("Panama"), rid("Cali")})
    assert coastal_regions_on(BOARD, "atlantic", mine) == tuple(sorted({rid("Central Rif"), rid("Antioquia"), rid("Panama")}))
    assert coastal_regions_on(BOARD, "pacific", mine) == tuple(sorted({rid("Panama"), rid("Cali")}))
    assert coastal_regions_on(BOARD, "caspian", mine) == ()
    with pytest.raises(ValueError):
        coastal_regions_on(BOARD, "arctic", mine)


# --------------------------------------------------------------------------
# Violence (9)
# --------------------------------------------------------------------------

def test_appalachia_attackers_and_targets():
    # Druglord 9: "The attacking Region must border the Region to be Attacked, or be within the same Zone and not cross more than 1 unoccupied space."
    targets = {b for b in BOARD.regions if violence_range(BOARD, APPALACHIA, b, NONE)}
    assert targets == (FS - {APPALACHIA}) | neighbours(BOARD, APPALACHIA)
    assert all(violence_range(BOARD, b, APPALACHIA, NONE) for b in targets)


def test_violence_crosses_at_most_one_unoccupied_space():
    florida, new_york = rid("Florida"), rid("New York")       # Florida-Southeast-Mid-Atlantic-New York
    assert not violence_range(BOARD, florida, new_york, NONE)
    assert violence_range(BOARD, florida, new_york, frozenset({rid("Mid-Atlantic")}))
    assert violence_range(BOARD, florida, new_york, frozenset({rid("Southeast"), rid("Mid-Atlantic")}))
    assert violence_range(BOARD, florida, rid("Mid-Atlantic"), NONE)


def test_violence_needs_a_border_outside_the_zone():
    assert not violence_range(BOARD, APPALACHIA, rid("Sonora"), NONE)
    assert violence_range(BOARD, rid("Bolivia"), rid("Buenos Aires"), NONE)


def test_islands_fight_across_their_own_zone_by_sea():
    # ruling: Rule 9 has no island exception, so an island reaches its zone's regions on a shared ocean
    assert violence_range(BOARD, rid("UK"), rid("France"), NONE)
    assert violence_range(BOARD, rid("Jamaica"), rid("Hispaniola"), NONE)
    assert not violence_range(BOARD, rid("Jamaica"), rid("Florida"), NONE)          # another zone
    assert not violence_range(BOARD, rid("Central Rif"), rid("Egypt"), NONE)        # neither is an island: no land path


# --------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------

def test_board_data_round_trips():
    assert load_board(board_data()) == BOARD


def _broken(change) -> dict:
    data = copy.deepcopy(board_data())
    change(data)
    return data


@pytest.mark.parametrize("change,message", [
    (lambda d: d["regions"].pop(), "73 regions"),
    (lambda d: d["regions"][0].update(number=9), "id must be zone"),
    (lambda d: d["regions"][0].update(zone="HB", id="HB1", number=1), "not a card zone"),
    (lambda d: d["regions"].append(dict(d["regions"][0])), "duplicate"),
    (lambda d: d["regions"][0].update(produces=["meth"]), "bad produces"),
    (lambda d: d["regions"][0].update(ports=["arctic"]), "unknown ocean"),
    (lambda d: d["regions"][0].update(demand={"reefer": 0}), "demand"),
    (lambda d: d["regions"][1].update(interoceanic=["atlantic", "indian"]), "interoceanic"),
    (lambda d: d["borders"].append(["AE1", "AE2"]), "forbidden"),
    (lambda d: d["borders"].append(["AE1", "AE3"]), "share no land"),
    (lambda d: d["borders"].append(["FS1", "ZZ1"]), "unknown region"),
    (lambda d: d["borders"].append(["FS1", "FS2"]), "listed twice"),
    (lambda d: d["borders"].append(["FS1", "FS1"]), "itself"),
    (lambda d: d["zones"].pop("HB"), "HB"),
    (lambda d: [r.update(sc=4, produces=["cocaine"]) for r in d["regions"][:10]], "cocaine"),
])
def test_load_board_rejects_bad_data(change, message):
    with pytest.raises(ValueError, match=message):
        load_board(_broken(change))


# --------------------------------------------------------------------------
# The reconstructed world's documentation
# --------------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "druglord-board.md"
TYPE_ABBR = {"reefer": "R", "pills": "P", "cocaine": "C", "opiates": "O"}
OCEAN_ABBR = {"atlantic": "A", "pacific": "P", "indian": "I", "caspian": "C"}


def test_the_board_doc_shows_every_region_as_the_data_has_it():
    text = DOC.read_text(encoding="utf-8")
    assert "Reconstructed, not from the publisher" in text
    for r in BOARD.regions.values():
        demand = ", ".join(f"{TYPE_ABBR[t]}{r.demand[t]}" for t in WEIGHT_TYPES if t in r.demand)
        ports = " ".join(OCEAN_ABBR[o] for o in r.ports) or "L"
        produces = " ".join(TYPE_ABBR[t] for t in r.produces)
        assert f"| {r.id} | {r.name} | {r.wv} | {r.sc} | {produces} | {ports} | {demand} |" in text, r.id
        borders = ", ".join(f"{BOARD.regions[n].name} ({n})"
                            for n in sorted(BOARD.borders[r.id], key=lambda n: (BOARD.regions[n].zone != r.zone, n)))
        assert f"| {r.id} | {r.name} | {borders or '(none)'} |" in text, r.id


# -- Map coordinates (reconstructed, docs/rules/druglord-board.md "Map coordinates") ---------------
def test_every_region_has_drawing_coordinates_and_they_stay_out_of_the_digest():
    assert set(MAP["coordinates"]) == set(BOARD.regions)
    assert MAP["coordinates"]["FS5"][0] < MAP["coordinates"]["AS2"][0]  # the Southwest lies west of New York
    assert "map" not in board_data()  # drawing aids are not rules: the GameStarted digest ignores them
    data = json.loads(DATA_FILE.read_text())
    del data["map"]["coordinates"]["FS5"]
    with pytest.raises(ValueError, match="FS5"):
        load_map(data, BOARD)


@pytest.mark.parametrize("version", sorted(BOARDS))
def test_routes_and_range_are_cached_on_the_regions_that_can_change_them(version):
    # geo.routes and geo.in_range cut who holds what down to the regions near the two ends (their zones,
    # borders, the interoceanic ports) before caching: the answer must be the one the whole board gives.
    from rules.base import Rng
    from rules.druglord import geo
    regions = sorted(BOARDS[version].regions)
    rng = Rng("near-regions", version)
    for _ in range(60):
        held = rng.shuffled(regions)[:rng.randint(4, 60)]
        mine = frozenset(held[:len(held) // 3])
        theirs = frozenset(held[len(held) // 3:])
        ends = list(mine) + rng.shuffled(regions)[:4]
        for a in ends[:8]:
            for b in ends[:8]:
                if a != b:
                    assert geo.routes(a, b, theirs, mine, version) == \
                        geo.routes_on_board(a, b, theirs, mine, version), (a, b, sorted(mine), sorted(theirs))
                    assert geo.in_range(a, b, mine | theirs, version) == \
                        geo.violence_range(geo.board_at(version), a, b, mine | theirs)
