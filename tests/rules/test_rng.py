"""rules.base.Rng is the stream its docstring specifies (a history is verified with it, in any
language): key = HMAC-SHA256(seed, str(version)), block_i = SHA-256(key || i as 8 bytes big-endian),
8-byte big-endian ints in order, randbelow rejecting values at or above the last multiple of n."""
from __future__ import annotations

import hashlib
import hmac

import pytest

from rules.base import Rng


def reference_ints(seed: str, version, count: int) -> list[int]:
    key = hmac.new(seed.encode("utf-8"), str(version).encode("utf-8"), hashlib.sha256).digest()
    stream = b"".join(hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(count // 4 + 1))
    return [int.from_bytes(stream[8 * k:8 * k + 8], "big") for k in range(count)]


@pytest.mark.parametrize("seed", ["", "s", "sim-druglord-4-1", "x" * 64, "y" * 65, "é" * 40, "k" * 300])
@pytest.mark.parametrize("version", [0, 7, "bot:2:17"])
def test_the_stream_is_the_specified_one(seed, version):
    # a key longer than SHA-256's 64-byte block is hashed first (RFC 2104): "y" * 65, "é" * 40, "k" * 300
    rng, want = Rng(seed, version), reference_ints(seed, version, 11)
    assert [rng.randbelow(1 << 64) for _ in range(11)] == want


def test_randbelow_rejects_the_biased_top_and_reads_on():
    n = 3 << 62                                   # limit = 3 * 2**62: values at or above it are drawn again
    want = [v % n for v in reference_ints("bias", 1, 40) if v < n]
    rng = Rng("bias", 1)
    assert [rng.randbelow(n) for _ in range(len(want))] == want and len(want) < 40
