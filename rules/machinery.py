"""The machinery of every ruleset: what the base does with the hooks a game writes.  A game never
overrides it: a subclass that defines one of `FINAL` is refused when the class is made.

Every command goes through one order:

    shape (BadCommand, 400) -> seat -> normalize -> legality (IllegalMove, 422) -> handler -> settle

and `settle` is the one bounded loop that runs a game's automatic `step`s after setup and after every
command.  A command that is not among the seat's legal moves is refused; its handler is asked for the
reason (it raises IllegalMove naming the rule).  Any other exception from a handler is a bug and is
never swallowed, so fuzzers see it.

The speed plumbing is here too, so a game writes only pure rules: `evolve` and `fold` run every evolver
through one write path (rules/folding.py), and a game's pure `legal_moves` is remembered per thread for
the state last asked, each caller getting its own copy (rules/memo.py): `decide` checks a bot's move
against it without asking again.

rules/ruleset.py `Ruleset` (the contract: every hook a game writes, with its default) subclasses
`Machinery`; a ruleset adopted from outside the package keeps its own Decider's machinery
(rules/ruleset.py `adopt`).
"""
from __future__ import annotations

import copy
import reprlib
from typing import Any, Callable, Iterable, Sequence

from rules import folding, memo
from rules.base import WORLD, BadCommand, Event, IllegalMove, Rng, RulesetRoot, validate_command
from rules.levels import SEARCH_LEVEL, check_bot_level, split_level
from rules.search import ismcts
from rules.table_checks import table_checks

PROBE = "ruleset-explain"  # the rng a refused command's handler is asked with: its rolls are thrown away
# The machinery's methods: the base's, never a game's (docs/adding-a-game.md, "The contract").
FINAL = frozenset({"version", "at", "setup", "decide", "decide_and_apply", "settle", "evolve", "fold", "clone",
                   "listed_moves", "on_timeout", "bot_move", "_remembered_moves", "_lists"})


def required(hook: Callable) -> Callable:
    """Marks a hook of the contract that every game writes (its declaration raises NotImplementedError)."""
    hook.__required__ = True  # type: ignore[attr-defined]
    return hook


class Machinery(RulesetRoot):
    """The base's final methods; rules/ruleset.py `Ruleset` declares the hooks they call."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        overridden = sorted(name for name in FINAL if name in vars(cls))
        if overridden:
            raise TypeError(f"{cls.__name__} overrides the base's machinery ({', '.join(overridden)}): a game writes "
                            f"the hooks it calls instead (docs/adding-a-game.md, 'The contract')")
        # the game's pure legal_moves, remembered by the base (rules/memo.py); again for a subclass that
        # changes the command shapes (which moves hold lists or dicts)
        hook = vars(cls).get("legal_moves")
        if hook is None and "commands" in vars(cls):  # the inherited hook as declared (a staticmethod stays one)
            hook = next((vars(k)["_legal_moves_hook"] for k in cls.__mro__ if "_legal_moves_hook" in vars(k)), None)
        if hook is not None and not getattr(hook, "__required__", False):  # not the contract's declaration
            cls._legal_moves_hook = hook
            cls.legal_moves, cls.listed_moves, cls._remembered_moves = memo.remembering_moves(
                hook, memo.nested_arguments(cls.commands))

    # -- versions ------------------------------------------------------------
    @property
    def version(self) -> int:
        """The rules version this instance plays: its own, or the latest."""
        return self.rules_version if self.rules_version is not None else max(n for n, _ in self.versions)

    def at(self, version: Any) -> Any:
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
    def setup(self, options: Any, seats: int, rng: Rng) -> list[Event]:
        """The opening events, after the table checks, and what follows them by itself (`settle`).
        From version 2 on, the first event records the rules version (a version-1 opening is
        exactly what it always was)."""
        events = self.opening(table_checks(self, seats, options), seats, rng)
        if self.version > 1:
            events[0] = Event(events[0].type, {**events[0].data, "rules_version": self.version})
        return events + self.settle(self.fold(None, events), rng)[0]

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
        remembered = self._remembered_moves(state, seat)  # a bot's move comes back for the state it listed
        if not (self._lists(remembered, cmd) if remembered is not None else self.is_legal(state, seat, cmd)):
            raise self.refusal(state, seat, cmd, handler)
        events = handler(state, seat, cmd, rng)
        # what follows by itself is nobody's move: under draw keys it rolls on the world's streams
        following, after = self.settle(self.fold(state, events), rng.roller(WORLD))
        return events + following, after

    def _remembered_moves(self, state: Any, seat: int) -> tuple | None:
        """The seat's moves if this thread remembers them for this state, else None (rules/memo.py; a
        ruleset whose legal_moves the base does not remember, one adopted from outside, never does)."""
        return None

    def _lists(self, moves: Sequence[dict], cmd: dict) -> bool:
        """Whether `cmd` is among `moves`, open arguments aside."""
        if cmd in moves:
            return True
        free = self.open_arguments.get(cmd["type"])
        if not free:
            return False
        fixed = {k: v for k, v in cmd.items() if k not in free}
        return any(m["type"] == cmd["type"] and {k: v for k, v in m.items() if k not in free} == fixed
                   for m in moves)

    # -- what happens by itself ---------------------------------------------------
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

    # -- evolving (rules/folding.py) ---------------------------------------
    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one event, by the evolver of its type: a new state; `state` never changes."""
        evolver = self.evolvers.get(event.type)
        if evolver is None or state is None or event.type == self.first_event:  # the checks, the version
            return folding.evolve(self.evolvers, self.noun, state, event, self.first_event)
        return evolver(state.copy(), event.data, folding.COPY)  # folding.evolve's path, one call less

    def fold(self, state: Any, events: Iterable[Event]) -> Any:
        """The state after `events`; never changes `state` (nor the events' data)."""
        return folding.fold(self.evolvers, self.noun, state, events, self.first_event, self.clone_after,
                            self.shared_in_clone)

    def clone(self, state: Any) -> Any:
        """A copy of `state` that an in-place fold may change: every container new but the shared ones."""
        return folding.clone(state, self.shared_in_clone)

    # -- who acts ------------------------------------------------------------
    def listed_moves(self, state: Any, seat: int) -> tuple:
        """The seat's legal moves as the memo holds them, to read and never to change (the base's own
        readers, e.g. `is_legal`, read them without a copy)."""
        return tuple(self.legal_moves(state, seat))

    def on_timeout(self, state: Any, seat: int) -> dict:
        """The command a clock applies for an awaited seat: `timeout_default`, once the seat is checked."""
        if seat not in self.awaiting(state):
            raise IllegalMove(f"seat {seat} has nothing to answer now", rule=self.turn_rule)
        return self.timeout_default(state, seat)

    # -- bots ----------------------------------------------------------------
    def bot_move(self, state: Any, seat: int, level: str, rng: Rng,
                 out_of_time: Callable[[], bool] | None = None, revision: int | None = None) -> dict:
        """A legal command chosen by the bot of that level, a new dict the caller may change.  The search
        level ("ismcts", "ismcts:N") is the generic ISMCTS of rules/search, which `out_of_time` (a bench's
        clock) may cut short; `revision`, an earlier bots revision's search (`search_revisions`), else today's."""
        check_bot_level(self, level)
        base, budget = split_level(level)
        if base == SEARCH_LEVEL:
            settings = self.search_revisions.get(revision, self.search_settings)
            searched = self if settings is self.search_settings else ismcts.revised(self, settings)
            move = ismcts.choose(searched, state, seat, rng, budget or settings.iterations, out_of_time)
        else:
            move = self.choose_bot_move(state, seat, level, rng)
        # the caller's own: a bot may answer with one of `listed_moves` (the memo's, read-only) as it is
        return folding.clone_state(move)


_SHORT = reprlib.Repr()  # a state in an error message: its shape, not its whole size
_SHORT.maxlevel, _SHORT.maxdict, _SHORT.maxlist, _SHORT.maxstring = 3, 12, 6, 40


def machinery() -> list[str]:
    """The machinery's public names (docs/adding-a-game.md lists them beside the hooks)."""
    return sorted(name for name in FINAL if not name.startswith("_"))


__all__ = ["FINAL", "PROBE", "Machinery", "machinery", "required"]
