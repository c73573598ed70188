"""Entries: registering (late entries as the format allows), checking in, withdrawing
(mid-event, the games in play are lost by forfeit)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from league.competitions import selectors
from league.models import Entry, Pairing, Section, Tournament

from .formats import format_of
from .pairings import score, stop_games
from .results import after_result
from .scheduling import queue_arena_pairing
from .sections import locked_section


def _late_entry_round(section: Section, now: datetime) -> int | None:
    """The round a late entrant would join (0: at once), or None if late entries are closed."""
    if section.status != Section.Status.RUNNING:
        return None
    return format_of(section).late_entry_round(section, now)


@transaction.atomic
def register(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    """Enter ``user`` in ``section``; refused with the reason in words when they may not."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    late_round: int | None = None
    if selectors.stage_refusal(section):
        raise ServiceError("later-stage", selectors.stage_refusal(section))
    if section.status == Section.Status.RUNNING:
        late_round = _late_entry_round(section, now)
        if late_round is None:
            raise ServiceError("registration-closed", "Registration is closed: this section is under way.")
    elif section.status != Section.Status.REGISTRATION:
        raise ServiceError("registration-closed", "Registration is closed: this section is over.")
    else:
        if section.tournament.status == Tournament.Status.DRAFT:  # hidden until registration opens
            raise ServiceError("registration-not-open", "Registration has not opened yet: this tournament is a draft.")
        if section.registration_opens_at and now < section.registration_opens_at:
            raise ServiceError("registration-closed",
                               f"Registration opens at {section.registration_opens_at:%Y-%m-%d %H:%M} UTC.")
        if now >= (section.registration_closes_at or section.starts_at):
            raise ServiceError("registration-closed", "Registration is closed.")
    entry = Entry.objects.filter(section=section, user=user).first()
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        raise ServiceError("already-entered", "You are already entered in this section.")
    if entry is not None and late_round is not None:
        raise ServiceError("already-entered", "You withdrew from this section after it started.")
    if section.capacity is not None and selectors.active_entries(section).count() >= section.capacity:
        raise ServiceError("section-full", f"This section is full ({section.capacity} players).")
    rating = selectors.frozen_rating(user=user, variant=section.variant)
    refusal = selectors.eligibility_refusal(section=section, user=user, rating=rating)
    if refusal:
        raise ServiceError("not-eligible", refusal)
    fields: dict[str, Any] = {"status": Entry.Status.REGISTERED, "rating": rating, "withdrawn_at": None,
                              "withdrawn_reason": "", "checked_in_at": None}
    if late_round is not None:
        # Late entrants are seeded below everyone and join the next round (arena: now).
        last_seed = section.entries.aggregate(m=Max("seed"))["m"] or 0
        fields.update(late=True, seed=last_seed + 1, joined_round=late_round or 1,
                      status=Entry.Status.CHECKED_IN, checked_in_at=now)
    entry, _ = Entry.objects.update_or_create(section=section, user=user, defaults=fields)
    if late_round == 0:  # an arena pairs its new player with the next free one
        queue_arena_pairing(section.pk)
    return entry


@transaction.atomic
def check_in(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = Entry.objects.select_for_update().filter(section=section, user=user).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError("not-entered", "You are not entered in this section.")
    if entry.status == Entry.Status.CHECKED_IN:
        return entry
    if section.check_in_opens_at is None:
        raise ServiceError("no-check-in", "This section needs no check-in.")
    closes = section.check_in_closes_at or section.starts_at
    if not section.check_in_opens_at <= now < closes or section.status != Section.Status.REGISTRATION:
        raise ServiceError(
            "check-in-closed",
            f"Check-in is open from {section.check_in_opens_at:%Y-%m-%d %H:%M} to {closes:%Y-%m-%d %H:%M} UTC.",
        )
    entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, now
    entry.save(update_fields=["status", "checked_in_at"])
    return entry


@transaction.atomic
def withdraw(*, section: Section, user: User, reason: str = "", now: datetime | None = None) -> Entry:
    """Leave a section. Mid-event, the game in play is lost by forfeit (the opponent
    wins, unplayed as FIDE counts it) and no later round pairs the player; a round
    robin's later games are forfeits; in a bracket the opponents go through."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = Entry.objects.select_for_update().filter(section=section, user=user).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError("not-entered", "You are not entered in this section.")
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        raise ServiceError("section-over", "This section is over.")
    entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, now
    entry.withdrawn_reason = reason[:200] or "Withdrew."
    if format_of(section).withdrawal_eliminates:
        entry.eliminated = True
    entry.save(update_fields=["status", "withdrawn_at", "withdrawn_reason", "eliminated"])
    if section.status != Section.Status.RUNNING:
        return entry
    for pairing in (
        Pairing.objects.select_for_update()
        .filter(Q(first=user) | Q(second=user), section=section).exclude(status=Pairing.Status.FINISHED)
    ):
        # Scored as a forfeit below, so unrated like every forfeit, even with moves played.
        stop_games(pairing, user, rated=False, reason=f"{user.username} withdrew from the section.")
        first_lost = pairing.first_id == user.pk
        if pairing.is_bye:
            score(pairing, Pairing.Result.DOUBLE_FORFEIT, 0.0, None, played=False, now=now)
        else:
            score(pairing, Pairing.Result.SECOND_FORFEIT_WIN if first_lost else Pairing.Result.FIRST_FORFEIT_WIN,
                   0.0 if first_lost else 1.0, 1.0 if first_lost else 0.0, played=False, now=now)
        after_result(section, pairing.round, now)
    return entry
