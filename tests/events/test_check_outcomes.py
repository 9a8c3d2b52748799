"""The outside checker of docs/fairness.md section 3 (docs/examples/check_draws.py, standard library only, run as
a stranger runs it: `python -I`): over a finished format-5 game of every ruleset (tests/data/format5, made by its
make.py as the service plays: a contributing human, a claimed seat, bots) it re-derives every result the table
lists from the draws, and every recorded draw call is one the table lists; it names a reordered deck and a
changed die in each ruleset.  Also over the earlier formats (one stream per command): the format-4 game of
each ruleset (tests/data/formats) and three of the corpus (tests/data/histories, formats 1 and 2, rules
version 1: Druglord's roll-offs without Sway, a Lords of Cannabis theft where no draws are recorded).  Every
row of the tables is in one of these games (`ROWS`).

The input lists the shuffles start from are part of the spec (docs/examples/draw-inputs.json); the test below
holds them to the rules' own data.  Regenerate (only when a ruleset's data changes, which a new rules
version would have to keep apart):
    python -m tests.events.test_check_outcomes --write
"""
from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from events.history import state_at
from events.seeds import mix
from rules import RULESETS
from rules.base import WORLD, KeyedRng, Rng
from rules.druglord import trial

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "examples" / "check_draws.py"
INPUTS = ROOT / "docs" / "examples" / "draw-inputs.json"
FORMAT_5 = sorted((ROOT / "tests" / "data" / "format5").glob("*.jsonl.gz"))
FORMAT_4 = sorted((ROOT / "tests" / "data" / "formats").glob("*-format4.jsonl.gz"))
# from the corpus: Druglord's roll-offs before Sway (rules version 1), a theft in a history without draws, a
# Dealer The Pusher breaks
CORPUS = [ROOT / "tests" / "data" / "histories" / name
          for name in ("druglord-00.jsonl.gz", "lords_of_cannabis-01.jsonl.gz", "trafficking-00.jsonl.gz")]


def inputs() -> dict:
    """The lists section 3's shuffles, picks and chips start from, as the rules hold them."""
    from rules.druglord.data import CLASSY_DIE, REGION_IDS, baller_deck
    from rules.lords_of_cannabis.board import BRICK_NEIGHBOURS, CHIPS
    from rules.lords_of_cannabis.cards import crop_deck
    from rules.narcos.data import CARTEL_DECK, CITIES, CITY_TOKENS, DECK
    from rules.trafficking.data import deck

    return {
        "about": "The input lists of docs/fairness.md section 3: the lists the set-up's shuffles, picks and chips "
                 "start from, in order, for every rules version (none differs). Part of the spec; "
                 "tests/events/test_check_outcomes.py holds them to the rules' data.",
        "druglord": {"regions": list(REGION_IDS), "baller_deck": baller_deck(), "classy_die": list(CLASSY_DIE)},
        "trafficking": {"sour_grapes": len(deck("sour_grapes")), "flip_out": len(deck("flip_out"))},
        "lords_of_cannabis": {"chips": list(CHIPS), "brick_neighbours": [sorted(n) for n in BRICK_NEIGHBOURS],
                              "crop_deck": crop_deck()},
        "narcos": {"cities": list(CITIES), "city_tokens": list(CITY_TOKENS),
                   "permanent_choices": [next(c["id"] for c in DECK if c["kind"] == "dealer" and c["city"] == city)
                                         for city in CITIES],
                   "round_one": [c["id"] for c in DECK if c["round"] == 1],
                   "reserve": [c["id"] for c in DECK if c["round"] == 2],
                   "cartel": [c["id"] for c in CARTEL_DECK],
                   "advanced_only": [c["id"] for c in CARTEL_DECK if c["advanced_only"]]},
    }


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]


def check(records: list[dict], tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return subprocess.run([sys.executable, "-I", str(SCRIPT), str(path), *args], capture_output=True, text=True,
                          cwd=tmp_path)


def test_the_input_lists_are_the_rules_own():
    # a list the spec states that the rules do not start from would make every checker wrong
    assert json.loads(INPUTS.read_text()) == inputs()


def test_the_checker_is_a_strangers():
    text = SCRIPT.read_text()
    assert "from rules" not in text and "import events" not in text and "from events" not in text


def verdict(run: subprocess.CompletedProcess) -> str:
    return run.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("path", FORMAT_5 + FORMAT_4 + CORPUS, ids=lambda p: p.name.split(".")[0])
def test_every_result_of_a_finished_game_re_derives_from_its_draws(path, tmp_path):
    run = check(read(path), tmp_path)
    assert run.returncode == 0 and verdict(run).startswith("outcomes: "), run
    assert int(verdict(run).split()[1]) > 20 and "then" not in verdict(run), run


# (the ruleset's games, an event type, how to change one of its results) for a changed die in every ruleset
DIE = {"kingpin": ("DiceRolled", lambda d: d["dice"].__setitem__(0, other(d["dice"][0]))),
       "druglord": ("RollCast", lambda d: d["naturals"].__setitem__(first(d["naturals"]),
                                                                   9 if d["naturals"][first(d["naturals"])] != 9
                                                                   else 5)),
       "trafficking": ("MoveRolled", lambda d: d.__setitem__("die", other(d["die"]))),
       "lords_of_cannabis": ("DiceRolled", lambda d: d["dice"].__setitem__(1, other(d["dice"][1]))),
       "narcos": ("GameStarted", lambda d: d.__setitem__("first", (d["first"] + 1) % d["seats"]))}


def other(die: int) -> int:
    return 6 if die != 6 else 5


def first(mapping: dict) -> str:
    return next(iter(mapping))


def tampered(records: list[dict], kind: str, change, nth: int = 0) -> tuple[list[dict], int]:
    """A copy of the records with the nth `kind` event's data changed; its version."""
    records = copy.deepcopy(records)
    target = [r for r in records[1:] if r["type"] == kind][nth]
    change(target["data"])
    return records, target["version"]


@pytest.mark.parametrize("path", [p for p in FORMAT_5 if "advanced" not in p.name] + FORMAT_4,
                         ids=lambda p: p.name.split(".")[0])
def test_a_changed_die_or_pick_is_named_at_its_event_though_its_draws_re_derive(path, tmp_path):
    records = read(path)
    kind, change = DIE[records[0]["ruleset"]]
    forged, version = tampered(records, kind, change, nth=3 if kind != "GameStarted" else 0)
    run = check(forged, tmp_path)
    # the recorded draws are untouched and re-derive; the result they decided does not
    assert "recorded draws:" in run.stdout and "; then" not in run.stdout.splitlines()[-2], run
    assert run.returncode == 1 and f"then version {version}: {kind}." in verdict(run), run


def test_a_reordered_narcos_deck_is_named(tmp_path):
    # the audit: "a reordered Narcos deck passes any check written from the spec"; the Round 1 deck, the
    # Round 2 deck and a card turned from it (a forger who reorders the deck and the cards turned alike)
    narcos = [p for p in FORMAT_5 if p.name.startswith("narcos")] + [p for p in FORMAT_4 if p.name.startswith("narcos")]
    for path in narcos:
        records = read(path)
        for round_ in (1, 2):
            forged = copy.deepcopy(records)
            shuffled = next(r for r in forged[1:] if r["type"] == "DeckShuffled" and r["data"]["round"] == round_)
            order = shuffled["data"]["secret"]["order"]
            order[3], order[4] = order[4], order[3]
            run = check(forged, tmp_path)
            assert run.returncode == 1, run
            assert f"then version {shuffled['version']}: DeckShuffled.secret.order[3] is" in verdict(run), run
        forged = copy.deepcopy(records)
        drawn = [r for r in forged[1:] if r["type"] == "CardDrawn"]
        drawn[0]["data"]["card"], drawn[1]["data"]["card"] = drawn[1]["data"]["card"], drawn[0]["data"]["card"]
        run = check(forged, tmp_path)
        assert run.returncode == 1 and f"then version {drawn[0]['version']}: CardDrawn.card is" in verdict(run), run


def test_a_reordered_deck_is_named_in_every_ruleset_that_shuffles(tmp_path):
    decks = {"druglord": ("GameStarted", lambda d: d["secret"]["baller_deck"].reverse()),
             "trafficking": ("GameStarted", lambda d: d["secret"]["decks"]["flip_out"].reverse()),
             "lords_of_cannabis": ("GameStarted", lambda d: d["secret"]["deck"].reverse())}
    for path in FORMAT_5:
        records = read(path)
        if records[0]["ruleset"] in decks:
            forged, version = tampered(records, *decks[records[0]["ruleset"]])
            run = check(forged, tmp_path)
            assert run.returncode == 1 and f"then version {version}: GameStarted.secret." in verdict(run), run


def test_a_draw_call_the_table_does_not_list_is_named(tmp_path):
    # the table lists every call: a call the history records beyond them is refused, with its label.  Kingpin
    # picks nothing, so a forger's pick on the rolling seat's stream is in turn and its value re-derives: the
    # draws pass, the outcomes do not
    records = read(next(p for p in FORMAT_5 if p.name.startswith("kingpin")))
    rolled = next(r for r in records[1:] if r["type"] == "DiceRolled" and "draws" in r)
    extra = f"{rolled['data']['seat']}/pick/0"
    rolled["draws"].append([extra, [[2, Rng(effective(records), extra).randbelow(2)]]])
    run = check(records, tmp_path)
    assert "recorded draws:" in run.stdout and "; then" not in run.stdout.splitlines()[-2], run
    assert run.returncode == 1 and f"version {rolled['version']}: the history records 2 draw calls" in verdict(run)


def effective(records: list[dict]) -> str:
    """The effective seed of a history (events.seeds.mix of its contributions)."""
    return mix(records[0]["seed"], [r["data"]["entropy"] for r in records[1:]
                                    if r["type"] in ("GameCreated", "SeatClaimed", "EntropyContributed")
                                    and "entropy" in r["data"]])

@pytest.mark.parametrize("path", [FORMAT_5[0], FORMAT_4[0]], ids=lambda p: p.name.split(".")[0])
def test_a_command_whose_draws_are_left_out_is_named(path, tmp_path):
    # the last command that drew: the draws check has nothing to re-derive there, and no stream after it is out
    # of turn; the table says the command drew
    records = read(path)
    target = [r for r in records[1:] if r.get("draws")][-1]
    del target["draws"]
    run = check(records, tmp_path)
    assert run.returncode == 1 and f"then version {target['version']}: the history records" in verdict(run), run


def batches(records: list[dict]) -> list[tuple[dict, list[dict]]]:
    """(the command's first event, its events) of each command."""
    out: list[tuple[dict, list[dict]]] = []
    for record in records[1:]:
        if "command" in record:
            out.append((record, []))
        out[-1][1].append(record)
    return out


def seat_of(first: dict) -> str:
    return first["actor"].partition(":")[2]


def has(kind: str, test=lambda data: True):
    """A row's situation: an event of `kind` whose data passes `test`."""
    return lambda first, events: any(e["type"] == kind and test(e["data"]) for e in events)


# Every row of section 3's tables (and the cases a row names) as a situation some game of the ruleset shows:
# the games the checker passes over hold each of them, so each row is checked against a real export.
ROWS = {
    "kingpin": {"first player, tied": has("FirstPlayerRolled", lambda d: len(d["rounds"]) > 1),
                "RollDice": has("DiceRolled"), "an overdose rolled": has("ODRolled", lambda d: d["dice"]),
                "an overdose by 4 or more": has("ODRolled", lambda d: d["over"] >= 4)},
    "druglord": {"set-up": has("GameStarted"), "the deal": has("RegionCardsDrawn"),
                 "empires revealed": lambda f, ev: has("EmpiresRevealed")(f, ev) and has("DeckShuffled")(f, ev),
                 "a draft closed": lambda f, ev: has("DraftClosed")(f, ev) and has("DeckShuffled")(f, ev),
                 **{f"a {kind} roll": has("RollCast", lambda d, kind=kind: d["kind"] == kind)
                    for kind in ("trade", "war", "trial", "bonus", "rolloff")},
                 "Local Busts tied": has("WeightRemoved", lambda d: d["cause"] == "local_busts" and d["tie_rolls"]),
                 "a Baller card drawn": has("BallerDrawn"),
                 "the Baller deck reshuffled": has("BallerDeckShuffled"),
                 "version 1: draft roll-offs": has("DraftOpened", lambda d: d["rolloffs"]),
                 "version 1: action order": has("ActionOrderRolled", lambda d: d["rounds"])},
    "trafficking": {"the Narc's roll, tied": has("GameStarted", lambda d: len(d["rolls"]) > 1),
                    "Roll": has("MoveRolled"), "a bet": has("BetSettled"),
                    "The Pusher": has("LidsBought", lambda d: d["where"] == "pusher"),
                    "The Pusher breaks a Dealer": has("Bankrupt", lambda d: "die" in d),
                    "the Roxy": lambda f, ev: any(e["type"] == "TimeWarpRolled" and str(e["data"]["seat"]) == seat_of(f)
                                                  for e in ev),
                    "the Narc's Time Warp card": lambda f, ev: any(e["type"] == "TimeWarpRolled"
                                                                   and str(e["data"]["seat"]) != seat_of(f) for e in ev),
                    "Buy": has("LidsBought", lambda d: d["where"] == "dealing"), "Buy failed": has("BuyFailed"),
                    "Sell": has("SellRolled"), "Sell at Marcus": has("LidsSold", lambda d: d["to"] == "marcus"),
                    "Lids sold at the bank": has("LidsSold", lambda d: d["to"] == "bank"),
                    "PickUpLid": has("LidPickedUp"), "the 11-7 breaks a Dealer": has("Bankrupt", lambda d: "dice" in d)},
    "lords_of_cannabis": {"set-up, first player tied": has("GameStarted", lambda d: len(d["rolls"]) > d["seats"]),
                          "Roll": has("DiceRolled"), "a card stolen": has("CardStolen")},
    "narcos": {"basic": has("GameStarted", lambda d: d["mode"] == "basic"),
               "advanced": has("GameStarted", lambda d: d["mode"] == "advanced"),
               "Cartel cards dealt": has("CartelDealt"), "a card turned": has("CardDrawn"),
               "Round 2 called": has("RoundTwoStarted", lambda d: d["called_by"] is not None),
               "Round 2 by itself": has("RoundTwoStarted", lambda d: d["called_by"] is None)},
}


@pytest.mark.parametrize("ruleset", sorted(ROWS))
def test_the_games_checked_hold_every_row_of_the_table(ruleset):
    games = [read(p) for p in FORMAT_5 + CORPUS if p.name.startswith(ruleset)]
    missing = [row for row, seen in ROWS[ruleset].items()
               if not any(seen(first, events) for records in games for first, events in batches(records))]
    assert games and missing == []


def stranger():
    """The checker as a module, to hand it events the rules decide here."""
    spec = importlib.util.spec_from_file_location("check_draws", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_tied_crackdown_is_rolled_off_as_the_table_says():
    # Trial result 2 with weight types tied (no game kept here shows one): the rules' own tie-break, made on the
    # world's streams as the settle loop makes it, is what the table and the checker say
    records = read(next(p for p in FORMAT_5 if p.name.startswith("druglord")))
    _, state = state_at(records, RULESETS, 20)
    rng = KeyedRng("a seed", {"world/dice": 7}, WORLD, record=True)
    [event] = trial.effect(state, 1, 2, {"cases": {"reefer": 3, "pills": 3, "cocaine": 3, "opiates": 1}}, rng)
    assert event.type == "CrackdownImposed" and event.data["tie_rolls"][0]["who"] == ["reefer", "pills", "cocaine"]
    checker = stranger()
    game = checker.Druglord(records[0], json.loads(INPUTS.read_text())["druglord"])
    calls = checker.Calls("a seed", keyed=True)
    calls.counters = {"world/dice": 7}
    calls.start({"version": 21, "actor": "bot:1", "draws": rng.recorded()})
    game.event({"type": "CrackdownImposed", "version": 21, "data": dict(event.data)}, calls)
    assert calls.finish() is None and game.checked == len(event.data["tie_rolls"]) + 1
    # another weight than the roll-off's winner: named
    calls = checker.Calls("a seed", keyed=True)
    calls.counters = {"world/dice": 7}
    calls.start({"version": 21, "actor": "bot:1", "draws": rng.recorded()})
    other = next(w for w in ("reefer", "pills", "cocaine") if w != event.data["weight"])
    with pytest.raises(checker.Differs, match="CrackdownImposed.weight"):
        game.event({"type": "CrackdownImposed", "version": 21, "data": dict(event.data, weight=other)}, calls)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    INPUTS.write_text(json.dumps(inputs(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {INPUTS}")
