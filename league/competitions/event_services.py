"""Organiser actions the pages and the API need on top of league/competitions/:
who may run a club's events, opening and closing registration, starting now.

Thin: every change to a competition's progress still goes through league.competitions
(start_round pairs, creates the games and tells the players)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from games import rule_sets as game_rule_sets
from games.models import RuleSet
from league import competitions as cs
from league.models import CalendarFeed, Club, Entry, Round, Season, Section, Tournament

from . import audit, operations, refusals, selectors
from . import sections as cs_sections
from .formats import format_of
from .notices import broadcast_section
from .refusals import OPEN_SECTION
from .sections import check_round_one_ahead


def check_organiser(*, user: User, club: Club) -> None:
    """Refuse unless ``user`` runs ``club``'s events (the permission's rule: moderation/permissions.py)."""
    refuse(refusals.organiser_refusal(user, club))


def refuse(refusal: refusals.Refusal | None) -> None:
    """Raise the refusal, if any (the pages ask the same functions before showing a button)."""
    if refusal is not None:
        raise ServiceError(*refusal)


def create_tournament(*, by: User, club: Club, name: str, starts_at: datetime, season: Season | None = None,
                      description: str = "", rating_period: str = Tournament.RatingPeriod.GAME,
                      draft: bool = False) -> Tournament:
    """A new tournament of ``club``, starting ahead (``check_start_ahead``); a draft stays
    hidden until registration opens."""
    check_organiser(user=by, club=club)
    check_start_ahead(starts_at, timezone.now())
    with transaction.atomic():
        tournament = cs.create_tournament(club=club, name=name, starts_at=starts_at, season=season,
                                          description=description, rating_period=rating_period, created_by=by)
        if draft:
            tournament.status = Tournament.Status.DRAFT
            tournament.save(update_fields=["status"])
        audit.record(actor=by, action="tournament.create", target=tournament, club=club,
                     details={"name": tournament.name, "starts_at": starts_at.isoformat(), "draft": draft})
    return tournament


def check_start_ahead(starts_at: datetime, now: datetime) -> None:
    """Refuse a tournament's start that has passed: its page would read "registration
    closed" with nothing played (an outside walkthrough), and no section could be added,
    since a round 1 must be ahead (sections.check_round_one_ahead)."""
    if starts_at <= now:
        raise ServiceError("bad-start", f"The tournament would start at {starts_at:%a %d %b %Y, %H:%M} UTC, which "
                                        "has passed: choose a time ahead.")


@transaction.atomic
def create_section(*, by: User, tournament: Tournament, name: str, format: str, rule_set: RuleSet | None = None,
                   variant: str = "", **settings: Any) -> Section:
    """A section played by ``rule_set``, or by ``variant``'s standard rules without one."""
    refuse(refusals.add_section_refusal(tournament, by))
    check_round_one_ahead(settings.get("starts_at") or tournament.starts_at, timezone.now())
    if rule_set is None:
        if not variant:
            raise ServiceError("no-rules", "Choose a variant or a house-rule set.")
        rule_set = game_rule_sets.standard_rule_set(variant)
    section = cs.create_section(tournament=tournament, name=name, rule_set=rule_set, format=format, **settings)
    audit.record(actor=by, action="section.create", target=section, club=tournament.club,
                 details={"tournament": tournament.pk, "format": format, "rule_set": rule_set.pk,
                          "variant": rule_set.variant})
    return section


def _locked_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


def _audited(changed: dict[str, tuple[Any, Any]]) -> dict[str, list[Any]]:
    """What changed, for the audit log: each field's [before, after], as text when not a
    plain value (a date, a duration, a rule set)."""
    def plain(value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, list):
            return [plain(v) for v in value]
        return getattr(value, "pk", None) or str(value)
    return {name: [plain(before), plain(after)] for name, (before, after) in changed.items()}


@transaction.atomic
def edit_tournament(*, by: User, tournament: Tournament, now: datetime | None = None, **changes: Any) -> Tournament:
    """Change a tournament's name, description, start, rating period or season while
    nothing of it has started: the checks of creation; a section whose round 1 was at the
    tournament's start moves with it (sections.update_tournament). Audited when
    something changed."""
    now = now or timezone.now()
    tournament = _locked_tournament(tournament)
    refuse(refusals.edit_tournament_refusal(tournament, by))
    if changes.get("starts_at") not in (None, tournament.starts_at):
        check_start_ahead(changes["starts_at"], now)
    changed = cs_sections.update_tournament(tournament, now=now, **changes)
    if changed:
        audit.record(actor=by, action="tournament.edit", target=tournament, club=tournament.club,
                     details={"changed": _audited(changed)})
    return tournament


@transaction.atomic
def delete_tournament(*, by: User, tournament: Tournament) -> None:
    """Delete a tournament none of whose sections has started, with nobody entered (a
    draft, or one published by mistake), with its sections. Audited (the entry keeps
    its name and id)."""
    tournament = _locked_tournament(tournament)
    refuse(refusals.delete_tournament_refusal(tournament, by))
    sections = list(tournament.sections.order_by("name"))
    audit.record(actor=by, action="tournament.delete", target=tournament, club=tournament.club,
                 details={"name": tournament.name, "status": tournament.status,
                          "sections": [section.name for section in sections]})
    club_page = reverse("competitions:club", args=[tournament.club.slug])
    for section in sections:  # open pages say so, instead of showing what no longer exists
        broadcast_section(section, {"event": "deleted", "what": "tournament", "url": club_page})
    cs_sections.delete_tournament(tournament)


def _rules_of(section: Section, changes: dict[str, Any]) -> None:
    """``variant`` / ``rule_set`` as at creation: a house-rule set, else the variant's
    standard rules (the section's own variant when only the set is cleared)."""
    if "rule_set" not in changes and "variant" not in changes:
        return
    rule_set, variant = changes.pop("rule_set", None), changes.pop("variant", "") or ""
    if rule_set is None:
        rule_set = game_rule_sets.standard_rule_set(variant or section.variant)
    changes["rule_set"] = rule_set


@transaction.atomic
def edit_section(*, by: User, section: Section, now: datetime | None = None, **changes: Any) -> Section:
    """Change a section before its round 1: whatever its creation took (the same checks);
    refused, with how many, when it would leave entered players out (sections.update_section).
    Audited when something changed; open pages refresh."""
    now = now or timezone.now()
    section = cs_sections.locked_section(section.pk)
    refuse(refusals.edit_section_refusal(section, by))
    _rules_of(section, changes)
    changed = cs_sections.update_section(section, now=now, **changes)
    if changed:
        audit.record(actor=by, action="section.edit", target=section, club=section.tournament.club,
                     details={"tournament": section.tournament_id, "changed": _audited(changed)})
        broadcast_section(section, {"event": "section-edited"})
    return section


@transaction.atomic
def delete_section(*, by: User, section: Section) -> None:
    """Delete a section before its round 1, with nobody entered and no stage after it.
    Audited (the entry keeps its name and id)."""
    section = cs_sections.locked_section(section.pk)
    refuse(refusals.delete_section_refusal(section, by))
    audit.record(actor=by, action="section.delete", target=section, club=section.tournament.club,
                 details={"tournament": section.tournament_id, "name": section.name, "format": section.format})
    tournament = section.tournament
    broadcast_section(section, {"event": "deleted", "what": "section", "url": reverse(
        "competitions:tournament", args=[tournament.club.slug, tournament.slug])})
    cs_sections.delete_section(section)


@transaction.atomic
def enter_player(*, by: User, section: Section, user: User, now: datetime | None = None) -> Entry:
    """An organiser enters a member of the club (a child without a device, say): the
    player's own rules (eligibility, capacity, an entry already made) through
    entries.register; the window is the organiser's (until round 1). Audited."""
    entry = cs.register(section=section, user=user, now=now, entered_by=by)
    audit.record(actor=by, action="entry.enter", target=entry, club=section.tournament.club,
                 details={"section": section.pk, "player": user.username, "status": entry.status})
    return entry


@transaction.atomic
def withdraw_player(*, by: User, section: Section, user: User, reason: str = "",
                    now: datetime | None = None) -> Entry:
    """An organiser withdraws an entrant: entries.withdraw, as the player's own (mid-event
    the game in play is lost by forfeit). Audited."""
    refuse(refusals.organiser_refusal(by, section.tournament.club))
    entry = cs.withdraw(section=section, user=user, reason=reason or selectors.BY_ORGANISER, now=now,
                        by_organiser=True)
    audit.record(actor=by, action="entry.withdraw", target=entry, club=section.tournament.club,
                 reason=reason, details={"section": section.pk, "player": user.username})
    return entry


@transaction.atomic
def open_registration(*, by: User, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Publish a draft: each section's registration then follows the window the organiser
    set (none: open now, until round 1). Or, once published, open it again now (after a
    close): every section not started opens at once, until its closing time if one is
    still ahead, else until round 1. (Publishing used to clear every window: a section
    set to open tomorrow took entries at once.)"""
    now = now or timezone.now()
    tournament = _locked_tournament(tournament)
    refuse(refusals.open_registration_refusal(tournament, by, now))
    publishing = tournament.status == Tournament.Status.DRAFT
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save(update_fields=["status"])
    for section in Section.objects.select_for_update().filter(tournament=tournament, status__in=OPEN_SECTION):
        if not publishing:
            if section.registration_opens_at is not None and section.registration_opens_at > now:
                section.registration_opens_at = None
            if section.registration_closes_at is not None and section.registration_closes_at <= now:
                section.registration_closes_at = None  # until round 1 starts
            section.save(update_fields=["registration_opens_at", "registration_closes_at"])
        broadcast_section(section, {"event": "registration-opened"})  # open pages offer Register
    audit.record(actor=by, action="tournament.open-registration", target=tournament, club=tournament.club)
    return tournament


@transaction.atomic
def close_registration(*, by: User, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Close registration in every section not yet started; entries already in stay."""
    now = now or timezone.now()
    tournament = _locked_tournament(tournament)
    refuse(refusals.close_registration_refusal(tournament, by, now))
    for section in Section.objects.select_for_update().filter(tournament=tournament, status__in=OPEN_SECTION):
        section.registration_closes_at = now
        section.save(update_fields=["registration_closes_at"])
        broadcast_section(section, {"event": "registration-closed"})  # open pages drop Register
    audit.record(actor=by, action="tournament.close-registration", target=tournament, club=tournament.club,
                 details={"closed_at": now.isoformat()})
    return tournament


@transaction.atomic
def start_section(*, by: User, section: Section, now: datetime | None = None) -> Round:
    """Start a section now instead of at its scheduled time: round 1 (or the arena) is
    paired at once. Refused, with nothing changed, without two players."""
    now = now or timezone.now()
    section = Section.objects.select_for_update().select_related("tournament__club").get(pk=section.pk)
    refuse(refusals.start_section_refusal(section, by))
    if format_of(section).timed:
        # The arena's clock runs from its start: move the start, keep the duration.
        Section.objects.filter(pk=section.pk).update(starts_at=now)
    Round.objects.filter(section=section, number=1, status=Round.Status.SCHEDULED).update(starts_at=now)
    round_ = cs.start_round(section_id=section.pk, number=1, now=now, force=True)
    if round_ is None:  # cannot happen with force; a clear error rather than a silent no-op
        raise ServiceError("not-started", f"{section.name} could not start.")
    audit.record(actor=by, action="section.start", target=section, club=section.tournament.club,
                 details={"tournament": section.tournament_id, "round": round_.number,
                          "boards": round_.pairings.count()})
    return round_


@transaction.atomic
def end_section_early(*, by: User, section: Section, now: datetime | None = None) -> Section:
    """The organiser ends a section whose next round cannot be paired after its last
    completed round (operations.end_section_early), audited."""
    refuse(refusals.organiser_refusal(by, section.tournament.club))
    ended = operations.end_section_early(section_id=section.pk, now=now)
    audit.record(actor=by, action="section.end-early", target=ended, club=section.tournament.club,
                 reason=ended.ended_early, details={"tournament": ended.tournament_id, "round": ended.current_round})
    return ended


def start_tournament(*, by: User, tournament: Tournament, now: datetime | None = None) -> list[Round]:
    """Start every section still open for registration (each in its own transaction)."""
    refuse(refusals.start_tournament_refusal(tournament, by))
    sections = list(refusals.sections_to_start(tournament))
    return [start_section(by=by, section=section, now=now) for section in sections]


def new_calendar_link(*, user: User) -> CalendarFeed:
    """Give the player a new private calendar link; the old one, if any, stops working
    at once (there is one link per player, so replacing it is revoking it)."""
    if not user.is_authenticated:
        raise ServiceError("not-signed-in", "Sign in to make your calendar link.")
    # 24 random bytes: 32 URL-safe characters, as hard to guess as a session key.
    feed, _ = CalendarFeed.objects.update_or_create(
        user=user, defaults={"token": secrets.token_urlsafe(24), "created_at": timezone.now()})
    return feed
