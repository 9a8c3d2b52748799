"""The repository: games as the store holds them, folded, and this process's copies of them.

Like pyeventsourcing's `Repository`, it only reads: the latest version of a game (from this
process's cache, the latest snapshot and the stream's tail after it), a game as this process last
saw it (`peek`), a game at an earlier version (time travel), an archived game (from the archive
store), and the events as a reader may see them.  It notices a failover that lost the events it
folded last and reads the game afresh.  Writing is the committer's (events/committer.py), which
hands each appended game back through `remember`.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Iterable, Mapping

from events import forks
from events.archive import ArchiveStore, archived_game_parts
from events.envelope import Envelope
from events.forks import FORK_DEALT
from events.game import Game, GameNotFound, fold_game
from events.narration import narrate
from events.seeds import SEALED, unseal
from events.store import EventStore
from rules.base import redact
from rules.narration import Names
from rules.ruleset import Ruleset, ruleset_at

CACHE_GAMES = 2000
CACHE_ARCHIVED_GAMES = 64  # archived games are immutable: a small cache spares re-reading and re-folding them


class GameRepository:
    def __init__(self, store: EventStore, rulesets: Mapping[str, Ruleset], archive: ArchiveStore | None = None,
                 seed_key: str | None = None):
        self.store = store
        self.rulesets = rulesets
        self.archive = archive  # where ended games go after ARCHIVE_AFTER_SECONDS (events/retention.py)
        # the operator's key that seals live seeds at rest (events/seeds.py seal): None stores them as they are
        self.seed_key = seed_key
        # game id -> (version, (table, state), command id of the event at that version, meta)
        self._cache: OrderedDict[str, tuple[int, tuple, str, dict]] = OrderedDict()
        self._archived: OrderedDict[str, Game] = OrderedDict()

    # ----------------------------------------------------------------- loading
    def load(self, game_id: str, version: int | None = None) -> Game:
        """The game at its latest version (or at `version`, for time travel)."""
        if version is not None:
            return self._load_at(game_id, version)
        cached = self._cache.get(game_id)
        if cached:
            base_version, folded, base_command = cached[:3]
        else:
            snapshot = self.store.snapshot(game_id)
            base_version, folded, base_command = (snapshot[0], snapshot[1:], "") if snapshot else (0, (None, None), "")
        # The tail starts at the base version's own event, to check it is still the one folded.
        meta, tail = self.store.meta_and_tail(game_id, base_version, inclusive=True)
        if base_version:
            if tail and tail[0].version == base_version and (cached is None or tail[0].command_id == base_command):
                base_command, tail = tail[0].command_id, tail[1:]
            elif meta:
                # Redis no longer holds the event this process folded last: a failover lost the last
                # writes (asynchronous replication), or a backup was restored.  Redis is the truth.
                self._cache.pop(game_id, None)
                base_version, folded, base_command = 0, (None, None), ""
                meta, tail = self.store.meta_and_tail(game_id, 0)
        if not meta:
            self._cache.pop(game_id, None)  # archived since this process cached it, or never there
            return self.load_archived(game_id)
        meta = self._opened(meta)
        ruleset = self.ruleset_of(meta)
        # Up to the meta's version only: the meta (its draw counters, deadlines) is the one those events left
        upto = int(meta.get("version", 0))
        tail = [e for e in tail if e.version <= upto]
        folded, last, command = self._fold_tail(ruleset, tail, folded, base_version, base_command)
        if last < upto:  # a tail longer than one page
            rest = (e for e in self.store.read_all(game_id, after=last) if e.version <= upto)
            folded, last, command = self._fold_tail(ruleset, rest, folded, last, command)
        self.remember(game_id, last, folded, command, meta)
        return Game(game_id, ruleset, meta, last, folded[1], folded[0])

    def peek(self, game_id: str) -> Game:
        """The game as this process last saw it, without reading Redis (or loaded, if not cached).
        Whoever acts on it must tolerate a stale copy: the append's version check catches it."""
        cached = self._cache.get(game_id)
        if cached is None:
            return self.load(game_id)
        version, (table, state), _, meta = cached
        return Game(game_id, self.ruleset_of(meta), dict(meta), version, state, table, fresh=False)

    def cached_meta(self, game_id: str) -> dict | None:
        """The meta of this process's copy of the game (None: no copy), for what never changes (its
        visibility), read without a round trip."""
        cached = self._cache.get(game_id)
        return cached[3] if cached else None

    @staticmethod
    def _fold_tail(ruleset: Ruleset, envelopes, folded: tuple, last: int, command: str) -> tuple[tuple, int, str]:
        """fold_game of a stream tail onto (table, state); the last version and command id read."""
        envelopes = list(envelopes)
        if envelopes:
            last, command = envelopes[-1].version, envelopes[-1].command_id
        return fold_game(ruleset, (e.event for e in envelopes), *folded), last, command

    def _load_at(self, game_id: str, version: int) -> Game:
        meta = self._opened(self.store.meta(game_id))
        if not meta:
            archived = self.load_archived(game_id)
            table, state = fold_game(archived.ruleset, (e.event for e in archived.history[:version]), None, None)
            return replace(archived, version=min(version, archived.version), table=table, state=state)
        ruleset = self.ruleset_of(meta)
        events = (e.event for e in self.store.read_all(game_id) if e.version <= version)
        table, state = fold_game(ruleset, events, None, None)
        return Game(game_id, ruleset, meta, min(version, int(meta["version"])), state, table)

    def load_archived(self, game_id: str) -> Game:
        """An archived game, from the archive store: only when Redis lists it as archived (so an
        unknown id never costs a look in the archive)."""
        cached = self._archived.get(game_id)
        if cached is not None:
            self._archived.move_to_end(game_id)
            return cached
        if self.archive is None or not self.store.is_archived(game_id):
            raise GameNotFound(game_id)
        text = self.archive.get(game_id)
        if text is None:
            raise GameNotFound(game_id)
        meta, envelopes = archived_game_parts(game_id, text)
        ruleset = self.ruleset_of(meta)
        table, state = fold_game(ruleset, (e.event for e in envelopes), None, None)
        game = Game(game_id, ruleset, meta, len(envelopes), state, table, archived=True,
                    history=tuple(envelopes), archived_text=text)
        game.meta["status"] = game.status
        self._archived[game_id] = game
        while len(self._archived) > CACHE_ARCHIVED_GAMES:
            self._archived.popitem(last=False)
        return game

    def _opened(self, meta: dict) -> dict:
        """The meta as this process works with it: the seed opened if it is stored sealed (in memory only:
        an append writes the fields it changes, never the seed)."""
        if meta and meta.get("seed", "").startswith(SEALED):
            meta = {**meta, "seed": unseal(meta["seed"], self.seed_key)}
        return meta

    def ruleset_of(self, meta: Mapping[str, str]) -> Ruleset:
        """The game's ruleset at the rules version it was created under (before versions: 1)."""
        return ruleset_at(self.rulesets[meta["ruleset"]], int(meta.get("ruleset_version", 1)))

    # ------------------------------------------------------------------ caching
    def remember(self, game_id: str, version: int, folded: tuple, command_id: str, meta: dict) -> None:
        """Keep (table, state) at `version` as this process's copy (the event there had `command_id`)."""
        self._cache[game_id] = (version, folded, command_id, meta)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_GAMES:
            self._cache.popitem(last=False)

    def forget(self, game_id: str | None = None) -> None:
        """Drop this process's cached copy of the game (it was archived), or (None) of every game."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    # ------------------------------------------------------------------ reading
    def envelopes(self, game: Game, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events after `after` (at most `limit`), from Redis or, for an archived game, its archive."""
        if game.archived:
            return list(game.history[after:after + limit if limit is not None else None])
        return self.store.read(game.id, after, limit)

    def all_envelopes(self, game: Game, after: int = 0) -> Iterable[Envelope]:
        """Every event after `after`, read in batches (an archived game's from its archive)."""
        return iter(game.history[after:]) if game.archived else self.store.read_all(game.id, after)

    def events_for(self, game: Game, seat: int | None, after: int = 0, limit: int | None = None) -> list[dict]:
        """The feed as `seat` may read it."""
        names = game.names
        return [redact_envelope(game.ruleset, e, seat, names) for e in self.envelopes(game, after, limit)]


def redact_envelope(ruleset: Ruleset, envelope: Envelope, seat: int | None, names: Names | None = None) -> dict:
    """An event as `seat` may read it, with its sentence (events/narration.py) written from that
    redacted data: redaction first, so a sentence tells no more than the data beside it."""
    if envelope.is_engine:
        event = envelope.event
    elif envelope.type == FORK_DEALT:  # the engine's, with every seat's hidden parts: no reader's (events/forks.py)
        event = forks.redacted(envelope.event)
    else:
        event = redact(ruleset, envelope.event, seat)
    out = envelope.public_dict(event.data)
    out["narration"] = narrate(ruleset, event, names or Names())
    return out
