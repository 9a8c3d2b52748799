"""The test vectors of docs/fairness.md (tests/data/rng-vectors.json): the stream, randbelow and the
shuffle as the spec states them (`vectors`: streams of commands before draw keys, of draw calls labelled
"<roller>/<kind>/<n>", of bots and their worlds keyed by the bot key), the effective seed mixed from the
players' entropy (`mixes`), the seed commitment (`commitments`), the bot key (`bot_keys`), every draw built on
randbelow and its edge cases, each on a draw call's stream (`draw_calls`), and a small reference export with
the verdict `verify_history` gives it (tests/data/reference-kingpin.jsonl and -verdict.json).  Each vector is
checked twice here: against the implementation the games use (rules.base.Rng and KeyedRng, events.seeds,
rules.bot_seat) and against a from-scratch reading of the spec made of the standard library's hmac and
hashlib alone, so the file cannot merely echo the code that wrote it.  The browser's implementation
(clients/web/js/fairness.js) passes the same file in tests/e2e/test_fairness_browser.py, and
docs/examples/check_draws.py checks its own stream against it.

Regenerate (only when adding vectors; a changed value is a changed stream):
    python -m tests.rules.test_rng_vectors --write
"""
from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path

import pytest

from events.history import parse_history, verify_history
from events.seeds import mix
from rules import RULESETS
from rules.base import WORLD, KeyedRng, Rng, seed_commitment
from rules.bot_seat import bot_key

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS = DATA / "rng-vectors.json"
REFERENCE, VERDICT = DATA / "reference-kingpin.jsonl", DATA / "reference-kingpin-verdict.json"
SEED = "9f1c2a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6"
# the bot key of SEED as an effective seed, as section 2 states it (hex HMAC-SHA256(seed, "bot"))
BOT_KEY = hmac.new(SEED.encode("utf-8"), b"bot", hashlib.sha256).hexdigest()
# seeds: a 256-bit hex one as the service makes, a short one, one over HMAC's 64-byte block (hashed
# first), non-ASCII UTF-8; labels: a command's version (games before draw keys), the game's first command,
# a bot's; then keyed by the bot key, a bot's stream and its world's; then draw calls' streams under draw keys
CASES = [(SEED, "1"), (SEED, "17"),
         ("web-tamper", "2"), ("x" * 65, "40"), ("dé à 🎲", "3"), ("corpus-kingpin-0", "bot:2:17"),
         (BOT_KEY, "bot:1:17"), (BOT_KEY, "world:1:17"),
         (SEED, "0/dice/0"), (SEED, "world/shuffle/3"), ("x" * 65, "world/pick/0")]
# Seeds whose commitments are vectors: the service's kind, short, non-ASCII, over 64 bytes
COMMITTED = [SEED, "web-tamper", "dé à 🎲", "x" * 65]
CLASSY = [1, 2, 3, 4, 5, 9]  # Druglord's Classy Dice
# Draw calls as the games make them, each on the stream of its label from block 0: (seed, label, the draws
# made on it in order, each (call, args)).  Edge cases: randbelow(1) is 0 yet consumes an integer; a shuffle
# of one item draws nothing, of two draws once; non-standard faces; a seed over 64 bytes
DRAW_CALLS = [(SEED, "0/dice/0", [("roll", [3])]),
              (SEED, "world/shuffle/3", [("shuffled", [list(range(10))])]),
              (SEED, "1/pick/2", [("randint", [1, 6])]),
              (SEED, "world/pick/0", [("choice", [["Miami", "Chicago", "New York", "Los Angeles"]])]),
              (SEED, "world/dice/7", [("roll", [8, CLASSY])]),
              ("web-tamper", "2/pick/0", [("randbelow", [1]), ("randbelow", [1]), ("randbelow", [6])]),
              ("web-tamper", "world/shuffle/0", [("shuffled", [["only"]]), ("randbelow", [6])]),
              ("web-tamper", "world/shuffle/1", [("shuffled", [["a", "b"]])]),
              ("x" * 100, "3/dice/0", [("roll", [3])])]
# 2**63 + 1 rejects almost half of all 64-bit values: its sequence shows the rejection rule at work
BOUNDS = [2, 3, 6, 52, 1000, 2**63 + 1]
DRAWS = 16
# The effective seed (section 1): no contribution (the server's seed itself); one (the creator's);
# several, non-ASCII and the longest allowed; and two whose concatenations are equal, which the
# length prefixes keep apart
MIXES = [(SEED, []), (SEED, ["the creator's coin: heads"]),
         ("web-tamper", ["creator", "dé 🎲 4", "x" * 256]),
         ("web-tamper", ["ab", "c"]), ("web-tamper", ["a", "bc"])]
MIX_LABEL = "4"


class SpecStream:
    """docs/fairness.md, section 2, read literally: no code shared with rules.base."""

    def __init__(self, seed: str, label: str):
        self.key = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
        self.block, self.buffer = 0, b""
        self.draws: list[list[int]] = []  # [bound, value] of every randbelow

    def u64(self) -> int:
        if not self.buffer:
            self.buffer = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
            self.block += 1
        value, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return value

    def randbelow(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        while (value := self.u64()) >= limit:
            pass
        self.draws.append([n, value % n])
        return value % n

    def shuffled(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def randint(self, a: int, b: int) -> int:
        return a + self.randbelow(b - a + 1)

    def choice(self, items: list):
        return items[self.randbelow(len(items))]

    def roll(self, count: int, faces: list = (1, 2, 3, 4, 5, 6)) -> list:
        return [faces[self.randbelow(len(faces))] for _ in range(count)]


def vector(seed: str, label: str) -> dict:
    """One case, computed with rules.base.Rng.  64-bit numbers are decimal strings: JSON readers
    such as JavaScript's keep integers exact only below 2**53."""
    ints = Rng(seed, label)
    randbelow = {}
    for n in BOUNDS:
        rng = Rng(seed, label)
        randbelow[str(n)] = [str(rng.randbelow(n)) for _ in range(DRAWS)]
    return {"seed": seed, "label": label,
            "key": hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).hexdigest(),
            "u64": [str(ints.randbelow(2**64)) for _ in range(DRAWS)],
            "randbelow": randbelow,
            "shuffle_10": Rng(seed, label).shuffled(range(10)),
            "shuffle_52": Rng(seed, label).shuffled(range(52))}


def mixed(seed: str, entropy: list[str]) -> dict:
    """One effective seed (events.seeds.mix), and the first draws of its stream for MIX_LABEL."""
    effective = mix(seed, entropy)
    rng = Rng(effective, MIX_LABEL)
    return {"seed": seed, "entropy": entropy, "effective_seed": effective, "label": MIX_LABEL,
            "randbelow_6": [rng.randbelow(6) for _ in range(DRAWS)]}


def spec_mix(seed: str, entropy: list[str]) -> str:
    """docs/fairness.md, section 1, read literally."""
    if not entropy:
        return seed
    message = b"".join(len(part.encode("utf-8")).to_bytes(8, "big") + part.encode("utf-8") for part in entropy)
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def draw_call(seed: str, label: str, ops: list) -> dict:
    """One draw call's stream (rules.base.Rng, recording): each draw's result, and every [bound, value]."""
    rng = Rng(seed, label, record=True)
    return {"seed": seed, "label": label,
            "ops": [{"call": call, "args": args, "result": getattr(rng, call)(*args)} for call, args in ops],
            "draws": rng.draws}


def document() -> dict:
    return {"about": "Test vectors of docs/fairness.md. Every list starts from a fresh stream (block 0) for the "
                     "seed and label. u64: the first 16 integers of the stream; randbelow[n]: 16 calls of "
                     "randbelow(n); shuffle_10 and shuffle_52: the shuffle of [0..9] and [0..51]. 64-bit "
                     "numbers are decimal strings. mixes: the effective seed of a server seed and the players' "
                     "entropy, in order, and 16 calls of randbelow(6) from its stream for the label. "
                     "commitments: the SHA-256 of each seed. bot_keys: the bot key of each effective seed "
                     "(vectors holds the streams 'bot:1:17' and 'world:1:17' keyed by the first). draw_calls: "
                     "the draws of section 2 (randbelow, randint, choice, roll with its faces, shuffled) made in "
                     "order on one stream, each with its result, and every [bound, value] the stream gave. "
                     "The reference export tests/data/reference-kingpin.jsonl gets the verdict "
                     "tests/data/reference-kingpin-verdict.json.",
            "vectors": [vector(seed, label) for seed, label in CASES],
            "mixes": [mixed(seed, entropy) for seed, entropy in MIXES],
            "commitments": [{"seed": seed, "seed_commitment": seed_commitment(seed)} for seed in COMMITTED],
            "bot_keys": [{"effective_seed": seed, "bot_key": bot_key(seed)}
                         for seed in (SEED, mix(*MIXES[2]), "x" * 65)],
            "draw_calls": [draw_call(seed, label, ops) for seed, label, ops in DRAW_CALLS]}


def load() -> dict:
    """The file (none yet: no cases, and the coverage test below fails)."""
    return json.loads(VECTORS.read_text()) if VECTORS.exists() else {"vectors": []}


@pytest.mark.parametrize("case", load()["vectors"], ids=lambda c: f"{c['seed'][:12]}@{c['label']}")
def test_the_rng_gives_the_vectors(case):
    assert vector(case["seed"], case["label"]) == case


@pytest.mark.parametrize("case", load()["vectors"], ids=lambda c: f"{c['seed'][:12]}@{c['label']}")
def test_the_spec_read_literally_gives_the_vectors(case):
    stream = SpecStream(case["seed"], case["label"])
    assert stream.key.hex() == case["key"]
    assert [str(stream.u64()) for _ in range(DRAWS)] == case["u64"]
    for n, values in case["randbelow"].items():
        stream = SpecStream(case["seed"], case["label"])
        assert [str(stream.randbelow(int(n))) for _ in range(DRAWS)] == values, n
    assert SpecStream(case["seed"], case["label"]).shuffled(list(range(10))) == case["shuffle_10"]
    assert SpecStream(case["seed"], case["label"]).shuffled(list(range(52))) == case["shuffle_52"]


def test_the_vectors_cover_rejection_hmac_key_hashing_and_every_listed_case():
    doc = load()
    cases = doc["vectors"]
    assert [(c["seed"], c["label"]) for c in cases] == CASES
    assert [c["seed"] for c in doc.get("commitments", [])] == COMMITTED
    assert [c["effective_seed"] for c in doc.get("bot_keys", [])] == [SEED, mix(*MIXES[2]), "x" * 65]
    assert [(c["seed"], c["label"]) for c in doc.get("draw_calls", [])] == [(s, label) for s, label, _ in DRAW_CALLS]
    assert any(len(c["seed"].encode()) > 64 for c in cases)
    # with n = 2**63 + 1 some u64 is rejected: the randbelow sequence is not the u64s mod n
    big = str(2**63 + 1)
    assert any(c["randbelow"][big] != [str(int(v) % (2**63 + 1)) for v in c["u64"]] for c in cases)


@pytest.mark.parametrize("case", load().get("mixes", []), ids=lambda c: f"{c['seed'][:12]}+{len(c['entropy'])}")
def test_the_mixing_rule_gives_the_vectors_as_implemented_and_as_read(case):
    assert mixed(case["seed"], case["entropy"]) == case
    assert spec_mix(case["seed"], case["entropy"]) == case["effective_seed"]
    stream = SpecStream(case["effective_seed"], case["label"])
    assert [stream.randbelow(6) for _ in range(DRAWS)] == case["randbelow_6"]


def test_the_mixes_cover_no_contribution_and_keep_equal_concatenations_apart():
    mixes = load().get("mixes", [])
    assert [(c["seed"], c["entropy"]) for c in mixes] == [(seed, entropy) for seed, entropy in MIXES]
    assert mixes[0]["effective_seed"] == mixes[0]["seed"]  # nothing sent: the server's seed, as before
    assert len({c["effective_seed"] for c in mixes}) == len(mixes)


def test_a_recording_rng_keeps_each_draw_and_draws_the_same():
    plain, recording = Rng("record", 5), Rng("record", 5, record=True)
    assert plain.draws is None
    dice = [plain.roll(3), plain.shuffled(range(5)), plain.choice("abc")]
    assert [recording.roll(3), recording.shuffled(range(5)), recording.choice("abc")] == dice
    # 3 dice, a shuffle of 5 (bounds 5, 4, 3, 2), one choice of 3: each [bound, value] in order
    assert [n for n, _ in recording.draws] == [6, 6, 6, 5, 4, 3, 2, 3]
    assert [v + 1 for _, v in recording.draws[:3]] == dice[0]


@pytest.mark.parametrize("case", load().get("commitments", []), ids=lambda c: c["seed"][:12])
def test_the_commitment_is_the_seeds_sha256_as_implemented_and_as_read(case):
    assert seed_commitment(case["seed"]) == case["seed_commitment"]
    assert hashlib.sha256(case["seed"].encode("utf-8")).hexdigest() == case["seed_commitment"]


@pytest.mark.parametrize("case", load().get("bot_keys", []), ids=lambda c: c["effective_seed"][:12])
def test_the_bot_key_is_the_effective_seeds_hmac_of_bot_as_implemented_and_as_read(case):
    assert bot_key(case["effective_seed"]) == case["bot_key"]
    spec = hmac.new(case["effective_seed"].encode("utf-8"), b"bot", hashlib.sha256).hexdigest()
    assert spec == case["bot_key"] and len(spec) == 64


def test_the_vectors_hold_a_bots_and_its_worlds_streams_keyed_by_a_bot_key():
    doc = load()
    key = doc["bot_keys"][0]["bot_key"]
    assert doc["bot_keys"][0]["effective_seed"] == SEED and key == BOT_KEY
    assert {c["label"] for c in doc["vectors"] if c["seed"] == key} == {"bot:1:17", "world:1:17"}
    # more than 64 bytes, mixed from contributions: the effective seeds the service makes
    assert any(len(c["effective_seed"].encode()) > 64 for c in doc["bot_keys"])


@pytest.mark.parametrize("case", load().get("draw_calls", []), ids=lambda c: f"{c['seed'][:12]}@{c['label']}")
def test_each_draw_call_as_implemented_and_as_read(case):
    assert draw_call(case["seed"], case["label"], [(op["call"], op["args"]) for op in case["ops"]]) == case
    stream = SpecStream(case["seed"], case["label"])
    assert [getattr(stream, op["call"])(*op["args"]) for op in case["ops"]] == [op["result"] for op in case["ops"]]
    assert stream.draws == case["draws"]


def test_a_keyed_rng_makes_each_draw_call_on_its_labels_stream():
    # rules.base.KeyedRng, as a game draws: seat 0's first dice, the world's fourth shuffle, seat 1's third pick
    calls = {c["label"]: c for c in load()["draw_calls"] if c["seed"] == SEED}
    for label, counters, roller, draw in [
            ("0/dice/0", {}, "0", lambda rng: rng.roll(3)),
            ("world/shuffle/3", {"world/shuffle": 3}, WORLD, lambda rng: rng.shuffled(range(10))),
            ("1/pick/2", {"1/pick": 2, "1/dice": 5}, "1", lambda rng: rng.randint(1, 6))]:
        rng = KeyedRng(SEED, dict(counters), roller, record=True)
        assert draw(rng) == calls[label]["ops"][0]["result"]
        assert rng.recorded() == [[label, calls[label]["draws"]]]


def test_the_draw_calls_cover_the_edge_cases():
    calls = {(c["seed"], c["label"]): c for c in load()["draw_calls"]}
    # randbelow(1) is always 0, and still consumes an integer of the stream: the next draw is its third
    ones = calls["web-tamper", "2/pick/0"]
    stream = SpecStream("web-tamper", "2/pick/0")
    third = [stream.u64() for _ in range(3)][2]
    assert [op["result"] for op in ones["ops"]] == [0, 0, third % 6] and ones["draws"][:2] == [[1, 0], [1, 0]]
    # a shuffle of one item draws nothing (the next draw is the stream's first); of two, once, with bound 2
    single = calls["web-tamper", "world/shuffle/0"]
    assert single["ops"][0]["result"] == ["only"] and single["draws"] == [[6, SpecStream("web-tamper",
                                                                                      "world/shuffle/0").u64() % 6]]
    [[bound, value]] = calls["web-tamper", "world/shuffle/1"]["draws"]
    assert bound == 2 and calls["web-tamper", "world/shuffle/1"]["ops"][0]["result"] == (["b", "a"] if value == 0
                                                                                         else ["a", "b"])
    # Druglord's Classy Dice: index 5 is the 9 (a vector without one could not tell faces from index + 1)
    classy = calls[SEED, "world/dice/7"]
    assert 9 in classy["ops"][0]["result"] and [CLASSY[v] for _, v in classy["draws"]] == classy["ops"][0]["result"]
    assert any(len(seed.encode()) > 64 for seed, _ in calls)


def test_the_reference_export_gets_its_verdict():
    records = parse_history(REFERENCE.read_text())
    header = records[0]
    # small and complete: format 5, a human who contributed and a bot, played to the end
    assert header["format"] == "tabletop-cartel-history/5" and header["outcome"] is not None
    assert [seat["kind"] for seat in header["seats"]] == ["human", "bot"]
    assert any(r["type"] == "EntropyContributed" for r in records[1:]) and any("bot" in r for r in records[1:])
    verdict = verify_history(records, RULESETS)
    assert verdict == json.loads(VERDICT.read_text())
    assert verdict["valid"] and verdict["complete"] and verdict["draws"] > 0
    assert verdict["bot_moves"]["rederived"] == verdict["bot_moves"]["recorded"] > 0


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    VECTORS.write_text(json.dumps(document(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {VECTORS}")
