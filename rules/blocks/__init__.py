"""Building blocks the games share: pure helpers over small pieces of a game's state.

    turns.py     turn order (next seat, skipping), phases in sequence
    windows.py   a response window answered by several seats (Druglord's Sway, Kingpin's Cop/Hit Man/Regulator)
    choices.py   simultaneous secret choices (Druglord's starting empires)
    offers.py    offers between players: offer -> accept, decline or counter; withdraw; the clock declines

Each works on plain JSON values a game keeps in its state, returns new values
(never mutates) and names no game: the game keeps its own event names and
rulebook wording, and calls these for the bookkeeping every game repeats.
"""
