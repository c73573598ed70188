"""Classic Tic Tac Toe: rules (``variant``, ``grid``), AI, house rules in words, board."""

from .variant import Classic

__all__ = ["Classic"]
