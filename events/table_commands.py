"""The table's commands: a game's creation, its seats, its contribution window, its start, its
clocks, hand-overs and abandonment (events/table.py decides them; the committer appends them).

Each is a compare-and-append against the version like a seat's command, decided again on a
conflict, so two clocks expiring at once are two appends and both are counted.
"""
from __future__ import annotations

import secrets
from typing import Any, Mapping

from events import clocks, forks
from events import table as tables
from events.clocks import NotAwaited
from events.committer import Append, Committer, counted
from events.envelope import canonical
from events.game import Game, GameNotFound, refuse_if_closed
from events.handler import RETRIES_ON_CONFLICT
from events.history import exported_records
from events.keys import invitation_field
from events.repository import GameRepository
from events.seeds import seal
from events.store import ConcurrencyConflict
from events.table import NoSuchSeat
from rules.base import WORLD, BadCommand, Event, IllegalMove, seed_commitment
from rules.ruleset import latest_version, ruleset_at, table_checks


class TableCommands:
    def __init__(self, repository: GameRepository, committer: Committer):
        self.repository = repository
        self.committer = committer

    # ---------------------------------------------------------------- creating
    def create_game(self, ruleset_name: str, seats: list[dict], options: Mapping[str, Any] | None = None,
                    seed: str | None = None, clock: Mapping[str, Any] | None = None,
                    token_hashes: Mapping[int, str] | None = None, contribution_seconds: int = 0,
                    rematch_of: str | None = None, visibility: str = "public", analysis: bool = False,
                    invitations: Mapping[int, str] | None = None, game_id: str | None = None,
                    forked: Event | None = None) -> Game:
        """Record a new game and commit to its seed, before any player's entropy can reach the server:
        the human seats contribute afterwards, within `contribution_seconds` (events/table.py).  It
        starts at once when no seat is open and the window waits for nobody.  A `seed` given by the
        caller (the service allows it only under an operator's setting) is recorded as "fixed".  A seat may
        carry `player` (and that player's name): it is bound to them.  `invitations`: open seat -> its
        invitation's meta value (events/visibility.py), for an unlisted or private table.  `game_id`: the id
        drawn beforehand (an accepted challenge tells both players the game before it starts); by default drawn here.
        `forked`: a fork's ForkedFrom (events/forks.py), recorded after GameCreated: the game is played under the
        original's rules version, and its start deals from the original's position."""
        rulesets = self.repository.rulesets
        # a new game is played under the latest rules; a fork under its original's
        version = forked.data["ruleset_version"] if forked else latest_version(rulesets[ruleset_name])
        ruleset = ruleset_at(rulesets[ruleset_name], version)
        levels = [seat.get("level", "random") for seat in seats if seat["kind"] == "bot"]
        try:  # clock.bot_level: the level a timed-out seat goes to, refused now rather than at the hand-over
            options = table_checks(ruleset, len(seats), options, levels, (clock or {}).get("bot_level"))
        except BadCommand as refusal:  # well-formed, but a table this ruleset is not played at: 422
            raise IllegalMove(refusal.reason, rule=refusal.rule) from None
        source = "fixed" if seed is not None else "server"
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = game_id or secrets.token_hex(8)
        created_at = self.committer.clock()
        created = tables.created(ruleset_name, options, seats, seed_commitment(seed), clock, version,
                                 seed_source=source, contribution_seconds=contribution_seconds, visibility=visibility,
                                 analysis=analysis)
        table = tables.evolve(None, Event(created[0].type, canonical(created[0].data)))
        if forked:
            table = tables.evolve(table, forked)
        meta = {"seed": seal(seed, self.repository.seed_key, secrets.token_bytes(16)), "status": "open",
                "created_at": str(created_at), "human_at": str(created_at),
                "deadlines": "{}", "draws": "recorded",  # its export records its draws (events/history.py)
                **tables.projection(table), **{f"tok:{seat}": digest for seat, digest in (token_hashes or {}).items()},
                **{invitation_field(seat): value for seat, value in (invitations or {}).items()}}
        if contribution_seconds:
            meta["window_closes"] = str(created_at + contribution_seconds * 1000)
        if rematch_of:  # the game it plays again (that game's RematchCreated names this one)
            meta["rematch_of"] = rematch_of
        # a game that starts at once is scheduled by its start; one that waits, for its window's closing
        starts = clocks.ready_to_start(table, None)
        position = {"from": {k: forked.data[k] for k in ("game", "version")}} if forked else {}
        command = {"type": "CreateGame", **position}
        game = self.committer.create(game_id, created[0], meta, created_at, schedule=not starts, command=command,
                                     forked=forked)
        return self._start(game) if starts else game

    def fork_game(self, original_id: str, version: int, seats: list[dict], **creation: Any) -> Game:
        """A new game from the position of the ended game `original_id` at `version` (events/forks.py): its
        ruleset, rules version and options, these `seats` (as many as it had), the rest as `create_game`'s."""
        original = self.repository.load(original_id)
        records = exported_records(original, self.repository.all_envelopes(original))[1:] if original.ended else []
        at = self.repository.load(original_id, version=version) if 1 <= version <= original.version else None
        if original.ended and len(seats) != len(original.seats):
            raise forks.ForkRefused(400, "fork-seats-mismatch", f"a fork is played by as many seats as its "
                                    f"original: {len(original.seats)}, not {len(seats)}", "seats")
        refused = forks.refusal(original.ruleset, records, version, at and at.state, original.ended)
        if refused is not None:
            raise refused
        forked = forks.forked_from(original_id, version, original.table["ruleset_version"], records, at.state)
        return self.create_game(original.table["ruleset"], seats, original.options, forked=forked, **creation)

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str | None = None,
                   entropy: str | None = None, player: str | None = None, invited: bool = False) -> Game:
        """Turn an open seat into a human one (the table decides), with the claimer's entropy if it sent
        some, bound to `player` if a player claims it; the invitation it was claimed with (`invited`) is used
        up with it.  The last claim starts the game, with every contribution in its effective seed."""
        command = {"type": "ClaimSeat", "seat": seat, **({"name": name} if name else {}),
                   **({"entropy": entropy} if entropy is not None else {}), **({"player": player} if player else {})}
        game = self._decide(game_id, command, f"claim-{seat}",
                            extra_meta={f"tok:{seat}": token_hash, **({invitation_field(seat): ""} if invited else {})},
                            human=True)
        return self._start_if_ready(game)

    def contribute(self, game_id: str, seat: int, entropy: str) -> Game:
        """A human seat's entropy, once, before the game starts; the last one owed starts it."""
        game = self._decide(game_id, {"type": "ContributeEntropy", "seat": seat, "entropy": entropy},
                            f"entropy-{seat}", human=True)
        return self._start_if_ready(game)

    def close_contributions(self, game_id: str, deadline: int) -> Game:
        """The window's deadline passed: it waits for nobody any more (the seats that sent nothing are
        recorded), and the game starts if no seat is open."""
        return self._start_if_ready(self._decide(game_id, {"type": "CloseContributions", "deadline": deadline},
                                                 "window"))

    def _start_if_ready(self, game: Game) -> Game:
        return self._start(game) if clocks.ready_to_start(game.table, game.state) else game

    def _start(self, game: Game) -> Game:
        """Append the ruleset's setup events, rolled on the world's streams (or, before draw keys, with
        Rng(effective seed, first version)): every contribution is in by now."""
        if "fork" in game.table:  # the original's position, its hidden parts dealt from this game's seed
            origin = self.repository.load(game.table["fork"]["game"], version=game.table["fork"]["version"])
            event, draws = forks.dealt(game.ruleset, origin.state, game.effective_seed)
            return self.committer.commit(game, [event], Append("system", {"type": "StartGame"}, "start",
                                                               draws=draws))[0]
        rng = game.command_rng(WORLD)
        events = game.ruleset.setup(game.options, len(game.seats), rng)
        append = Append("system", {"type": "StartGame"}, "start", meta=counted(rng), draws=rng.recorded())
        return self.committer.commit(game, events, append)[0]

    # ------------------------------------------------------- seats and clocks
    def expire_clock(self, game_id: str, seat: int, deadline: int) -> Game:
        """Count one expired clock for `seat` (once per deadline); at the limit the seat goes to a bot.
        Two clocks expiring together are two appends, each against the version: neither count is lost."""
        return self._decide(game_id, {"type": "ExpireClock", "seat": seat, "deadline": deadline}, "clock")

    def hand_to_bot(self, game: Game, seat: int, level: str, reason: str) -> Game:
        """Give a human seat to a bot (recorded in the stream)."""
        return self._decide(game.id, {"type": "HandSeatToBot", "seat": seat, "level": level, "reason": reason},
                            f"bot-{seat}", loaded=game)

    def reclaim_seat(self, game_id: str, seat: int) -> Game:
        """Give a seat that was handed to a bot back to its human, with a clean timeout count."""
        try:
            return self._decide(game_id, {"type": "ReclaimSeat", "seat": seat}, f"reclaim-{seat}", human=True)
        except tables.NothingToReclaim as refusal:
            raise NotAwaited(refusal.reason, rule=refusal.rule) from None

    def renew_seat_token(self, game_id: str, seat: int, player: str, token_hash: str) -> Game:
        """A fresh token for a seat bound to `player` (NotYourSeat otherwise): its digest replaces the old
        one's in the same append that records SeatTokenRenewed, so the old token stops working at once."""
        return self._decide(game_id, {"type": "RenewSeatToken", "seat": seat, "player": player}, f"token-{seat}",
                            extra_meta={f"tok:{seat}": token_hash}, human=True)

    # ------------------------------------------------------------- a table's life
    def seat_action(self, game_id: str, seat: int, kind: str) -> Game:
        """A player's Resign, Abort, Leave or Rematch (events/table.py decides; NotNow if not now).  Leaving
        voids the seat's token (it is open again); the last rematch asked creates the new game, linked both
        ways (`rematch_of` in its meta, RematchCreated here)."""
        void = {f"tok:{seat}": ""} if kind == "Leave" else None  # "" matches no token's digest
        game = self._decide(game_id, {"type": kind, "seat": seat}, f"{kind.lower()}-{seat}", extra_meta=void,
                            human=True)
        if kind == "Rematch" and tables.rematch_due(game.table):
            game = self._rematch(game)
        return game

    def _rematch(self, game: Game) -> Game:
        """The new game: this one's ruleset (its latest rules), options, clock and seats, each player at the
        seat they held with the token they hold (a seat a bot took over is theirs again), each bot as it was."""
        handed = set(game.table.get("handed", ()))
        seats = [{"kind": "human", **{k: spec[k] for k in ("name", "player") if spec.get(k)}}
                 if spec["kind"] == "human" or n in handed else dict(spec) for n, spec in enumerate(game.seats)]
        tokens = {n: game.meta[f"tok:{n}"] for n in tables.players(game.table) if game.meta.get(f"tok:{n}")}
        window = (game.table.get("window") or {}).get("seconds", 0)
        new = self.create_game(game.table["ruleset"], seats, game.options, clock=game.table["clock"] or None,
                               token_hashes=tokens, contribution_seconds=window, rematch_of=game.id,
                               visibility=game.table.get("visibility", "public"),
                               analysis=game.table.get("analysis", False))
        return self._decide(game.id, {"type": "LinkRematch", "game_id": new.id}, "rematch-link")

    def abandon(self, game: Game, idle_since: int, idle_seconds: int) -> Game:
        """End `game` as abandoned, if it is still at the version loaded (the caller checked it was
        idle at that version): ConcurrencyConflict if anything was appended since."""
        command = {"type": "AbandonGame", "idle_since": idle_since, "idle_seconds": idle_seconds}
        refuse_if_closed(game)
        events = tables.decide(game.table, game.status, game.awaiting(), command, game.ruleset.bot_levels)
        return self.committer.commit(game, events, Append("system", command, f"abandon-{secrets.token_hex(4)}"))[0]

    def _decide(self, game_id: str, command: Mapping[str, Any], command_id: str,
                extra_meta: Mapping[str, str] | None = None, loaded: Game | None = None,
                human: bool = False) -> Game:
        """Decide a table command and append its events; re-decided on a conflict."""
        game = loaded or self.repository.load(game_id)
        for _ in range(RETRIES_ON_CONFLICT):
            refuse_if_closed(game)
            try:
                events = tables.decide(game.table, game.status, game.awaiting(), command, game.ruleset.bot_levels)
            except NoSuchSeat as refusal:
                raise GameNotFound(f"seat {command.get('seat')}") from refusal
            if not events:
                return game
            try:
                append = Append("system", dict(command), f"{command_id}-{secrets.token_hex(4)}",
                                meta=extra_meta or {}, human=human)
                return self.committer.commit(game, events, append)[0]
            except ConcurrencyConflict:
                game = self.repository.load(game_id)
        raise ConcurrencyConflict(game.version, self.repository.store.version(game_id))
