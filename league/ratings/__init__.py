"""Pure rating mathematics: FIDE Elo (``elo``) and Glickman's Glicko-2 (``glicko2``).

No Django here: league/rating_services.py feeds these functions rows and stores what
they return, and bench/ratings.py times them on their own.
"""

from . import elo, glicko2

__all__ = ["elo", "glicko2"]
