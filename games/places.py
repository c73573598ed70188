"""Where a game belongs (a hook for the apps above ``games``): the game page's line at
its top ("Spring Open · Juniors · Round 3, board 2", linking to the section) and its
"Back to Juniors" link after the game. ``games`` knows nothing of tournaments: an app
that pairs games registers a finder in its AppConfig.ready (league: a pairing's game or
match, league.competitions.places), and the first finder that knows the game answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import Game


@dataclass(frozen=True)
class Place:
    """A game's place in an event, in words and as a link."""

    event: str  # "Spring Open"
    part: str  # "Juniors": what "Back to" names
    where: str  # "Round 3, board 2"
    url: str  # the part's page

    @property
    def line(self) -> str:
        return " · ".join(words for words in (self.event, self.part, self.where) if words)


Finder = Callable[[Game], Place | None]

_finders: dict[str, Finder] = {}


def register_place(name: str, finder: Finder) -> None:
    """Add (or, under the same ``name``, replace) a finder of games' places."""
    _finders[name] = finder


def place_of(game: Game) -> Place | None:
    """The game's place, from the first finder that knows it; None for a game of no event."""
    for finder in _finders.values():
        if (place := finder(game)) is not None:
            return place
    return None
