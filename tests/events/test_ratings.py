"""Which games are rated and how a result ranks the players (events/ratings.py), without Redis."""
from __future__ import annotations

from events.ratings import PROVISIONAL_GAMES, Result, fold, leaderboard, result_of

SEATS = [{"kind": "human", "name": "Ada", "player": "p-ada"}, {"kind": "human", "name": "Bo", "player": "p-bo"},
         {"kind": "human", "name": "Cy", "player": "p-cy"}, {"kind": "bot", "level": "greedy"}]


def table(**extra) -> dict:
    return {"seats": SEATS, "seed_source": "server", **extra}


def test_winners_rank_first_those_who_played_on_next_and_a_resigner_last_and_bots_are_not_ranked():
    result = result_of("g", "kingpin", table(), {"winners": [1], "resigned": [2], "reason": "Bo sold"})
    assert result.ranks == (("p-ada", 2), ("p-bo", 1), ("p-cy", 3))
    assert result.names == {"p-ada": "Ada", "p-bo": "Bo", "p-cy": "Cy"}


def test_an_aborted_abandoned_fixed_seed_or_one_player_game_is_not_rated():
    played = {"winners": [0], "reason": "Ada sold"}
    assert result_of("g", "kingpin", table(), {"winners": [], "reason": "aborted", "aborted_by": 0}) is None
    assert result_of("g", "kingpin", table(), {"winners": [], "reason": "abandoned", "idle_seconds": 9}) is None
    assert result_of("g", "kingpin", table(seed_source="fixed"), played) is None
    alone = {"seats": [SEATS[0], {"kind": "human"}, SEATS[3]], "seed_source": "server"}
    assert result_of("g", "kingpin", alone, played) is None
    twice = {"seats": [SEATS[0], SEATS[0]], "seed_source": "server"}  # one player holding two seats
    assert result_of("g", "kingpin", twice, played) is None
    assert result_of("g", "kingpin", table(), None) is None  # not over


def test_a_winner_gains_a_loser_loses_and_few_games_are_provisional():
    won = Result("g1", "kingpin", (("p-ada", 1), ("p-bo", 2)), {"p-ada": "Ada", "p-bo": "Bo"})
    ratings = fold([won])
    assert ratings["p-ada"]["mu"] > 25 > ratings["p-bo"]["mu"] and ratings["p-ada"]["games"] == 1
    board = leaderboard(ratings)
    assert [row["name"] for row in board] == ["Ada", "Bo"] and all(row["provisional"] for row in board)
    many = fold([won] * PROVISIONAL_GAMES)
    assert not leaderboard(many)[0]["provisional"] and many["p-ada"]["games"] == PROVISIONAL_GAMES


def test_the_order_of_the_games_matters_and_the_fold_is_deterministic():
    a = Result("g1", "kingpin", (("p-ada", 1), ("p-bo", 2)), {"p-ada": "Ada", "p-bo": "Bo"})
    b = Result("g2", "kingpin", (("p-ada", 2), ("p-bo", 1)), {"p-ada": "Ada", "p-bo": "Bo"})
    assert fold([a, b]) == fold([a, b]) and fold([a, b]) != fold([b, a])
