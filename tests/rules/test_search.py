"""The search bot's contract (rules/search): every ruleset's `determinize` keeps what a seat may know
and resamples only what it may not, and the ISMCTS bot picks a legal move, reproducibly, and plays
better than random.  Pure: no Redis."""
from __future__ import annotations

import pytest

from rules import EVERY_RULESET
from rules.base import BadCommand, Rng, fold, normalize_options
from rules.examples.pig import RULESET as PIG
from rules.levels import check_bot_level
from rules.ruleset import Ruleset
from rules.search import ismcts

STEPS = 600          # random moves per playout
SAMPLE_EVERY = 25    # determinize every Nth state
SAMPLES = 3          # determinizations per (state, seat) for the "it does resample" check
HIDDEN = sorted(name for name, r in EVERY_RULESET.items() if type(r).determinize is not Ruleset.determinize)


def playout_states(ruleset, seats: int, seed: str, steps: int = STEPS):
    """States along a seeded game between random bots (the states a bot would search from)."""
    events = ruleset.setup(normalize_options(ruleset.options, None), seats, Rng(seed, 2))
    state, version = fold(ruleset, events), 1 + len(events)
    for step in range(steps):
        if ruleset.outcome(state) is not None:
            return
        if step < 6 or step % SAMPLE_EVERY == 0:  # every opening state: secret choices being made
            yield state
        seat = min(ruleset.awaiting(state))
        command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{seat}:{version}"))
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)


def seat_count(ruleset) -> int:
    return max(ruleset.min_seats, min(ruleset.max_seats, 3))


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_a_determinization_is_what_the_seat_sees_and_only_its_hidden_parts_depend_on_the_rng(name):
    ruleset = EVERY_RULESET[name]
    seats, resampled = seat_count(ruleset), 0
    for n, state in enumerate(playout_states(ruleset, seats, f"determinize-{name}")):
        for seat in range(seats):
            world = ruleset.determinize(state, seat, Rng(f"world-{n}", seat))
            # what the seat sees, and what it may do, are the true ones
            assert ruleset.view(world, seat) == ruleset.view(state, seat)
            assert ruleset.legal_moves(world, seat) == ruleset.legal_moves(state, seat)
            assert not getattr(ruleset, "invariants", lambda s: [])(world)
            # a twin: a true state that differs from this one only where `seat` cannot see.  The same
            # rng must give the same determinization from either: the true hidden values never leak in.
            twin = ruleset.determinize(state, seat, Rng(f"twin-{n}", seat))
            assert ruleset.view(twin, seat) == ruleset.view(state, seat)
            assert ruleset.determinize(twin, seat, Rng(f"world-{n}", seat)) == world
            resampled += any(ruleset.determinize(state, seat, Rng(f"again-{n}-{k}", seat)) != state
                             for k in range(SAMPLES))
            # the game goes on from a determinization (the search plays it out)
            mover = min(ruleset.awaiting(world))
            move = ruleset.bot_move(world, mover, "random", Rng("go-on", n))
            fold(ruleset, ruleset.decide(world, mover, move, Rng("go-on", n)), world)
    if name in HIDDEN:
        assert resampled, f"{name} hides cards, yet no determinization ever differed from the true state"
    else:
        assert resampled == 0, f"{name} has nothing hidden: its determinization must be the state itself"


def test_the_games_that_determinize_are_those_that_declare_hidden_information():
    assert HIDDEN == sorted(name for name, r in EVERY_RULESET.items() if r.hidden_information)
    assert "kingpin" not in HIDDEN  # Kingpin: "nothing in Kingpin is hidden" (view.py)


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_ismcts_picks_a_legal_move_and_the_same_one_from_the_same_seed(name):
    ruleset = EVERY_RULESET[name]
    assert "ismcts" in ruleset.bot_levels
    seats = seat_count(ruleset)
    states = [s for s in playout_states(ruleset, seats, f"search-{name}", steps=40)
              if len(ruleset.legal_moves(s, min(ruleset.awaiting(s)))) > 1]
    state = states[-1]
    seat = min(ruleset.awaiting(state))
    first = ruleset.bot_move(state, seat, "ismcts:12", Rng("search-seed", 7))
    assert first in ruleset.legal_moves(state, seat)
    assert ruleset.bot_move(state, seat, "ismcts:12", Rng("search-seed", 7)) == first


def test_a_search_cut_short_by_its_clock_still_moves():
    state = {**next(playout_states(PIG, 2, "cut")), "pot": 4}  # Roll or Hold: a choice to search
    seat = min(PIG.awaiting(state))
    calls = []

    def out_of_time():
        calls.append(1)
        return True
    assert PIG.bot_move(state, seat, "ismcts:1000", Rng("cut", 1), out_of_time=out_of_time) in PIG.legal_moves(state, seat)
    assert len(calls) == 1  # asked after the first iteration, and obeyed


def play_pig(levels: list[str], seed: str) -> list[int]:
    events = PIG.setup({"target": 50}, len(levels), Rng(seed, 2))
    state, version = fold(PIG, events), 1 + len(events)
    while PIG.outcome(state) is None:
        seat = min(PIG.awaiting(state))
        command = PIG.bot_move(state, seat, levels[seat], Rng(seed, f"bot:{seat}:{version}"))
        events = PIG.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(PIG, events, state), version + len(events)
    return PIG.outcome(state)["winners"]


@pytest.mark.slow  # bot strength over many games
def test_ismcts_beats_random_at_pig():
    # Pig: "Hold banks the pot"; random holds or rolls at a coin's toss.  Fixed seeds: the result is
    # the same on every run (measured 21 of 24; an even match would win about 12).
    wins = 0
    for game in range(24):
        search = game % 2  # seats alternate, so who starts does not decide it
        levels = ["random", "random"]
        levels[search] = "ismcts:30"
        wins += play_pig(levels, f"pig-vs-random-{game}") == [search]
    assert wins >= 18, wins


@pytest.mark.parametrize("level", ["ismcts", "ismcts:1", "ismcts:100000"])
def test_search_levels_with_a_budget_are_accepted(level):
    check_bot_level(PIG, level)


@pytest.mark.parametrize("level", ["ismcts:0", "ismcts:", "ismcts:x", "ismcts:100001", "random:5", "ismcts:1:2",
                                   "ismcts:-3", "cautious:10", "mcts", ":5"])
def test_a_malformed_search_level_is_refused(level):
    with pytest.raises(BadCommand, match="bot level"):
        check_bot_level(PIG, level)


def test_a_score_is_a_share_of_the_win():
    state = PIG.evolve(None, PIG.setup({"target": 20}, 3, Rng("s", 0))[0])
    assert ismcts.scores(PIG, state, 3) == pytest.approx([1 / 3] * 3)
    won = {**state, "banks": [25, 3, 25]}
    assert ismcts.scores(PIG, won, 3) == [0.5, 0.0, 0.5]


# ------------------------------------------------------------------ guided by the greedy bot
GUIDED = sorted(name for name, r in EVERY_RULESET.items() if r.search_settings.policy)


def test_every_served_game_guides_its_search_by_one_of_its_own_bots():
    # unguided, a search of a few hundred iterations loses to a hand-written greedy bot (docs/benchmarks.md)
    from rules import RULESETS
    assert [name for name, r in RULESETS.items() if "ismcts" in r.bot_levels and name not in GUIDED] == []
    assert all(EVERY_RULESET[name].search_settings.policy in EVERY_RULESET[name].bot_levels for name in GUIDED)


def test_the_policys_move_stands_unless_another_beats_it_by_two_standard_errors():
    assert ismcts.confident_best([[0.0] * 8, [0.01, -0.01] * 4]) == 0            # no better: noise
    assert ismcts.confident_best([[0.0] * 8, [0.3, -0.1] * 4]) == 0              # 0.1 ahead, 1.3 standard errors
    assert ismcts.confident_best([[0.0] * 8, [0.2, 0.1] * 4, [0.3, 0.2] * 4]) == 2  # both sure: the larger gain
    assert ismcts.confident_best([[0.0] * 3, [0.5] * 3]) == 0                    # too few worlds to tell


@pytest.mark.parametrize("name", GUIDED)
def test_a_search_too_short_to_compare_plays_the_greedy_move(name):
    ruleset = EVERY_RULESET[name]
    seats = seat_count(ruleset)
    for state in list(playout_states(ruleset, seats, f"guided-{name}", steps=80))[-3:]:
        seat = min(ruleset.awaiting(state))
        greedy = ruleset.bot_move(state, seat, ruleset.search_settings.policy, Rng("guided", 1))
        # ismcts:2 plays fewer worlds than MIN_WORLDS: nothing can replace the policy's move
        assert ruleset.bot_move(state, seat, "ismcts:2", Rng("guided", 1)) == greedy


def test_narcos_values_an_improvement_by_what_it_adds_to_the_network():
    # Narcos evaluate: a better Laboratory makes more a turn, so it is worth more while turns are left
    from rules.narcos import search as narcos_search
    state = next(s for s in playout_states(EVERY_RULESET["narcos"], 2, "narcos-worth", steps=80)
                 if s["deck"] and s["players"][0]["crops"] == 1)
    better = {**state, "players": [{**state["players"][0], "laboratory": "lab-tranquilandia"}, state["players"][1]]}
    assert narcos_search.flow(better["players"][0]) > narcos_search.flow(state["players"][0])
    assert narcos_search.worth(better, 0) > narcos_search.worth(state, 0)
    assert narcos_search.worth({**state, "deck": [], "reserve": [], "discard": [], "round": 2}, 0) \
        < narcos_search.worth(state, 0)  # the game over, a network earns nothing more


def test_lords_of_cannabis_values_a_position_before_it_scores():
    # Lords of Cannabis "Resource Production": a Greenhouse's bricks pay its owner on their numbers, so
    # a hand one card from a build and more production are worth something before a point is scored
    from rules.lords_of_cannabis import search as loc_search
    from rules.lords_of_cannabis.state import total_points
    state = next(s for s in playout_states(EVERY_RULESET["lords_of_cannabis"], 2, "loc-worth", steps=80)
                 if s["phase"] == "main")
    richer = {**state, "hands": [[h + 2 for h in state["hands"][0]], state["hands"][1]]}
    assert total_points(richer, 0) == total_points(state, 0)
    assert loc_search.worth(richer, 0) > loc_search.worth(state, 0)
    assert loc_search.evaluate(richer)[0] > loc_search.evaluate(state)[0]
    # a point still counts for more than any card in hand
    scored = {**state, "points": [state["points"][0] + 1, state["points"][1]]}
    assert loc_search.worth(scored, 0) - loc_search.worth(state, 0) >= 1


def test_trafficking_scores_each_role_by_its_way_to_win():
    # Trafficking: a Dealer wins by selling a Kilo (36 Lids); 5c "ON THE THIRD OFFENSE, the Dealer is
    # "Busted" and is out of the game", so the Narc gains with every offense charged
    from rules.trafficking import search as tr_search
    state = next(s for s in playout_states(EVERY_RULESET["trafficking"], 3, "tr-worth", steps=80)
                 if s["phase"] == "play")
    narc = state["narc"]
    dealer = next(s for s in range(3) if s != narc)
    base = tr_search.evaluate(state)

    def changed(**fields):
        players = [dict(p) for p in state["players"]]
        players[dealer].update(fields)
        return tr_search.evaluate({**state, "players": players})
    p = state["players"][dealer]
    sold = changed(sold=p["sold"] + 3)
    assert sold[dealer] > base[dealer] and sold[narc] < base[narc]
    charged = changed(offenses=p["offenses"] + 1)
    assert charged[dealer] < base[dealer] and charged[narc] > base[narc]
    assert changed(out="busted")[dealer] == 0


def test_a_playout_counted_per_seat_grows_with_the_table():
    druglord = EVERY_RULESET["druglord"]
    two = fold(druglord, druglord.setup(normalize_options(druglord.options, None), 2, Rng("h", 2)))
    four = fold(druglord, druglord.setup(normalize_options(druglord.options, None), 4, Rng("h", 2)))
    assert ismcts.horizon(druglord, four) == 2 * ismcts.horizon(druglord, two) == 4 * druglord.search_settings.rollout_moves_per_seat
    pig = PIG.evolve(None, PIG.setup({"target": 20}, 4, Rng("h", 0))[0])
    assert ismcts.horizon(PIG, pig) == PIG.search_settings.rollout_moves  # a horizon in commands: one at any table


def test_lords_of_cannabis_keeps_the_cards_an_open_offer_shows():
    # Lords of Cannabis "Trade": an offer is accepted only while its maker holds what it gives, so a
    # determinization leaves him those cards (else accepting it in a sampled world is illegal)
    from rules.lords_of_cannabis import search as loc_search
    from rules.lords_of_cannabis.trade import counts_of
    ruleset, checked = EVERY_RULESET["lords_of_cannabis"], 0
    for game in range(6):
        for state in playout_states(ruleset, 4, f"loc-offer-{game}", steps=400):
            for found in state["offers"]["open"].values():
                give = counts_of(found["terms"]["give"])
                for seat in (s for s in range(4) if s != found["from"]):
                    for k in range(4):
                        world = loc_search.determinize(state, seat, Rng(f"offer-{k}", seat))
                        assert all(h >= g for h, g in zip(world["hands"][found["from"]], give))
                        assert sum(world["hands"][found["from"]]) == sum(state["hands"][found["from"]])
                    checked += 1
    assert checked, "no open offer met: the check checked nothing"


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_the_search_s_root_statistics_come_with_the_very_move_choose_plays(name):
    """`search` (what an analysis shows, service/analysis.py) is `choose`'s search: the same move from the same
    stream, plain or guided, with each legal move's visits and the searching seat's mean score over them."""
    ruleset = EVERY_RULESET[name]
    checked = 0
    for state in playout_states(ruleset, seat_count(ruleset), f"stats-{name}", steps=200):
        seat = min(ruleset.awaiting(state))
        moves = ismcts.searched_moves(ruleset, state, seat)
        if len(moves) < 2:
            continue
        found = ismcts.search(ruleset, state, seat, Rng(name, "stats"), 24)
        assert found.chosen == ismcts.choose(ruleset, state, seat, Rng(name, "stats"), 24)
        keys = [ismcts.move_key(seat, m.move) for m in found.moves]
        assert len(keys) == len(set(keys)) and {ismcts.move_key(seat, m) for m in moves} <= set(keys)
        assert ismcts.move_key(seat, found.chosen) in keys
        assert 0 < sum(m.visits for m in found.moves) <= 24
        assert all((m.value is None) == (m.visits == 0) and (m.value is None or 0 <= m.value <= 1) for m in found.moves)
        checked += 1
        if checked == 3:
            break
    assert checked, f"{name}: no position with a choice"
