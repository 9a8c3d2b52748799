"""marshmallow schemas for every request and response (the OpenAPI spec is generated from them)."""
from __future__ import annotations

import re
import unicodedata

import marshmallow as ma
from marshmallow import INCLUDE, validate

from events.seeds import ENTROPY_MAX, ENTROPY_RULES, entropy_refusal
from events.table import VISIBILITIES
from rules import RULESETS
from rules.narration import REF_KINDS
from service.spec_types import view_refs

SEAT_KINDS = ("human", "bot", "open")
STATUSES = ("open", "active", "finished", "abandoned")
Free = ma.fields.Raw  # a ruleset-specific JSON value
MAX_VERSION = 2**63 - 1  # versions are Redis stream ids (64-bit); larger values are refused, not sent to Redis

# Seat names are echoed to every reader (lobby, game documents, the feed): no
# control characters (category Cc: NUL, escapes, newlines), no format characters
# (Cf: the bidi embeddings/overrides/isolates U+202A-U+202E and U+2066-U+2069 that
# make a name display as something else, invisible marks), no lone surrogates
# (Cs) or line/paragraph separators.  The zero-width (non-)joiners stay: scripts
# and emoji sequences need them.
NAME_MAX = 64
NAME_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
NAME_ALLOWED_FORMAT = {"\u200c", "\u200d"}
NAME_RULES = (f"1 to {NAME_MAX} characters, not only spaces; no control characters, no format characters "
              "(bidi embeddings, overrides and isolates, invisible marks; the zero-width joiner and non-joiner "
              "are allowed), no lone surrogates")


class Strict(ma.Schema):
    class Meta:
        ordered = True


def check_display_name(name: str, what: str = "names", rules: str = NAME_RULES) -> None:
    """Refuse a seat name (or other text shown to every reader as sent, such as chat) that could hide or
    disguise what other readers see."""
    if not name.strip():
        raise ma.ValidationError(f"{what} must not be blank")
    for position, char in enumerate(name):
        if unicodedata.category(char) in NAME_REFUSED_CATEGORIES and char not in NAME_ALLOWED_FORMAT:
            named = unicodedata.name(char, "a control character")
            raise ma.ValidationError(f"{what} may not contain U+{ord(char):04X} ({named}, at position {position}): "
                                     f"{rules}")


def SeatName() -> ma.fields.String:
    return ma.fields.String(validate=[validate.Length(1, NAME_MAX), check_display_name],
                            metadata={"description": f"Display name: {NAME_RULES}"})


def Visibility() -> ma.fields.String:
    return ma.fields.String(validate=validate.OneOf(VISIBILITIES), metadata={
        "description": "public (when left out): the lobby lists it; unlisted: it does not, whoever has the id may "
                       "read and join it; private: it does not, and only its players and whoever holds an invitation "
                       "to it may read it (to anyone else its id answers 404, as an unknown one)"})


class StrictBoolean(ma.fields.Boolean):
    """true or false, and nothing marshmallow would read as one ("yes", 1, "on")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def check_entropy(value: str) -> None:
    """A seat's contribution to the seed, as events/seeds.py allows it."""
    refusal = entropy_refusal(value)
    if refusal:
        raise ma.ValidationError(refusal)


def Entropy(who: str, required: bool = False) -> ma.fields.String:
    return ma.fields.String(required=required, validate=[validate.Length(1, ENTROPY_MAX), check_entropy], metadata={
        "description": f"{who} own entropy for the game's dice and shuffles: {ENTROPY_RULES}. Public at once (in "
                       "the game's events); the effective seed mixes the server's committed seed with every "
                       "contribution when the game starts, so no one party chooses a roll (docs/fairness.md)",
        "example": "my lucky number is 7, and I rolled 3-1-4-1-5 at home"})


def Status() -> ma.fields.String:
    return ma.fields.String(required=True, validate=validate.OneOf(STATUSES),
                            metadata={"description": "open: waiting for seats, or for the human seats' entropy; "
                                                     "active: being played; finished; "
                                                     "abandoned: no human command for ABANDON_AFTER_SECONDS"})


# ---------------------------------------------------------------- rulesets
class OptionSchema(Strict):
    default = Free(metadata={"description": "Used when the option is not given"})
    choices = ma.fields.List(Free(), metadata={"description": "Allowed values (empty: any)"})
    description = ma.fields.String()


class RulesVersionSchema(Strict):
    version = ma.fields.Integer(required=True)
    summary = ma.fields.String(required=True, metadata={"description": "What changed in this version"})


class RulesetSchema(Strict):
    name = ma.fields.String(required=True, metadata={"example": "kingpin"})
    title = ma.fields.String(required=True)
    min_seats = ma.fields.Integer(required=True)
    max_seats = ma.fields.Integer(required=True)
    options = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(OptionSchema))
    bot_levels = ma.fields.List(ma.fields.String())
    rules_doc = ma.fields.String(allow_none=True, metadata={
        "description": "URL (on this server) of the rules document, text/markdown: rulings and command reference"})
    latest_version = ma.fields.Integer(metadata={"description": "The rules version new games are played under"})
    versions = ma.fields.List(ma.fields.Nested(RulesVersionSchema), metadata={
        "description": "Every released version of the rules, oldest first; a game keeps the version it was created "
                       "under (`ruleset_version` in the game document and its history)"})
    links = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), metadata={
        "description": "schema: command/view JSON Schemas and event catalogue; data: static game data "
                       "(maps, card catalogues); rules: the rules document"})


class RulesetDescriptionSchema(Strict):
    commands = ma.fields.Dict(required=True, metadata={
        "description": "JSON Schema (2020-12) of every command: a oneOf discriminated by `type`, one $defs entry "
                       "per command with a description of it and of each argument; every legal move validates"})
    events = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True,
                            metadata={"description": "event type -> what it means"})
    event_data = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Dict(), required=True, metadata={
        "description": "event type -> JSON Schema (2020-12) of its `data` as the event's owner reads it: `secret` "
                       "is optional, since every other reader gets the event without it (the spec's <Game>Event)"})
    view = ma.fields.Dict(required=True, metadata={"description": "JSON Schema (2020-12) of the game's `view`"})


class RulesetDataSchema(Strict):
    ruleset = ma.fields.String(required=True)
    data = ma.fields.Dict(required=True, metadata={
        "description": "Static data from the data files the rules read (ruleset-specific; {} if none)"})


class RulesetListSchema(Strict):
    rulesets = ma.fields.List(ma.fields.Nested(RulesetSchema))


# ------------------------------------------------------------------- games
class SeatSpecSchema(Strict):
    kind = ma.fields.String(required=True, validate=validate.OneOf(SEAT_KINDS),
                            metadata={"description": "human: a token is issued now; bot: played by the workers; "
                                                     "open: anyone may claim it from the lobby"})
    level = ma.fields.String(validate=validate.Length(1, 32),
                             metadata={"description": "Bot level (see the ruleset's bot_levels); bots only"})
    name = SeatName()
    as_player = StrictBoolean(metadata={
        "description": "Bind this human seat to the calling player (their player key, or the app key with "
                       "X-Cartel-Player): it takes the player's name and is listed in their games"})

    @ma.validates_schema
    def level_only_for_bots(self, data, **kwargs):
        if "level" in data and data["kind"] != "bot":
            raise ma.ValidationError("only bot seats have a level", "level")
        if data.get("as_player") and data["kind"] != "human":
            raise ma.ValidationError("only a human seat is bound to a player", "as_player")


class ClockSpecSchema(Strict):
    move_seconds = ma.fields.Integer(validate=validate.Range(1, 7 * 24 * 3600),
                                     metadata={"description":
                                               "Time a human seat has for a turn (one stretch of moves)"})
    response_seconds = ma.fields.Integer(validate=validate.Range(1, 7 * 24 * 3600),
                                         metadata={"description":
                                                   "Time a human seat has to answer an out-of-turn window"})
    timeouts_before_bot = ma.fields.Integer(validate=validate.Range(1, 1000), load_default=3,
                                            metadata={"description":
                                                      "After this many expired clocks the seat is played by a bot"})
    bot_level = ma.fields.String(validate=validate.Length(1, 32),
                                 metadata={"description":
                                           "Level of the bot that takes over (default: the ruleset's first)"})


class ForkSpecSchema(Strict):
    game = ma.fields.String(required=True, validate=validate.Length(1, 64), metadata={
        "description": "The finished (or abandoned) game to fork"})
    version = ma.fields.Integer(required=True, strict=True, validate=validate.Range(1, 10_000_000), metadata={
        "description": "The position: the game as it stood after this event, between two commands of the game in "
                       "play (after its set-up, before its end)"})


class CreateGameSchema(Strict):
    ruleset = ma.fields.String(required=True, metadata={"example": "kingpin", "description": (
        "The game to play (GET /v1/rulesets); with `from`, the original's (another is refused: "
        "fork-ruleset-mismatch)")})
    fork = ma.fields.Nested(ForkSpecSchema, data_key="from", metadata={"description": (
        "Fork a finished game: start at its position after event `version`, with these seats (as many as it "
        "had), its ruleset (`ruleset` must name it), rules version and options, and every hidden part (hands, "
        "deck orders) dealt afresh from this game's own seed.  The history begins with ForkedFrom, which "
        "verification checks against the original's (docs/api.md \"Forking a finished game\").  A fork is "
        "never rated")})
    seats = ma.fields.List(ma.fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(1, 12))
    options = ma.fields.Dict(keys=ma.fields.String(), values=Free(), load_default=dict)
    seed = ma.fields.String(validate=validate.Length(1, 256), metadata={
        "description": "Fix the secret seed: refused (403 fixed-seed-not-allowed) unless the server's operator "
                       "allows it (ALLOW_FIXED_SEEDS, for tests and tournaments), and then recorded as "
                       "`seed_source: fixed` wherever the game is shown; default: 256 random bits the server draws"})
    clock = ma.fields.Nested(ClockSpecSchema, metadata={"description": "Turn clocks; none when omitted"})
    visibility = Visibility()  # no load_default: a `default` in the spec makes generated clients require it
    analysis = StrictBoolean(metadata={
        "description": "Let each seat ask POST /v1/analysis what the search bot weighs for its own seat while the "
                       "game is on (the analysis of a finished game is open to all).  Such a game is never rated. "
                       "Default: false"})
    contribution_seconds = ma.fields.Integer(strict=True, validate=validate.Range(0, 3600), metadata={
        "description": "How long the game waits, after its creation, for every human seat's entropy before it "
                       "starts without the missing ones (POST /v1/games/{id}/seats/{seat}/entropy; a claim may "
                       "carry it).  It starts as soon as no seat is open and every human seat has sent some. "
                       "0: it starts once no seat is open.  Default: the server's CONTRIBUTION_SECONDS (30)"})
    entropy = ma.fields.String(metadata={
        "deprecated": True,
        "description": "Refused (400 entropy-before-commitment): the server would see it before committing to "
                       "its seed.  Send your entropy after the creation, with your seat's token"})

    @ma.validates_schema
    def fork_options(self, data, **kwargs):
        if "fork" in data and data.get("options"):
            raise ma.ValidationError("a fork is played with its original's options: leave them out", "options")


class SeatSchema(Strict):
    seat = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True, validate=validate.OneOf(SEAT_KINDS))
    level = ma.fields.String()
    name = ma.fields.String()
    player = ma.fields.String(metadata={
        "description": "The id of the player the seat is bound to (its `name` is theirs); absent: anonymous"})


class IssuedSeatSchema(SeatSchema):
    token = ma.fields.String(metadata={"description": "Bearer token for this seat; shown once, stored hashed"})
    invitation = ma.fields.String(metadata={
        "description": "An unlisted or private table's open seat: its invitation token, shown once (it admits "
                       "its holder to read the table and claim this seat, once; see invitation_link)"})
    invitation_link = ma.fields.String(metadata={
        "description": "The game's URL with the invitation in its query: it reads the table; the same query on the "
                       "seat's claim takes the seat"})
    invitation_expires_at = ma.fields.Integer(metadata={"description": "When the invitation stops working (ms)"})


class ContributionsSchema(Strict):
    owed = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "The human seats whose entropy the game still waits for before it starts"})
    closes_at = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "When the window closes and the game starts without the missing ones (ms since the epoch)"})
    remaining_ms = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "closes_at less the server's clock when the document was made (for clients whose clock "
                       "differs)"})


def SeedSource() -> ma.fields.String:
    return ma.fields.String(validate=validate.OneOf(("server", "fixed")), metadata={
        "description": "server: the seed is 256 random bits the server drew; fixed: the creator chose it, under "
                       "the operator's setting for tests and tournaments, and could foresee every roll"})


def SeedCommitment() -> ma.fields.String:
    return ma.fields.String(metadata={"description": (
        "SHA-256 hex of the secret seed, published before any player's entropy could reach the server: keep it "
        "and compare it with the history's after the end (cartel verify --expect-commitment)")})


class CreatedGameSchema(Strict):
    id = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    status = Status()
    version = ma.fields.Integer(required=True)
    seed_commitment = SeedCommitment()
    seed_source = SeedSource()
    contributions = ma.fields.Nested(ContributionsSchema, allow_none=True, metadata={
        "description": "While the game waits for its human seats' entropy: who and until when; null otherwise"})
    seats = ma.fields.List(ma.fields.Nested(IssuedSeatSchema), required=True)
    visibility = Visibility()
    forked_from = ma.fields.Nested(ForkSpecSchema, metadata={
        "description": "A fork's original and the version it was forked at; absent for any other game"})


class GameSummarySchema(Strict):
    id = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(metadata={"description": "The rules version the game is played under"})
    status = Status()
    version = ma.fields.Integer(required=True)
    created_at = ma.fields.Integer(metadata={"description": "ms since the epoch"})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), metadata={
        "description": "Every seat: its kind, a bot's level, and the name its player chose (when one did)"})
    open_seats = ma.fields.List(ma.fields.Integer())
    options = ma.fields.Dict(metadata={
        "description": "The game's options, every one with its value (defaults filled in): see the ruleset's options"})
    clock = ma.fields.Dict(allow_none=True, metadata={
        "description": "The turn clock the game was created with (move_seconds, response_seconds, "
                       "timeouts_before_bot...), or null for none"})
    seed_source = SeedSource()
    visibility = Visibility()
    analysis = ma.fields.Boolean(metadata={
        "description": "Its seats may analyse their own seat while the game is on (POST /v1/analysis): never rated"})
    rematch_of = ma.fields.String(allow_none=True, metadata={
        "description": "The finished game this one plays again (a rematch every player of it asked for); null "
                       "otherwise"})


class LobbyQuerySchema(Strict):
    status = ma.fields.String(validate=validate.OneOf(STATUSES))
    ruleset = ma.fields.String(validate=validate.Length(1, 64))
    offset = ma.fields.Integer(load_default=0, validate=validate.Range(0, 10_000_000))
    limit = ma.fields.Integer(load_default=20, validate=validate.Range(1, 100))


class LobbySchema(Strict):
    games = ma.fields.List(ma.fields.Nested(GameSummarySchema))
    total = ma.fields.Integer()
    offset = ma.fields.Integer()
    limit = ma.fields.Integer()


class MoveSchema(ma.Schema):
    """A command: `type` plus the command's arguments (which ones: the ruleset's command schema)."""

    class Meta:
        unknown = INCLUDE

    type = ma.fields.String(required=True, metadata={"example": "RollDice"})

    @ma.post_dump(pass_original=True)
    def keep_arguments(self, data: dict, original: dict, **kwargs) -> dict:
        """Dump the move as it is: its arguments are undeclared fields, and a legal move is posted as-is."""
        return {**original, **data}


class TurnFields(Strict):
    """Whose turn it is and what the reader may send now (service/presenters.py turn_state): in every game
    document and every `turn` message of the live stream; required, so a generated client's fields are
    not optional."""

    you = ma.fields.Integer(required=True, allow_none=True,
                            metadata={"description": "The caller's seat; null for a spectator"})
    awaiting = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True, metadata={
        "description": "seat -> 'move' or 'response': who must act now.  JSON object keys are strings "
                       "(\"0\"); awaiting_seats has the same seats as integers, comparable with `you`"})
    awaiting_seats = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "The seats awaited now (the keys of awaiting as integers, ascending): "
                       "`you in awaiting_seats` says whether the reader must act"})
    simultaneous = ma.fields.Boolean(required=True, metadata={
        "description": "Several seats are awaited at once (a simultaneous phase, a window of answers): another "
                       "seat's move may overtake this message, so a command sent on it may meet a newer version "
                       "(409 with `still_legal`, or send `Prefer: handling=lenient`)"})
    controlled_by = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(
        validate=validate.OneOf(["human", "bot", "nobody"])), required=True, metadata={
        "description": "seat -> who sends its moves now: `human`, `bot` (from the start, or since its clock handed "
                       "it over) or `nobody` (an open seat)"})
    present = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "The seats with a live follower now (a stream read with that seat's token or ticket; "
                       "spectators do not count), ascending.  Not part of the game's history.  It lags: a "
                       "follower that left counts up to SSE_HEARTBEAT_SECONDS longer on the built-in hub and up "
                       "to twice GRIP_RECOVER_SECONDS behind Pushpin; a stream's `turn` message says it as of its "
                       "batch, the game document as it is read (docs/api.md, Presence)"})
    reclaim = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "When the reader's seat is played by a bot since its clock ran out: the path to POST to take "
                       "it back (the reader is offered no legal moves meanwhile); null otherwise"})
    clocks = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True,
                            metadata={"description": "seat -> deadline (ms since the epoch)"})
    clocks_remaining_ms = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True, metadata={
        "description": "seat -> the time left on its clock, ms: each deadline of `clocks` less the server's clock "
                       "when the document was made (for clients whose clock differs from the server's; 0 once "
                       "past)"})
    legal_moves = ma.fields.List(ma.fields.Nested(MoveSchema), required=True, metadata={
        "description": "Every command the caller may send now, each postable as-is (per ruleset, each validates "
                       "against GET /v1/rulesets/{name}/schema `commands`); empty when the caller is not "
                       "awaited, and for a spectator"})
    move_labels = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "A short label in the game's words for each legal move, in the same order: written from "
                       "the reader's view (it tells nothing the view does not), seats by the players' names, "
                       "cards and places by their printed names"})
    outcome = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "Once the game has ended: {winners, reason, text, ...}; an abandoned game's is "
                       '{"winners": [], "reason": "abandoned", "idle_seconds": N, "text": ...}. `text` says how it '
                       "ended in a sentence naming seats as the game does (\"Ana wins: reached 10 Victory Points on "
                       "their own turn.\"); `reason` is the rules' record, with seat numbers"})
    contributions = ma.fields.Nested(ContributionsSchema, required=True, allow_none=True, metadata={
        "description": "Before the start, while the game waits for its human seats' entropy: which seats and until "
                       "when (a client holding one of their tokens sends some: POST "
                       "/v1/games/{id}/seats/{seat}/entropy); null otherwise"})


class RematchSchema(Strict):
    asked = ma.fields.List(ma.fields.Integer(), required=True, metadata={"description": "The seats that asked"})
    game_id = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "The rematch, once every player asked; null until then"})


class GameSchema(GameSummarySchema, TurnFields):
    seed_commitment = SeedCommitment()
    seed = ma.fields.String(metadata={"description": "Revealed once the game is finished or abandoned"})
    rematch = ma.fields.Nested(RematchSchema, allow_none=True, metadata={
        "description": "After the end: who asked to play it again and, once every player did, the new game"})
    forked_from = ma.fields.Nested(ForkSpecSchema, allow_none=True, metadata={
        "description": "A fork of a finished game (POST /v1/games with `from`): the original and the version it "
                       "was forked at; null for any other game"})
    view = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "The game as the caller may see it: the game's <Game>View; null while seats are open",
        "anyOf": view_refs(RULESETS)})


class ClaimSeatSchema(Strict):
    name = SeatName()
    entropy = Entropy("The claiming seat's")


class ClaimedSeatSchema(Strict):
    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True)
    status = Status()
    version = ma.fields.Integer(required=True)
    seed_commitment = SeedCommitment()


class ContributeSchema(Strict):
    entropy = Entropy("Your seat's", required=True)


class ContributedSchema(Strict):
    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    status = Status()
    version = ma.fields.Integer(required=True)
    seed_commitment = SeedCommitment()
    contributions = ma.fields.Nested(ContributionsSchema, allow_none=True, metadata={
        "description": "Whose entropy the game still waits for; null once it has started"})


class ReclaimedSeatSchema(Strict):
    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True, metadata={"description": "human again"})
    status = Status()
    version = ma.fields.Integer(required=True)


class SeatActionSchema(Strict):
    """The answer to a seat's resign, abort, leave or rematch."""

    game_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    status = Status()
    version = ma.fields.Integer(required=True)
    outcome = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "Once the game is over ({winners, reason, text, ...}; `resigned` lists the seats that "
                       "resigned); null otherwise"})
    rematch = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "The rematch's game id once every player asked for it; null otherwise"})


# ----------------------------------------------------------- commands/events
class CommandSchema(ma.Schema):
    """`{"type": ..., ...args}` as listed in `legal_moves`; other fields are the command's arguments."""

    class Meta:
        unknown = INCLUDE

    type = ma.fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": "RollDice"})
    expected_version = ma.fields.Integer(validate=validate.Range(0, MAX_VERSION), metadata={
        "description": "Alternative to If-Match: the version the command was decided against"})


class NarrationRefSchema(Strict):
    """Something on the table a sentence touches, for a frontend to highlight."""

    kind = ma.fields.String(required=True, validate=validate.OneOf(REF_KINDS), metadata={
        "description": "seat, place (a board location), card or piece"})
    id = ma.fields.Raw(required=True, metadata={
        "oneOf": [{"type": "integer"}, {"type": "string"}],
        "description": "The id the views and commands use: a seat number, a card id; where a board has several "
                     "numberings of places, the numbering first (Lords of Cannabis: 'brick:5', "
                     "'intersection:12', 'path:30')"})
    text = ma.fields.String(required=True, metadata={"description": "How the sentence names it (a part of `text`)"})


class NarrationSchema(Strict):
    """An event as one sentence in the rulebook's words (rules/narration.py), written for the reader from the
    event as redacted for them: it tells nothing the `data` beside it does not."""

    text = ma.fields.String(required=True, metadata={
        "description": "One sentence with the seats' chosen names; no ids, JSON, epoch times or hashes",
        "example": "Ana sold 2 Hits to the $200 Junkie for $400."})
    refs = ma.fields.List(ma.fields.Nested(NarrationRefSchema), required=True, metadata={
        "description": "The seats, places, cards and pieces the sentence names, in its order"})


class EventSchema(Strict):
    version = ma.fields.Integer(required=True)
    type = ma.fields.String(required=True)  # in the spec: EventType (service/api/base.py)
    data = ma.fields.Dict(required=True, metadata={
        "description": "The event's own fields, redacted for the reader (`secret` only for whom it is meant): "
                       "<Game>Event declares them per event type, <Game>EventType's description says what each "
                       "type is about, `narration` says it in words"})
    narration = ma.fields.Nested(NarrationSchema, required=True, metadata={
        "description": "The event in words, for this reader (derived: a history's verification ignores it)"})
    actor = ma.fields.String(required=True, metadata={"description": "seat:N, bot:N, clock:N or system"})
    at = ma.fields.Integer(required=True, metadata={"description": "server time, ms since the epoch"})
    command_id = ma.fields.String()
    schema = ma.fields.Integer()


class TurnStateSchema(TurnFields):
    """The live stream's `turn` message: where the game stands after a batch of events."""

    ruleset = ma.fields.String(required=True, metadata={
        "description": "The game's ruleset, as in the game document: narrow on it to type legal_moves and outcome"})
    version = ma.fields.Integer(required=True, metadata={
        "description": "The game's version this state is at: post a legal move with If-Match set to it"})
    status = Status()


class StreamEndSchema(Strict):
    """The live stream's `end` message: the game is over (the stream closes after it)."""

    status = Status()
    version = ma.fields.Integer(required=True, metadata={"description": "The game's last version"})
    outcome = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "{winners, reason, text, ...}, as in the game document"})


class CommandResultSchema(Strict):
    version = ma.fields.Integer(required=True, metadata={"description": "The game's version after the command"})
    status = Status()
    duplicate = ma.fields.Boolean(required=True, metadata={
        "description": "True when this Idempotency-Key was seen before: the original answer, nothing appended"})
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)


class EventsQuerySchema(Strict):
    after = ma.fields.Integer(load_default=0, validate=validate.Range(0, MAX_VERSION))
    limit = ma.fields.Integer(load_default=100, validate=validate.Range(1, 500))
    ticket = ma.fields.String(validate=validate.Length(1, 128), metadata={
        "description": "A stream ticket (POST /v1/games/{id}/tickets) instead of the Authorization header, for a "
                       "browser's EventSource, which cannot send headers: reads the feed as the ticket's seat"})


class TicketSchema(Strict):
    ticket = ma.fields.String(required=True, metadata={"description": "Pass as ?ticket= on the events endpoint"})
    seat = ma.fields.Integer(required=True)
    expires_at = ma.fields.Integer(required=True, metadata={"description": "ms since the epoch; connect before"})
    remaining_ms = ma.fields.Integer(required=True, metadata={
        "description": "expires_at less the server's clock when the ticket was made: the time left, for clients "
                       "whose clock differs from the server's"})


class EventsPageSchema(Strict):
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "The game's current version"})
    next_after = ma.fields.Integer(required=True, metadata={"description": "Pass as `after` for the next page"})
    has_more = ma.fields.Boolean(required=True)


class StateQuerySchema(Strict):
    version = ma.fields.Integer(validate=validate.Range(0, MAX_VERSION),
                                metadata={"description": "Default: the latest"})


class StateSchema(Strict):
    version = ma.fields.Integer(required=True)
    view = ma.fields.Dict(allow_none=True, metadata={"description": "The caller's view at that version"})
    state = ma.fields.Dict(allow_none=True, metadata={
        "description": "The full state: only once the game is finished or abandoned"})


class MismatchSchema(Strict):
    field = ma.fields.String(required=True, metadata={
        "description": "The header's field: game_id, last_version, outcome, seats or options"})
    # any JSON value, null included (an empty schema: OpenAPI 3.0's `nullable` needs a type beside it)
    header = ma.fields.Raw(metadata={"description": "What the header records (any JSON value, or null)"})
    events = ma.fields.Raw(metadata={"description": "What the events give (any JSON value, or null)"})


class BotMovesSchema(Strict):
    recorded = ma.fields.Integer(required=True, metadata={"description": "Bot moves in the history (format 5)"})
    rederived = ma.fields.Integer(required=True, metadata={
        "description": "Re-run from the seat's view and the bot key, each giving the recorded command"})
    not_rerun = ma.fields.Integer(required=True, metadata={
        "description": "Moves of a search level, not re-run here (costly: `cartel verify --offline --bots all`)"})
    other_revision = ma.fields.Integer(required=True, metadata={
        "description": "Moves chosen by a revision of the bots this server does not have"})
    cut = ma.fields.Integer(required=True, metadata={
        "description": "Moves the safety time limit cut: the random level's move was played (and re-run)"})


class ReplayResultSchema(Strict):
    valid = ma.fields.Boolean(required=True, metadata={
        "description": "Every event re-derives from the revealed seed, and the header says nothing the events "
                       "contradict (a prefix of a game can be valid)"})
    complete = ma.fields.Boolean(required=True, metadata={
        "description": "Valid, and the events reach the game's end: the header's last version and recorded outcome"})
    events = ma.fields.Integer(required=True, metadata={"description": "How many events were checked"})
    draws = ma.fields.Integer(required=True, metadata={
        "description": "How many recorded draws (format 5: each draw call's [label, [[bound, value], ...]]; format "
                       "4: each command's [bound, value] pairs; docs/fairness.md) were checked against their "
                       "streams; 0 for formats 1 to 3, which record none"})
    bot_moves = ma.fields.Nested(BotMovesSchema, metadata={
        "description": "The recorded bot moves (format 5) and how many verification re-ran from their seat's view "
                       "and the bot key (rules/bot_seat.py); a re-run that differs makes the history not valid"})
    seed_source = ma.fields.String(allow_none=True, metadata={
        "description": "Who chose the seed (GameCreated): server, or fixed (the creator, under the operator's "
                       "setting for tests and tournaments: they could foresee every roll; the summary says so)"})
    diverged_at = ma.fields.Integer(allow_none=True, metadata={"description": "First version that does not verify"})
    reason = ma.fields.String(allow_none=True, metadata={
        "description": "Why it is not valid, or (valid) why it is not complete; null when it is both"})
    summary = ma.fields.String(required=True, metadata={
        "description": "The verdict in one sentence that says both: valid or not, complete or not"})
    mismatches = ma.fields.List(ma.fields.Nested(MismatchSchema), required=True, metadata={
        "description": "Each header field that differs from what the events give (last_version alone, the "
                       "events stopping before it: a prefix, valid but not complete; any other: not valid)"})
    unvouched = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "What the header cannot vouch for: game_id in formats 1 and 2 (their events do not "
                       "carry it), last_version or outcome where the header lacks them"})
    format = ma.fields.String(allow_none=True, metadata={"description": "The history's format, from its header"})
    ruleset = ma.fields.String(allow_none=True)
    outcome = ma.fields.Dict(allow_none=True, metadata={"description": "The outcome the events lead to"})
    version = ma.fields.Integer(metadata={"description": "With ?version=N: the version `state` and `view` are at"})
    state = ma.fields.Dict(allow_none=True, metadata={
        "description": "With ?version=N: the game's full state after event N (the history is a finished game's)"})
    view = ma.fields.Dict(allow_none=True, metadata={"description": "With ?version=N: the spectator's view then"})


class ReplayQuerySchema(Strict):
    version = ma.fields.Integer(validate=validate.Range(0, MAX_VERSION), metadata={
        "description": "Also return the game's state and view after this event (time travel through an uploaded "
                       "history); 422 if the history does not verify that far"})
    expect_commitment = ma.fields.String(validate=validate.Regexp(r"^[0-9a-fA-F]{64}$"), metadata={
        "description": "The seed commitment you were shown when the game was created or your seat joined (64 hex "
                       "digits): a history that commits to another seed is not valid, however well it re-derives "
                       "(a forger can re-seed a whole game and recompute every draw)"})


class HealthSchema(Strict):
    status = ma.fields.String(required=True)
    checks = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String())


# ---------------------------------------------------------------- chat (issue 36 item 3)
CHAT_MAX = 500
CHAT_RULES = (f"1 to {CHAT_MAX} characters on one line, not only spaces; no control characters (newlines "
              "included), no format characters (bidi embeddings, overrides and isolates, invisible marks; the "
              "zero-width joiner and non-joiner are allowed), no lone surrogates")
CHAT_CHANNELS = ("seats", "spectators")
CHAT_ID = r"[0-9]{1,20}-[0-9]{1,20}"


def check_chat_text(text: str) -> None:
    check_display_name(text, "chat messages", CHAT_RULES)


def check_chat_id(value: str) -> None:
    """A chat message's id is a Redis stream id: two integers each below 2^64 ("<ms>-<n>")."""
    if not re.fullmatch(CHAT_ID, value) or any(int(part) >= 2**64 for part in value.split("-")):
        raise ma.ValidationError('a chat message id is "<ms>-<n>", two integers each below 2^64')


class ChatPostSchema(Strict):
    text = ma.fields.String(required=True, validate=[validate.Length(1, CHAT_MAX), check_chat_text],
                            metadata={"description": f"The message: {CHAT_RULES}"})
    name = ma.fields.String(validate=[validate.Length(1, NAME_MAX), check_display_name], metadata={
        "description": f"A spectator's display name ({NAME_RULES}; default \"spectator\"); a seat speaks under "
                       "its seat's name and may not send one"})


class ChatMessageSchema(Strict):
    """One chat message: an item of the chat page, and the data of the live stream's `chat` message."""

    id = ma.fields.String(required=True, metadata={
        "description": "Its id in its channel, ascending (\"<ms>-<n>\"): pass as `after` to read what follows"})
    channel = ma.fields.String(required=True, validate=validate.OneOf(CHAT_CHANNELS))
    seat = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that said it; null for a spectator"})
    name = ma.fields.String(required=True, metadata={"description": "The seat's name, or the spectator's"})
    text = ma.fields.String(required=True)
    at = ma.fields.Integer(required=True, metadata={"description": "When the server took it, ms since the epoch"})


class ChatQuerySchema(Strict):
    channel = ma.fields.String(validate=validate.OneOf(CHAT_CHANNELS), metadata={
        "description": "Which channel: by default the caller's own (`seats` with a seat token, `spectators` "
                       "without); the other is readable once the game has ended"})
    after = ma.fields.String(load_default="0-0", validate=check_chat_id, metadata={
        "description": "The id of the last message read (default: from the first)"})
    limit = ma.fields.Integer(load_default=100, validate=validate.Range(1, 500))


class ChatPageSchema(Strict):
    channel = ma.fields.String(required=True, validate=validate.OneOf(CHAT_CHANNELS))
    messages = ma.fields.List(ma.fields.Nested(ChatMessageSchema), required=True)
    next_after = ma.fields.String(required=True, metadata={"description": "Pass as `after` for the next page"})
    has_more = ma.fields.Boolean(required=True)
