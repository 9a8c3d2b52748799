"""The bots' choices over a fixed set of positions, as one digest per ruleset: what
tests/rules/test_bot_revision.py compares across processes and with tests/data/bot-fingerprint.json.

    python -m tests.support.bot_fingerprint    prints {"revision": N, "revisions": {"1": {name: digest}, ...}}
    python -m tests.support.bot_fingerprint kingpin narcos    the same, for those rulesets only

Positions come from seeded random playouts of every ruleset at its least and its largest table; at each
sampled position every awaited seat is asked for its move at every level (the search at a small budget),
as a worker asks (rules/bot_seat.py bot_command: the seat's world in canonical form, the bot key's streams);
at every sixth position of the least table, the lowest awaited seat is asked for the served search too ("ismcts",
the game's own budget: what a small budget cannot show, a guided search replacing its policy's move).  Every
revision this release re-runs (RERUN_REVISIONS) is asked, each as its bots chose.
"""
from __future__ import annotations

import hashlib
import json
import sys

from rules import EVERY_RULESET
from rules.base import Rng, fold, normalize_options
from rules.bot_seat import BOTS_REVISION, RERUN_REVISIONS, bot_command, bot_key

SEARCH = "ismcts:8"
SERVED = "ismcts"
POSITIONS = 30  # sampled a playout, at each of two table sizes
EVERY = 12  # commands between two samples
SERVED_EVERY = 6  # samples between two where the served search is asked too, at the least table (from the 4th)


def levels(ruleset) -> list[str]:
    return [SEARCH if level == "ismcts" else level for level in ruleset.bot_levels]


def choices(ruleset, seats: int, seed: str, revision: int) -> list:
    """Every level's move for every awaited seat at POSITIONS positions of a random playout."""
    events = ruleset.setup(normalize_options(ruleset.options, None), seats, Rng(seed, "setup"))
    state, version, key, out = fold(ruleset, events), 1 + len(events), bot_key(seed), []
    for step in range(POSITIONS * EVERY):
        if ruleset.outcome(state) is not None:
            break
        awaited = sorted(ruleset.awaiting(state))
        if step % EVERY == 0:
            out.append([[level, seat, bot_command(ruleset, state, seat, level, key, version, revision=revision)]
                        for seat in awaited for level in levels(ruleset)])
            if step // EVERY % SERVED_EVERY == 4 and seats == ruleset.min_seats and SERVED in ruleset.bot_levels:
                out[-1].append([SERVED, awaited[0], bot_command(ruleset, state, awaited[0], SERVED, key, version,
                                                                revision=revision)])
        seat = awaited[0]
        command = ruleset.bot_move(state, seat, "random", Rng(seed, f"play:{step}"))
        events = ruleset.decide(state, seat, command, Rng(seed, version + 1))
        state, version = fold(ruleset, events, state), version + len(events)
    return out


def digests(revision: int, names=None) -> dict:
    out = {}
    for name, ruleset in sorted(EVERY_RULESET.items()):
        if names and name not in names:
            continue
        moves = [choices(ruleset, seats, f"fingerprint-{name}-{seats}", revision)
                 for seats in sorted({ruleset.min_seats, ruleset.max_seats})]
        out[name] = hashlib.sha256(json.dumps(moves, sort_keys=True).encode()).hexdigest()
    return out


def fingerprint(names=None) -> dict:
    return {"revision": BOTS_REVISION, "revisions": {str(r): digests(r, names) for r in RERUN_REVISIONS}}


if __name__ == "__main__":
    json.dump(fingerprint(sys.argv[1:]), sys.stdout, indent=1)
    sys.stdout.write("\n")
