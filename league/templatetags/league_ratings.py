"""``{% game_rating_note game %}``: what a finished game did to ratings, explained
(league.ratings.selectors.game_rating_note). A tag, so the games app's pages show it
without the games app importing league (the layers contract)."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from league.ratings import selectors

register = template.Library()


@register.inclusion_tag("league/_game_rating_note.html")
def game_rating_note(game: Game) -> dict[str, Any]:
    return {"note": selectors.game_rating_note(game)}
