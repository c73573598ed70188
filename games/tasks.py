"""Celery tasks of live play: AI seats and clocks. Thin: the services do the work."""

from __future__ import annotations

from celery import shared_task

from . import observing, services


@shared_task(name="games.play_ai_move", acks_late=True, ignore_result=True)
def play_ai_move(game_id: int, ply: int) -> None:
    """Move for the AI seats of ``game_id`` if the game is still at ``ply`` (idempotent)."""
    services.play_ai_move(game_id=game_id, ply=ply)


@shared_task(name="games.flag_expired_clocks", ignore_result=True)
def flag_expired_clocks() -> int:
    return services.flag_expired_clocks()


@shared_task(name="games.sweep_stale_observers", ignore_result=True)
def sweep_stale_observers() -> int:
    """Observer rows left by a server that died (docs/protocol.md, "Observers")."""
    return observing.sweep_stale_observers()
