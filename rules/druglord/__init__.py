"""Druglord: Lord of Drugs (Raw & Uncut Edition, R. Jesse Deneaux) as a pure ruleset.

Rulebook: /work/shared/rules/druglord.txt.  The world map lives in board.py / board.json.
"""
