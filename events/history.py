"""Export and verification of an ended (finished or abandoned) game's history (no Redis needed to verify).

A history is JSON Lines: a header, then every event in version order.  The
first event of each command carries the command itself, so a verifier can
re-run `decide` with the rng re-derived from the revealed seed and check that
every recorded event, every roll and every shuffle, comes out the same.

Format 2 (this release) also re-decides the table's commands (events/table.py):
every claim, expired clock, hand-over to a bot and reclaim, so a verified
history proves who controlled each seat; and each move's actor must match the
seat's control at that moment (`seat:N` a human's, `bot:N` a bot's, `clock:N`
a human's clock).  Format 1 histories (recorded before the table was a
decider) carry hand-overs without the expired clocks that caused them: their
table commands are folded as recorded, the rest is verified as before.

Format 3 binds the header to what follows: every event line carries its game's
id, and the header records the last version the file holds (`last_version`).
A verdict says two things: *valid* (every event re-derives, and the header
says nothing the events contradict) and *complete* (the events reach the
game's end: the header's last version and, where it records one, its outcome
and seats).  The first N lines of an export are valid and not complete: a
prefix, never the whole game.  Formats 1 and 2 still verify; what their header
cannot vouch for (the game id, which their events do not carry; a last
version or outcome the header lacks) is listed in `unvouched`.

Format 4 records each command's raw draws beside its events: the first event
of a command that drew carries `draws`, the [bound, value] of every
randbelow its stream produced, in order (docs/fairness.md specifies the
stream, so anyone can re-derive them without the rules).  The verifier checks
them against the stream the rules draw when re-decided, before the events: a
tampered draw is reported at its command's version, as the replay page's
re-derivation in the browser reports it.  `draws` in a verdict counts the draws
checked (0 for formats 1 to 3, which record none).  A game created before
draws were recorded exports as format 3 (its first commands have none).

The players' entropy (events/seeds.py) is in the events themselves:
GameCreated's `entropy` (the creator's) and each SeatClaimed's (the claimer's).
The verifier checks the revealed seed against its commitment, then keys every
stream from StartGame on by the effective seed it mixes from the seed and the
contributions the history records, so a changed contribution is named where it
changes something: at the claim, which the table re-decides, or at the first
draw of the set-up.  A history without contributions verifies as it always did.

Each format is verified by its own function (`VERIFIERS`: format -> function), which names the
parts its format records (events bound to the game, table commands re-decided, the stream a command
draws from, how its draws are checked, bot moves re-run) over the parts they share.

Each exported event also carries its `narration` (events/narration.py: a sentence and the
places, cards and seats it touches), written from the event when the file is exported.  It is
derived, not evidence: the verifier never reads it, so an export with it, without it (one from
before narration) or with it edited verifies the same; a reader who doubts a sentence re-derives
it from the verified event (`narrate`).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping

from events import botbox, clocks, forks, strictjson
from events import table as tables
from events.clocks import NotAwaited, NotInControl
from events.envelope import Envelope
from events.narration import narrate
from events.seeds import effective_seed, entropy_refusal
from events.table import TABLE_COMMANDS
from rules.base import WORLD, Event, IllegalMove, KeyedRng, Rng, decide_and_apply, fold, seed_commitment
from rules.bot_seat import RERUN_REVISIONS, TIMEOUT_DEFAULT, bot_key
from rules.narration import Names, outcome_text
from rules.ruleset import Ruleset, check_bot_level, is_search_level, ruleset_at

HISTORY_FORMAT = "tabletop-cartel-history/5"  # draws keyed by roller and counter, each call under its label
DRAWN_FORMAT = "tabletop-cartel-history/4"  # each command's draws as [bound, value] pairs of one stream
BOUND_FORMAT = "tabletop-cartel-history/3"  # events carry the game id, the header last_version; no draws
TABLE_FORMAT = "tabletop-cartel-history/2"  # the table re-decided; no game id on the events, `version` for last_version
LEGACY_FORMAT = "tabletop-cartel-history/1"
FORMATS = (HISTORY_FORMAT, DRAWN_FORMAT, BOUND_FORMAT, TABLE_FORMAT, LEGACY_FORMAT)
BOUND_FORMATS = (HISTORY_FORMAT, DRAWN_FORMAT, BOUND_FORMAT)  # the header bound to what follows (game_id, last_version)
DRAWS_FORMATS = (HISTORY_FORMAT, DRAWN_FORMAT)  # commands carry their draws
ENGINE_COMMANDS = TABLE_COMMANDS  # decided by the table, not by the game's ruleset


def history_header(game: Any) -> dict:
    """The export's first line (after `format`): what a verifier needs, the revealed seed included,
    and what the file holds (the game, its last version, its outcome and seats then) for it to check.
    A game whose commands were not all stored with their draws (created before they were) is format 3."""
    if game.table.get("draw_keys"):
        header = {"format": HISTORY_FORMAT}
    else:
        header = {"format": DRAWN_FORMAT if game.meta.get("draws") == "recorded" else BOUND_FORMAT}
    header.update({"game_id": game.id,
                   "ruleset": game.table["ruleset"], "ruleset_version": game.table["ruleset_version"],
                   "options": game.options, "seats": game.seats,
                   "seed": game.seed, "seed_commitment": game.table["seed_commitment"],
                   "last_version": game.version, "outcome": game.outcome()})
    if header["format"] == HISTORY_FORMAT:  # who chose the seed, and the key the bots chose with (revealed now)
        header["seed_source"] = tables.seed_source(game.table)
        header["bot_key"] = bot_key(game.effective_seed)
    return header


def history_lines(header: Mapping[str, Any], envelopes: Iterable[Envelope],
                  ruleset: Ruleset | None = None) -> Iterable[str]:
    """The JSON Lines export: header first, then each event, with its game's id, its command and draws,
    and (given the game's `ruleset`) its sentence, written from the whole event: an ended game hides
    nothing.  The sentence is derived, not evidence: `verify_history` never reads it."""
    header = {"format": HISTORY_FORMAT, **header}
    drawn = header["format"] in DRAWS_FORMATS  # format 3 (a game from before draws): none, not some
    names = Names.of_table({"seats": header.get("seats") or ()})
    yield json.dumps(header, separators=(",", ":")) + "\n"
    for envelope in envelopes:
        record = {"game_id": envelope.game_id, **envelope.history_dict()}
        if not drawn:
            record.pop("draws", None)
        if ruleset is not None:
            record["narration"] = narrate(ruleset, envelope.event, names)
        yield json.dumps(record, separators=(",", ":")) + "\n"


def exported_records(game: Any, envelopes: Iterable[Envelope]) -> list[dict]:
    """An ended game's export as records (header first), as `parse_history` reads the file GET .../history
    serves: what a fork's ForkedFrom digests, and what verifies a fork against its original."""
    if getattr(game, "archived", False):
        return parse_history(game.archived_text)  # served as archived, byte for byte
    return [json.loads(line) for line in history_lines(history_header(game), envelopes)]


def read_history(body: bytes) -> list[dict]:
    """A history file's bytes to records, as POST /v1/replays and `cartel verify --offline` both read
    it; ValueError says what is wrong with the file, in the words both show."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"the history is not UTF-8 (byte {error.start})") from None
    return parse_history(text)


def parse_history(text: str) -> list[dict]:
    """JSON Lines to dicts; ValueError names the bad line."""
    records = []
    vouched = strictjson.vouch(text)  # the scans a line would need, once for the whole file
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = strictjson.loads(line, vouched)  # an uploaded file: bounded depth, integers, valid Unicode
        except strictjson.RefusedJSON as error:
            raise ValueError(f"line {number}: {error}") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {number} is not a JSON object")
        records.append(record)
    if not records:
        raise ValueError("the history is empty")
    return records


def _normal(value: Any) -> Any:
    """What a value looks like after a JSON round trip (tuples become lists...)."""
    return json.loads(json.dumps(value))


def _table_batch(table: dict | None, state: Any, ruleset: Ruleset, command: dict, batch: list[dict],
                 header: dict, redecided: bool, last: bool) -> tuple[dict | None, str | None, int]:
    """Fold one engine command's events into the table (`redecided`: after re-deciding the command
    and comparing what it gives, events/table.py): (table, None, 0), or (table, why it does not
    verify, the offset in the batch of the first event that does not).  The file's `last` batch may
    stop short of the command's events (a prefix): the events it has are folded, and (table, None,
    how many it has) says so."""
    recorded, short = [Event(e["type"], e["data"]) for e in batch], 0
    if command["type"] == "CreateGame":
        refusal = _creation_refusal(table, recorded, header)
        if refusal:
            return table, refusal, 0
    elif table is None:
        return table, f"{command['type']} before CreateGame", 0
    elif redecided:
        refusal, short = _table_differs(table, state, ruleset, command, recorded, last)
        if refusal:
            return table, refusal, short
    try:
        for event in recorded:
            table = tables.evolve(table, event)
    except (KeyError, IndexError, TypeError, ValueError) as error:  # an uploaded file's malformed engine event
        return table, f"the engine event cannot be applied: {error!r}", 0
    return table, None, short


def _creation_refusal(table: dict | None, recorded: list[Event], header: dict) -> str | None:
    """Why a CreateGame batch is not the one the header's game began with, or None."""
    if table is not None or recorded[0].type != "GameCreated":
        return "a history has one CreateGame, first, recording GameCreated"
    if recorded[0].data.get("seed_commitment") != header["seed_commitment"]:
        return "GameCreated does not carry the header's seed commitment"
    if recorded[0].data.get("ruleset") != header["ruleset"]:
        return "GameCreated names another ruleset than the header"
    if recorded[0].data.get("ruleset_version", 1) != header.get("ruleset_version", 1):
        return "GameCreated records another rules version than the header"
    refusal = entropy_refusal(recorded[0].data["entropy"]) if "entropy" in recorded[0].data else None
    return f"GameCreated's entropy is refused: {refusal}" if refusal else None


def _table_differs(table: dict, state: Any, ruleset: Ruleset, command: dict, recorded: list[Event],
                   last: bool) -> tuple[str | None, int]:
    """Re-decide a table command (events/table.py): (why its recorded events are not what it gives,
    the offset of the first that is not), or (None, how many the file's `last` batch holds when it
    stops short of them, else 0)."""
    status = tables.game_status(table, state, ruleset)
    try:
        produced = tables.decide(table, status, clocks.awaited(status, ruleset, state), command, ruleset.bot_levels)
    except IllegalMove as error:
        return f"the recorded table command {command['type']} is refused there: {error.reason}", 0
    produced_pairs = [(e.type, _normal(e.data)) for e in produced]
    recorded_pairs = [(e.type, _normal(e.data)) for e in recorded]
    for k in range(max(len(produced_pairs), len(recorded_pairs))):
        want = produced_pairs[k] if k < len(produced_pairs) else "nothing"
        got = recorded_pairs[k] if k < len(recorded_pairs) else "nothing"
        if last and k == len(recorded_pairs):
            return None, k  # the file stops here: a prefix, told apart by verify_history
        if want != got:
            return f"recorded {_said(got)} but the table gives {_said(want)}", k
    return None, 0


def _refusal(table: dict | None, state: Any, ruleset: Ruleset, actor: str, command_type: str) -> tuple[int, str | None]:
    """(the seat the actor names, why it may not send this command there, or None): the live
    command's rule (events/clocks.py check_may_act), worded for a history."""
    seat, sender = _actor(actor)
    if seat is None:
        return 0, f"{actor} was not awaited when it sent {command_type}"
    try:
        if table is None:
            raise NotInControl("no table: nobody controls any seat")
        status = tables.game_status(table, state, ruleset)
        clocks.check_may_act(table, status, clocks.awaited(status, ruleset, state), seat, sender)
    except NotInControl:
        return seat, (f"{actor} sent {command_type} but does not control seat {seat} then (see the seat's claims "
                      "and hand-overs)")
    except NotAwaited:
        return seat, f"{actor} was not awaited when it sent {command_type}"
    return seat, None


@lru_cache(maxsize=64)  # a history has a few actors and thousands of commands
def _actor(actor: str) -> tuple[int | None, str]:
    """(the seat `seat:N`, `bot:N` or `clock:N` names, who sent it: "seat", "bot" or "clock")."""
    kind, _, seat = actor.partition(":")
    return (int(seat) if seat.isdigit() else None), kind


def _same_events(produced: list[Event], batch: list[dict]) -> bool:
    """Whether the events are the records' types and data, as Python compares them."""
    if len(produced) != len(batch):
        return False
    for event, record in zip(produced, batch):
        if event.type != record["type"] or event.data != record["data"]:
            return False
    return True


BOT_CHECKS = ("fast", "all", "none")  # which bot moves verification re-runs: all but the searches, all, none


def verify_history(records: list[dict], rulesets: Mapping[str, Ruleset], bots: str = "fast",
                   expected_commitment: str | None = None, rerun_bot: Callable[..., dict] | None = None,
                   origins: Mapping[str, list[dict]] | None = None) -> dict:
    """Re-fold the history and re-derive every roll and (`bots`: "fast", every level but the searches;
    "all"; "none") every bot move; report where it first diverges, which header field the events
    contradict, and whether the events are the whole game (module docstring).  `expected_commitment`:
    the seed commitment the reader was shown when the game was created or joined; a history whose
    header commits to another seed is not the game they played, however well it verifies.  `rerun_bot`
    re-runs a bot move (rules/bot_seat.py bot_command's signature): by default in a bot process set up as
    the workers' are (events/botbox.py rerun), started the first time a history has a bot move to re-run.
    `origins`: game id -> the records of its history, for a fork's original (events/forks.py): a fork's start
    re-derives only from the position it was forked at, and its original verifies first."""
    if bots not in BOT_CHECKS:
        raise ValueError(f"bots must be one of {BOT_CHECKS}")
    header, events = records[0], records[1:]
    result = {"valid": False, "complete": False, "events": 0, "draws": 0, "diverged_at": None, "reason": None,
              "ruleset": header.get("ruleset"), "outcome": None, "format": header.get("format"), "seed_source": None,
              "bot_moves": {"recorded": 0, "rederived": 0, "not_rerun": 0, "other_revision": 0, "cut": 0},
              "mismatches": [], "unvouched": [], "summary": ""}
    commitment = header.get("seed_commitment")
    if expected_commitment is not None and (not isinstance(commitment, str) or
                                            commitment.lower() != expected_commitment.lower()):
        result["reason"] = (f"the history commits to the seed {commitment!r}, not to {expected_commitment!r}, the "
                            "commitment you were shown when the game was created: it is not that game, whatever "
                            "else it proves")
        result["mismatches"].append({"field": "seed_commitment", "header": commitment, "events": expected_commitment})
        result["summary"] = _summary(result)
        return result
    end = _rederive(header, events, rulesets, result, bots, rerun_bot, origins)
    if end is not None:
        table, state, short, ruleset = end
        result["events"] = len(events)
        outcome = tables.game_outcome(table, state, ruleset)
        # as every served outcome: with its sentence, naming seats as the game does (the header's is compared bare)
        result["outcome"] = None if outcome is None else {
            **outcome, "text": outcome_text(outcome, Names.of_table(table or {"seats": header.get("seats") or []}))}
        result["seed_source"] = tables.seed_source(table) if table is not None else None
        contradicted, unfinished = _bind_header(header, events, table, outcome, result)
        result["valid"] = not contradicted
        if contradicted:
            result["reason"] = "; ".join(contradicted)
        else:
            if short is not None:
                unfinished.insert(0, f"the last command's events (from version {short}) are cut short")
            if outcome is None and not unfinished:
                unfinished.append(f"the events stop at version {len(events)}, where the game had not ended")
            result["complete"] = not unfinished
            result["reason"] = "; ".join(unfinished) or None
    result["summary"] = _summary(result)
    return result


def _bind_header(header: dict, events: list[dict], table: dict | None, outcome: dict | None,
                 result: dict) -> tuple[list[str], list[str]]:
    """Check the header's fields against the events that re-derived: (what the header says that the
    events contradict: not valid, what stops them being the whole game the header records: not
    complete).  Each differing field goes into result["mismatches"]; each the header cannot vouch
    for into result["unvouched"]."""
    contradicted, unfinished = [], []
    held = len(events)

    def differs(field: str, recorded: Any, found: Any, sentence: str, into: list[str]) -> None:
        result["mismatches"].append({"field": field, "header": recorded, "events": found})
        into.append(sentence)

    if header["format"] in BOUND_FORMATS:
        found = events[0]["game_id"] if events else None
        if events and header["game_id"] != found:
            differs("game_id", header["game_id"], found,
                    f"game_id: the header names game {header['game_id']}, the events are game {found}'s", contradicted)
    else:
        result["unvouched"].append("game_id")  # the events of formats 1 and 2 do not carry it
    if table is not None and header["format"] == HISTORY_FORMAT:
        key = bot_key(effective_seed(header["seed"], table))
        if header.get("bot_key") != key:
            differs("bot_key", header.get("bot_key"), key, "bot_key: the header's is not the one the revealed seed "
                    "and the players' entropy give (docs/fairness.md)", contradicted)
    source = tables.seed_source(table) if table is not None else None
    if source is not None and header["format"] == HISTORY_FORMAT and header.get("seed_source") != source:
        differs("seed_source", header.get("seed_source"), source,
                "seed_source: the header's differs from the one the game was created with (GameCreated)", contradicted)
    if table is not None and _normal(header.get("options") or {}) != _normal(table["options"]):
        differs("options", header.get("options"), table["options"],
                "options: the header's differ from those the game was created with (GameCreated)", contradicted)
    last = header.get("last_version" if header["format"] in BOUND_FORMATS else "version")
    if not isinstance(last, int) or isinstance(last, bool):
        result["unvouched"].append("last_version")
        last = None
    elif held > last:
        differs("last_version", last, held, f"last_version: the file holds {held} events, the header vouches "
                                            f"for {last}", contradicted)
    elif held < last:
        differs("last_version", last, held, f"the events stop at version {held}; the header records the game "
                                            f"to version {last}: this is its start, not all of it", unfinished)
    # The header's end (outcome, seats) is the game's at its last version: compared where the
    # events reach it, or (a header without a last version) where they reach an end.
    at_end = held == last or (last is None and outcome is not None)
    if "outcome" not in header:
        result["unvouched"].append("outcome")
    elif at_end and _normal(header["outcome"]) != _normal(outcome):
        differs("outcome", header["outcome"], outcome,
                "outcome: the header's differs from the outcome the events lead to", contradicted)
    if at_end and table is not None and _normal(header["seats"]) != _normal(table["seats"]):
        differs("seats", header["seats"], table["seats"],
                "seats: the header's differ from the seats the events leave (claims, hand-overs)", contradicted)
    return contradicted, unfinished


def _summary(result: dict) -> str:
    """The verdict in one sentence, both words in it: valid or not, complete or not."""
    held = result["events"]
    if not result["valid"]:
        if result["diverged_at"] is not None:
            return (f"not valid, so not complete: the event at version {result['diverged_at']} does not "
                    f"re-derive ({result['reason']}); the {held} events before it do.")
        return f"not valid, so not complete: {result['reason']}."
    if not result["complete"]:
        text = f"valid but not complete: the {held} events re-derive from the revealed seed, but {result['reason']}."
    elif result["format"] in DRAWS_FORMATS:
        text = (f"valid and complete: all {held} events and their {result['draws']} recorded draws re-derive "
                f"from the revealed seed and reach the game's end.")
    else:
        text = (f"valid and complete: all {held} events re-derive from the revealed seed and reach the "
                f"game's end.")
    if result["unvouched"]:
        text += f" The header ({result['format']}) cannot vouch for: {', '.join(result['unvouched'])}."
    text += _bot_sentence(result.get("bot_moves") or {})
    if result.get("seed_source") == "fixed":
        text += (" Its seed was fixed by whoever created the game (seed_source: fixed), under the server's "
                 "setting for tests and tournaments, not drawn by the server: they could foresee its rolls.")
    return text


def _bot_sentence(moves: dict) -> str:
    """How many recorded bot moves verification re-ran from their seat's view, and why not the rest."""
    if not moves.get("recorded"):
        return ""
    left = [f"{moves['not_rerun']} of a search level not re-run (ask for all bots to re-run them)"
            if moves["not_rerun"] else "",
            f"{moves['other_revision']} chosen by another revision of the bots" if moves["other_revision"] else "",
            f"{moves['cut']} cut by the safety limit and played by the random level" if moves["cut"] else ""]
    why = "; ".join(part for part in left if part)
    return (f" Bot moves re-derived from their seat's view and the bot key: {moves['rederived']} of "
            f"{moves['recorded']}" + (f" ({why})." if why else "."))


# ------------------------------------------------------------ verification: one function per format
class _Diverged(Exception):
    """Where a history stops re-deriving (None: its header) and why: the verdict's diverged_at and reason."""

    def __init__(self, version: int | None, reason: str):
        super().__init__(reason)
        self.version, self.reason = version, reason


def _rederive(header: dict, events: list[dict], rulesets: Mapping[str, Ruleset], result: dict,
              bots: str = "fast", rerun_bot: Callable[..., dict] | None = None,
              origins: Mapping[str, list[dict]] | None = None) -> tuple[dict | None, Any, int | None, Ruleset] | None:
    """Re-decide every command from the revealed seed, as the header's format records them (VERIFIERS):
    (the table, the game's state after the last event, the version of a last command whose events the
    file cuts short or None, the ruleset), or None, with `result` saying where and why it diverged."""
    try:
        if header.get("format") not in FORMATS:
            raise _Diverged(None, f"the first line must be a header with format {HISTORY_FORMAT!r} "
                                  f"(or an earlier one: {', '.join(map(repr, FORMATS[1:]))})")
        replay = _Replay(header, events, rulesets, _header_ruleset(header, rulesets), result, bots, rerun_bot)
        replay.origins = dict(origins or {})
        return VERIFIERS[header["format"]](replay)
    except _Diverged as diverged:
        # `events` counts the events that verified: those before the one that diverges
        version = diverged.version
        result.update(diverged_at=version, reason=diverged.reason,
                      events=result["events"] if version is None else max(version - 1, 0))
        return None


def _verify_format_1(replay: _Replay) -> tuple:
    """Format 1, recorded before the table was a decider: its table commands are folded as recorded
    (their hand-overs carry no expired clocks to re-decide them from); each command draws from one
    stream, labelled by its first version; the events carry no game id, the commands no draws."""
    return replay.run(bound=False, redecide_table=False, stream=_command_stream)


def _verify_format_2(replay: _Replay) -> tuple:
    """Format 2: as format 1, with every table command re-decided (events/table.py), so each move's
    actor is checked against who controlled its seat then."""
    return replay.run(bound=False, redecide_table=True, stream=_command_stream)


def _verify_format_3(replay: _Replay) -> tuple:
    """Format 3: as format 2, with the header bound to what follows: every event carries its game's
    id, the header the last version the file holds."""
    return replay.run(bound=True, redecide_table=True, stream=_command_stream)


def _verify_format_4(replay: _Replay) -> tuple:
    """Format 4: as format 3, with each command's raw draws ([bound, value] of its one stream), checked
    against what its rules draw before its events are."""
    return replay.run(bound=True, redecide_table=True, stream=_command_stream, draws=_draws_checked)


def _verify_format_5(replay: _Replay) -> tuple:
    """Format 5: draw keys (GameCreated records them): each draw call on its roller's own stream,
    counted, recorded and checked call by call under its label; and every bot move re-run from its
    seat's view and the revealed bot key, as its provenance says it was chosen."""
    return replay.run(bound=True, redecide_table=True, stream=_roller_stream, draws=_keyed_draws_checked,
                      bot=_bot_move_rerun, draw_keys=True)


VERIFIERS: dict[str, Callable[[_Replay], tuple]] = {
    HISTORY_FORMAT: _verify_format_5, DRAWN_FORMAT: _verify_format_4, BOUND_FORMAT: _verify_format_3,
    TABLE_FORMAT: _verify_format_2, LEGACY_FORMAT: _verify_format_1}


def _header_ruleset(header: dict, rulesets: Mapping[str, Ruleset]) -> Ruleset:
    """The ruleset at the rules version the header names, once its seed matches its commitment and its
    seats and options have their shapes (every format's header): _Diverged(None, ...) if not."""
    # An uploaded file: check every shape before anything indexes, hashes or folds it.
    ruleset = rulesets.get(header["ruleset"]) if isinstance(header.get("ruleset"), str) else None
    if ruleset is None:
        raise _Diverged(None, f"unknown ruleset {header.get('ruleset')!r}")
    try:  # the rules version the game was played under (histories from before versions: 1)
        ruleset = ruleset_at(ruleset, header.get("ruleset_version", 1))
    except IllegalMove as error:
        raise _Diverged(None, error.reason) from None
    seed = header.get("seed")
    if not isinstance(seed, str) or seed_commitment(seed) != header.get("seed_commitment"):
        raise _Diverged(None, "the seed does not match the seed commitment published at creation")
    if not isinstance(header.get("seats"), list) or not isinstance(header.get("options", {}), (dict, type(None))):
        raise _Diverged(None, "the header needs a list 'seats' and an object 'options'")
    return ruleset


def _batch_starts(events: list[dict], bound: bool, drawn: bool) -> list[int]:
    """Where each batch starts (at an event that carries its command), once every event has its shape:
    versions 1, 2, 3..., a type and data, (`bound`) its game's id, (`drawn`) draws only on a command."""
    game_id = events[0].get("game_id") if events else None
    starts = []
    for expected, record in enumerate(events, start=1):
        if "command" in record:
            starts.append(expected - 1)
        if record.get("version") != expected:
            raise _Diverged(expected, f"versions must run 1, 2, 3...; found {record.get('version')!r} "
                                      f"at position {expected}")
        if not isinstance(record.get("type"), str) or not isinstance(record.get("data"), dict):
            raise _Diverged(expected, "every event needs a string 'type' and an object 'data'")
        if bound and (record.get("game_id") != game_id or not isinstance(game_id, str)):
            raise _Diverged(expected, f"game_id: the event at version {expected} is game "
                                      f"{record.get('game_id')!r}'s, the first event game {game_id!r}'s")
        if "draws" in record and not (drawn and "command" in record):
            raise _Diverged(expected, "draws are recorded only on a command's first event, in formats "
                                      f"{' and '.join(DRAWS_FORMATS)}")
    if events and (not starts or starts[0]):
        starts.insert(0, 0)  # a first event without a command: refused by the replay
    return starts


class _Replay:
    """One history re-derived batch by batch: what the batches so far left (the table, the game's
    state, the effective seed, the draw counters, a batch cut short) and the verdict being written."""

    def __init__(self, header: dict, events: list[dict], rulesets: Mapping[str, Ruleset], ruleset: Ruleset,
                 result: dict, bots: str, rerun_bot: Callable[..., dict] | None):
        self.header, self.events, self.rulesets, self.ruleset = header, events, rulesets, ruleset
        self.result, self.bots, self.rerun_bot = result, bots, rerun_bot
        self.table: dict | None = None
        self.state: Any = None
        self.short: int | None = None
        self.stream_seed = header["seed"]  # the effective seed, fixed at StartGame (events/seeds.py)
        self.counters: dict[str, int] = {}  # under draw keys: each roller's draw calls by kind (rules/base.py KeyedRng)
        self.keyed = False  # GameCreated records draw keys
        self.origins: dict[str, list[dict]] = {}  # a fork's original's history, by game id (events/forks.py)
        self.origin_state: Any = None  # a fork's: the original's state at the version forked

    def run(self, *, bound: bool, redecide_table: bool, stream: Callable[..., Rng],
            draws: Callable[..., None] | None = None, bot: Callable[..., None] | None = None,
            draw_keys: bool = False) -> tuple[dict | None, Any, int | None, Ruleset]:
        """Every batch, with the format's parts: `bound` (header and events carry the game), whether the
        table's commands are re-decided, the stream a command draws from, how its recorded `draws` are
        checked, how a `bot` move is re-run, and whether GameCreated must record `draw_keys`."""
        header, events = self.header, self.events
        if bound and not (isinstance(header.get("game_id"), str) and _is_count(header.get("last_version"))
                          and _is_count(header.get("ruleset_version"))):
            raise _Diverged(None, f"a {header['format']} header names its game_id, last_version and ruleset_version")
        starts = _batch_starts(events, bound, draws is not None)
        for i, j in zip(starts, starts[1:] + [len(events)]):
            first = events[i]
            command = first.get("command")
            if not isinstance(command, dict) or not isinstance(command.get("type"), str):
                raise _Diverged(first["version"], "an event batch must start with the command that caused it")
            batch, last = events[i:j], j == len(events)
            if command["type"] in ENGINE_COMMANDS:
                self._table_step(command, batch, last, redecide_table, draw_keys)
            else:
                self._game_step(command, batch, last, stream, draws, bot)
        return self.table, self.state, self.short, self.ruleset

    def _table_step(self, command: dict, batch: list[dict], last: bool, redecided: bool, draw_keys: bool) -> None:
        version = batch[0]["version"]
        if batch[0].get("draws"):
            raise _Diverged(version, f"the table's {command['type']} draws nothing, yet the history records draws")
        self.table, reason, offset = _table_batch(self.table, self.state, self.ruleset, command, batch, self.header,
                                                  redecided, last)
        if reason:
            raise _Diverged(version + offset, reason)
        self.short = version if offset else None  # only the last batch can stop short
        if command["type"] == "CreateGame":
            self.origin_state = _fork_checked(self, command, batch) if "fork" in self.table else None
            self.keyed = keyed = bool(self.table.get("draw_keys"))
            if keyed != draw_keys:
                raise _Diverged(version, f"GameCreated {'records' if keyed else 'does not record'} draw keys, "
                                         f"so its history is {'' if keyed else 'not '}of format {HISTORY_FORMAT}")

    def _game_step(self, command: dict, batch: list[dict], last: bool, stream: Callable[..., Rng],
                   draws: Callable[..., None] | None, bot: Callable[..., None] | None) -> None:
        first, version, ruleset, table, state = batch[0], batch[0]["version"], self.ruleset, self.table, self.state
        if table is not None and table.get("abandoned"):
            raise _Diverged(version, f"{command['type']} after the game was abandoned: it takes no more commands")
        if command["type"] == "StartGame":
            try:  # every contribution is in: the creation's and the claims' all precede the start
                self.stream_seed = effective_seed(self.header["seed"], table)
            except ValueError as error:  # a format 1 history's claims are folded, not re-decided
                raise _Diverged(version, str(error)) from None
            if table is not None and "fork" in table:
                return self._fork_start(first, batch, last)
        rng = stream(self, first, command, draws is not None)
        try:
            if command["type"] == "StartGame":
                if table is not None and not clocks.ready_to_start(table, state):
                    raise _Diverged(version, "StartGame while a seat was still open, or after the game had started")
                # the options the game was created with; a header that says otherwise is named after
                options = table["options"] if table is not None else self.header.get("options") or {}
                produced = ruleset.setup(options, len(self.header.get("seats") or []), rng)
                after = fold(ruleset, produced, state)
            elif state is None:
                raise _Diverged(version, f"{command['type']} before the game was set up (StartGame)")
            else:
                seat, refused = _refusal(table, state, ruleset, str(first.get("actor")), command["type"])
                if refused:
                    raise _Diverged(version, refused)
                if bot is not None:
                    bot(self, seat, first)
                # the state after the command's events comes with them: decide folds them anyway
                produced, after = decide_and_apply(ruleset, state, seat, command, rng)
        except IllegalMove as error:
            reason = f"the recorded command {command['type']} is illegal there: {error.reason}"
            raise _Diverged(version, reason) from None
        if draws is not None:  # the stream first: a tampered draw is named at its version, as a browser names it
            draws(self, first, rng)
        self.state = self._compared(produced, after, batch, last)
        self.result["events"] = batch[-1]["version"]

    def _fork_start(self, first: dict, batch: list[dict], last: bool) -> None:
        """A fork's StartGame: the original's position re-dealt from the fork's effective seed on the stream
        "fork" (events/forks.py), its draw calls checked as any command's."""
        version = first["version"]
        if not clocks.ready_to_start(self.table, self.state):
            raise _Diverged(version, "StartGame while a seat was still open, or after the game had started")
        event, drawn = forks.dealt(self.ruleset, self.origin_state, self.stream_seed)
        reason = _keyed_draws_differ(first.get("draws", []), drawn, version)
        if reason:
            raise _Diverged(version, reason)
        self.result["draws"] += sum(len(pairs) for _, pairs in drawn)
        self.state = self._compared([event], forks.fold_events(self.ruleset, [event], None), batch, last)
        self.result["events"] = batch[-1]["version"]

    def _compared(self, produced: list[Event], after: Any, batch: list[dict], last: bool) -> Any:
        """The state after the batch, once its recorded events are the ones re-derived (`after` when they
        are equal already; a `last` batch may stop short of them: a prefix)."""
        if _same_events(produced, batch):  # equal already in the common case; else compare as JSON would
            return after
        version = batch[0]["version"]
        recorded = [(e["type"], e["data"]) for e in batch]
        pairs = [(e.type, _normal(e.data)) for e in produced]
        for k in range(max(len(pairs), len(recorded))):
            if last and k == len(recorded):  # the file stops inside this command's events: a prefix
                self.short, pairs = version, pairs[:k]
                break
            if k >= len(pairs) or k >= len(recorded) or pairs[k] != recorded[k]:
                want = pairs[k] if k < len(pairs) else "nothing"
                got = recorded[k] if k < len(recorded) else "nothing"
                raise _Diverged(version + k, f"recorded {_said(got)} but the rules and seed give {_said(want)}")
        # equal as JSON only: the state is what the recorded events (the JSON) lead to
        return forks.fold_events(self.ruleset, [Event(t, d) for t, d in pairs], self.state)


def _fork_checked(replay: _Replay, command: dict, batch: list[dict]) -> Any:
    """A fork's CreateGame: GameCreated then ForkedFrom, whose position is in its original's history (given in
    `origins`, which verifies first, valid and complete) and whose digests are that history's up to the version
    and its state there: the original's state at that version (events/forks.py)."""
    version, header = batch[-1]["version"], replay.header
    if [e["type"] for e in batch] != ["GameCreated", forks.FORKED_FROM]:
        raise _Diverged(version, "a fork's CreateGame records GameCreated, then ForkedFrom")
    d = batch[-1]["data"]  # an uploaded file's: every field's type first
    if not (isinstance(d.get("game"), str) and _is_count(d.get("version")) and _is_count(d.get("ruleset_version"))
            and isinstance(d.get("history_digest"), str) and isinstance(d.get("state_digest"), str)):
        raise _Diverged(version, "ForkedFrom needs a string game, history_digest and state_digest and a version and "
                                 "ruleset_version that are counts")
    if command.get("from") != {"game": d["game"], "version": d["version"]}:
        raise _Diverged(version, "ForkedFrom names another position than the CreateGame command's `from`")
    if d["ruleset_version"] != replay.table["ruleset_version"]:
        raise _Diverged(version, "ForkedFrom records another rules version than GameCreated")
    origins = {k: v for k, v in replay.origins.items() if k != d["game"]}  # each original once: no loop
    records = replay.origins.get(d["game"])
    if records is None:
        raise _Diverged(version, f"a fork re-derives from its original's history: give game {d['game']}'s export "
                                 "with it (POST /v1/replays finds it on its server; cartel verify --origin FILE)")
    verdict = verify_history(records, replay.rulesets, replay.bots, rerun_bot=replay.rerun_bot, origins=origins)
    original = records[0]
    if not (verdict["valid"] and verdict["complete"]):
        raise _Diverged(version, f"the original game {d['game']}'s history does not verify: {verdict['summary']}")
    if (original.get("game_id"), original.get("ruleset"), original.get("ruleset_version", 1)) != (
            d["game"], header["ruleset"], d["ruleset_version"]):
        raise _Diverged(version, f"the original history given is not game {d['game']}'s under the fork's ruleset "
                                 "and rules version")
    if _normal(original.get("options") or {}) != _normal(replay.table["options"]):
        raise _Diverged(version, "a fork is played with its original's options; GameCreated records others")
    ruleset, state = state_at(records, replay.rulesets, d["version"]) if d["version"] < len(records) \
        else (replay.ruleset, None)
    refused = forks.refusal(ruleset, records[1:], d["version"], state, ended=True)
    if refused is not None:
        raise _Diverged(version, f"ForkedFrom's version: {refused.reason}")
    if d["history_digest"] != forks.history_digest(records[1:d["version"] + 1]):
        raise _Diverged(version, f"ForkedFrom's history_digest is not that of game {d['game']}'s events up to "
                                 f"version {d['version']}")
    if d["state_digest"] != forks.state_digest(state):
        raise _Diverged(version, f"ForkedFrom's state_digest is not that of game {d['game']}'s state at version "
                                 f"{d['version']}")
    return state


# ---------------------------------------------------------------- the formats' parts
def _command_stream(replay: _Replay, first: dict, command: dict, record: bool) -> Rng:
    """Formats 1 to 4: one stream per command, labelled by its first version (recording its draws in 4)."""
    return Rng(replay.stream_seed, first["version"], record=record)


def _roller_stream(replay: _Replay, first: dict, command: dict, record: bool) -> Rng:
    """Format 5: the set-up draws on the world's streams, a move on its seat's (the actor names it,
    checked before the move is decided), each counted from the game's counters.  (Before GameCreated,
    which a history begins with, no table records draw keys: one stream per command, as format 4.)"""
    if not replay.keyed:
        return _command_stream(replay, first, command, record)
    roller = WORLD if command["type"] == "StartGame" else str(_actor(str(first.get("actor")))[0])
    return KeyedRng(replay.stream_seed, replay.counters, roller, record=True)


def _draws_checked(replay: _Replay, first: dict, rng: Rng) -> None:
    """Format 4: the command's recorded [bound, value] draws are the ones its one stream gave, counted."""
    reason = _draws_differ(first.get("draws", []), rng.recorded(), first["version"])
    if reason:
        raise _Diverged(first["version"], reason)
    replay.result["draws"] += len(rng.draws)


def _keyed_draws_checked(replay: _Replay, first: dict, rng: Rng) -> None:
    """Format 5: the command's recorded draw calls are the ones its rules made, label by label, counted
    (before GameCreated, as format 4's)."""
    if not replay.keyed:
        return _draws_checked(replay, first, rng)
    reason = _keyed_draws_differ(first.get("draws", []), rng.recorded(), first["version"])
    if reason:
        raise _Diverged(first["version"], reason)
    replay.result["draws"] += sum(len(pairs) for _, pairs in rng.recorded())


def _bot_move_rerun(replay: _Replay, seat: int, first: dict) -> None:
    """Format 5: a bot's move re-run first (`_rederive_bot`), in a bot process started the first time
    a history has one to re-run."""
    if not (replay.keyed and str(first.get("actor")).startswith("bot:")):
        return
    if replay.rerun_bot is None:
        replay.rerun_bot = botbox.rerun(replay.rulesets)
    refused = _rederive_bot(replay.ruleset, replay.table, replay.state, seat, first, bot_key(replay.stream_seed),
                            replay.bots, replay.result["bot_moves"], replay.rerun_bot)
    if refused:
        raise _Diverged(first["version"], refused)


def _said(pair: tuple[str, Any] | str) -> str:
    """An event as a reason quotes it: `DieRolled {"die": 4}` (its data as JSON), or "nothing"."""
    if isinstance(pair, str):
        return pair
    return f"{pair[0]} {json.dumps(pair[1], sort_keys=True)}"


def _draws_differ(recorded: Any, drawn: list[list[int]], version: int) -> str | None:
    """Why a command's recorded draws are not the ones its rules drew from the seed's stream
    (each [bound, value] of a randbelow, in order), or None when they are."""
    if json.dumps(recorded) == json.dumps(drawn):  # the common case, in C; as JSON, so true is not 1
        return None
    if not isinstance(recorded, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(_is_count(x) for x in d) for d in recorded):
        return f"the draws of the command at version {version} must be a list of [bound, value] integer pairs"
    for k, (got, want) in enumerate(zip(recorded, drawn), start=1):
        if got != want:
            return (f"draw {k} of the command at version {version} is recorded as randbelow({got[0]}) = {got[1]}, "
                    f"but the rules and seed give randbelow({want[0]}) = {want[1]}")
    if len(recorded) != len(drawn):
        return (f"the command at version {version} records {len(recorded)} draws, but the rules and seed make "
                f"{len(drawn)}")
    return None


def _rederive_bot(ruleset: Ruleset, table: dict, state: Any, seat: int, first: dict, key: str, bots: str,
                  counts: dict, rerun_bot: Callable[..., dict]) -> str | None:
    """Re-run a recorded bot move from the seat's view and the bot key (rules/bot_seat.py), as its
    provenance (`bot`) says it was chosen; why it does not verify, or None (counted in `counts`)."""
    version, command, made = first["version"], first["command"], first.get("bot")
    level = table["seats"][seat].get("level", "random")
    if not isinstance(made, dict) or not isinstance(made.get("level"), str) or not _is_count(made.get("revision")):
        return f"the bot move at version {version} does not record how it was chosen (`bot`: level, revision)"
    if made["level"] != level:
        return f"the bot move at version {version} records level {made['level']!r}, but seat {seat}'s bot is {level!r}"
    counts["recorded"] += 1
    played = made.get("played", level)
    if made.get("cut"):
        counts["cut"] += 1
    if played == TIMEOUT_DEFAULT:  # its level chose an illegal move; the clock's default was played instead
        if _normal(command) != _normal(ruleset.on_timeout(state, seat)):
            return f"the bot move at version {version} is recorded as the clock's default, but is not it"
        counts["rederived"] += 1
        return None
    if made["revision"] not in RERUN_REVISIONS:
        counts["other_revision"] += 1  # chosen by bots this release does not have (a later release's)
        return None
    if bots == "none" or (bots == "fast" and is_search_level(played)):
        counts["not_rerun"] += 1
        return None
    try:
        check_bot_level(ruleset, played)
    except IllegalMove:
        return f"the bot move at version {version} records a level {played!r} {ruleset.title} does not have"
    expected = rerun_bot(ruleset, state, seat, played, key, version - 1, revision=made["revision"])
    if _normal(expected) != _normal(command):
        return (f"the bot move at version {version} is not what {played} plays from seat {seat}'s view and the "
                f"game's bot key: recorded {json.dumps(command, sort_keys=True)}, re-run "
                f"{json.dumps(expected, sort_keys=True)}")
    counts["rederived"] += 1
    return None


def _keyed_draws_differ(recorded: Any, drawn: list[list], version: int) -> str | None:
    """Why a command's recorded draw calls are not the ones its rules made (each [label, [[bound, value],
    ...]]: the label the call's stream is keyed by, and its draws), or None when they are."""
    if json.dumps(recorded) == json.dumps(drawn):
        return None
    if not isinstance(recorded, list) or not all(
            isinstance(call, list) and len(call) == 2 and isinstance(call[0], str) and isinstance(call[1], list)
            for call in recorded):
        return (f"the draws of the command at version {version} must be a list of [label, [[bound, value], ...]] "
                "draw calls")
    for k, (got, want) in enumerate(zip(recorded, drawn), start=1):
        if got[0] != want[0]:
            return (f"draw call {k} of the command at version {version} is recorded on the stream {got[0]!r}, "
                    f"but the rules draw it on {want[0]!r} (each roller's calls are counted from 0)")
        reason = _draws_differ(got[1], want[1], version)
        if reason:
            return f"{reason} (stream {got[0]!r})"
    return (f"the command at version {version} records {len(recorded)} draw calls, but the rules and seed make "
            f"{len(drawn)}")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def state_at(records: list[dict], rulesets: Mapping[str, Ruleset], version: int) -> tuple[Ruleset, Any]:
    """The game's state after event `version` of a history that verified at least that far
    (verify_history first: only a verified prefix is folded, so a tampered upload cannot make
    the rules fold events they never produced).  The table's batches (seats, clocks) are not the game's."""
    header = records[0]
    ruleset = ruleset_at(rulesets[header["ruleset"]], header.get("ruleset_version", 1))
    game_events, table_batch = [], False
    for record in records[1:version + 1]:
        if "command" in record:  # a batch starts with the command that caused it
            table_batch = record["command"]["type"] in ENGINE_COMMANDS
        if not table_batch:
            game_events.append(Event(record["type"], record["data"]))
    return ruleset, forks.fold_events(ruleset, game_events, None)  # in place where the ruleset can (rules/ruleset.py)
