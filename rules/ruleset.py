"""The ruleset contract: every hook a game writes, with its default, and nothing else.

A game subclasses `Ruleset` and declares its identity and table (name ... options), its commands,
handlers and evolvers (one per event type), and the hooks whose default does not fit; it must
provide the hooks marked `@required`.  `contract()` lists the contract; docs/adding-a-game.md names
every entry.  What the base does with these hooks (deciding in one order, `settle`, folding, the
legal-move memo, versions, setup, bot levels) is rules/machinery.py's, final: a subclass that
overrides one of its methods is refused when the class is made, as a class whose handlers do not
match its commands, or whose capabilities and hooks disagree, is.

Nothing outside the base asks whether a ruleset has a hook: a ruleset from outside the package that
does not subclass this one is adopted at registration (`adopt`: its own hooks, these defaults for
the rest).  The table checks are rules/table_checks.py, the bot levels' syntax
rules/levels.py, the write path of evolvers rules/folding.py.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from rules import describe, folding, narration
from rules.base import Event, IllegalMove, Option, Rng
from rules.levels import MAX_SEARCH_ITERATIONS, SEARCH_LEVEL, check_bot_level, is_search_level, split_level
from rules.machinery import PROBE, Machinery, machinery, required
from rules.search.ismcts import SearchSettings
from rules.table_checks import check_options, table_checks

Handler = Callable[[dict, int, dict, Rng], list[Event]]
Evolver = folding.Evolver  # evolver(state, data, own) -> state: rules/folding.py


class Ruleset(Machinery):
    """The one ruleset contract: every hook a game may provide, declared here with its default.

    A game subclasses it and declares: its identity and table (name ... options), its commands,
    handlers and evolvers, and the hooks whose default does not fit.  It must provide `opening`,
    `legal_moves`, `awaiting`, `timeout_default`, `view`, `outcome` and `choose_bot_move`; every
    other hook has a default.  The methods it inherits from `Machinery` are the base's: final.
    """

    # -- identity, table and capabilities (data) ------------------------------
    name: str  # the registry key and the API's ruleset name ("kingpin")
    title: str  # the game's name as people write it
    noun: str  # how refusals name the game ("unknown Kingpin command")
    min_seats: int
    max_seats: int
    bot_levels: tuple = ("random",)  # the bot levels a seat may be given; "ismcts" adds the generic search
    options: Mapping[str, Option] = {}  # what a table may set at creation, with defaults and choices
    # Released versions of the rules, (number, what changed), oldest first.  A game is played under
    # the version it was created with, for ever (its first event records it, absent meaning 1), so
    # an old history keeps verifying; rules that changed branch on rules_version(state).
    versions: tuple = ((1, "as first released"),)
    rules_version: int | None = None  # the version this instance plays; None: the latest (see `at`)
    # Capability: some of the state is not every seat's to read (hands, deck orders).  A game that
    # says so overrides `determinize`, and only such a game may (checked when the class is made).
    hidden_information: bool = False

    # -- commands and events (data) ---------------------------------------------
    commands: Mapping[str, Mapping[str, str]] = {}  # command type -> {argument: kind} (rules.base.ARG_KINDS)
    handlers: Mapping[str, Handler] = {}  # command type -> handler(state, seat, command, rng) -> events
    evolvers: Mapping[str, Evolver] = {}  # event type -> evolver(state, data) -> new state
    first_event = "GameStarted"  # the type of every game's first event (it carries rules_version)
    setup_rule = "setup"  # named when a command arrives before setup
    turn_rule = "turn order"  # named when a seat with nothing to answer is timed out
    rule_of_command: Mapping[str, str] = {}  # named when a refused command's handler gives no reason
    # command type -> arguments a legal-move list cannot enumerate (an offer's terms): a command is
    # legal when a listed move of its type agrees on every other argument, and its handler checks these
    open_arguments: Mapping[str, frozenset] = {}
    # Self-description (rules/describe.py, served by GET /v1/rulesets/{name}/schema): one line per
    # command and argument, one per event type, and the JSON Schema of `view`.  Optional.
    command_docs: Mapping[str, tuple[str, Mapping[str, str]]] = {}  # type -> (description, {arg: description})
    event_docs: Mapping[str, str] = {}  # event type -> description
    # event type -> JSON Schema of its `data` as the event's owner reads it (`secret` optional: others get it
    # without); rules/describe.py's helpers.  Undeclared: {} (any object)
    event_schemas: Mapping[str, Mapping[str, Any]] = {}
    view_schema: Mapping[str, Any] = {}  # JSON Schema of view(state, seat); {} = undeclared
    # JSON Schema of outcome(state) once over (often the ending event's data); {} = undeclared: the
    # contract's {"winners", "reason", ...} (rules/describe.py outcome_schema)
    outcome_schema: Mapping[str, Any] = {}
    # "argument" or "Command.argument" -> every value it may ever take (a weight type, a route): an
    # `enum` in the command schemas, so a generated client refuses "plutonium" before sending it.
    # Only values fixed by the game's data; the more specific key wins.  Optional.
    argument_values: Mapping[str, tuple] = {}
    # event type -> narrator(data as the reader may read it, names) -> {"text", "refs"} (rules/narration.py):
    # every event type a ruleset emits has one (tests/rules/test_narration.py)
    narrations: Mapping[str, narration.Narrator] = {}

    # -- secrets (data; the hooks are view, visible_to and hidden_from) ------------
    # event types whose data["secret"] only the event's own `seat` may read (see visible_to)
    secret_to_seat: frozenset = frozenset()

    # -- folding (data; the machinery is rules/folding.py) ------------------------------
    # Every evolver is evolver(state, data, own) -> state and changes the state it is given: `evolve` and
    # a short fold hand it a copy-on-write state, a long fold (`clone_after` events or more) one clone.
    shared_in_clone: frozenset = frozenset()  # top-level keys no evolver ever changes (a catalogue): never cloned
    # A fold of fewer events from an existing state copies on write (only what they change, once); from
    # this many on, one clone of the whole state and changes in place cost less.
    clone_after = 64

    # -- what happens by itself (data; the hook is `step`) ---------------------------
    # The bound on `settle`: a flow that takes more automatic steps than this is a bug, not a game.
    max_automatic_steps = 10_000

    # -- the search bot (data; the hooks are determinize, evaluate, turn_holder, search_moves)
    search_settings: SearchSettings = SearchSettings()
    # The settings of earlier bots revisions (rules/bot_seat.py BOTS_REVISION) whose search chose otherwise
    # than `search_settings` does, by revision: a history's moves of that revision re-run with them.  A
    # revision not named here searched as `search_settings` does (tests/rules/test_bot_revision.py keeps both).
    search_revisions: Mapping[int, SearchSettings] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # the machinery's: nothing of it overridden; legal_moves remembered
        if "handlers" in cls.__dict__ and set(cls.handlers) != set(cls.commands):
            raise TypeError(f"{cls.__name__}: every command type needs exactly one handler "
                            f"(missing: {sorted(set(cls.commands) - set(cls.handlers))}, "
                            f"extra: {sorted(set(cls.handlers) - set(cls.commands))})")
        if cls.hidden_information != (cls.determinize is not Ruleset.determinize):
            raise TypeError(f"{cls.__name__}: a game with hidden information overrides determinize, "
                            f"and only such a game (hidden_information = {cls.hidden_information})")
        if cls.search_settings.rollout_rounds and cls.turn_holder is Ruleset.turn_holder:
            raise TypeError(f"{cls.__name__}: a search horizon in rounds (rollout_rounds) needs a turn_holder")

    # -- setting up ----------------------------------------------------------
    @required
    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """The game's opening events for checked options (GameStarted first; deals and shuffles use `rng`)."""
        raise NotImplementedError

    # -- commands ------------------------------------------------------------
    def normalize(self, state: Any, seat: int, cmd: dict) -> dict:
        """A well-formed command in the one spelling `legal_moves` lists (e.g. a set in order)."""
        return cmd

    def is_legal(self, state: Any, seat: int, cmd: dict) -> bool:
        """Listed among the seat's legal moves (open arguments aside).  A game may override it with a
        check that does not build the list (Druglord's move families), answering exactly the same:
        tests/rules/test_fast_legality.py holds every override to this one.  `decide` asks it only
        when this thread does not remember the seat's moves for this state (rules/memo.py)."""
        return self._lists(self.listed_moves(state, seat), cmd)

    def refusal(self, state: Any, seat: int, cmd: dict, handler: Handler) -> IllegalMove:
        """Why a command that is not legal now is refused: its handler's own IllegalMove, else a
        generic one.  Only IllegalMove is caught: any other exception is a bug and surfaces."""
        try:
            handler(state, seat, cmd, Rng(PROBE, 0))
        except IllegalMove as reason:
            return reason
        return IllegalMove(f"{cmd['type']} with these arguments is not one of your legal moves now",
                           rule=self.rule_of_command.get(cmd["type"], self.turn_rule))

    def seat_count(self, state: Any) -> int:
        """How many seats the game in `state` is played by."""
        return state["seats"]

    # -- what happens by itself ---------------------------------------------------
    def step(self, state: Any, rng: Rng) -> list[Event]:
        """The next automatic events (a reveal, a roll nobody sways, a turn's end, a win), or []
        when a seat must decide.  A game declares its steps here; the machinery's `settle` runs them."""
        return []

    # -- who acts ------------------------------------------------------------
    @required
    def legal_moves(self, state: Any, seat: int) -> list[dict]:
        """Every command `seat` may send now, each postable as-is ([] when it has nothing to do).  A game
        writes it pure, a new list each call; the base remembers its answer for the state last asked
        in each thread (rules/memo.py) and hands every caller its own copy."""
        raise NotImplementedError

    @required
    def awaiting(self, state: Any) -> dict[int, str]:
        """Who must act now: {seat: "move" | "response"} ({} once the game is over)."""
        raise NotImplementedError

    @required
    def timeout_default(self, state: Any, seat: int) -> dict:
        """What an awaited seat does when its clock runs out (pass, no sway, ...), a legal move."""
        raise NotImplementedError

    # -- reading and secrets -------------------------------------------------------
    @required
    def view(self, state: Any, seat: int | None) -> dict:
        """What `seat` (None: a spectator) may see of the table: the secrets hook for states."""
        raise NotImplementedError

    def visible_to(self, event: Event) -> str | set:
        """Who may read `data["secret"]` of an event (the rest of it is public): its `seat` for the
        types in `secret_to_seat` (a draw, a hand, a secret choice), nobody for any other secret (a
        deck's order)."""
        if "secret" not in event.data:
            return "public"
        if event.type in self.secret_to_seat:
            return {event.data["seat"]}
        return set()

    def hidden_from(self, state: Any, seat: int) -> list:
        """Values in the state `seat` may not read before the end although no single field holds
        them (a deck's order); tests/service/test_secrecy_by_resampling.py resamples them (`determinize`)."""
        return []

    @required
    def outcome(self, state: Any) -> dict | None:
        """None while the game goes on, else {"winners": [seats], "reason": str, ...}."""
        raise NotImplementedError

    def invariants(self, state: Any) -> list[str]:
        """What is wrong with a state (money, cards or pieces not conserved); [] when all holds."""
        return []

    def label(self, view: Mapping[str, Any], seat: int, move: Mapping[str, Any],
              names: narration.Names = narration.Names()) -> str:
        """A short label of one of `seat`'s legal moves in the game's words, written from `view` (the seat's
        `view(state, seat)`, never the true state: a label can tell no more than the seat may read) and
        `names` (seats by the players' names, as narration names them; never a seat number or a card id).
        Default: from command_docs.  rules/describe.py `move_labels` is the one caller's way in."""
        return describe.generic_label(self, move)

    def narrate(self, event: Event, names: narration.Names) -> narration.Narration:
        """One sentence in the rulebook's words for `event`, whose data is already redacted for its reader
        (so the sentence can tell nothing the reader may not read), with refs to what it touches."""
        narrator = self.narrations.get(event.type)
        if narrator is None:
            return narration.generic(event.type, event.data, names)
        return narrator(event.data, names)

    def static_data(self) -> dict:
        """The game's static data (map, card catalogue) from the data files the rules read; {} if none."""
        return {}

    # -- bots ----------------------------------------------------------------
    @required
    def choose_bot_move(self, state: Any, seat: int, level: str, rng: Rng) -> dict:
        """The move of one of the game's own bot levels (every level but the search, which the
        machinery's `bot_move` runs)."""
        raise NotImplementedError

    # -- search (rules/search; its settings are `search_settings`) -------------
    def determinize(self, state: Any, seat: int | None, rng: Rng) -> Any:
        """A full state consistent with everything `seat` may know, its hidden parts resampled
        (the same `view(..., seat)`).  This default is for games without hidden information: the
        state itself.  A game with hidden information (hands, deck orders) must override it."""
        return state

    def evaluate(self, state: Any) -> list[float] | None:
        """Per-seat shares of a win (summing to 1) for a game not over, scoring a search's truncated
        playout; None: equal shares.  A game overrides it with its scores, money or points."""
        return None

    def turn_holder(self, state: Any) -> Any:
        """Whose turn it is, as any value that changes exactly when a turn ends: a search with
        `rollout_rounds` counts its horizon in turns by it.  None: the game does not say."""
        return None

    def search_moves(self, state: Any, seat: int, moves: list[dict]) -> list[dict]:
        """The legal moves (`moves`, non-empty) a search considers: by default all of them; a game
        may drop moves that only repeat what the table just refused (a declined offer made again)."""
        return moves


RulesetBase = Ruleset  # the contract's name before issue 35, for rulesets written against it


def contract() -> list[str]:
    """Every hook and declaration a game may write: Ruleset's own public names (the docs list them all;
    the machinery's are rules.machinery.machinery())."""
    names = set(vars(Ruleset)) | set(Ruleset.__annotations__)
    return sorted(name for name in names if not name.startswith("_"))


def required_hooks() -> list[str]:
    """The hooks every game writes (marked `@required`)."""
    return sorted(name for name, hook in vars(Ruleset).items() if getattr(hook, "__required__", False))


# -- a ruleset from outside the package ---------------------------------------------------------
class Adopted(Ruleset):
    """A ruleset from outside the package that does not subclass `Ruleset` (a third-party game, the
    engine's test game), adopted when it is registered, like boardgame.io's ProcessGameConfig: its own
    hooks, the contract's defaults for the rest, and its own Decider's machinery (`setup`, `decide`,
    `evolve`, ...): it decides with its own `decide` (the base's order needs declared handlers) and
    folds by its own `evolve`.  Set on the instance, once: the class overrides nothing of the machinery."""

    def __init__(self, foreign: Any):
        self.foreign = foreign
        for name in contract() + machinery():
            if name != "version" and hasattr(foreign, name):  # the one place a ruleset is probed
                setattr(self, name, getattr(foreign, name))
        if not hasattr(foreign, "noun"):
            self.noun = foreign.title
        self.decide_and_apply, self.fold = self._decide_then_fold, self._evolve_each

    def _decide_then_fold(self, state: Any, seat: int, command: Any, rng: Rng) -> tuple[list[Event], Any]:
        events = self.decide(state, seat, command, rng)
        return events, self.fold(state, events)

    def _evolve_each(self, state: Any, events: Iterable[Event]) -> Any:
        """Its own `evolve`, event by event (its evolvers, if it has any, are its own business)."""
        for event in events:
            state = self.evolve(state, event)
        return state


_ADOPTED: dict[int, tuple[Any, Adopted]] = {}  # id(foreign) -> (foreign, kept alive; its adoption)


def adopt(ruleset: Any) -> Ruleset:
    """The ruleset as a Ruleset: itself when it is one, else its one `Adopted` wrapper."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    entry = _ADOPTED.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        entry = _ADOPTED[id(ruleset)] = (ruleset, Adopted(ruleset))
    return entry[1]


def latest_version(ruleset: Any) -> int:
    """The version new games of `ruleset` are created under (1 for a ruleset without versions)."""
    return adopt(ruleset).version


def ruleset_at(ruleset: Any, version: Any) -> Ruleset:
    """The ruleset as it plays at `version`; BadCommand for a version it never had."""
    return adopt(adopt(ruleset).at(version))


# The table checks and the bot levels' syntax are modules of their own; the engine's modules still import
# these from here.
__all__ = ["MAX_SEARCH_ITERATIONS", "SEARCH_LEVEL", "Adopted", "Evolver", "Handler", "Ruleset", "RulesetBase", "adopt",
           "check_bot_level", "check_options", "contract", "is_search_level", "latest_version", "required_hooks",
           "ruleset_at", "split_level", "table_checks"]
