"""No ids or seat numbers in what a player reads (issue 38 item 8, issue 36 item 6): in whole random games of
every ruleset, every move label, every event's sentence as each seat and a spectator read it, the outcome's
text and the detail of a refused command name seats by the players' names and things by their printed names.

A label or sentence that slips, "Steal a Deal: seat 1's Junkie", "Spend Burn the crops (burn-crops-3)",
"Decline seat 2's offer", "intersection 12", matches one of PATTERNS.
"""
from __future__ import annotations

import re

import pytest

from rules import RULESETS
from rules.base import IllegalMove, Rng, redact
from rules.describe import move_labels
from rules.narration import outcome_text, seats_named
from tests.rules.support import NAMES

# what an id or a seat number looks like in text, by what it gives away
PATTERNS = {
    "a seat number": r"\b[Ss]eats? \d",
    "a card id": r"\b[a-z]+(?:-[a-z]+)*-\d+\b|\b[a-z]+\d+(?:-\d+)?\b|\b(?:SG|FO)\d\d\b",
    "a board or offer number": r"\b(?:intersection|path|brick|offer|loan) \d+|#\d+",
    "an identifier": r"\b[a-z]+_[a-z_]+\b",
    "raw data": r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b",
}
FOUND = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(PATTERNS.values())))
GAMES = 2
MAX_COMMANDS = 3000
# Options that change what is said (the other game plays the defaults)
VARIANTS = {"narcos": {"mode": "advanced"}, "trafficking": {"lending": True},
            "druglord": {"faster_play": True, "california_style": True, "new_players": [0]}}


def ids_in(text: str) -> list[str]:
    """What in `text` looks like an id or a seat number, each with what it is."""
    kinds = list(PATTERNS)
    return [f"{kinds[int(m.lastgroup[1:])]} {m.group()!r}" for m in FOUND.finditer(text)]


def test_the_patterns_find_what_issue_38_found():
    for text in ("Steal a Deal: seat 1's Junkie ($1000)", "Spend Burn the crops (burn-crops-3)", "Buy (storage-8-2)",
                 "Decline seat 2's offer", "junkie400", "#25: Seat 2", "Place a Greenhouse at intersection 12",
                 "Ana drew SG13", "Play strong_arm", "{'type': 'Roll'}"):
        assert ids_in(text), text
    for text in ("Steal a Deal: Bo's Junkie ($1000) buys from Dealer (6) no. 2", "Draft Great Plains (FS3)",
                 "Place a Greenhouse at the corner of FUEL 4, SEEDS 9 (row 2) and SOIL 6, at a 2:1 FUEL dock",
                 "Sell 2 Lids for $200", "Play the last 3 cards of Round 1", "Sway Cy's die +2 with Pills"):
        assert not ids_in(text), text


def refusal_detail(ruleset, state, seat: int, command: dict) -> str | None:
    """The detail a seat reads when it sends `command` (service/api/play.py names the seats), or None."""
    try:
        ruleset.decide(state, seat, command, Rng("probe", 0))
    except IllegalMove as refusal:
        return seats_named(refusal.reason, NAMES)
    return None


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_no_ids_or_seat_numbers_in_labels_sentences_outcomes_or_refusals(name):
    ruleset = RULESETS[name]
    read: dict[str, set[str]] = {"label": set(), "sentence": set(), "outcome": set(), "refusal": set()}
    for game in range(GAMES):
        seats = min(ruleset.max_seats, ruleset.min_seats + 1 + game)
        seed = f"player-text-{name}-{game}"
        events = ruleset.setup(VARIANTS.get(name, {}) if game % 2 else {}, seats, Rng(seed, 1))
        state = ruleset.fold(None, events)
        for step in range(MAX_COMMANDS):
            for event in events:
                read["sentence"] |= {ruleset.narrate(redact(ruleset, event, reader), NAMES)["text"]
                                     for reader in [None, *range(seats)]}
            awaiting = sorted(ruleset.awaiting(state))
            if not awaiting:
                break
            for seat in awaiting:
                read["label"] |= set(move_labels(ruleset, state, seat, ruleset.legal_moves(state, seat), NAMES))
            seat = awaiting[step % len(awaiting)]
            command = ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{step}"))
            if step % 7 == 0:  # another seat's move sent by a seat that may not send it
                other = (seat + 1) % seats
                read["refusal"].add(refusal_detail(ruleset, state, other, command) or "")
            events = ruleset.decide(state, seat, command, Rng(seed, step + 2))
            state = ruleset.fold(state, events)
        else:
            pytest.fail(f"{name} game {game} did not end in {MAX_COMMANDS} commands")
        read["outcome"].add(outcome_text(ruleset.outcome(state), NAMES))
    slipped = {f"{what}: {text!r}: {', '.join(ids_in(text))}" for what, texts in read.items() for text in texts
               if ids_in(text)}
    assert not slipped, f"{name}: {len(slipped)} texts name ids or seat numbers:\n" + "\n".join(sorted(slipped)[:40])
    assert len(read["label"]) > 20 and len(read["sentence"]) > 20 and read["outcome"]
