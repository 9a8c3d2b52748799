"""Bots that cannot cheat by construction (issue 26, item 6): the worker's one path for a bot seat
(rules/bot_seat.py `bot_command`, called by service/jobs.py) hands the bot what its seat may know and
an rng keyed by the one-way bot key, never the true hidden parts nor the seed.

No bot of today reads either (audits found none, and the old path gives the same moves from a twin
state too): these tests guard the design, and the peeking and foreseeing bots below show what they
catch, a cheat the old path (`bot_move(state, seat, level, Rng(seed, "bot:<seat>:<version>"))`) let
through.  Pure: no Redis."""
from __future__ import annotations

import hashlib
import json

import pytest

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import bot_command, bot_key, bot_rng, seat_state, wire
from rules.narcos import RULESET as NARCOS

SEARCH = "ismcts:16"  # the least budget with which the guided search may replace the greedy move
POSITIONS = 8         # positions of a played game each bot level is asked at
TWINS = 2             # states per position and seat that differ only where the seat cannot see


def positions(ruleset, seats: int, seed: str, steps: int = 400):
    """(state, version) along a seeded game of the ruleset's first own level (its opening, then every
    10th command), played as the worker plays."""
    level = next(level for level in ruleset.bot_levels if level != "random")
    events = ruleset.setup(normalize_options(ruleset.options, None), seats, Rng(seed, 2))
    state, version, found = fold(ruleset, events), 1 + len(events), 0
    for step in range(steps):
        if ruleset.outcome(state) is not None or found == POSITIONS:
            return
        if step in (0, 3) or step % 10 == 0:
            found += 1
            yield state, version
        seat = min(ruleset.awaiting(state))
        command = bot_command(ruleset, state, seat, level, bot_key(seed), version)
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)


def twins(ruleset, state, seat: int, n: int) -> list:
    """True states that differ from `state` only in what `seat` may not read (each resampled with
    another seed): the same view for the seat, other hands and deck orders."""
    out = [ruleset.determinize(state, seat, Rng(f"twin-{n}-{k}", seat)) for k in range(TWINS)]
    for twin in out:
        assert ruleset.view(twin, seat) == ruleset.view(state, seat)
    return out


def levels(ruleset) -> list[str]:
    return [SEARCH if level == "ismcts" else level for level in ruleset.bot_levels]


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_bot_level_moves_the_same_whatever_its_seat_may_not_know(name):
    ruleset = EVERY_RULESET[name]
    seats = max(ruleset.min_seats, min(ruleset.max_seats, 3))
    key = bot_key(f"cheat-{name}")
    asked = differing = 0
    for n, (state, version) in enumerate(positions(ruleset, seats, f"cheat-{name}")):
        for seat in sorted(ruleset.awaiting(state)):
            others = twins(ruleset, state, seat, n)
            differing += sum(twin != state for twin in others)
            for level in levels(ruleset):
                move = bot_command(ruleset, state, seat, level, key, version)
                assert move in ruleset.legal_moves(state, seat)
                # and loses nothing by it: today's bots read only what the seat may know, so handed
                # the true state with the same rng they pick the same move (their strength is kept)
                assert ruleset.bot_move(state, seat, level, bot_rng(key, seat, version)) == move
                for twin in others:
                    assert bot_command(ruleset, twin, seat, level, key, version) == move, \
                        f"{name} {level} at version {version}: seat {seat}'s move depends on what it may not see"
                asked += 1
    assert asked >= 4 * len(levels(ruleset))  # a short game (Pig) ends before POSITIONS
    if ruleset.hidden_information:
        assert differing, f"{name} hides cards, yet no twin state differed: the test would prove nothing"
    else:  # nothing to resample: the bot is handed the state as it is
        assert differing == 0
        state, version = next(positions(ruleset, seats, "as-is"))
        assert seat_state(ruleset, state, 0, key, version) == wire(state)  # the state itself, in canonical form


# ----------------------------------------------------------------- cheats it catches
class Peeking(type(NARCOS)):
    """Narcos with a bot level that reads everything it is handed, the hidden parts included (the
    Narcos deck's order, every Cartel hand, the Cartel deck) and its rng's key: a cheat."""
    bot_levels = NARCOS.bot_levels + ("peek",)

    def choose_bot_move(self, state, seat, level, rng):
        if level != "peek":
            return super().choose_bot_move(state, seat, level, rng)
        moves = self.legal_moves(state, seat)
        secrets = json.dumps([state["deck"], state["cartel_deck"], [p["hand"] for p in state["players"]],
                              rng._seed], sort_keys=True)
        return moves[hashlib.sha256(secrets.encode()).digest()[0] % len(moves)]


def test_a_bot_that_reads_the_hidden_parts_learns_nothing_from_them():
    peeking = Peeking()
    key, seed = bot_key("peek"), "peek"
    old_differs = 0
    for n, (state, version) in enumerate(positions(peeking, 3, seed)):
        for seat in sorted(peeking.awaiting(state)):
            if len(peeking.legal_moves(state, seat)) < 2:
                continue
            move = bot_command(peeking, state, seat, "peek", key, version)
            for twin in twins(peeking, state, seat, n):
                assert bot_command(peeking, twin, seat, "peek", key, version) == move
                # the old path handed the true state: the same bot's move followed the hidden cards
                rng = lambda: Rng(seed, f"bot:{seat}:{version}")  # noqa: E731
                old_differs += peeking.bot_move(twin, seat, "peek", rng()) != peeking.bot_move(state, seat, "peek", rng())
    assert old_differs, "the peeking bot never saw a difference: the twins hide nothing it reads"


def test_a_bot_cannot_foresee_the_games_rolls_from_its_rng():
    # A bot reading its rng's key (a private slot: nothing stops Python code) and deriving the stream
    # of the command it is about to send (version v + 1) would know the roll or the draw to come.
    seed = "foresee"
    for version in (5, 17, 240):
        handed = bot_rng(bot_key(seed), 1, version)
        assert seed not in (handed._seed, str(handed._version))
        foreseen = Rng(handed._seed, version + 1)
        actual = Rng(seed, version + 1)
        assert [foreseen.randbelow(2 ** 32) for _ in range(4)] != [actual.randbelow(2 ** 32) for _ in range(4)]
        # the old bot rng, Rng(seed, "bot:1:<v>"), held the seed itself: its key foresaw every roll
        old = Rng(seed, f"bot:1:{version}")
        assert [Rng(old._seed, version + 1).randbelow(2 ** 32) for _ in range(1)] == \
               [Rng(seed, version + 1).randbelow(2 ** 32) for _ in range(1)]


def test_the_bot_key_is_hmac_sha256_of_the_seed_and_bot():
    import hmac
    assert bot_key("s") == hmac.new(b"s", b"bot", hashlib.sha256).hexdigest()
    assert bot_key("s") != bot_key("t") and len(bot_key("s")) == 64
