"""Official T-Tic-T-Tac-Toe, in small modules.

``geometry``: the 5x5 board, its unit segments and what blocks a three in a row;
``state``: the immutable game state; ``notation``: moves in and out; ``engine``: the
rules on parsed actions; ``match``: the five-game match; ``variant``: the Variant class
(the contract, metadata and parts); ``ai``, ``describe`` (house rules in words, presets)
and ``board`` (the board template's context).
"""

from .variant import TTicTTacToe

__all__ = ["TTicTTacToe"]
