"""Export and verification of a finished game's history (no Redis needed to verify).

A history is JSON Lines: a header, then every event in version order.  The
first event of each command carries the command itself, so a verifier can
re-run `decide` with the rng re-derived from the revealed seed and check that
every recorded event, every roll and every shuffle, comes out the same.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from events import strictjson
from events.envelope import Envelope
from rules.base import Event, IllegalMove, Rng, Ruleset, seed_commitment

HISTORY_FORMAT = "tabletop-cartel-history/1"
ENGINE_COMMANDS = {"CreateGame", "ClaimSeat", "HandSeatToBot", "ReclaimSeat"}


def history_lines(header: Mapping[str, Any], envelopes: Iterable[Envelope]) -> Iterable[str]:
    """The JSON Lines export: header first, then each event with its command."""
    yield json.dumps({"format": HISTORY_FORMAT, **header}, separators=(",", ":")) + "\n"
    for envelope in envelopes:
        yield json.dumps(envelope.history_dict(), separators=(",", ":")) + "\n"


def parse_history(text: str) -> list[dict]:
    """JSON Lines to dicts; ValueError names the bad line."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = strictjson.loads(line)  # an uploaded file: bounded depth, integers, valid Unicode
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


def _seat_of(actor: str) -> int | None:
    _, _, seat = str(actor).partition(":")
    return int(seat) if seat.isdigit() else None


def verify_history(records: list[dict], rulesets: Mapping[str, Ruleset]) -> dict:
    """Re-fold the history and re-derive every roll; report where it first diverges."""
    header, events = records[0], records[1:]
    result = {"valid": False, "events": 0, "diverged_at": None, "reason": None,
              "ruleset": header.get("ruleset"), "outcome": None}

    def fail(version: int | None, reason: str) -> dict:
        result.update(diverged_at=version, reason=reason)
        return result

    if header.get("format") != HISTORY_FORMAT:
        return fail(None, f"the first line must be a header with format {HISTORY_FORMAT!r}")
    # An uploaded file: check every shape before anything indexes, hashes or folds it.
    ruleset = rulesets.get(header["ruleset"]) if isinstance(header.get("ruleset"), str) else None
    if ruleset is None:
        return fail(None, f"unknown ruleset {header.get('ruleset')!r}")
    seed = header.get("seed")
    if not isinstance(seed, str) or seed_commitment(seed) != header.get("seed_commitment"):
        return fail(None, "the seed does not match the seed commitment published at creation")
    if not isinstance(header.get("seats"), list) or not isinstance(header.get("options", {}), (dict, type(None))):
        return fail(None, "the header needs a list 'seats' and an object 'options'")
    for expected, record in enumerate(events, start=1):
        if record.get("version") != expected:
            return fail(expected, f"versions must run 1, 2, 3...; found {record.get('version')!r} at position {expected}")
        if not isinstance(record.get("type"), str) or not isinstance(record.get("data"), dict):
            return fail(expected, "every event needs a string 'type' and an object 'data'")

    state = None
    seats = len(header.get("seats") or [])
    i = 0
    while i < len(events):
        first = events[i]
        command = first.get("command")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            return fail(first["version"], "an event batch must start with the command that caused it")
        j = i + 1
        while j < len(events) and "command" not in events[j]:
            j += 1
        batch, version = events[i:j], first["version"]
        if command["type"] in ENGINE_COMMANDS:
            if command["type"] == "CreateGame" and batch[0]["data"].get("seed_commitment") != header["seed_commitment"]:
                return fail(version, "GameCreated does not carry the header's seed commitment")
            i = j
            continue
        rng = Rng(seed, version)
        try:
            if command["type"] == "StartGame":
                produced = ruleset.setup(header.get("options") or {}, seats, rng)
            elif state is None:
                return fail(version, f"{command['type']} before the game was set up (StartGame)")
            else:
                seat = _seat_of(first.get("actor"))
                if seat is None or seat not in {int(s) for s in ruleset.awaiting(state)}:
                    return fail(version, f"{first.get('actor')} was not awaited when it sent {command['type']}")
                produced = ruleset.decide(state, seat, command, rng)
        except IllegalMove as error:
            return fail(version, f"the recorded command {command['type']} is illegal there: {error.reason}")
        recorded = [(e["type"], e["data"]) for e in batch]
        produced = [(e.type, e.data) for e in produced]
        if produced != recorded:  # equal already in the common case; else compare as JSON would
            produced = [(t, _normal(d)) for t, d in produced]
        for k in range(max(len(produced), len(recorded)) if produced != recorded else 0):
            if k >= len(produced) or k >= len(recorded) or produced[k] != recorded[k]:
                want = produced[k] if k < len(produced) else "nothing"
                return fail(version + k, f"recorded {recorded[k] if k < len(recorded) else 'nothing'} "
                                         f"but the rules and seed give {want}")
        for event_type, data in produced:
            state = ruleset.evolve(state, Event(event_type, data))
        result["events"] = batch[-1]["version"]
        i = j
    result["events"] = len(events)
    outcome = ruleset.outcome(state) if state is not None else None
    result["outcome"] = outcome
    if "outcome" in header and _normal(header["outcome"]) != _normal(outcome):
        return fail(None, "the header's outcome differs from the outcome the events lead to")
    result["valid"] = True
    return result
