"""The test vectors of docs/fairness.md (tests/data/rng-vectors.json): the stream, randbelow and the
shuffle as the spec states them, and the effective seed mixed from the players' entropy (`mixes`).  Each vector is checked twice here: against rules.base.Rng (the
implementation the games use) and against a from-scratch reading of the spec made of the standard
library's hmac and hashlib alone, so the file cannot merely echo the Rng that wrote it.  The browser's
implementation (clients/web/js/fairness.js) passes the same file in tests/e2e/test_fairness_browser.py.

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

from events.seeds import mix
from rules.base import Rng

VECTORS = Path(__file__).resolve().parents[1] / "data" / "rng-vectors.json"
# seeds: a 256-bit hex one as the service makes, a short one, one over HMAC's 64-byte block (hashed
# first), non-ASCII UTF-8; labels: a command's version, the game's first command, a bot's
CASES = [("9f1c2a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6", "1"),
         ("9f1c2a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6", "17"),
         ("web-tamper", "2"), ("x" * 65, "40"), ("dé à 🎲", "3"), ("corpus-kingpin-0", "bot:2:17")]
# 2**63 + 1 rejects almost half of all 64-bit values: its sequence shows the rejection rule at work
BOUNDS = [2, 3, 6, 52, 1000, 2**63 + 1]
DRAWS = 16
# The effective seed (section 1): no contribution (the server's seed itself); one (the creator's);
# several, non-ASCII and the longest allowed; and two whose concatenations are equal, which the
# length prefixes keep apart
MIXES = [("9f1c2a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6", []),
         ("9f1c2a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6", ["the creator's coin: heads"]),
         ("web-tamper", ["creator", "dé 🎲 4", "x" * 256]),
         ("web-tamper", ["ab", "c"]), ("web-tamper", ["a", "bc"])]
MIX_LABEL = "4"


class SpecStream:
    """docs/fairness.md, section 2, read literally: no code shared with rules.base."""

    def __init__(self, seed: str, label: str):
        self.key = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
        self.block, self.buffer = 0, b""

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
        return value % n

    def shuffled(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


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


def document() -> dict:
    return {"about": "Test vectors of docs/fairness.md. Every list starts from a fresh stream (block 0) for the "
                     "seed and label. u64: the first 16 integers of the stream; randbelow[n]: 16 calls of "
                     "randbelow(n); shuffle_10 and shuffle_52: the shuffle of [0..9] and [0..51]. 64-bit "
                     "numbers are decimal strings. mixes: the effective seed of a server seed and the players' "
                     "entropy, in order, and 16 calls of randbelow(6) from its stream for the label.",
            "vectors": [vector(seed, label) for seed, label in CASES],
            "mixes": [mixed(seed, entropy) for seed, entropy in MIXES]}


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
    cases = load()["vectors"]
    assert [(c["seed"], c["label"]) for c in cases] == CASES
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


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    VECTORS.write_text(json.dumps(document(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {VECTORS}")
