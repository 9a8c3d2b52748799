"""The legal-move memo: the answer the base remembers for the last state each thread asked about.

A bot's move and `decide`'s check of it ask about the same state one after the other (the worker, the
arena, a search's playouts), and building a seat's legal moves is a large part of a rules-only game's
time, so the base remembers the answer of a game's pure `legal_moves(state, seat)`, and of a listing a
game declares with `remembering` (Druglord's move families).  Nothing here is the game's to write.

- **Per thread.**  gunicorn's request threads share the ruleset object; an entry shared between them
  would be evicted by every other thread's question (and need a lock without the GIL).  A thread's own
  questions are the ones that repeat, so each thread keeps its own entries (threading.local): no entry
  is ever read or written by two threads.
- **Keyed by the state object's identity**, the seat, the ruleset (a rules version) and the hook.
  Sound because a state is a value: the base never changes a state after handing it out (a fold
  changes only the copy it makes: rules/folding.py), and an entry holds its state, so no other object
  can take that identity while the entry lives.  A caller that changes a state it asked about in place
  must not ask about it again.
- **Read-only answers.**  An entry is a tuple.  `legal_moves` hands each caller a new list of new moves
  (copy on read, down to the lists and dicts inside a move), so a caller may change what it gets
  without changing anyone's later answer; the base's own readers (`listed_moves`, `decide`) read the
  tuple.  A remembered listing is handed out as the tuple itself: rules/blocks/families.py only reads
  it (`expand` and `build` copy).

One entry per hook per thread (a game's rules versions share their hook), so the memo keeps alive at
most one state per hook and thread.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Mapping, Sequence

from rules.folding import clone_state


class _Entries(threading.local):
    """This thread's entries: hook -> (ruleset, state, seat, answer)."""

    def __init__(self) -> None:
        self.entries: dict[Any, tuple[Any, Any, int, Any]] = {}


_THREAD = _Entries()


def remembered(owner: Any, hook: Callable[[Any, Any, int], Sequence], state: Any, seat: int) -> Any:
    """`hook(owner, state, seat)`, computed once for the last (ruleset, state, seat) this thread asked of
    this hook, then read from the entry while the same ruleset, state object and seat are asked."""
    entries = _THREAD.entries
    entry = entries.get(hook)
    if entry is not None and entry[1] is state and entry[2] == seat and entry[0] is owner:
        return entry[3]
    answer = hook(owner, state, seat)
    entries[hook] = (owner, state, seat, answer)
    return answer


def peek(owner: Any, hook: Callable[[Any, Any, int], Sequence], state: Any, seat: int) -> Any:
    """The entry's answer if this thread remembers one for this ruleset, state object and seat, else None."""
    entry = _THREAD.entries.get(hook)
    if entry is not None and entry[1] is state and entry[2] == seat and entry[0] is owner:
        return entry[3]
    return None


def forget() -> None:
    """Drop this thread's entries (a test's clean start; nothing in the engine needs it)."""
    _THREAD.entries.clear()


def nested_arguments(commands: Mapping[str, Mapping[str, str]]) -> dict[str, tuple[tuple[str, bool], ...]]:
    """Command type -> its arguments that hold a list or dict, each with whether it is a list of strings
    (rules.base.ARG_KINDS "strs": `list` copies it whole) or any JSON object ("obj"), from the declared
    shapes: only these need more than a dict copy when a move is copied."""
    return {kind: tuple((arg, arg_kind == "strs") for arg, arg_kind in spec.items() if arg_kind in ("strs", "obj"))
            for kind, spec in commands.items() if "strs" in spec.values() or "obj" in spec.values()}


def remembering_moves(hook: Any, nested: Mapping[str, tuple[tuple[str, bool], ...]]) -> tuple[
        Callable[..., list[dict]], Callable[..., tuple], Callable[..., tuple | None]]:
    """(legal_moves, listed_moves, peek_moves) for a game's pure `legal_moves` hook, installed by the base
    when a ruleset class is made (rules/machinery.py Machinery.__init_subclass__).  All read one remembered
    tuple of moves:
    `legal_moves` hands any caller a new list of new moves (the lists and dicts of the `nested` command
    types' arguments copied too), `listed_moves` the base's own readers the tuple itself, `peek_moves`
    the tuple only if this thread already has it (else None)."""
    static = isinstance(hook, staticmethod)
    pure = hook.__func__ if static else hook

    def answer(owner: Any, state: Any, seat: int) -> tuple[tuple, tuple]:
        """The moves, and the places of those holding a list or dict."""
        moves = tuple(pure(state, seat) if static else pure(owner, state, seat))
        return moves, (tuple([i for i, move in enumerate(moves) if move["type"] in nested]) if nested else ())

    def legal_moves(self: Any, state: Any, seat: int) -> list[dict]:
        entries = _THREAD.entries  # remembered(), written out: this is the hot path of every bot move
        entry = entries.get(answer)
        if entry is not None and entry[1] is state and entry[2] == seat and entry[0] is self:
            moves, deep = entry[3]
        else:
            found = answer(self, state, seat)
            entries[answer] = (self, state, seat, found)
            moves, deep = found
        out = [move.copy() for move in moves]
        if deep:
            copies: dict[int, Any] = {}  # id -> its copy: a list or dict several moves share (an example
            for i in deep:               # offer's terms) is copied once and shared again, as the game's is
                move = out[i]
                for arg, strings in nested[move["type"]]:
                    value = move[arg]
                    copy = copies.get(id(value))
                    if copy is None:
                        copy = copies[id(value)] = list(value) if strings else clone_state(value)
                    move[arg] = copy
        return out

    def listed_moves(self: Any, state: Any, seat: int) -> tuple:
        return remembered(self, answer, state, seat)[0]

    def peek_moves(self: Any, state: Any, seat: int) -> tuple | None:
        found = peek(self, answer, state, seat)
        return None if found is None else found[0]

    legal_moves.__doc__ = pure.__doc__
    legal_moves.__wrapped__ = pure  # type: ignore[attr-defined]  # the game's own, for a reader
    return legal_moves, listed_moves, peek_moves


def remembering(hook: Any) -> Callable[..., tuple]:
    """A game's pure hook of (state, seat) whose answer the base remembers and hands out as a read-only
    tuple: declared in a ruleset class as `listing = remembering(flow.listing)` (a staticmethod-like
    function of state and seat) for what only the game's own code reads, such as a listing of move
    families (rules/blocks/families.py)."""
    pure = hook.__func__ if isinstance(hook, staticmethod) else hook

    def method(owner: Any, state: Any, seat: int) -> tuple:
        return tuple(pure(state, seat))

    def read(self: Any, state: Any, seat: int) -> tuple:
        return remembered(self, method, state, seat)

    read.__doc__ = pure.__doc__
    read.__wrapped__ = pure  # type: ignore[attr-defined]
    return read


__all__ = ["forget", "nested_arguments", "peek", "remembered", "remembering", "remembering_moves"]
