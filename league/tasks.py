"""Celery tasks of ratings. Thin: league/ratings/services.py and recompute.py do the work."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import competitions as competition_services
from .ratings import recompute
from .ratings import services as rating_services


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


@shared_task(name="league.recompute_ratings", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_ratings(run_id: int) -> None:
    # No autoretry: a failed run is marked failed on its row for the admin to see and rerun.
    recompute.run_recompute(run_id)


@shared_task(name="league.ratings_sweep", ignore_result=True)
def ratings_sweep() -> dict[str, int]:
    """Catch up on a lost rating task: unrated finished games, recomputes still queued."""
    return rating_services.sweep()


# -- competitions (docs/competitions.md). Thin: league/competitions/ does the
# work, each call idempotent (a round starts once, a pairing is scored once), so a task
# delivered twice, or sent both by beat and directly, changes nothing the second time.

_COMPETITION_TASK = dict(acks_late=True, reject_on_worker_lost=True, ignore_result=True,
                         autoretry_for=(OperationalError,), retry_backoff=True, max_retries=8)


@shared_task(name="league.start_round", **_COMPETITION_TASK)
def start_round(section_id: int, number: int) -> None:
    """Pair a round and create its games (beat's one-off task at the round's time)."""
    competition_services.start_round(section_id=section_id, number=number)


@shared_task(name="league.record_game_result", **_COMPETITION_TASK)
def record_game_result(game_id: int) -> None:
    """Score the pairing of a finished game; the round's last result moves the section on."""
    competition_services.record_game_result(game_id=game_id)


@shared_task(name="league.pair_arena", **_COMPETITION_TASK)
def pair_arena(section_id: int) -> None:
    competition_services.pair_arena(section_id=section_id)


@shared_task(name="league.finish_arena", **_COMPETITION_TASK)
def finish_arena(section_id: int) -> None:
    competition_services.finish_arena(section_id=section_id)


@shared_task(name="league.rate_tournament", **_COMPETITION_TASK)
def rate_tournament(tournament_id: int) -> None:
    competition_services.rate_tournament(tournament_id=tournament_id)


@shared_task(name="league.carry_over", **_COMPETITION_TASK)
def carry_over(section_id: int) -> None:
    """A stage finished: enter its top players in the next stage and start it when due."""
    competition_services.carry_over_stage(section_id=section_id)


@shared_task(name="league.competition_sweep", ignore_result=True)
def competition_sweep() -> dict[str, int]:
    """Catch up on anything a lost task left: due rounds, unscored results, ended arenas."""
    return competition_services.sweep()
