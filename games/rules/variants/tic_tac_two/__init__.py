"""Tic Tac Two, in small modules.

``geometry``: the 4x4 grid, its borders (where Walls stand) and its lines;
``state``: the immutable game state; ``engine``: the rules as pure functions on
parsed steps; ``notation``: move dicts in and out, and the short human notation;
``variant``: the Variant class (the contract, metadata and parts); ``ai``, ``describe``
(house rules in words, presets) and ``board`` (the board template's context).
"""

from .variant import TicTacTwo

__all__ = ["TicTacTwo"]
