"""Issue 22: the ISMCTS bot stalled Lords of Cannabis, offering the card greedy had just declined again and
again instead of rolling.  Its playouts were 12 commands long, and an offer with its refusal (the same
position, two commands later) scored exactly as the greedy move with the playout cut two commands short.
Counted in turns, every candidate's playout stops at the same turn end, and a declined offer is worth
what not making it is worth; the search also no longer considers a second offer in a turn."""
from __future__ import annotations

from rules.base import Rng, fold, normalize_options
from rules.lords_of_cannabis import RULESET as L
from rules.lords_of_cannabis.bots import OFFERS
from rules.search import ismcts

WORLDS = 20


def after_a_declined_offer(seeds=("p1", "p2", "p3"), wanted: int = 6) -> list[dict]:
    """States of greedy heads-up games where the active seat's offer this turn was declined and it moves again."""
    found = []
    for seed in seeds:
        events = L.setup(normalize_options(L.options, None), 2, Rng(seed, 2))
        state, version = fold(L, events), 1 + len(events)
        for _ in range(600):
            if L.outcome(state) is not None or len(found) == wanted:
                break
            seat = min(L.awaiting(state))
            if (state["phase"] == "main" and state["offers_made"] and not state["offers"]["open"]
                    and seat == state["current"] and any(m["type"] == "MakeOffer" for m in L.legal_moves(state, seat))):
                found.append(state)
            command = L.bot_move(state, seat, "greedy", Rng(seed, f"bot:{seat}:{version}"))
            events = L.decide(state, seat, command, Rng(seed, version + 1))
            state, version = fold(L, events, state), version + len(events)
    assert len(found) == wanted
    return found


def test_a_declined_offer_made_again_scores_as_the_greedy_move_not_as_a_shorter_playout():
    policy = L.search_settings.policy
    for n, state in enumerate(after_a_declined_offer()):
        seat = state["current"]
        offer = next(m for m in L.legal_moves(state, seat) if m["type"] == "MakeOffer")
        default = L.bot_move(state, seat, policy, Rng("horizon", n))
        turns, cap = ismcts.turn_horizon(L, state), ismcts.horizon(L, state)
        assert turns == 2  # one round heads-up: the playouts stop when this seat's next turn begins
        shorter = 0
        for w in range(WORLDS):
            world, dice = L.determinize(state, seat, Rng("world", f"{n}-{w}")), f"dice-{n}-{w}"
            as_offer = ismcts.candidate_value(L, world, seat, offer, dice, cap, policy, turns)
            assert as_offer == ismcts.candidate_value(L, world, seat, default, dice, cap, policy, turns)
            # the old horizon: 12 commands, where the offer's line is the greedy line two commands short
            old = ismcts.candidate_value(L, world, seat, offer, dice, 12, policy)
            assert old == ismcts.candidate_value(L, world, seat, default, dice, 10, policy)
            shorter += old != ismcts.candidate_value(L, world, seat, default, dice, 12, policy)
        assert shorter  # what made the offer look better (or worse) than the greedy move


def test_the_search_does_not_repeat_a_declined_offer():
    # before the fix it chose MakeOffer again in 4 of these 6 positions (100 iterations)
    for n, state in enumerate(after_a_declined_offer()):
        move = L.bot_move(state, state["current"], "ismcts:100", Rng("repeat", n))
        assert move["type"] not in OFFERS, move


def test_the_search_still_considers_a_first_offer_and_counts_lords_of_cannabis_in_turns():
    state = after_a_declined_offer(wanted=1)[0]
    first_offer = {**state, "offers_made": 0, "offers_announced": 0}
    assert [m for m in ismcts.searched_moves(L, first_offer, state["current"]) if m["type"] in OFFERS]
    assert not [m for m in ismcts.searched_moves(L, state, state["current"]) if m["type"] in OFFERS]
    assert ismcts.turn_horizon(L, {**state, "seats": 4}) == 4
