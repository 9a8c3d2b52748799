"""Kingpin "Roll Outcomes" (single, double, triple, quadruple) and "Purchasing Hits"."""
from __future__ import annotations

from tests.rules.kingpin.support import (
    K,
    cash,
    ev,
    first,
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

SINGLE = "Roll Outcomes: Single Die"


def start():
    """Seat 0 to move, starting cards: truck3-1 (3 Hits), dealer3-1, junkie200-1 ($200)."""
    return game_with_first(0)


# --- The dice pool --------------------------------------------------------------------------------------

def test_roll_one_die_per_basic_card_plus_active_special_cards():
    # Kingpin "Roll Outcomes": "Roll a number of dice equal to the number of Basic Cards plus all active
    # Special Cards in your empire."
    state = start()
    events, _ = play(state, 0, {"type": "RollDice"})
    assert types(events) == ["DiceRolled"] and len(events[0].data["dice"]) == 3
    state, cop = take(state, 0, "cop")
    state, _ = take(state, 0, "hitman")
    state = given(state, ev("CardChloroformed", seat=1, card="hitman-1", owner=0, cost=0))  # exhausted: no die
    assert len(play(state, 0, {"type": "RollDice"})[0][0].data["dice"]) == 4


def test_jailed_cards_add_no_dice():
    # Kingpin "Jail" / rules-gaps 2.9: jailed cards add no dice.
    state, junkie = take(start(), 0, "junkie400")
    state = given(state, ev("CardJailed", card=junkie, owner=0, cash=400))
    assert len(play(state, 0, {"type": "RollDice"})[0][0].data["dice"]) == 3


def test_cannot_roll_twice_or_end_before_rolling():
    # Kingpin "On Your Turn": 1 purchase, 2 roll, 3 allocate ...
    state = start()
    refused(state, 0, {"type": "EndTurn"}, rule="On Your Turn", match="roll the dice first")
    _, state = play(state, 0, {"type": "RollDice"})
    refused(state, 0, {"type": "RollDice"}, match="already rolled")


# --- Single die: Shipment ------------------------------------------------------------------------------

def test_shipment_only_onto_an_empty_truck():
    # Kingpin "Roll Outcomes: Single Die": Shipment adds the circle number of chips onto an EMPTY Supply Truck.
    state = rolled(start(), [1, 1])
    refused(state, 0, {"type": "Ship", "truck": "truck3-1"}, rule=SINGLE, match="empty Supply Truck")
    state, truck5 = take(state, 0, "truck5")
    events, after = play(state, 0, {"type": "Ship", "truck": truck5})
    assert types(events) == ["DiceUsed", "ShipmentMade"]
    assert after["cards"][truck5]["hits"] == 5
    assert after["used"] == [True, False]


def test_a_face_you_do_not_have_cannot_be_used():
    # Kingpin "Roll Outcomes": "You may use each die only once."
    state, truck5 = take(rolled(start(), [1, 4]), 0, "truck5")
    _, state = play(state, 0, {"type": "Ship", "truck": truck5})
    state, truck4 = take(state, 0, "truck4")
    refused(state, 0, {"type": "Ship", "truck": truck4}, rule=SINGLE, match="you have 0 unused 1")


# --- Single die: Distribute ----------------------------------------------------------------------------

def test_distribute_moves_all_hits_of_one_truck_then_places_one_dealer_at_a_time():
    # Kingpin "Roll Outcomes: Single Die": Distribute moves all Hits from ONE truck to any number of Dealers.
    state, dealer6 = take(rolled(start(), [2]), 0, "dealer6")
    events, state = play(state, 0, {"type": "Distribute", "truck": "truck3-1"})
    assert types(events) == ["DiceUsed", "DistributionStarted"]
    assert state["cards"]["truck3-1"]["hits"] == 0 and state["pending"]["hits"] == 3
    assert {"type": "PlaceHits", "dealer": dealer6, "hits": 3} in legal(state, 0)
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 1})
    assert types(events) == ["HitsPlaced"]
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": dealer6, "hits": 2})
    assert types(events) == ["HitsPlaced", "DistributionFinished"] and events[1].data["discarded"] == 0
    assert state["cards"]["dealer3-1"]["hits"] == 1 and state["cards"][dealer6]["hits"] == 2
    assert state["pending"] is None


def test_distribute_discards_what_dealers_cannot_hold():
    # Kingpin "Roll Outcomes: Single Die": "If your Dealers cannot hold all the Hit Chips ... discard the extra."
    state, truck5 = take(rolled(start(), [1, 2]), 0, "truck5")
    _, state = play(state, 0, {"type": "Ship", "truck": truck5})
    _, state = play(state, 0, {"type": "Distribute", "truck": truck5})
    refused(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 4}, rule="Basic Cards: Dealer",
            match="can hold only 3")
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 3})
    # Dealer (3) is now full: nowhere else to put Hits, so the other 2 are discarded at once.
    assert types(events) == ["HitsPlaced", "DistributionFinished"] and events[1].data["discarded"] == 2
    assert state["cards"][truck5]["hits"] == 0


def test_version_1_finish_distribute_discards_the_rest():
    # Version 1 (as first released): FinishDistribute, or EndTurn, discards Hits the Dealers could still hold.
    state = rolled(game_with_first(0, version=1), [2])
    _, state = play(state, 0, {"type": "Distribute", "truck": "truck3-1"})
    refused(state, 0, {"type": "EndTurn", "x": 1})  # malformed: BadCommand is an IllegalMove too
    assert {"type": "FinishDistribute"} in legal(state, 0) and {"type": "EndTurn"} in legal(state, 0)
    events, state = play(state, 0, {"type": "FinishDistribute"})
    assert first(events, "DistributionFinished")["discarded"] == 3


def test_version_2_hits_that_fit_must_be_placed():
    # Version 2, Kingpin "Roll Outcomes: Single Die": "Move all the Hit Chips from one of your Supply Trucks to any
    # number of your Dealers. ... If your Dealers cannot hold all the Hit Chips from your Supply Truck, discard the
    # extra Hit Chips." Only the extra: while Dealers have room, neither FinishDistribute nor EndTurn discards.
    state = rolled(start(), [2])
    assert state["rules_version"] == 2
    _, state = play(state, 0, {"type": "Distribute", "truck": "truck3-1"})
    moves = legal(state, 0)
    assert {"type": "FinishDistribute"} not in moves and {"type": "EndTurn"} not in moves
    assert {m["type"] for m in moves} == {"PlaceHits"}
    refused(state, 0, {"type": "FinishDistribute"}, rule=SINGLE, match="still have room")
    refused(state, 0, {"type": "EndTurn"}, rule=SINGLE, match="place the 3")
    assert K.timeout_default(state, 0) == {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 3}
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 2})
    assert types(events) == ["HitsPlaced"]  # 1 Hit left and 1 room: it must go on too
    events, state = play(state, 0, {"type": "PlaceHits", "dealer": "dealer3-1", "hits": 1})
    assert types(events) == ["HitsPlaced", "DistributionFinished"] and events[1].data["discarded"] == 0
    assert state["cards"]["dealer3-1"]["hits"] == 3 and {"type": "EndTurn"} in legal(state, 0)


def test_cannot_distribute_an_empty_truck():
    # Kingpin "Roll Outcomes: Single Die": Distribute moves the Hit Chips of one of your Supply Trucks.
    state, truck4 = take(rolled(start(), [2]), 0, "truck4")
    refused(state, 0, {"type": "Distribute", "truck": truck4}, rule=SINGLE, match="empty")


# --- Single die: Purchase Hits and Steal a Deal ---------------------------------------------------------

def loaded(dice, dealer_hits=3):
    """Seat 0 with Hits on dealer3-1 and the given roll."""
    state = given(start(), ev("DistributionStarted", seat=0, truck="truck3-1", hits=3),
                  ev("HitsPlaced", seat=0, dealer="dealer3-1", hits=dealer_hits),
                  ev("DistributionFinished", seat=0, discarded=3 - dealer_hits))
    return rolled(state, dice)


def test_purchase_hits_own_junkie_pays_up_to_max_pay_per_hit():
    # Kingpin "Purchasing Hits": collect from ONE Junkie (3 = your Junkie) for Hits from ONE of your Dealers,
    # not greater than the maximum payment per hit.  junkie200: Max pay $100, Cash $200, OD 2.
    state = loaded([3])
    events, state = play(state, 0, {"type": "PurchaseHits", "junkie": "junkie200-1", "dealer": "dealer3-1"})
    assert types(events) == ["DiceUsed", "SaleStarted"]
    sells = [m for m in legal(state, 0) if m["type"] == "SellHits"]
    assert {"type": "SellHits", "hits": 2, "cash": 200} in sells
    assert {"type": "SellHits", "hits": 1, "cash": 200} not in sells
    refused(state, 0, {"type": "SellHits", "hits": 1, "cash": 200}, rule="Purchasing Hits",
            match="at most $100")
    refused(state, 0, {"type": "SellHits", "hits": 2, "cash": 150}, rule="Purchasing Hits", match="$100 steps")
    events, state = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 200})
    assert types(events) == ["HitsSold"]  # 2 Hits = OD value: no OD roll
    assert state["bankrolls"][0] == 400 and state["cards"]["junkie200-1"]["cash"] == 0
    assert state["cards"]["dealer3-1"]["hits"] == 1


def test_collect_less_than_the_maximum():
    # Kingpin "Purchasing Hits": "You may collect less than the maximum if you would like."
    state = loaded([3])
    _, state = play(state, 0, {"type": "PurchaseHits", "junkie": "junkie200-1", "dealer": "dealer3-1"})
    _, state = play(state, 0, {"type": "SellHits", "hits": 1, "cash": 0})
    assert state["bankrolls"][0] == 200 and state["cards"]["dealer3-1"]["hits"] == 2


def test_steal_a_deal_sells_to_somebody_elses_junkie():
    # Kingpin "Roll Outcomes: Single Die": Steal a Deal (5) sells Hits to an opponent's Junkie.
    state = loaded([5, 3])
    refused(state, 0, {"type": "StealDeal", "junkie": "junkie200-1", "dealer": "dealer3-1"},
            rule="Purchasing Hits", match="somebody else's")
    refused(state, 0, {"type": "PurchaseHits", "junkie": "junkie200-2", "dealer": "dealer3-1"},
            rule="Purchasing Hits", match="not yours")
    _, state = play(state, 0, {"type": "StealDeal", "junkie": "junkie200-2", "dealer": "dealer3-1"})
    _, state = play(state, 0, {"type": "SellHits", "hits": 1, "cash": 100})
    assert state["bankrolls"] == [300, 200]
    assert state["cards"]["junkie200-2"]["cash"] == 100


def test_a_dealer_with_no_hits_cannot_sell():
    # Kingpin "Purchasing Hits": Hits are bought from one of your Dealers ("Remove a Hit Chip for each Hit").
    state = rolled(start(), [3])
    refused(state, 0, {"type": "PurchaseHits", "junkie": "junkie200-1", "dealer": "dealer3-1"},
            rule="Purchasing Hits", match="no Hits")


def test_money_made_during_the_turn_pays_for_later_results():
    # Kingpin "Roll Outcomes": "Money made during a turn can be used to carryout roll results during a turn."
    state = loaded([3, 6])
    state, _ = take(state, 1, "cop")
    state = given(state, ev("CardPurchased", seat=0, kind="junkie200", card="junkie200-3", price=200))
    assert state["bankrolls"][0] == 0
    assert not [m for m in legal(state, 0) if m["type"] == "Chloroform"]
    _, state = play(state, 0, {"type": "PurchaseHits", "junkie": "junkie200-1", "dealer": "dealer3-1"})
    _, state = play(state, 0, {"type": "SellHits", "hits": 2, "cash": 200})
    events, state = play(state, 0, {"type": "Chloroform", "card": "cop-1"})
    assert state["bankrolls"][0] == 0 and state["cards"]["cop-1"]["exhausted"]


# --- Single die: Payday --------------------------------------------------------------------------------

def test_payday_adds_each_junkies_payday_under_all_your_junkies():
    # Kingpin "Roll Outcomes: Single Die": Payday adds the Payday value under ALL of your Junkies.
    state, j800 = take(start(), 0, "junkie800")
    state = rolled(state, [4])
    events, state = play(state, 0, {"type": "Payday"})
    assert state["cards"]["junkie200-1"]["cash"] == 300
    assert state["cards"][j800]["cash"] == 1200
    assert state["cards"]["junkie200-2"]["cash"] == 200  # not the opponent's


# --- Single die: Chloroform ----------------------------------------------------------------------------

def test_chloroform_costs_200_and_exhausts_an_opponents_active_special_card():
    # Kingpin "Roll Outcomes: Single Die": Chloroform — pay $200, Exhaust an opponent's Special Card.
    state, cop = take(start(), 1, "cop")
    state = rolled(state, [6])
    events, state = play(state, 0, {"type": "Chloroform", "card": cop})
    assert types(events) == ["DiceUsed", "CardChloroformed"]
    assert state["bankrolls"][0] == 0 and state["cards"][cop]["exhausted"]


def test_chloroform_not_own_cards_not_exhausted_ones_not_without_200():
    # Kingpin "Roll Outcomes: Single Die": Chloroform — "Pay $200" for "any Special Card belonging to any opponent".
    state, own = take(start(), 0, "cop")
    state, theirs = take(state, 1, "hitman")
    state = rolled(state, [6, 6, 6])
    refused(state, 0, {"type": "Chloroform", "card": own}, match="not an opponent's")
    refused(state, 0, {"type": "Chloroform", "card": "dealer3-2"}, match="not a Special Card")
    _, after = play(state, 0, {"type": "Chloroform", "card": theirs})
    refused(after, 0, {"type": "Chloroform", "card": theirs}, match="already Exhausted")
    broke = given(state, ev("CardPurchased", seat=0, kind="junkie200", card="junkie200-3", price=200))
    refused(broke, 0, {"type": "Chloroform", "card": theirs}, match="you have $0 but Chloroform costs $200")


def test_chloroform_cannot_touch_a_regulator_that_is_targeting():
    # Kingpin "Special Cards: Regulator": "A Regulator can only be Chloroformed if it is not currently targeting."
    state, reg = take(start(), 1, "regulator")
    state = given(state, ev("RegulatorPlaced", seat=1, regulator=reg, target=0, bribe=300),
                  ev("RegulatorAccepted", seat=0, regulator=reg))
    state = rolled(state, [6])
    refused(state, 0, {"type": "Chloroform", "card": reg}, rule="Special Cards: Regulator", match="targeting")


def test_chloroform_is_not_blockable_by_immunity():
    # Kingpin "Special Cards: Immunity": "Chloroform cannot be blocked by Immunity." No window opens.
    state, imm = take(start(), 1, "immunity")
    state = rolled(state, [6])
    events, state = play(state, 0, {"type": "Chloroform", "card": imm})
    assert state["window"] is None and state["cards"][imm]["exhausted"]
    assert K.awaiting(state) == {0: "move"}


# --- Doubles, triples, quadruples ----------------------------------------------------------------------

def test_double_pays_200_or_activates_a_special_card():
    # Kingpin "Roll Outcomes: Double Die": a double Activates one Special Card or collects $200.
    state, cop = take(start(), 0, "cop")
    state = given(state, ev("CardChloroformed", seat=1, card=cop, owner=0, cost=0))
    state = rolled(state, [4, 4, 5, 5])
    assert {"type": "ActivateCard", "face": 4, "card": cop} in legal(state, 0)
    events, after = play(state, 0, {"type": "CollectDouble", "face": 4})
    assert types(events) == ["DiceUsed", "DoubleCashed"] and after["bankrolls"][0] == 400
    events, after = play(after, 0, {"type": "ActivateCard", "face": 5, "card": cop})
    assert not after["cards"][cop]["exhausted"]
    assert after["used"] == [True] * 4


def test_rulebook_example_double_and_single_or_two_singles():
    # Kingpin "Roll Outcomes": with 4,4,5 "activate a Special card and use a Steal a Deal, or gain a Payday
    # twice and use a Steal a Deal". Each die once.
    state = rolled(start(), [4, 4, 5])
    _, a = play(state, 0, {"type": "CollectDouble", "face": 4})
    refused(a, 0, {"type": "Payday"}, rule=SINGLE, match="you have 0 unused 4")
    _, b = play(state, 0, {"type": "Payday"})
    _, b = play(b, 0, {"type": "Payday"})
    refused(b, 0, {"type": "CollectDouble", "face": 4}, rule="Roll Outcomes: Double Die")
    assert b["cards"]["junkie200-1"]["cash"] == 400


def test_activate_needs_an_exhausted_card_of_yours():
    # Kingpin "Roll Outcomes: Double Die": a double Activates a Special Card (an Exhausted one).
    state, cop = take(start(), 0, "cop")
    state = rolled(state, [2, 2])
    refused(state, 0, {"type": "ActivateCard", "face": 2, "card": cop}, match="already active")


def test_triple_gives_every_players_junkies_a_payday_then_a_free_basic_card():
    # Kingpin "Roll Outcomes: Triple Die": every player's Junkies receive a Payday, then a free Basic Card.
    state = rolled(start(), [6, 6, 6])
    assert not [m for m in legal(state, 0) if m["type"] == "UseQuadruple"]
    events, state = play(state, 0, {"type": "UseTriple", "face": 6, "kind": "dealer12"})
    assert types(events) == ["DiceUsed", "PaydayCollected", "FreeCardTaken"]
    assert state["cards"]["junkie200-1"]["cash"] == 300 and state["cards"]["junkie200-2"]["cash"] == 300
    assert state["cards"]["dealer12-1"]["owner"] == 0
    assert state["bankrolls"][0] == 200  # free


def test_triple_free_card_must_be_a_basic_kind_in_stock():
    # rules-gaps 2.5: the free card is the roller's choice of type and size, from the stacks.
    state = rolled(start(), [3, 3, 3])
    refused(state, 0, {"type": "UseTriple", "face": 3, "kind": "cop"}, rule="Roll Outcomes: Triple Die")
    refused(state, 0, {"type": "UseTriple", "face": 3, "kind": None}, rule="Roll Outcomes: Triple Die",
            match="choose the free Basic Card")


def test_quadruple_gives_a_free_special_card_that_waits_a_turn():
    # Kingpin "Roll Outcomes: Quadruple Die": a free Special Card; "Special cards must wait a turn".
    state = rolled(start(), [2, 2, 2, 2, 5])
    events, state = play(state, 0, {"type": "UseQuadruple", "face": 2, "kind": "hitman"})
    assert types(events) == ["DiceUsed", "FreeCardTaken"]
    assert state["cards"]["hitman-1"]["owner"] == 0 and not state["cards"]["hitman-1"]["exhausted"]
    assert not [m for m in legal(state, 0) if m["type"] == "UseHitMan"]
    state = cash(state, 0, 600)
    refused(state, 0, {"type": "UseHitMan", "hitman": "hitman-1", "target": "junkie200-2"},
            rule="Special Cards", match="wait a turn")


def test_five_of_a_kind_can_be_split_as_the_player_likes():
    # Kingpin "Roll Outcomes": "You may choose to use your rolls for single, double, triple or quadruple."
    state = rolled(start(), [4, 4, 4, 4, 4])
    moves = legal(state, 0)
    assert {"type": "Payday"} in moves and {"type": "CollectDouble", "face": 4} in moves
    assert {"type": "UseTriple", "face": 4, "kind": "junkie1000"} in moves
    assert {"type": "UseQuadruple", "face": 4, "kind": "immunity"} in moves
    _, state = play(state, 0, {"type": "CollectDouble", "face": 4})
    _, state = play(state, 0, {"type": "UseTriple", "face": 4, "kind": "truck5"})
    assert all(state["used"])


# --- "a roll you did not get" --------------------------------------------------------------------------

def test_give_up_the_whole_roll_for_a_face_you_did_not_roll():
    # Kingpin "Roll Outcomes": "you may choose to use a roll you did not get as a single action. You do not
    # get to use any part of your roll in this case."
    state = rolled(start(), [1, 1, 6])
    refused(state, 0, {"type": "GiveUpRoll", "face": 6}, rule="Roll Outcomes", match="only a roll you did not get")
    events, state = play(state, 0, {"type": "GiveUpRoll", "face": 4})
    assert types(events) == ["RollGivenUp"]
    assert state["dice"] == [4] and state["used"] == [False]
    assert [m["type"] for m in legal(state, 0)] == ["Payday", "EndTurn"]
    _, state = play(state, 0, {"type": "Payday"})
    assert state["cards"]["junkie200-1"]["cash"] == 300


def test_give_up_only_before_using_any_die_and_only_once():
    # Kingpin "Roll Outcomes" / rules-gaps 2.6: "You do not get to use any part of your roll in this case."
    state = rolled(start(), [4, 6])
    _, used = play(state, 0, {"type": "Payday"})
    refused(used, 0, {"type": "GiveUpRoll", "face": 2}, match="already used part")
    _, gave = play(state, 0, {"type": "GiveUpRoll", "face": 2})
    refused(gave, 0, {"type": "GiveUpRoll", "face": 3}, match="already gave up")


# --- step order -----------------------------------------------------------------------------------------

def test_using_a_special_card_ends_dice_allocation():
    # Kingpin "On Your Turn": 3 allocate die rolls, 4 use Special Cards, 5 bail, 6 pass.
    state, cop = take(start(), 0, "cop")
    state = next_turn(next_turn(state))  # the Cop has waited a turn
    state = rolled(state, [4, 4])
    _, state = play(state, 0, {"type": "UseCop", "cop": cop, "target": "junkie200-2"})
    if state["window"]:
        _, state = play(state, 1, {"type": "AcceptJail"})
    assert state["phase"] == "specials"
    refused(state, 0, {"type": "Payday"}, match="not possible after you started using Special Cards")
