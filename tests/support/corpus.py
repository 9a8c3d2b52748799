"""A recorded corpus of finished game histories: the fixed point the engine's refactors keep.

`python -m tests.support.corpus --out tests/data/histories` plays seeded games through the real
runner and job functions (bots, turn clocks expiring, seats handed to bots and reclaimed) on a
throwaway redis-server, with a fake clock, and writes each finished game's exported history
(gzipped JSON Lines, exactly as GET /v1/games/{id}/history serves it).
The histories are committed; tests/events/test_corpus.py verifies and re-plays every one of them,
so a change that alters what any recorded command produces fails there.
"""
from __future__ import annotations

import argparse
import gzip
import tempfile
from pathlib import Path

from events.history import history_header, history_lines
from rules.base import Rng

GAMES_PER_RULESET = 20
MAX_STEPS = 20_000


class FakeClock:
    """Milliseconds that advance only when told to (deadlines become deterministic)."""

    def __init__(self, start: int = 1_800_000_000_000):
        self.now = start

    def __call__(self) -> int:
        return self.now


def seat_plan(ruleset, number: int) -> tuple[list[dict], dict | None]:
    """Mixed seats for game `number`: humans (some with clocks), random and greedy bots."""
    seats = ruleset.min_seats + number % (ruleset.max_seats - ruleset.min_seats + 1)
    kinds = []
    for n in range(seats):
        pick = (number + n) % 4
        kinds.append({"kind": "human"} if pick in (0, 1) else
                     {"kind": "bot", "level": ruleset.bot_levels[pick % min(2, len(ruleset.bot_levels))]})
    if all(k["kind"] == "bot" for k in kinds):
        kinds[0] = {"kind": "human"}
    clock = {"move_seconds": 30, "response_seconds": 10, "timeouts_before_bot": 2} if number % 2 == 0 else None
    return kinds, clock


def play_game(engine, jobs, clock: FakeClock, ruleset, number: int) -> str:
    """Create and play one game to its end; returns its id."""
    runner = engine.runner
    seats, game_clock = seat_plan(ruleset, number)
    options = {"target": 3000} if ruleset.name == "kingpin" else {}
    if ruleset.name == "narcos":  # both modes, alternately
        options = {"mode": ("basic", "advanced")[number % 2]}
    game = runner.create_game(ruleset.name, seats, options, f"corpus-{ruleset.name}-{number}", game_clock)
    humans = Rng(f"corpus-humans-{number}", 0)
    for step in range(MAX_STEPS):
        game = runner.load(game.id)
        if game.status == "finished":
            return game.id
        handed = [s for s, spec in enumerate(game.seats) if spec["kind"] == "bot" and seats[s]["kind"] != "bot"]
        if handed and humans.randbelow(30) == 0:  # a human takes back the seat its clock handed to a bot
            runner.reclaim_seat(game.id, handed[0])
            continue
        awaiting = sorted(game.awaiting())
        bots = [s for s in awaiting if game.seats[s]["kind"] == "bot"]
        if bots:
            jobs.play_bot(game.id, game.version, bots[0])
            continue
        seat = awaiting[humans.randbelow(len(awaiting))]
        deadline = game.deadlines.get(seat)
        if deadline is not None and humans.randbelow(12) == 0:  # this human lets the clock run out
            clock.now = max(clock.now, deadline) + 1
            jobs.expire_clock(game.id, seat, deadline)
            continue
        clock.now += 1000
        command = ruleset.bot_move(game.state, seat, "random", Rng(f"corpus-move-{number}", step))
        runner.execute(game.id, seat, command)
    raise RuntimeError(f"{ruleset.name} game {number} did not finish in {MAX_STEPS} steps")


def export(runner, game_id: str) -> str:
    game = runner.load(game_id)
    return "".join(history_lines(history_header(game), runner.store.read_all(game_id)))


def record(out: Path, games: int = GAMES_PER_RULESET, only: tuple[str, ...] = ()) -> list[Path]:
    from service import jobs
    from service.wiring import build_engine
    from tests.support.processes import RedisServer

    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as directory:
        server = RedisServer(Path(directory))
        server.start()
        try:
            engine = build_engine(server.url)
            clock = FakeClock()
            engine.runner.clock = clock
            jobs._engine = engine  # the job functions run in this process, on this engine
            for name in sorted(n for n in engine.runner.rulesets if not only or n in only):
                ruleset = engine.runner.rulesets[name]
                for number in range(games):
                    game_id = play_game(engine, jobs, clock, ruleset, number)
                    path = out / f"{name}-{number:02d}.jsonl.gz"
                    # mtime=0: the same history gzips to the same bytes
                    path.write_bytes(gzip.compress(export(engine.runner, game_id).encode(), mtime=0))
                    written.append(path)
        finally:
            jobs._engine = None
            server.stop()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("tests/data/histories"))
    parser.add_argument("--games", type=int, default=GAMES_PER_RULESET)
    parser.add_argument("--rulesets", default="", help="record only these (comma-separated): the others' "
                        "recorded histories stay as they are")
    args = parser.parse_args()
    for path in record(args.out, args.games, tuple(filter(None, args.rulesets.split(",")))):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()


def bare(outcome: dict | None) -> dict | None:
    """A served or verified outcome without its sentence (`text`): the rules' outcome, as a header records it."""
    return None if outcome is None else {k: v for k, v in outcome.items() if k != "text"}
