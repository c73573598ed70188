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
from league.models import Entry, Pairing, Section

from . import refusals
from .formats import format_of
from .notices import broadcast_section
from .pairings import score, stop_games
from .results import after_result, update_standings
from .scheduling import queue_arena_pairing
from .sections import locked_section


@transaction.atomic
def register(*, section: Section, user: User, now: datetime | None = None, entered_by: User | None = None) -> Entry:
    """Enter ``user`` in ``section``; refused with the reason in words when they may not.
    Every entry made by hand comes here (the pages, the API, an organiser's, the demo's):
    one section of a tournament each, whoever enters them.
    ``entered_by``: the organiser entering them (event_services.enter_player): the same
    rules (refusals.registration_refusal), the window the organiser's; made while check-in
    is open, the entry is checked in (the organiser has the player at hand)."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    # The player's row, held until commit: of two entries of theirs at once in two sections
    # of a tournament, the second waits, then sees the first (refusals.other_section_refusal).
    # No key update, so rows pointing at the player (games, notices) are written meanwhile.
    list(User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk", flat=True))
    refusal = refusals.registration_refusal(section, user, now, entered_by=entered_by)
    if refusal is not None:
        raise ServiceError(*refusal)
    late_round = refusals.late_entry_round(section, now)
    rating = selectors.frozen_rating(user=user, variant=section.variant)
    fields: dict[str, Any] = {"status": Entry.Status.REGISTERED, "rating": rating, "withdrawn_at": None,
                              "withdrawn_reason": "", "checked_in_at": None}
    if entered_by is not None and section.check_in_opens_at is not None and refusals.check_in_open(section, now):
        fields.update(status=Entry.Status.CHECKED_IN, checked_in_at=now)
    if late_round is not None:
        # Late entrants are seeded below everyone and join the next round (arena: now).
        last_seed = section.entries.aggregate(m=Max("seed"))["m"] or 0
        fields.update(late=True, seed=last_seed + 1, joined_round=late_round or 1,
                      status=Entry.Status.CHECKED_IN, checked_in_at=now)
    entry, _ = Entry.objects.update_or_create(section=section, user=user, defaults=fields)
    if section.status == Section.Status.RUNNING:  # a late entrant is in the table at once, at 0
        update_standings(section, final=False)
    if late_round == 0:  # an arena pairs its new player with the next free one
        queue_arena_pairing(section.pk)
    broadcast_section(section, {"event": "entry"})
    return entry


@transaction.atomic
def check_in(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = Entry.objects.select_for_update().filter(section=section, user=user).first()
    refusal = refusals.check_in_refusal(section, entry, now)
    if refusal is not None:
        raise ServiceError(*refusal)
    assert entry is not None  # the refusal's first case
    entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, now
    entry.save(update_fields=["status", "checked_in_at"])
    broadcast_section(section, {"event": "entry"})
    return entry


@transaction.atomic
def withdraw(*, section: Section, user: User, reason: str = "", now: datetime | None = None,
             by_organiser: bool = False) -> Entry:
    """Leave a section. Mid-event, the game in play is lost by forfeit (the opponent
    wins, unplayed as FIDE counts it) and no later round pairs the player; a round
    robin's later games are forfeits; in a bracket the opponents go through.
    ``by_organiser``: an organiser withdraws them (event_services.withdraw_player, which
    has checked who may): the refusals name the player."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = Entry.objects.select_for_update().filter(section=section, user=user).first()
    # The player by the name the site shows them by (User.name), not their login.
    refusal = refusals.withdraw_refusal(section, entry, player=user.name if by_organiser else "")
    if refusal is not None:
        raise ServiceError(*refusal)
    assert entry is not None  # the refusal's first case
    entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, now
    entry.withdrawn_reason = reason[:200] or selectors.WITHDREW
    if format_of(section).withdrawal_eliminates:
        entry.eliminated = True
    entry.save(update_fields=["status", "withdrawn_at", "withdrawn_reason", "eliminated"])
    broadcast_section(section, {"event": "entry"})
    if section.status != Section.Status.RUNNING:
        return entry
    for pairing in (
        Pairing.objects.select_for_update()
        .filter(Q(first=user) | Q(second=user), section=section).exclude(status=Pairing.Status.FINISHED)
    ):
        first_lost = pairing.first_id == user.pk
        # The opponent is told why their game ended: "aborted" alone (a game without a move
        # is called off) read as if the pairing did not count, though they win it by forfeit.
        opponent = pairing.second if first_lost else pairing.first
        reason = f"{user.name} withdrew from the section" + (f": {opponent.name} wins by forfeit." if opponent else ".")
        # Scored as a forfeit below, so unrated like every forfeit, even with moves played.
        stop_games(pairing, user, rated=False, reason=reason)
        if pairing.is_bye:
            score(pairing, Pairing.Result.DOUBLE_FORFEIT, 0.0, None, played=False, now=now)
        else:
            score(pairing, Pairing.Result.SECOND_FORFEIT_WIN if first_lost else Pairing.Result.FIRST_FORFEIT_WIN,
                   0.0 if first_lost else 1.0, 1.0 if first_lost else 0.0, played=False, now=now)
        after_result(section, pairing.round, now, scored=pairing)
    return entry
