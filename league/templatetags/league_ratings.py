"""``{% game_rating_note game %}``: what a finished game did to ratings, explained
(league.ratings.selectors.game_rating_note). A tag, so the games app's pages show it
without the games app importing league (the layers contract). And ``|signed``: a rating
change with its sign always shown, as every rating page writes it."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from league.ratings import explain, selectors

register = template.Library()


@register.inclusion_tag("league/_game_rating_note.html")
def game_rating_note(game: Game) -> dict[str, Any]:
    return {"note": selectors.game_rating_note(game)}


@register.filter
def signed(value: float | None) -> str:
    """A rating change, whole, its sign always shown: "+16", "−13" (a true minus), "±0"
    (explain.signed: the explanations write it the same); "" for none."""
    return "" if value is None else explain.signed(round(value))
