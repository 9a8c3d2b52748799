"""Lords of Cannabis against its best-known peer: rules-only games between 4 random seats here
(bench/simulate.py's loop: setup, bot_move "random", decide, evolve, until outcome) and 4
catanatron RandomPlayers (catanatron 3.2.1, `Game(...).play()`), in the same process, on the same
core, in interleaved rounds (best round of each, the machine is shared).

A decision is one command here (a bot's move) and one action in catanatron's log (its players
choose every action, the roll included).  Goal (issue 11): Lords of Cannabis games/s at least
catanatron's, ratio >= 1.0.

catanatron is a bench-only dependency: `pip install -e '.[bench]'` (or `pip install catanatron==3.2.1`).
"""
from __future__ import annotations

import argparse
import importlib.util
import time

from bench.common import ratio, report, verdict
from bench.simulate import play_one
from rules import RULESETS

SEATS = 4
ROUNDS = 3


def catanatron_game(seed: int) -> int:
    """One catanatron game between 4 random players; its number of actions."""
    from catanatron import Color, Game, RandomPlayer
    players = [RandomPlayer(color) for color in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)]
    game = Game(players, seed=seed)
    game.play()
    return len(game.state.actions)


def cannabis_game(seed: int) -> int:
    """One Lords of Cannabis game between 4 random seats; its number of commands."""
    commands, _ = play_one(RULESETS["lords_of_cannabis"], SEATS, f"sim-lords_of_cannabis-{SEATS}-{seed}")
    return commands


def measure(game, seconds: float) -> dict:
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += game(games)
        games += 1
        spent = time.perf_counter() - start
        if spent >= seconds and games >= 3:
            return {"games": games, "games_per_s": games / spent, "decisions_per_s": decisions / spent,
                    "decisions_per_game": decisions / games}


def run(seconds: float = 6.0) -> dict:
    if importlib.util.find_spec("catanatron") is None:
        return report("catan_peer", [{"what": "catanatron is not installed: pip install -e '.[bench]'"}])
    best: dict[str, dict] = {}
    for _ in range(ROUNDS):
        for name, game in (("catanatron", catanatron_game), ("lords_of_cannabis", cannabis_game)):
            result = measure(game, seconds / ROUNDS)
            if name not in best or result["games_per_s"] > best[name]["games_per_s"]:
                best[name] = result
    peer, ours = best["catanatron"], best["lords_of_cannabis"]
    rows = [{"what": "catanatron 3.2.1, 4 RandomPlayers (baseline)", "games_per_s": round(peer["games_per_s"], 1),
             "decisions_per_s": round(peer["decisions_per_s"]), "decisions_per_game": round(peer["decisions_per_game"]),
             "games": peer["games"], "ratio": 1.0},
            {"what": "lords_of_cannabis, 4 random seats, rules only", "games_per_s": round(ours["games_per_s"], 1),
             "decisions_per_s": round(ours["decisions_per_s"]), "decisions_per_game": round(ours["decisions_per_game"]),
             "games": ours["games"], "ratio": ratio(ours["games_per_s"], peer["games_per_s"]),
             "decisions_ratio": ratio(ours["decisions_per_s"], peer["decisions_per_s"]),
             "goal": verdict(ratio(ours["games_per_s"], peer["games_per_s"]), 1.0)}]
    notes = ["ratio = games/s against catanatron's games/s, same process and core, interleaved rounds, best round",
             "decisions_ratio = decisions/s against catanatron's (a catanatron random game takes more decisions)",
             f"{seconds:g} s per engine in {ROUNDS} rounds; seeds sim-lords_of_cannabis-4-<n> and catanatron seed=<n>"]
    return report("catan_peer", rows, {"seconds": seconds}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time per engine, over all rounds (6)")
    run(parser.parse_args(argv).seconds)


if __name__ == "__main__":
    main()
