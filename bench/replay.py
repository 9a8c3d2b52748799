"""Replay and verification speed, in events per second, on a long finished game (no Redis).

Per ruleset: the longest of a few seeded games between random bots at the
ruleset's longest setting (Kingpin: 6 players to $10,000), exported as
`GET /v1/games/{id}/history` would (bench/plans.py), then:

- `events.history.verify_history`: re-run every command's `decide` with the
  rng re-derived from the seed and compare every event (what `POST /v1/replays`
  and `cartel verify` do); the state after each command comes with its events
  (Ruleset.decide_and_apply), so only a command's consequences are folded twice;
- `rules.base.fold` of the same events (what loading a game without a
  snapshot does, and a history's state at a version): every ruleset's evolvers
  change the fold's own state in place (rules/folding.py: from nothing, or one
  clone), with no copy per event;
- the pure `evolve`, event by event: each call copies on write what its event
  changes and never changes its input (what decide, the simulations and the
  search do for a few events at a time);
- `parse_history`: the JSON Lines parsing before a verification, for scale;
- `POST /v1/replays?version=N` through the app (Flask's test client, a real
  redis-server): the first post of a history (parse, verify, fold to N) and the
  replay page's step, the same bytes again, whose verdict the process remembers
  (service/api/replays.py RecentVerdicts); `--no-steps` leaves these out.

Baseline: the floor of any immutable fold in Python, over the same events:
one shallow copy of the game's state dict and one key set per event (an
in-place fold may beat it).  Targets (issue 16): fold ≥ 1,000,000 events/s,
verify_history ≥ 200,000 events/s.
Each is measured in 3 interleaved rounds and the best round counts.
`--profile` prints where the time goes (cProfile, by own time); the profile is
always written to bench/results/replay_profile.txt.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import tempfile
import time
from pathlib import Path

from bench.common import RESULTS, rate, ratio, redis_only, report, use_cpu_clock, verdict
from bench.plans import LONG_GAME_OPTIONS, history_text, longest_game
from events.history import parse_history, verify_history
from rules import RULESETS
from rules.base import Event, fold

TARGET = 1_000_000  # fold
VERIFY_TARGET = 200_000
ROUNDS = 3


def evolve_each(ruleset, events: list[Event]):
    """The pure evolve, event by event (copy on write: what each event changes)."""
    state = None
    for event in events:
        state = ruleset.evolve(state, event)
    return state


def floor_fold(events: list[Event], start: dict) -> dict:
    state = start
    for event in events:
        state = dict(state)
        state["last"] = event.type
    return state


def profile(label: str, fn, top: int = 14) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    text = out.getvalue()
    body = text[text.index("   ncalls"):] if "   ncalls" in text else text
    return f"## {label}\n\n{body.rstrip()}\n"


def replay_steps(texts: dict[str, str], seconds: float) -> list[dict]:
    """A replay page's steps through each uploaded history, against the first post of it."""
    from service import create_app  # the app only here: the rest of this bench needs no Redis

    rows = []
    with tempfile.TemporaryDirectory() as tmp, redis_only(Path(tmp)) as server:
        client = create_app({"REDIS_URL": server.url, "TESTING": True,  # the limiter off: replays are measured
                             "RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 0}).test_client()
        fresh = iter(range(1, 10 ** 9))

        def post(body: str, version: int) -> float:
            began = time.perf_counter()
            answer = client.post(f"/v1/replays?version={version}", data=body, content_type="application/x-ndjson")
            spent = time.perf_counter() - began
            if answer.status_code != 200 or not answer.json["valid"] or answer.json["version"] != version:
                raise RuntimeError(f"the bench's replay step failed: {answer.status_code} {answer.get_data()[:200]!r}")
            return spent

        for name, text in texts.items():
            middle = text.count("\n") // 2
            first = step = float("inf")
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline or step == float("inf"):
                first = min(first, post(text + "\n" * next(fresh), middle))  # other bytes: verified afresh
                step = min(step, post(text, middle + 1))  # bytes seen before: the verdict is remembered
            rows += [{"ruleset": name, "what": "POST /v1/replays?version=N, a history's first post (parse, "
                                               "verify, fold to N)", "ms": round(first * 1000, 1), "vs first post": 1.0},
                     {"ruleset": name, "what": "POST /v1/replays?version=N, the replay page's next step (same bytes)",
                      "ms": round(step * 1000, 1), "vs first post": ratio(step, first)}]
    return rows


def run(seconds: float = 2.0, seeds: int = 6, rulesets: tuple[str, ...] | None = None, show_profile: bool = False,
        steps: bool = True) -> dict:
    rows, notes, profiles, texts = [], [], [], {}
    for name in rulesets or sorted(RULESETS):
        ruleset = RULESETS[name]
        game = longest_game(ruleset, ruleset.max_seats, [f"bench-replay-{name}-{n}" for n in range(seeds)],
                            LONG_GAME_OPTIONS.get(name, {}))
        text = texts[name] = history_text(game)
        records = parse_history(text)
        check = verify_history(records, RULESETS)
        verifies = check["valid"]
        if not verifies:  # the fold and evolve rows still stand: the events are a played game's, as stored
            notes.append(f"{name}: the bench's exported history does not verify ({check['reason']}): "
                         f"no verify_history row and no replay steps")
            texts.pop(name)
        events = [Event(r["type"], r["data"]) for r in records[1:]]
        ruleset_events = [e for e in events if e.type not in ("GameCreated", "SeatClaimed", "SeatHandedToBot")]
        n = len(records) - 1
        start = fold(ruleset, ruleset_events[:1])
        floor = folded = pure = verified = parsed = 0.0
        for _ in range(ROUNDS):  # interleaved, best of each: the machine is shared
            floor = max(floor, rate(len(ruleset_events), lambda: floor_fold(ruleset_events, start), seconds / ROUNDS)[0])
            folded = max(folded, rate(len(ruleset_events), lambda: fold(ruleset, ruleset_events), seconds / ROUNDS)[0])
            pure = max(pure, rate(len(ruleset_events), lambda: evolve_each(ruleset, ruleset_events),
                                  seconds / ROUNDS / 2)[0])
            if verifies:
                verified = max(verified, rate(n, lambda: verify_history(records, RULESETS), seconds / ROUNDS)[0])
            parsed = max(parsed, rate(n, lambda: parse_history(text), seconds / ROUNDS / 2)[0])
        label = f"{name}: {game.seats} players, {n:,} events, {len(game.commands):,} commands"
        rows += [
            {"ruleset": name, "what": "floor: dict copy + 1 key per event (baseline)", "events_per_s": round(floor),
             "ratio": 1.0},
            {"ruleset": name, "what": "rules.base.fold (in place)",
             "events_per_s": round(folded), "ratio": ratio(folded, floor), "target": verdict(folded, TARGET)},
            {"ruleset": name, "what": "pure evolve, event by event", "events_per_s": round(pure),
             "ratio": ratio(pure, floor)},
            *([{"ruleset": name, "what": "events.history.verify_history", "events_per_s": round(verified),
                "ratio": ratio(verified, floor), "target": verdict(verified, VERIFY_TARGET)}] if verifies else []),
            {"ruleset": name, "what": "parse_history (JSON Lines → dicts), for scale", "events_per_s": round(parsed),
             "ratio": ratio(parsed, floor)},
        ]
        notes.append(f"{label} (longest of {seeds} seeded random games, options {game.options})")
        profiles.append(profile(f"{name}: rules.base.fold of {len(ruleset_events):,} events",
                                lambda: fold(ruleset, ruleset_events)))
        if verifies:
            profiles.append(profile(f"{name}: verify_history of {n:,} events",
                                    lambda: verify_history(records, RULESETS)))
    if steps and texts:
        rows += replay_steps(texts, seconds)
        notes.append("steps: best of each over `--seconds`, alternating; `ms` is one request's wall time")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "replay_profile.txt").write_text("\n".join(profiles))
    notes.append("targets: fold ≥ 1,000,000 events/s, verify_history ≥ 200,000 events/s, absolute; "
                 "cProfile in bench/results/replay_profile.txt")
    document = report("replay", rows, {"seconds": seconds}, notes)
    if show_profile:
        print("\n".join(profiles))
    return document


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement, over 3 rounds (2)")
    parser.add_argument("--seeds", type=int, default=6, help="seeded games to pick the longest from (6)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    parser.add_argument("--profile", action="store_true", help="print the cProfile top entries")
    parser.add_argument("--no-steps", action="store_true", help="leave out the POST /v1/replays rows (no Redis)")
    parser.add_argument("--cpu", action="store_true", help="per CPU second of this process (with --no-steps)")
    args = parser.parse_args(argv)
    if args.cpu:
        use_cpu_clock()
    run(args.seconds, args.seeds, tuple(filter(None, args.rulesets.split(","))) or None, args.profile,
        not args.no_steps)


if __name__ == "__main__":
    main()
