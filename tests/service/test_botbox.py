"""Bots behind a process boundary (issue 34, item 4; events/botbox.py).

A real RQ worker plays bot seats of a test game whose "snoop" bot looks for the other seat's true
hidden number everywhere bot code could reach (tests/support/snoop.py): its call stack, the garbage
collector's objects, and the event store through the Redis URL in its own or its parent's environment.
Behind the boundary it finds nothing; the same code called in the worker's process, or in a bot process
left on the network, finds the number, so these tests can fail.  Verification re-runs every bot move
from its seat's view and the bot key, and a move a server substituted for its bot's is named."""
from __future__ import annotations

import json

import pytest

from events.botbox import BotBox, process_prefix
from events.history import history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS
from rules.base import Rng
from rules.bot_seat import BOTS_REVISION, bot_command, bot_key, provenance, seat_state, wire
from service.wiring import build_engine
from tests.support.processes import Worker, wait_for_game
from tests.support.race import RACE
from tests.support.snoop import NOTHING, SNOOP, UNREACHABLE

HERE = {**RULESETS, "snoop": SNOOP, "race": RACE}
PLUGINS = {"CARTEL_EXTRA_RULESETS": "tests.support.snoop:SNOOP,tests.support.race:RACE"}


@pytest.fixture
def engine(redis_server, redis_client):
    return build_engine(redis_server.url, rulesets=HERE)


def export(runner: GameRunner, game_id: str) -> list[dict]:
    game = runner.load(game_id)
    return parse_history("".join(history_lines(history_header(game), runner.store.read_all(game_id))))


def snooped_game(engine, redis_server, tmp_path, **env) -> tuple[list[int], list[int]]:
    """Two snoop bots play through a real worker: (their guesses, the true numbers)."""
    worker = Worker(redis_server.url, tmp_path / "worker.log", extra_env={**PLUGINS, **env})
    worker.start()
    try:
        game = engine.runner.create_game("snoop", [{"kind": "bot", "level": "snoop"}] * 2, seed="snooped")
        done = wait_for_game(lambda: engine.runner.load(game.id), what="the snoop bots to finish")
    finally:
        worker.stop()
    return done.state["guesses"], done.state["numbers"]


def test_a_bot_process_finds_no_secret_anywhere_it_looks(engine, redis_server, tmp_path):
    assert process_prefix(), "this machine runs the bot process on the network (no unshare): nothing to test"
    guesses, numbers = snooped_game(engine, redis_server, tmp_path)
    # it found the worker's REDIS_URL in /proc, but no network to reach it; no true state in its frames
    assert guesses == [UNREACHABLE, UNREACHABLE], (guesses, numbers)


def test_the_same_bot_left_on_the_network_reads_the_event_store(engine, redis_server, tmp_path):
    # the process boundary alone is not enough: a bot with a network reaches Redis (so the test above can fail)
    guesses, numbers = snooped_game(engine, redis_server, tmp_path, BOT_PROCESS_PREFIX="")
    assert guesses == [numbers[1], numbers[0]]


def test_the_same_bot_in_the_workers_process_finds_the_true_state_in_its_callers_frames(engine):
    game = engine.runner.create_game("snoop", [{"kind": "bot", "level": "snoop"}] * 2, seed="snooped")
    key = bot_key(game.effective_seed)
    world = wire(seat_state(game.ruleset, game.state, 0, key, game.version))
    assert world["numbers"][1] != game.state["numbers"][1]  # the world handed is resampled...
    # ...yet the old way, the bot called in a process whose frames hold the game, reads the true number
    move = game.ruleset.bot_move(world, 0, "snoop", Rng(key, "bot:0:x"))
    assert move == {"type": "Guess", "value": game.state["numbers"][1]}
    assert BotBox(HERE).choose(game.ruleset, world, 0, "snoop", key, game.version)[0]["value"] in (NOTHING,
                                                                                                 UNREACHABLE)


def test_the_safety_limit_cuts_a_move_plays_the_random_level_and_says_so(engine, monkeypatch):
    monkeypatch.setenv("RACE_SLOW_SECONDS", "5")
    monkeypatch.setenv("BOT_PROCESS_ENV", "RACE_SLOW_SECONDS")
    game = engine.runner.create_game("race", [{"kind": "bot", "level": "slow"}, {"kind": "human"}], seed="cut")
    key = bot_key(game.effective_seed)
    world = wire(seat_state(game.ruleset, game.state, 0, key, game.version))
    box = BotBox(HERE, limit_seconds=0.5)
    try:
        command, made = box.choose(game.ruleset, world, 0, "slow", key, game.version)
    finally:
        box.close()
    assert made == {"level": "slow", "revision": BOTS_REVISION, "played": "random", "cut": "0.5 s"}
    assert command == bot_command(game.ruleset, game.state, 0, "random", key, game.version)


def play(runner: GameRunner, game, cheat_at: int | None = None):
    """Play a game of greedy bots as the worker does (each move with its provenance); at `cheat_at`
    moves in, a dishonest server records another legal move as the bot's."""
    box = BotBox(RULESETS)
    try:
        for step in range(3000):
            if game.status == "finished":
                return game
            seat = min(game.awaiting())
            key = bot_key(game.effective_seed)
            level = game.seats[seat]["level"]
            world = wire(seat_state(game.ruleset, game.state, seat, key, game.version))
            command, made = box.choose(game.ruleset, world, seat, level, key, game.version)
            if step == cheat_at:
                command = next(m for m in game.ruleset.legal_moves(game.state, seat) if m != command)
            game = runner.execute(game.id, seat, command, actor_kind="bot", bot=made).game
    finally:
        box.close()
    raise AssertionError("the game did not finish")


@pytest.fixture
def runner(redis_client) -> GameRunner:
    return GameRunner(EventStore(redis_client), RULESETS)


def test_verification_re_derives_every_bot_move_and_names_a_substituted_one(runner):
    bots = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
    honest = play(runner, runner.create_game("kingpin", bots, {"target": 3000}, "bots"))
    records = export(runner, honest.id)
    assert records[0]["bot_key"] == bot_key(honest.effective_seed)
    moves = [r for r in records[1:] if r["actor"].startswith("bot:") and "command" in r]
    assert moves and all(r["bot"]["revision"] == BOTS_REVISION for r in moves)
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"] and verdict["complete"], verdict
    assert verdict["bot_moves"] == {"recorded": len(moves), "rederived": len(moves), "not_rerun": 0,
                                    "other_revision": 0, "cut": 0}
    assert f"Bot moves re-derived from their seat's view and the bot key: {len(moves)} of {len(moves)}." \
        in verdict["summary"]

    cheated = play(runner, runner.create_game("kingpin", bots, {"target": 3000}, "bots"), cheat_at=12)
    records = export(runner, cheated.id)
    verdict = verify_history(records, RULESETS)
    substituted = [r for r in records[1:] if r["actor"].startswith("bot:") and "command" in r][12]
    assert not verdict["valid"] and verdict["diverged_at"] == substituted["version"], verdict
    assert "is not what" in verdict["reason"] and "plays from seat" in verdict["reason"]


def test_a_bot_moves_provenance_is_checked_against_the_table(runner):
    game = play(runner, runner.create_game("kingpin", [{"kind": "bot", "level": "greedy"}] * 2,
                                           {"target": 3000}, "bots"))
    records = export(runner, game.id)
    first = next(r for r in records[1:] if r["actor"].startswith("bot:") and "command" in r)

    def edited(change) -> dict:
        copy = json.loads(json.dumps(records))
        change(next(r for r in copy if r.get("version") == first["version"]))
        return verify_history(copy, RULESETS)

    verdict = edited(lambda r: r["bot"].update(level="random"))
    assert not verdict["valid"] and "records level 'random'" in verdict["reason"], verdict
    verdict = edited(lambda r: r.pop("bot"))
    assert not verdict["valid"] and "does not record how it was chosen" in verdict["reason"], verdict
    verdict = edited(lambda r: r["bot"].update(revision=BOTS_REVISION + 1))  # chosen by bots this release lacks
    assert verdict["valid"] and verdict["bot_moves"]["other_revision"] == 1, verdict
    assert "1 chosen by another revision of the bots" in verdict["summary"]
    verdict = verify_history(records, RULESETS, bots="none")
    assert verdict["valid"] and verdict["bot_moves"]["rederived"] == 0 and verdict["bot_moves"]["not_rerun"] > 0


def test_a_cut_move_is_re_run_at_the_level_that_was_played(runner):
    game = runner.create_game("kingpin", [{"kind": "bot", "level": "greedy"}] * 2,
                              {"target": 3000}, "cut")
    seat = min(game.awaiting())
    key = bot_key(game.effective_seed)
    random_move = bot_command(game.ruleset, game.state, seat, "random", key, game.version)
    runner.execute(game.id, seat, random_move, actor_kind="bot",
                   bot=provenance("greedy", played="random", cut="30 s"))
    records = export(runner, game.id)
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"] and verdict["bot_moves"] == {"recorded": 1, "rederived": 1, "not_rerun": 0,
                                                         "other_revision": 0, "cut": 1}, verdict
    assert "1 cut by the safety limit" in verdict["summary"]


def test_a_search_move_of_an_earlier_bots_revision_re_runs_as_that_revision_chose_it(runner):
    # Bots revision 2 changed the search's value in Druglord (rules/bot_seat.py): a history whose search
    # moves revision 1 made must still verify, each move re-run in the bot process as revision 1 chose it.
    level, old = "ismcts:16", 1
    seats = [{"kind": "bot", "level": level}, {"kind": "bot", "level": "greedy"}]
    game = runner.create_game("druglord", seats, {}, "revision-1")
    differed = searched = 0
    for _ in range(300):  # a prefix (or the whole game): verified
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        key, level_here = bot_key(game.effective_seed), game.seats[seat]["level"]
        command = bot_command(game.ruleset, game.state, seat, level_here, key, game.version, revision=old)
        if level_here == level and len(game.ruleset.legal_moves(game.state, seat)) > 1:
            searched += 1
            differed += command != bot_command(game.ruleset, game.state, seat, level, key, game.version)
        game = runner.execute(game.id, seat, command, actor_kind="bot",
                              bot={"level": level_here, "revision": old}).game
    assert differed, f"the two revisions chose alike in all {searched} searched positions: nothing tested"
    records = export(runner, game.id)
    verdict = verify_history(records, RULESETS, bots="all")
    recorded = verdict["bot_moves"]["recorded"]
    assert verdict["valid"] and recorded > 0, verdict
    assert verdict["bot_moves"]["rederived"] == recorded and verdict["bot_moves"]["other_revision"] == 0, verdict
    for record in records[1:]:  # the same moves said to be today's revision's: they are not what it plays
        if "bot" in record:
            record["bot"]["revision"] = BOTS_REVISION
    verdict = verify_history(records, RULESETS, bots="all")
    assert not verdict["valid"] and "is not what ismcts:16 plays" in verdict["reason"], verdict
