"""Challenges (issue 37 item 4): a player challenges a named player, or a bot level, to a ruleset.

The challenge is checked as a table when it is made (the ruleset, its options, seats and bot levels), so its
acceptance creates the game: both seats bound (the challenger at 0, the challenged at 1), each told on their
feed (`challenge_accepted` with the game id, then the committer's `game_started`).  A bot level's game is
created as it is challenged.  The seat tokens: the acceptor's is in the answer, the challenger's (as the
challenge's answer for a bot level) is renewed with their key (POST /v1/games/{id}/seats/0/token).
"""
from __future__ import annotations

import secrets

from flask import current_app
from flask.views import MethodView

from events.challenges import Challenge
from rules.base import BadCommand, IllegalMove
from rules.ruleset import latest_version, ruleset_at
from rules.table_checks import table_checks
from service.api.base import Blueprint
from service.api.games import table_refused
from service.api.players import AS_PLAYER, PLAYER_PROBLEMS
from service.auth import hash_token, new_token
from service.challenge_schemas import ChallengeGameSchema, ChallengeSchema, ChallengesSchema, CreateChallengeSchema
from service.errors import Problem
from service.identity import acting_player
from service.wiring import engine

blp = Blueprint("challenges", __name__, url_prefix="/v1", description="Challenges between players, or to a bot")
FILL_LEVEL = "random"  # the level of a challenge's seats beyond the two (a player challenged)


def challenge_document(challenge: Challenge) -> dict:
    return {"id": challenge.id, "challenger": {"id": challenge.challenger, "name": challenge.challenger_name},
            "challenged": ({"id": challenge.challenged, "name": challenge.challenged_name}
                           if challenge.challenged else None),
            "bot": challenge.bot, "ruleset": challenge.ruleset, "options": challenge.options, "clock": challenge.clock,
            "visibility": challenge.visibility, "seats": challenge.seats, "status": challenge.status,
            "created_at": challenge.created_at, "expires_at": challenge.expires_at, "game_id": challenge.game_id}


def table_of(challenge: Challenge) -> list[dict]:
    """The game's seats: the challenger's, the challenged player's (or the bot level's), then bots."""
    seats = [{"kind": "human", "player": challenge.challenger, "name": challenge.challenger_name}]
    if challenge.bot:
        return seats + [{"kind": "bot", "level": challenge.bot}] * (challenge.seats - 1)
    return seats + [{"kind": "human", "player": challenge.challenged, "name": challenge.challenged_name}] \
        + [{"kind": "bot", "level": FILL_LEVEL}] * (challenge.seats - 2)


def check_table(body: dict, seats: int, level: str | None) -> None:
    """422 for a challenge to a table the ruleset is not played at (as POST /v1/games refuses it)."""
    ruleset = engine().runner.rulesets[body["ruleset"]]
    levels = [level or FILL_LEVEL] * (seats - (1 if level else 2))
    try:
        table_checks(ruleset_at(ruleset, latest_version(ruleset)), seats, body["options"], levels,
                     (body.get("clock") or {}).get("bot_level"))
    except BadCommand as refusal:
        spec = {**body, "seats": [{"kind": "human"}] * (seats - len(levels)) + [{"kind": "bot", "level": v}
                                                                               for v in levels]}
        raise table_refused(IllegalMove(refusal.reason, rule=refusal.rule), ruleset, spec) from None


def start(challenge: Challenge) -> tuple[str, dict[int, str]]:
    """Create the challenge's game, then tell both feeds its id; its id and the human seats' tokens.  It
    waits for its players' entropy as any game does (CONTRIBUTION_SECONDS): `challenge_accepted` is each
    player's cue to send theirs, and `game_started` follows.  The note comes after the creation: a bot acting
    on it at once met "no such game" when it came first (tests/clients/test_my_stream_bot.py, once)."""
    runner, feeds = engine().runner, engine().store.feeds
    seats = table_of(challenge)
    tokens = {n: new_token() for n, seat in enumerate(seats) if seat["kind"] == "human"}
    game_id = secrets.token_hex(8)
    runner.create_game(challenge.ruleset, seats, challenge.options, None, challenge.clock,
                       {n: hash_token(t) for n, t in tokens.items()}, current_app.config["CONTRIBUTION_SECONDS"],
                       visibility=challenge.visibility,
                       game_id=game_id)
    engine().store.challenges.started(challenge.id, game_id)
    for n, seat in enumerate(seats):
        if seat.get("player"):
            feeds.append(seat["player"], "challenge_accepted", {"challenge": challenge.id, "game_id": game_id,
                                                                "ruleset": challenge.ruleset, "seat": n})
    return game_id, tokens


@blp.route("/challenges")
class Challenges(MethodView):
    @blp.arguments(CreateChallengeSchema)
    @blp.response(201, ChallengeGameSchema)
    @blp.problems({**PLAYER_PROBLEMS, 404: "No such ruleset, or no player of that name (player-not-found)",
                   409: "You challenged yourself (challenge-refused)",
                   413: "Body over the size limit", 415: "Body not application/json",
                   422: "A table the ruleset is not played at: seats, option, bot level (as for POST /v1/games)"})
    @blp.doc(operationId="createChallenge", security=AS_PLAYER)
    def post(self, body):
        """Challenge a player by name (they are told on their stream, and accept or decline within a day), or a
        bot level (the game is created now: the answer has its `game_id`, your `seat` 0 and its `token`)."""
        player = acting_player()
        runner, store = engine().runner, engine().store
        if body["ruleset"] not in runner.rulesets:
            raise Problem(404, "not-found", f"no ruleset named {body['ruleset']!r}; see GET /v1/rulesets",
                          param="ruleset")
        level = body["to"].get("bot")
        opponent = None if level else store.players.by_name(body["to"]["player"])
        if not level and opponent is None:
            raise Problem(404, "player-not-found", f"no player is named {body['to']['player']!r}", param="to")
        if opponent is not None and opponent.id == player.id:
            raise Problem(409, "challenge-refused", "you cannot challenge yourself: challenge another player or "
                          'a bot level ({"bot": "greedy"})', param="to")
        seats = body.get("seats") or max(2, runner.rulesets[body["ruleset"]].min_seats)
        check_table(body, seats, level)
        challenge = store.challenges.create(player, opponent, level, body["ruleset"], seats, body["options"],
                                            body.get("clock"), body.get("visibility", "public"), runner.clock(),
                                            current_app.config["CHALLENGE_SECONDS"])
        if level:
            store.challenges.settle(challenge.id, "accepted", player.id, runner.clock())
            game_id, tokens = start(challenge)
            accepted = store.challenges.get(challenge.id, runner.clock())
            return {**challenge_document(accepted), "game_id": game_id, "seat": 0, "token": tokens[0]}, 201
        store.feeds.append(opponent.id, "challenge", {
            "challenge": challenge.id, "from": player.name, "ruleset": challenge.ruleset, "seats": seats,
            "options": challenge.options, "clock": challenge.clock, "expires_at": challenge.expires_at})
        return challenge_document(challenge), 201


def answerable(challenge_id: str, player_id: str, as_who: str) -> Challenge:
    """The challenge, if the player is its challenged (`as_who` "challenged") or challenger: else 404, as for no
    challenge (a stranger learns nothing of it)."""
    challenge = engine().store.challenges.get(challenge_id, engine().runner.clock())
    if challenge is None or getattr(challenge, as_who) != player_id:
        what = "answer" if as_who == "challenged" else "cancel"
        raise Problem(404, "not-found", f"you have no such challenge to {what} (GET /v1/players/me/challenges "
                      "lists yours)")
    return challenge


def settle(challenge: Challenge, status: str, player_id: str) -> None:
    answer = engine().store.challenges.settle(challenge.id, status, player_id, engine().runner.clock())
    if answer != "ok":
        raise Problem(409, "challenge-not-open", f"this challenge is no longer open: it was {answer}")


@blp.route("/challenges/<string:challenge_id>/accept")
class Accept(MethodView):
    @blp.response(200, ChallengeGameSchema)
    @blp.problems({**PLAYER_PROBLEMS, 404: "No such challenge to you", 409: "Not open any more (challenge-not-open)"})
    @blp.doc(operationId="acceptChallenge", security=AS_PLAYER)
    def post(self, challenge_id):
        """Accept a challenge to you: the game is created with both seats bound; the answer has its `game_id`,
        your `seat` (1) and its `token` (shown once)."""
        player = acting_player()
        challenge = answerable(challenge_id, player.id, "challenged")
        settle(challenge, "accepted", player.id)
        try:
            game_id, tokens = start(challenge)
        except Exception:
            engine().store.challenges.reopen(challenge.id)  # checked when made: the store failed; answer again
            raise
        accepted = engine().store.challenges.get(challenge.id, engine().runner.clock())
        return {**challenge_document(accepted), "game_id": game_id, "seat": 1, "token": tokens[1]}


@blp.route("/challenges/<string:challenge_id>/decline")
class Decline(MethodView):
    @blp.response(200, ChallengeSchema)
    @blp.problems({**PLAYER_PROBLEMS, 404: "No such challenge to you", 409: "Not open any more (challenge-not-open)"})
    @blp.doc(operationId="declineChallenge", security=AS_PLAYER)
    def post(self, challenge_id):
        """Decline a challenge to you (the challenger is told on their stream)."""
        player = acting_player()
        challenge = answerable(challenge_id, player.id, "challenged")
        settle(challenge, "declined", player.id)
        engine().store.feeds.append(challenge.challenger, "challenge_declined",
                                    {"challenge": challenge.id, "by": player.name})
        return challenge_document(engine().store.challenges.get(challenge.id, engine().runner.clock()))


@blp.route("/challenges/<string:challenge_id>/cancel")
class Cancel(MethodView):
    @blp.response(200, ChallengeSchema)
    @blp.problems({**PLAYER_PROBLEMS, 404: "No such challenge of yours", 409: "Not open any more (challenge-not-open)"})
    @blp.doc(operationId="cancelChallenge", security=AS_PLAYER)
    def post(self, challenge_id):
        """Cancel a challenge you made, while it is open."""
        player = acting_player()
        challenge = answerable(challenge_id, player.id, "challenger")
        settle(challenge, "cancelled", player.id)
        return challenge_document(engine().store.challenges.get(challenge.id, engine().runner.clock()))


@blp.route("/players/me/challenges")
class MyChallenges(MethodView):
    @blp.response(200, ChallengesSchema)
    @blp.problems(PLAYER_PROBLEMS)
    @blp.doc(operationId="listMyChallenges", security=AS_PLAYER)
    def get(self):
        """Your challenges, sent and received, newest first: `status` open, accepted (with `game_id`), declined,
        cancelled or expired."""
        player = acting_player()
        found = engine().store.challenges.of_player(player.id, engine().runner.clock())
        return {"challenges": [challenge_document(c) for c in found]}
