"""Celery tasks of live play: AI seats and clocks. Thin: the services do the work."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import observing, services


@shared_task(name="games.play_ai_move", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def play_ai_move(game_id: int, ply: int) -> None:
    """Move for the AI seats of ``game_id`` if the game is still at ``ply`` (idempotent)."""
    services.play_ai_move(game_id=game_id, ply=ply)


@shared_task(name="games.flag_expired_clocks", ignore_result=True)
def flag_expired_clocks() -> int:
    return services.flag_expired_clocks()


@shared_task(name="games.play_stalled_ai_seats", ignore_result=True)
def play_stalled_ai_seats() -> int:
    """AI moves whose task was lost (docs/operations.md, "When Redis or a worker is down")."""
    return services.play_stalled_ai_seats()


@shared_task(name="games.sweep_stale_observers", ignore_result=True)
def sweep_stale_observers() -> int:
    """Observer rows left by a server that died (docs/protocol.md, "Observers")."""
    return observing.sweep_stale_observers()
