"""The error catalogue: every problem `code` the service answers, as data.

A problem document carries its `code` (a short stable slug to branch on, like Stripe's),
`type` (the code's stable absolute URI, as before the catalogue; its path, `/problems/<code>`,
is the code's page on every deployment of this service; the full catalogue is docs/errors.md),
a `title` that fits the case and, for one bad field, `param` naming it.  A code is added here
first; tests/service/test_error_catalogue.py provokes every code and checks that docs/errors.md
lists exactly these.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

# Absolute and unchanged since the first release (RFC 9457 3.1.1: consumers match on `type`, and absolute
# URIs are recommended); the service serves the same path, so a type's path is its page on any deployment.
TYPE_HOST = "https://tabletop-cartel.dev"
TYPE_PATH = "/problems/"


@dataclass(frozen=True)
class ProblemType:
    """One entry of the catalogue."""

    code: str
    status: int | None  # None: the HTTP status of the refusal (http-error)
    title: str
    when: str
    todo: str
    param: str | None = None  # the field at fault when it is always the same one (a header): set for the caller
    param_doc: str | None = None  # what `param` names when the view finds the field (the first bad one)

    def describe(self) -> dict[str, Any]:
        return {**asdict(self), "type": type_uri(self.code)}

    @property
    def param_text(self) -> str:
        """The catalogue's `param` column."""
        return f"`{self.param}`" if self.param else (self.param_doc or "")


def _entries(*entries: ProblemType) -> dict[str, ProblemType]:
    return {entry.code: entry for entry in entries}


CATALOGUE: dict[str, ProblemType] = _entries(
    # 400: the request is malformed; nothing was appended
    ProblemType("malformed-request", 400, "Malformed request",
                "A body, query or path value does not match its schema (`errors` lists every bad field).",
                "Fix the field `param` names (the first of `errors`) and send again.",
                param_doc="the first bad field, dotted: `seats.0.kind`, `after`"),
    ProblemType("malformed-json", 400, "Malformed JSON body",
                "The body is not acceptable JSON: unparsable, nested too deep, a huge integer, NaN or a lone "
                "surrogate.", "Send one plain JSON document."),
    ProblemType("malformed-command", 400, "Malformed command",
                "The command is not one of the game's shapes: unknown `type`, a missing, extra or mistyped "
                "argument.", "Send a command as the ruleset's command schema (GET /v1/rulesets/{name}/schema) "
                "or the game's `legal_moves` give it."),
    ProblemType("malformed-if-match", 400, "Malformed If-Match",
                'If-Match is not a game version in quotes ("12") or an ETag the game gave.',
                "Send the ETag of the game you read, or its version in quotes.", "If-Match"),
    ProblemType("malformed-idempotency-key", 400, "Malformed Idempotency-Key",
                "Idempotency-Key is not 1 to 128 visible ASCII characters.",
                "Send a key such as a UUID.", "Idempotency-Key"),
    ProblemType("malformed-last-event-id", 400, "Malformed Last-Event-ID",
                "Last-Event-ID is not a version from 0 to 2^63-1 (a game's events), or not an entry id such as "
                "1700000000000-0 (a player's stream).",
                "Send the `id` of the last event you read, or none.", "Last-Event-ID"),
    ProblemType("resume-beyond-version", 400, "Resume point beyond the game",
                "`after` or Last-Event-ID names a version the game has not reached: it is not a point this feed "
                "could have sent (another game's, or a client's own count).",
                "Resume from the `id` of the last event you read from this game, or from 0.",
                param_doc="`after` or `Last-Event-ID`, whichever is past the game"),
    ProblemType("entropy-before-commitment", 400, "Entropy sent before the commitment",
                "`entropy` with POST /v1/games: the server would see it before committing to its seed, so it "
                "could choose a seed to suit it.", "Create the game without it, then send it with POST "
                "/v1/games/{id}/seats/{seat}/entropy (your seat's token) before the game starts.", "entropy"),
    ProblemType("fork-seats-mismatch", 400, "Fork seat count differs",
                "A fork (`from` with POST /v1/games) with another number of seats than its original had.",
                "Send as many seats as the original game's.", "seats"),
    ProblemType("malformed-history", 400, "Malformed history",
                "An uploaded history is not the JSON Lines export of a game.",
                "Upload the body GET /v1/games/{id}/history gave, unchanged."),
    ProblemType("player-header-required", 400, "X-Cartel-Player required",
                "The app key was sent without X-Cartel-Player (or with one that is not an external_id): the app key "
                "acts for one of the platform's players at a time.",
                "Name the player you act for: `X-Cartel-Player: <their external_id>`.", "X-Cartel-Player"),
    # 401 / 403: who is asking
    ProblemType("token-required", 401, "Seat token required",
                "The request needs a seat token (or, for a player's request, a player key) and has none.",
                "Send `Authorization: Bearer <token>` with the token of your seat (or your player key)."),
    ProblemType("token-malformed", 401, "Malformed Authorization header",
                "Authorization is not `Bearer <token>`.", "Send `Authorization: Bearer <token>`.",
                "Authorization"),
    ProblemType("ticket-invalid", 401, "Stream ticket invalid",
                "The `ticket` of an event stream is unknown or expired.",
                "Get a new one with POST /v1/games/{id}/tickets.", "ticket"),
    ProblemType("player-not-found", 404, "No such player",
                "A challenge to a name no player has.", "Check the name (players' names are unique, case aside).",
                "to"),
    ProblemType("player-key-invalid", 401, "Player key invalid",
                "The request needs a player and its key holds none: not a player key ('cp_...'), unknown, or "
                "rotated away; or the app key's X-Cartel-Player names no player.",
                "Send your current player key (POST /v1/players gives one), or create the platform's player first."),
    ProblemType("app-key-required", 403, "App key required",
                "`external_id` with POST /v1/players from a caller other than the operator's app key.",
                "Leave `external_id` out, or send the platform's app key (PLATFORM_APP_KEY).", "external_id"),
    ProblemType("not-your-seat", 403, "Not your seat",
                "A fresh token asked for a seat not bound to the calling player, or an invitation asked by "
                "someone who holds no seat at the table.",
                "Bind seats to yourself at creation (`as_player`) or claim; invite with your seat token."),
    ProblemType("invitation-required", 403, "Invitation required",
                "A claim of a private table's seat without a valid invitation to that seat: none, used, expired "
                "or for another seat.",
                "Claim with the invitation you were sent (X-Cartel-Invitation or `?invitation=`), or ask a "
                "player at the table for a new one."),
    ProblemType("token-not-for-this-game", 403, "Token holds no seat in this game",
                "The seat token is not one of this game's.", "Use the token this game gave your seat."),
    ProblemType("token-not-for-this-seat", 403, "Token holds another seat",
                "The seat token holds another seat of this game.", "Use this seat's own token."),
    ProblemType("fixed-seed-not-allowed", 403, "Fixed seeds not allowed",
                "`seed` with POST /v1/games on a server that does not let creators choose the seed: whoever "
                "chose it could foresee every roll and card.", "Leave `seed` out (the server draws 256 random "
                "bits); an operator allows it for tests and tournaments with ALLOW_FIXED_SEEDS=1.", "seed"),
    ProblemType("game-not-finished", 403, "Game not finished",
                "The history of a game still being played would reveal hidden cards and the seed.",
                "Wait for the game to end; read the event feed meanwhile."),
    ProblemType("analysis-not-allowed", 403, "Analysis not allowed",
                "A live game's seat was asked to be analysed at a table that does not allow it: created without "
                "`analysis: true`, or rated.",
                "Analyse it once the game has ended, or create tables with `analysis: true` (never rated)."),
    ProblemType("chat-channel-forbidden", 403, "Chat channel not yours",
                "A chat channel the caller may not read while the game is on: the seats' channel without a seat "
                "token, or the spectators' with one.",
                "Read your own channel (leave `channel` out); both are open to everyone once the game has ended.",
                "channel"),
    # 404 / 405
    ProblemType("not-found", 404, "Not found",
                "No such game, seat, ruleset, rules document, version or path.",
                "Check the identifier; GET /v1/rulesets and GET /v1/games list what exists."),
    ProblemType("method-not-allowed", 405, "Method not allowed",
                "The path does not take this method (`Allow` lists those it takes).",
                "Use a method from `Allow`."),
    # 409: the game's state is in the way; nothing was appended
    ProblemType("stale-version", 409, "Stale version",
                "If-Match (or `expected_version`) names a version the game has moved past; `version` is the "
                "current one and, for a command, `still_legal` says whether it is legal there.",
                "Resend with If-Match at `version` if `still_legal`, else read the game and choose anew."),
    ProblemType("challenge-not-open", 409, "Challenge not open",
                "An answer to (accept, decline) or a cancel of a challenge that is no longer open: it was accepted, "
                "declined, cancelled or has expired.", "Read it in GET /v1/players/me/challenges; challenge anew."),
    ProblemType("challenge-refused", 409, "Challenge refused",
                "A challenge to yourself.", "Challenge another player by name, or a bot level.", "to"),
    ProblemType("player-name-taken", 409, "Player name taken",
                "POST /v1/players with a name another player has (whatever its case), or an external_id another "
                "player has.", "Choose another name (or, for a platform, look the player up by its external_id).",
                param_doc="`name` or `external_id`, whichever is taken"),
    ProblemType("seat-taken", 409, "Seat taken",
                "A claim for a seat that is not open: a player or a bot has it.",
                "Claim another open seat (the lobby lists them), or spectate."),
    ProblemType("seat-action-refused", 409, "Not now at this table",
                "A resignation, abort, leave or rematch the table does not take now: resign is for a game in "
                "play, leave and abort for a table not started, rematch for a finished game (once a player).",
                "Read the game's `status` and `detail`: before the start, leave or abort; in play, resign; "
                "after the end, ask for a rematch."),
    ProblemType("seat-not-awaited", 409, "Seat not awaited",
                "An analysis was asked for a seat with no move to make at that version.",
                "Ask for a version at which the game awaits the seat (its `awaiting_seats`)."),
    ProblemType("seat-played-by-bot", 409, "Seat played by a bot",
                "The seat was handed to a bot after its clock ran out too often.",
                "Reclaim it (POST /v1/games/{id}/seats/{seat}/reclaim), then send your command."),
    ProblemType("contribution-refused", 409, "Contribution refused",
                "Entropy for a seat the table takes none from now: the game has started (its seed is fixed), the "
                "seat contributed already, or the game was created before contribution windows.",
                "Nothing: the detail says which; contributions are taken once a seat, before the start."),
    ProblemType("nothing-to-reclaim", 409, "Nothing to reclaim",
                "A reclaim for a seat no bot plays in an active game.", "Nothing: the seat is yours to play."),
    ProblemType("game-abandoned", 409, "Game abandoned",
                "The game was abandoned (no human command for the idle limit): it takes no command.",
                "Read its feed or history; start a new game."),
    ProblemType("game-archived", 409, "Game archived",
                "The game was archived: it takes no command and keeps no seat tokens.",
                "Read its history at GET /v1/games/{id}/history."),
    ProblemType("fork-of-unfinished-game", 409, "Game not finished: no fork",
                "`from` names a game that has not ended: its history, and so its position, is not public yet.",
                "Wait for the game to end, then fork it.", "from.game"),
    ProblemType("fork-ruleset-mismatch", 409, "Fork of another ruleset",
                "A fork's `ruleset` is not its original's: a fork is played under its original's ruleset, rules "
                "version and options.", "Leave `ruleset` out (or send the original's).", "ruleset"),
    # 413 / 414 / 415
    ProblemType("body-too-large", 413, "Request body too large",
                "The body is over the endpoint's limit (MAX_BODY_BYTES, REPLAY_MAX_BYTES for replays).",
                "Send less; the detail gives the limit."),
    ProblemType("uri-too-long", 414, "URI too long",
                "The request line is over the server's limit (gunicorn's limit_request_line).",
                "Shorten the URL: identifiers are short and no query needs long values."),
    ProblemType("unsupported-media-type", 415, "Unsupported media type",
                "A body that is not `application/json` where JSON is expected.",
                "Send `Content-Type: application/json`."),
    # 422: well-formed, but not acceptable; nothing was appended
    ProblemType("illegal-move", 422, "Illegal move",
                "The rules forbid the command now (out of turn, a card you lack, a game over...); `rule` names "
                "the rulebook section; `detail` names seats by the players' names (\"waiting for Ana\").",
                "Choose a move from the game's `legal_moves`."),
    ProblemType("option-invalid", 422, "Invalid game option",
                "A new game names an option the ruleset does not have, or a value outside its choices.",
                "Use the options GET /v1/rulesets/{name} lists, with one of their choices.",
                param_doc="the option: `options.<name>` (`options` for a wrong kind of value)"),
    ProblemType("seat-count-invalid", 422, "Invalid seat count",
                "A new game has fewer or more seats than the ruleset is played by.",
                "Send between the ruleset's `min_seats` and `max_seats` seats.", "seats"),
    ProblemType("bot-level-invalid", 422, "Invalid bot level",
                "A bot seat's level, or the clock's `bot_level`, is not one the ruleset has.",
                "Use a level from the ruleset's `bot_levels` (`ismcts:N` for a search of N iterations).",
                param_doc="`seats.<n>.level` or `clock.bot_level`"),
    ProblemType("idempotency-key-reused", 422, "Idempotency key reused",
                "The Idempotency-Key was sent before with a different command.",
                "Use a new key for a new command; resend a command with its own key.", "Idempotency-Key"),
    ProblemType("version-out-of-range", 422, "Version out of range",
                "A replay or an analysis is asked for a version past the end of the history or game.",
                "Ask for a version the history has.", "version"),
    ProblemType("seat-out-of-range", 422, "Seat out of range",
                "An analysis was asked for a seat the table does not have.",
                "Ask for a seat from 0 to the table's seat count less one.", "seat"),
    ProblemType("analysis-not-offered", 422, "No analysis for this game",
                "The game's ruleset has no search bot (its `bot_levels` lack `ismcts`) to analyse with.",
                "Analyse a game whose ruleset offers the search level."),
    ProblemType("fork-version-out-of-range", 422, "No position to fork there",
                "A fork's `from.version` is not a position of the game in play: before its set-up, at or after "
                "its end, past its last version, or inside a command's events.",
                "Fork at a version where a command ended while the game was on (GET /v1/games/{id}/history "
                "shows them).", "from.version"),
    # 429 / 431
    ProblemType("rate-limited", 429, "Too many requests",
                "This address or seat token is over its rate limit.", "Wait `Retry-After` seconds."),
    ProblemType("chat-rate-limited", 429, "Chatting too fast",
                "This seat token (or, for a spectator, this address) posted more chat messages than CHAT_PER_MINUTE "
                "allows (after a burst of CHAT_BURST).", "Wait `Retry-After` seconds before the next message."),
    ProblemType("analysis-rate-limited", 429, "Analysing too fast",
                "This seat token (or, without one, this address) started more analyses than ANALYSIS_PER_MINUTE "
                "allows (after a burst of ANALYSIS_BURST); an analysis already made is not counted.",
                "Wait `Retry-After` seconds before the next one."),
    ProblemType("header-fields-too-large", 431, "Request header fields too large",
                "A header, or all of them, is over the server's limits (gunicorn's limit_request_field_size).",
                "Send fewer or shorter headers."),
    # 5xx: the server's side
    ProblemType("internal-error", 500, "Internal server error",
                "The server failed on the request; it is logged.", "Report it with the request's `instance`."),
    ProblemType("storage-unavailable", 503, "Storage unavailable",
                "The event store (Redis) is unreachable; nothing was appended.",
                "Retry after `Retry-After` seconds with the same Idempotency-Key."),
    ProblemType("too-many-followers", 503, "Too many followers",
                "This server process follows as many event streams (or players' streams) as it may.",
                "Retry after `Retry-After` seconds, or read the paged feed."),
    # the HTTP layer's own refusals that have no code of their own
    ProblemType("http-error", None, "(the HTTP reason phrase)",
                "The HTTP server refused the request for a reason with no code of its own (gunicorn: an "
                "`Expect` other than 100-continue is 417, an unknown Transfer-Encoding 501).",
                "Read `status` and `detail`; send a plain HTTP/1.1 request."),
)


def type_uri(code: str) -> str:
    """The problem's `type`: its code's stable URI."""
    return TYPE_HOST + TYPE_PATH + code


def title_of(code: str, status: int, fallback: str = "Error") -> str:
    """The catalogue's title for `code` (http-error's is the reason phrase the caller gives)."""
    entry = CATALOGUE.get(code)
    return entry.title if entry is not None and entry.status is not None else fallback


def first_param(errors: Any) -> str | None:
    """The first bad field of a marshmallow/webargs `errors` tree, dotted (`seats.0.kind`); None for
    errors of the body as a whole (`_schema`, `_body`)."""
    path: list[str] = []
    while isinstance(errors, dict) and errors:
        key = next(iter(errors))  # a list's index is an int key
        if key in ("_schema", "_body"):
            break
        path.append(str(key))
        errors = errors[key]
    return ".".join(path) or None


# gunicorn's own answers (service/gunicorn_conf.py write_problem) by status; any other (403, 417, 501) is
# the catalogue's http-error.  Here, not in the config module: importing that sets up a process for
# gunicorn (its metrics directory in the environment), which a test reading this table must not do.
GUNICORN_PROBLEM_KINDS = {400: "malformed-request", 414: "uri-too-long", 431: "header-fields-too-large",
                          500: "internal-error"}
