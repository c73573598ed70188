"""Tactic-Toe: rules (``variant``, ``plans``), AI, house rules in words, board."""

from .variant import TacticToe

__all__ = ["TacticToe"]
