"""The ruleset base: what every game repeats, written once.

A game subclasses `RulesetBase` and declares its commands (shapes), their
handlers, its evolvers (one per event type), options, seat counts and bot
levels, and its automatic steps; the base owns the order every command goes through:

    shape (BadCommand, 400) -> seat -> normalize -> legality (IllegalMove, 422) -> handler -> settle

and the one bounded loop (`settle`) that runs a game's automatic steps after setup and after
every command.  `RulesetBase` declares every hook a ruleset may provide, with its default: it is
the contract (`contract()` lists it; docs/adding-a-game.md names every entry).

A command that is not among the seat's `legal_moves` is refused; its handler is
asked for the reason (it raises IllegalMove naming the rule).  Any other
exception from a handler is a bug and is never swallowed, so fuzzers see it.

`table_checks` is the one place that checks a table against what a ruleset
declares (seat count, options, bot levels): the engine calls it when a game is
created, and `setup` calls it for a direct caller.  It works on any object with
the declared attributes, so third-party rulesets that do not subclass the base
are checked the same way; the engine `adopt`s those (the base's defaults for
the hooks they lack), so nothing else ever asks whether a ruleset has a hook.
"""
from __future__ import annotations

import copy
import reprlib
from typing import Any, Callable, Iterable, Mapping

from rules import describe, narration
from rules.base import BadCommand, Event, IllegalMove, Option, Rng, Ruleset, normalize_options, validate_command
from rules.search import ismcts
from rules.search.ismcts import SearchSettings

Handler = Callable[[dict, int, dict, Rng], list[Event]]
Evolver = Callable[[Any, Mapping[str, Any]], dict]
PROBE = "ruleset-explain"  # the rng a refused command's handler is asked with: its rolls are thrown away


# ------------------------------------------------------------- table checks
def check_options(ruleset: Any, options: Any) -> dict:
    """The options with defaults filled in; BadCommand for a non-object, unknown option or bad value."""
    if options is not None and not isinstance(options, Mapping):
        raise BadCommand(f"options must be a JSON object, not {options!r}", rule="options")
    return normalize_options(ruleset.options, options)


def check_seat_count(ruleset: Any, seats: Any) -> None:
    """BadCommand unless `seats` is a seat count the ruleset is played with."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not ruleset.min_seats <= seats <= ruleset.max_seats:
        raise BadCommand(f"{ruleset.title} is played by {ruleset.min_seats} to {ruleset.max_seats} seats, "
                         f"not {seats!r}", rule="players")


def check_bot_level(ruleset: Any, level: Any, what: str = "bot level") -> None:
    """BadCommand unless `level` is one of the ruleset's bot levels, or a search level with its
    iteration budget ("ismcts:500") where the ruleset offers that search."""
    base, budget = split_level(level)
    if base not in ruleset.bot_levels or (budget is not None and base != SEARCH_LEVEL):
        raise BadCommand(f"unknown {what} {level!r}; levels: {', '.join(ruleset.bot_levels)}"
                         f"{_SEARCH_HINT if SEARCH_LEVEL in ruleset.bot_levels else ''}", rule="bots")
    if budget is not None and not (isinstance(budget, int) and 1 <= budget <= MAX_SEARCH_ITERATIONS):
        raise BadCommand(f"{what} {level!r}: the search budget must be a whole number of iterations "
                         f"from 1 to {MAX_SEARCH_ITERATIONS}", rule="bots")


# The search bot (rules/search/ismcts.py): level "ismcts" searches the game's served budget a move (its
# search_settings.iterations), "ismcts:N" searches N.  A level names its budget in iterations, not seconds,
# so the move it picks is a function of the seat's view and the bot key (the worker may still cut a search
# short as a safety: service/jobs.py BOT_MOVE_SECONDS).
SEARCH_LEVEL = "ismcts"
MAX_SEARCH_ITERATIONS = 100_000
_SEARCH_HINT = f" ({SEARCH_LEVEL}:N for a search of N iterations a move)"


def split_level(level: Any) -> tuple[Any, int | str | None]:
    """("ismcts", 500) for "ismcts:500"; (level, None) for a level without a budget; the budget is
    returned as given (a string) when it is not a whole number, for check_bot_level to refuse."""
    if not isinstance(level, str) or ":" not in level:
        return level, None
    base, _, budget = level.partition(":")
    return base, int(budget) if budget.isdigit() and len(budget) <= 7 else budget


def is_search_level(level: Any) -> bool:
    return split_level(level)[0] == SEARCH_LEVEL


def table_checks(ruleset: Any, seats: int, options: Any, bot_levels: Iterable[Any] = (),
                 clock_bot_level: Any = None) -> dict:
    """Everything a new table must satisfy (seat count, the seats' bot levels, the level a
    timed-out seat is handed to, options); returns the normalized options."""
    check_seat_count(ruleset, seats)
    for level in bot_levels:
        check_bot_level(ruleset, level)
    if clock_bot_level is not None:
        check_bot_level(ruleset, clock_bot_level, "clock.bot_level")
    return check_options(ruleset, options)


# ------------------------------------------------------------------ evolving
def evolve_by_type(evolvers: Mapping[str, Evolver], noun: str, state: Any, event: Event,
                   first_event: str = "GameStarted") -> Any:
    """Apply one event with the evolver of its type; the evolver reads the data and never changes it.
    The first event's `rules_version` (absent: 1) is kept in the state, for the rules that branch on it."""
    evolver = evolvers.get(event.type)
    if evolver is None:
        raise ValueError(f"unknown {noun} event {event.type!r}")
    if state is None and event.type != first_event:
        raise ValueError(f"the first {noun} event must be {first_event}")
    new = evolver(state, event.data)
    if event.type == first_event and isinstance(new, dict):
        new["rules_version"] = event.data.get("rules_version", 1)
    return new


# ---------------------------------------------------------------- versions
def rules_version(state: Mapping[str, Any]) -> int:
    """The version of the rules a game is played under (see RulesetBase.versions)."""
    return state.get("rules_version", 1)


def latest_version(ruleset: Any) -> int:
    """The version new games of `ruleset` are created under (1 for a ruleset without versions)."""
    return adopt(ruleset).version


def ruleset_at(ruleset: Any, version: Any) -> RulesetBase:
    """The ruleset as it plays at `version`; BadCommand for a version it never had."""
    return adopt(adopt(ruleset).at(version))


def evolve_all(evolvers: Mapping[str, Evolver], noun: str, state: Any, events: Iterable[Event],
               first_event: str = "GameStarted") -> Any:
    """The state after `events`, each applied by `evolve_by_type`: for a rule that must read the
    state part-way through its own events (a game's modules have its evolvers, not its ruleset)."""
    for event in events:
        state = evolve_by_type(evolvers, noun, state, event, first_event)
    return state


def copy_containers(state: dict, *keys: str) -> dict:
    """A shallow copy of `state` with the named top-level containers copied too (evolve never mutates)."""
    new = dict(state)
    for key in keys:
        value = new[key]
        new[key] = dict(value) if isinstance(value, dict) else list(value)
    return new


# --------------------------------------------------------- folding in place
# A long fold (loading a game without a snapshot, a history's state at a version) cannot afford a
# copy of the state per event.  A ruleset opts in with `evolves_in_place = True`: each of its
# evolvers takes a third argument, `owned` (default False).  `evolve` calls it without, and the
# evolver copies what the event changes, exactly as before; `fold` first makes the state its own
# (a clone, or nothing to copy when it starts from None) and calls every evolver with owned=True,
# which skips those copies and changes the private state in place.  One evolver per event type.
def clone_state(value: Any) -> Any:
    """A copy of a JSON-like value in which every dict and list is new (strings, numbers, tuples shared)."""
    kind = type(value)
    if kind is dict:
        return {key: clone_state(item) if type(item) in _CONTAINERS else item for key, item in value.items()}
    if kind is list:
        return [clone_state(item) if type(item) in _CONTAINERS else item for item in value]
    return value


_CONTAINERS = (dict, list)


def fold_in_place(evolvers: Mapping[str, Callable[..., Any]], noun: str, state: Any, events: Iterable[Event],
                  first_event: str = "GameStarted") -> Any:
    """`evolve_by_type` for each event with owned=True: `state` (None, or a state the caller owns,
    e.g. a clone) is changed in place and returned."""
    # The loop is the whole cost of a long fold: one lookup and one call per event.  The checks
    # evolve_by_type makes per event are hoisted: the first event's (state None) before the loop,
    # the first event type's rules_version in a wrapper, an unknown type when the lookup fails.
    table = dict(evolvers)
    started = table.get(first_event)
    if started is not None:
        def start(old: Any, data: Mapping[str, Any], owned: bool) -> Any:
            new = started(old, data, owned)
            if isinstance(new, dict):
                new["rules_version"] = data.get("rules_version", 1)
            return new
        table[first_event] = start
    events = iter(events)
    event = None
    try:
        if state is None:
            for event in events:
                if event.type != first_event:
                    raise ValueError(f"unknown {noun} event {event.type!r}" if event.type not in table
                                     else f"the first {noun} event must be {first_event}")
                state = table[first_event](None, event.data, True)
                break
        for event in events:
            state = table[event.type](state, event.data, True)
    except KeyError:
        if event is not None and event.type not in table:
            raise ValueError(f"unknown {noun} event {event.type!r}") from None
        raise  # an evolver's own KeyError (malformed data) surfaces as it is
    return state


# ------------------------------------------------------------------- the base
class RulesetBase(Ruleset):
    """The one ruleset contract: every hook a game may provide, declared here with its default.

    A game subclasses it and declares: its identity and table (name ... options), its commands,
    handlers and evolvers, and the hooks whose default does not fit.  It must provide `opening`,
    `legal_moves`, `awaiting`, `timeout_default`, `view`, `outcome` and `choose_bot_move`; every
    other hook has a default.  Nothing outside this module asks whether a ruleset has a hook: a
    ruleset from outside the package that does not subclass the base is `adopt`ed at registration
    (its own hooks, these defaults for the rest).  docs/adding-a-game.md lists the contract.
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

    # -- folding (data) --------------------------------------------------------
    # Folding in place (see fold_in_place): opted in by a ruleset whose evolvers take `owned`.
    evolves_in_place = False
    shared_in_clone: frozenset = frozenset()  # top-level keys no evolver changes in place (a catalogue)
    # A fold of fewer events from an existing state evolves event by event: copying only what each
    # event changes is cheaper than a clone of the whole state (decide's 1-3 consequences).  For
    # Kingpin and Druglord a clone costs about what copying saves over 50-60 events.
    clone_after = 64

    # -- what happens by itself (data; the hook is `step`) ---------------------------
    # The bound on `settle`: a flow that takes more automatic steps than this is a bug, not a game.
    max_automatic_steps = 10_000

    # -- the search bot (data; the hooks are determinize, evaluate, turn_holder, search_moves)
    search_settings: SearchSettings = SearchSettings()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "handlers" in cls.__dict__ and set(cls.handlers) != set(cls.commands):
            raise TypeError(f"{cls.__name__}: every command type needs exactly one handler "
                            f"(missing: {sorted(set(cls.commands) - set(cls.handlers))}, "
                            f"extra: {sorted(set(cls.handlers) - set(cls.commands))})")
        if cls.hidden_information != (cls.determinize is not RulesetBase.determinize):
            raise TypeError(f"{cls.__name__}: a game with hidden information overrides determinize, "
                            f"and only such a game (hidden_information = {cls.hidden_information})")
        if cls.search_settings.rollout_rounds and cls.turn_holder is RulesetBase.turn_holder:
            raise TypeError(f"{cls.__name__}: a search horizon in rounds (rollout_rounds) needs a turn_holder")

    # -- versions ------------------------------------------------------------
    @property
    def version(self) -> int:
        """The rules version this instance plays: its own, or the latest."""
        return self.rules_version if self.rules_version is not None else max(n for n, _ in self.versions)

    def at(self, version: Any) -> RulesetBase:
        """This ruleset as it plays at `version` (one instance per version)."""
        if isinstance(version, bool) or version not in {number for number, _ in self.versions}:
            known = ", ".join(str(number) for number, _ in self.versions)
            raise BadCommand(f"{self.noun} has no rules version {version!r}; versions: {known}", rule="versions")
        if version == self.version:
            return self
        cache = self.__dict__.setdefault("_at_versions", {})
        if version not in cache:
            clone = copy.copy(self)
            clone.__dict__.pop("_at_versions", None)
            clone.rules_version = version
            cache[version] = clone
        return cache[version]

    # -- setting up ----------------------------------------------------------
    def setup(self, options: Mapping[str, Any] | None, seats: int, rng: Rng) -> list[Event]:
        """The opening events, after the table checks, and what follows them by itself (`settle`).
        From version 2 on, the first event records the rules version (a version-1 opening is
        exactly what it always was)."""
        events = self.opening(table_checks(self, seats, options), seats, rng)
        if self.version > 1:
            events[0] = Event(events[0].type, {**events[0].data, "rules_version": self.version})
        return events + self.settle(self.fold(None, events), rng)[0]

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """The game's opening events for checked options (GameStarted first; deals and shuffles use `rng`)."""
        raise NotImplementedError

    # -- deciding ------------------------------------------------------------
    def decide(self, state: Any, seat: int, command: Any, rng: Rng) -> list[Event]:
        """Events for a command, or IllegalMove / BadCommand; one order for every game."""
        return self.decide_and_apply(state, seat, command, rng)[0]

    def decide_and_apply(self, state: Any, seat: int, command: Any, rng: Rng) -> tuple[list[Event], Any]:
        """`decide`, and the state after all its events (`fold(state, events)`), for a caller that
        goes on from there (a replay's verification, a search): deciding folds every event anyway,
        the command's own to find what follows, and those as `settle` takes them.  Never changes `state`."""
        cmd = validate_command(command, self.commands, self.noun)
        if state is None:
            raise IllegalMove("the game has not been set up", rule=self.setup_rule)
        seats = self.seat_count(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(seats):
            raise BadCommand(f"there is no seat {seat!r} in this {seats}-player game")
        cmd = self.normalize(state, seat, cmd)
        handler = self.handlers[cmd["type"]]
        if not self.is_legal(state, seat, cmd):
            raise self.refusal(state, seat, cmd, handler)
        events = handler(state, seat, cmd, rng)
        following, after = self.settle(self.fold(state, events), rng)
        return events + following, after

    def is_legal(self, state: Any, seat: int, cmd: dict) -> bool:
        """Listed among the seat's legal moves (open arguments aside).  A game may override it with a
        check that does not build the list (Druglord's move families), answering exactly the same:
        tests/rules/test_fast_legality.py holds every override to this one."""
        moves = self.legal_moves(state, seat)
        if cmd in moves:
            return True
        free = self.open_arguments.get(cmd["type"])
        if not free:
            return False
        fixed = {k: v for k, v in cmd.items() if k not in free}
        return any(m["type"] == cmd["type"] and {k: v for k, v in m.items() if k not in free} == fixed
                   for m in moves)

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

    def normalize(self, state: Any, seat: int, cmd: dict) -> dict:
        """A well-formed command in the one spelling `legal_moves` lists (e.g. a set in order)."""
        return cmd

    # -- what happens by itself ---------------------------------------------------
    def step(self, state: Any, rng: Rng) -> list[Event]:
        """The next automatic events (a reveal, a roll nobody sways, a turn's end, a win), or []
        when a seat must decide.  A game declares its steps here; `settle` runs them."""
        return []

    def settle(self, state: Any, rng: Rng) -> tuple[list[Event], Any]:
        """Every automatic event up to the next decision, and the state after them: `step` until it
        has nothing more, each step's events folded before the next.  The one loop for every game
        (after setup and after each command); RuntimeError naming the game and the state when it
        does not settle within `max_automatic_steps` steps."""
        out: list[Event] = []
        for _ in range(self.max_automatic_steps):
            events = self.step(state, rng)
            if not events:
                return out, state
            state = self.fold(state, events)
            out += events
        raise RuntimeError(f"{self.title} did not settle: {self.max_automatic_steps} automatic steps, "
                           f"the last {[event.type for event in events]}, in the state {_SHORT.repr(state)}")

    # -- evolving ------------------------------------------------------------
    def evolve(self, state: Any, event: Event) -> Any:
        """Pure: the evolver of the event's type; it reads event data and never changes it."""
        kind = event.type
        evolver = self.evolvers.get(kind)
        if evolver is None or state is None or kind == self.first_event:  # the checks, the version
            return evolve_by_type(self.evolvers, self.noun, state, event, self.first_event)
        return evolver(state, event.data)  # what evolve_by_type does for any later event

    def fold(self, state: Any, events: Iterable[Event]) -> Any:
        """The state after `events`; never changes `state` (nor the events' data)."""
        if self.evolves_in_place:
            events = events if isinstance(events, (list, tuple)) else list(events)
            if state is None or len(events) >= self.clone_after:
                return fold_in_place(self.evolvers, self.noun, None if state is None else self.clone(state),
                                     events, self.first_event)
        for event in events:
            state = self.evolve(state, event)
        return state

    def clone(self, state: Any) -> Any:
        """A copy of `state` that an in-place fold may change: every container new but the shared ones."""
        shared = self.shared_in_clone
        return {key: value if key in shared else clone_state(value) for key, value in state.items()}

    # -- who acts ------------------------------------------------------------
    def legal_moves(self, state: Any, seat: int) -> list[dict]:
        """Every command `seat` may send now, each postable as-is ([] when it has nothing to do)."""
        raise NotImplementedError

    def awaiting(self, state: Any) -> dict[int, str]:
        """Who must act now: {seat: "move" | "response"} ({} once the game is over)."""
        raise NotImplementedError

    def on_timeout(self, state: Any, seat: int) -> dict:
        """The command a clock applies for an awaited seat."""
        if seat not in self.awaiting(state):
            raise IllegalMove(f"seat {seat} has nothing to answer now", rule=self.turn_rule)
        return self.timeout_default(state, seat)

    def timeout_default(self, state: Any, seat: int) -> dict:
        """What an awaited seat does when its clock runs out (pass, no sway, ...), a legal move."""
        raise NotImplementedError

    # -- reading and secrets -------------------------------------------------------
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
        them (a deck's order): tests/service/test_secrets_every_ruleset.py checks no response shows them."""
        return []

    def outcome(self, state: Any) -> dict | None:
        """None while the game goes on, else {"winners": [seats], "reason": str, ...}."""
        raise NotImplementedError

    def invariants(self, state: Any) -> list[str]:
        """What is wrong with a state (money, cards or pieces not conserved); [] when all holds."""
        return []

    def label(self, state: Any, seat: int, move: Mapping[str, Any]) -> str:
        """A short human-readable label of a legal move, in the game's words (default: from command_docs)."""
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
    def bot_move(self, state: Any, seat: int, level: str, rng: Rng,
                 out_of_time: Callable[[], bool] | None = None) -> dict:
        """A legal command chosen by the bot of that level.  The search level ("ismcts", "ismcts:N")
        is the generic ISMCTS of rules/search, which `out_of_time` (the worker's clock) may cut short."""
        check_bot_level(self, level)
        base, budget = split_level(level)
        if base == SEARCH_LEVEL:
            return ismcts.choose(self, state, seat, rng, budget or self.search_settings.iterations, out_of_time)
        return self.choose_bot_move(state, seat, level, rng)

    def choose_bot_move(self, state: Any, seat: int, level: str, rng: Rng) -> dict:
        """The move of one of the game's own bot levels (every level but the search)."""
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


_SHORT = reprlib.Repr()  # a state in an error message: its shape, not its whole size
_SHORT.maxlevel, _SHORT.maxdict, _SHORT.maxlist, _SHORT.maxstring = 3, 12, 6, 40


def contract() -> list[str]:
    """Every hook and declaration of the contract: RulesetBase's public names (the docs list them all)."""
    names = set(vars(RulesetBase)) | set(RulesetBase.__annotations__)
    return sorted(name for name in names if not name.startswith("_"))


class Adopted(RulesetBase):
    """A ruleset from outside the package that does not subclass the base (a third-party game, the
    engine's test game): its own hooks where it has them, the base's defaults for the rest, filled
    in once at registration like boardgame.io's ProcessGameConfig.  It decides with its own
    `decide` (the base's order needs declared handlers)."""

    def __init__(self, foreign: Any):
        self.foreign = foreign
        properties = {name for name, value in vars(RulesetBase).items() if isinstance(value, property)}
        for name in contract():
            if name not in properties and hasattr(foreign, name):  # the one place a ruleset is probed
                setattr(self, name, getattr(foreign, name))
        if not hasattr(foreign, "noun"):
            self.noun = foreign.title

    def decide_and_apply(self, state: Any, seat: int, command: Any, rng: Rng) -> tuple[list[Event], Any]:
        events = self.decide(state, seat, command, rng)
        return events, self.fold(state, events)


_ADOPTED: dict[int, tuple[Any, Adopted]] = {}  # id(foreign) -> (foreign, kept alive; its adoption)


def adopt(ruleset: Any) -> RulesetBase:
    """The ruleset as a RulesetBase: itself when it is one, else its one `Adopted` wrapper."""
    if isinstance(ruleset, RulesetBase):
        return ruleset
    entry = _ADOPTED.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        entry = _ADOPTED[id(ruleset)] = (ruleset, Adopted(ruleset))
    return entry[1]
