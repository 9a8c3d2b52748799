"""The legal-move memo: the answer the base remembers for the last state each thread asked about.

A bot's move and `decide`'s check of it ask about the same state one after the other (the worker, the
arena, a search's playouts), and building a seat's legal moves is a large part of a rules-only game's
time, so the base remembers the answer of a game's pure `legal_moves(state, seat)` (and of a listing a
game declares with `remembered`, as Druglord's move families).  Nothing here is the game's to write.

- **Per thread.**  gunicorn's request threads share the ruleset object; an entry shared between them
  would be evicted by every other thread's question (and need a lock without the GIL).  A thread's own
  questions are the ones that repeat, so each thread keeps its own entries (threading.local): no entry
  is ever read or written by two threads.
- **Keyed by the state object's identity**, the seat, the ruleset and the hook.  Sound because a state
  is a value: the base never changes a state after handing it out (a fold changes only the copy it
  makes: rules/folding.py), and an entry holds its state, so the identity cannot be reused by another
  object while the entry lives.  A caller that changes a state it asked about must not ask again.
- **Read-only answers.**  An entry is a tuple.  `legal_moves` hands each caller a new list of new moves
  (copy on read), so a caller may change what it gets without changing anyone's later answer; the base's
  own readers (`listed_moves`, `is_legal`) read the tuple without copying.  A remembered listing is
  handed out as the tuple itself: rules/blocks/families.py only reads it (`expand` and `build` copy).

One entry per (ruleset, hook) per thread: the states of earlier questions are not kept alive.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

Pure = Callable[..., Sequence]  # hook(state, seat) or method(ruleset, state, seat)


class _Entries(threading.local):
    """This thread's entries: (ruleset, hook) -> (state, seat, answer)."""

    def __init__(self) -> None:
        self.entries: dict[tuple[Any, Any], tuple[Any, int, tuple]] = {}


_THREAD = _Entries()


def remembered(owner: Any, hook: Callable[[Any, Any, int], Sequence], state: Any, seat: int) -> tuple:
    """`hook(owner, state, seat)` as a tuple: computed once for the last (state, seat) this thread asked
    of this owner's hook, then read from the entry while the same state object and seat are asked."""
    entries = _THREAD.entries
    key = (owner, hook)
    entry = entries.get(key)
    if entry is not None and entry[0] is state and entry[1] == seat:
        return entry[2]
    answer = hook(owner, state, seat)
    if type(answer) is not tuple:
        answer = tuple(answer)
    entries[key] = (state, seat, answer)
    return answer


def forget() -> None:
    """Drop this thread's entries (a test's clean start; nothing in the engine needs it)."""
    _THREAD.entries.clear()


def copied(moves: tuple) -> list[dict]:
    """A new list of new moves: each dict copied, and the lists and dicts inside it (a KeepRegions'
    regions), so nothing the caller changes reaches the entry."""
    out = []
    for move in moves:
        move = move.copy()
        for key, value in move.items():
            kind = type(value)
            if kind is list or kind is dict:
                move[key] = _deep(value)
        out.append(move)
    return out


def _deep(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _deep(item) for key, item in value.items()}
    if kind is list:
        return [_deep(item) for item in value]
    return value


def _method(hook: Any) -> Callable[[Any, Any, int], Sequence]:
    """The hook as a function of (ruleset, state, seat), whether declared as a method or a staticmethod."""
    if isinstance(hook, staticmethod):
        pure = hook.__func__
        return lambda owner, state, seat: pure(state, seat)
    return hook


def remembering_moves(hook: Any) -> tuple[Callable[..., list[dict]], Callable[..., tuple]]:
    """(legal_moves, listed_moves) for a game's pure `legal_moves` hook: both read one remembered entry,
    the first as a copy for any caller, the second as the entry's own tuple for the base's readers.
    The base installs them when a ruleset class is made (RulesetBase.__init_subclass__)."""
    pure = _method(hook)

    def answer(self: Any, state: Any, seat: int) -> tuple[tuple, bool]:
        """The moves, and whether every one is flat (no list or dict inside: a plain copy is a deep one)."""
        moves = tuple(pure(self, state, seat))
        return moves, not any(type(value) is list or type(value) is dict for move in moves for value in move.values())

    def legal_moves(self: Any, state: Any, seat: int) -> list[dict]:
        moves, flat = remembered(self, answer, state, seat)
        return [move.copy() for move in moves] if flat else copied(moves)

    def listed_moves(self: Any, state: Any, seat: int) -> tuple:
        return remembered(self, answer, state, seat)[0]

    legal_moves.__doc__ = getattr(hook, "__doc__", None) or getattr(pure, "__doc__", None)
    legal_moves.__wrapped__ = pure  # type: ignore[attr-defined]  # the game's own, for a reader
    return legal_moves, listed_moves


def remembering(hook: Any) -> Callable[..., tuple]:
    """A game's pure hook of (state, seat) whose answer the base remembers and hands out as a read-only
    tuple: declared in a ruleset class as `listing = remembering(flow.listing)` (a staticmethod-like
    function of state and seat) for what only the game's own code reads, such as a listing of move
    families (rules/blocks/families.py)."""
    pure = hook.__func__ if isinstance(hook, staticmethod) else hook

    def method(owner: Any, state: Any, seat: int) -> tuple:
        return pure(state, seat)

    def read(self: Any, state: Any, seat: int) -> tuple:
        return remembered(self, method, state, seat)

    read.__doc__ = pure.__doc__
    read.__wrapped__ = pure  # type: ignore[attr-defined]
    return read


__all__ = ["copied", "forget", "remembered", "remembering", "remembering_moves"]
