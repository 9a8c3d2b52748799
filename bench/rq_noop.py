"""The baseline job of bench.bot_moves: does nothing (a module with no imports, so a forked
work horse imports next to nothing to run it)."""


def noop() -> None:
    return None
