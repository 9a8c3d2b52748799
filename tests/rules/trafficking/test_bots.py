"""Trafficking bots by role: the greedy Narc busts and chases, the greedy Dealer sells, avoids the Narc and
takes deals that pay; the random Narc takes a bust it is offered (its documented bias toward an end)."""
from __future__ import annotations

from rules.base import Rng
from tests.rules.trafficking.support import T, game, play, roll_to

BOT = Rng("bots", 1)


def test_the_greedy_narc_lands_on_the_dealer_holding_lids_and_so_does_the_random_one():
    _, state = roll_to(game(turn=0, at={1: "miss-turn-1", 2: "roll-again-1"}, lids={1: 5}), 0, 2)
    assert T.bot_move(state, 0, "greedy", BOT) == {"type": "Move", "to": "miss-turn-1"}
    assert all(T.bot_move(state, 0, "random", Rng("r", i)) == {"type": "Move", "to": "miss-turn-1"} for i in range(5))


def test_the_greedy_dealer_sells_all_it_may_and_avoids_the_narcs_reach():
    _, state = roll_to(game(lids={3: 5}), 3, 1)
    _, state = play(state, 3, {"type": "Sell"}, Rng("x", 1))
    assert T.bot_move(state, 3, "greedy", BOT) == T.legal_moves(state, 3)[-1]
    _, state = roll_to(game(narc_at="flip-out-2", at={3: "cop-shop-north"}, lids={3: 4}), 3, 4)
    assert T.bot_move(state, 3, "greedy", BOT) == {"type": "Move", "to": "eleven-seven-2"}


def test_the_greedy_dealer_accepts_a_deal_that_pays_and_declines_one_that_does_not():
    _, state = roll_to(game(at={2: "mcdoobies"}, lids={3: 5}), 3, 1)
    _, fair = play(state, 3, {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 2, "price": 200}})
    assert T.bot_move(fair, 2, "greedy", BOT)["type"] == "AcceptOffer"
    _, dear = play(state, 3, {"type": "MakeOffer", "to": 2, "terms": {"direction": "sell", "lids": 2, "price": 500}})
    assert T.bot_move(dear, 2, "greedy", BOT)["type"] == "DeclineOffer"
