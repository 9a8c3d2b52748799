"""The fitted `evaluate` (rules/search/value.py, issue 39): each seat's chance to win as a conditional logit over
its features, with weights bench.fit_evaluate fitted on the greedy bot's own games.  Pure: no Redis."""
from __future__ import annotations

import math

import pytest

from bench import fit_evaluate
from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.search import value

FITTED = ("druglord", "lords_of_cannabis", "trafficking")


def test_a_seat_s_chance_is_its_share_of_exp_strength():
    # weights: each feature's at the start, then each one's at the end; halfway, the mean of the two
    rows, weights = [[1.0, 0.0], [0.0, 2.0]], [1.0, 0.5, 1.0, 0.5]  # strengths 1 and 1: even
    assert value.win_shares(rows, 0.5, weights) == pytest.approx([0.5, 0.5])
    weights = [1.0, 0.0, 3.0, 0.0]  # the first feature counts 1 at the start, 3 at the end
    shares = value.win_shares(rows, 1.0, weights)
    assert shares[0] == pytest.approx(math.exp(3) / (math.exp(3) + 1))
    assert sum(shares) == pytest.approx(1.0)


def test_a_seat_out_of_the_game_has_no_chance_and_the_others_share_it():
    shares = value.win_shares([[1.0], [0.0], [0.0]], 0.0, [1.0, 0.0], out=[True, False, False])
    assert shares == pytest.approx([0.0, 0.5, 0.5])


def test_weights_fitted_for_other_features_are_refused():
    data = {"inputs": value.input_names(["score"]), "weights": [1.0, 2.0]}
    assert value.weights(data, ["score"], "weights.json") == [1.0, 2.0]
    with pytest.raises(ValueError, match="weights.json: fitted for"):
        value.weights(data, ["score", "cash"], "weights.json")


def test_the_fit_recovers_the_weights_that_made_the_data_and_holds_a_weight_to_its_sign():
    # states whose winner was drawn from known weights: the fit finds them again (within sampling noise)
    rng, true = Rng("fit", 1), [1.5, -0.8]
    data = []
    for _ in range(3000):
        rows = [[rng.randbelow(100) / 50, rng.randbelow(100) / 50] for _ in range(3)]
        p = value.softmax([sum(w * x for w, x in zip(true, row)) for row in rows])
        draw, winner = rng.randbelow(10_000) / 10_000, 0
        while winner < 2 and draw >= p[winner]:
            draw -= p[winner]
            winner += 1
        data.append((rows, [1.0 if s == winner else 0.0 for s in range(3)], None))
    fitted = fit_evaluate.fit(data, ridge=0.01)
    assert fitted == pytest.approx(true, abs=0.2)
    # the second number declared an asset: its weight may not be negative, so it is held at 0
    held = fit_evaluate.fit(data, ridge=0.01, signs=[1, 1])
    assert held[1] == 0 and held[0] == pytest.approx(true[0], abs=0.3)


@pytest.mark.parametrize("name", FITTED)
def test_every_fitted_evaluate_gives_shares_of_one_win(name):
    ruleset = EVERY_RULESET[name]
    state = fold(ruleset, ruleset.setup(normalize_options(ruleset.options, None), 3, Rng("shares", 2)))
    shares = ruleset.evaluate(state)
    assert len(shares) == 3 and sum(shares) == pytest.approx(1.0) and min(shares) >= 0
