"""Listeners: a finished rated game is queued for rating once its commit is done."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def on_game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    # games sends this after its commit already; on_commit still guards a sender that
    # fires inside a transaction (the task must never see an uncommitted game).
    from games.models import Game

    from .tasks import rate_game

    if not Game.objects.filter(pk=game_id, rated=True).exists():
        return
    transaction.on_commit(lambda: rate_game.delay(game_id))
