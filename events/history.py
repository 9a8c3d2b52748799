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
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable, Mapping

from events import strictjson
from events import table as tables
from events.envelope import Envelope
from events.table import TABLE_COMMANDS
from rules.base import Event, IllegalMove, Rng, Ruleset, decide_and_apply, fold, seed_commitment
from rules.ruleset import ruleset_at

HISTORY_FORMAT = "tabletop-cartel-history/2"
LEGACY_FORMAT = "tabletop-cartel-history/1"
ENGINE_COMMANDS = TABLE_COMMANDS  # decided by the table, not by the game's ruleset
ACTOR_CONTROL = {"seat": "human", "clock": "human", "bot": "bot"}  # actor kind -> who must control the seat


def history_header(game: Any) -> dict:
    """The export's first line (after `format`): what a verifier needs, the revealed seed included."""
    return {"game_id": game.id, "ruleset": game.table["ruleset"], "ruleset_version": game.table["ruleset_version"],
            "options": game.options, "seats": game.seats,
            "seed": game.seed, "seed_commitment": game.table["seed_commitment"], "version": game.version,
            "outcome": game.outcome()}


def history_lines(header: Mapping[str, Any], envelopes: Iterable[Envelope]) -> Iterable[str]:
    """The JSON Lines export: header first, then each event with its command."""
    yield json.dumps({"format": HISTORY_FORMAT, **header}, separators=(",", ":")) + "\n"
    for envelope in envelopes:
        yield json.dumps(envelope.history_dict(), separators=(",", ":")) + "\n"


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
                 header: dict, legacy: bool) -> tuple[dict | None, str | None, int]:
    """Fold one engine command's events into the table: (table, None, 0), or (table, why it does
    not verify, the offset in the batch of the first event that does not)."""
    recorded = [Event(e["type"], e["data"]) for e in batch]
    if command["type"] == "CreateGame":
        if table is not None or recorded[0].type != "GameCreated":
            return table, "a history has one CreateGame, first, recording GameCreated", 0
        if recorded[0].data.get("seed_commitment") != header["seed_commitment"]:
            return table, "GameCreated does not carry the header's seed commitment", 0
        if recorded[0].data.get("ruleset") != header["ruleset"]:
            return table, "GameCreated names another ruleset than the header", 0
        if recorded[0].data.get("ruleset_version", 1) != header.get("ruleset_version", 1):
            return table, "GameCreated records another rules version than the header", 0
    elif table is None:
        return table, f"{command['type']} before CreateGame", 0
    elif not legacy:
        status = tables.game_status(table, state, ruleset)
        awaiting = {int(s): kind for s, kind in ruleset.awaiting(state).items()} if status == "active" else {}
        try:
            produced = tables.decide(table, status, awaiting, command, ruleset.bot_levels)
        except IllegalMove as error:
            return table, f"the recorded table command {command['type']} is refused there: {error.reason}", 0
        produced_pairs = [(e.type, _normal(e.data)) for e in produced]
        recorded_pairs = [(e.type, _normal(e.data)) for e in recorded]
        for k in range(max(len(produced_pairs), len(recorded_pairs))):
            want = produced_pairs[k] if k < len(produced_pairs) else "nothing"
            got = recorded_pairs[k] if k < len(recorded_pairs) else "nothing"
            if want != got:
                return table, f"recorded {got} but the table gives {want}", k
    try:
        for event in recorded:
            table = tables.evolve(table, event)
    except (KeyError, IndexError, TypeError, ValueError) as error:  # an uploaded file's malformed engine event
        return table, f"the engine event cannot be applied: {error!r}", 0
    return table, None, 0


def _controls(table: dict | None, control: str | None, seat: int) -> bool:
    """Whether seat N is controlled as its actor says (`_actor`): a human's seat, a bot's."""
    if table is None or not 0 <= seat < len(table["seats"]):
        return False
    return control == table["seats"][seat]["kind"]


@lru_cache(maxsize=64)  # a history has a few actors and thousands of commands
def _actor(actor: str) -> tuple[int | None, str | None]:
    """(the seat `seat:N`, `bot:N` or `clock:N` names, who must control it then: "human" or "bot")."""
    kind, _, seat = actor.partition(":")
    return (int(seat) if seat.isdigit() else None), ACTOR_CONTROL.get(kind)


def _same_events(produced: list[Event], batch: list[dict]) -> bool:
    """Whether the events are the records' types and data, as Python compares them."""
    if len(produced) != len(batch):
        return False
    for event, record in zip(produced, batch):
        if event.type != record["type"] or event.data != record["data"]:
            return False
    return True


def verify_history(records: list[dict], rulesets: Mapping[str, Ruleset]) -> dict:
    """Re-fold the history and re-derive every roll; report where it first diverges."""
    header, events = records[0], records[1:]
    result = {"valid": False, "events": 0, "diverged_at": None, "reason": None,
              "ruleset": header.get("ruleset"), "outcome": None}

    def fail(version: int | None, reason: str) -> dict:
        # `events` counts the events that verified: those before the one that diverges
        result.update(diverged_at=version, reason=reason,
                      events=result["events"] if version is None else max(version - 1, 0))
        return result

    if header.get("format") not in (HISTORY_FORMAT, LEGACY_FORMAT):
        return fail(None, f"the first line must be a header with format {HISTORY_FORMAT!r} "
                          f"(or {LEGACY_FORMAT!r})")
    legacy = header["format"] == LEGACY_FORMAT
    # An uploaded file: check every shape before anything indexes, hashes or folds it.
    ruleset = rulesets.get(header["ruleset"]) if isinstance(header.get("ruleset"), str) else None
    if ruleset is None:
        return fail(None, f"unknown ruleset {header.get('ruleset')!r}")
    try:  # the rules version the game was played under (histories from before versions: 1)
        ruleset = ruleset_at(ruleset, header.get("ruleset_version", 1))
    except IllegalMove as error:
        return fail(None, error.reason)
    seed = header.get("seed")
    if not isinstance(seed, str) or seed_commitment(seed) != header.get("seed_commitment"):
        return fail(None, "the seed does not match the seed commitment published at creation")
    if not isinstance(header.get("seats"), list) or not isinstance(header.get("options", {}), (dict, type(None))):
        return fail(None, "the header needs a list 'seats' and an object 'options'")
    starts = []  # where each batch starts: at an event that carries its command
    for expected, record in enumerate(events, start=1):
        if "command" in record:
            starts.append(expected - 1)
        if record.get("version") != expected:
            return fail(expected, f"versions must run 1, 2, 3...; found {record.get('version')!r} "
                                  f"at position {expected}")
        if not isinstance(record.get("type"), str) or not isinstance(record.get("data"), dict):
            return fail(expected, "every event needs a string 'type' and an object 'data'")

    state, table = None, None
    seats = len(header.get("seats") or [])
    if events and (not starts or starts[0]):
        starts.insert(0, 0)  # a first event without a command: refused below
    for i, j in zip(starts, starts[1:] + [len(events)]):
        first = events[i]
        command = first.get("command")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            return fail(first["version"], "an event batch must start with the command that caused it")
        batch, version = events[i:j], first["version"]
        if command["type"] in ENGINE_COMMANDS:
            table, reason, offset = _table_batch(table, state, ruleset, command, batch, header, legacy)
            if reason:
                return fail(version + offset, reason)
            continue
        if table is not None and table.get("abandoned"):
            return fail(version, f"{command['type']} after the game was abandoned: it takes no more commands")
        rng = Rng(seed, version)
        try:
            if command["type"] == "StartGame":
                produced = ruleset.setup(header.get("options") or {}, seats, rng)
                after = fold(ruleset, produced, state)
            elif state is None:
                return fail(version, f"{command['type']} before the game was set up (StartGame)")
            else:
                actor = first.get("actor")
                seat, control = _actor(str(actor))
                awaited = ruleset.awaiting(state)
                if seat is None or (seat not in awaited and seat not in {int(s) for s in awaited}):
                    return fail(version, f"{actor} was not awaited when it sent {command['type']}")
                if not _controls(table, control, seat):
                    return fail(version, f"{actor} sent {command['type']} but does not control "
                                         f"seat {seat} then (see the seat's claims and hand-overs)")
                # the state after the command's events comes with them: decide folds them anyway
                produced, after = decide_and_apply(ruleset, state, seat, command, rng)
        except IllegalMove as error:
            return fail(version, f"the recorded command {command['type']} is illegal there: {error.reason}")
        if not _same_events(produced, batch):  # equal already in the common case; else compare as JSON would
            recorded = [(e["type"], e["data"]) for e in batch]
            pairs = [(e.type, _normal(e.data)) for e in produced]
            for k in range(max(len(pairs), len(recorded))):
                if k >= len(pairs) or k >= len(recorded) or pairs[k] != recorded[k]:
                    want = pairs[k] if k < len(pairs) else "nothing"
                    return fail(version + k, f"recorded {recorded[k] if k < len(recorded) else 'nothing'} "
                                             f"but the rules and seed give {want}")
            # equal as JSON only: the state is what the recorded events (the JSON) lead to
            after = fold(ruleset, [Event(t, d) for t, d in pairs], state)
        state = after
        result["events"] = batch[-1]["version"]
    result["events"] = len(events)
    outcome = tables.game_outcome(table, state, ruleset)
    result["outcome"] = outcome
    if "outcome" in header and _normal(header["outcome"]) != _normal(outcome):
        return fail(None, "the header's outcome differs from the outcome the events lead to")
    result["valid"] = True
    return result


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
    return ruleset, fold(ruleset, game_events)  # in place where the ruleset can (rules/ruleset.py)
