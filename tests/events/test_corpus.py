"""The recorded corpus (tests/data/histories, made by tests/support/corpus.py before the engine's
refactors and before rules versions): every history still verifies under version 1 of its rules,
and re-deciding each recorded command from the revealed seed gives byte-identical events.  Each is
complete (it reaches its header's last version and outcome); their events carry no game id, which the
verdict lists as what the header could not vouch for.  A change to the rules or the engine that alters what any
recorded command produces fails here."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from events.envelope import canonical
from events.history import ENGINE_COMMANDS, parse_history, verify_history
from rules import RULESETS
from rules.base import Event, Rng
from rules.ruleset import ruleset_at
from tests.support.corpus import bare

CORPUS = sorted((Path(__file__).resolve().parents[1] / "data" / "histories").glob("*.jsonl.gz"))


def read(path: Path) -> list[dict]:
    return parse_history(gzip.decompress(path.read_bytes()).decode())


def test_the_corpus_covers_every_ruleset_clock_expiries_hand_overs_and_reclaims():
    assert len(CORPUS) >= 40
    histories = [read(path) for path in CORPUS]
    assert {h[0]["ruleset"] for h in histories} == set(RULESETS)
    actors = {e["actor"].partition(":")[0] for h in histories for e in h[1:]}
    types = {e["type"] for h in histories for e in h[1:]}
    assert {"seat", "bot", "clock", "system"} <= actors
    assert {"SeatHandedToBot", "SeatReclaimed"} <= types


@pytest.mark.parametrize("path", CORPUS, ids=[p.name.split(".")[0] for p in CORPUS])
def test_a_recorded_history_verifies_and_replays_byte_identically(path):
    records = read(path)
    result = verify_history(records, RULESETS)
    assert result["valid"] and result["complete"], result
    assert bare(result["outcome"]) == records[0]["outcome"] and result["mismatches"] == []
    # formats 1 and 2: the events carry no game id, so the header cannot vouch for it (and says so)
    assert result["unvouched"] == ["game_id"] and "cannot vouch for: game_id" in result["summary"]

    header, events = records[0], records[1:]
    # under the rules version it was recorded with (the corpus predates versions: 1)
    ruleset = ruleset_at(RULESETS[header["ruleset"]], header.get("ruleset_version", 1))
    assert ruleset.version == 1
    seed, state = header["seed"], None
    starts = [i for i, e in enumerate(events) if "command" in e] + [len(events)]
    replayed = 0
    for start, end in zip(starts, starts[1:]):
        batch, command = events[start:end], events[start]["command"]
        if command["type"] in ENGINE_COMMANDS:
            continue
        rng = Rng(seed, batch[0]["version"])
        if command["type"] == "StartGame":
            produced = ruleset.setup(header["options"], len(header["seats"]), rng)
        else:
            seat = int(batch[0]["actor"].partition(":")[2])
            produced = ruleset.decide(state, seat, command, rng)
        as_stored = [json.dumps([e.type, canonical(e.data)], separators=(",", ":")) for e in produced]
        recorded = [json.dumps([e["type"], e["data"]], separators=(",", ":")) for e in batch]
        assert as_stored == recorded, f"{path.name}: the command at version {batch[0]['version']} re-plays differently"
        for e in produced:
            state = ruleset.evolve(state, Event(e.type, canonical(e.data)))
        replayed += len(batch)
    assert replayed > 0


@pytest.mark.parametrize("path", [CORPUS[0], CORPUS[-1]], ids=[CORPUS[0].name.split(".")[0], CORPUS[-1].name.split(".")[0]])
def test_a_prefix_of_a_recorded_history_is_valid_but_not_complete(path):
    records = read(path)
    header = records[0]
    cut = next(r["version"] for r in records[1:] if "command" in r and r["version"] > 40) - 1  # a whole command
    prefix = [dict(header, outcome=None)] + records[1:cut + 1]  # the case: no outcome in the header
    result = verify_history(prefix, RULESETS)
    assert result["valid"] and not result["complete"], result
    assert result["mismatches"] == [{"field": "last_version", "header": header["version"], "events": cut}]
    # a header stripped of what would show it (last version, outcome): still not the whole game
    bare = {k: v for k, v in header.items() if k not in ("version", "outcome")}
    result = verify_history([bare] + records[1:cut + 1], RULESETS)
    assert result["valid"] and not result["complete"] and result["mismatches"] == [], result
    assert result["unvouched"] == ["game_id", "last_version", "outcome"]
    assert f"stop at version {cut}, where the game had not ended" in result["reason"]
