"""Celery tasks of ratings. Thin: league/rating_services.py does the work."""

from __future__ import annotations

from celery import shared_task

from . import rating_services


@shared_task(
    name="league.rate_game",
    acks_late=True,  # acknowledged only once the ratings are committed...
    reject_on_worker_lost=True,  # ...and redelivered if the worker dies before that
    ignore_result=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=8,
)
def rate_game(game_id: int) -> int:
    """Rate a finished game (and any earlier one still unrated); exactly once per
    (game, player, list) however often this runs."""
    return rating_services.rate_game(game_id=game_id)


@shared_task(name="league.recompute_ratings", acks_late=True, ignore_result=True)
def recompute_ratings(run_id: int) -> None:
    rating_services.run_recompute(run_id)
