"""`cartel verify --offline`: the verdict POST /v1/replays gives, computed on this machine.

The one module of clients/ that imports more than the SDK (tests/test_layers.py names it): offline
verification is by definition not a call to the server whose honesty is in question, so it runs the
service's own reading and verification (events/history.py) with this package's rules."""
from __future__ import annotations

from clients.sdk import ProblemError, ReplayResult


def verify_offline(body: bytes, bots: str = "fast", expect_commitment: str | None = None,
                   origins: list[bytes] = ()) -> ReplayResult:
    """The verdict POST /v1/replays gives, computed here: the service's own reading and verification
    (events/history.py) with this package's rules, so someone who distrusts the server needs only the
    package.  The one command that imports more than the SDK: it is the server's code, run locally.
    A file the service answers 400 for raises the same problem here.  `bots`: which bot moves to re-run
    ("fast": every level but the searches, as the server; "all": the searches too, which cost about what
    they cost to play; "none"); `expect_commitment`: the seed commitment you were shown at creation;
    `origins`: for a fork, its original's history (and, for a fork of a fork, that one's original's...)."""
    from events.history import read_history, verify_history
    from rules import RULESETS

    try:
        records, *originals = [read_history(text) for text in (body, *origins)]
    except ValueError as error:
        raise ProblemError(400, {"type": "malformed-history", "title": "Malformed history", "status": 400,
                                 "detail": str(error)}) from None
    by_game = {str(original[0].get("game_id")): original for original in originals}
    return ReplayResult.from_json(verify_history(records, RULESETS, bots, expect_commitment, origins=by_game))
