"""Nine-Square: rules and scoring (``variant``), AI, house rules in words, board."""

from .variant import NineSquare

__all__ = ["NineSquare"]
