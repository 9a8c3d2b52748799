"""Kingpin "Special Cards": Cop, Hit Man, Immunity, Regulator, and their response windows."""
from __future__ import annotations

from tests.rules.kingpin.support import (
    K,
    cash,
    ev,
    game_with_first,
    given,
    legal,
    next_turn,
    play,
    refused,
    rolled,
    take,
    types,
)

COP, HIT = "Special Cards: Cop", "Special Cards: Hit Man"
REG, IMM = "Special Cards: Regulator", "Special Cards: Immunity"


def armed(kind: str, money0: int = 1000, money1: int = 0, extra1: tuple = ()):
    """Seat 0 owns a ready (waited a turn) special card of `kind`, and has rolled; seat 1 may own extras."""
    state = game_with_first(0)
    state, card = take(state, 0, kind)
    extras = []
    for k in extra1:
        state, c = take(state, 1, k)
        extras.append(c)
    state = next_turn(next_turn(state))
    state = cash(cash(state, 0, money0), 1, money1)
    return rolled(state, [4, 4]), card, extras


# --- Special Cards (general) ------------------------------------------------------------------------

def test_special_cards_wait_a_turn_before_use_against_another_player():
    # Kingpin "Special Cards": "All Special cards must wait a turn after purchase before they can be used".
    state = cash(game_with_first(0), 0, 1000)
    _, state = play(state, 0, {"type": "PurchaseCard", "kind": "cop"})
    state = rolled(state, [4, 4, 4])  # bought before the roll: active, it added a die
    refused(state, 0, {"type": "UseCop", "cop": "cop-1", "target": "junkie200-2"}, rule="Special Cards",
            match="wait a turn")
    state = next_turn(next_turn(state))
    state = rolled(state, [1, 1])
    assert {"type": "UseCop", "cop": "cop-1", "target": "junkie200-2"} in legal(state, 0)


def test_special_cards_only_on_your_turn():
    # Kingpin "Special Cards": "You may only use a Special Card on your turn."
    state, cop, _ = armed("cop")
    state = next_turn(state)
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"}, match="seat 1's turn")


def test_exhausted_special_cards_cannot_be_used_until_activated():
    # Kingpin "Special Cards": "...as long as they aren't Exhausted"; Cop: "reused only after Activating it again".
    state, cop, _ = armed("cop", money1=400)
    _, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"})
    _, state = play(state, 1, {"type": "AcceptJail"})
    assert state["cards"][cop]["exhausted"]
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "dealer3-2"}, match="Exhausted")


# --- Cop ----------------------------------------------------------------------------------------------

def test_cop_costs_200_and_the_target_may_bribe_the_cops_owner():
    # Kingpin "Special Cards: Cop": "Spend $200 to use a Cop ... A player may pay the bribe to the Cop's owner
    # instead of having their card placed in Jail."
    state, cop, _ = armed("cop", money0=1000, money1=400)  # seat 0: $1200, seat 1: $600
    state, j = take(state, 1, "junkie600")
    events, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": j})
    assert types(events) == ["CopUsed"]
    assert state["bankrolls"] == [1000, 600]
    assert K.awaiting(state) == {1: "response"}
    assert legal(state, 0) == []
    assert legal(state, 1) == [{"type": "BribeCop"}, {"type": "AcceptJail"}]
    assert K.on_timeout(state, 1) == {"type": "AcceptJail"}
    events, after = play(state, 1, {"type": "BribeCop"})
    assert types(events) == ["CopBribed"] and after["bankrolls"] == [1300, 300]
    assert after["cards"][j]["where"] == "play" and after["cards"][cop]["exhausted"]
    assert K.awaiting(after) == {0: "move"}


def test_cop_jails_and_a_jailed_junkies_money_returns_to_the_bank():
    # Kingpin "Jail": "When a Junkie is jailed, all of its money is returned to the general cash piles."
    state, cop, _ = armed("cop", money1=400)
    _, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"})
    events, state = play(state, 1, {"type": "AcceptJail"})
    assert types(events) == ["CardJailed"] and events[0].data["cash"] == 200
    assert state["cards"]["junkie200-2"]["where"] == "jail" and state["cards"]["junkie200-2"]["cash"] == 0
    assert K.invariants(state) == []


def test_cop_without_a_choice_for_the_target_jails_at_once():
    # rules-gaps 2.9: a window only opens when the target can bribe (or block); otherwise straight to Jail.
    state, cop, _ = armed("cop", money1=0)  # seat 1 has $200 < $300 bribe
    events, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"})
    assert types(events) == ["CopUsed", "CardJailed"]
    assert state["window"] is None


def test_cop_cannot_jail_supply_trucks_or_a_last_dealer_but_can_jail_specials():
    # Kingpin "Special Cards: Cop": "Cops can not be used on Supply Trucks." "Initial Setup": a player can
    # never be without a Supply Truck or a Dealer.
    state, cop, (hitman,) = armed("cop", extra1=("hitman",))
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "truck3-2"}, rule=COP, match="Supply Truck")
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "dealer3-2"}, rule="Initial Setup",
            match="last Dealer")
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-1"}, match="another player's")
    assert {"type": "UseCop", "cop": cop, "target": hitman} in legal(state, 0)
    state, d6 = take(state, 1, "dealer6")
    assert {"type": "UseCop", "cop": cop, "target": "dealer3-2"} in legal(state, 0)


def test_cop_needs_200():
    # Kingpin "Special Cards: Cop": "Spend $200 to use a Cop".
    state, cop, _ = armed("cop", money0=0)
    state = given(state, ev("CardPurchased", seat=0, kind="junkie200", card="junkie200-3", price=200))
    refused(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"}, rule=COP,
            match="you have $0 but using a Cop costs $200")


# --- Immunity -----------------------------------------------------------------------------------------

def test_immunity_blocks_a_cop_at_any_time_and_is_exhausted():
    # Kingpin "Special Cards: Immunity": prevent the effect of one action caused by another Special Card;
    # usable at any time (here: a response on the opponent's turn, the turn it was bought).
    state, cop, (imm,) = armed("cop", extra1=("immunity",))
    _, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"})
    assert {"type": "UseImmunity", "card": imm} in legal(state, 1)
    events, state = play(state, 1, {"type": "UseImmunity", "card": imm})
    assert types(events) == ["ImmunityUsed"]
    assert state["cards"]["junkie200-2"]["where"] == "play"
    assert state["cards"][imm]["exhausted"] and state["cards"][cop]["exhausted"]
    assert state["bankrolls"][0] == 1000  # the Cop's $200 is spent anyway


def test_immunity_only_when_something_is_aimed_at_you():
    # Kingpin "Special Cards: Immunity": it blocks "attacks from other players"; here nothing is aimed at seat 1.
    state, cop, (imm,) = armed("cop", extra1=("immunity",))
    refused(state, 1, {"type": "UseImmunity", "card": imm}, rule=IMM)


# --- Hit Man ------------------------------------------------------------------------------------------

def test_hit_man_removes_the_card_and_the_bounty_goes_to_the_bank():
    # Kingpin "Special Cards: Hit Man": "Exhausted to eliminate another player's card from the game for the
    # bounty listed"; "The final bounty is paid the bank and the target is removed from the game."
    state, hm, _ = armed("hitman", money0=1000, money1=0)
    events, state = play(state, 0, {"type": "UseHitMan", "hitman": hm, "target": "junkie200-2"})
    assert types(events) == ["HitManUsed", "CardEliminated"]  # seat 1 cannot double ($200 < $1000)
    assert events[1].data["paid_by"] == 0 and events[1].data["bounty"] == 500
    assert state["bankrolls"] == [700, 200]
    assert state["cards"]["junkie200-2"]["where"] == "removed"
    assert state["cards"][hm]["exhausted"]


def test_hit_man_bounty_doubles_back_and_forth_and_the_last_targeter_pays():
    # Kingpin "Special Cards: Hit Man": "Each time a player is targeted the owner of the targeted card can
    # double the bounty to target an attacker's card instead."
    state, hm, (j1,) = armed("hitman", money0=3000, money1=1800, extra1=("junkie600",))
    state, j0 = take(state, 0, "junkie400")
    _, state = play(state, 0, {"type": "UseHitMan", "hitman": hm, "target": j1})
    assert K.awaiting(state) == {1: "response"}
    assert {"type": "AcceptHit"} in legal(state, 1)
    assert {"type": "DoubleBounty", "target": "truck3-1"} not in legal(state, 1)
    refused(state, 1, {"type": "DoubleBounty", "target": "truck3-1"}, rule=HIT, match="Supply Truck")
    events, state = play(state, 1, {"type": "DoubleBounty", "target": j0})
    assert types(events) == ["BountyDoubled"] and state["window"]["bounty"] == 1000
    assert K.awaiting(state) == {0: "response"}
    # seat 1 has $2000 < $4000 and no Immunity: nothing left to decide, the hit resolves at once
    events, state = play(state, 0, {"type": "DoubleBounty", "target": j1})
    assert types(events) == ["BountyDoubled", "CardEliminated"]
    assert events[1].data["paid_by"] == 0 and events[1].data["bounty"] == 2000
    assert state["cards"][j1]["where"] == "removed" and state["cards"][j0]["where"] == "play"
    assert state["bankrolls"] == [1200, 2000]
    assert K.invariants(state) == []


def test_accepting_a_redirected_hit_makes_the_redirector_pay():
    # Kingpin "Special Cards: Hit Man": "The final bounty is paid the bank" — by whoever targeted last (rules-gaps 2.8).
    state, hm, (j1,) = armed("hitman", money0=2000, money1=1000, extra1=("junkie600",))
    state, j0 = take(state, 0, "junkie400")
    _, state = play(state, 0, {"type": "UseHitMan", "hitman": hm, "target": j1})
    _, state = play(state, 1, {"type": "DoubleBounty", "target": j0})
    assert legal(state, 0)[0] == {"type": "AcceptHit"}
    assert {"type": "DoubleBounty", "target": j1} in legal(state, 0)  # $2200 covers $2000
    assert K.on_timeout(state, 0) == {"type": "AcceptHit"}
    events, state = play(state, 0, {"type": "AcceptHit"})
    assert events[0].data == {"card": j0, "owner": 0, "paid_by": 1, "bounty": 1000, "cash": 400, "hits": 0}
    assert state["bankrolls"] == [2200, 200]


def test_hit_man_never_targets_supply_trucks_or_a_last_dealer():
    # Kingpin "Special Cards: Hit Man": "A Hit Man cannot be used to eliminate a Supply Truck."
    state, hm, _ = armed("hitman")
    refused(state, 0, {"type": "UseHitMan", "hitman": hm, "target": "truck3-2"}, rule=HIT)
    refused(state, 0, {"type": "UseHitMan", "hitman": hm, "target": "dealer3-2"}, rule="Initial Setup")


def test_immunity_stops_a_hit_and_nobody_pays_the_bounty():
    # rules-gaps 2.8 ruling: Immunity ends the chain; the card stays; no bounty is paid.
    state, hm, (imm,) = armed("hitman", extra1=("immunity",))
    _, state = play(state, 0, {"type": "UseHitMan", "hitman": hm, "target": "junkie200-2"})
    events, state = play(state, 1, {"type": "UseImmunity", "card": imm})
    assert state["cards"]["junkie200-2"]["where"] == "play"
    assert state["bankrolls"][0] == 1200 and state["cards"][hm]["exhausted"]


def test_eliminated_dealer_loses_its_hits():
    # Kingpin "Special Cards: Hit Man": the target "is removed from the game" (its Hits go with it).
    state, hm, (d6,) = armed("hitman", extra1=("dealer6",))
    state = given(state, ev("DistributionStarted", seat=1, truck="truck3-2", hits=3),
                  ev("HitsPlaced", seat=1, dealer=d6, hits=3), ev("DistributionFinished", seat=1, discarded=0))
    events, state = play(state, 0, {"type": "UseHitMan", "hitman": hm, "target": d6})
    assert events[-1].data["hits"] == 3 and state["cards"][d6]["hits"] == 0


# --- Regulator ----------------------------------------------------------------------------------------

def test_regulator_blocks_one_shipment_per_turn_of_its_target():
    # Kingpin "Special Cards: Regulator": "prevents the player targeted from using a roll of a [1] as a
    # Shipment action once per turn."
    state, reg, _ = armed("regulator", money1=0)
    events, state = play(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1})
    assert types(events) == ["RegulatorPlaced", "RegulatorAccepted"]  # seat 1 cannot bribe: no window
    state = next_turn(state)
    state, truck4 = take(state, 1, "truck4")
    state = given(state, ev("DistributionStarted", seat=1, truck="truck3-2", hits=3),
                  ev("DistributionFinished", seat=1, discarded=3))
    state = rolled(state, [1, 1, 1])
    events, state = play(state, 1, {"type": "Ship", "truck": "truck3-2"})
    assert types(events) == ["DiceUsed", "ShipmentBlocked"] and state["cards"]["truck3-2"]["hits"] == 0
    events, state = play(state, 1, {"type": "Ship", "truck": "truck3-2"})
    assert types(events) == ["DiceUsed", "ShipmentMade"]
    events, state = play(state, 1, {"type": "Ship", "truck": truck4})
    assert types(events) == ["DiceUsed", "ShipmentMade"]


def test_regulator_is_not_exhausted_by_use_only_by_a_bribe_or_chloroform():
    # Kingpin "Special Cards: Regulator" says both "A Regulator is only Exhausted if it is bribed (pay to the
    # owner) or chloroformed (pay to the bank)." and "Exhaust (flip card over) after use."  Ruling (issue 9, item
    # 11; docs/rules/kingpin.md Changelog): the specific "only" wins, in every rules version.
    for version in (1, 2):
        state, reg, _ = armed("regulator", money1=0)
        assert state["rules_version"] == 2
        if version == 1:
            state = dict(state, rules_version=1)
        _, state = play(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1})
        state = given(next_turn(state), ev("DistributionStarted", seat=1, truck="truck3-2", hits=3),
                      ev("DistributionFinished", seat=1, discarded=3))   # an empty truck to ship onto
        state = rolled(state, [1])
        events, state = play(state, 1, {"type": "Ship", "truck": "truck3-2"})
        assert types(events) == ["DiceUsed", "ShipmentBlocked"]
        assert state["cards"][reg]["exhausted"] is False   # placed and used: still Active


def test_regulator_bribe_exhausts_it_and_pays_the_owner():
    # Kingpin "Special Cards: Regulator": "A Regulator is only Exhausted if it is bribed (pay to the owner)".
    state, reg, _ = armed("regulator", money1=400)
    events, state = play(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1})
    assert types(events) == ["RegulatorPlaced"] and K.awaiting(state) == {1: "response"}
    assert legal(state, 1) == [{"type": "AcceptRegulator"}, {"type": "BribeRegulator", "regulator": reg}]
    _, state = play(state, 1, {"type": "AcceptRegulator"})
    assert state["cards"][reg]["target"] == 1
    refused(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1}, rule=REG, match="already")
    state = next_turn(state)
    assert {"type": "BribeRegulator", "regulator": reg} in legal(state, 1)  # before rolling, on own turn
    events, state = play(state, 1, {"type": "BribeRegulator", "regulator": reg})
    assert state["bankrolls"] == [1500, 300]
    assert state["cards"][reg]["exhausted"] and state["cards"][reg]["target"] is None


def test_regulator_cannot_target_yourself_and_waits_a_turn():
    # Kingpin "Special Cards: Regulator": "Place Regulator next to another player to target them."
    state, reg, _ = armed("regulator")
    refused(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 0}, rule=REG)
    refused(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 5}, rule=REG)


def test_immunity_against_a_regulator_leaves_it_untargeted_and_active():
    # Kingpin "Special Cards: Immunity" vs a Regulator's placement (rules-gaps 2.11 ruling).
    state, reg, (imm,) = armed("regulator", extra1=("immunity",))
    _, state = play(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1})
    _, state = play(state, 1, {"type": "UseImmunity", "card": imm})
    assert state["cards"][reg]["target"] is None and not state["cards"][reg]["exhausted"]


def test_a_jailed_regulator_stops_targeting():
    # Kingpin "Jail" / rules-gaps 2.9 ruling: a jailed Regulator stops targeting (its chip comes off).
    state, reg, _ = armed("regulator")
    _, state = play(state, 0, {"type": "PlaceRegulator", "regulator": reg, "target": 1})
    state = given(state, ev("CardJailed", card=reg, owner=0, cash=0))
    assert state["cards"][reg]["target"] is None
