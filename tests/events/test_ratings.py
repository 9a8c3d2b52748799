"""Which games are rated and how a result ranks the players (events/ratings.py), without Redis."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from events.ratings import PROVISIONAL_GAMES, Result, bot_board, bot_priors, fold, leaderboard, result_of
from rules import EVERY_RULESET, RULESETS
from rules.bot_seat import BOTS_REVISION

SEATS = [{"kind": "human", "name": "Ada", "player": "p-ada"}, {"kind": "human", "name": "Bo", "player": "p-bo"},
         {"kind": "human", "name": "Cy", "player": "p-cy"}, {"kind": "bot", "level": "greedy"}]


def table(**extra) -> dict:
    return {"seats": SEATS, "seed_source": "server", **extra}


def test_winners_rank_first_those_who_played_on_next_and_a_resigner_last_and_a_bot_ranks_as_its_level():
    result = result_of("g", "kingpin", table(), {"winners": [1], "resigned": [2], "reason": "Bo sold"})
    assert result.ranks == (("p-ada", 2), ("p-bo", 1), ("p-cy", 3), ("bot:greedy", 2))
    assert result.names == {"p-ada": "Ada", "p-bo": "Bo", "p-cy": "Cy", "bot:greedy": "greedy (bot)"}


def test_an_aborted_abandoned_fixed_seed_or_one_player_game_is_not_rated():
    played = {"winners": [0], "reason": "Ada sold"}
    assert result_of("g", "kingpin", table(), {"winners": [], "reason": "aborted", "aborted_by": 0}) is None
    assert result_of("g", "kingpin", table(), {"winners": [], "reason": "abandoned", "idle_seconds": 9}) is None
    assert result_of("g", "kingpin", table(seed_source="fixed"), played) is None
    alone = {"seats": [SEATS[0], {"kind": "human"}], "seed_source": "server"}  # beside an anonymous human
    assert result_of("g", "kingpin", alone, played) is None
    bots = {"seats": [SEATS[3], {"kind": "bot", "level": "ismcts"}], "seed_source": "server"}  # no player
    assert result_of("g", "kingpin", bots, played) is None
    # an anonymous human's seat a bot took over is not the bot's game: Ada beside it is alone
    handed = {"seats": [SEATS[0], {"kind": "bot", "level": "greedy"}], "handed": [1], "seed_source": "server"}
    assert result_of("g", "kingpin", handed, played) is None
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


ARENA = {"bot:greedy": {"mu": 30.0, "sigma": 2.0, "arena_games": 40}}


def test_a_player_against_a_bot_is_rated_and_the_bot_starts_from_the_arenas_rating():
    """Issue 37 item 5: bots carry the arena's ratings.  A player who beats a bot the arena rated strong gains
    more than one who beats an unmeasured newcomer, and the bot, measured over 40 games, moves less."""
    beat = result_of("g", "kingpin", {"seats": [SEATS[0], SEATS[3]], "seed_source": "server"},
                     {"winners": [0], "reason": "Ada sold"})
    assert beat.ranks == (("p-ada", 1), ("bot:greedy", 2))
    measured, unmeasured = fold([beat], priors=ARENA), fold([beat])
    assert measured["p-ada"]["mu"] > unmeasured["p-ada"]["mu"] > 25
    assert 30.0 - measured["bot:greedy"]["mu"] < 25.0 - unmeasured["bot:greedy"]["mu"]
    assert measured["bot:greedy"]["games"] == 1
    assert [row["name"] for row in leaderboard(measured)] == ["Ada"]  # bots are listed apart


def test_copies_of_a_bot_level_at_one_table_are_rated_as_one_participant():
    three = {"seats": [SEATS[0], SEATS[3], SEATS[3]], "seed_source": "server"}
    result = result_of("g", "kingpin", three, {"winners": [1], "reason": "a bot sold"})
    assert result.ranks == (("p-ada", 2), ("bot:greedy", 1), ("bot:greedy", 2))
    ratings = fold([result], priors=ARENA)
    assert set(ratings) == {"p-ada", "bot:greedy"} and ratings["bot:greedy"]["games"] == 1


def test_the_bot_board_shows_the_arenas_rating_until_the_bot_plays_rated_games():
    board = {row["level"]: row for row in bot_board({}, ("random", "greedy"), ARENA)}
    assert board["greedy"] == {"level": "greedy", "rating": 24.0, "mu": 30.0, "sigma": 2.0, "games": 0,
                               "arena_games": 40, "provisional": False}
    assert board["random"]["provisional"] and board["random"]["arena_games"] == 0  # never measured
    played = fold([Result("g", "kingpin", (("p-ada", 1), ("bot:greedy", 2)), {"p-ada": "Ada",
                                                                               "bot:greedy": "greedy (bot)"})],
                  priors=ARENA)
    moved = {row["level"]: row for row in bot_board(played, ("random", "greedy"), ARENA)}["greedy"]
    assert moved["games"] == 1 and moved["mu"] < 30.0


def test_every_served_game_has_its_bot_levels_measured_by_the_arena():
    """rules/<game>/arena_ratings.json, written by `python -m bench.arena --write-ratings`: every served level
    has a starting rating, from games of the current bots."""
    for name in RULESETS:
        priors = bot_priors(EVERY_RULESET[name])
        assert set(priors) == {f"bot:{level}" for level in EVERY_RULESET[name].bot_levels}, name
        assert all(p["arena_games"] >= 8 and p["sigma"] > 0 for p in priors.values()), name
        document = json.loads((Path(sys.modules[type(EVERY_RULESET[name]).__module__].__file__).parent
                               / "arena_ratings.json").read_text())
        assert document["bots_revision"] == BOTS_REVISION, f"{name}'s bots were measured at an earlier revision"
