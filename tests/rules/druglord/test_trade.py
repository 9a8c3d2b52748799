"""Druglord Rule 5 Move Weight (5.A-5.E), Rule 6 Scoring and the Rule 7 Traphouse export."""
from __future__ import annotations

from rules.base import Rng
from rules.druglord import trade as trades
from tests.rules.druglord.support import (
    D,
    dice,
    ev,
    first,
    given,
    legal,
    new_game,
    play,
    put,
    refused,
    stash,
    store,
    table,
    trade,
    types,
    with_cases,
)


def routes_to(state, seat, source, to):
    return sorted({m["route"] for m in legal(state, seat) if m["type"] == "Trade" and m["from"] == source
                   and m["to"] == to})


# --- 5.A Domestic --------------------------------------------------------------------------------------

def test_domestic_trade_is_two_to_one_and_succeeds_on_2():
    # Druglord 5.A: "Exchange is at a rate of 2 to 1. Succeeds on a roll of 2 or higher."
    state = put(table([["FS5"], ["AE1"]]), "FS5", "reefer", 2)   # Southwest grows and wants reefer
    assert routes_to(state, 0, "FS5", "FS5") == ["domestic"]
    events, after = play(state, 0, trade("FS5", "FS5", "domestic"), dice(2))
    assert types(events)[:3] == ["TradeDeclared", "DeclarationClosed", "RollCast"]
    done = first(events, "TradeSucceeded")
    assert done["held"] == 2 and done["stacks"] == 1
    assert after["players"][0]["score"] == 1                      # Rule 6: one stack per unit traded
    assert after["weight"]["FS5"]["reefer"] == 0 and after["supply"]["reefer"] == 58


def test_version_1_domestic_trade_natural_one_fails_and_is_one_case_per_unit_traded():
    # Druglord 5.A / 8: a 1 always fails; "An unsuccessful Trade becomes a Case, one per unit of Weight."
    # Version 1 counted the unit traded (2 lost, 1 Case); version 2 counts both units lost (test_rules_version_2).
    state = put(table([["FS5"], ["AE1"]], version=1), "FS5", "reefer", 2)
    events, after = play(state, 0, trade("FS5", "FS5", "domestic"), dice(1))
    assert first(events, "TradeFailed")["cases_added"] == 1
    assert after["players"][0]["cases"]["reefer"] == 1 and after["players"][0]["score"] == 0
    assert after["supply"]["reefer"] == 58                          # busted weight leaves the game board


def test_domestic_needs_two_units_and_local_demand():
    # Druglord 5.A: "Any Region supplying at least 2 of one kind of weight, with a market for same".
    state = put(table([["FS5", "AE4"], ["AE1"]]), "FS5", "reefer", 1)
    assert routes_to(state, 0, "FS5", "FS5") == []
    refused(state, 0, trade("FS5", "FS5", "domestic"), rule="5.A", match="at least 2")
    pills = put(table([["AE3"], ["AE1"]], wtype="pills"), "AE3", "pills", 2)  # Belgium: pills demand 1
    assert routes_to(pills, 0, "AE3", "AE3") == ["domestic"]
    no_market = put(table([["FS1"], ["AE1"]]), "FS1", "reefer", 2)            # Appalachia: no reefer market
    assert routes_to(no_market, 0, "FS1", "FS1") == []


def test_single_unit_is_stored_locally_and_combined_next_time():
    # Druglord 5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight
    # may be stored locally and combined with weight from subsequent turns".  Version 2 stored it for the player
    # (version 3 asks, and only for a Region of Weight Value 1: test_rules_version_3.py).
    state = put(table([["FS5"], ["AE1"]], version=2), "FS5", "reefer", 1)
    _, state = play(state, 0, {"type": "Pass"})
    events, state = play(state, 1, {"type": "Pass"})
    sweep = first(events, "PhaseEnded")["sweep"]
    assert sweep == [[0, "FS5", 0, 1]] and state["stored"]["FS5"]["reefer"] == 1
    later = put(table([["FS5"], ["AE1"]]), "FS5", "reefer", 1)
    later = store(later, "FS5", "reefer")
    events, after = play(later, 0, trade("FS5", "FS5", "domestic"), dice(3))
    assert first(events, "TradeSucceeded")["held"] == 2
    assert after["stored"]["FS5"]["reefer"] == 0 and after["weight"]["FS5"]["reefer"] == 0


def test_untraded_weight_goes_to_the_traphouse_at_the_end_of_its_phase():
    # Druglord 5 / 7: "Any Weight not traded may be moved to the Traphouse, for use in future Trades, or to modify
    # die rolls" -- done for the player at the end of the phase of that weight (rules-gaps 8).
    state = put(table([["FS1"], ["AE1"]]), "FS1", "reefer", 2)      # Appalachia has no reefer market
    _, state = play(state, 0, {"type": "Pass"})
    _, state = play(state, 1, {"type": "Pass"})
    assert state["weight"]["FS1"]["reefer"] == 0
    assert state["players"][0]["traphouse"]["reefer"] == 2 and state["wtype"] == "pills"


# --- 5.B Land -------------------------------------------------------------------------------------------

def test_land_trade_within_a_zone_succeeds_on_2():
    # Druglord 5.B: "Regions within the same Zone may also Land Trade ... Succeeds on a roll of 2 or higher."
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 2)   # Appalachia -> Southwest via Great Plains
    assert routes_to(state, 0, "FS1", "FS5") == ["land"]
    events, after = play(state, 0, trade("FS1", "FS5", "land", 2), dice(2))
    assert first(events, "TradeSucceeded")["stacks"] == 2 and after["players"][0]["score"] == 2


def test_land_trade_blocked_by_an_opponent_on_the_way():
    # Druglord 5.B: "so long as ... an opponent does not occupy any intervening Regions" -- Air is what is left.
    state = put(table([["FS1", "FS5"], ["FS3"]]), "FS1", "reefer", 1)   # seat 1 holds Great Plains
    assert routes_to(state, 0, "FS1", "FS5") == ["air"]
    refused(state, 0, trade("FS1", "FS5", "land"), rule="5.B")


def test_extended_land_trade_needs_3():
    # Druglord 5.B: "Regions bordering the Zone also may be Land traded with at +1 Penalty."
    state = put(table([["FS1", "NP4"], ["AE1"]]), "FS1", "reefer", 1)   # Southern California borders FS
    assert routes_to(state, 0, "FS1", "NP4") == ["extended"]
    events, _ = play(state, 0, trade("FS1", "NP4", "extended"), dice(2))
    assert first(events, "TradeDeclared")["target"] == 3 and "TradeFailed" in types(events)
    events, _ = play(state, 0, trade("FS1", "NP4", "extended"), dice(3))
    assert "TradeSucceeded" in types(events)


def test_islands_do_not_land_trade_but_sail_within_their_zone_on_2():
    # Druglord 5.B: "Island Regions may not Land Trade within their Zone." 5.C: "Coastal Regions within the same
    # Zone succeed on a roll of 2 or higher."
    state = put(table([["AE1", "AE2"], ["FS1"]]), "AE1", "reefer", 1)   # UK -> France
    assert routes_to(state, 0, "AE1", "AE2") == ["sea:atlantic"]
    events, _ = play(state, 0, trade("AE1", "AE2", "sea:atlantic"), dice(2))
    assert first(events, "TradeDeclared")["target"] == 2 and "TradeSucceeded" in types(events)


# --- 5.C Sea --------------------------------------------------------------------------------------------

def test_sea_trade_across_zones_needs_3():
    # Druglord 5.C: "Any 2 Regions sharing a common Ocean may move weight ... Sea Trades succeed on a roll of 3".
    state = put(table([["AE2", "AS2"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)   # France -> New York
    assert routes_to(state, 0, "AE2", "AS2") == ["sea:atlantic"]
    events, _ = play(state, 0, trade("AE2", "AS2", "sea:atlantic"), dice(2))
    assert first(events, "TradeDeclared")["target"] == 3
    assert first(events, "TradeFailed")["reroll_offered"] is False


def test_sea_reroll_for_every_two_additional_coastal_regions_once_per_turn():
    # Druglord 5.C: "For every 2 additional Coastal Regions sharing an Ocean, the Player may re-roll one failed
    # Sea Trade for that Ocean, per Turn."  Florida and Italy are 2 more Atlantic ports: one re-roll.
    state = put(table([["AE2", "AS2", "AS5", "ME2"], ["FS1"]], wtype="pills"), "AE2", "pills", 2)
    events, state = play(state, 0, trade("AE2", "AS2", "sea:atlantic"), dice(2))
    assert first(events, "TradeFailed")["reroll_offered"] is True
    assert legal(state, 0) == [{"type": "ReRoll"}, {"type": "AcceptBust"}]
    assert state["players"][0]["cases"]["pills"] == 0                     # not a Case yet
    events, state = play(state, 0, {"type": "ReRoll"}, dice(3))
    assert types(events)[:2] == ["RerollTaken", "DeclarationClosed"] and "TradeSucceeded" in types(events)
    assert state["players"][0]["score"] == 1 and state["players"][0]["cases"]["pills"] == 0
    events, state = play(state, 0, trade("AE2", "AS2", "sea:atlantic"), dice(2))
    assert first(events, "TradeFailed")["reroll_offered"] is False         # the one re-roll is used up
    assert state["players"][0]["cases"]["pills"] == 1


def test_sea_reroll_can_be_declined_and_expires_at_turn_end():
    # Druglord 5.C: "Any re-rolls expire at the end of the Turn."
    state = put(table([["AE2", "AS2", "AS5", "ME2"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)
    _, state = play(state, 0, trade("AE2", "AS2", "sea:atlantic"), dice(2))
    events, state = play(state, 0, {"type": "AcceptBust"})
    assert first(events, "BustAccepted")["cases_added"] == 1
    state = dict(state, rerolls=[{"atlantic": 1}, {}])
    assert given(state, ev("TurnStarted", turn=2))["rerolls"] == [{}, {}]


def test_too_few_extra_ports_give_no_reroll():
    # Druglord 5.C: one re-roll per 2 ADDITIONAL coastal regions (besides the two trading).
    state = put(table([["AE2", "AS2", "AS5"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)
    events, _ = play(state, 0, trade("AE2", "AS2", "sea:atlantic"), dice(1))
    assert first(events, "TradeFailed")["reroll_offered"] is False


# --- 5.D Hybrid, 5.E Air, 7 export ------------------------------------------------------------------------

def test_hybrid_trade_through_a_neighbouring_port_rolls_as_sea():
    # Druglord 5.D: "the player controls Bolivia and Buenos Aires, which has a port on the Atlantic Ocean ... This
    # Trade combines a Land Trade and a Sea Trade, but rolls as a Sea Trade."
    state = put(table([["PE4", "SA1", "AE5"], ["FS1"]], wtype="cocaine"), "PE4", "cocaine", 1)
    assert routes_to(state, 0, "PE4", "AE5") == ["hybrid:atlantic"]
    events, _ = play(state, 0, trade("PE4", "AE5", "hybrid:atlantic"), dice(3))
    assert first(events, "TradeDeclared")["target"] == 3 and "TradeSucceeded" in types(events)
    without_port = put(table([["PE4", "AE5"], ["FS1"]], wtype="cocaine"), "PE4", "cocaine", 1)
    assert routes_to(without_port, 0, "PE4", "AE5") == ["air"]


def test_air_trade_anywhere_needs_4_and_only_when_nothing_else_works():
    # Druglord 5.E: "Weight that can be moved via no other means can be flown between any 2 locations ...
    # Succeeds on a roll of 4 or higher."
    state = put(table([["AE1", "AR4"], ["FS1"]], wtype="pills"), "AE1", "pills", 1)   # UK -> Japan
    assert routes_to(state, 0, "AE1", "AR4") == ["air"]
    events, _ = play(state, 0, trade("AE1", "AR4", "air"), dice(3))
    assert first(events, "TradeDeclared")["target"] == 4 and "TradeFailed" in types(events)
    events, _ = play(state, 0, trade("AE1", "AR4", "air"), dice(4))
    assert "TradeSucceeded" in types(events)
    land = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 1)
    refused(land, 0, trade("FS1", "FS5", "air"), rule="5.E", match="no other means")


def test_traphouse_export_to_any_region_needs_4():
    # Druglord 7: "Traphouse weight can be exported to any Region during the corresponding phase, and succeeds on a
    # roll of 4 or more."
    state = stash(table([["AS2"], ["FS1"]], wtype="pills"), 0, "pills", 2)
    assert routes_to(state, 0, "traphouse", "AS2") == ["export"]
    events, state = play(state, 0, trade("traphouse", "AS2", "export"))
    assert first(events, "TradeDeclared")["target"] == 4
    assert D.awaiting(state) == {0: "move"}                 # 1 pill left: seat 0 may Sway with it first
    events, after = play(state, 0, {"type": "EndSway"}, dice(4))
    assert "TradeSucceeded" in types(events)
    assert after["players"][0]["traphouse"]["pills"] == 1 and after["players"][0]["score"] == 1


def test_exports_only_in_the_matching_phase():
    # Druglord 7: "... during the corresponding phase".
    state = stash(table([["AS2"], ["FS1"]], wtype="reefer"), 0, "pills", 2)
    assert routes_to(state, 0, "traphouse", "AS2") == []


# --- one action, one destination, demand ----------------------------------------------------------------

def test_several_rolls_to_one_destination_in_one_action():
    # Druglord 5: "Multiple Trades to the same destination can be attempted, 1 roll per attempt. Weight of a similar
    # type may be moved together on one Trade Roll, or as a series of individual rolls."
    state = put(put(table([["FS1", "FS5", "FS6"], ["AE1"]]), "FS1", "reefer", 1), "FS6", "reefer", 2)
    _, state = play(state, 0, trade("FS1", "FS5", "land"), dice(2))
    assert state["action"]["kind"] == "move" and state["action"]["to"] == "FS5"
    assert {m["to"] for m in legal(state, 0) if m["type"] == "Trade"} == {"FS5"}
    refused(state, 0, trade("FS6", "FS6", "domestic"), rule="5", match="one destination")
    events, state = play(state, 0, trade("FS6", "FS5", "land", 2), dice(5))
    assert first(events, "TradeSucceeded")["stacks"] == 2
    # Southwest wanted 3 reefer: its Demand is met, so the action ends by itself
    assert "ActionEnded" in types(events) and state["pos"] == 1


def test_demand_caps_units_received_per_turn():
    # Druglord 5 / rules-gaps 5: Demand d = at most d units of that type received per turn.
    state = put(table([["AE2", "AS2"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)
    state = stash(state, 0, "pills", 5)
    exports = [m["units"] for m in legal(state, 0) if m.get("route") == "export"]
    assert max(exports) == 2                                  # New York: pills demand 2
    refused(state, 0, trade("traphouse", "AS2", "export", 3), rule="5", match="takes only 2")


def test_crackdown_raises_the_roll_needed():
    # Druglord 8 Crackdown: "-1 Trade Roll penalty for most predominant type ... applied to all Regions".
    state = put(table([["FS5"], ["AE1"]]), "FS5", "reefer", 2)
    state = dict(state, players=[dict(state["players"][0], crackdowns={"reefer": 1, "pills": 0, "cocaine": 0,
                                                                     "opiates": 0}), state["players"][1]],
                 dime_bags=9)
    events, _ = play(state, 0, trade("FS5", "FS5", "domestic"), dice(2))
    assert first(events, "TradeDeclared")["target"] == 3 and "TradeFailed" in types(events)


def test_trade_refusals_name_the_rule():
    state = put(table([["FS5", "FS1"], ["AE1"]]), "FS5", "reefer", 2)
    refused(state, 1, trade("FS5", "FS5", "domestic"), rule="5", match="seat 0's action")
    refused(state, 0, trade("FS5", "AE1", "air"), rule="5", match="not one of your regions")
    refused(state, 0, trade("FS5", "FS1", "land"), rule="5", match="no Demand for reefer")
    refused(state, 0, trade("FS5", "FS5", "domestic", 0), rule="5")
    refused(state, 0, trade("FS5", "FS5", "teleport"), match="unknown route")


def test_units_each_become_a_case_when_a_roll_of_several_fails():
    # Druglord 5: "An unsuccessful Trade becomes a Case (Rule 8.), one per unit of Weight."
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 2)
    events, state = play(state, 0, trade("FS1", "FS5", "land", 2), dice(1))
    assert first(events, "TradeFailed")["cases_added"] == 2 and state["players"][0]["cases"]["reefer"] == 2


def test_score_counts_every_unit_delivered():
    # Druglord 6: "Successfully moved Weight advances a player's Score Marker on the racetrack by one stack."
    state = with_cases(put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 2), 0, "pills", 1)
    _, state = play(state, 0, trade("FS1", "FS5", "land", 2), dice(9))
    assert state["players"][0]["score"] == 2


def test_an_interoceanic_port_of_yours_links_its_oceans():
    # Druglord 5.C: "4 Regions (Panama, Egypt, Cape-town, and Jakarta ...) connect multiple Oceans, and expand Sea
    # Trade for anyone controlling those Regions."
    state = put(table([["AE2", "NP4", "CA3"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)   # France -> S. Calif.
    assert routes_to(state, 0, "AE2", "NP4") == ["sea:atlantic", "sea:pacific"]
    without = put(table([["AE2", "NP4"], ["CA3"]], wtype="pills"), "AE2", "pills", 1)
    assert routes_to(without, 0, "AE2", "NP4") == ["air"]


def test_hybrid_through_a_port_of_the_same_zone_needs_only_2():
    # Druglord 5.D "rolls as a Sea Trade" and 5.C "Coastal Regions within the same Zone succeed on a roll of 2".
    state = put(table([["PE2", "PE1", "PE5"], ["FS1"]], wtype="cocaine"), "PE2", "cocaine", 1)  # Huallaga via Ecuador
    needs = {m["route"]: first(D.decide(state, 0, m, dice(9)), "TradeDeclared")["target"]
             for m in legal(state, 0) if m["type"] == "Trade" and m["from"] == "PE2" and m["to"] == "PE5"}
    assert needs == {"land": 2, "hybrid:pacific": 2}


def test_every_route_and_unit_count_is_listed():
    # Druglord 5: "Weight of a similar type may be moved together on one Trade Roll, or as a series of individual
    # rolls" -- every unit count from 1 to what the source holds and the destination takes.
    state = put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 3)
    assert [m["units"] for m in legal(state, 0) if m["type"] == "Trade" and m["from"] == "FS1"] == [1, 2, 3]


def test_a_seat_can_trade_exactly_while_a_trade_is_listed():
    # Druglord 5: a Move Weight action with nothing left to trade ends by itself (action_step asks
    # can_trade, which finds no routes: "If weight can be moved via no other means", Air Trade joins
    # any two regions, so weight and a destination with room are enough).  Checked on random games.
    asked = traded = 0
    for game in range(4):
        state = new_game(4, seed=f"can-trade-{game}")
        for step in range(2500):
            if D.outcome(state) is not None:
                break
            if state["phase"] == "action" and state["roll"] is None:
                for seat in range(4):
                    found = trades.options(dict(state), seat)       # a fresh state: nothing kept
                    assert trades.can_trade(state, seat) == bool(found), (game, step, seat)
                    asked, traded = asked + 1, traded + bool(found)
            seat = min(D.awaiting(state))
            _, state = play(state, seat, D.bot_move(state, seat, "random", Rng(f"can-trade-{game}", step)))
    assert asked > 1000 and 0 < traded < asked
