"""Druglord, Trafficking and Narcos narrate every event they emit (issue 25, item 1), for every reader.

Random playouts (the random bot, as tests/rules/test_every_ruleset.py drives them) of each game; every
event is redacted for each seat and a spectator (rules/base.py `redact`) and narrated from that.  Each
sentence must be a sentence: no raw ids of the game's data (Region, square, card ids), no underscores,
JSON, epoch times; every ref in the refs' kinds and named in the text as the text names it; and a seat
that may not read an event's secret never reads the name of what the secret holds (a drawn Region, a
Baller, kept or Cartel card).  A few sentences per game are then checked word for word.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from rules import RULESETS
from rules.base import Event, Rng, redact
from rules.druglord import data as druglord_data
from rules.narcos import data as narcos_data
from rules.narration import REF_KINDS, Names
from rules.trafficking import data as trafficking_data

NAMES = Names(("Ana", "Bo", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"))
MAX_COMMANDS = 4000


def _catalogue(game: str) -> dict[str, str]:
    """The game's data ids -> how the table names them (what a sentence may say instead of the id)."""
    if game == "druglord":
        return {**{rid: r.name for rid, r in druglord_data.BOARD.regions.items()},
                **{cid: c["name"] for cid, c in druglord_data.CARDS.items()}}
    if game == "trafficking":
        return {**{sid: s["name"] for sid, s in trafficking_data.SQUARES.items()},
                **{cid: c["name"] for cid, c in trafficking_data.CARDS.items()},
                **{did: d["name"] for did, d in trafficking_data.DEALERS.items()}}
    return {**{cid: c["name"] for cid, c in narcos_data.CARDS.items()},
            **{cid: c["english"] for cid, c in narcos_data.CARTEL.items()}}


def _ids_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ids_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_ids_in(v) for v in value)) if value else set()
    return set()


def playout(game: str, seats: int, seed: int, options: dict | None = None) -> Iterator[Event]:
    """Every event of one seeded random game."""
    ruleset = RULESETS[game]
    game_seed = f"narration/{game}/{seats}/{seed}"
    state = None
    for event in ruleset.setup(options or {}, seats, Rng(game_seed, 0)):
        yield event
        state = ruleset.evolve(state, event)
    for version in range(1, MAX_COMMANDS):
        if ruleset.outcome(state) is not None:
            return
        picker = Rng(game_seed + "/bots", version)
        seat = picker.choice(sorted(ruleset.awaiting(state)))
        command = ruleset.bot_move(state, seat, "random", picker)
        for event in ruleset.decide(state, seat, command, Rng(game_seed, version)):
            yield event
            state = ruleset.evolve(state, event)
    pytest.fail(f"{game} did not end within {MAX_COMMANDS} commands")


RAW_ID = re.compile(r"\b[A-Za-z_]\w*\d+-\d+\b")  # "dealer3-3"; the game's own "11-7" is a name
BIG_NUMBER = re.compile(r"\d{10,}")


def sentence_problems(game: str, text: str, refs: list, catalogue: dict[str, str]) -> list[str]:
    """What is wrong with one narration: [] when it reads as a sentence with honest refs."""
    problems = []
    if not isinstance(text, str) or not text.strip():
        return ["no text"]
    if not text[0].isupper() or text[-1] not in ".!":
        problems.append("not a sentence")
    for bad in ("_", "{", "}", "[", "]", "None", "null", "True", "False"):
        if bad in text:
            problems.append(f"holds {bad!r}")
    if RAW_ID.search(text) or BIG_NUMBER.search(text):
        problems.append("holds a raw id or an epoch time")
    words = set(re.findall(r"[\w'.-]+", text)) | set(re.findall(r"[\w-]+", text))
    leaked = sorted(w for w in words if w in catalogue and any(c.isdigit() or c == "-" for c in w))
    if leaked:
        problems.append(f"holds ids {leaked}")
    for r in refs:
        if r.get("kind") not in REF_KINDS or not isinstance(r.get("text"), str) or \
                not isinstance(r.get("id"), (str, int)):
            problems.append(f"bad ref {r}")
        elif r["text"] not in text:
            problems.append(f"ref {r['text']!r} not named in the text")
        elif r["kind"] in ("place", "card") and r["id"] not in catalogue and r["id"] != "traphouse":
            problems.append(f"ref to an unknown id {r['id']!r}")
    return problems


# eight games each (seat counts cycling), and Narcos' advanced game: between them every event type but
# the few in RARE below, which random play seldom reaches
CASES = [(game, seats, seed, options) for game, counts, options in
         (("druglord", (2, 3, 4, 5, 6, 2, 3, 4), {}), ("trafficking", (3, 4, 5, 6, 9, 3, 4, 5), {}),
          ("narcos", (2, 3, 4, 2, 3, 4, 2, 3), {}), ("narcos", (2, 3, 4), {"mode": "advanced"}),
          ("trafficking", (3, 4), {"lending": True}))   # the 17b option's loans (version 2)
         for seed, seats in enumerate(counts)]
# event types random play seldom reaches, as the rules emit them (baller.py, blocks/offers.py, cartel.py)
RARE = [("druglord", Event("BallerDeckShuffled", {"count": 12, "secret": {"deck": ["snitch", "crooked_cop"]}})),
        # the supply of a seat's weight types runs out (version 3's storage makes it rarer in 8 playouts)
        ("druglord", Event("LoadingFinished", {"seat": 1, "forfeited": 2})),
        ("trafficking", Event("OfferWithdrawn", {"offer": 3, "by": 1})),
        ("narcos", Event("ReactionAsked", {"kind": "burn-crops", "seat": 1, "attacker": 0, "card": "burn-crops-1"})),
        ("narcos", Event("ReactionPassed", {"seat": 1, "kind": "burn-crops"})),
        ("narcos", Event("CropBurned", {"seat": 1, "by": 0, "card": "burn-crops-1"}))]


def test_every_event_type_has_a_narrator() -> None:
    for game in ("druglord", "trafficking", "narcos"):
        ruleset = RULESETS[game]
        missing = sorted(set(ruleset.evolvers) - set(ruleset.narrations))
        assert not missing, f"{game} events without a sentence: {missing}"


def check_event(game: str, event: Event, seats: int) -> None:
    """The event narrated for every reader: sentences with honest refs, and no secret told to an outsider."""
    ruleset = RULESETS[game]
    catalogue = _catalogue(game)
    names = Names(NAMES.chosen[:seats])
    secret = event.data.get("secret")
    audience = ruleset.visible_to(event)
    # what only the secret's readers may learn: the names of the ids it holds that the public part lacks
    public_ids = _ids_in({k: v for k, v in event.data.items() if k != "secret"})
    hidden_names = {catalogue[i] for i in _ids_in(secret) - public_ids if i in catalogue}
    hidden_names -= {catalogue[i] for i in public_ids if i in catalogue}
    for reader in [None, *range(seats)]:
        told = ruleset.narrate(redact(ruleset, event, reader), names)
        assert set(told) == {"text", "refs"}, told
        problems = sentence_problems(game, told["text"], told["refs"], catalogue)
        # the places and cards the event is about (its own fields, not lists of them) are refs to highlight
        about = {v for k, v in event.data.items() if k != "secret" and isinstance(v, str) and v in catalogue}
        if about - {r["id"] for r in told["refs"]}:
            problems.append(f"no ref to {sorted(about - {r['id'] for r in told['refs']})}")
        assert not problems, f"{event.type} for reader {reader}: {told['text']!r}: {problems}"
        if secret is not None and audience != "public" and (reader is None or reader not in audience):
            shown = [n for n in hidden_names if re.search(rf"\b{re.escape(n)}\b", told["text"])]
            assert not shown, f"{event.type} tells reader {reader} {shown}: {told['text']!r}"


@pytest.mark.parametrize("game,seats,seed,options", CASES)
def test_every_event_narrates_for_every_reader(game: str, seats: int, seed: int, options: dict) -> None:
    seen: set[str] = set()
    for event in playout(game, seats, seed, options):
        seen.add(event.type)
        check_event(game, event, seats)
    assert len(seen) > 10


@pytest.mark.parametrize("game,event", RARE, ids=[event.type for _, event in RARE])
def test_rare_events_narrate(game: str, event: Event) -> None:
    check_event(game, event, 3)


def test_the_playouts_reach_every_other_event_type() -> None:
    """The cases above narrate every type each game emits (RARE the rest), so no type goes unchecked."""
    for game in ("druglord", "trafficking", "narcos"):
        seen = {event.type for g, seats, seed, options in CASES if g == game
                for event in playout(game, seats, seed, options)}
        rare = {event.type for g, event in RARE if g == game}
        assert set(RULESETS[game].evolvers) - seen <= rare, (game, set(RULESETS[game].evolvers) - seen - rare)


# ------------------------------------------------------------------ sentences in the games' own words
def narrate(game: str, type_: str, reader: int | None = None, **data: Any) -> str:
    ruleset = RULESETS[game]
    return ruleset.narrate(redact(ruleset, Event(type_, data), reader), Names(("Ana", "Bo", "Cy")))["text"]


def test_druglord_sentences() -> None:
    """Rule 9: a round of Violence reads as the Classy Dice rolled; Rule 1: a draw is secret to its drawer."""
    assert narrate("druglord", "RollCast", kind="war", roller=0, naturals={"attack": 3, "defence": 9},
                   modifiers={"attack": 0, "defence": 0}, totals={"attack": 3, "defence": 9}, cards=[]) \
        == "Ana rolled 3 against 9 for Violence."
    drawn = {"seat": 0, "count": 2, "secret": {"regions": ["AE1", "CO2"]}}
    assert narrate("druglord", "RegionCardsDrawn", 1, **drawn) == "Ana drew 2 Region Cards."
    mine = RULESETS["druglord"].narrate(Event("RegionCardsDrawn", drawn), NAMES)
    assert mine["text"] == f"Ana drew UK and {druglord_data.BOARD.regions['CO2'].name}."
    assert mine["refs"][1] == {"kind": "place", "id": "AE1", "text": "UK"}
    assert narrate("druglord", "WarResolved", round="attack", attacker=0, defender=1, **{"from": "CO2"},
                   target="AE1", attack=3, defence=17, winner="defender by 5+", offer="counter") \
        == f"Ana's attack on Bo's UK from {druglord_data.BOARD.regions['CO2'].name}: 3 against 17, Bo won by 5 or more; Bo may counterattack."
    assert narrate("druglord", "BallerDrawn", 1, seat=0, keep_open=True, secret={"card": "snitch"}) \
        == "Ana drew a Baller Moves card."


def test_trafficking_sentences() -> None:
    """Section 4: a roll to move reads as a die; a kept card is the drawer's only."""
    assert narrate("trafficking", "MoveRolled", seat=1, die=4, destinations={}) == "Bo rolled 4."
    kept = {"seat": 0, "deck": "flip_out", "kept": True, "secret": {"card": "FO01"}}
    assert narrate("trafficking", "CardDrawn", 1, **kept) == "Ana drew a Flip Out card and kept it."
    assert trafficking_data.CARDS["FO01"]["name"] in narrate("trafficking", "CardDrawn", 0, **kept)
    assert narrate("trafficking", "GameWon", winners=[2], reason="seat 2 sold a Kilo (36 Lids): Traffic King") \
        == "Cy won: Cy sold a Kilo (36 Lids): Traffic King."


def test_narcos_sentences() -> None:
    """A card turned on the rack is named as printed; a peeked card is the peeker's only."""
    assert narrate("narcos", "CardDrawn", seat=0, card="police-6", peeked=False) \
        == "Ana turned up a Police card."
    assert narrate("narcos", "CardPeeked", 0, seat=1, secret={"card": "police-4"}) \
        == "Bo looked at the next card."
    assert narrate("narcos", "CardPeeked", 1, seat=1, secret={"card": "police-4"}) \
        == "Bo looked at the next card: a Police card."
