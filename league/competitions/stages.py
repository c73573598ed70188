"""Multi-stage events (docs/competitions.md, "Multi-stage events"): a later stage is a
section naming the earlier one (``previous_stage``) and how many go through
(``advance``); when the earlier one finishes, its top players are entered in the later
one with seeds carried over (league/formats/stages.py), and it starts.

Low in the services' order (only ``scheduling`` below it): ``sections`` checks a stage
with ``check_stage``, ``results`` calls ``after_stage`` when a section finishes,
``rounds`` carries players over and seeds them at a stage's start. Registrations are
refused by ``selectors.stage_refusal``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.errors import ServiceError
from league.formats.stages import knockout_seeds, snake_groups
from league.models import Entry, Section, Standing

from .formats.section_settings import most_players
from .notices import broadcast_section, notify_stage_waiting
from .scheduling import send_task


def check_stage(section: Section) -> None:
    """Refuse (ServiceError) a stage that cannot work: another tournament's stage, a
    cycle, a second stage after the same one, more going through than can, groups of
    fewer than two."""
    if section.groups > 1 and section.capacity is not None and section.capacity < 2 * section.groups:
        raise ServiceError("bad-groups", f"{section.groups} groups need room for at least "
                                         f"{2 * section.groups} players (two a group).")
    previous = section.previous_stage
    if previous is None:
        if section.advance is not None:
            raise ServiceError("bad-stage", "Only a later stage says how many go through: choose its previous stage.")
        return
    if previous.tournament_id != section.tournament_id:
        raise ServiceError("bad-stage", "The previous stage is a section of another tournament.")
    stage: Section | None = previous
    while stage is not None:
        if section.pk is not None and stage.pk == section.pk:
            raise ServiceError("bad-stage", "A stage cannot follow itself (directly or through others).")
        stage = stage.previous_stage
    if previous.next_stages.exclude(pk=section.pk).exists():
        raise ServiceError("bad-stage", f"{previous.name} already has a next stage.")
    if previous.status == Section.Status.CANCELLED:
        raise ServiceError("bad-stage", f"{previous.name} was cancelled.")
    if section.advance is None or section.advance < 1:
        raise ServiceError("bad-advance", "Say how many players go through (1 or more from each group, "
                                          "else 2 or more).")
    groups = previous.groups if previous.format == Section.Format.ROUND_ROBIN else 1
    going = going_through(section)
    room = most_players(section)
    if room is not None and going > room:
        raise ServiceError("bad-advance", f"{going} cannot go through into {section.name}: {too_many(section, room)}.")
    if going < 2:
        raise ServiceError("bad-advance", "At least two players must go through to play a stage.")
    if previous.capacity is not None and going > previous.capacity:
        raise ServiceError("bad-advance", f"{going} cannot go through from {previous.name}: it has room for "
                                          f"{previous.capacity} players.")
    if groups > 1 and previous.capacity is not None and section.advance > previous.capacity // groups:
        raise ServiceError("bad-advance", f"{section.advance} cannot go through from each group of "
                                          f"{previous.name}: its smallest group may hold only "
                                          f"{previous.capacity // groups}.")


def going_through(section: Section) -> int:
    """How many players a later stage takes from its previous one (0: not a later stage)."""
    previous = section.previous_stage
    if previous is None or section.advance is None:
        return 0
    return section.advance * (previous.groups if previous.format == Section.Format.ROUND_ROBIN else 1)


def too_many(section: Section, room: int) -> str:
    """Why a stage's ``room`` (``most_players``) is the most it takes, in words."""
    if section.swiss_system == Section.SwissSystem.DUTCH and (section.capacity is None or section.capacity > room):
        return f"it takes at most {room:,} players, the most the FIDE Dutch pairing system takes here"
    return f"it takes at most {room:,} players"


def after_stage(section: Section) -> None:
    """A section finished: its next stage takes its top players (a task, after commit)."""
    for next_id in section.next_stages.values_list("pk", flat=True):
        _carry_over_after_commit(next_id)


def stage_created(section: Section) -> None:
    """A stage made after the one it follows finished: carry over at once (after commit)."""
    previous = section.previous_stage
    if previous is not None and previous.status == Section.Status.FINISHED:
        _carry_over_after_commit(section.pk)


def _carry_over_after_commit(section_id: int) -> None:
    transaction.on_commit(lambda: send_task("league.carry_over", section_id))


def waiting(section: Section) -> bool:
    """A later stage whose previous stage is still being played (its round 1 waits)."""
    previous = section.previous_stage
    return previous is not None and previous.status not in (Section.Status.FINISHED, Section.Status.CANCELLED)


def qualifiers(previous: Section, advance: int) -> list[int]:
    """The user ids going through from the finished ``previous`` stage, in seed order:
    the top ``advance`` by final rank (ties: the better seed), or from groups the top
    ``advance`` of each group, seeded by place and crossed over (league/formats/stages.py).
    Withdrawn players do not go through: the next one does."""
    entries = {e.user_id: e for e in previous.entries.all()}
    table = [
        user_id for user_id, _ in sorted(
            Standing.objects.filter(section=previous).values_list("user_id", "rank"),
            key=lambda row: (row[1], entries[row[0]].seed or 10**6))
        if entries[user_id].status != Entry.Status.WITHDRAWN
    ]
    groups = previous.groups if previous.format == Section.Format.ROUND_ROBIN else 1
    if groups <= 1:
        return table[:advance]
    seed_of = {e.user_id: e.seed for e in entries.values() if e.seed is not None}
    members = snake_groups(len(seed_of), groups)
    group_of = {user_id: g for g, seeds in enumerate(members) for user_id in seed_of if seed_of[user_id] in seeds}
    ranked = [[u for u in table if group_of.get(u) == g][:advance] for g in range(len(members))]
    return knockout_seeds(ranked)


def carry_over(section: Section, now: datetime) -> list[Entry]:
    """Enter the previous stage's qualifiers in the locked later ``section``, seeds set,
    checked in. Idempotent: nothing is done once it has entries, nor before the previous
    stage has finished. The caller holds the section's lock."""
    previous = section.previous_stage
    if previous is None or previous.status != Section.Status.FINISHED or section.advance is None:
        return []
    if section.status != Section.Status.REGISTRATION or section.entries.exists():
        return []
    ratings = dict(previous.entries.values_list("user_id", "rating"))
    entries = [
        Entry(section=section, user_id=user_id, seed=seed, rating=ratings.get(user_id),
              status=Entry.Status.CHECKED_IN, checked_in_at=now)
        for seed, user_id in enumerate(qualifiers(previous, section.advance), start=1)
    ]
    created = Entry.objects.bulk_create(entries)
    broadcast_section(section, {"event": "entry"})  # its open pages show the qualifiers at once
    return created


@transaction.atomic
def carry_over_stage(*, section_id: int, now: datetime | None = None) -> list[Entry]:
    """The task's service: carry the qualifiers over into stage ``section_id`` and start
    its round 1 now if it is due (else beat starts it at its time, and the organisers are
    told it waits for them)."""
    now = now or timezone.now()
    section = Section.objects.select_for_update(of=("self",)).select_related("previous_stage").filter(
        pk=section_id).first()
    if section is None:
        raise ServiceError("no-such-section", "There is no such section.")
    entries = carry_over(section, now)
    if entries and section.starts_at <= now:
        transaction.on_commit(lambda: send_task("league.start_round", section_id, 1))
    elif entries:  # it waits for its time or the organisers' "Start now": tell them (once: entries are made once)
        notify_stage_waiting(section, len(entries))
    return entries


def seeded(section: Section, entries: list[Entry]) -> list[Entry]:
    """``entries`` in seed order at the start: a later stage keeps the seeds carried over;
    otherwise highest frozen rating first, unrated after the rated, then by registration."""
    if section.previous_stage_id is not None:
        return sorted(entries, key=lambda e: (e.seed or 10**6, e.pk))
    return sorted(entries, key=lambda e: (e.rating is None, -(e.rating or 0), e.registered_at, e.pk))


def fit_groups(section: Section, players: int) -> None:
    """Fewer than two players a group at the start: fewer groups (at least one)."""
    if section.groups > 1 and players < 2 * section.groups:
        section.groups = max(1, players // 2)
        section.save(update_fields=["groups"])
