"""The bots' revision (rules/bot_seat.py BOTS_REVISION) names their choices (issue 34, item 4).

Verification re-runs each recorded bot move as a worker made it, in a bot process set up alike
(events/botbox.py: the same environment, PYTHONHASHSEED=0).  The fingerprint of every level's choices over
fixed positions (tests/support/bot_fingerprint.py), computed in such a process, must be the one stored for
this revision: a change to any bot's choices fails here until BOTS_REVISION is raised and
tests/data/bot-fingerprint.json regenerated
(`PYTHONHASHSEED=0 python -m tests.support.bot_fingerprint > tests/data/bot-fingerprint.json`), so that a
history of the old revision is counted as such by a newer release instead of failing its re-derivation.  The
earlier revisions a release still re-runs (RERUN_REVISIONS: their search settings are kept as each game's
`search_revisions`) keep their stored fingerprints: a release that changed them fails here too."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import EVERY_RULESET, RULESETS
from rules.bot_seat import BOTS_REVISION, RERUN_REVISIONS

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "tests" / "data" / "bot-fingerprint.json"
REGENERATE = (f"raise BOTS_REVISION (rules/bot_seat.py) and regenerate {STORED.relative_to(ROOT)} "
              "(PYTHONHASHSEED=0 python -m tests.support.bot_fingerprint)")


def test_every_served_game_and_revision_is_fingerprinted():
    stored = json.loads(STORED.read_text())
    assert stored["revision"] == BOTS_REVISION and set(stored["revisions"]) == {str(r) for r in RERUN_REVISIONS}, \
        REGENERATE
    for rulesets in stored["revisions"].values():
        assert set(RULESETS) <= set(rulesets), f"a served game's bots are not fingerprinted: {REGENERATE}"


# one process a ruleset, so that the xdist workers share them (all in one took 2 minutes on one worker)
@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_the_bots_revision_names_their_choices(name):
    run = subprocess.run([sys.executable, "-m", "tests.support.bot_fingerprint", name], cwd=ROOT,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    computed, stored = json.loads(run.stdout), json.loads(STORED.read_text())
    assert computed["revision"] == stored["revision"], REGENERATE
    # every revision this release re-runs is stored, the earlier ones as their release chose (revision 1:
    # main before issue 39's search, computed there): a history of any of them re-runs as it was played
    assert set(computed["revisions"]) == set(stored["revisions"]), REGENERATE
    for revision, rulesets in stored["revisions"].items():
        # every stored ruleset's bots choose as they did; an example added since has no fingerprint to keep yet
        # (it is recorded when the file is next regenerated), a served game must have one
        if name in rulesets:
            assert computed["revisions"][revision][name] == rulesets[name], \
                f"the choices of bots revision {revision} in {name} changed: {REGENERATE}"


def test_a_revision_the_release_does_not_have_is_refused():
    from rules.bot_seat import bot_choice
    ruleset = RULESETS["kingpin"]
    with pytest.raises(ValueError, match="revision"):
        bot_choice(ruleset, {}, 0, "random", "key", 1, revision=BOTS_REVISION + 1)
