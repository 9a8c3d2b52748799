"""Bot arena: seeded games between bot levels, rules only (no Redis), on every core, rated with
OpenSkill (Plackett-Luce).

    python3 -m bench.arena --rulesets pig,kingpin --levels greedy,ismcts:50 --seats 2 --games 20

Each pairing of two levels A and B plays `--games` games: heads-up A against B, at more seats one
A against B in every other seat (and B against A's copies likewise), the lineup rotated one seat a
game so nobody keeps the first move.  A game is played as the worker would play it (the lowest
awaited seat moves, through rules.bot_seat.bot_command: its seat's determinization of the state and
the bot key's stream "bot:<seat>:<version>"; seeds are
arena-<ruleset>-<seats>-<lineup>-<n>), so a run is reproducible; a search level's budget is its
iterations (no time cap here).

Ratings: each game is a ranking (winners first, tied; everyone else second); copies of one level
at a table are rated as separate players from the level's rating, and their updates averaged.
Where seats have roles (Trafficking's Narc and Dealers), a level is rated per role ("greedy@narc").
Win rate counts a shared win as a share; its 95% interval is Wilson's.

A game that has not ended after `--max-commands` commands (default: `bound(seats)`) is stopped and
reported as a failure, not a result: it is left out of the ratings, printed as a FAILED line, kept in
the JSON's "failures", and the run exits with status 1 (a search that stalls a game is a bug to fix,
not a strength to rate; issue 22's Lords of Cannabis stall kept a 20-game run busy for 85 minutes).

Output (bench/results/arena/, git-ignored): a table on stdout, arena-<stamp>.json and
arena-<stamp>.png (needs matplotlib: `pip install -e .[bench]`; without it no chart is drawn).
`--speed` instead measures ISMCTS iterations per second per ruleset.
`--write-ratings` stores each ruleset's served levels' ratings in rules/<game>/arena_ratings.json: where the
server's bots start on its leaderboards (events/ratings.py bot_priors; a level rated per role is merged).
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import BOTS_REVISION, bot_command, bot_key
from rules.search import ismcts

OUT = Path(__file__).resolve().parent / "results" / "arena"
def bound(seats: int) -> int:
    """Commands every game between bots ends in, at any levels (issue 39; tests/rules/test_progress.py holds
    every ruleset and lineup to it): a quarter above the longest of the lineups measured.  Random bots' Kingpin
    has the longest tail: 20 seeds at 3 seats took 440 to 1,884 commands, at 4 seats 667 to 2,411 (2026-11-28,
    since a bot is handed its state in canonical order, rules/bot_seat.py wire: the same seeds play other
    games); Druglord at 5 took 1,999."""
    return 1000 + 500 * seats


# ------------------------------------------------------------------ playing
def role_of(state: dict, seat: int) -> str | None:
    """A seat's role where a game gives seats different roles (Trafficking: "narc" | "dealer")."""
    players = state.get("players") if isinstance(state, dict) else None
    if isinstance(players, list) and seat < len(players) and isinstance(players[seat], dict):
        return players[seat].get("role")
    return None


def measured_seat(state: dict, role: str, n: int) -> int:
    """The seat whose role is measured in game `n`: the Narc, or the Dealers in turn."""
    seats = [s for s in range(len(state["players"])) if role_of(state, s) == role]
    if not seats:
        raise ValueError(f"no seat has the role {role!r} in this game")
    return seats[n % len(seats)]


REVISION = BOTS_REVISION  # the bots revision every seat plays (--revision): today's, or an earlier one's re-run


def tune(overrides: dict, omniscient: bool = False, revision: int = BOTS_REVISION) -> None:
    """Every ruleset's search settings with `overrides` (SearchSettings fields): for measuring a lever
    without editing the games (--settings); run in each worker process.  `omniscient` (--omniscient, a
    bench-only ceiling, never served) hands every bot the true state instead of its seat's
    determinization: how much a determinization that used every public fact could gain at most.
    `revision`: the bots revision every seat plays (rules/bot_seat.py), to compare two on the same seeds."""
    global REVISION
    REVISION = revision
    for ruleset in EVERY_RULESET.values():
        ruleset.search_settings = dataclasses.replace(ruleset.search_settings, **overrides)
        if omniscient:
            ruleset.determinize = _true_state


def _true_state(state, seat, rng):
    return state


def play(job: tuple) -> dict:
    """One game: {"lineup", "winners", "roles", "commands", "seconds": {level: s}, "moves": {level: n}};
    a game that has not ended after `max_commands` has "failed" (why) and no winners.  With a `role`
    (a seventh element, with the game's number an eighth), the lineup is (measured level, the others'
    level, ...): the seat the game's own roll gives that role plays the first, every other seat the second."""
    name, lineup, seed, options, move_seconds, max_commands, *measure = job
    ruleset = EVERY_RULESET[name]
    events = ruleset.setup(normalize_options(ruleset.options, options), len(lineup), Rng(seed, 2))
    state, version = fold(ruleset, events), 1 + len(events)
    measured = None
    if measure:
        role, n = measure
        measured = measured_seat(state, role, n)
        lineup = tuple(lineup[0] if s == measured else lineup[1] for s in range(len(lineup)))
    spent, cpu, longest, moves = defaultdict(float), defaultdict(float), defaultdict(float), defaultdict(int)
    for commands in range(max_commands + 1):  # noqa: B007 (read after the loop: the game's length)
        outcome = ruleset.outcome(state)
        if outcome is not None or commands == max_commands:
            break
        seat = min(ruleset.awaiting(state))
        level = lineup[seat]
        started, cpu_started = time.perf_counter(), time.process_time()
        out_of_time = None
        if move_seconds:  # the worker's cap (service/jobs.py BOT_MOVE_SECONDS), for search levels
            def out_of_time(deadline=started + move_seconds):
                return time.perf_counter() >= deadline
        command = bot_command(ruleset, state, seat, level, bot_key(seed), version, out_of_time, REVISION)
        spent[level] += time.perf_counter() - started
        used = time.process_time() - cpu_started  # CPU: what a move costs whatever else the machine runs
        cpu[level] += used
        longest[level] = max(longest[level], used)
        moves[level] += 1
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    result = {"lineup": list(lineup), "seed": seed, "commands": commands, "measured": measured,
              "roles": [role_of(state, s) for s in range(len(lineup))], "seconds": dict(spent), "moves": dict(moves),
              "cpu_seconds": dict(cpu), "longest_cpu_seconds": dict(longest)}
    if outcome is None:
        return {**result, "winners": [], "failed": f"did not end in {max_commands} commands"}
    return {**result, "winners": list(outcome["winners"])}


def lineups(levels: list[str], seats: int, lone: str | None = None) -> list[tuple[str, ...]]:
    """Heads-up: every pair once; more seats: each level alone against each other level's copies
    (only `lone` alone, when given)."""
    if seats == 2:
        return [pair for pair in itertools.combinations(levels, 2)]
    return [(a,) + (b,) * (seats - 1) for a, b in itertools.permutations(levels, 2) if lone in (None, a)]


def jobs(name: str, levels: list[str], seats: int, games: int, options: dict | None,
         move_seconds: float | None = None, lone: str | None = None, max_commands: int | None = None,
         role: str | None = None, against: str = "greedy") -> list[tuple]:
    """The games of a run.  With a `role`: each level in that role's seat, `against` in every other, on
    seeds shared by the levels (arena-<ruleset>-<seats>-<role>-<n>), so the levels meet the same rolls for
    the roles and the same openings."""
    max_commands = max_commands or bound(seats)
    if role is not None:
        return [(name, (level,) + (against,) * (seats - 1), f"arena-{name}-{seats}-{role}-{n}", options,
                 move_seconds, max_commands, role, n) for level in levels for n in range(games)]
    out = []
    for lineup in lineups(levels, seats, lone):
        for n in range(games):
            rotated = lineup[n % seats:] + lineup[:n % seats]
            out.append((name, rotated, f"arena-{name}-{seats}-{'-'.join(lineup)}-{n}", options,
                        move_seconds, max_commands))
    return out


# ------------------------------------------------------------------ rating
def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def key_of(level: str, role: str | None) -> str:
    return f"{level}@{role}" if role else level


def rate(results: list[dict]) -> dict[str, dict]:
    """Per level (and role): games, win share, its interval, OpenSkill mu and sigma."""
    if not results:  # every game failed: nothing to rate
        return {}
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    games, wins = defaultdict(int), defaultdict(float)
    for result in results:
        keys = [key_of(level, role) for level, role in zip(result["lineup"], result["roles"])]
        winners = result["winners"]
        for seat, key in enumerate(keys):
            games[key] += 1
            wins[key] += 1 / len(winners) if seat in winners else 0.0
            ratings.setdefault(key, model.rating(name=key))
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma, name=k)] for k in keys]
        ranks = [1 if seat in winners else 2 for seat in range(len(keys))]
        updated = model.rate(teams, ranks=ranks)
        copies = defaultdict(list)
        for key, team in zip(keys, updated):
            copies[key].append(team[0])
        for key, rated in copies.items():
            ratings[key] = model.rating(mu=sum(r.mu for r in rated) / len(rated),
                                        sigma=sum(r.sigma for r in rated) / len(rated), name=key)
    table = {}
    for key in sorted(ratings, key=lambda k: -ratings[k].mu):
        low, high = wilson(wins[key], games[key])
        table[key] = {"games": games[key], "wins": round(wins[key], 2), "win_rate": round(wins[key] / games[key], 3),
                      "win_rate_95": [round(low, 3), round(high, 3)], "mu": round(ratings[key].mu, 2),
                      "sigma": round(ratings[key].sigma, 2)}
    return table


def head_to_head(results: list[dict]) -> dict[str, dict]:
    """Per lineup (levels in seat order before rotation is undone: the first level against the rest):
    how often the lone level won."""
    out: dict[str, dict] = {}
    for result in results:
        lineup = result["lineup"]
        counts = {level: lineup.count(level) for level in lineup}
        lone = min(counts, key=lambda level: (counts[level], level))
        other = next((level for level in counts if level != lone), lone)
        label = f"{lone} vs {other}" if len(lineup) == 2 else f"1 {lone} vs {len(lineup) - 1} {other}"
        row = out.setdefault(label, {"games": 0, "wins": 0.0})
        row["games"] += 1
        row["wins"] += sum(1 / len(result["winners"]) for s in result["winners"] if lineup[s] == lone)
    for row in out.values():
        row["win_rate"] = round(row["wins"] / row["games"], 3)
        row["win_rate_95"] = [round(x, 3) for x in wilson(row["wins"], row["games"])]
    return out


def by_role(results: list[dict]) -> dict[str, dict]:
    """Per level in the measured seat: its win share, and where other seats share its role (a Dealer
    among Dealers) their mean share and the measured seat's part of the two ("vs a peer": heads-up
    between it and one of its peers, the games neither won left out; 0.5 is even)."""
    out: dict[str, dict] = {}
    for result in results:
        seat = result["measured"]
        role = result["roles"][seat]
        peers = [s for s, r in enumerate(result["roles"]) if r == role and s != seat]
        winners = result["winners"]
        row = out.setdefault(f"{result['lineup'][seat]}@{role}", {"games": 0, "wins": 0.0})
        row["games"] += 1
        row["wins"] += 1 / len(winners) if seat in winners else 0.0
        if peers:
            row["peer_wins"] = row.get("peer_wins", 0.0) + sum(
                1 / len(winners) for s in winners if s in peers) / len(peers)
    for row in out.values():
        row["win_rate"] = round(row["wins"] / row["games"], 3)
        row["win_rate_95"] = [round(x, 3) for x in wilson(row["wins"], row["games"])]
        if "peer_wins" in row:
            decided = row["wins"] + row["peer_wins"]
            row["peer_win_rate"] = round(row["peer_wins"] / row["games"], 3)
            row["vs_peer"] = round(row["wins"] / decided, 3) if decided else 0.5
            row["vs_peer_95"] = [round(x, 3) for x in wilson(row["wins"], decided)]
    return out


# ------------------------------------------------------------------ output
def show(title: str, table: dict[str, dict], pairs: dict[str, dict]) -> None:
    print(f"\n{title}")
    print(f"{'level':<28}{'games':>7}{'win rate':>10}{'95% interval':>16}{'mu':>8}{'sigma':>8}")
    for key, row in table.items():
        low, high = row["win_rate_95"]
        print(f"{key:<28}{row['games']:>7}{row['win_rate']:>10.3f}{f'[{low:.2f}, {high:.2f}]':>16}"
              f"{row['mu']:>8.2f}{row['sigma']:>8.2f}")
    for label, row in pairs.items():
        low, high = row["win_rate_95"]
        line = f"  {label}: {row['wins']:g}/{row['games']} = {row['win_rate']:.3f} [{low:.2f}, {high:.2f}]"
        if "vs_peer" in row:
            low, high = row["vs_peer_95"]
            line += (f"; a peer of its role {row['peer_wins']:g}/{row['games']}, vs a peer "
                     f"{row['vs_peer']:.3f} [{low:.2f}, {high:.2f}]")
        print(line)


def chart(path: Path, report: dict) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    sections = report["rulesets"]
    fig, axes = plt.subplots(len(sections), 1, figsize=(9, 2.2 + 1.2 * max(len(s["levels"]) for s in sections)
                                                              * len(sections) / 2), squeeze=False)
    for ax, section in zip(axes[:, 0], sections):
        keys = list(section["levels"])
        mus = [section["levels"][k]["mu"] for k in keys]
        sigmas = [2 * section["levels"][k]["sigma"] for k in keys]
        ax.barh(keys, mus, xerr=sigmas, color="#4a7", capsize=3)
        for i, k in enumerate(keys):
            row = section["levels"][k]
            ax.text(0.5, i, f"win {row['win_rate']:.2f} [{row['win_rate_95'][0]:.2f}, {row['win_rate_95'][1]:.2f}]"
                            f"  n={row['games']}", va="center", fontsize=8)
        ax.invert_yaxis()
        ax.set_title(f"{section['ruleset']}, {section['seats']} seats: OpenSkill mu ± 2 sigma", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def progress(iterable, total: int, what: str):
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total, desc=what, unit="game")


def served_ratings(levels_table: dict[str, dict]) -> dict[str, dict]:
    """Per served level, from the arena's rows: where seats have roles (rows "greedy@narc"), a level's seats
    are dealt a role by the game's own draw, so it starts from the mean of its roles' mu and the root mean
    square of their sigma, over all its games."""
    merged: dict[str, list] = defaultdict(list)
    for key, row in levels_table.items():
        merged[key.partition("@")[0]].append(row)
    return {level: {"mu": round(sum(r["mu"] for r in rows) / len(rows), 3),
                    "sigma": round(math.sqrt(sum(r["sigma"] ** 2 for r in rows) / len(rows)), 3),
                    "games": sum(r["games"] for r in rows),
                    "win_rate": round(sum(r["wins"] for r in rows) / sum(r["games"] for r in rows), 3)}
            for level, rows in sorted(merged.items())}


def write_ratings(ruleset, section: dict, command: str, revision: int) -> Path:
    """rules/<game>/arena_ratings.json: the levels' ratings this run measured (a data file, committed)."""
    from events.ratings import ARENA_FILE
    path = Path(sys.modules[type(ruleset).__module__].__file__).resolve().parent / ARENA_FILE
    document = {"about": "Where each bot level's rating starts on the server (events/ratings.py bot_priors): "
                         "OpenSkill (Plackett-Luce) as the bot arena measured it, bench/arena.py. Measured, not "
                         "reconstructed; measure again with the command below.",
                "command": command, "measured": time.strftime("%Y-%m-%d"), "bots_revision": revision,
                "seats": section["seats"], "levels": served_ratings(section["levels"])}
    path.write_text(json.dumps(document, indent=1) + "\n")
    return path


# ------------------------------------------------------------------ speed
def speed(names: list[str], seats: int, iterations: int) -> list[dict]:
    """ISMCTS iterations per second per ruleset, from a state 30 random moves into a seeded game."""
    rows = []
    for name in names:
        ruleset = EVERY_RULESET[name]
        n = max(ruleset.min_seats, min(ruleset.max_seats, seats))
        events = ruleset.setup(normalize_options(ruleset.options, None), n, Rng(f"speed-{name}", 2))
        state, version, measured = fold(ruleset, events), 1 + len(events), []
        for step in range(400):
            if ruleset.outcome(state) is not None:
                break
            seat = min(ruleset.awaiting(state))
            if step >= 30 and len(ruleset.legal_moves(state, seat)) > 1 and len(measured) < 5:
                started = time.perf_counter()
                ismcts.choose(ruleset, state, seat, Rng("speed", step), iterations)
                measured.append(time.perf_counter() - started)
            command = ruleset.bot_move(state, seat, "random", Rng(f"speed-{name}", f"bot:{seat}:{version}"))
            events = ruleset.decide(state, seat, command, Rng(f"speed-{name}", version + 1))
            state, version = fold(ruleset, events, state), version + len(events)
        if measured:
            per_s = iterations * len(measured) / sum(measured)
            rows.append({"ruleset": name, "seats": n, "moves_searched": len(measured),
                         "iterations_per_s": round(per_s), "rollout_moves": ismcts.horizon(ruleset, state)})
            print(f"{name:<20}{n} seats  {per_s:8.0f} iterations/s  ({len(measured)} moves of {iterations} iterations)")
    return rows


# ------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", default="", help="comma-separated (default: every served ruleset)")
    parser.add_argument("--levels", default="random,greedy,ismcts:50",
                        help="comma-separated bot levels (a ruleset without one of them skips it)")
    parser.add_argument("--seats", type=int, default=2, help="players per game, clamped to each ruleset's range")
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--move-seconds", type=float, default=None,
                        help="cap each search move at this many seconds (a served game never does: its budget is "
                             "iterations); the result then depends on the machine's speed and load")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--lone", default=None, help="at more than 2 seats, only the lineups with this level alone "
                                                     "(e.g. 1 ismcts vs 3 greedy)")
    parser.add_argument("--max-commands", type=int, default=None,
                        help="stop a game after this many commands and report it as a failure "
                             "(default: the progress bound, 1000 + 500 a seat)")
    parser.add_argument("--role", default=None,
                        help="where seats have roles (Trafficking: narc, dealer): each level in a seat of that "
                             "role, --against in every other, on the same seeds")
    parser.add_argument("--against", default="greedy", help="with --role: the level of every other seat")
    parser.add_argument("--settings", type=json.loads, default={},
                        help="JSON of search settings to override in every ruleset, e.g. '{\"confidence\": 1.5}' "
                             "(fields of rules.search.ismcts.SearchSettings): a lever measured without editing code")
    parser.add_argument("--revision", type=int, default=BOTS_REVISION,
                        help="the bots revision every seat plays (rules/bot_seat.py): an earlier one's search as it "
                             "was, to measure a revision's change on the same seeds")
    parser.add_argument("--omniscient", action="store_true",
                        help="bench only: every bot reads the true state (a ceiling for better determinization)")
    parser.add_argument("--write-ratings", action="store_true",
                        help="store each ruleset's level ratings in rules/<game>/arena_ratings.json, where the "
                             "served bots start from (events/ratings.py bot_priors); levels as served, heads-up")
    parser.add_argument("--speed", action="store_true", help="measure ISMCTS iterations/s per ruleset instead")
    parser.add_argument("--iterations", type=int, default=50, help="iterations per search in --speed")
    args = parser.parse_args(argv)
    from rules import RULESETS
    names = [n for n in args.rulesets.split(",") if n] or sorted(RULESETS)
    tune(args.settings, args.omniscient, args.revision)
    if args.speed:
        return {"speed": speed(names, args.seats, args.iterations)}
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"command": "python3 -m bench.arena " + " ".join(argv or sys.argv[1:]), "settings": args.settings,
              "revision": args.revision, "omniscient": args.omniscient,
              "games_per_pairing": args.games, "rulesets": [], "failures": []}
    with multiprocessing.Pool(args.workers, tune, (args.settings, args.omniscient, args.revision)) as pool:
        for name in names:
            ruleset = EVERY_RULESET[name]
            levels = [lv for lv in args.levels.split(",") if lv.partition(":")[0] in ruleset.bot_levels]
            seats = max(ruleset.min_seats, min(ruleset.max_seats, args.seats))
            work = jobs(name, levels, seats, args.games, None, args.move_seconds, args.lone, args.max_commands,
                        args.role, args.against)
            started = time.perf_counter()
            played = list(progress(pool.imap(play, work), len(work), f"{name} {seats}p"))
            failed = [r for r in played if "failed" in r]
            results = [r for r in played if "failed" not in r]
            levels_table = rate(results)
            pairs = by_role(results) if args.role else head_to_head(results)
            per_move = defaultdict(lambda: [0.0, 0, 0.0, 0.0])  # wall s, moves, CPU s, longest move's CPU s
            for result in results:
                for level, seconds in result["seconds"].items():
                    per_move[level][0] += seconds
                    per_move[level][1] += result["moves"][level]
                    per_move[level][2] += result["cpu_seconds"][level]
                    per_move[level][3] = max(per_move[level][3], result["longest_cpu_seconds"][level])
            section = {"ruleset": name, "seats": seats, "games": len(results), "failed": len(failed),
                       "levels": levels_table,
                       "pairings": pairs, "seconds": round(time.perf_counter() - started, 1),
                       "seconds_per_move": {lv: round(s / max(1, n), 4) for lv, (s, n, _, _) in per_move.items()},
                       "cpu_seconds_per_move": {lv: round(c / max(1, n), 4) for lv, (_, n, c, _) in per_move.items()},
                       "longest_move_cpu_seconds": {lv: round(m, 3) for lv, (_, _, _, m) in per_move.items()}}
            report["rulesets"].append(section)
            if args.write_ratings and levels_table:
                path = write_ratings(ruleset, section, report["command"], args.revision)
                print(f"  wrote {path}")
            show(f"{name}, {seats} seats, {len(results)} games ({section['seconds']} s)", levels_table, pairs)
            print("  CPU s a move (mean / longest): " + ", ".join(
                f"{lv} {section['cpu_seconds_per_move'][lv]:.3f} / {section['longest_move_cpu_seconds'][lv]:.3f}"
                for lv in sorted(per_move)))
            for r in failed:
                print(f"  FAILED: {name} game {r['seed']} ({' v '.join(r['lineup'])}) {r['failed']}: not rated")
                report["failures"].append({"ruleset": name, **r})
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (args.out / f"arena-{stamp}.json").write_text(json.dumps(report, indent=1))
    drew = chart(args.out / f"arena-{stamp}.png", report)
    print(f"\nwrote {args.out / f'arena-{stamp}.json'}" + (f" and arena-{stamp}.png" if drew else
                                                          " (no chart: matplotlib is not installed)"))
    if report["failures"]:
        print(f"{len(report['failures'])} game(s) did not end: the run failed")
    return report


if __name__ == "__main__":
    sys.exit(1 if main().get("failures") else 0)
