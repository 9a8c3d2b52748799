"""The table: a Decider of its own, composed with every game's ruleset.

Who sits at each seat (human, bot, open), who controls it now, the turn clock's
settings and each seat's count of expired clocks are a pure state folded from
the engine's events, exactly as a game's state is folded from its own.  The
engine's commands are decided here, so a recorded history proves who
controlled each seat and why:

    CreateGame                     -> GameCreated
    ClaimSeat {seat, name?, entropy?} -> SeatClaimed                    (an open seat, before the start)
    ContributeEntropy {seat, entropy} -> EntropyContributed             (a human seat, once, before the start)
    CloseContributions {deadline}  -> ContributionsClosed               (the window's deadline passed)
    ExpireClock {seat, deadline}   -> ClockExpired [+ SeatHandedToBot]  (the count reaches timeouts_before_bot)
    HandSeatToBot {seat, level, reason} -> SeatHandedToBot              (a human seat of an active game)
    ReclaimSeat {seat}             -> SeatReclaimed                     (a seat a bot plays; count reset)
    AbandonGame {idle_since, idle_seconds} -> GameAbandoned             (an open or active game nobody plays)
    Resign {seat}                  -> SeatResigned [+ SeatHandedToBot]  (a human seat of an active game)
    Abort {seat}                   -> GameAborted                       (a human seat, before the start)
    Leave {seat}                   -> SeatLeft                          (a human seat, before the start)
    Rematch {seat}                 -> RematchAsked                      (a player of a finished game)
    LinkRematch {game_id}          -> RematchCreated                    (every player asked: the new game)
    RenewSeatToken {seat, player}  -> SeatTokenRenewed                  (the seat's player: a fresh token)
    CreateGame {from}              -> GameCreated, ForkedFrom           (a fork of a finished game: events/forks.py)

People (issue 37): a seat may be bound to a player, at the creation (GameCreated's seat carries
`player`, the player's id, and `name`, the player's name) or by a claim (SeatClaimed's `player`); the
binding is the seat's, so it stays through a hand-over to a bot and back, and leaves with the player
(SeatLeft).  The seat's player may get a fresh token for it: SeatTokenRenewed records that the seat's
token changed (the runner writes the new token's digest in the same append, so the old one stops working
at once).  A table created `unlisted` or `private` records it as GameCreated's `visibility` (absent: public,
as in every game from before visibilities), and one whose seats may analyse their own position while the game
is on (POST /v1/analysis, service/analysis.py) its `analysis: true` (absent: off).  Games without any of
these fold to the table they always did.

The table's life (docs/api.md "A table's life"): a player who resigns an active game hands their seat to a
bot (the clock's bot level, else the ruleset's first) so the others play on, and the game ends when one
seat is left that has not resigned: it wins ("then": "bot" or "end"). Before the start (seats open, or the
contribution window open) a player may leave (the seat is open again, their token void) or abort (the game
ends, no result). After the end, a rematch is asked by every player who sat there (each human seat and each
seat a bot took over); the last ask creates the new game, recorded in both: `rematch_of` in the new one's
meta, RematchCreated in this one.

A game abandoned takes no more commands of any kind (GameClosed): its clocks and
bots stop because it awaits nobody, and its outcome is `abandoned_outcome`: no
winner.  Whether the game really sat idle that long is the sweeper's check
(the decider has no clock, as with ExpireClock's deadline); the event records
what it relied on.

The same clock deadline expires at most once (`expired`), so a clock job run
twice (a worker killed mid-job, the sweeper) never counts twice; two clocks
expiring together are two appends, each checked against the version.  What an
expiry counts, like every other question of whose turn it is and whose clock
runs, is decided in events/clocks.py; this module folds and records it.

Pure like `rules/`: no I/O, no clock; the runner passes what it needs (the
game's status and who it awaits) and writes `projection(table)` into the meta
hash in the same atomic append as the events.

The players' entropy is kept in the table's `entropy`, in history order, only
when someone sent some: the game's effective seed is the server's seed mixed
with them (events/seeds.py), and a game without any folds to the table it
always did.  Games created since contribution windows (GameCreated carries
`contribution_seconds`) take none with the creation, which the server saw before
it committed to its seed: every human seat contributes afterwards (its claim's
`entropy`, or ContributeEntropy with its token), and the game starts once no
seat is open and every human seat has contributed or the window has closed
(`contribution_window`).  Such games also record `seed_source` ("server", or
"fixed" when an operator's setting let the creator choose the seed) and
`draw_keys` (how the dice streams are labelled: rules/base.py KeyedRng).
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from events.clocks import GameClosed as GameClosed  # re-exported: the table's refusal, decided in events/clocks.py
from events.clocks import contributed, expire_clock, hand_over, owed, refuse_if_abandoned
from events.seeds import entropy_refusal
from rules.base import Event, IllegalMove
from rules.describe import ANY, INT, STR, arr, dict_of, nullable, obj

ENGINE_EVENTS = frozenset({"GameCreated", "SeatClaimed", "SeatHandedToBot", "SeatReclaimed", "ClockExpired",
                           "GameAbandoned", "EntropyContributed", "ContributionsClosed", "SeatResigned",
                           "GameAborted", "SeatLeft", "RematchAsked", "RematchCreated", "SeatTokenRenewed",
                           "ForkedFrom"})
TABLE_COMMANDS = frozenset({"CreateGame", "ClaimSeat", "ExpireClock", "HandSeatToBot", "ReclaimSeat", "AbandonGame",
                            "ContributeEntropy", "CloseContributions", "Resign", "Abort", "Leave", "Rematch",
                            "LinkRematch", "RenewSeatToken"})
# the table commands a seat's own token sends (the others are the server's: clocks, windows, abandonment)
SEAT_ACTIONS = ("Resign", "Abort", "Leave", "Rematch")
SEED_SOURCES = ("server", "fixed")  # who chose the seed: the server, or the creator under an operator's setting
DRAW_KEYS = "seat-counter"  # GameCreated's draw_keys: each draw call on its roller's own stream (KeyedRng)
ENDED = ("finished", "abandoned")  # the statuses of a game that takes no more moves
SEAT_FIELDS = ("kind", "level", "name", "player")
VISIBILITIES = ("public", "unlisted", "private")  # who may see the table (events/visibility.py)
BINDINGS = ("GameCreated", "SeatClaimed")  # the events that may bind a seat to a player (bound_seats)
# The JSON Schema of each table event's data (rules/describe.py's helpers; the spec's TableEvent): never redacted
ENGINE_EVENT_DATA: dict[str, dict] = {
    "GameCreated": obj({"ruleset": STR, "ruleset_version": INT, "options": dict_of(ANY),
                        "seats": arr(obj({"kind": STR, "level": nullable(STR), "name": nullable(STR),
                                          "player": STR}, optional=("level", "name", "player"))),
                        "seed_commitment": STR, "clock": dict_of(ANY), "entropy": STR,
                        "seed_source": {"type": "string", "enum": list(SEED_SOURCES)},
                        "contribution_seconds": INT, "draw_keys": {"type": "string", "enum": [DRAW_KEYS]},
                        "visibility": {"type": "string", "enum": list(VISIBILITIES[1:])},
                        "analysis": {"type": "boolean", "enum": [True]}},
                       # absent in games from before versions, entropy windows and draw keys; in public ones; in
                       # tables without analysis
                       optional=("ruleset_version", "entropy", "seed_source", "contribution_seconds", "draw_keys",
                                 "visibility", "analysis")),
    "SeatClaimed": obj({"seat": INT, "name": STR, "entropy": STR, "player": STR},
                       optional=("name", "entropy", "player")),
    "EntropyContributed": obj({"seat": INT, "entropy": STR}),
    "ContributionsClosed": obj({"deadline": INT, "missing": arr(INT)}),
    "SeatHandedToBot": obj({"seat": INT, "level": STR, "reason": STR}),
    "SeatReclaimed": obj({"seat": INT}),
    "ClockExpired": obj({"seat": INT, "deadline": INT, "timeouts": INT}),
    "GameAbandoned": obj({"idle_since": INT, "idle_seconds": INT}),
    "SeatResigned": obj({"seat": INT, "then": {"type": "string", "enum": ["bot", "end"]}}),
    "GameAborted": obj({"seat": INT}),
    "SeatLeft": obj({"seat": INT}),
    "RematchAsked": obj({"seat": INT}),
    "RematchCreated": obj({"game_id": STR}),
    "SeatTokenRenewed": obj({"seat": INT, "player": STR}),
    "ForkedFrom": obj({"game": STR, "version": INT, "ruleset_version": INT, "history_digest": STR,
                       "state_digest": STR}),
}


class NoSuchSeat(IllegalMove):
    """The seat number is outside the table."""


class SeatNotOpen(IllegalMove):
    """Claiming a seat that is not open."""


class NothingToReclaim(IllegalMove):
    """Reclaiming a seat that no bot plays in an active game."""


class NotNow(IllegalMove):
    """A seat's table action its table does not take now: a resignation before the start or after the end,
    a leave or abort once the game has started, a rematch before the end or asked twice."""


class NotYourSeat(IllegalMove):
    """A fresh token asked for a seat that is not bound to the player asking."""


class NoContribution(IllegalMove):
    """Entropy the table does not take now: the game started (its seed is fixed), the seat already sent
    some or is not a human's, or the game was created before contribution windows."""


# ------------------------------------------------------------------ evolve
def evolve(table: dict | None, event: Event) -> dict:
    """Apply one engine event; returns a new table and leaves `table` untouched."""
    d = event.data
    if event.type == "GameCreated":
        created = {"ruleset": d["ruleset"], "ruleset_version": d.get("ruleset_version", 1), "options": d["options"],
                   "seats": [dict(s) for s in d["seats"]], "clock": dict(d.get("clock") or {}),
                   "seed_commitment": d["seed_commitment"], "timeouts": {}, "expired": {}}
        if "entropy" in d:
            created["entropy"] = [{"by": "creator", "entropy": d["entropy"]}]
        if "contribution_seconds" in d:  # since contribution windows: closed at once when it is 0
            created["window"] = {"seconds": d["contribution_seconds"], "closed": not d["contribution_seconds"]}
        for field in ("seed_source", "draw_keys", "visibility", "analysis"):
            if field in d:
                created[field] = d[field]
        return created
    if table is None:
        raise ValueError(f"the first engine event must be GameCreated, not {event.type}")
    new = dict(table)
    if event.type == "SeatClaimed":
        new["seats"] = _with_seat(table, d["seat"], {"kind": "human", **({"name": d["name"]} if "name" in d else {}),
                                                     **({"player": d["player"]} if "player" in d else {})})
        if "entropy" in d:
            new["entropy"] = [*table.get("entropy", ()), {"by": f"seat:{d['seat']}", "entropy": d["entropy"]}]
    elif event.type == "EntropyContributed":
        new["entropy"] = [*table.get("entropy", ()), {"by": f"seat:{d['seat']}", "entropy": d["entropy"]}]
    elif event.type == "ContributionsClosed":
        new["window"] = {**table["window"], "closed": True}
    elif event.type == "SeatHandedToBot":
        new["seats"] = _with_seat(table, d["seat"], {**table["seats"][d["seat"]], "kind": "bot", "level": d["level"]})
        new["handed"] = sorted({*table.get("handed", ()), d["seat"]})  # a player's seat, played by a bot now
    elif event.type == "SeatResigned":
        new["resigned"] = [*table.get("resigned", ()), d["seat"]]
        if d["then"] == "end":
            new["ended"] = "resigned"
    elif event.type == "GameAborted":
        new["aborted"] = {"seat": d["seat"]}
    elif event.type == "SeatLeft":
        new["seats"] = _with_seat(table, d["seat"], {"kind": "open"})
        left = f"seat:{d['seat']}"  # whoever claims the seat next contributes their own
        if "entropy" in table:
            new["entropy"] = [e for e in table["entropy"] if e["by"] != left]
    elif event.type == "RematchAsked":
        new["rematch"] = {"asked": [*table.get("rematch", {}).get("asked", ()), d["seat"]]}
    elif event.type == "RematchCreated":
        new["rematch"] = {**table.get("rematch", {}), "game_id": d["game_id"]}
    elif event.type == "SeatReclaimed":
        seat = table["seats"][d["seat"]]
        new["seats"] = _with_seat(table, d["seat"], {k: v for k, v in seat.items() if k != "level"} | {"kind": "human"})
        new["timeouts"] = {k: v for k, v in table["timeouts"].items() if k != str(d["seat"])}
    elif event.type == "ClockExpired":
        key = str(d["seat"])  # JSON object keys: the table round-trips through snapshots unchanged
        new["timeouts"] = {**table["timeouts"], key: d["timeouts"]}
        new["expired"] = {**table["expired"], key: d["deadline"]}
    elif event.type == "ForkedFrom":  # the fork's start deals from the original's state at that version
        new["fork"] = {"game": d["game"], "version": d["version"]}
    elif event.type == "SeatTokenRenewed":
        pass  # the token is the meta's (its digest); the history records that it changed, and for whom
    elif event.type == "GameAbandoned":
        new["abandoned"] = {"idle_since": d["idle_since"], "idle_seconds": d["idle_seconds"]}
    else:
        raise ValueError(f"unknown engine event {event.type!r}")
    return new


def _with_seat(table: dict, seat: int, spec: dict) -> list[dict]:
    seats = list(table["seats"])
    seats[seat] = spec
    return seats


# ------------------------------------------------------------------- decide
def created(ruleset: str, options: Mapping[str, Any], seats: list[Mapping[str, Any]], seed_commitment: str,
            clock: Mapping[str, Any] | None, ruleset_version: int = 1, *, seed_source: str = "server",
            contribution_seconds: int = 0, visibility: str = "public", analysis: bool = False) -> list[Event]:
    """CreateGame: the table as checked by the ruleset's table checks (rules.table_checks.table_checks),
    the version of the rules the game is played under for ever (absent in games from before
    versions were recorded: 1), who chose the seed, how long the human seats may take to send their
    entropy before the game starts without theirs (0: it starts as soon as no seat is open), and the
    draw keys its dice are rolled with; an unlisted or private table says so (a public one, as before), and so
    does a table whose seats may ask for an analysis of their own seat while the game is on (`analysis`: such a
    game is never rated, events/ratings.py)."""
    if seed_source not in SEED_SOURCES:
        raise ValueError(f"seed_source must be one of {SEED_SOURCES}")
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {VISIBILITIES}")
    public = [{k: v for k, v in seat.items() if k in SEAT_FIELDS} for seat in seats]
    return [Event("GameCreated", {"ruleset": ruleset, "ruleset_version": ruleset_version, "options": dict(options),
                                  "seats": public, "seed_commitment": seed_commitment, "clock": dict(clock or {}),
                                  "seed_source": seed_source, "contribution_seconds": int(contribution_seconds),
                                  "draw_keys": DRAW_KEYS,
                                  **({"visibility": visibility} if visibility != "public" else {}),
                                  **({"analysis": True} if analysis else {})})]


def _refuse_entropy(entropy: Any) -> None:
    """IllegalMove for a contribution events/seeds.py refuses (None: nothing sent)."""
    refusal = entropy_refusal(entropy) if entropy is not None else None
    if refusal:
        raise IllegalMove(refusal, rule="entropy")


def decide(table: dict, status: str, awaiting: Mapping[int, str], command: Mapping[str, Any],
           bot_levels: tuple = ("random",)) -> list[Event]:
    """Events for an engine command, given the table, the game's status, whom it awaits and
    the ruleset's bot levels (the first is the default level of a bot taking a timed-out seat)."""
    kind, seat = command["type"], command.get("seat")
    if kind not in TABLE_COMMANDS - {"CreateGame"}:
        raise IllegalMove(f"{kind!r} is not a table command", rule="table")
    _check_shape(command)
    refuse_if_abandoned(table)
    if kind == "CloseContributions":
        window = table.get("window")
        if status != "open" or not window or window["closed"]:
            raise NoContribution("no contribution window is open: the game has started or its window "
                                 "has closed", rule="entropy")
        return [Event("ContributionsClosed", {"deadline": command["deadline"], "missing": owed(table)})]
    if kind == "LinkRematch":
        if status != "finished" or not rematch_due(table):
            raise NotNow("a rematch is created once every player of the finished game asked for it, once",
                         rule="rematch")
        return [Event("RematchCreated", {"game_id": command["game_id"]})]
    if kind == "AbandonGame":
        if status not in ("open", "active"):
            raise IllegalMove(f"a {status} game cannot be abandoned", rule="retention")
        return [Event("GameAbandoned", {"idle_since": command["idle_since"], "idle_seconds": command["idle_seconds"]})]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table["seats"]):
        raise NoSuchSeat(f"there is no seat {seat!r} at this {len(table['seats'])}-seat table", rule="table")
    spec = table["seats"][seat]
    if kind == "ClaimSeat":
        if status != "open":  # an aborted table keeps its open seats: nobody plays it any more
            raise SeatNotOpen(f"the game is {status}: it has no seat to take", rule="lobby")
        if spec["kind"] != "open":
            raise SeatNotOpen(f"seat {seat} is not open (it is {spec['kind']})", rule="lobby")
        name, entropy, player = command.get("name"), command.get("entropy"), command.get("player")
        _refuse_entropy(entropy)
        return [Event("SeatClaimed", {"seat": seat, **({"name": name} if name else {}),
                                      **({"entropy": entropy} if entropy is not None else {}),
                                      **({"player": player} if player else {})})]
    if kind == "RenewSeatToken":
        if spec.get("player") != command["player"]:
            raise NotYourSeat(f"seat {seat} is not bound to this player: only the seat's own player gets a fresh "
                              "token for it", rule="players")
        return [Event("SeatTokenRenewed", {"seat": seat, "player": command["player"]})]
    if kind == "ContributeEntropy":
        return [_contribution(table, status, seat, command["entropy"])]
    if kind in SEAT_ACTIONS:
        return [*seat_action(table, status, kind, seat, bot_levels)]
    if kind == "ReclaimSeat":
        if spec["kind"] != "bot" or status != "active" or seat in table.get("resigned", ()):
            raise NothingToReclaim(f"seat {seat} is not played by a bot in an active game: nothing to reclaim",
                                   rule="seat control")
        return [Event("SeatReclaimed", {"seat": seat})]
    if status != "active" or spec["kind"] != "human":
        raise IllegalMove(f"seat {seat} is not a human seat of an active game", rule="seat control")
    if kind == "HandSeatToBot":
        return [hand_over(seat, command["level"], command["reason"])]
    return expire_clock(table, awaiting, seat, command["deadline"], bot_levels)


def seat_action(table: dict, status: str, kind: str, seat: int, bot_levels: tuple) -> list[Event]:
    """Resign, Abort, Leave or Rematch by `seat`'s player (NotNow when the table does not take it now)."""
    human = table["seats"][seat]["kind"] == "human"
    if kind == "Rematch":
        rematch = table.get("rematch") or {}
        if status != "finished" or table.get("aborted"):
            raise NotNow("a rematch is asked once the game is over (an aborted game has no result to "
                         "play again: create a new one)", rule="rematch")
        if seat not in players(table) or seat in rematch.get("asked", ()) or rematch.get("game_id"):
            raise NotNow(f"seat {seat} has asked already, or the rematch exists" if seat in players(table)
                         else f"seat {seat} is a bot's from the start: only players ask for a rematch",
                         rule="rematch")
        return [Event("RematchAsked", {"seat": seat})]
    if not human:
        raise NotNow(f"seat {seat} is not played by its player now (it is {table['seats'][seat]['kind']}'s): "
                     + ("reclaim it first" if seat in table.get("handed", ()) else "nothing to do"),
                     rule="seat control")
    if kind == "Resign":
        if status != "active":
            raise NotNow("only a game in play is resigned: before the start, leave or abort it; after the end, "
                         "there is nothing to resign", rule="resign")
        left = [s for s in range(len(table["seats"])) if s != seat and s not in table.get("resigned", ())]
        if len(left) <= 1:
            return [Event("SeatResigned", {"seat": seat, "then": "end"})]
        level = table["clock"].get("bot_level") or bot_levels[0]
        return [Event("SeatResigned", {"seat": seat, "then": "bot"}), hand_over(seat, level, "resigned")]
    if status != "open":
        raise NotNow(f"{kind.lower()} is for a table that has not started: this one is {status}"
                     + (" (resign instead)" if status == "active" else ""), rule="lobby")
    return [Event("GameAborted" if kind == "Abort" else "SeatLeft", {"seat": seat})]


def rematch_due(table: Mapping[str, Any]) -> bool:
    """Every player of the game asked for a rematch, and it does not exist yet."""
    rematch = table.get("rematch") or {}
    return not rematch.get("game_id") and set(rematch.get("asked", ())) == set(players(table))


def players(table: Mapping[str, Any]) -> list[int]:
    """The seats a person holds: human seats, and seats a bot took over from one (a clock, a resignation)."""
    handed = set(table.get("handed", ()))
    return [n for n, spec in enumerate(table["seats"]) if spec["kind"] == "human" or n in handed]


def _contribution(table: dict, status: str, seat: int, entropy: Any) -> Event:
    """EntropyContributed, or NoContribution: a human seat of a game not yet started, once."""
    if "window" not in table:
        raise NoContribution("this game was created before contribution windows: its seats contributed "
                             "with the creation and their claims", rule="entropy")
    if status != "open":
        raise NoContribution("the game has started: its seed is fixed and takes no more entropy", rule="entropy")
    if table["seats"][seat]["kind"] != "human":
        raise NoContribution(f"seat {seat} is not a human's (it is {table['seats'][seat]['kind']}): only a "
                             "player's seat contributes", rule="entropy")
    if seat in contributed(table):
        raise NoContribution(f"seat {seat} has contributed already: one contribution a seat", rule="entropy")
    _refuse_entropy(entropy)
    return Event("EntropyContributed", {"seat": seat, "entropy": entropy})


ARGUMENTS = {"ClaimSeat": {"name": (str, type(None)), "entropy": (str, type(None)), "player": (str, type(None))},
             "ReclaimSeat": {}, "RenewSeatToken": {"player": (str,)},
             "ContributeEntropy": {"entropy": (str,)}, "CloseContributions": {"deadline": (int,)},
             "ExpireClock": {"deadline": (int,)},
             "HandSeatToBot": {"level": (str,), "reason": (str,)},
             "AbandonGame": {"idle_since": (int,), "idle_seconds": (int,)},
             "Resign": {}, "Abort": {}, "Leave": {}, "Rematch": {}, "LinkRematch": {"game_id": (str,)}}


def _check_shape(command: Mapping[str, Any]) -> None:
    """A table command's arguments (histories are uploaded files: a wrong shape is refused, never a crash)."""
    for name, types in ARGUMENTS[command["type"]].items():
        value = command.get(name)
        if isinstance(value, bool) or not isinstance(value, types):
            raise IllegalMove(f"{command['type']} needs {name!r} of type {'/'.join(t.__name__ for t in types)}",
                              rule="table")


# ----------------------------------------------------------------- queries
def game_status(table: dict | None, state: Any, ruleset: Any) -> str:
    """open (seats to fill), active, finished (the rules say so) or abandoned (the table says so)."""
    if table is not None and table.get("abandoned"):
        return "abandoned"
    if table is not None and (table.get("aborted") or table.get("ended")):
        return "finished"  # by the table: aborted before the start, or every seat but one resigned
    if state is None:
        return "open"
    return "finished" if ruleset.outcome(state) is not None else "active"


def game_outcome(table: dict | None, state: Any, ruleset: Any) -> dict | None:
    """The rules' outcome, or for an abandoned game `abandoned_outcome`."""
    if table is not None and table.get("abandoned"):
        return abandoned_outcome(table)
    if table is not None and table.get("aborted"):
        return {"winners": [], "reason": "aborted", "aborted_by": table["aborted"]["seat"]}
    resigned = list(table.get("resigned", ())) if table is not None else []
    if table is not None and table.get("ended"):
        winners = [s for s in range(len(table["seats"])) if s not in resigned]
        return {"winners": winners, "reason": "every other seat resigned" if len(resigned) > 1
                else f"seat {resigned[0]} resigned", "resigned": resigned}
    outcome = ruleset.outcome(state) if state is not None else None
    return {**outcome, "resigned": resigned} if outcome is not None and resigned else outcome


def abandoned_outcome(table: dict) -> dict:
    """An abandoned game has no winner, whatever the score when it was left: nobody finished it."""
    return {"winners": [], "reason": "abandoned", "idle_seconds": table["abandoned"]["idle_seconds"]}


def seed_source(table: Mapping[str, Any]) -> str:
    """Who chose the seed: "server", or "fixed" (a creator, under the operator's setting); games
    from before it was recorded: the server."""
    return table.get("seed_source", "server")


def bound_seats(event: Event) -> list[tuple[int, str]]:
    """(seat, player id) for each seat the event binds to a player (BINDINGS)."""
    if event.type == "GameCreated":
        return [(n, seat["player"]) for n, seat in enumerate(event.data["seats"]) if seat.get("player")]
    if event.type == "SeatClaimed" and event.data.get("player"):
        return [(event.data["seat"], event.data["player"])]
    return []


def projection(table: dict) -> dict[str, str]:
    """The meta hash fields the lobby and the workers read without folding (`visibility`: a table that is
    not public; a public one has none, as before visibilities; `analysis`: "1" for a table that allows it)."""
    return {**({"visibility": table["visibility"]} if "visibility" in table else {}),
            **({"analysis": "1"} if table.get("analysis") else {}),
            "ruleset": table["ruleset"], "ruleset_version": str(table["ruleset_version"]),
            "options": json.dumps(table["options"]), "seats": json.dumps(table["seats"]),
            "clock": json.dumps(table["clock"]), "timeouts": json.dumps(table["timeouts"]),
            "seed_commitment": table["seed_commitment"], "seed_source": seed_source(table)}
