"""Draws nobody can steer (issue 34, item 3): each draw call is on its roller's own stream, counted per
seat and kind (rules/base.py KeyedRng), so what happens between two of a seat's rolls, an unrelated
event, another seat's move, a clock, does not change the value its next roll gets.  Labelled by the
game's version, as before draw keys, the same insertion moved the roll: the test can tell them apart."""
from __future__ import annotations

from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS
from rules.base import WORLD, KeyedRng, Rng


def first_roll(runner: GameRunner, game, unrelated: bool) -> tuple[list[int], int]:
    """The dice of the first seat's first RollDice, and the version it got; with `unrelated`, the table
    records a hand-over to a bot and the seat's reclaim first (two events that touch no die)."""
    seat = min(game.awaiting())
    if unrelated:
        runner.hand_to_bot(game, seat, "random", "an unrelated event")
        game = runner.reclaim_seat(game.id, seat)
    result = runner.execute(game.id, seat, {"type": "RollDice"})
    rolled = next(e for e in result.events if e.type == "DiceRolled")
    return rolled.data["dice"], rolled.version


def test_an_unrelated_event_before_a_roll_leaves_its_value_unchanged(redis_client):
    runner = GameRunner(EventStore(redis_client), RULESETS)
    seats = [{"kind": "human"}] * 2
    plain = runner.create_game("kingpin", seats, {"target": 3000}, "steady dice")
    shifted = runner.create_game("kingpin", seats, {"target": 3000}, "steady dice")
    dice, version = first_roll(runner, plain, unrelated=False)
    same, later = first_roll(runner, shifted, unrelated=True)
    assert later == version + 2  # the roll came two versions later...
    assert same == dice  # ...and got the same dice: the roller's first roll of dice, whatever came before
    seat = min(plain.awaiting())
    assert dice == [1 + d for d in Rng("steady dice", f"{seat}/dice/0").roll(len(dice), range(6))]
    # labelled by the version, as games before draw keys were, the inserted events would have moved it
    assert Rng("steady dice", version).roll(4) != Rng("steady dice", later).roll(4)


def test_each_roller_and_kind_counts_its_own_calls_and_the_world_draws_apart():
    counters: dict[str, int] = {}
    rng = KeyedRng("counted", counters, "2", record=True)
    rng.roll(2)
    rng.randint(1, 6)
    rng.roller(WORLD).shuffled(range(5))
    rng.roll(1)
    assert [label for label, _ in rng.recorded()] == ["2/dice/0", "2/pick/0", "world/shuffle/0", "2/dice/1"]
    assert counters == {"2/dice": 2, "2/pick": 1, "world/shuffle": 1}
    # the next command of seat 2 goes on from its own counts; seat 0's start at 0
    later = KeyedRng("counted", counters, "2", record=True)
    later.roll(1)
    KeyedRng("counted", counters, "0").roll(1)
    assert later.recorded()[0][0] == "2/dice/2" and counters["0/dice"] == 1
    # a call's values are the plain stream of its label (docs/fairness.md, section 2)
    plain = Rng("counted", "2/dice/0", record=True)
    plain.roll(2)
    assert rng.recorded()[0][1] == plain.draws
