"""The players' entropy and the game's effective seed (docs/fairness.md, section 1).

The service commits to its seed (its SHA-256, in GameCreated) before anyone
sends entropy; the creator may add a contribution with the game, and each seat
claimed from the lobby one with its claim.  Every contribution is public at
once (GameCreated's and SeatClaimed's `entropy`).  When the game starts (its
set-up, `StartGame`, is the first command that draws) the effective seed is
fixed: the server's seed mixed with every contribution, in the order the
history records them.  The server cannot choose a roll (its seed was committed
before it saw a contribution) and no player can (none knows the server's seed).
With no contribution the effective seed is the server's seed itself, so a game
whose seats send nothing is exactly what it was before contributions existed.

Pure: the runner, the bot jobs and `verify_history` all call `effective_seed`.
"""
from __future__ import annotations

import hashlib
import hmac
import unicodedata
from functools import lru_cache
from typing import Any, Iterable, Mapping

ENTROPY_MAX = 256  # characters
# Echoed to every reader (the feed, the export): nothing that hides or disguises what others see,
# as with seat names (service/schemas.py); the zero-width (non-)joiners stay, for emoji sequences.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
ALLOWED_FORMAT = {"\u200c", "\u200d"}
ENTROPY_RULES = (f"a string of 1 to {ENTROPY_MAX} characters, any you like but no control or format characters, "
                 "lone surrogates or line separators")


def entropy_refusal(value: Any) -> str | None:
    """Why `value` is not a contribution a seat may send (None: it is one)."""
    if not isinstance(value, str):
        return f"entropy must be {ENTROPY_RULES}"
    return _string_refusal(value)


@lru_cache(maxsize=4096)  # effective_seed re-checks a game's contributions at its every command
def _string_refusal(value: str) -> str | None:
    if not 1 <= len(value) <= ENTROPY_MAX:
        return f"entropy must be {ENTROPY_RULES}; this one has {len(value)}"
    for position, char in enumerate(value):
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in ALLOWED_FORMAT:
            return f"entropy may not contain U+{ord(char):04X} (at position {position}): {ENTROPY_RULES}"
    return None


def mix(seed: str, contributions: Iterable[str]) -> str:
    """The effective seed: `seed` itself with no contribution; else the lowercase hex of
    HMAC-SHA256(key = UTF-8(seed), message = each contribution's UTF-8 length as 8 bytes big-endian,
    then its UTF-8 bytes, in order).  The length prefixes keep ["ab", "c"] and ["a", "bc"] apart, and
    the message's first byte (0: no contribution is 2**56 bytes long) is never a stream label's."""
    return _mix(seed, tuple(contributions))


@lru_cache(maxsize=4096)  # the runner asks at every command of a game with contributions
def _mix(seed: str, contributions: tuple[str, ...]) -> str:
    if not contributions:
        return seed
    message = b"".join(len(part).to_bytes(8, "big") + part
                       for part in (c.encode("utf-8") for c in contributions))
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def contributions(table: Mapping[str, Any] | None) -> list[dict]:
    """Who sent what, in the history's order: [{"by": "creator" | "seat:N", "entropy": ...}, ...]."""
    return list((table or {}).get("entropy") or ())


def effective_seed(seed: str, table: Mapping[str, Any] | None) -> str:
    """The seed every stream of the game is keyed by: `seed` mixed with the table's contributions.
    Fixed from the game's start, since contributions come only with the creation and the claims
    of open seats, which all precede it.  ValueError for a malformed contribution (an uploaded file's)."""
    parts = contributions(table)
    for part in parts:
        refusal = entropy_refusal(part.get("entropy") if isinstance(part, Mapping) else part)
        if refusal:
            raise ValueError(f"the contribution {part!r} is refused: {refusal}")
    return mix(seed, (part["entropy"] for part in parts))


# ----------------------------------------------------------------------------------------- at rest
# A live game's seed is in Redis (its meta hash), so in the AOF, RDB snapshots and their backups: whoever
# reads them foresees the game's every roll and card.  With an operator key (SEED_KEY) the seed is stored
# sealed: encrypted and authenticated with keys derived from it, so the store and its backups hold only
# ciphertext; only processes given the key (the web nodes and workers) open it.  The construction is
# encrypt-then-MAC from HMAC-SHA256 alone: the keystream block i is HMAC(enc key, nonce || i), the tag
# HMAC(mac key, nonce || ciphertext); a 16-byte random nonce per seed.
SEALED = "sealed:v1:"


class SealedSeed(ValueError):
    """A sealed seed this process cannot open: no key, another key, or a tampered value."""


def _keys(key: str) -> tuple[bytes, bytes]:
    secret = key.encode("utf-8")
    return (hmac.new(secret, b"tabletop-cartel seed encryption", hashlib.sha256).digest(),
            hmac.new(secret, b"tabletop-cartel seed authentication", hashlib.sha256).digest())


def _keystream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (hmac.new(key, nonce + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(size // 32 + 1))
    return b"".join(blocks)[:size]


def seal(seed: str, key: str | None, nonce: bytes) -> str:
    """The seed as stored: itself without a key; with one, "sealed:v1:<nonce>:<ciphertext>:<tag>" (hex)."""
    if not key:
        return seed
    enc, mac = _keys(key)
    plain = seed.encode("utf-8")
    cipher = bytes(a ^ b for a, b in zip(plain, _keystream(enc, nonce, len(plain))))
    tag = hmac.new(mac, nonce + cipher, hashlib.sha256).hexdigest()
    return f"{SEALED}{nonce.hex()}:{cipher.hex()}:{tag}"


def unseal(stored: str, key: str | None) -> str:
    """The seed a stored value holds (one stored before sealing, or without a key, is the seed itself)."""
    if not stored.startswith(SEALED):
        return stored
    if not key:
        raise SealedSeed("this game's seed is sealed at rest: the process needs the operator's SEED_KEY to open it")
    try:
        nonce_hex, cipher_hex, tag = stored[len(SEALED):].split(":")
        nonce, cipher = bytes.fromhex(nonce_hex), bytes.fromhex(cipher_hex)
    except ValueError:
        raise SealedSeed("a sealed seed that is not nonce:ciphertext:tag") from None
    enc, mac = _keys(key)
    if not hmac.compare_digest(hmac.new(mac, nonce + cipher, hashlib.sha256).hexdigest(), tag):
        raise SealedSeed("the sealed seed does not open with this SEED_KEY (another key, or altered)")
    return bytes(a ^ b for a, b in zip(cipher, _keystream(enc, nonce, len(cipher)))).decode("utf-8")
