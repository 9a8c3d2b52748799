"""Trafficking 6f-6j: direct deals between Dealers on the same square (offer, accept, decline, counter)."""
from __future__ import annotations

from rules.base import Event
from tests.rules.trafficking.support import T, first, game, kinds, p, play, refused, roll_to, types

SELL_3 = {"direction": "sell", "lids": 3, "price": 240}


def meeting(**kw):
    """Seat 3 (5 Lids) lands on McDoobie's, where seat 2 stands."""
    kw = {"at": {2: "mcdoobies"}, "lids": {3: 5}, **kw}
    _, state = roll_to(game(**kw), 3, 1)
    return state


def test_a_dealer_landing_on_another_may_offer_a_deal_at_any_price_and_the_sale_counts():
    # Trafficking 6f: "the two may negotiate a direct transaction ... for any price agreed upon"; rules-gaps 9
    state = meeting()
    assert {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 1, "price": 100}} in T.legal_moves(state, 3)
    events, state = play(state, 3, {"type": "MakeOffer", "to": 2, "terms": SELL_3})
    assert T.awaiting(state) == {2: "response"} and T.legal_moves(state, 3) == []
    events, after = play(state, 2, {"type": "AcceptOffer", "offer": 1})
    assert first(events, "DealMade") == {"seller": 3, "buyer": 2, "lids": 3, "price": 240}
    assert (p(after, 3)["sold"], p(after, 3)["cash"], p(after, 2)["lids"], p(after, 2)["cash"]) == (3, 1240, 3, 760)
    assert after["turn"]["seat"] != 3   # 6i/6j: that was the lander's one transaction


def test_a_counter_offer_goes_back_and_may_only_be_accepted_or_declined():
    # Trafficking 6f (negotiation); ruling: one counter per offer, so a negotiation ends
    _, state = play(meeting(), 3, {"type": "MakeOffer", "to": 2, "terms": SELL_3})
    counter = {"direction": "buy", "lids": 3, "price": 200}
    events, state = play(state, 2, {"type": "CounterOffer", "offer": 1, "terms": counter})
    assert T.awaiting(state) == {3: "response"} and "CounterOffer" not in kinds(state, 3)
    refused(state, 3, {"type": "CounterOffer", "offer": 2, "terms": SELL_3}, rule="6f", match="not countered again")
    events, after = play(state, 3, {"type": "AcceptOffer", "offer": 2})
    assert first(events, "DealMade")["price"] == 200


def test_a_declined_offer_leaves_the_bank_deal_open_but_not_a_second_offer():
    # Trafficking 6j: "he may make a deal with either the Underground Bank or his fellow Dealer"
    _, state = play(meeting(), 3, {"type": "MakeOffer", "to": 2, "terms": SELL_3})
    _, after = play(state, 2, {"type": "DeclineOffer", "offer": 1})
    assert "Buy" in kinds(after, 3) and "MakeOffer" not in kinds(after, 3)


def test_the_clock_declines_for_a_silent_addressee():
    _, state = play(meeting(), 3, {"type": "MakeOffer", "to": 2, "terms": SELL_3})
    assert T.on_timeout(state, 2) == {"type": "DeclineOffer", "offer": 1}


def test_terms_a_dealer_cannot_honour_are_refused():
    # Trafficking 17b: "Absolutely no borrowing or lending of money"; the seller must hold the Lids
    state = meeting(cash={2: 100})
    refused(state, 3, {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 9, "price": 0}},
            match="only 5 Lids")
    refused(state, 3, {"type": "MakeOffer", "to": 2, "terms": SELL_3}, match="only $100")
    refused(state, 3, {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 1, "price": 15}},
            match="tens")


def test_no_deals_on_a_cop_shop_or_at_airport_customs():
    # Trafficking 6f: "Absolutely no deals can be made should Dealers land together on a COP SHOP square or
    # AIRPORT CUSTOMS"
    _, state = roll_to(game(narc_at="roxy", at={2: "cop-shop-north", 3: "dont-fret"}), 3, 1)
    assert "MakeOffer" not in kinds(state, 3)
    events, state = roll_to(game(at={2: "airport-customs", 3: "street-3"}), 3, 2)
    assert "MakeOffer" not in kinds(state, 3) and "DealMade" not in types(events)


def test_the_occupant_of_a_dealing_square_may_deal_again_with_a_lander():
    # Trafficking 6j: "the Dealer already occupying the Dealing Square has the rare opportunity of making two deals"
    state = meeting()
    bought = T.fold(state, [Event("LidsBought", {"seat": 2, "die": 2, "lids": 2, "paid": 100, "where": "dealing"})])
    assert any(m["type"] == "MakeOffer" and m["to"] == 2 for m in T.legal_moves(bought, 3))
