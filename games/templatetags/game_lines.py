"""What a line of the lobby says to whoever reads it (templates/games/lobby.html):
``{% load game_lines %}``."""

from __future__ import annotations

from typing import Any

from django import template

from ..models import Game

register = template.Library()


@register.filter
def seated(game: Game, user: Any) -> bool:
    """Whether ``user`` holds a seat of ``game`` (its seats prefetched, as the lobby's
    are): their own game in play is theirs to play, not to watch."""
    if not getattr(user, "is_authenticated", False):
        return False
    return any(seat.user_id == user.pk for seat in game.seats.all())
