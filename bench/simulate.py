"""Rules-only simulation: whole seeded games between random bots per second, per ruleset (no Redis).

A game is what the server would play without its I/O: `setup`, then for the
lowest awaited seat `bot_move(..., "random", Rng(seed, "bot:<seat>:<version>"))`,
`decide` with `Rng(seed, version + 1)` and `evolve` of every event, until
`outcome`.  Seeds are `sim-<ruleset>-<seats>-<n>`, so every run plays the same
games.  Games have different lengths in different rulesets, so the ratio is
taken on commands per second.

Baseline: the same loop on Pig, a dice game written in bench/ to the same
Decider contract in a few lines (roll or hold; a 1 loses the turn's points;
first to 50): the floor of the protocol itself (Rng, events, immutable state).
"""
from __future__ import annotations

import argparse
from typing import Any, Mapping

from bench import common
from bench.common import ratio, report
from rules import RULESETS
from rules.base import Event, Option, Rng

ROUNDS = 3
# extra rows for rulesets whose options change the game a lot: label -> (ruleset, options)
VARIANTS = {"narcos": {"narcos, mode=advanced": {"mode": "advanced"}}}


class Pig:
    """A minimal ruleset: the baseline's reference Decider."""

    name, title, min_seats, max_seats = "pig", "Pig", 2, 6
    options: Mapping[str, Option] = {"target": Option(50, (50, 100))}
    bot_levels = ("random",)

    def setup(self, options, seats, rng):
        return [Event("GameStarted", {"seats": seats, "target": options.get("target", 50),
                                      "first": rng.randbelow(seats)})]

    def evolve(self, state, event):
        d = event.data
        if event.type == "GameStarted":
            return {"scores": [0] * d["seats"], "current": d["first"], "pot": 0, "target": d["target"], "winner": None}
        new = dict(state)
        if event.type == "DieRolled":
            new["pot"] = 0 if d["face"] == 1 else state["pot"] + d["face"]
            if d["face"] == 1:
                new["current"] = (state["current"] + 1) % len(state["scores"])
        elif event.type == "PotBanked":
            new["scores"] = list(state["scores"])
            new["scores"][d["seat"]] += d["pot"]
            new["pot"] = 0
            new["current"] = (state["current"] + 1) % len(state["scores"])
        elif event.type == "GameWon":
            new["winner"] = d["seat"]
        return new

    def legal_moves(self, state, seat):
        if state["winner"] is not None or seat != state["current"]:
            return []
        return [{"type": "Roll"}] + ([{"type": "Hold"}] if state["pot"] else [])

    def decide(self, state, seat, command, rng):
        if command not in self.legal_moves(state, seat):
            raise ValueError(command)
        if command["type"] == "Roll":
            return [Event("DieRolled", {"seat": seat, "face": rng.randint(1, 6)})]
        events = [Event("PotBanked", {"seat": seat, "pot": state["pot"]})]
        if state["scores"][seat] + state["pot"] >= state["target"]:
            events.append(Event("GameWon", {"seat": seat}))
        return events

    def awaiting(self, state):
        return {} if state["winner"] is not None else {state["current"]: "move"}

    def outcome(self, state):
        return None if state["winner"] is None else {"winners": [state["winner"]], "reason": "reached the target"}

    def bot_move(self, state, seat, level, rng):
        return rng.choice(self.legal_moves(state, seat))


def play_one(ruleset, seats: int, seed: str, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """One whole game; (commands, events)."""
    from rules.base import normalize_options
    options = normalize_options(ruleset.options, options)
    events = ruleset.setup(options, seats, Rng(seed, 2))
    state = None
    for event in events:
        state = ruleset.evolve(state, event)
    version, commands = 1 + len(events), 0
    while ruleset.outcome(state) is None:
        seat = min(ruleset.awaiting(state))
        command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{seat}:{version}"))
        new = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        for event in new:
            state = ruleset.evolve(state, event)
        version += len(new)
        commands += 1
    return commands, version - 1


def measure(ruleset, seats: int, seconds: float, options: Mapping | None = None) -> dict:
    games = commands = events = 0
    start = common.CLOCK()
    while True:
        c, e = play_one(ruleset, seats, f"sim-{ruleset.name}-{seats}-{games}", options)
        games, commands, events = games + 1, commands + c, events + e
        spent = common.CLOCK() - start
        if spent >= seconds and games >= 3:
            return {"games": games, "seconds": spent, "games_per_s": games / spent, "commands_per_s": commands / spent,
                    "events_per_s": events / spent, "commands_per_game": commands / games}


def run(seconds: float = 3.0, seats: int = 3, rulesets: tuple[str, ...] | None = None) -> dict:
    rows = []
    names = rulesets or tuple(sorted(RULESETS))
    best: dict[str, dict] = {}
    keys = [("pig", None)] + [(label, options) for name in names
                              for label, options in [(name, None), *VARIANTS.get(name, {}).items()]]
    for _ in range(ROUNDS):  # interleaved rounds, best of each (the machine is shared)
        for key, options in keys:
            ruleset = Pig() if key == "pig" else RULESETS[key.split(",")[0]]
            n = max(ruleset.min_seats, min(ruleset.max_seats, seats))
            result = measure(ruleset, n, seconds / ROUNDS, options)
            if key not in best or result["commands_per_s"] > best[key]["commands_per_s"]:
                best[key] = {**result, "seats": n}
    base = best["pig"]
    rows.append({"what": f"Pig (bench's minimal Decider), {seats} players (baseline)", "games_per_s": round(base["games_per_s"], 1),
                 "commands_per_s": round(base["commands_per_s"]), "events_per_s": round(base["events_per_s"]),
                 "commands_per_game": round(base["commands_per_game"]), "games": base["games"], "ratio": 1.0})
    for name, options in keys[1:]:
        result, n = best[name], best[name]["seats"]
        rows.append({"what": f"{name}, {n} random bots" + ("" if options else ", default options"), "games_per_s": round(result["games_per_s"], 1),
                     "commands_per_s": round(result["commands_per_s"]), "events_per_s": round(result["events_per_s"]),
                     "commands_per_game": round(result["commands_per_game"]), "games": result["games"],
                     "ratio": ratio(result["commands_per_s"], base["commands_per_s"])})
    notes = ["ratio = commands/s against the baseline's commands/s (games differ in length); one process, no Redis",
             f"{seconds:g} s per ruleset in {ROUNDS} interleaved rounds, best round; seeds sim-<ruleset>-<seats>-<n>"]
    return report("simulate", rows, {"seconds": seconds, "seats": seats}, notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum time per ruleset (3)")
    parser.add_argument("--seats", type=int, default=3, help="players per game, clamped to what a ruleset allows (3)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    parser.add_argument("--cpu", action="store_true", help="per CPU second of this process, not per wall second")
    args = parser.parse_args(argv)
    if args.cpu:
        common.use_cpu_clock()
    run(args.seconds, args.seats, tuple(filter(None, args.rulesets.split(","))) or None)


if __name__ == "__main__":
    main()
