"""Tic Tac Two's rules, split in small modules.

``geometry``: the 4x4 grid, its borders (where Walls stand) and its lines;
``state``: the immutable game state; ``engine``: the rules as pure functions on
parsed steps; ``notation``: move dicts in and out, and the short human notation.
The Variant class itself is ``games.rules.variants.tic_tac_two.TicTacTwo``.
"""
