"""When things happen: round starts as one-off django-celery-beat tasks (never long ETAs
in the broker), tasks sent after commit, the time of the next round, an arena's next
pairing wave. Helpers of the services: they run inside the caller's transaction."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django_celery_beat.models import ClockedSchedule, PeriodicTask

from accounts import dispatch
from league.models import Round, Section

#: Seconds an arena waits after a game ends before pairing, to gather free players.
ARENA_PAIRING_DELAY = float(getattr(settings, "LEAGUE_ARENA_PAIRING_DELAY", 2.0))
#: Seconds after which free arena players nobody paired are taken to have lost their
#: wave's task (its worker killed, the broker down): competition_sweep pairs them.
ARENA_WAVE_LOST_SECONDS = 10.0
#: Seconds after which a finished tournament rated as one period, still unrated, is taken
#: to have lost its rating task: competition_sweep rates it.
RATING_TASK_LOST_SECONDS = 30.0


def schedule_task(name: str, task: str, args: list[Any], at: datetime) -> Any:
    """A one-off django-celery-beat task at ``at`` (no long ETA in the broker)."""
    existing = PeriodicTask.objects.filter(name=name).first()
    if existing is not None:
        return existing
    clock = ClockedSchedule.objects.create(clocked_time=at)
    return PeriodicTask.objects.create(name=name, task=task, args=json.dumps(args), clocked=clock, one_off=True)


def schedule_round(section: Section, number: int, at: datetime) -> Round:
    """Round ``number`` at ``at``: a row, a one-off beat task, and when it is due now,
    the task at once (beat would take up to its tick; both runs are idempotent)."""
    round_, created = Round.objects.get_or_create(section=section, number=number, defaults={"starts_at": at})
    if created:
        round_.start_task = schedule_task(f"league: start section {section.pk} round {number}",
                                           "league.start_round", [section.pk, number], at)
        round_.save(update_fields=["start_task"])
        if at <= timezone.now() + timedelta(seconds=1):
            section_id = section.pk
            transaction.on_commit(lambda: send_task("league.start_round", section_id, number))
    return round_


def reschedule_round(section: Section, number: int, at: datetime, now: datetime | None = None) -> Round:
    """Move a round not yet started to ``at`` (an organiser's edit): its row and its
    one-off beat task (enabled again if it ran early and found nothing due)."""
    round_ = Round.objects.select_related("start_task__clocked").filter(
        section=section, number=number, status=Round.Status.SCHEDULED).first()
    if round_ is None:
        return schedule_round(section, number, at)
    round_.starts_at = at
    round_.save(update_fields=["starts_at"])
    task = round_.start_task
    if task is not None and task.clocked is not None:
        task.clocked.clocked_time = at
        task.clocked.save(update_fields=["clocked_time"])
        task.enabled = True
        task.save(update_fields=["enabled"])
    if at <= (now or timezone.now()) + timedelta(seconds=1):
        section_id = section.pk
        transaction.on_commit(lambda: send_task("league.start_round", section_id, number))
    return round_


def cancel_task(name: str) -> None:
    """Delete the one-off beat task ``name`` and its clock, if there is one."""
    for task in PeriodicTask.objects.filter(name=name).select_related("clocked"):
        clock = task.clocked
        task.delete()
        if clock is not None and not PeriodicTask.objects.filter(clocked=clock).exists():
            clock.delete()


def cancel_section_tasks(section: Section) -> None:
    """Delete the beat tasks of a section's rounds not started (the section is deleted)."""
    for name in PeriodicTask.objects.filter(
            pk__in=section.round_set.filter(start_task__isnull=False).values("start_task")).values_list("name", flat=True):
        cancel_task(name)


def send_task(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Send a league task by its registered name: league/tasks.py calls these services."""
    # Not queued (broker down): competition_sweep does the work from the database.
    dispatch.enqueue(task_name, *args, countdown=countdown)


def next_round_time(section: Section, number: int, previous: Round, now: datetime) -> datetime:
    explicit = section.round_starts or []
    if len(explicit) >= number - 1 >= 1:
        at = parse_datetime(explicit[number - 2])
        if at is not None:
            if timezone.is_naive(at):
                at = timezone.make_aware(at)
            return max(at, now)
    if section.round_interval:
        return max(previous.starts_at + section.round_interval, now)
    return now


def queue_arena_pairing(section_id: int) -> None:
    transaction.on_commit(lambda: send_task("league.pair_arena", section_id, countdown=ARENA_PAIRING_DELAY))
