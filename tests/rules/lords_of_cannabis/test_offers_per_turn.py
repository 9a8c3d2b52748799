"""Ruling 20, version 2 only: at most 3 offers and counter-offers a turn (issue 22: a bot offered the same card
750 times in a row instead of rolling).  Version 1 games keep the old rule, any number of offers, and version 3
(issue 39) returns to it: the rulebook has no such cap, and the bot's own fix cured the stall."""
from __future__ import annotations

from rules.base import Rng, fold
from rules.lords_of_cannabis.trade import OFFER_CAP_RULE, OFFERS_PER_TURN
from tests.rules.lords_of_cannabis.support import L, cards, legal, play, refused, table, types

FUEL, CEMENT, WATER, SEEDS, SOIL = range(5)
ONE_FOR_ONE = {"give": {"FUEL": 1}, "get": {"SOIL": 1}}
OFFER = {"type": "MakeOffer", "to": 1, "terms": ONE_FOR_ONE}
OFFERS = ("MakeOffer", "OfferToAll")


def trading(version: int, seats: int = 3) -> dict:
    state = {**table(seats, phase="main"), "rules_version": version}
    return cards(cards(cards(state, 0, FUEL=3, WATER=1), 1, SOIL=2, SEEDS=1), 2, SOIL=1, SEEDS=1)


def offer_declined(state: dict) -> dict:
    _, state = play(state, 0, OFFER)
    _, state = play(state, 1, {"type": "DeclineOffer", "offer": state["offers"]["next"] - 1})
    return state


def test_new_games_are_played_under_version_3():
    assert L.version == 3 and [n for n, _ in L.versions] == [1, 2, 3]
    assert fold(L, L.setup({}, 2, Rng("loc-version", 0)))["rules_version"] == 3
    assert fold(L, L.at(2).setup({}, 2, Rng("loc-version", 0)))["rules_version"] == 2
    assert "rules_version" not in L.at(1).setup({}, 2, Rng("loc-version", 0))[0].data  # version 1 as it was


def test_version_2_has_at_most_three_offers_a_turn_then_only_answers_and_the_turn_go_on():
    # ruling 20 (version 2 only; not in the rulebook, so its refusal cites the ruling, not the Trade heading): an
    # announcement is an offer (to one player or to all) or a counter-offer; a version-2 turn has at most 3
    state = trading(2)
    for _ in range(OFFERS_PER_TURN):
        assert L.is_legal(state, 0, OFFER)
        state = offer_declined(state)
    assert not [m for m in legal(state, 0) if m["type"] in OFFERS]
    assert {"type": "EndTurn"} in legal(state, 0)
    refused(state, 0, OFFER, OFFER_CAP_RULE, "at most 3 offers")
    refused(state, 0, {"type": "OfferToAll", "terms": ONE_FOR_ONE}, OFFER_CAP_RULE, "at most 3 offers")
    _, state = play(state, 0, {"type": "EndTurn"})
    _, state = play(state, 1, {"type": "Roll"})
    assert [m for m in legal(state, 1) if m["type"] in OFFERS]  # the next turn has its own three


def test_version_2_counts_counter_offers_and_an_offer_to_all_once():
    state = trading(2)
    events, state = play(state, 0, {"type": "OfferToAll", "terms": ONE_FOR_ONE})    # 1: to both others
    assert types(events) == ["OfferMade", "OfferMade"] and state["offers_announced"] == 1
    _, state = play(state, 2, {"type": "DeclineOffer", "offer": 2})
    _, state = play(state, 1, {"type": "CounterOffer", "offer": 1, "terms": {"give": {"SOIL": 1},
                                                                            "get": {"FUEL": 2}}})   # 2
    _, state = play(state, 0, {"type": "CounterOffer", "offer": 3, "terms": {"give": {"FUEL": 1},
                                                                            "get": {"SEEDS": 1}}})  # 3
    assert state["offers_announced"] == OFFERS_PER_TURN
    answers = legal(state, 1)
    assert {m["type"] for m in answers} == {"AcceptOffer", "DeclineOffer"}  # no fourth: accept or decline
    refused(state, 1, {"type": "CounterOffer", "offer": 4, "terms": {"give": {"SOIL": 1}, "get": {"FUEL": 1}}},
            OFFER_CAP_RULE, "at most 3 offers")
    _, state = play(state, 1, {"type": "AcceptOffer", "offer": 4})
    assert state["hands"][0][SEEDS] == 1 and not state["offers"]["open"]


def test_version_1_games_keep_any_number_of_offers_a_turn():
    # ruling 20 as first released: "any number of times a turn" -- a stored version-1 game goes on as it began
    state = trading(1)
    for _ in range(OFFERS_PER_TURN + 2):
        state = offer_declined(state)
    assert L.is_legal(state, 0, OFFER)
    _, state = play(state, 0, OFFER)
    assert state["offers_made"] == OFFERS_PER_TURN + 3
    state = trading(1)
    _, state = play(state, 0, OFFER)
    _, state = play(state, 1, {"type": "CounterOffer", "offer": 1, "terms": {"give": {"SOIL": 1}, "get": {"FUEL": 1}}})
    _, state = play(state, 0, {"type": "CounterOffer", "offer": 2, "terms": {"give": {"FUEL": 1}, "get": {"SOIL": 2}}})
    assert any(m["type"] == "CounterOffer" for m in legal(state, 1))


def test_a_version_1_snapshot_without_the_count_still_folds():
    # a game saved before the count existed has no "offers_announced": its next offer folds and stays unlimited
    state = trading(1)
    del state["offers_announced"]
    _, state = play(state, 0, OFFER)
    assert state["offers_announced"] == 1 and not L.is_legal(state, 0, OFFER)  # the offer is open: answers only


# -- version 3: the rulebook's trade, no cap ---------------------------------------------------------------------
def test_version_3_allows_any_number_of_offers_and_counter_offers_a_turn():
    # Trade: "On your turn you may trade any of your Stash Cards with the other players. You announce which Stash
    # Card(s) you would like and those which you are willing to give up in return. You are free to accept offers
    # from any of the players and make counter-offers as well." -- no number is set: version 2's cap is dropped
    state = trading(3)
    for _ in range(OFFERS_PER_TURN + 2):
        state = offer_declined(state)
    assert L.is_legal(state, 0, OFFER) and [m for m in legal(state, 0) if m["type"] in OFFERS]


def test_version_3_lets_the_last_of_four_players_counter_an_offer_to_all_after_two_counters():
    # the audit's case: at 4 seats an offer to all and two counter-offers made 3 announcements, and version 2
    # refused the third player's counter-offer; the rulebook lets every addressee counter
    def countered(version: int) -> dict:
        state = cards({**table(4, phase="main"), "rules_version": version}, 3, SOIL=1)
        state = cards(cards(cards(state, 0, FUEL=3, WATER=1), 1, SOIL=2, SEEDS=1), 2, SOIL=1, SEEDS=1)
        _, state = play(state, 0, {"type": "OfferToAll", "terms": ONE_FOR_ONE})  # offers 1, 2, 3
        for seat, offer in ((1, 1), (2, 2)):
            _, state = play(state, seat, {"type": "CounterOffer", "offer": offer,
                                          "terms": {"give": {"SOIL": 1}, "get": {"FUEL": 2}}})
        return state
    counter = {"type": "CounterOffer", "offer": 3, "terms": {"give": {"SOIL": 1}, "get": {"WATER": 1}}}
    assert counter["type"] in {m["type"] for m in legal(countered(3), 3)}
    events, _ = play(countered(3), 3, counter)
    assert "OfferCountered" in types(events)
    refused(countered(2), 3, counter, OFFER_CAP_RULE, "at most 3 offers")  # version 2 as it was
