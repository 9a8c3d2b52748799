"""Trade: offers between players (to one or to all, counter-offers, accept or decline; the clock
declines), the bank 4:1, loading docks 3:1 and 2:1, and the Longest Tunnel's four-any-for-one."""
from __future__ import annotations

from tests.rules.lords_of_cannabis.support import L, cards, first, greenhouse, legal, play, refused, table, types

FUEL, CEMENT, WATER, SEEDS, SOIL = range(5)
ONE_FOR_ONE = {"give": {"FUEL": 1}, "get": {"SOIL": 1}}


def trading(seats=3):
    state = table(seats, phase="main")
    return cards(cards(cards(state, 0, FUEL=2, WATER=1), 1, SOIL=2), 2, SOIL=1, SEEDS=1)


def test_four_matching_cards_buy_one_of_your_choice_from_the_bank():
    # Trade: "Any four matching Resource Cards may be traded in for one Stash Card of your choice."
    state = cards(table(3, phase="main"), 0, FUEL=4, CEMENT=3)
    assert {m["give"] for m in legal(state, 0) if m["type"] == "TradeWithBank"} == {"FUEL"}
    events, state = play(state, 0, {"type": "TradeWithBank", "give": "FUEL", "get": "SOIL"})
    assert first(events, "BankTraded") == {"seat": 0, "give": {"FUEL": 4}, "get": "SOIL"}
    assert state["hands"][0] == [0, 3, 0, 0, 1] and state["bank"][FUEL] == 25
    refused(state, 0, {"type": "TradeWithBank", "give": "CEMENT", "get": "SOIL"}, "Trade", "need 4")


def test_a_question_mark_dock_trades_three_for_one_and_a_resource_dock_two_for_one():
    # Trade: "You can make a 3:1 trade if you have a loading dock with a '?'. You may also make a 2:1 trade if you
    # have a loading dock with a resource symbol, as long as you are trading in the corresponding Resource Cards."
    question = cards(greenhouse(table(3, phase="main"), 0, 0), 0, CEMENT=3, FUEL=2)   # node 0: a "?" dock
    assert {m["give"] for m in legal(question, 0) if m["type"] == "TradeWithBank"} == {"CEMENT"}
    events, _ = play(question, 0, {"type": "TradeWithBank", "give": "CEMENT", "get": "SOIL"})
    assert first(events, "BankTraded")["give"] == {"CEMENT": 3}
    fuel_dock = cards(greenhouse(table(3, phase="main"), 0, 2), 0, CEMENT=3, FUEL=2)  # node 2: the FUEL dock
    assert {m["give"] for m in legal(fuel_dock, 0) if m["type"] == "TradeWithBank"} == {"FUEL"}
    events, _ = play(fuel_dock, 0, {"type": "TradeWithBank", "give": "FUEL", "get": "SOIL"})
    assert first(events, "BankTraded")["give"] == {"FUEL": 2}


def test_the_longest_tunnel_trades_any_four_cards_for_one():
    # Tunnels: Longest Tunnel "allows the recipient to exchange a combination of any four Resource Cards into the
    # bank for one resource of his choice"
    state = cards(table(3, phase="main"), 0, FUEL=1, CEMENT=1, WATER=1, SEEDS=1)
    assert not any(m["type"] == "TradeAnyFour" for m in legal(state, 0))
    refused(state, 0, {"type": "TradeAnyFour", "give": ["FUEL", "CEMENT", "WATER", "SEEDS"], "get": "SOIL"}, "Tunnels")
    state = {**state, "longest": 0}
    events, state = play(state, 0, {"type": "TradeAnyFour", "give": ["SEEDS", "FUEL", "WATER", "CEMENT"],
                                    "get": "SOIL"})
    assert first(events, "BankTraded")["give"] == {"CEMENT": 1, "FUEL": 1, "SEEDS": 1, "WATER": 1}
    assert state["hands"][0] == [0, 0, 0, 0, 1]
    refused(state, 0, {"type": "TradeAnyFour", "give": ["SOIL"], "get": "FUEL"}, "Tunnels", "exactly four")


def test_an_offer_to_one_player_is_answered_by_that_player_and_accepted_cards_change_hands():
    # Trade: "You announce which Stash Card(s) you would like and those which you are willing to give up in return.
    # You are free to accept offers"
    state = trading()
    events, state = play(state, 0, {"type": "MakeOffer", "to": 1, "terms": ONE_FOR_ONE})
    assert first(events, "OfferMade") == {"offer": 1, "from": 0, "to": 1, "terms": ONE_FOR_ONE}
    assert L.awaiting(state) == {1: "response"} and legal(state, 0) == []   # the offerer waits for the answer
    events, state = play(state, 1, {"type": "AcceptOffer", "offer": 1})
    assert types(events) == ["OfferAccepted", "StashTraded"]
    assert state["hands"][0] == [1, 0, 1, 0, 1] and state["hands"][1] == [1, 0, 0, 0, 1]
    assert L.awaiting(state) == {0: "move"}


def test_only_the_active_player_starts_trades_and_only_with_cards_they_hold():
    # Turn Overview: "making offers to trade cards with other players can only be initiated by the person whose
    # turn it is"
    state = trading()
    refused(state, 1, {"type": "MakeOffer", "to": 0, "terms": {"give": {"SOIL": 1}, "get": {"FUEL": 1}}},
            "Turn Overview")
    refused(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"SEEDS": 1}, "get": {"SOIL": 1}}},
            "Trade", "do not hold")
    refused(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"FUEL": 1}, "get": {}}}, "Trade")
    refused(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"FUEL": 1}, "get": {"FUEL": 1}}},
            "Trade", "both sides")
    refused(state, 0, {"type": "MakeOffer", "to": 1, "terms": "your soil"})


def test_the_clock_declines_for_a_silent_addressee_and_an_addressee_cannot_pay_what_they_lack():
    # issue: "accept or decline (answered by the addressed seats, with a clock default of decline)"
    state = trading()
    _, state = play(state, 0, {"type": "MakeOffer", "to": 2, "terms": {"give": {"FUEL": 1}, "get": {"WATER": 1}}})
    assert {"type": "AcceptOffer", "offer": 1} not in legal(state, 2)      # seat 2 holds no WATER
    refused(state, 2, {"type": "AcceptOffer", "offer": 1}, "Trade", "do not hold")
    assert L.on_timeout(state, 2) == {"type": "DeclineOffer", "offer": 1}
    events, state = play(state, 2, L.on_timeout(state, 2))
    assert types(events) == ["OfferDeclined"] and state["offers"]["open"] == {} and state["hands"][0][FUEL] == 2


def test_a_counter_offer_goes_back_to_the_active_player():
    # Trade: "You are free to accept offers from any of the players and make counter-offers as well."
    state = trading()
    _, state = play(state, 0, {"type": "MakeOffer", "to": 1, "terms": ONE_FOR_ONE})
    counter = {"give": {"SOIL": 1}, "get": {"FUEL": 2}}
    events, state = play(state, 1, {"type": "CounterOffer", "offer": 1, "terms": counter})
    assert first(events, "OfferCountered")["to"] == 0 and L.awaiting(state) == {0: "response"}
    _, state = play(state, 0, {"type": "AcceptOffer", "offer": 2})
    assert state["hands"][0] == [0, 0, 1, 0, 1] and state["hands"][1] == [2, 0, 0, 0, 1]


def test_an_offer_to_all_goes_to_each_player_and_the_first_acceptance_closes_the_rest():
    # Trade: offers "with the other players" -- ruling: an offer to all is one offer per player; once one is
    # accepted, the others are withdrawn
    state = trading()
    events, state = play(state, 0, {"type": "OfferToAll", "terms": ONE_FOR_ONE})
    assert [e.data["to"] for e in events] == [1, 2] and L.awaiting(state) == {1: "response", 2: "response"}
    events, state = play(state, 2, {"type": "AcceptOffer", "offer": 2})
    assert types(events) == ["OfferAccepted", "StashTraded", "OfferWithdrawn"]
    assert state["offers"]["open"] == {} and state["hands"][2] == [1, 0, 0, 1, 0]
    assert L.awaiting(state) == {0: "move"}
