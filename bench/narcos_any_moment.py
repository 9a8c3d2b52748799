"""Narcos «en cualquier momento» at the DEA agent of money (docs/rules/narcos.md, ruling C1): greedy games at
four seats, played under rules versions 2 and 3 on the same seeds, counting

* turn ends at which the agent's holder could have shed it by converting workers (2 million each, a sicario
  from the supply) before the check, and of those how many came after a turn in which the holder had been
  asked nothing (version 2 gave it no chance then);
* the windows version 3 opens: "dea-money" (the next seat may spend before the check) and "unpaid" (a seat may
  raise money before an owed card goes unpaid).

    nice -n 19 python3 -m bench.narcos_any_moment --games 20
"""
from __future__ import annotations

import argparse
from collections import Counter

from rules.base import Rng, fold, normalize_options
from rules.bot_seat import bot_command, bot_key
from rules.narcos import RULESET
from rules.narcos.state import richest


def shed_by_converting(state: dict) -> bool:
    """At a turn's end: would the holder keep the agent at the check, and could converting workers shed it?"""
    holder, start = state["dea"]["money"], state["turn"]["seat"]
    if not isinstance(holder, int) or richest(state, holder, start) != holder:
        return False
    p = state["players"][holder]
    for k in range(1, min(p["workers"], state["supply"]) + 1):
        if 2 * k > p["money"]:
            break
        poorer = {**state, "players": [{**q, "money": q["money"] - 2 * k} if s == holder else q
                                       for s, q in enumerate(state["players"])]}
        if richest(poorer, holder, start) != holder:
            return True
    return False


def count(version: int, games: int, mode: str) -> Counter:
    ruleset, out = RULESET.at(version), Counter()
    for game in range(games):
        seed = f"narcos-any-moment-{mode}-{game}"
        events = ruleset.setup(normalize_options(ruleset.options, {"mode": mode}), 4, Rng(seed, 2))
        state, at, asked = fold(ruleset, events), 1 + len(events), set()
        while ruleset.outcome(state) is None and out["commands"] < 3000 * (game + 1):
            seat = min(ruleset.awaiting(state))
            asked.add(seat)
            command = bot_command(ruleset, state, seat, "greedy", bot_key(seed), at, None)
            events = ruleset.decide(state, seat, command, Rng(seed, at + 1))
            for i, event in enumerate(events):
                if event.type == "TurnEnded":
                    out["turn ends"] += 1
                    ended = fold(ruleset, events[:i + 1], state)
                    if shed_by_converting(ended):
                        out["holder could shed by converting"] += 1
                        out["... and had been asked nothing that turn"] += ended["dea"]["money"] not in asked
                elif event.type == "ReactionAsked":
                    out[f"{event.data['kind']} windows"] += 1
                elif event.type == "TurnStarted":
                    asked = set()
            state, at = fold(ruleset, events, state), at + len(events)
            out["commands"] += 1
        out["games ended"] += ruleset.outcome(state) is not None
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--mode", choices=("basic", "advanced"), default="basic")
    args = parser.parse_args(argv)
    for version in (2, 3):
        print(f"version {version}, {args.games} greedy four-seat {args.mode} games:",
              dict(sorted(count(version, args.games, args.mode).items())), flush=True)


if __name__ == "__main__":
    main()
