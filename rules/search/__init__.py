"""Search bots that use only the ruleset contract (rules/base.py): legal moves, decide and
evolve on the states they make, outcome, and the two hooks a search needs of a game with
hidden information or long games:

    determinize(state, seat, rng) -> state     a full state `seat` cannot tell from the true one
    evaluate(state)               -> [float]   per-seat shares of a win, for a truncated playout

See ismcts.py (the bot) and hidden.py (the helpers games use to resample what a seat cannot see).
"""
