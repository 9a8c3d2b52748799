"""Ratings per ruleset (issue 37 item 5): a projection of the finished histories, not a counter.

A game is **rated** when it finished by its rules or by resignations (not aborted, not abandoned), its seed
was the server's (a fixed seed is a test's or a tournament organiser's choice: never rated), its table did not
allow analysis while it was on (`analysis`: a seat could ask the search bot what to play), it is not a fork
of a finished game (events/forks.py: a position someone chose, from a game whose every card was published), and
at least one of its seats is bound to a player, with a second rated seat beside it: another player's, or a bot's
(a seat a bot was given at the creation; a player's seat handed to a bot stays the player's).  Its result
ranks those seats: the winners first (tied), the others who played on next (tied), and a seat that resigned
last.  Anonymous human seats are not rated and do not rank; nor does a player on two seats.

Bots carry ratings too, so a player can pick an opponent by strength: each bot level of a ruleset is rated
as one participant (`bot:<level>`), starting from what the arena measured for it (`bot_priors`:
rules/<game>/arena_ratings.json, written by `python -m bench.arena --write-ratings`), and moved by its rated
games against players.  Several seats of one level at a table are rated as separate copies of its rating and
their updates averaged (as the arena rates them).  Games between bots alone are never rated here.

Ratings are OpenSkill's Plackett-Luce model (the library bench/arena.py rates the bots with): each player
has a mean `mu` and an uncertainty `sigma` per ruleset; the leaderboard orders by `mu - 3 sigma` (the
rating shown: a new player's is 0), and a player with fewer than PROVISIONAL_GAMES rated games is marked
provisional.

The projection is kept in Redis: every rated game, in the order its finish was recorded, is an entry of the
ruleset's stream of rated games (`rated_games_key`), and the ratings are that stream folded (`fold`), up to a
cursor.  Whoever folds (the step after a game's finishing append, and any reader of a leaderboard) takes the
ruleset's lock and applies the entries past the cursor, each read back from its game's history.  So the
stored ratings are, by construction, `rebuild`'s: the same results, in the same order, from the histories.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from events.keys import rated_games_key, rated_set_key, ratings_key, ratings_lock_key

PROVISIONAL_GAMES = 5  # fewer rated games than this: the rating is provisional
LOCK_MS = 10_000  # a folder that died holding the lock loses it after this
RATED_END_REASONS_EXCLUDED = ("aborted", "abandoned")
BOT = "bot:"  # a bot level's participant id: "bot:greedy"
ARENA_FILE = "arena_ratings.json"  # in a game's package: its bot levels as the arena rated them


def bot_id(level: str) -> str:
    return f"{BOT}{level}"


@dataclass(frozen=True)
class Result:
    """A rated game's result: (participant, rank) for each rated seat, rank 1 the best (a participant is a
    player's id or a bot level's, `bot_id`; a bot level may hold several seats)."""

    game_id: str
    ruleset: str
    ranks: tuple[tuple[str, int], ...]
    names: Mapping[str, str]  # player -> the name their seat showed


def result_of(game_id: str, ruleset: str, table: Mapping[str, Any], outcome: Mapping[str, Any] | None) -> Result | None:
    """The rated result of a finished game, or None when the game is not rated (module docstring)."""
    if outcome is None or outcome.get("reason") in RATED_END_REASONS_EXCLUDED:
        return None
    if table.get("seed_source", "server") != "server" or table.get("analysis") or "fork" in table:
        return None  # a fixed seed, a table whose seats could ask the search what to play, or a fork
    players = {seat: spec["player"] for seat, spec in enumerate(table["seats"]) if spec.get("player")}
    handed = set(table.get("handed", ()))  # a human's seat a bot took over (clock, resignation): not the bot's game
    bots = {seat: bot_id(spec["level"]) for seat, spec in enumerate(table["seats"])
            if not spec.get("player") and spec.get("kind") == "bot" and spec.get("level") and seat not in handed}
    if not players or len(set(players.values())) != len(players) or len(players) + len(bots) < 2:
        return None  # no player, one player on several seats, or nobody beside them: nothing to rate
    winners, resigned = set(outcome.get("winners", ())), set(outcome.get("resigned", ()))
    rated = dict(sorted({**players, **bots}.items()))
    ranks = tuple((who, 1 if seat in winners else 3 if seat in resigned else 2) for seat, who in rated.items())
    names = {**{bot: f"{bot.removeprefix(BOT)} (bot)" for bot in bots.values()},
             **{player: table["seats"][seat].get("name") or player for seat, player in players.items()}}
    return Result(game_id, ruleset, ranks, names)


@cache
def _arena_file(path: Path) -> dict[str, dict]:
    if not path.is_file():
        return {}
    levels = json.loads(path.read_text())["levels"]
    return {bot_id(level): {"mu": r["mu"], "sigma": r["sigma"], "arena_games": r["games"]}
            for level, r in levels.items()}


def bot_priors(ruleset) -> dict[str, dict]:
    """Where each bot level of `ruleset` starts: {bot_id(level): {mu, sigma, arena_games}} from the game's
    package's arena_ratings.json (none for a game never measured: its bots start as a new player does).
    The file is data: measured again, the ratings it seeds are rebuilt from the histories (`rebuild`)."""
    module = sys.modules.get(type(ruleset).__module__) if ruleset is not None else None
    if module is None or not getattr(module, "__file__", None):
        return {}
    return _arena_file(Path(module.__file__).resolve().parent / ARENA_FILE)


# ------------------------------------------------------------------- the fold (pure)
def _model():
    from openskill.models import PlackettLuce  # imported where ratings are folded, not by every process

    return PlackettLuce()


def apply(ratings: dict[str, dict], result: Result, priors: Mapping[str, Mapping] = {}) -> dict[str, dict]:
    """The ratings after one rated game: each ranked participant's mu and sigma updated (a bot level's copies'
    updates averaged), their count of games.  A participant without a rating starts from `priors` (a bot
    level's arena rating), else as new."""
    model = _model()
    start = {**priors, **ratings}
    who = [p for p, _ in result.ranks]
    teams = [[model.rating(mu=start[p]["mu"], sigma=start[p]["sigma"]) if p in start else model.rating()]
             for p in who]
    updated = model.rate(teams, ranks=[rank for _, rank in result.ranks])
    copies: dict[str, list] = {}
    for participant, (rated,) in zip(who, updated):
        copies.setdefault(participant, []).append(rated)
    out = dict(ratings)
    for participant, rated in copies.items():
        games = ratings.get(participant, {}).get("games", 0) + 1
        out[participant] = {"mu": sum(r.mu for r in rated) / len(rated),
                            "sigma": sum(r.sigma for r in rated) / len(rated),
                            "games": games, "name": result.names[participant]}
    return out


def fold(results: Iterable[Result], ratings: dict[str, dict] | None = None,
         priors: Mapping[str, Mapping] = {}) -> dict[str, dict]:
    """The ratings the results give, applied in order from `ratings` (none: everybody new but the bots, who
    start from `priors`)."""
    ratings = dict(ratings or {})
    for result in results:
        ratings = apply(ratings, result, priors)
    return ratings


def shown(rating: Mapping[str, Any]) -> float:
    """The rating a leaderboard shows and orders by: mu - 3 sigma (0 for a new player)."""
    return rating["mu"] - 3 * rating["sigma"]


def leaderboard(ratings: Mapping[str, Mapping[str, Any]], limit: int = 50) -> list[dict]:
    """The players by shown rating, best first (ties by name); bots are listed apart (`bot_board`)."""
    rows = [{"player": player, "name": r["name"], "rating": round(shown(r), 2), "mu": round(r["mu"], 3),
             "sigma": round(r["sigma"], 3), "games": r["games"], "provisional": r["games"] < PROVISIONAL_GAMES}
            for player, r in ratings.items() if not player.startswith(BOT)]
    rows.sort(key=lambda row: (-row["rating"], row["name"].lower()))
    return rows[:limit]


def bot_board(ratings: Mapping[str, Mapping[str, Any]], levels: Iterable[str],
              priors: Mapping[str, Mapping]) -> list[dict]:
    """Each bot level by shown rating, best first: its rating after its rated games against players, else the
    arena's; `games` its rated games here, `arena_games` the arena's games behind its start.  Provisional
    when neither the arena nor PROVISIONAL_GAMES rated games measured it."""
    rows = []
    for level in levels:
        prior, rated = priors.get(bot_id(level), {}), ratings.get(bot_id(level), {})
        r = rated or prior or {"mu": 25.0, "sigma": 25 / 3}
        games, arena_games = rated.get("games", 0), prior.get("arena_games", 0)
        rows.append({"level": level, "rating": round(shown(r), 2), "mu": round(r["mu"], 3),
                     "sigma": round(r["sigma"], 3), "games": games, "arena_games": arena_games,
                     "provisional": arena_games == 0 and games < PROVISIONAL_GAMES})
    rows.sort(key=lambda row: (-row["rating"], row["level"]))
    return rows


# ------------------------------------------------------------------- the projection in Redis
# KEYS: the ratings hash, the lock; ARGV: the folder's lock token, the cursor, then player, rating pairs
_APPLY = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
redis.call('HSET', KEYS[1], '~cursor', ARGV[2])
return 1
"""
# KEYS: the set of rated games, their stream; ARGV: the game.  A game joins the stream once, whoever records it.
_RECORD = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then redis.call('XADD', KEYS[2], '*', 'game', ARGV[1]) return 1 end
return 0
"""


class RatingsStore:
    """The rated games of each ruleset (a stream) and their fold (a hash: player -> rating, '~cursor')."""

    def __init__(self, redis):
        self.redis = redis
        self._apply = redis.register_script(_APPLY)
        self._record = redis.register_script(_RECORD)

    def record(self, result: Result) -> None:
        """A rated game finished: its id joins its ruleset's stream of rated games (once, however often
        this is called for it)."""
        self._record(keys=[rated_set_key(result.ruleset), rated_games_key(result.ruleset)], args=[result.game_id])

    def ratings(self, ruleset: str) -> tuple[dict[str, dict], str]:
        """The stored fold and the id of the last rated game in it ('0' for none)."""
        stored = self.redis.hgetall(ratings_key(ruleset))
        cursor = stored.pop("~cursor", "0")
        return {player: json.loads(value) for player, value in stored.items()}, cursor

    def pending(self, ruleset: str, after: str) -> list[tuple[str, str]]:
        """(entry id, game id) of the rated games past `after`, in the order they were recorded."""
        entries = self.redis.xrange(rated_games_key(ruleset), min=f"({after}" if after != "0" else "-")
        return [(entry_id, fields["game"]) for entry_id, fields in entries]

    def count(self, ruleset: str) -> int:
        """How many rated games the ruleset has."""
        return self.redis.xlen(rated_games_key(ruleset))

    def games(self, ruleset: str) -> list[str]:
        """Every rated game of the ruleset, in order (what `rebuild` folds)."""
        return [game for _, game in self.pending(ruleset, "0")]

    def lock(self, ruleset: str, token: str) -> bool:
        return bool(self.redis.set(ratings_lock_key(ruleset), token, nx=True, px=LOCK_MS))

    def unlock(self, ruleset: str, token: str) -> None:
        if self.redis.get(ratings_lock_key(ruleset)) == token:
            self.redis.delete(ratings_lock_key(ruleset))

    def save(self, ruleset: str, ratings: Mapping[str, dict], cursor: str, token: str) -> bool:
        """Write the fold up to `cursor`, if this folder still holds the lock."""
        pairs = [item for player, rating in sorted(ratings.items()) for item in (player, json.dumps(rating))]
        return bool(self._apply(keys=[ratings_key(ruleset), ratings_lock_key(ruleset)], args=[token, cursor, *pairs]))


def _results(runner, ruleset: str, games: Iterable[str]) -> Iterable[Result]:
    """Each game's rated result, read from its history (archived or not) through `runner` (a GameRunner or
    the repository: anything with `load` and `load_archived`)."""
    from events.game import GameNotFound

    for game_id in games:
        try:
            game = runner.load(game_id)
        except GameNotFound:  # a game archived since (events/retention.py): read from the archive
            game = runner.load_archived(game_id)
        result = result_of(game.id, game.ruleset.name, game.table, game.outcome())
        if result is not None and game.status == "finished":
            yield result


def bring_up_to_date(runner, store: RatingsStore, ruleset: str) -> dict[str, dict]:
    """Fold the rated games recorded past the stored cursor into the stored ratings (under the ruleset's
    lock; another folder holding it is doing the same, and the stored fold is returned as it is)."""
    import secrets

    ratings, cursor = store.ratings(ruleset)
    pending = store.pending(ruleset, cursor)
    if not pending:
        return ratings
    token = secrets.token_hex(8)
    if not store.lock(ruleset, token):
        return ratings
    try:
        ratings, cursor = store.ratings(ruleset)  # again, under the lock
        pending = store.pending(ruleset, cursor)
        for entry_id, game_id in pending:
            ratings = fold(_results(runner, ruleset, [game_id]), ratings, priors_of(runner, ruleset))
            cursor = entry_id
        store.save(ruleset, ratings, cursor, token)
        return ratings
    finally:
        store.unlock(ruleset, token)


def rebuild(runner, store: RatingsStore, ruleset: str) -> dict[str, dict]:
    """The ratings folded afresh from the finished histories of every rated game (what the stored ones
    must equal)."""
    return fold(_results(runner, ruleset, store.games(ruleset)), priors=priors_of(runner, ruleset))


def priors_of(runner, ruleset: str) -> dict[str, dict]:
    """`bot_priors` of the ruleset named `ruleset`, as `runner` (a GameRunner or the repository) serves it."""
    return bot_priors(runner.rulesets.get(ruleset))
