"""Ratings. The mathematics is pure, no Django: FIDE Elo (``elo``), Glickman's Glicko-2
(``glicko2``) and rating periods (``periods``), timed on their own by bench/ratings.py.
The Django side feeds them rows and stores what they return: ``services`` (live and
tournament ratings, adjustments), ``recompute`` (every rating from the game log) and
``selectors`` (reads). Importing this package loads only the pure part.
"""

from . import elo, glicko2

__all__ = ["elo", "glicko2"]
