"""Rock-paper-scissors, the texts' decider: rules (``variant``, ``throws``), AI, words, board."""

from .variant import RockPaperScissors

__all__ = ["RockPaperScissors"]
