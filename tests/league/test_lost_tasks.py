"""A competition task lost (its worker killed, the broker down when it was queued, a
Redis restarted without its queue): beat's sweep does the work from the database
(docs/operations.md, "Tasks: delivery and the worst case after a worker dies"). Found by
the chaos probe of 2026-11-30: a tournament rated as one period, and an arena's pairing
wave, had no sweep behind their task."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from league import competitions as cs
from league.competitions.formats.registry import format_of
from league.models import Pairing, RatingChange, RatingPeriod, Round, Section
from tests.factories import players, section_with

from .support import decide, run_decided

# The tasks are sent after the commit (transaction.on_commit), and a test's transaction
# never commits: each task here is never sent, as one lost.


def test_a_tournament_rating_period_whose_task_was_lost_is_rated_by_the_sweep(one_period_round_robin):
    section = one_period_round_robin
    tournament = section.tournament
    run_decided(section)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert not RatingChange.objects.exists()  # kept out of live ratings, and the period's task lost
    assert RatingPeriod.objects.get(key=tournament.rating_period_key).applied_at is None

    assert cs.sweep()["rated_periods"] == 0  # just finished: its own task is on its way
    later = timezone.now() + timedelta(seconds=60)
    assert cs.sweep(now=later)["rated_periods"] == 1
    assert set(RatingChange.objects.values_list("period", flat=True)) == {tournament.rating_period_key}
    assert RatingChange.objects.count() == 2 * 3  # three games, two players each
    assert RatingPeriod.objects.get(key=tournament.rating_period_key).applied_at is not None
    assert cs.sweep(now=later)["rated_periods"] == 0  # once
    assert RatingChange.objects.count() == 2 * 3


def test_an_arena_wave_whose_task_was_lost_is_paired_by_the_sweep(make_player):
    section = section_with(players(make_player, 4), format="arena", arena_duration=timedelta(hours=1))
    assert decide(section) == 2  # both games over
    waves = Round.objects.filter(section=section).count()
    # Their results scored (their tasks lost too): the four players are free. Just freed,
    # so the wave's own task (a moment away) pairs them, not the sweep.
    assert cs.sweep()["results"] == 2
    assert Round.objects.filter(section=section).count() == waves
    assert format_of(section).wave_due(section, timezone.now())
    assert not Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY).exists()
    # Free for longer than a wave's task can take: it was lost, and the sweep pairs them.
    later = timezone.now() + timedelta(seconds=60)
    cs.sweep(now=later)
    assert Round.objects.filter(section=section).count() == waves + 1
    assert Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY).count() == 2
    cs.sweep(now=later)  # nobody free: nothing more
    assert Round.objects.filter(section=section).count() == waves + 1
    section.refresh_from_db()
    assert section.status == Section.Status.RUNNING
