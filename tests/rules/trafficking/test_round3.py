"""Issue 24 (rules round 3), Trafficking, rules version 2: the Narc escorts a busted Dealer (5b ii, 16d), no
Graft Tax where the Narc stands even when Al Bluff beats the rap (9b), a Dealer out of the game turns over
his THC Transit Pass (8b, 11b), Concert Crowd / House Party sell as many as the Dealer chooses, Transit
Pass pays $50 only when the bank has none, and 17b's lending option.  Version 1 games keep the old
behaviour (regression tests).  The search deals an opponent's kept card among the keep-type cards only."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Event, Rng, fold
from rules.trafficking import search
from rules.trafficking.data import CARDS
from tests.rules.trafficking.support import T, at, dice, ev, first, game, given, label, p, play, refused, roll_to, types

IN_ORDER = list(range(16))
RETAINER_KEPT = ev("CardDrawn", seat=3, deck="flip_out", kept=True, secret={"card": "FO01"})  # top when in order


def flip_out_first(index: int) -> dict:
    """Both stacks in catalogue order but the Flip Out card at `index` on top."""
    return {"sour_grapes": IN_ORDER, "flip_out": [index] + [i for i in IN_ORDER if i != index]}


def narc_lands(state: dict, to: str, die: int) -> tuple[list[Event], dict]:
    _, state = roll_to(state, 0, die)
    return play(state, 0, {"type": "Move", "to": to}) if state["turn"]["stage"] == "move" else (_, state)


# ------------------------------------------------------------------ the version
def test_version_2_is_declared_and_new_games_are_created_under_it():
    assert [n for n, _ in T.versions] == [1, 2] and T.version == 2
    assert T.setup({}, 4, Rng("round3", 1))[0].data["rules_version"] == 2
    assert "rules_version" not in T.at(1).setup({}, 4, Rng("round3", 1))[0].data


# ------------------------------------------------------------------ 1. the Narc escorts the Dealer
@pytest.mark.parametrize("version,narc_ends_on", [(2, "cop-shop-east"), (1, "miss-turn-1")])
def test_the_narc_who_busts_a_dealer_escorts_him_to_the_cop_shop(version, narc_ends_on):
    # 5b: "On each offense: ... ii) the Narc escorts the Dealer to the closest en route Cop Shop"
    state = game(turn=0, at={1: "miss-turn-1"}, lids={1: 6}, version=version)
    events, after = narc_lands(state, "miss-turn-1", 2)
    assert first(events, "Busted")["to"] == "cop-shop-east" and at(after, 1) == "cop-shop-east"
    assert at(after, 0) == narc_ends_on
    escorts = [e.data for e in events if e.type == "Moved" and e.data["how"] == "escort"]
    assert escorts == ([{"seat": 0, "to": "cop-shop-east", "path": ["cop-shop-east"], "how": "escort"}]
                       if version == 2 else [])


@pytest.mark.parametrize("version,narc_ends_on", [(2, "cop-shop-west"), (1, "cop-shop-north")])
def test_at_airport_customs_the_narc_stays_put_to_ask_but_escorts_the_dealer_he_catches(version, narc_ends_on):
    # 16d: "the NARC does not leave the square which he is on. However, should the Narc successfully bust a
    # Dealer, the NARC must still escort that Dealer to the closest en route Cop Shop (i.e. The West End Cop Shop)"
    _, state = roll_to(game(at={3: "street-3"}, lids={3: 4}, version=version), 3, 2)
    assert at(state, 0) == "cop-shop-north"   # asked from where he stands
    _, state = play(state, 3, {"type": "HideLids", "hand": "left"})
    events, after = play(state, 0, {"type": "ChooseHand", "hand": "left"})
    assert at(after, 3) == "cop-shop-west" and at(after, 0) == narc_ends_on


def test_a_dealer_landing_on_the_narc_is_escorted_with_him_and_a_third_offense_escorts_nobody():
    # 5b ii as above; 5c: "ON THE THIRD OFFENSE, the Dealer is "Busted" and is out of the game"
    events, after = roll_to(game(narc_at="mcdoobies", lids={3: 4}, version=2), 3, 1)
    assert at(after, 3) == "cop-shop-north" and at(after, 0) == "cop-shop-north"
    twice = given(game(turn=0, at={1: "miss-turn-1"}, lids={1: 2}, version=2),
                  ev("Busted", seat=1, cause="t", offense=2, lids=0, fee=0, to="miss-turn-1", out=False),
                  ev("LidsGained", seat=1, lids=2, why="t"))
    events, after = narc_lands(twice, "miss-turn-1", 2)
    assert first(events, "Busted")["out"] and at(after, 0) == "miss-turn-1"


@pytest.mark.parametrize("version,narc_ends_on", [(2, "cop-shop-east"), (1, "expressway-west")])
def test_a_narc_who_busts_on_an_expressway_ramp_escorts_instead_of_taking_the_expressway(version, narc_ends_on):
    # 5b ii over 4f ("THE NARC must travel on the St. Semillia Expressway when landing"): from version 2 he
    # leaves the ramp with his prisoner; version 1 took the Expressway
    state = game(turn=0, narc_at="cop-shop-east", at={1: "expressway-east"}, lids={1: 3}, version=version)
    events, after = narc_lands(state, "expressway-east", 3)
    assert first(events, "Busted")["to"] == "cop-shop-east" and at(after, 0) == narc_ends_on
    assert any(e.data.get("how") == "expressway" for e in events) is (version == 1)


# ------------------------------------------------------------------ 2. no Graft Tax where the Narc stands
@pytest.mark.parametrize("version,graft_tax", [(2, False), (1, True)])
def test_no_graft_tax_on_the_narcs_cop_shop_even_when_al_bluff_beats_the_rap(version, graft_tax):
    # 9b: "A Dealer does not lose his Lids should he land on this square, except of course, if the Narc is
    # occupying the square. If this occurs, no Graft Tax is paid."
    state = given(game(at={3: "dont-fret"}, lids={3: 3}, version=version), RETAINER_KEPT)
    events, after = roll_to(state, 3, 1)
    assert first(events, "CardUsed")["use"] == "retainer" and "Busted" not in types(events)
    assert ("CashPaid" in types(events)) is graft_tax
    assert p(after, 3)["cash"] == (950 if graft_tax else 1000)


# ------------------------------------------------------------------ 3. (no change) Marcus at $150 a Lid
def test_marcus_pays_150_a_lid():
    # 7a: "Dealers landing on this square may sell Lids to Marcus @ $150 X the roll of one die" (the ruling
    # keeps the rate over the example's "$750" for 6 Lids)
    state = game(narc_at="cop-shop-south", at={1: "cop-shop-north"}, lids={1: 6}, turn=1, version=2)
    _, state = roll_to(state, 1, 1)
    _, state = play(state, 1, {"type": "Move", "to": "marcus"})
    events, after = play(state, 1, {"type": "Sell"}, dice(6))
    assert first(events, "LidsSold") == {"seat": 1, "die": 6, "lids": 6, "each": 150, "to": "marcus"}
    assert p(after, 1)["cash"] == 1000 + 900


# ------------------------------------------------------------------ 4. the pass goes back when out
@pytest.mark.parametrize("version,passes_after", [(2, 8), (1, 7)])
def test_a_dealer_out_of_the_game_turns_over_his_transit_pass(version, passes_after):
    # 8b: "he then turns over all of his possessions to the Underground Bank and is out of the game"
    state = given(game(at={3: "flip-out-3"}, cash={3: 40}, version=version),
                  ev("PassBought", seat=3, paid=0, why="test"))
    assert state["passes"] == 7
    events, after = roll_to(state, 3, 1, 6)   # The Pusher: 6 Lids for $600, with $40
    assert first(events, "Bankrupt")["owed"] == 600 and p(after, 3)["out"] == "bankrupt"
    assert after["passes"] == passes_after and p(after, 3)["pass"] is (version == 1)
    assert T.invariants(after) == []


def test_a_dealer_busted_out_turns_over_his_transit_pass_too():
    # 5c: "All money and Lids are turned over to the Underground Bank"; 8b/11b "all of his possessions"
    twice = given(game(turn=0, at={1: "miss-turn-1"}, lids={1: 2}, version=2),
                  ev("PassBought", seat=1, paid=0, why="test"),
                  ev("Busted", seat=1, cause="t", offense=2, lids=0, fee=0, to="miss-turn-1", out=False),
                  ev("LidsGained", seat=1, lids=2, why="t"))
    _, after = narc_lands(twice, "miss-turn-1", 2)
    assert p(after, 1)["out"] == "busted" and after["passes"] == 8 and not p(after, 1)["pass"]


# ------------------------------------------------------------------ 6. the cards do what they say
def test_concert_crowd_lets_the_dealer_choose_how_many_lids_to_sell():
    # FO09: "Sell up to 3 Lids to the crowd at $100 each (marked on the Scores card)."
    events, state = roll_to(game(at={3: "jc-flowers"}, lids={3: 5}, decks=flip_out_first(8), version=2), 3, 1)
    assert first(events, "CardDrawn")["card"] == "FO09" and "LidsSold" not in types(events)
    sales = [m for m in T.legal_moves(state, 3) if m["type"] == "SellLids"]
    assert sales == [{"type": "SellLids", "count": n} for n in (1, 2, 3)] and {"type": "EndTurn"} in T.legal_moves(state, 3)
    assert label(state, 3, sales[1]) == "Sell 2 Lids for $200"
    refused(state, 3, {"type": "SellLids", "count": 4}, rule="18")
    events, after = play(state, 3, {"type": "SellLids", "count": 2})
    assert events[0] == Event("LidsSold", {"seat": 3, "lids": 2, "each": 100, "to": "card"})
    assert types(events)[1:3] == ["Passed", "TurnEnded"]   # nothing left to choose on the square
    assert (p(after, 3)["lids"], p(after, 3)["sold"], p(after, 3)["cash"]) == (3, 2, 1200)
    assert not any(m["type"] == "SellLids" for m in T.legal_moves(after, 3))


def test_selling_none_is_passing_and_house_party_sells_at_most_what_the_dealer_holds():
    # FO10: "Sell up to 2 Lids at $150 each": "up to" allows none ("Pass") and fewer than the most
    _, state = roll_to(game(at={3: "jc-flowers"}, lids={3: 1}, decks=flip_out_first(9), version=2), 3, 1)
    assert [m for m in T.legal_moves(state, 3) if m["type"] == "SellLids"] == [{"type": "SellLids", "count": 1}]
    assert T.view(state, 3)["turn"]["card_sale"] == {"card": "FO10", "most": 1, "each": 150}
    assert T.timeout_default(state, 3) == {"type": "SellLids", "count": 1}   # the clock sells as version 1 did
    events, after = play(state, 3, {"type": "EndTurn"})
    assert types(events)[:2] == ["Passed", "TurnEnded"] and p(after, 3)["lids"] == 1


def test_version_1_sells_the_cards_maximum_without_asking():
    # regression: version 1 sold min(Lids, 3) at once
    events, state = roll_to(game(at={3: "jc-flowers"}, lids={3: 5}, decks=flip_out_first(8)), 3, 1)
    assert first(events, "LidsSold") == {"seat": 3, "lids": 3, "each": 100, "to": "card"}
    assert "card_sale" not in state["turn"]


@pytest.mark.parametrize("version,cash", [(2, 1000), (1, 1050)])
def test_transit_pass_pays_50_only_when_the_bank_has_none(version, cash):
    # FO13: "Collect a THC Transit Pass (if the bank has none left, collect $50)."
    state = given(game(at={3: "jc-flowers"}, decks=flip_out_first(12), version=version),
                  ev("PassBought", seat=3, paid=0, why="test"))
    events, after = roll_to(state, 3, 1)
    assert first(events, "CardDrawn")["card"] == "FO13" and "PassBought" not in types(events)
    assert p(after, 3)["cash"] == cash and p(after, 3)["pass"] and after["passes"] == 7


def test_transit_pass_pays_50_when_the_bank_is_out_of_passes():
    state = game(at={3: "jc-flowers"}, decks=flip_out_first(12), version=2)
    state = given(state, *[ev("PassBought", seat=s, paid=0, why="test") for s in (1, 2)])
    state = {**state, "passes": 0}   # the other six are in other games' hands: the bank's count is what matters
    events, after = roll_to(state, 3, 1)
    assert first(events, "CashCollected") == {"seat": 3, "amount": 50, "why": "card"} and not p(after, 3)["pass"]


# ------------------------------------------------------------------ 5. 17b: the lending option
def test_lending_is_an_option_of_version_2_only_validated_and_described():
    # 17b: "However, should all players agree to allow the lending of money before the game begins, toss this
    # rule out."
    assert T.options["lending"].default is False and "17b" in T.options["lending"].description
    assert T.setup({"lending": True}, 4, Rng("lend", 1))[0].data["lending"] is True
    assert "lending" not in T.setup({}, 4, Rng("lend", 1))[0].data
    with pytest.raises(BadCommand):
        T.setup({"lending": "yes"}, 4, Rng("lend", 1))
    with pytest.raises(BadCommand):
        T.at(1).setup({"lending": True}, 4, Rng("lend", 1))


def test_without_the_option_no_loan_is_offered_or_listed():
    # 17b: "Absolutely no borrowing or lending of money is allowed in the game of TRAFFICKING."
    state = game(version=2)
    refused(state, 3, {"type": "MakeOffer", "to": 1, "terms": {"loan": "lend", "amount": 100}}, rule="17b")
    assert T.legal_moves(state, 3) == [{"type": "Roll"}] and "loans" not in T.view(state, 3)


def test_a_dealer_lends_another_dealer_anywhere_on_his_turn_and_the_loan_is_public():
    state = game(version=2, lending=True)
    assert {"type": "MakeOffer", "to": 1, "terms": {"loan": "lend", "amount": 100}} in T.legal_moves(state, 3)
    events, state = play(state, 3, {"type": "MakeOffer", "to": 1, "terms": {"loan": "lend", "amount": 300}})
    assert T.awaiting(state) == {1: "response"}
    assert not any(m["type"] == "CounterOffer" for m in T.legal_moves(state, 1))
    refused(state, 1, {"type": "CounterOffer", "offer": 1, "terms": {"loan": "lend", "amount": 200}})
    events, state = play(state, 1, {"type": "AcceptOffer", "offer": 1})
    assert events[-1] == Event("LoanMade", {"loan": 1, "lender": 3, "borrower": 1, "amount": 300})
    assert (p(state, 3)["cash"], p(state, 1)["cash"]) == (700, 1300)
    assert T.view(state, 2)["loans"] == [{"loan": 1, "lender": 3, "borrower": 1, "amount": 300}]
    refused(state, 3, {"type": "MakeOffer", "to": 1, "terms": {"loan": "lend", "amount": 100}}, rule="17b")
    assert T.legal_moves(state, 3)[0] == {"type": "Roll"}


def test_a_loan_beyond_the_lenders_cash_or_not_in_tens_is_refused_and_appends_nothing():
    state = game(version=2, lending=True, cash={1: 50})
    refused(state, 3, {"type": "MakeOffer", "to": 1, "terms": {"loan": "borrow", "amount": 100}}, rule="17b")
    refused(state, 3, {"type": "MakeOffer", "to": 1, "terms": {"loan": "lend", "amount": 105}}, rule="17b")
    refused(state, 3, {"type": "MakeOffer", "to": 0, "terms": {"loan": "lend", "amount": 100}}, rule="17b")


def test_the_borrower_repays_on_his_turn_in_part_or_whole():
    loan = ev("LoanMade", loan=1, lender=3, borrower=1, amount=300)
    state = given(game(version=2, lending=True, turn=1), loan)
    assert {"type": "RepayLoan", "loan": 1, "amount": 300} in T.legal_moves(state, 1)
    refused(state, 1, {"type": "RepayLoan", "loan": 1, "amount": 310}, rule="17b")
    refused(state, 3, {"type": "RepayLoan", "loan": 1, "amount": 100}, rule="17b")
    events, state = play(state, 1, {"type": "RepayLoan", "loan": 1, "amount": 100})
    assert events == [Event("LoanRepaid", {"loan": 1, "lender": 3, "borrower": 1, "amount": 100})]
    assert state["loans"]["1"]["amount"] == 200 and (p(state, 1)["cash"], p(state, 3)["cash"]) == (1200, 800)
    _, state = play(state, 1, {"type": "RepayLoan", "loan": 1, "amount": 200})
    assert state["loans"] == {} and T.view(state, 1)["loans"] == []


def test_a_loan_is_written_off_when_either_dealer_goes_out():
    state = given(game(version=2, lending=True, at={3: "flip-out-3"}, cash={3: 40}),
                  ev("LoanMade", loan=1, lender=3, borrower=1, amount=10))
    _, after = roll_to(state, 3, 1, 6)
    assert p(after, 3)["out"] == "bankrupt" and after["loans"] == {}


# ------------------------------------------------------------------ 7. the search's kept cards
def test_a_determinized_world_deals_an_opponent_only_keep_type_kept_cards():
    # CardDrawn{kept: true} tells everyone the card is one kept in secret (Al Bluff's Retainer, the Slush Fund)
    state = given(game(version=2), RETAINER_KEPT)
    keep_cards = {c for c, card in CARDS.items() if card["effect"]["kind"] == "keep"}
    for i in range(60):
        world = search.determinize(state, 2, Rng("determinize", i))
        assert set(world["players"][3]["kept"]) <= keep_cards
        assert T.invariants(world) == []
    assert search.determinize(state, 3, Rng("determinize", 0))["players"][3]["kept"] == ["FO01"]


def test_a_version_2_game_folds_and_replays_its_own_events():
    # a whole random game under version 2, with lending on: folded event by event it is the state decided
    R = Rng
    events = T.setup({"lending": True}, 4, R("round3-playout", 1))
    state = fold(T, events)
    for n in range(3000):
        if T.outcome(state) is not None:
            break
        seat = min(T.awaiting(state))
        move = T.bot_move(state, seat, "random", R("round3-bot", n))
        new = T.decide(state, seat, move, R("round3-rules", n))
        events += new
        state = fold(T, new, state)
        assert T.invariants(state) == []
    assert T.outcome(state) is not None and fold(T, events) == state
