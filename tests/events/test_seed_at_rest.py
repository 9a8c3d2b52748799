"""A live game's seed at rest (issue 34, item 8): with the operator's SEED_KEY the event store (and so
its AOF, snapshots and backups) holds it sealed, encrypted and authenticated (events/seeds.py); only a
process given the key plays the game, and the export still reveals it after the end."""
from __future__ import annotations

import pytest

from events.history import history_header
from events.runner import GameRunner
from events.seeds import SEALED, SealedSeed, seal, unseal
from events.store import EventStore, meta_key
from rules import RULESETS
from rules.base import Rng

KEY = "the operator's key, kept out of Redis"


def test_a_sealed_seed_opens_with_its_key_only_and_any_change_is_refused():
    stored = seal("a seed", KEY, b"\x01" * 16)
    assert stored.startswith(SEALED) and "a seed" not in stored and unseal(stored, KEY) == "a seed"
    assert seal("a seed", KEY, b"\x02" * 16) != stored  # a nonce per seed: equal seeds do not look equal
    assert seal("a seed", None, b"\x01" * 16) == unseal("a seed", KEY) == "a seed"  # no key: as it always was
    for key in (None, "another key"):
        with pytest.raises(SealedSeed):
            unseal(stored, key)
    flipped = stored[:-70] + ("0" if stored[-70] != "0" else "1") + stored[-69:]  # one ciphertext digit
    with pytest.raises(SealedSeed):
        unseal(flipped, KEY)


def test_with_a_key_the_store_holds_no_seed_and_the_game_plays_and_exports_as_ever(redis_client):
    runner = GameRunner(EventStore(redis_client), RULESETS, seed_key=KEY)
    game = runner.create_game("kingpin", [{"kind": "human"}] * 2, {"target": 3000}, "the sealed seed")
    stored = redis_client.hget(meta_key(game.id), "seed")
    assert stored.startswith(SEALED) and "the sealed seed" not in stored
    # nothing the store holds for the game carries the seed or the stream key derived from it
    dump = str([redis_client.hgetall(key) if redis_client.type(key) == "hash" else redis_client.xrange(key)
                for key in redis_client.keys(f"g:{{{game.id}}}:*") if redis_client.type(key) in ("hash", "stream")])
    assert "the sealed seed" not in dump and game.effective_seed not in dump
    for step in range(5000):
        if game.status == "finished":
            break
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, game.ruleset.bot_move(game.state, seat, "random", Rng("m", step))).game
    fresh = GameRunner(EventStore(redis_client), RULESETS, seed_key=KEY).load(game.id)  # a cold process
    assert fresh.status == "finished" and history_header(fresh)["seed"] == "the sealed seed"
    with pytest.raises(SealedSeed):  # a process without the key cannot use the game's seed
        GameRunner(EventStore(redis_client), RULESETS).load(game.id)
