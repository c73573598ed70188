"""Tournaments and sections created (a section's settings checked, its round 1 scheduled),
prizes set, and a section's row locked: every service starts with ``locked_section``."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from accounts import age, lookalikes
from accounts.errors import ServiceError
from accounts.models import User
from games.models import RuleSet
from league.formats import tiebreaks
from league.models import Club, Entry, Prize, Season, Section, Tournament

from . import audit, selectors
from .formats import (
    FORMAT_SETTINGS,
    FORMATS,
    SECTION_SETTINGS,
    check_format_settings,
    format_of,
    own_defaults,
    section_settings,
)
from .formats.section_settings import most_players
from .refusals import organiser_refusal
from .scheduling import cancel_section_tasks, cancel_task, reschedule_round, schedule_round, schedule_task
from .stages import check_stage, going_through, stage_created

#: Slugs the competition pages' own routes use (league/urls.py): a tournament or a
#: section given one would be shadowed by the route, so the slug takes a number instead.
RESERVED_TOURNAMENT_SLUGS = frozenset({"new-tournament", "leagues", "join"})


RESERVED_SECTION_SLUGS = frozenset({"new-section", "organise"})


def _unique_slug(model: Any, base: str, reserved: frozenset[str] = frozenset(), **scope: Any) -> str:
    base = base or "event"
    slug, n = base, 2
    while slug in reserved or model.objects.filter(slug=slug, **scope).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_tournament(
    *,
    club: Club,
    name: str,
    starts_at: datetime,
    season: Season | None = None,
    description: str = "",
    rating_period: str = Tournament.RatingPeriod.GAME,
    created_by: User | None = None,
) -> Tournament:
    name = check_tournament(club=club, name=name, description=description, rating_period=rating_period,
                            season=season)
    return Tournament.objects.create(
        club=club, season=season, name=name, slug=_unique_slug(Tournament, slugify(name), RESERVED_TOURNAMENT_SLUGS, club=club),
        description=description, rating_period=rating_period, starts_at=starts_at, created_by=created_by,
    )


def check_tournament(*, club: Club, name: str, description: str, rating_period: str, season: Season | None) -> str:
    """Refuse (ServiceError) a tournament's details that cannot be, as creating and editing
    one both check them; the name as kept (stripped)."""
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad-name", "A tournament needs a name.")
    lookalikes.refuse_hidden(name, what="tournament")
    if len(description or "") > MOST_DESCRIPTION:
        raise ServiceError("bad-description", f"A description is at most {MOST_DESCRIPTION:,} characters.")
    if rating_period not in Tournament.RatingPeriod.values:
        raise ServiceError("bad-rating-period", 'Ratings are by "game" (live) or by "tournament" (one period).')
    if season is not None and season.league.club_id != club.pk:
        raise ServiceError("bad-season", "That season belongs to another club's league.")
    return name


#: What an organiser may change of a tournament while nothing of it has started
#: (event_services.edit_tournament); its slug, and so its address, stays.
TOURNAMENT_CHANGES = frozenset({"name", "description", "starts_at", "rating_period", "season"})


@transaction.atomic
def update_tournament(tournament: Tournament, *, now: datetime, **changes: Any) -> dict[str, tuple[Any, Any]]:
    """Change a tournament's details (the caller has locked it and checked that nothing of
    it has started): the checks of creation. A section whose round 1 was at the
    tournament's start moves with it, checked as an edit of the section is (its name then
    heads the refusal); the others keep their own times. Answers what changed, as
    (before, after)."""
    unknown = set(changes) - TOURNAMENT_CHANGES
    if unknown:
        raise ServiceError("bad-setting", f"Unknown tournament detail(s): {', '.join(sorted(unknown))}.")
    after = {field: changes.get(field, getattr(tournament, field)) for field in TOURNAMENT_CHANGES}
    after["name"] = check_tournament(club=tournament.club, name=after["name"], description=after["description"] or "",
                                     rating_period=after["rating_period"], season=after["season"])
    after["description"] = after["description"] or ""
    changed = {field: (getattr(tournament, field), value) for field, value in after.items()
               if getattr(tournament, field) != value}
    if not changed:
        return changed
    if "starts_at" in changed:
        old_start, new_start = changed["starts_at"]
        for section in tournament.sections.filter(starts_at=old_start).order_by("pk"):
            try:
                update_section(locked_section(section.pk), now=now, starts_at=new_start)
            except ServiceError as err:
                raise ServiceError(err.code, f"{section.name} (its round 1 moves with the tournament's start): "
                                             f"{err.message}") from err
    for field, (_, value) in changed.items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(changed))
    return changed


def check_round_one_ahead(starts_at: datetime, now: datetime) -> None:
    """Refuse a round 1 whose time has passed: it would start at once, before anyone could
    enter, and be cancelled for want of players (a section is started early by hand)."""
    if starts_at <= now:
        raise ServiceError("bad-schedule", f"Round 1 would start at {starts_at:%a %d %b %Y, %H:%M} UTC, which has "
                                           "passed: choose a time ahead (a section can be started early by hand).")


@transaction.atomic
def create_section(
    *,
    tournament: Tournament,
    name: str,
    rule_set: RuleSet,
    format: str,
    starts_at: datetime | None = None,
    rated: bool = True,
    capacity: int | None = None,
    **options: Any,
) -> Section:
    """A new section, open for registration, with its round 1 (or the arena) scheduled.

    ``options`` are the Section fields of SECTION_SETTINGS (the settings every section
    has and its format's own, league/competitions/formats/); bad ones are refused with
    the reason and nothing is created.
    """
    unknown = set(options) - SECTION_SETTINGS
    if unknown:
        raise ServiceError("bad-setting", f"Unknown section setting(s): {', '.join(sorted(unknown))}.")
    if format not in Section.Format.values:
        raise ServiceError("bad-format", f"Formats are {', '.join(Section.Format.values)}.")
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ServiceError("tournament-over", "This tournament is over.")
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad-name", "A section needs a name.")
    lookalikes.refuse_hidden(name, what="section")
    if tournament.sections.filter(name__iexact=name).exists():  # two alike read as one on every page
        raise ServiceError("bad-name", f"This tournament already has a section called {name!r}: give another name.")
    for setting, value in own_defaults(format).items():  # a Swiss's pairing system, unless given
        if options.get(setting) is None:
            options[setting] = value
    section = Section(
        tournament=tournament, name=name, slug=_unique_slug(Section, slugify(name), RESERVED_SECTION_SLUGS, tournament=tournament),
        variant=rule_set.variant, rule_set=rule_set, format=format, rated=rated, capacity=capacity,
        starts_at=starts_at or tournament.starts_at, **options,
    )
    _check_section(section)
    section.save()
    schedule_round(section, 1, section.starts_at)
    stage_created(section)
    _schedule_arena_end(section)
    return section


def _arena_end_task(section: Section) -> str:
    return f"league: end arena {section.pk}"


def _schedule_arena_end(section: Section) -> None:
    """A timed format (the arena) ends on the clock: its one-off task at its closing time
    (made again when an edit moves it; none for the other formats)."""
    cancel_task(_arena_end_task(section))
    closes = format_of(section).closes_at(section)
    if closes is not None:
        schedule_task(_arena_end_task(section), "league.finish_arena", [section.pk], closes)


#: What an organiser may change of a section before its round 1 (event_services.edit_section):
#: everything the creation form takes; the tournament and the slug (its address) stay.
SECTION_CHANGES = SECTION_SETTINGS | {"name", "format", "rule_set", "rated", "capacity", "starts_at"}

#: Relations among SECTION_CHANGES: compared and set as they are.
_RELATIONS = frozenset({"rule_set", "previous_stage"})


@transaction.atomic
def update_section(section: Section, *, now: datetime, **changes: Any) -> dict[str, tuple[Any, Any]]:
    """Change a section not yet started (the caller has locked it and checked that): the
    checks of creation (_check_section, unique names, a round 1 ahead when it moves), then
    its entrants: a change that would leave an entered player out (an age or rating limit,
    members only, a later stage) or too little room for them is refused, saying how many,
    rather than dropping their entries. Round 1 (and an arena's end) move with the start.
    Another variant's rules re-freeze the entrants' ratings in it. Answers what changed,
    as (before, after); nothing is saved on a refusal."""
    unknown = set(changes) - SECTION_CHANGES
    if unknown:
        raise ServiceError("bad-setting", f"Unknown section setting(s): {', '.join(sorted(unknown))}.")
    fmt = changes.get("format", section.format)
    if fmt not in Section.Format.values:
        raise ServiceError("bad-format", f"Formats are {', '.join(Section.Format.values)}.")
    if "name" in changes:
        changes["name"] = (changes["name"] or "").strip()
        if not changes["name"]:
            raise ServiceError("bad-name", "A section needs a name.")
        lookalikes.refuse_hidden(changes["name"], what="section")
        if section.tournament.sections.exclude(pk=section.pk).filter(name__iexact=changes["name"]).exists():
            raise ServiceError("bad-name", f"This tournament already has a section called {changes['name']!r}: "
                                           "give another name.")
    if fmt != section.format:  # another format's settings go back to their defaults, unless given
        own = FORMATS[fmt].settings
        for setting in FORMAT_SETTINGS:
            if setting not in own and setting.name not in changes:
                changes[setting.name] = None if setting.required else setting.default
    for name, value in own_defaults(fmt).items():  # a Swiss's pairing system, unless given
        if changes.get(name, getattr(section, name)) is None:
            changes[name] = value
    if (not section.tiebreaks and fmt == section.format
            and list(changes.get("tiebreaks") or []) == list(FORMATS[fmt].default_tiebreaks)):
        changes["tiebreaks"] = []  # the format's default, as it was: still the default if the format's changes
    before = copy.copy(section)
    for name, value in changes.items():
        if name not in _RELATIONS:
            try:
                value = cast(Field, Section._meta.get_field(name)).to_python(value)
            except ValidationError as err:
                raise ServiceError("bad-setting", f"{name}: {' '.join(err.messages)}") from err
        setattr(section, name, value)
    if "rule_set" in changes:
        section.variant = section.rule_set.variant
    changed = {name: (getattr(before, name), getattr(section, name)) for name in changes
               if getattr(before, name) != getattr(section, name)}
    if not changed:
        return changed
    if "starts_at" in changed:
        check_round_one_ahead(section.starts_at, now)
    _check_section(section, new_rule_set="rule_set" in changed)
    ratings = _entrants_kept(before, section)
    section.save()
    Entry.objects.bulk_update([Entry(pk=entry_id, rating=rating) for entry_id, rating in ratings.items()], ["rating"])
    if "starts_at" in changed:
        reschedule_round(section, 1, section.starts_at, now)
    if changed.keys() & {"starts_at", "arena_duration", "format"}:
        _schedule_arena_end(section)
    if "previous_stage" in changed:
        stage_created(section)
    return changed


def _entrants_kept(before: Section, after: Section) -> dict[int, float | None]:
    """Refuse a change that would leave an entered player out: eligible before it, not
    after (or with no room). Answers the entrants' ratings re-frozen in another variant
    (entry id -> rating), to be saved with the change."""
    entries = list(selectors.active_entries(after).select_related("user__profile"))
    most = most_players(after)
    if most is not None and len(entries) > most:
        raise ServiceError("would-exclude-entrants", f"{len(entries):,} players are entered: room for {most:,} would "
                                                     f"leave {len(entries) - most:,} out. Withdraw players first, or "
                                                     "keep room for them all.")
    ratings = {}
    if after.variant != before.variant:
        ratings = {e.pk: selectors.frozen_rating(user=e.user, variant=after.variant) for e in entries}
    left_out = []
    for entry in entries:
        if selectors.eligibility_refusal(section=before, user=entry.user, rating=entry.rating, own=False):
            continue  # not this change's doing
        reason = selectors.eligibility_refusal(section=after, user=entry.user, rating=ratings.get(entry.pk, entry.rating),
                                              own=False)
        if reason:
            left_out.append((entry.user.username, reason))
    if left_out:
        n = len(left_out)
        names = ", ".join(name for name, _ in left_out[:5]) + (f" and {n - 5} more" if n > 5 else "")
        players = "1 entered player" if n == 1 else f"{n:,} entered players"
        raise ServiceError("would-exclude-entrants", f"This change would exclude {players} ({names}): "
                                                     f"{left_out[0][1]} Withdraw them "
                                                     "first, or keep limits every entrant meets.")
    return ratings


@transaction.atomic
def delete_section(section: Section) -> None:
    """Delete a section not started (the caller has checked: no entrant, no later stage),
    its scheduled round 1 and an arena's end with it."""
    cancel_section_tasks(section)
    cancel_task(_arena_end_task(section))
    section.delete()


@transaction.atomic
def delete_tournament(tournament: Tournament) -> None:
    """Delete a tournament none of whose sections has started and no entrant (the caller
    has checked), with its sections and their scheduled tasks."""
    for section in tournament.sections.all():
        cancel_section_tasks(section)
        cancel_task(_arena_end_task(section))
    tournament.delete()


#: The years an event's dates fall in (league/competitions/forms.py checks the forms' and the
#: API's fields alike); room for the durations added to them.
EVENT_YEARS = (1900, 2999)


#: A tournament's description: a page of text, not a book (an outside probe sent 100,000 characters).
MOST_DESCRIPTION = 10_000

#: The oldest age a section may name (the oldest people have lived to about 122).
MOST_AGE = 120

#: More start times than any section has rounds: a list of thousands is only a burden.
MOST_ROUND_STARTS = 1000


def _check_section(section: Section, *, new_rule_set: bool = True) -> None:
    """Refuse (ServiceError) the first setting of ``section`` that cannot be. ``new_rule_set``:
    the rule set is being chosen (an edit keeping the section's own, since revised, passes)."""
    def refuse(code: str, message: str) -> None:
        raise ServiceError(code, message)

    if new_rule_set and not section.rule_set.is_current:
        refuse("old-rule-set", "Use the current version of the house-rule set.")
    if section.capacity is not None and section.capacity < 2:
        refuse("bad-capacity", "A section needs room for at least two players.")
    check_format_settings(section)  # the format settings, as their declarations say
    check_stage(section)  # a later stage of a multi-stage event, or groups
    if section.observer_policy not in Section.ObserverPolicy.values:
        refuse("bad-observer-policy", f"Observer policies are {', '.join(Section.ObserverPolicy.values)}.")
    for name in section.tiebreaks or []:
        if name not in tiebreaks.TIEBREAKS:
            refuse("bad-tiebreak", f"Unknown tie-break {name!r}; known: {tiebreaks.known_words()}.")
    twice = next((name for name in section.tiebreaks or [] if section.tiebreaks.count(name) > 1), None)
    if twice is not None:
        refuse("bad-tiebreak", f"Each tie-break counts once: {twice} is listed twice.")
    if section.age_under is not None and section.age_under not in age.YOUTH_CATEGORIES:
        refuse("bad-age-group", "Youth groups are U8, U10, U12, U14, U16 and U18.")
    if section.age_over is not None and section.age_over not in age.SENIOR_CATEGORIES:
        refuse("bad-age-group", "Senior groups are 50+ and 65+.")
    if section.age_under is not None and section.age_over is not None:
        refuse("bad-age-group", "A section is a youth group or a senior group, not both.")
    for bound in (section.min_age, section.max_age):
        if bound is not None and not 0 <= bound <= MOST_AGE:
            refuse("bad-age-group", f"Ages run from 0 to {MOST_AGE}.")
    # min_age / max_age with no age_cutoff count ages on the day round 1 starts (selectors.age_cutoff).
    if section.min_age is not None and section.max_age is not None and section.min_age > section.max_age:
        refuse("bad-age-group", "The minimum age is above the maximum.")
    if (section.rating_min is not None and section.rating_max is not None
            and section.rating_min > section.rating_max):
        refuse("bad-rating-band", "The rating band's minimum is above its maximum.")
    if section.round_interval is not None and section.round_interval <= timedelta(0):
        refuse("bad-schedule", "The time between rounds is a positive duration.")
    if len(section.round_starts or []) > MOST_ROUND_STARTS:
        refuse("bad-schedule", f"At most {MOST_ROUND_STARTS} round start times.")
    starts = []
    for when in section.round_starts or []:
        moment = parse_datetime(when) if isinstance(when, str) else None
        if moment is None:
            refuse("bad-schedule", f"Round start times are ISO date-times; {str(when)[:40]!r} is not one.")
        elif not EVENT_YEARS[0] <= moment.year <= EVENT_YEARS[1]:
            refuse("bad-schedule", f"Round start times fall in the years {EVENT_YEARS[0]} to {EVENT_YEARS[1]}.")
        else:
            starts.append(moment if timezone.is_aware(moment) else timezone.make_aware(moment))
    if any(later <= earlier for earlier, later in pairwise(starts)):
        refuse("bad-schedule", "Round start times go in order: each after the one before.")
    if section.age_year is not None and not EVENT_YEARS[0] <= section.age_year <= EVENT_YEARS[1]:
        refuse("bad-age-group", f"The year ages are counted in falls in {EVENT_YEARS[0]} to {EVENT_YEARS[1]}.")
    if section.age_cutoff is not None and not EVENT_YEARS[0] <= section.age_cutoff.year <= EVENT_YEARS[1]:
        refuse("bad-age-group", f"The age cutoff falls in the years {EVENT_YEARS[0]} to {EVENT_YEARS[1]}.")
    closes = section.registration_closes_at
    if section.registration_opens_at and closes and section.registration_opens_at > closes:
        refuse("bad-window", "Registration closes before it opens.")
    if section.registration_opens_at and section.starts_at and section.registration_opens_at >= section.starts_at:
        refuse("bad-window", "Registration would open after round 1 starts: nobody could enter.")
    if section.round_starts and section.starts_at and starts and starts[0] <= section.starts_at:
        refuse("bad-schedule", "The round start times are rounds 2, 3, ...: round 2 starts after round 1.")
    if section.check_in_opens_at and section.check_in_opens_at > (section.check_in_closes_at or section.starts_at):
        refuse("bad-window", "Check-in closes before it opens.")


@transaction.atomic
def add_prize(
    *,
    section: Section,
    label: str,
    kind: str = Prize.Kind.PLACE,
    place: int = 1,
    value: str = "",
    age_under: int | None = None,
    age_over: int | None = None,
    rating_below: int | None = None,
    by: User | None = None,
) -> Prize:
    """A prize of a section, awarded when it finishes (docs/competitions.md: one each).
    ``by``: the organiser setting it (audited); None for a script or a test's setup."""
    section = locked_section(section.pk)
    if by is not None and not by.has_perm("league.organise_club", section.tournament.club):
        raise ServiceError("not-organiser", f"Only {section.tournament.club.name}'s owners and organisers set prizes.")
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        raise ServiceError("section-over", "Prizes are set before the section ends.")
    if kind not in Prize.Kind.values:
        raise ServiceError("bad-prize", f"Prizes are for a {', '.join(Prize.Kind.values)}.")
    if not (label or "").strip() or place < 1:
        raise ServiceError("bad-prize", "A prize needs a label and a place of 1 or more.")
    if kind == Prize.Kind.AGE and (age_under is None) == (age_over is None):
        raise ServiceError("bad-prize", "An age prize is for one group: U<n> or <n>+.")
    if age_under is not None and age_under not in age.YOUTH_CATEGORIES:
        raise ServiceError("bad-prize", "Youth groups are U8, U10, U12, U14, U16 and U18.")
    if age_over is not None and age_over not in age.SENIOR_CATEGORIES:
        raise ServiceError("bad-prize", "Senior groups are 50+ and 65+.")
    if kind == Prize.Kind.RATING and not rating_below:
        raise ServiceError("bad-prize", "A rating prize needs the rating it is below.")
    prize = Prize.objects.create(section=section, kind=kind, place=place, label=label.strip(), value=value,
                                 age_under=age_under if kind == Prize.Kind.AGE else None,
                                 age_over=age_over if kind == Prize.Kind.AGE else None,
                                 rating_below=rating_below if kind == Prize.Kind.RATING else None)
    if by is not None:
        audit.record(actor=by, action="prize.add", target=prize, club=section.tournament.club,
                     details={"section": section.pk, "kind": kind, "place": place, "label": prize.label})
    return prize


@transaction.atomic
def set_swiss_pairing(*, by: User, section_id: int, swiss_system: str | None = None,
                      acceleration: str | None = None) -> Section:
    """An organiser changes a Swiss section's pairing system (Section.SwissSystem) and its
    accelerated rounds (Section.Acceleration), either or both; None leaves one as it is.
    Only before round 1 starts: every round of a section is paired by one system with
    the same virtual points (Baku's group A is round 1's field), so an arbiter checks the
    whole event with one program. Each change is audited."""
    section = locked_section(section_id)
    refusal = organiser_refusal(by, section.tournament.club)
    if refusal is not None:
        raise ServiceError(*refusal)
    before = {"swiss_system": section.swiss_system, "acceleration": section.acceleration}
    if swiss_system is not None:
        section.swiss_system = swiss_system
    if acceleration is not None:
        section.acceleration = acceleration
    check_format_settings(section)  # the settings' refusals: not a Swiss, not a system, Baku without the Dutch
    if (section.swiss_system == Section.SwissSystem.DUTCH != before["swiss_system"]
            and max(selectors.active_entries(section).count(), going_through(section))
            > section_settings.DUTCH_MOST_PLAYERS):
        most = section_settings.DUTCH_MOST_PLAYERS
        raise ServiceError("dutch-too-many-players", f"The FIDE Dutch system pairs at most {most:,} players here, and "
                                                     "this section has more (or more go through into it from the "
                                                     "previous stage): keep fast score groups.")
    if section.current_round or section.status != Section.Status.REGISTRATION:
        if section.swiss_system != before["swiss_system"]:
            paired_by = Section.SwissSystem(before["swiss_system"]).label if before["swiss_system"] else "its system"
            raise ServiceError("swiss-system-fixed", f"Round 1 has started: this section stays paired by "
                                                     f"{paired_by}, as its rounds so far were.")
        if section.acceleration != before["acceleration"]:
            kept = "no acceleration" if before["acceleration"] == Section.Acceleration.NONE else "Baku acceleration"
            raise ServiceError("acceleration-fixed", f"Round 1 has started: this section keeps {kept}, as its "
                                                     "rounds so far were paired with it.")
    changed = [name for name, value in before.items() if getattr(section, name) != value]
    if changed:
        section.save(update_fields=changed)
    for name in changed:
        audit.record(actor=by, action=f"section.{name.replace('_', '-')}", target=section,
                     club=section.tournament.club, details={"from": before[name], "to": getattr(section, name)})
    return section


def locked_section(section_id: int) -> Section:
    section = (
        Section.objects.select_for_update(of=("self",)).select_related("tournament__club", "tournament__season", "rule_set")
        .filter(pk=section_id).first()
    )
    if section is None:
        raise ServiceError("no-such-section", "There is no such section.")
    return section


def follow_rule_set_revision(before: RuleSet, after: RuleSet, actor: Any, keeper: Any) -> None:
    """A revised house-rule set (games.ownership's recorder, in the revision's transaction):
    the sections not started yet play the new version, as the organiser who edited the
    rules before the event means; a section in play, or over, keeps the version its games
    started under (an outside probe found an edit made before the start silently ignored)."""
    Section.objects.filter(rule_set__family=before.family, status=Section.Status.REGISTRATION).update(rule_set=after)
