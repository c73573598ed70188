"""The sweeps that redo a task the broker never got (down when the write committed) or
a killed worker lost: AI moves (games.play_stalled_ai_seats) and ratings
(league.ratings_sweep). docs/operations.md, "When Redis or a worker is down"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from league.models import RatingChange, RecomputeRun
from league.ratings import services as rating_services
from tests.factories import finished_game

pytestmark = pytest.mark.django_db


def ai_to_move(user) -> Game:
    """A game where the AI (seat 0) is to move and its task never ran."""
    game = services.create_game(creator=user, variant="classic", ai_level="random", creator_seat=1)
    assert game.to_move == [0] and game.ply == 0
    return game


def test_an_ai_move_whose_task_was_lost_is_played_by_the_sweep(alice):
    game = ai_to_move(alice)
    assert services.play_stalled_ai_seats() == 0  # its task may still be on its way
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=services.AI_STALL_SECONDS + 1))
    assert services.play_stalled_ai_seats() == 1
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move == [1]
    assert services.play_stalled_ai_seats() == 0  # the human's turn now: nothing to do


def test_the_sweep_leaves_a_humans_turn_alone(alice):
    game = services.create_game(creator=alice, variant="classic", ai_level="random", creator_seat=0)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(minutes=5))
    assert services.play_stalled_ai_seats() == 0
    assert Game.objects.get(pk=game.pk).ply == 0


def test_a_rating_whose_task_was_lost_is_applied_by_the_sweep(make_player):
    a, b = make_player(), make_player()
    older, newest = finished_game(a, b), finished_game(b, a)  # no task ran (none is eager here)
    assert not RatingChange.objects.exists()
    assert rating_services.sweep()["rated"] == 0  # just finished: its task may still come
    Game.objects.filter(pk__in=[older.pk, newest.pk]).update(
        finished_at=timezone.now() - timedelta(seconds=rating_services.LOST_TASK_SECONDS + 1))
    assert rating_services.sweep()["rated"] == 2
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {older.pk, newest.pk}
    assert rating_services.sweep()["rated"] == 0


def test_a_recompute_left_queued_is_queued_again(make_player):
    run = RecomputeRun.objects.create()
    assert rating_services.sweep()["recomputes"] == 0
    RecomputeRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - timedelta(seconds=rating_services.LOST_TASK_SECONDS + 1))
    assert rating_services.sweep()["recomputes"] == 1
