"""Make the format-5 histories of this directory: finished games played by the engine as the service plays
them (a human seat that contributes its entropy, a seat claimed from the lobby with the claimer's entropy,
bots choosing from their seat's view and the bot key, their moves recorded with their provenance), for the
outside checkers of docs/fairness.md (docs/examples/check_outcomes.py, tests/examples/test_check_outcomes.py)
and the reference export of the test vectors (tests/data/reference-kingpin.jsonl).

    python tests/data/format5/make.py tests/data/format5 GAME-NAME...     (needs redis-server)

Each GAME-NAME is a key of GAMES.  The games are whatever the server's seeds make them: run it again and the
games differ; the tests check what any finished game must satisfy, never the particular rolls.
"""
from __future__ import annotations

import gzip
import json
import sys
import tempfile
from pathlib import Path

from events.history import history_header, history_lines, parse_history, verify_history
from events.runner import GameRunner
from events.store import EventStore
from rules import RULESETS
from rules.base import Rng
from rules.bot_seat import bot_command, bot_key, provenance
from tests.support.processes import RedisServer

HUMAN, OPEN = {"kind": "human"}, {"kind": "open"}


def bot(level: str) -> dict:
    return {"kind": "bot", "level": level}


# name -> (ruleset, seats, options[, how the humans choose: a level, or command types they play first when
# they may, else at random]): a human, a claimed seat and bots, as the service seats them
GAMES = {
    "kingpin": ("kingpin", [HUMAN, OPEN, bot("greedy")], {}),
    # humans who gamble and pick up Lids whenever they may: bets settled by the move's die, Lids that break them
    "trafficking": ("trafficking", [HUMAN, OPEN, bot("greedy"), bot("random")], {}, ("Gamble", "PickUpLid")),
    "lords_of_cannabis": ("lords_of_cannabis", [HUMAN, OPEN, bot("greedy")], {}),
    # a long game, trials at 3 Cases, humans who draw and play Baller cards whenever they may: the Baller deck
    # drawn through and reshuffled, tied trial results rolled off
    "druglord": ("druglord", [HUMAN, OPEN, HUMAN, bot("greedy")], {"game_to": 60, "california_style": True},
                 ("PlayCard", "DrawBaller")),
    "narcos": ("narcos", [HUMAN, OPEN, bot("greedy")], {"mode": "basic"}),
    "narcos-advanced": ("narcos", [HUMAN, OPEN, bot("random")], {"mode": "advanced"}),
    # the reference export of the vectors: short (a $3,000 target), a human who contributes and a bot
    "reference-kingpin": ("kingpin", [HUMAN, bot("random")], {"target": 3000}, "greedy"),
}


def human_move(game, seat: int, how: str | tuple, rng: Rng) -> dict:
    """A human's move: a bot level's, or the first of the preferred command types the seat may play."""
    if isinstance(how, str):
        return game.ruleset.bot_move(game.state, seat, how, rng)
    moves = game.ruleset.legal_moves(game.state, seat)
    for kind in how:
        preferred = [move for move in moves if move["type"] == kind]
        if preferred:
            return rng.choice(preferred)
    return rng.choice(moves)


def play(runner: GameRunner, name: str, moves: int = 20000) -> str:
    """One finished game of GAMES[name], as its export's text."""
    ruleset, seats, options, *human = GAMES[name]
    humans = [n for n, seat in enumerate(seats) if seat["kind"] == "human"]
    game = runner.create_game(ruleset, seats, options, None, None, {n: f"h{n}" for n in humans},
                              contribution_seconds=30)
    if any(seat["kind"] == "open" for seat in seats):
        game = runner.claim_seat(game.id, 1, "h1", "Bo", "the claimer's entropy")
    for n in humans:  # the creator's seats, each with its own coin
        game = runner.contribute(game.id, n, f"{name}: seat {n}'s own coin")
    for step in range(moves):
        if game.status != "active":
            break
        seat = min(game.awaiting())
        level = game.seats[seat].get("level", "random")
        if game.seats[seat]["kind"] == "bot":
            command = bot_command(game.ruleset, game.state, seat, level, bot_key(game.effective_seed), game.version)
            game = runner.execute(game.id, seat, command, actor_kind="bot", bot=provenance(level)).game
        else:
            command = human_move(game, seat, human[0] if human else "random", Rng(f"{name} human", step))
            game = runner.execute(game.id, seat, command).game
    assert game.status == "finished", (name, game.status)
    return "".join(history_lines(history_header(game), runner.store.read_all(game.id), game.ruleset))


def write(out: Path, name: str, text: str) -> None:
    """The export (gzipped, but the reference's), once it verifies valid and complete; the reference's verdict."""
    verdict = verify_history(parse_history(text), RULESETS)
    assert verdict["valid"] and verdict["complete"], verdict
    if name.startswith("reference-"):
        (out / f"{name}.jsonl").write_text(text)
        (out / f"{name}-verdict.json").write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n")
    else:
        with gzip.open(out / f"{name}.jsonl.gz", "wt") as file:
            file.write(text)


def main(out: str, *names: str) -> None:
    with tempfile.TemporaryDirectory() as directory:
        server = RedisServer(Path(directory))
        server.start()
        try:
            runner = GameRunner(EventStore(server.client()), RULESETS)
            for name in names:
                text = play(runner, name)
                write(Path(out), name, text)
                print(name, text.count("\n") - 1, "events")
        finally:
            server.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
