"""The engine core: cards, melds, rules, positions, evaluation, scoring, game state.

Nothing in this package does I/O or imports anything outside the standard library.
"""
