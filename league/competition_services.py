"""Writes for competitions: tournaments, sections, entries, rounds, results, standings.

The only code that changes competition rows. Each public function is one transaction;
a section's row is locked (SELECT ... FOR UPDATE) first, so a round starts once and
results are recorded one at a time whatever Celery delivers twice. The database has the
last word: one round per number, one pairing per player per round, one pairing per
bracket match. Pairing itself is league/formats/ (pure); games are created through
games.services; players hear of their pairing after commit, on their user group.

Lifecycle (docs/competitions.md): create_section schedules round 1 (a one-off
django-celery-beat task) -> start_round pairs it and creates the games -> each game's
end (games' game_finished signal -> league.record_game_result task) scores its pairing
-> the round's last result schedules the next round, or finishes the section.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from accounts import age
from accounts.errors import ServiceError
from accounts.models import User
from accounts.realtime import user_group
from games import services as game_services
from games.models import Game, Match, RuleSet
from games.rules import match as match_rules
from games.rules.variants.t_tic_t_tac_toe.match import TTTMatch

from . import competition_selectors as selectors
from .formats import arena as arena_format
from .formats import round_robin, swiss, tiebreaks
from .formats.matches import pairing_points
from .models import (
    Club,
    Entry,
    Pairing,
    PairingPlayer,
    Prize,
    Round,
    Season,
    Section,
    Standing,
    Tournament,
)

log = logging.getLogger(__name__)

F = Section.Format
ELIMINATION = (F.SINGLE_ELIMINATION, F.DOUBLE_ELIMINATION)
#: A drawn elimination game is replayed (first move swapped) this many times; then
#: the higher seed goes through.
ELIMINATION_REPLAYS = 4
#: Seconds an arena waits after a game ends before pairing, to gather free players.
ARENA_PAIRING_DELAY = float(getattr(settings, "LEAGUE_ARENA_PAIRING_DELAY", 2.0))

SECTION_SETTINGS = {
    "third_place", "grand_final", "cycles", "rounds", "bye_points", "arena_duration", "streak_bonus",
    "tiebreaks", "late_entry_rounds", "round_interval", "round_starts", "registration_opens_at",
    "registration_closes_at", "check_in_opens_at", "check_in_closes_at", "age_under", "age_over", "age_year",
    "age_cutoff", "min_age", "max_age", "rating_min", "rating_max", "members_only", "observer_policy",
}


def section_group(section_id: int) -> str:
    """The channel-layer group of a section's live pages."""
    return f"section-{section_id}"


# -- tournaments and sections -------------------------------------------------------------


#: Slugs the competition pages' own routes use (league/urls.py): a tournament or a
#: section given one would be shadowed by the route, so the slug takes a number instead.
RESERVED_TOURNAMENT_SLUGS = frozenset({"new-tournament", "leagues"})
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
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad-name", "A tournament needs a name.")
    if rating_period not in Tournament.RatingPeriod.values:
        raise ServiceError("bad-rating-period", 'Ratings are by "game" (live) or by "tournament" (one period).')
    if season is not None and season.league.club_id != club.pk:
        raise ServiceError("bad-season", "That season belongs to another club's league.")
    return Tournament.objects.create(
        club=club, season=season, name=name, slug=_unique_slug(Tournament, slugify(name), RESERVED_TOURNAMENT_SLUGS, club=club),
        description=description, rating_period=rating_period, starts_at=starts_at, created_by=created_by,
    )


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

    ``options`` are the Section fields of SECTION_SETTINGS; bad ones are refused with
    the reason and nothing is created.
    """
    unknown = set(options) - SECTION_SETTINGS
    if unknown:
        raise ServiceError("bad-setting", f"Unknown section setting(s): {', '.join(sorted(unknown))}.")
    if format not in F.values:
        raise ServiceError("bad-format", f"Formats are {', '.join(F.values)}.")
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ServiceError("tournament-over", "This tournament is over.")
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad-name", "A section needs a name.")
    section = Section(
        tournament=tournament, name=name, slug=_unique_slug(Section, slugify(name), RESERVED_SECTION_SLUGS, tournament=tournament),
        variant=rule_set.variant, rule_set=rule_set, format=format, rated=rated, capacity=capacity,
        starts_at=starts_at or tournament.starts_at, **options,
    )
    _check_section(section)
    section.save()
    _schedule_round(section, 1, section.starts_at)
    if format == F.ARENA:
        _schedule_task(f"league: end arena {section.pk}", "league.finish_arena", [section.pk],
                       section.starts_at + section.arena_duration)
    return section


#: The years an event's dates fall in (league/event_forms.py checks the forms' and the
#: API's fields alike); room for the durations added to them.
EVENT_YEARS = (1900, 2999)
#: More start times than any section has rounds: a list of thousands is only a burden.
MOST_ROUND_STARTS = 1000


def _check_section(section: Section) -> None:
    def refuse(code: str, message: str) -> None:
        raise ServiceError(code, message)

    if not section.rule_set.is_current:
        refuse("old-rule-set", "Use the current version of the house-rule set.")
    if section.capacity is not None and section.capacity < 2:
        refuse("bad-capacity", "A section needs room for at least two players.")
    if section.cycles not in (1, 2):
        refuse("bad-cycles", "A round robin is single (1) or double (2).")
    if Decimal(section.bye_points) not in (Decimal(0), Decimal("0.5"), Decimal(1)):
        refuse("bad-bye-points", "A bye is worth 0, 0.5 or 1 point.")
    if section.format == F.ARENA and (not section.arena_duration or section.arena_duration <= timedelta(0)):
        refuse("bad-duration", "An arena needs a duration.")
    if section.rounds is not None and section.format != F.SWISS:
        refuse("bad-rounds", "Only a Swiss sets its number of rounds; the other formats follow from the field.")
    if section.rounds is not None and section.rounds < 1:
        refuse("bad-rounds", "A Swiss has at least one round.")
    if section.late_entry_rounds and section.format != F.SWISS:
        refuse("no-late-entry", "Late entries (by round) are for Swiss sections; an arena takes them until its end.")
    if section.grand_final not in Section.GrandFinal.values:
        refuse("bad-grand-final", 'The grand final is "reset" or "single".')
    if section.observer_policy not in Section.ObserverPolicy.values:
        refuse("bad-observer-policy", f"Observer policies are {', '.join(Section.ObserverPolicy.values)}.")
    for name in section.tiebreaks or []:
        if name not in tiebreaks.TIEBREAKS:
            refuse("bad-tiebreak", f"Unknown tie-break {name!r}; known: {', '.join(tiebreaks.TIEBREAKS)}.")
    if section.age_under is not None and section.age_under not in age.YOUTH_CATEGORIES:
        refuse("bad-age-group", "Youth groups are U8, U10, U12, U14, U16 and U18.")
    if section.age_over is not None and section.age_over not in age.SENIOR_CATEGORIES:
        refuse("bad-age-group", "Senior groups are 50+ and 65+.")
    if section.age_under is not None and section.age_over is not None:
        refuse("bad-age-group", "A section is a youth group or a senior group, not both.")
    if (section.min_age is not None or section.max_age is not None) and section.age_cutoff is None:
        refuse("bad-age-group", "Age limits need a cutoff date.")
    if section.min_age is not None and section.max_age is not None and section.min_age > section.max_age:
        refuse("bad-age-group", "The minimum age is above the maximum.")
    if (section.rating_min is not None and section.rating_max is not None
            and section.rating_min > section.rating_max):
        refuse("bad-rating-band", "The rating band's minimum is above its maximum.")
    if section.round_interval is not None and section.round_interval <= timedelta(0):
        refuse("bad-schedule", "The time between rounds is a positive duration.")
    if len(section.round_starts or []) > MOST_ROUND_STARTS:
        refuse("bad-schedule", f"At most {MOST_ROUND_STARTS} round start times.")
    for when in section.round_starts or []:
        moment = parse_datetime(when) if isinstance(when, str) else None
        if moment is None:
            refuse("bad-schedule", f"Round start times are ISO date-times; {str(when)[:40]!r} is not one.")
        elif not EVENT_YEARS[0] <= moment.year <= EVENT_YEARS[1]:
            refuse("bad-schedule", f"Round start times fall in the years {EVENT_YEARS[0]} to {EVENT_YEARS[1]}.")
    if section.age_cutoff is not None and not EVENT_YEARS[0] <= section.age_cutoff.year <= EVENT_YEARS[1]:
        refuse("bad-age-group", f"The age cutoff falls in the years {EVENT_YEARS[0]} to {EVENT_YEARS[1]}.")
    closes = section.registration_closes_at
    if section.registration_opens_at and closes and section.registration_opens_at > closes:
        refuse("bad-window", "Registration closes before it opens.")
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
) -> Prize:
    """A prize of a section, awarded when it finishes (docs/competitions.md: one each)."""
    section = _locked_section(section.pk)
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
    return Prize.objects.create(section=section, kind=kind, place=place, label=label.strip(), value=value,
                                age_under=age_under if kind == Prize.Kind.AGE else None,
                                age_over=age_over if kind == Prize.Kind.AGE else None,
                                rating_below=rating_below if kind == Prize.Kind.RATING else None)


# -- entries ------------------------------------------------------------------------------


def _locked_section(section_id: int) -> Section:
    section = (
        Section.objects.select_for_update(of=("self",)).select_related("tournament__club", "tournament__season", "rule_set")
        .filter(pk=section_id).first()
    )
    if section is None:
        raise ServiceError("no-such-section", "There is no such section.")
    return section


def _late_entry_round(section: Section, now: datetime) -> int | None:
    """The round a late entrant would join, or None if late entries are closed."""
    if section.status != Section.Status.RUNNING:
        return None
    if section.format == F.ARENA:
        return None if now >= section.starts_at + section.arena_duration else 0
    if section.format != F.SWISS or not section.late_entry_rounds:
        return None
    # current_round is the last round started: whether in play or over, the entrant
    # joins the next one, with the rounds missed counted as unplayed, 0 points.
    joins = section.current_round + 1
    return joins if joins <= section.late_entry_rounds + 1 and joins <= (section.total_rounds or 0) else None


@transaction.atomic
def register(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    """Enter ``user`` in ``section``; refused with the reason in words when they may not."""
    now = now or timezone.now()
    section = _locked_section(section.pk)
    late_round: int | None = None
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
        _queue_arena_pairing(section.pk)
    return entry


@transaction.atomic
def check_in(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    now = now or timezone.now()
    section = _locked_section(section.pk)
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
    section = _locked_section(section.pk)
    entry = Entry.objects.select_for_update().filter(section=section, user=user).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError("not-entered", "You are not entered in this section.")
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        raise ServiceError("section-over", "This section is over.")
    entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, now
    entry.withdrawn_reason = reason[:200] or "Withdrew."
    if section.format in ELIMINATION:
        entry.eliminated = True
    entry.save(update_fields=["status", "withdrawn_at", "withdrawn_reason", "eliminated"])
    if section.status != Section.Status.RUNNING:
        return entry
    for pairing in (
        Pairing.objects.select_for_update()
        .filter(Q(first=user) | Q(second=user), section=section).exclude(status=Pairing.Status.FINISHED)
    ):
        _stop_games(pairing, user, reason=f"{user.username} withdrew from the section.")
        first_lost = pairing.first_id == user.pk
        if pairing.is_bye:
            _score(pairing, Pairing.Result.DOUBLE_FORFEIT, 0.0, None, played=False, now=now)
        else:
            _score(pairing, Pairing.Result.SECOND_FORFEIT_WIN if first_lost else Pairing.Result.FIRST_FORFEIT_WIN,
                   0.0 if first_lost else 1.0, 1.0 if first_lost else 0.0, played=False, now=now)
        _after_result(section, pairing.round, now)
    return entry


def _stop_games(pairing: Pairing, user: User, *, reason: str, rated: bool | None = None) -> None:
    """End ``user``'s games of a pairing: a begun one is lost by forfeit (games'
    ``forfeit``; ``rated`` False unrates it, None leaves it), one not begun is aborted
    (an aborted game is never rated)."""
    games = list(pairing.match.games.all()) if pairing.match_id else [pairing.game] if pairing.game_id else []
    for game in games:
        if game.status == Game.Status.ACTIVE and game.ply == 0:
            game_services.abort(game_id=game.pk, user=user)
        elif game.status == Game.Status.ACTIVE:
            seat = game.seats.get(user=user).number
            game_services.forfeit(game_id=game.pk, seat=seat, reason=reason, rated=rated)
    if pairing.match_id:  # resigning may have started the match's next game: abort it too
        for game in pairing.match.games.filter(status=Game.Status.ACTIVE):
            game_services.abort(game_id=game.pk, user=user)
        Match.objects.filter(pk=pairing.match_id, status=Match.Status.ACTIVE).update(status=Match.Status.ABORTED)


# -- scheduling ---------------------------------------------------------------------------


def _schedule_task(name: str, task: str, args: list[Any], at: datetime) -> Any:
    """A one-off django-celery-beat task at ``at`` (no long ETA in the broker)."""
    from django_celery_beat.models import ClockedSchedule, PeriodicTask

    existing = PeriodicTask.objects.filter(name=name).first()
    if existing is not None:
        return existing
    clock = ClockedSchedule.objects.create(clocked_time=at)
    return PeriodicTask.objects.create(name=name, task=task, args=json.dumps(args), clocked=clock, one_off=True)


def _schedule_round(section: Section, number: int, at: datetime) -> Round:
    """Round ``number`` at ``at``: a row, a one-off beat task, and when it is due now,
    the task at once (beat would take up to its tick; both runs are idempotent)."""
    round_, created = Round.objects.get_or_create(section=section, number=number, defaults={"starts_at": at})
    if created:
        round_.start_task = _schedule_task(f"league: start section {section.pk} round {number}",
                                           "league.start_round", [section.pk, number], at)
        round_.save(update_fields=["start_task"])
        if at <= timezone.now() + timedelta(seconds=1):
            section_id = section.pk
            transaction.on_commit(lambda: _send("league.start_round", section_id, number))
    return round_


def _send(task_name: str, *args: Any, countdown: float | None = None) -> None:
    from config.celery import app

    from . import tasks  # noqa: F401 - registers the tasks in this process

    app.tasks[task_name].apply_async(args=args, countdown=countdown)


def _next_round_time(section: Section, number: int, previous: Round, now: datetime) -> datetime:
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


# -- starting rounds ----------------------------------------------------------------------


@transaction.atomic
def start_round(*, section_id: int, number: int, now: datetime | None = None, force: bool = False) -> Round | None:
    """Pair round ``number`` and create its games. Idempotent: a round starts once; a
    second call (a task delivered twice, beat and a direct send) returns it unchanged.

    Early calls (before the round's start time) do nothing unless ``force``.
    """
    now = now or timezone.now()
    section = _locked_section(section_id)
    round_ = Round.objects.select_for_update().filter(section=section, number=number).first()
    if round_ is None or round_.status != Round.Status.SCHEDULED:
        return round_
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        return round_
    if section.paused_at is not None:
        return None  # paused, even for "start now": resume_section starts what is due
    if not force and now + timedelta(seconds=1) < round_.starts_at:
        return None
    if not force and section.tournament.status == Tournament.Status.DRAFT:
        return None  # not published yet: the sweep starts the round once it is
    if number == 1 and section.status == Section.Status.REGISTRATION and not _begin_section(section, now):
        return round_
    round_.status, round_.started_at = Round.Status.PAIRING, now
    round_.save(update_fields=["status", "started_at"])
    section.current_round = max(section.current_round, number)
    section.save(update_fields=["current_round"])
    _pair_and_play(section, round_, now)
    return round_


def _pair_and_play(section: Section, round_: Round, now: datetime) -> None:
    """Pair a round being paired through league/formats, create its games, tell the
    players, and close it at once when it holds only byes and forfeits."""
    if section.format == F.ROUND_ROBIN:
        _pair_round_robin(section, round_, now)
    elif section.format == F.SWISS:
        _pair_swiss(section, round_, now)
    elif section.format in ELIMINATION:
        _pair_bracket(section, round_, now)
    else:
        _pair_arena(section, round_, now)
    round_.status = Round.Status.IN_PLAY
    round_.save(update_fields=["status"])
    _announce_round(section, round_)
    _after_result(section, round_, now)  # a round of byes and forfeits only is over at once


def _begin_section(section: Section, now: datetime) -> bool:
    """Close registration, drop who did not check in, seed, and fix the number of rounds.
    False (and the section cancelled) when fewer than two players are left."""
    if section.check_in_opens_at is not None:
        for entry in section.entries.filter(status=Entry.Status.REGISTERED):
            entry.status, entry.withdrawn_at, entry.withdrawn_reason = (
                Entry.Status.WITHDRAWN, now, "Did not check in.")
            entry.save(update_fields=["status", "withdrawn_at", "withdrawn_reason"])
    entries = list(selectors.active_entries(section).select_related("user"))
    if len(entries) < 2:
        section.status, section.finished_at = Section.Status.CANCELLED, now
        section.save(update_fields=["status", "finished_at"])
        _finish_tournament_if_done(section.tournament, now)
        return False
    # Seeds: highest frozen rating first, unrated after the rated, then by registration.
    entries.sort(key=lambda e: (e.rating is None, -(e.rating or 0), e.registered_at, e.pk))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
    Entry.objects.bulk_update(entries, ["seed"])
    n = len(entries)
    if section.format == F.ROUND_ROBIN:
        section.total_rounds = len(round_robin.berger(n, section.cycles))
    elif section.format == F.SWISS:
        section.total_rounds = section.rounds or swiss.recommended_rounds(n)
    section.status, section.started_at = Section.Status.RUNNING, now
    section.save(update_fields=["status", "started_at", "total_rounds"])
    tournament = section.tournament
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return True


def _active_user_ids(section: Section, number: int) -> set[int]:
    return set(
        selectors.active_entries(section).filter(joined_round__lte=number).values_list("user_id", flat=True)
    )


def _new_pairing(section: Section, round_: Round, board: int, first: int, second: int | None, now: datetime,
                 *, flags: list[str] | None = None, bracket: Any = None, play: bool = True) -> Pairing:
    pairing = Pairing.objects.create(
        round=round_, section=section, board=board, first_id=first, second_id=second, flags=flags or [],
        bracket_match=bracket.id if bracket is not None else None,
        bracket=bracket.bracket if bracket is not None else "",
        bracket_round=bracket.round if bracket is not None else None,
    )
    PairingPlayer.objects.create(round=round_, pairing=pairing, user_id=first, opponent_id=second, moves_first=True)
    if second is not None:
        PairingPlayer.objects.create(round=round_, pairing=pairing, user_id=second, opponent_id=first,
                                     moves_first=False)
    if second is None:
        _score(pairing, Pairing.Result.BYE, float(section.bye_points), None, played=False, now=now)
    elif play:
        _create_games(section, pairing)
    return pairing


def _create_games(section: Section, pairing: Pairing) -> None:
    """The pairing's game (or match), first player in seat 0 / match player 0."""
    first, second = User.objects.get(pk=pairing.first_id), User.objects.get(pk=pairing.second_id)
    game = game_services.create_game(creator=first, rule_set=section.rule_set, opponent=second, creator_seat=0,
                                     rated=section.rated)
    if game.match_id:
        pairing.match_id = game.match_id  # create_game rated the match's games already
    else:
        game_services.accept_challenge(game_id=game.pk, user=second)
        pairing.game = game
    pairing.status = Pairing.Status.IN_PLAY
    pairing.save(update_fields=["game", "match", "status"])
    # Who really moves first: the pairing's first player, unless the rule set's decider
    # (seed, coin, rock-paper-scissors) drew otherwise. Swiss colours follow the game.
    seat_zero = game.seats.get(number=0).user_id
    for side in pairing.players.all():
        if side.moves_first != (side.user_id == seat_zero):
            side.moves_first = side.user_id == seat_zero
            side.save(update_fields=["moves_first"])
    tournament = section.tournament
    if section.rated and tournament.rating_period == Tournament.RatingPeriod.TOURNAMENT:
        from . import rating_services

        rating_services.defer_to_period(games=[game], key=tournament.rating_period_key, name=tournament.name)


def _forfeit_pairing(section: Section, round_: Round, board: int, first: int, second: int, withdrawn: set[int],
                     now: datetime, bracket: Any = None) -> Pairing:
    pairing = _new_pairing(section, round_, board, first, second, now, bracket=bracket, play=False)
    a_out, b_out = first in withdrawn, second in withdrawn
    if a_out and b_out:
        _score(pairing, Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0, played=False, now=now)
    elif a_out:
        _score(pairing, Pairing.Result.SECOND_FORFEIT_WIN, 0.0, 1.0, played=False, now=now)
    else:
        _score(pairing, Pairing.Result.FIRST_FORFEIT_WIN, 1.0, 0.0, played=False, now=now)
    return pairing


def _pair_round_robin(section: Section, round_: Round, now: datetime) -> None:
    seeds = selectors.seeded_users(section)
    table = round_robin.berger(len(seeds), section.cycles)
    active = _active_user_ids(section, round_.number)
    withdrawn = set(seeds.values()) - active
    for board, (a, b) in enumerate(table[round_.number - 1], start=1):
        first = seeds[a]
        second = seeds[b] if b is not None else None
        if second is None:
            if first in withdrawn:
                continue  # a withdrawn player's bye: nothing to play, nothing scored
            _new_pairing(section, round_, board, first, None, now, flags=["bye: odd field (Berger table)"])
        elif first in withdrawn or second in withdrawn:
            _forfeit_pairing(section, round_, board, first, second, withdrawn, now)
        else:
            _new_pairing(section, round_, board, first, second, now)


def _swiss_players(section: Section, number: int) -> tuple[list[swiss.SwissPlayer], dict[str, int]]:
    """The Swiss state from the stored rounds, keyed by username (so the pairing flags
    read "ann floated down ... to meet bob"), and username -> user id."""
    active = _active_user_ids(section, number)
    rows = section.entries.exclude(seed__isnull=True).values_list("user_id", "user__username", "seed")
    name = {user_id: username for user_id, username, _ in rows}
    players = {
        user_id: swiss.SwissPlayer(username, (seed or 10**6) - 1, active=user_id in active)
        for user_id, username, seed in rows
    }
    history = (
        PairingPlayer.objects.filter(round__section=section, round__number__lt=number)
        .order_by("round__number").values_list("user_id", "opponent_id", "points", "played", "moves_first")
    )
    for user_id, opponent_id, points, played, moves_first in history:
        player = players.get(user_id)
        if player is None:
            continue
        player.score += points or 0.0
        if opponent_id is None:
            player.had_bye = True
            continue
        player.opponents.add(name.get(opponent_id, str(opponent_id)))
        if played:  # FIDE: forfeited games do not count for colours
            player.colours.append(swiss.X if moves_first else swiss.O)
    return list(players.values()), {username: user_id for user_id, username in name.items()}


def _pair_swiss(section: Section, round_: Round, now: datetime) -> None:
    players, user_id = _swiss_players(section, round_.number)
    for pairing in swiss.pair_round(players):
        second = None if pairing.second is None else user_id[pairing.second]
        _new_pairing(section, round_, pairing.board, user_id[pairing.first], second, now,
                     flags=[str(flag) for flag in pairing.flags])


def _pair_bracket(section: Section, round_: Round, now: datetime) -> None:
    """Pair every bracket match that has both players and no pairing yet. A match with
    a withdrawn player is a forfeit at once; what it unlocks waits for the next round."""
    bracket = selectors.bracket_for(section)
    seeds = selectors.seeded_users(section)
    taken = set(Pairing.objects.filter(section=section, bracket_match__isnull=False)
                .values_list("bracket_match", flat=True))
    withdrawn = set(seeds.values()) - _active_user_ids(section, round_.number)
    board = (round_.pairings.aggregate(m=Max("board"))["m"] or 0)
    for match in bracket.playable():
        if match.id in taken:
            continue
        a, b = seeds[match.players[0]], seeds[match.players[1]]
        board += 1
        if a in withdrawn or b in withdrawn:
            _forfeit_pairing(section, round_, board, a, b, withdrawn, now, bracket=match)
        else:
            _new_pairing(section, round_, board, a, b, now, bracket=match,
                         flags=[f"{match.bracket} bracket, round {match.round}"])


# -- arena --------------------------------------------------------------------------------


def _arena_state(section: Section, now: datetime) -> arena_format.Arena:
    """The pure arena rebuilt from the section's finished pairings, in finishing order."""
    start = section.starts_at.timestamp()
    arena = arena_format.Arena(section.arena_duration.total_seconds(), start=start)
    for user_id in selectors.active_entries(section).values_list("user_id", flat=True):
        arena.players[user_id] = arena_format.ArenaPlayer(user_id)
    finished = (
        Pairing.objects.filter(section=section, status=Pairing.Status.FINISHED, second__isnull=False)
        .order_by("finished_at", "pk")
        .values_list("first_id", "second_id", "first_points", "second_points", "finished_at")
    )
    for first, second, first_points, second_points, finished_at in finished:
        for user_id in (first, second):
            arena.players.setdefault(user_id, arena_format.ArenaPlayer(user_id))
            arena.playing.add(user_id)
        arena.players[first].firsts += 1
        winner = None if first_points == second_points else first if first_points > second_points else second
        arena.finish(first, second, winner, finished_at.timestamp())
    busy: set[int] = set()
    for pair in section.pairings.exclude(status=Pairing.Status.FINISHED).values_list("first_id", "second_id"):
        busy.update(pair)
    active = set(arena.players) & set(selectors.active_entries(section).values_list("user_id", flat=True))
    arena.waiting = {p: arena.waiting.get(p, start) for p in active if p not in busy}
    arena.playing = {p for p in arena.players if p in busy}
    return arena


def _arena_points(section: Section) -> dict[int, int]:
    arena = _arena_state(section, timezone.now())
    if section.streak_bonus:
        return {p.id: p.points for p in arena.players.values()}
    base = {"win": arena_format.WIN, "draw": arena_format.DRAW, "loss": arena_format.LOSS}
    return {p.id: sum(base[kind] for kind, _ in p.results) for p in arena.players.values()}


def _pair_arena(section: Section, round_: Round, now: datetime) -> int:
    arena = _arena_state(section, now)
    pairs = arena.pair(max(now.timestamp(), arena.start))
    for board, (first, second) in enumerate(pairs, start=1):
        _new_pairing(section, round_, board, first, second, now, flags=["arena: paired when free"])
    return len(pairs)


@transaction.atomic
def pair_arena(*, section_id: int, now: datetime | None = None) -> Round | None:
    """An arena's next pairing wave: everybody free now. Idempotent (nobody is free twice)."""
    now = now or timezone.now()
    section = _locked_section(section_id)
    if section.format != F.ARENA or section.status != Section.Status.RUNNING or section.paused_at is not None:
        return None
    if now >= section.starts_at + section.arena_duration:
        return None
    arena = _arena_state(section, now)
    if len(arena.waiting) < 2:
        return None
    number = (section.round_set.aggregate(m=Max("number"))["m"] or 0) + 1
    round_ = Round.objects.create(section=section, number=number, starts_at=now, started_at=now,
                                  status=Round.Status.PAIRING)
    section.current_round = number
    section.save(update_fields=["current_round"])
    _pair_arena(section, round_, now)
    round_.status = Round.Status.IN_PLAY
    round_.save(update_fields=["status"])
    _announce_round(section, round_)
    return round_


def _queue_arena_pairing(section_id: int) -> None:
    transaction.on_commit(lambda: _send("league.pair_arena", section_id, countdown=ARENA_PAIRING_DELAY))


@transaction.atomic
def finish_arena(*, section_id: int, now: datetime | None = None) -> Section | None:
    """The arena's time is up: finish it once its last games are over (else their
    results finish it)."""
    now = now or timezone.now()
    section = _locked_section(section_id)
    if section.format != F.ARENA or section.status != Section.Status.RUNNING:
        return None
    if now + timedelta(seconds=1) < section.starts_at + section.arena_duration:
        return None
    if section.pairings.exclude(status=Pairing.Status.FINISHED).exists():
        return None
    _finish_section(section, now)
    return section


# -- results --------------------------------------------------------------------------------


def _score(pairing: Pairing, result: str, first_points: float, second_points: float | None, *, played: bool,
           now: datetime, won_over_board: int | None = None) -> None:
    pairing.result, pairing.status, pairing.finished_at = result, Pairing.Status.FINISHED, now
    pairing.first_points, pairing.second_points = first_points, second_points
    pairing.save(update_fields=["result", "status", "finished_at", "first_points", "second_points"])
    for side in pairing.players.all():
        mine = first_points if side.user_id == pairing.first_id else second_points
        side.points = mine
        side.played = played
        side.won = played and won_over_board == side.user_id
        side.save(update_fields=["points", "played", "won"])


def pairing_for_game(game: Game) -> Pairing | None:
    if game.match_id:
        return Pairing.objects.filter(match_id=game.match_id).first()
    return Pairing.objects.filter(game_id=game.pk).first()


@transaction.atomic
def record_game_result(*, game_id: int, now: datetime | None = None) -> Pairing | None:
    """Score the pairing a finished game (or the last game of a match) belongs to, and
    move the section on. Idempotent: a scored pairing is left as it is."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).select_related("match").first()
    if game is None or game.status != Game.Status.FINISHED:
        return None
    found = pairing_for_game(game)
    if found is None:
        return None
    section = _locked_section(found.section_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "match").get(pk=found.pk)
    if pairing.status == Pairing.Status.FINISHED:
        return pairing
    if pairing.match_id:
        match = pairing.match
        if match.status != Match.Status.FINISHED:
            return None
        value = TTTMatch.load(match.state) if match.kind == Match.Kind.OFFICIAL else \
            match_rules.MatchState.load(match.state)
        first_points, second_points = pairing_points(value)
        played = match.games.filter(ply__gt=0).exists()
    else:
        if game.winner_seat is None:
            first_points = second_points = 0.5
        else:
            winner = game.seats.get(number=game.winner_seat).user_id
            first_points, second_points = (1.0, 0.0) if winner == pairing.first_id else (0.0, 1.0)
        played = game.ply > 0  # no move at all: a no-show, scored as a forfeit
    if section.format in ELIMINATION and first_points == second_points and played:
        if _replay_drawn(section, pairing):
            return pairing
        seed = dict(section.entries.values_list("user_id", "seed"))
        first_points, second_points = (1.0, 0.0) if seed[pairing.first_id] < seed[pairing.second_id] else (0.0, 1.0)
        pairing.flags = [*pairing.flags, "drawn every replay: the higher seed goes through"]
        pairing.save(update_fields=["flags"])
    if played:
        result = (Pairing.Result.DRAW if first_points == second_points
                  else Pairing.Result.FIRST_WON if first_points > second_points else Pairing.Result.SECOND_WON)
    elif first_points == second_points:
        result, first_points, second_points = Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0
    else:
        result = Pairing.Result.FIRST_FORFEIT_WIN if first_points > second_points else \
            Pairing.Result.SECOND_FORFEIT_WIN
    winner_id = None if first_points == second_points else (
        pairing.first_id if first_points > second_points else pairing.second_id)
    _score(pairing, result, first_points, second_points, played=played, now=now, won_over_board=winner_id)
    _after_result(section, pairing.round, now)
    return pairing


def _replay_drawn(section: Section, pairing: Pairing) -> bool:
    """Elimination: a drawn game is played again with the first move swapped, up to
    ELIMINATION_REPLAYS times. True if a replay was created."""
    replays = sum(1 for flag in pairing.flags if flag.startswith("drawn, replayed"))
    if replays >= ELIMINATION_REPLAYS:
        return False
    old = pairing.game_id or pairing.match_id
    pairing.flags = [*pairing.flags, f"drawn, replayed (game {old})"]
    pairing.first_id, pairing.second_id = pairing.second_id, pairing.first_id
    pairing.game, pairing.match = None, None
    pairing.save(update_fields=["flags", "first", "second", "game", "match"])
    _create_games(section, pairing)
    _notify_players(section, pairing.round, [pairing])
    return True


def _after_result(section: Section, round_: Round, now: datetime) -> None:
    """Move the section on after a result: close the round when its last pairing is
    scored, then schedule the next round or finish the section."""
    if section.format == F.ARENA:
        if round_.status == Round.Status.IN_PLAY and not round_.pairings.exclude(
                status=Pairing.Status.FINISHED).exists():
            round_.status, round_.finished_at = Round.Status.FINISHED, now
            round_.save(update_fields=["status", "finished_at"])
        if now >= section.starts_at + section.arena_duration:
            if not section.pairings.exclude(status=Pairing.Status.FINISHED).exists():
                _finish_section(section, now)
        elif round_.number > 0:
            _queue_arena_pairing(section.pk)
        return
    if round_.status != Round.Status.IN_PLAY or round_.pairings.exclude(status=Pairing.Status.FINISHED).exists():
        return
    round_.status, round_.finished_at = Round.Status.FINISHED, now
    round_.save(update_fields=["status", "finished_at"])
    _update_standings(section, final=False)
    if section.format in ELIMINATION:
        bracket = selectors.bracket_for(section)
        more = bool(bracket.playable()) and not bracket.is_over
    else:
        more = round_.number < (section.total_rounds or 0) and len(_active_user_ids(section, round_.number + 1)) >= 2
    if more:
        number = round_.number + 1
        _schedule_round(section, number, _next_round_time(section, number, round_, now))
    else:
        _finish_section(section, now)
    _broadcast_section(section, {"event": "round-finished", "round": round_.number})


# -- standings, prizes, the end -------------------------------------------------------------


def _update_standings(section: Section, *, final: bool) -> list[Standing]:
    rows: list[Standing] = []
    stats = _game_stats(section)
    if section.format in (F.SWISS, F.ROUND_ROBIN):
        results = selectors.round_results(section)
        table = tiebreaks.standings(results, selectors.tiebreak_order(section))
        for s in table:
            rows.append(Standing(section=section, user_id=s.player, rank=s.rank, points=s.points,
                                 tiebreaks=s.tiebreaks, final=final, **stats.get(s.player, {})))
    elif section.format in ELIMINATION:
        for user_id, rank in _bracket_ranks(section).items():
            points = stats.get(user_id, {}).get("wins", 0) + 0.5 * stats.get(user_id, {}).get("draws", 0)
            rows.append(Standing(section=section, user_id=user_id, rank=rank, points=points, final=final,
                                 **stats.get(user_id, {})))
    else:
        points = _arena_points(section)
        ordered = sorted(points, key=lambda u: (-points[u], -stats.get(u, {}).get("played", 0)))
        for index, user_id in enumerate(ordered):
            prev = rows[-1] if rows else None
            rank = prev.rank if prev is not None and prev.points == points[user_id] and prev.played == \
                stats.get(user_id, {}).get("played", 0) else index + 1
            rows.append(Standing(section=section, user_id=user_id, rank=rank, points=points[user_id], final=final,
                                 **stats.get(user_id, {})))
    Standing.objects.filter(section=section).delete()
    Standing.objects.bulk_create(rows)
    return rows


def _game_stats(section: Section) -> dict[int, dict[str, int]]:
    stats: dict[int, dict[str, int]] = {}
    for user_id, points in (
        PairingPlayer.objects.filter(round__section=section, points__isnull=False, opponent__isnull=False,
                                     played=True).values_list("user_id", "points")
    ):
        row = stats.setdefault(user_id, {"played": 0, "wins": 0, "draws": 0, "losses": 0})
        row["played"] += 1
        if points >= 1:
            row["wins"] += 1
        elif points > 0:
            row["draws"] += 1
        else:
            row["losses"] += 1
    return stats


def _bracket_ranks(section: Section) -> dict[int, int]:
    """Final places from the bracket: later exits rank higher; exits in the same round
    share a place (a played third-place match splits its two)."""
    bracket = selectors.bracket_for(section)
    seeds = selectors.seeded_users(section)
    order = {"winners": 0, "losers": 0, "third-place": 1, "final": 2, "reset": 3}
    last_exit: dict[int, tuple[int, int, int]] = {}
    for match in bracket.matches:
        if not match.decided or match.void or match.loser is None:
            continue
        user = seeds[match.loser]
        if match.bracket == "third-place":
            last_exit[user] = (max(m.round for m in bracket.matches if m.bracket == "winners") - 1, 1, 0)
            last_exit[seeds[match.winner]] = (last_exit[user][0], 1, 1)
            continue
        key = (match.round if match.bracket in ("winners", "losers") else 10**3, order[match.bracket], 0)
        if section.format == F.DOUBLE_ELIMINATION and match.bracket == "winners":
            continue  # a winners' bracket loss is not an exit in double elimination
        last_exit[user] = max(last_exit.get(user, key), key)
    champion = bracket.champion
    if champion is not None:
        last_exit[seeds[champion]] = (10**4, 0, 0)
    for user_id in seeds.values():
        last_exit.setdefault(user_id, (10**4 - 1, 0, 0) if champion is None else (0, 0, 0))
    ranked = sorted(last_exit, key=lambda u: last_exit[u], reverse=True)
    ranks: dict[int, int] = {}
    for index, user_id in enumerate(ranked):
        prev = ranked[index - 1] if index else None
        ranks[user_id] = ranks[prev] if prev is not None and last_exit[prev] == last_exit[user_id] else index + 1
    return ranks


def _finish_section(section: Section, now: datetime) -> None:
    if section.status == Section.Status.FINISHED:
        return
    section.status, section.finished_at = Section.Status.FINISHED, now
    section.save(update_fields=["status", "finished_at"])
    table = _update_standings(section, final=True)
    _award_prizes(section, table, now)
    _broadcast_section(section, {"event": "section-finished"})
    _finish_tournament_if_done(section.tournament, now)


def _award_prizes(section: Section, table: list[Standing], now: datetime) -> None:
    """Place prize N goes to the player placed N (players sharing a place: the higher
    seed first). Then age and rating prizes, in order, each to the N-th best-placed
    player who fits and has no prize yet: one prize per player."""
    entries = {e.user_id: e for e in section.entries.select_related("user__profile")}
    ordered = [s.user_id for s in sorted(table, key=lambda s: (s.rank, entries[s.user_id].seed or 10**6))]
    year = selectors.age_group_year(section)
    awarded: set[int] = set()

    def fits(prize: Prize, user_id: int) -> bool:
        entry = entries[user_id]
        if prize.kind == Prize.Kind.AGE:
            born = getattr(entry.user.profile, "date_of_birth", None)
            return born is not None and not age.age_group_refusal(
                born, season_year=year, under=prize.age_under, over=prize.age_over)
        if prize.kind == Prize.Kind.RATING:
            return prize.rating_below is None or (entry.rating is None or entry.rating < prize.rating_below)
        return True

    prizes = sorted(section.prizes.all(), key=lambda p: (p.kind != Prize.Kind.PLACE, p.kind, p.place, p.pk))
    for prize in prizes:
        if prize.kind == Prize.Kind.PLACE:
            winner = ordered[prize.place - 1] if prize.place <= len(ordered) else None
        else:
            candidates = [u for u in ordered if u not in awarded and fits(prize, u)]
            winner = candidates[prize.place - 1] if prize.place <= len(candidates) else None
        if winner is not None and winner not in awarded:
            prize.winner_id, prize.awarded_at = winner, now
            prize.save(update_fields=["winner", "awarded_at"])
            awarded.add(winner)


def _finish_tournament_if_done(tournament: Tournament, now: datetime) -> None:
    if tournament.sections.exclude(status__in=[Section.Status.FINISHED, Section.Status.CANCELLED]).exists():
        return
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED, finished_at=now)
    if tournament.rating_period == Tournament.RatingPeriod.TOURNAMENT:
        tournament_id = tournament.pk
        transaction.on_commit(lambda: _send("league.rate_tournament", tournament_id))


def tournament_games(tournament: Tournament) -> Iterable[Game]:
    pairings = Pairing.objects.filter(section__tournament=tournament, section__rated=True)
    return Game.objects.filter(Q(pk__in=pairings.values("game_id")) | Q(match_id__in=pairings.values("match_id")))


def rate_tournament(*, tournament_id: int) -> int:
    """Rate a finished tournament's games as one period (rating_services.rate_period)."""
    from . import rating_services

    tournament = Tournament.objects.get(pk=tournament_id)
    return rating_services.rate_period(list(tournament_games(tournament)), key=tournament.rating_period_key,
                                       name=tournament.name)


# -- catching up ---------------------------------------------------------------------------


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """What a lost task could have left behind: rounds due but not started, finished
    games whose pairing is not scored, arenas past their end. Run by beat; idempotent."""
    now = now or timezone.now()
    done = {"rounds": 0, "results": 0, "arenas": 0, "no_shows": 0, "restarted": 0}
    due = Round.objects.filter(status=Round.Status.SCHEDULED, starts_at__lte=now, section__paused_at__isnull=True,
                               section__status__in=[Section.Status.REGISTRATION, Section.Status.RUNNING])
    for section_id, number in due.values_list("section_id", "number"):
        if start_round(section_id=section_id, number=number, now=now):
            done["rounds"] += 1
    open_pairings = Pairing.objects.filter(status=Pairing.Status.IN_PLAY)
    finished = Game.objects.filter(status=Game.Status.FINISHED).filter(
        Q(pk__in=open_pairings.values("game_id"))
        | Q(match_id__in=open_pairings.values("match_id"), match__status=Match.Status.FINISHED)
    )
    for game_id in finished.values_list("pk", flat=True):
        if record_game_result(game_id=game_id, now=now):
            done["results"] += 1
    in_play = open_pairings.filter(game__status=Game.Status.ACTIVE, section__paused_at__isnull=True)
    for pairing_id in in_play.values_list("pk", flat=True):
        if forfeit_no_show(pairing_id=pairing_id, now=now):
            done["no_shows"] += 1
    for pairing_id in open_pairings.filter(game__status=Game.Status.ABORTED).values_list("pk", flat=True):
        if restart_aborted(pairing_id=pairing_id):
            done["restarted"] += 1
    ended = Section.objects.filter(format=F.ARENA, status=Section.Status.RUNNING)
    for section in ended:
        if section.starts_at + section.arena_duration <= now and finish_arena(section_id=section.pk, now=now):
            done["arenas"] += 1
    return done


@transaction.atomic
def forfeit_no_show(*, pairing_id: int, now: datetime | None = None) -> Pairing | None:
    """A player who has not made a single move of their game a grace period (the rule
    set's ``no_show_seconds``) after their turn came loses it by forfeit (unplayed, as
    FIDE counts a game lost without playing). Single-game pairings; the games' own
    clock sweep already ends a game whose first move never comes."""
    now = now or timezone.now()
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        return None
    section = _locked_section(found)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    game = pairing.game
    if pairing.status != Pairing.Status.IN_PLAY or game is None or game.status != Game.Status.ACTIVE:
        return None
    if section.paused_at is not None or game.turn_started_at is None:
        return None  # a paused section forfeits nobody
    # After a resume the grace counts again from the resume.
    waiting_since = max(game.turn_started_at, section.resumed_at or game.turn_started_at)
    if now < waiting_since + timedelta(seconds=section.rule_set.no_show_seconds):
        return None
    to_move = [seat for seat in game.seats.select_related("user") if seat.number in game.to_move and seat.user_id]
    absent = [seat for seat in to_move if not game.moves.filter(seat=seat.number).exists()]
    if len(absent) != 1:
        return None
    no_show = absent[0].user
    # A forfeit is not rated (FIDE).
    game_services.forfeit(game_id=game.pk, seat=absent[0].number, rated=False,
                          reason=f"Player {absent[0].number + 1} did not show up: lost by forfeit.")
    first_lost = no_show.pk == pairing.first_id
    _score(pairing, Pairing.Result.SECOND_FORFEIT_WIN if first_lost else Pairing.Result.FIRST_FORFEIT_WIN,
           0.0 if first_lost else 1.0, 1.0 if first_lost else 0.0, played=False, now=now)
    pairing.flags = [*pairing.flags, f"{no_show.username} did not show up: forfeit"]
    pairing.save(update_fields=["flags"])
    _after_result(section, pairing.round, now)
    return pairing


@transaction.atomic
def restart_aborted(*, pairing_id: int) -> Pairing | None:
    """A tournament game a player aborted before the first move is created again: the
    pairing stands (a player who will not play is a no-show, and forfeits)."""
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        return None
    section = _locked_section(found)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    if pairing.status != Pairing.Status.IN_PLAY or pairing.game is None or pairing.game.status != Game.Status.ABORTED:
        return None
    pairing.flags = [*pairing.flags, f"game {pairing.game_id} aborted before the first move: a new game"]
    pairing.save(update_fields=["flags"])
    _create_games(section, pairing)
    _notify_players(section, pairing.round, [pairing])
    return pairing


# -- operations: an organiser's or arbiter's decisions (moderation's console calls these) -----

#: loser -> (result, first player's points, second player's points)
FORFEITS = {
    "first": (Pairing.Result.SECOND_FORFEIT_WIN, 0.0, 1.0),
    "second": (Pairing.Result.FIRST_FORFEIT_WIN, 1.0, 0.0),
    "both": (Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0),
}
#: "1-0" / "0-1" / "draw" -> (result code, first player's points, second player's points)
DECISIONS = {
    "1-0": (Pairing.Result.FIRST_WON, 1.0, 0.0),
    "0-1": (Pairing.Result.SECOND_WON, 0.0, 1.0),
    "draw": (Pairing.Result.DRAW, 0.5, 0.5),
}


def _section_of_pairing(pairing_id: int) -> Section:
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        raise ServiceError("no-such-pairing", "There is no such pairing.")
    return _locked_section(found)


def _open_pairing(pairing_id: int) -> tuple[Pairing, Section]:
    """The pairing under its section's lock: two players and no result yet."""
    section = _section_of_pairing(pairing_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "match", "game").get(
        pk=pairing_id)
    if pairing.is_bye:
        raise ServiceError("bye", "A bye has no game to decide.")
    if pairing.status == Pairing.Status.FINISHED:
        raise ServiceError("already-scored", "This pairing has its result already.")
    return pairing, section


@transaction.atomic
def forfeit_pairing(*, pairing_id: int, loser: str, reason: str = "", now: datetime | None = None) -> Pairing:
    """Score a pairing as lost by forfeit by its "first" player, its "second", or "both"
    (unplayed and unrated, as FIDE counts forfeits), and stop its games: a game not
    begun is aborted, one begun is lost by forfeit (unrated) by the forfeiting player."""
    if loser not in FORFEITS:
        raise ServiceError("bad-loser", "The forfeit is lost by the first player, the second, or both.")
    now = now or timezone.now()
    pairing, section = _open_pairing(pairing_id)
    forfeiting = pairing.second if loser == "second" else pairing.first
    _stop_games(pairing, forfeiting, rated=False,
                reason=f"{forfeiting.username} lost by forfeit" + (f": {reason}" if reason else "."))
    result, first_points, second_points = FORFEITS[loser]
    _score(pairing, result, first_points, second_points, played=False, now=now)
    _after_result(section, pairing.round, now)
    return pairing


@transaction.atomic
def adjudicate_pairing(*, pairing_id: int, result: str, reason: str = "", now: datetime | None = None) -> Pairing:
    """The arbiter decides a pairing as played: "1-0", "0-1" or "draw". A game still in
    play is lost by the side adjudicated to lose (rated as the game is, so the rating
    follows the decision); a draw only once no game is in play (a game has no draw by
    decree, and ending it as a loss would rate it as one)."""
    if result not in DECISIONS:
        raise ServiceError("bad-result", 'An adjudicated result is "1-0", "0-1" or "draw".')
    now = now or timezone.now()
    pairing, section = _open_pairing(pairing_id)
    games = list(pairing.match.games.all()) if pairing.match_id else [pairing.game] if pairing.game_id else []
    in_play = [g for g in games if g.status == Game.Status.ACTIVE]
    if result == "draw" and in_play:
        raise ServiceError("game-in-play", "A game still in play can be adjudicated a win, not a draw.")
    if in_play:
        loser = pairing.second if result == "1-0" else pairing.first
        _stop_games(pairing, loser, rated=None,
                    reason=f"Adjudicated by the arbiter: {loser.username} loses" + (f" ({reason})" if reason else "."))
    code, first_points, second_points = DECISIONS[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    _score(pairing, code, first_points, second_points, played=True, now=now, won_over_board=winner)
    _after_result(section, pairing.round, now)
    return pairing


@transaction.atomic
def correct_result(*, pairing_id: int, result: str, reason: str, requested_by: User | None = None) -> Pairing:
    """Correct a finished single-game pairing of a round robin, Swiss or arena: scored
    again, the game's outcome corrected through games (a rating recompute from the game
    log is queued when the game was rated), the standings drawn again. Later rounds keep
    their pairings. A bracket's results stand (who went through is settled) and a
    match's result comes from its games."""
    from . import rating_services

    if result not in DECISIONS:
        raise ServiceError("bad-result", 'A corrected result is "1-0", "0-1" or "draw".')
    if not (reason or "").strip():
        raise ServiceError("reason-required", "A correction needs a reason.")
    section = _section_of_pairing(pairing_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    if pairing.status != Pairing.Status.FINISHED:
        raise ServiceError("no-result-yet", "This pairing has no result to correct yet; adjudicate it instead.")
    if pairing.is_bye:
        raise ServiceError("bye", "A bye has no game to correct.")
    if section.format in ELIMINATION:
        raise ServiceError("bracket-result", "A bracket's result stands once played: who went through is settled.")
    if pairing.match_id:
        raise ServiceError("match-result", "A match's result comes from its games.")
    code, first_points, second_points = DECISIONS[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    _score(pairing, code, first_points, second_points, played=True,
           now=pairing.finished_at or timezone.now(), won_over_board=winner)
    game = pairing.game
    if game is not None and game.status == Game.Status.FINISHED:
        seat = None if winner is None else game.seats.get(user_id=winner).number
        game_services.correct_result(game_id=game.pk, winner_seat=seat, reason=reason)
        if game.rated:
            rating_services.queue_recompute(requested_by=requested_by)
    if pairing.round.status == Round.Status.FINISHED:
        _update_standings(section, final=section.status == Section.Status.FINISHED)
    return pairing


@transaction.atomic
def pause_section(*, section_id: int, now: datetime | None = None) -> Section:
    """Pause a running (or not yet started) section: no round starts, no arena wave is
    paired and nobody is forfeited for not showing up until it is resumed. Games in play
    go on with their clocks, and their results count."""
    now = now or timezone.now()
    section = _locked_section(section_id)
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        raise ServiceError("section-over", "This section is over.")
    if section.paused_at is not None:
        raise ServiceError("already-paused", "This section is paused already.")
    section.paused_at = now
    section.save(update_fields=["paused_at"])
    _broadcast_section(section, {"event": "paused"})
    return section


@transaction.atomic
def resume_section(*, section_id: int, now: datetime | None = None) -> Section:
    """Resume a paused section: a round due meanwhile starts now (after commit; beat's
    sweep would start it too), an arena pairs whoever is free, and the no-show grace of
    games in play counts again from now."""
    now = now or timezone.now()
    section = _locked_section(section_id)
    if section.paused_at is None:
        raise ServiceError("not-paused", "This section is not paused.")
    section.paused_at, section.resumed_at = None, now
    section.save(update_fields=["paused_at", "resumed_at"])
    section_id = section.pk
    if section.format == F.ARENA and section.status == Section.Status.RUNNING:
        _queue_arena_pairing(section_id)
    for number in section.round_set.filter(status=Round.Status.SCHEDULED, starts_at__lte=now + timedelta(seconds=1)
                                           ).values_list("number", flat=True):
        transaction.on_commit(lambda number=number: _send("league.start_round", section_id, number))
    _broadcast_section(section, {"event": "resumed"})
    return section


#: Results an arbiter decided or a game produced: a round holding one is under way.
_DECIDED = (Pairing.Result.FIRST_WON, Pairing.Result.SECOND_WON, Pairing.Result.DRAW)


@transaction.atomic
def repair_round(*, round_id: int, now: datetime | None = None) -> Round:
    """Pair the current round again while it has not really started: no game of it has
    a move and no result was decided over the board (byes and forfeits are made again).
    Its games are aborted, its pairings deleted, and league/formats pairs it afresh from
    the entries as they are now (withdrawn players left out, late entrants in); the
    players are told their new boards. Not for an arena (it pairs whoever is free)."""
    now = now or timezone.now()
    found = Round.objects.filter(pk=round_id).values_list("section_id", flat=True).first()
    if found is None:
        raise ServiceError("no-such-round", "There is no such round.")
    section = _locked_section(found)
    round_ = Round.objects.select_for_update().get(pk=round_id)
    if section.format == F.ARENA:
        raise ServiceError("arena", "An arena pairs players as they become free: it has no round to pair again.")
    if section.paused_at is not None:
        raise ServiceError("paused", "This section is paused: resume it first.")
    if round_.status == Round.Status.SCHEDULED:
        raise ServiceError("not-paired", f"Round {round_.number} is not paired yet: it is paired when it starts.")
    if round_.status != Round.Status.IN_PLAY or section.status != Section.Status.RUNNING:
        raise ServiceError("round-over", f"Round {round_.number} is over: its results stand.")
    pairings = list(round_.pairings.select_for_update(of=("self",)).select_related("first", "match", "game"))
    games = Game.objects.filter(Q(pk__in=[p.game_id for p in pairings if p.game_id])
                                | Q(match_id__in=[p.match_id for p in pairings if p.match_id]))
    if games.filter(ply__gt=0).exists() or any(p.result in _DECIDED for p in pairings):
        raise ServiceError("round-under-way",
                           f"Round {round_.number} is under way (a game has a move or a result): it cannot be paired again.")
    for pairing in pairings:
        own = list(pairing.match.games.all()) if pairing.match_id else [pairing.game] if pairing.game_id else []
        for game in own:
            if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
                game_services.abort(game_id=game.pk, user=pairing.first)
        if pairing.match_id:
            Match.objects.filter(pk=pairing.match_id, status=Match.Status.ACTIVE).update(status=Match.Status.ABORTED)
    round_.pairings.all().delete()  # their PairingPlayer rows go with them
    round_.status = Round.Status.PAIRING
    round_.save(update_fields=["status"])
    _pair_and_play(section, round_, now)
    return round_


# -- realtime --------------------------------------------------------------------------------


def _announce_round(section: Section, round_: Round) -> None:
    pairings = list(round_.pairings.select_related("first", "second"))
    _notify_players(section, round_, pairings)
    _broadcast_section(section, {"event": "round-started", "round": round_.number})


def _notify_players(section: Section, round_: Round, pairings: list[Pairing]) -> None:
    """Tell each player their pairing, on their own group, after commit."""
    messages = []
    for pairing in pairings:
        game_id = pairing.game_id or (pairing.match.games.order_by("number_in_match").values_list(
            "pk", flat=True).last() if pairing.match_id else None)
        for user_id, opponent_id in ((pairing.first_id, pairing.second_id), (pairing.second_id, pairing.first_id)):
            if user_id is None:
                continue
            if opponent_id is None:
                text = f"{section}: round {round_.number}: you have a bye."
            elif game_id is None:
                text = f"{section}: round {round_.number}: result by forfeit ({pairing.get_result_display()})."
            else:
                text = f"{section}: round {round_.number}, board {pairing.board}: your game is ready."
            messages.append((user_group(user_id), {
                "type": "user.notice", "message": text, "event": "pairing", "section": section.pk,
                "round": round_.number, "board": pairing.board, "game": game_id,
                "url": f"/play/{game_id}/" if game_id else "",
            }))
    if messages:
        transaction.on_commit(lambda: _group_send_all(messages))


def _broadcast_section(section: Section, payload: dict[str, Any]) -> None:
    message = {"type": "section.update", "section": section.pk, **payload}
    group = section_group(section.pk)
    transaction.on_commit(lambda: _group_send_all([(group, message)]))


def _group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a lost notice costs a page refresh, never a result
            log.warning("could not send %s to %s", message.get("event"), group, exc_info=True)
