"""Creating, listing, reading and joining games."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, request
from flask.views import MethodView

from events.forks import ForkRefused
from events.game import GameNotFound
from events.runner import NotAwaited
from events.table import NoContribution, SeatNotOpen
from events.visibility import visibility_of
from rules.base import IllegalMove
from rules.ruleset import check_bot_level, check_options, latest_version, ruleset_at
from service.api.base import (
    ETAG,
    PER_READER,
    PER_READER_HEADERS,
    PUBLIC,
    RATE_LIMIT_HEADERS,
    Blueprint,
    etag,
    load_for_reader,
    load_for_seat,
)
from service.api.invitations import admitted, invitation_link, invitation_seat, issue_invitation
from service.auth import hash_token, new_token
from service.errors import Problem
from service.identity import acting_player
from service.presenters import contributions, game_document, summary
from service.schemas import (
    ClaimedSeatSchema,
    ClaimSeatSchema,
    ContributedSchema,
    ContributeSchema,
    CreatedGameSchema,
    CreateGameSchema,
    GameSchema,
    LobbyQuerySchema,
    LobbySchema,
    ReclaimedSeatSchema,
)
from service.wiring import engine

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Create, list, read and join games")


@blp.route("")
class Games(MethodView):
    @blp.arguments(LobbyQuerySchema, location="query")
    @blp.response(200, LobbySchema, headers=RATE_LIMIT_HEADERS)
    @blp.problems({})
    @blp.doc(operationId="listGames", security=PUBLIC)
    def get(self, query):
        """The lobby: games newest first, filtered by status and ruleset."""
        store = engine().store
        ids, total = store.list_games(query.get("status"), query.get("ruleset"), query["offset"], query["limit"])
        games = [summary(game_id, meta) for game_id, meta in zip(ids, store.metas(ids)) if meta]
        return {"games": games, "total": total, "offset": query["offset"], "limit": query["limit"]}

    @blp.arguments(CreateGameSchema)
    @blp.response(201, CreatedGameSchema, headers={"Location": {
        "description": "The new game's URL", "schema": {"type": "string"}}, **RATE_LIMIT_HEADERS})
    @blp.problems({404: "No such ruleset, or no game to fork (as for a private one the caller holds no credential "
                        "for)", 413: "Body over the size limit", 415: "Body not application/json",
                   409: "A fork of a game that has not ended (fork-of-unfinished-game), or whose ruleset is not the "
                        "body's (fork-ruleset-mismatch)",
                   422: "Seat count (seat-count-invalid), bot level of a seat or the clock (bot-level-invalid) "
                        "or option (option-invalid) the ruleset does not allow; `param` names the field; a fork's "
                        "version that is no position of the game in play (fork-version-out-of-range)"})
    @blp.doc(operationId="createGame", security=PUBLIC)
    def post(self, spec):
        """Create a game.  Human seats get their token now (shown once); open seats wait in the lobby."""
        runner = engine().runner
        fork = spec.get("fork")
        if fork is not None:
            refuse_another_ruleset(fork, spec["ruleset"])
        if spec["ruleset"] not in runner.rulesets:
            raise Problem(404, "not-found", f"no ruleset named {spec['ruleset']!r}; see GET /v1/rulesets")
        refuse_early_secrets(spec)
        seats = bound_to_caller(spec["seats"])
        tokens = {n: new_token() for n, seat in enumerate(seats) if seat["kind"] == "human"}
        window = spec.get("contribution_seconds", current_app.config["CONTRIBUTION_SECONDS"])
        visibility = spec.get("visibility", "public")
        invitations = ({n: issue_invitation(runner.clock()) for n, seat in enumerate(seats) if seat["kind"] == "open"}
                       if visibility != "public" else {})
        creation = {"seed": spec.get("seed"), "clock": spec.get("clock"), "contribution_seconds": window,
                    "token_hashes": {n: hash_token(t) for n, t in tokens.items()}, "visibility": visibility,
                    "invitations": {n: value for n, (_, value, _) in invitations.items()},
                    "analysis": spec.get("analysis", False)}
        try:
            game = runner.fork_game(fork["game"], fork["version"], seats, **creation) if fork is not None else \
                runner.create_game(spec["ruleset"], seats, spec["options"], **creation)
        except ForkRefused as refusal:
            raise Problem(refusal.status, refusal.kind, refusal.reason, param=refusal.param) from None
        except IllegalMove as refusal:  # a table the ruleset is not played at: not a move, so not illegal-move
            raise table_refused(refusal, runner.rulesets[spec["ruleset"]], spec) from None
        issued = [{"seat": n, **s, **({"token": tokens[n]} if n in tokens else {}),
                   **(invited(game.id, *invitations[n]) if n in invitations else {})} for n, s in enumerate(game.seats)]
        return ({"id": game.id, "ruleset": spec["ruleset"], "status": game.status, "version": game.version,
                 "seed_commitment": game.meta["seed_commitment"], "seed_source": game.meta["seed_source"],
                 "contributions": contributions(game, runner.clock()), "seats": issued, "visibility": visibility,
                 **({"forked_from": game.table["fork"]} if "fork" in game.table else {})},
                201, {"Location": f"/v1/games/{game.id}"})


@blp.route("/<string:game_id>")
class GameById(MethodView):
    @blp.response(200, GameSchema, headers={**ETAG, **PER_READER_HEADERS, **RATE_LIMIT_HEADERS})
    @blp.alt_response(304, description="Not modified since the ETag sent in If-None-Match",
                      headers={**ETAG, **PER_READER_HEADERS})
    @blp.problems({401: "Malformed Authorization header", 403: "The token holds no seat in this game",
                   404: "No such game"})
    @blp.doc(operationId="getGame", security=[{}, {"seatToken": []}], parameters=[
        {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
         "description": 'The ETag of the copy the caller holds, e.g. "12-s0": 304 while the game is still at '
                        "that version and the caller reads it as the same audience (another seat's ETag gets a 200)"}])
    def get(self, game_id):
        """The game as the caller sees it (view, whose turn, clocks, legal moves); ETag = version and audience."""
        game, seat = load_for_reader(game_id)
        tag = etag(game.version, seat)
        if request.if_none_match.contains_weak(tag.strip('"')):  # the list form and W/ too, as RFC 9110 13.1.2
            return "", 304, {"ETag": tag, **PER_READER}
        now = engine().runner.clock()
        present = [] if game.archived else engine().store.presence.present(game_id, now)
        return game_document(game, seat, now, present), 200, {"ETag": tag, **PER_READER}


@blp.route("/<string:game_id>/seats/<int:seat>/claim")
class ClaimSeat(MethodView):
    @blp.arguments(ClaimSeatSchema, required=False)  # a name and entropy are optional: no body is a claim too
    @blp.response(201, ClaimedSeatSchema)
    @blp.problems({404: "No such game or seat", 413: "Body over the size limit", 415: "Body not application/json",
                   409: "The seat is not open: a player or a bot has it (seat-taken)"})
    @blp.doc(operationId="claimSeat", security=PUBLIC)
    def post(self, body, game_id, seat):
        """Take an open seat: returns its token (shown once).  The last claim starts the game.

        With `entropy`, the seat adds its own to the game's seed (docs/fairness.md)."""
        token = new_token()
        player = acting_player(required=False)  # a player key (or the app key for a player) binds the seat
        invited = admitted_to_claim(game_id, seat)
        try:
            game = engine().runner.claim_seat(game_id, seat, hash_token(token),
                                              player.name if player else body.get("name"), body.get("entropy"),
                                              player.id if player else None, invited)
        except SeatNotOpen as refusal:  # someone has it: the table's state conflicts with the claim
            raise Problem(409, "seat-taken", refusal.reason, rule=refusal.rule) from None
        return {"game_id": game.id, "seat": seat, "token": token, "status": game.status, "version": game.version,
                "seed_commitment": game.meta["seed_commitment"]}


@blp.route("/<string:game_id>/seats/<int:seat>/entropy")
class Contribute(MethodView):
    @blp.arguments(ContributeSchema)
    @blp.response(200, ContributedSchema)
    @blp.problems({401: "No seat token", 403: "The token is not this seat's", 404: "No such game or seat",
                   409: "The game has started, or the seat contributed already (contribution-refused)",
                   413: "Body over the size limit", 415: "Body not application/json"})
    @blp.doc(operationId="contributeEntropy", security=[{"seatToken": []}])
    def post(self, body, game_id, seat):
        """Add your seat's entropy to the game's seed, once, before it starts (docs/fairness.md): the seed was
        committed to first, so neither the server nor anyone else can aim at a roll.  The game starts when
        every human seat has sent some (or its contribution window closes) and no seat is open."""
        load_for_seat(game_id, seat)
        runner = engine().runner
        try:
            game = runner.contribute(game_id, seat, body["entropy"])
        except NoContribution as refusal:
            raise Problem(409, "contribution-refused", refusal.reason, rule=refusal.rule) from None
        return {"game_id": game.id, "seat": seat, "status": game.status, "version": game.version,
                "seed_commitment": game.meta["seed_commitment"], "contributions": contributions(game, runner.clock())}


def bound_to_caller(seats: list[dict]) -> list[dict]:
    """The seats to create: each `as_player` one bound to the calling player, under their name (401 without a
    player credential)."""
    if not any(seat.get("as_player") for seat in seats):
        return seats
    player = acting_player()
    return [{**{k: v for k, v in seat.items() if k != "as_player"},
             **({"player": player.id, "name": player.name} if seat.get("as_player") else {})} for seat in seats]


def invited(game_id: str, token: str, _value: str, expires_at: int) -> dict:
    """An open seat's invitation fields in the creation's answer."""
    return {"invitation": token, "invitation_link": invitation_link(game_id, token),
            "invitation_expires_at": expires_at}


def admitted_to_claim(game_id: str, seat: int) -> bool:
    """Whether the claim uses an invitation to this seat (it is then used up).  A private table's seat is
    claimed only so (403 invitation-required); an unlisted or public one by anyone."""
    runner = engine().runner
    meta = runner.load(game_id).meta
    if invitation_seat(meta, runner.clock()) == seat:
        return True
    if visibility_of(meta) == "private":
        raise Problem(403, "invitation-required", f"this table is private: seat {seat} is claimed with its "
                      "invitation (X-Cartel-Invitation or ?invitation=), and the one sent is missing, used, expired "
                      "or for another seat")
    return False


def refuse_another_ruleset(fork: dict, ruleset: str) -> None:
    """The game to fork, which the caller must be able to read (a private table without a credential for it is
    no game: 404, as GET would answer), must be a game of `ruleset`: 409 otherwise."""
    sighting = engine().store.access.lookup(fork["game"], with_meta=True)
    if not sighting.exists or (sighting.visibility == "private" and not admitted(fork["game"], sighting.meta)):
        raise GameNotFound(fork["game"])
    original = engine().runner.load(fork["game"]).table["ruleset"]
    if ruleset != original:
        raise Problem(409, "fork-ruleset-mismatch", f"game {fork['game']} is a game of {original}, not {ruleset}: a "
                      "fork is played under its original's ruleset, rules version and options", param="ruleset")


def refuse_early_secrets(spec: dict) -> None:
    """What a creation may not carry: a seed the server's operator does not allow creators to choose (whoever
    chooses it foresees every roll), and entropy, which would reach the server before its commitment."""
    if "seed" in spec and not current_app.config["ALLOW_FIXED_SEEDS"]:
        raise Problem(403, "fixed-seed-not-allowed", "this server does not let a game's creator choose its seed: "
                      "leave `seed` out and the server draws 256 random bits (its operator may allow fixed seeds "
                      "for tests and tournaments with ALLOW_FIXED_SEEDS=1)")
    if "entropy" in spec:
        raise Problem(400, "entropy-before-commitment", "entropy cannot come with the creation: the server would "
                      "see it before committing to its seed.  Create the game, then send it with POST "
                      "/v1/games/{id}/seats/{seat}/entropy and your seat's token before the game starts")


@blp.route("/<string:game_id>/seats/<int:seat>/reclaim")
class ReclaimSeat(MethodView):
    @blp.response(200, ReclaimedSeatSchema)
    @blp.problems({401: "No seat token", 403: "The token is not this seat's", 404: "No such game or seat",
                   409: "The seat is not played by a bot in an active game, or the game was abandoned or "
                        "archived"})
    @blp.doc(operationId="reclaimSeat", security=[{"seatToken": []}])
    def post(self, game_id, seat):
        """Take back a seat that was handed to a bot after its clock ran out too often (with that seat's token)."""
        load_for_seat(game_id, seat)
        try:
            game = engine().runner.reclaim_seat(game_id, seat)
        except NotAwaited as refusal:
            raise Problem(409, "nothing-to-reclaim", refusal.reason) from None
        return {"game_id": game.id, "seat": seat, "kind": game.seats[seat]["kind"], "status": game.status,
                "version": game.version}


# A new table the ruleset refuses (rules/ruleset.py table_checks), by the rule the refusal cites.
TABLE_REFUSALS = {"options": "option-invalid", "players": "seat-count-invalid", "bots": "bot-level-invalid"}


def table_refused(refusal: IllegalMove, ruleset: Any, spec: dict) -> Problem:
    """The 422 for a new game the ruleset refuses, naming the refused field as `param`."""
    code = TABLE_REFUSALS.get(refusal.rule or "", "illegal-move")
    param = refused_field(code, ruleset_at(ruleset, latest_version(ruleset)), spec)
    return Problem(422, code, refusal.reason, rule=refusal.rule, param=param)


def refused_field(code: str, ruleset: Any, spec: dict) -> str | None:
    """The first field of `spec` the check behind `code` refuses (the refusal's text is for humans)."""
    if code == "bot-level-invalid":
        levels = {f"seats.{n}.level": seat.get("level", "random")
                  for n, seat in enumerate(spec["seats"]) if seat["kind"] == "bot"}
        levels["clock.bot_level"] = (spec.get("clock") or {}).get("bot_level")
        return next((field for field, level in levels.items()
                     if level is not None and _refuses(check_bot_level, ruleset, level)), None)
    if code == "option-invalid":
        options = spec.get("options") or {}
        return next((f"options.{name}" for name in options
                     if _refuses(check_options, ruleset, {name: options[name]})), "options")
    return None


def _refuses(check: Callable[..., Any], *args: Any) -> bool:
    try:
        check(*args)
    except IllegalMove:  # BadCommand is one
        return True
    return False
