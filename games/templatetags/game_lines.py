"""What a line says to whoever reads it: a line of the lobby (templates/games/lobby.html)
and a line of a game's move list (templates/games/game.html, on the game page and the
replay): ``{% load game_lines %}``.

A move-list line says what the move did in the words of its variant's rule text, after
the mover's name and letter ("Mei (O): placed O on square 14 (row 3, column 4)"): the
variant's ``describe_move_line`` (games/rules/words.py and each variant's ``describe``).
The engine's ``describe_move`` stays the short notation of the list of legal moves, which
the lessons quote (docs/game-page.md, "The moves list").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from ..models import Game
from ..rules import get_variant

register = template.Library()


@register.filter
def seated(game: Game, user: Any) -> bool:
    """Whether ``user`` holds a seat of ``game`` (its seats prefetched, as the lobby's
    are): their own game in play is theirs to play, not to watch."""
    if not getattr(user, "is_authenticated", False):
        return False
    return any(seat.user_id == user.pk for seat in game.seats.all())


# -- the move list ------------------------------------------------------------------------


def move_words(variant: str, entry: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    """What move ``entry`` of the game's move list (``selectors.game_payload``'s moves: its
    ``seat``, ``ply``, and ``move`` and ``notation`` when the viewer may see it) did, in
    its variant's words (``Variant.describe_move_line``); "" for a move the viewer may not
    see (a plan before its reveal). ``view``: the board's view (T-Tic-T-Tac-Toe's letters
    and history, Tactic-Toe's revealed rounds). A move the words cannot read (never
    stored, but data) keeps the engine's notation."""
    if "move" not in entry:
        return ""
    move = entry["move"]
    if isinstance(move, dict) and entry.get("seat") in (0, 1):
        try:
            return get_variant(variant).describe_move_line(move, int(entry["seat"]), view or {}, int(entry.get("ply") or 0))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return str(entry.get("notation") or move)


@register.simple_tag
def move_line(entry: Mapping[str, Any], variant: str, view: Mapping[str, Any] | None = None) -> str:
    """``{% move_line m payload.variant view %}``: the move list's words for move ``m``."""
    return move_words(variant, entry, view)
