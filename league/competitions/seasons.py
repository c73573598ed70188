"""A club's leagues and their seasons, made and changed by the club's organisers from the
club's pages (docs/competitions.md, "Leagues and seasons"). Each service checks who asks,
then the details, in one transaction with its audit entry: a refusal changes nothing.

A league is split into seasons, one after another: the seasons of a league never share a
day (a tournament counts towards one season, and "the current season" is one). A season
made here has both its dates; one without (the admin's) is left out of that check.
Addresses stay: a rename keeps the slug, as a tournament's does."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from accounts import lookalikes
from accounts.errors import ServiceError
from accounts.models import User
from league.models import Club, League, Season

from . import audit
from .event_services import check_organiser
from .sections import EVENT_YEARS, MOST_DESCRIPTION, _unique_slug

#: Slugs the pages' own routes use (league/urls.py): ``leagues/new/`` makes a league,
#: ``leagues/<league>/new-season/`` a season and ``leagues/<league>/edit/`` edits the
#: league, so a league or season given one would be shadowed; it takes a number instead.
RESERVED_LEAGUE_SLUGS = frozenset({"new"})
RESERVED_SEASON_SLUGS = frozenset({"new-season", "edit"})

#: The models' name columns.
MOST_NAME = 120

#: A place-points table's length: points for 1st to 100th.
MOST_PLACES = 100

LEAGUE_CHANGES = frozenset({"name", "description"})
SEASON_CHANGES = frozenset({"name", "starts_on", "ends_on", "year", "scoring", "place_points"})


# -- checks ---------------------------------------------------------------------------------


def _check_name(name: str, *, what: str, taken: Iterable[str]) -> str:
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad-name", f"A {what} needs a name.")
    if len(name) > MOST_NAME:
        raise ServiceError("bad-name", f"A {what}'s name is at most {MOST_NAME} characters.")
    lookalikes.refuse_hidden(name, what=what)
    if name.casefold() in {other.casefold() for other in taken}:
        raise ServiceError("name-taken", f"There is already a {what} called {name} here: choose another name.")
    return name


def check_league(*, club: Club, name: str, description: str, league: League | None = None) -> str:
    """Refuse (ServiceError) a league's details that cannot be; the name as kept."""
    others = club.leagues.exclude(pk=league.pk) if league is not None else club.leagues.all()
    name = _check_name(name, what="league", taken=others.values_list("name", flat=True))
    if len(description or "") > MOST_DESCRIPTION:
        raise ServiceError("bad-description", f"A description is at most {MOST_DESCRIPTION:,} characters.")
    return name


def _place_points(scoring: str, points: Sequence[Any]) -> list[int | float]:
    if scoring not in Season.Scoring.values:
        raise ServiceError("bad-scoring", 'A season is scored by "game-points" or by "place-points".')
    if not isinstance(points, list | tuple):  # the console's JSON: 5, "25", {...}
        raise ServiceError("bad-place-points", "Points for each place are a list of numbers: [25, 18, 15].")
    table: list[int | float] = []
    for value in points or ():
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal) or value < 0:
            raise ServiceError("bad-place-points", "Points for a place are numbers, 0 or more.")
        table.append(int(value) if value == int(value) else float(value))
    if len(table) > MOST_PLACES:
        raise ServiceError("bad-place-points", f"Points are given for at most {MOST_PLACES} places.")
    if scoring == Season.Scoring.PLACE_POINTS and not table:
        raise ServiceError("bad-place-points", "Place-points scoring needs the points for each place (25, 18, 15...).")
    if any(lower > higher for higher, lower in pairwise(table)):
        raise ServiceError("bad-place-points", "A place never earns more points than the place above it.")
    return table


def _day(day: date | None) -> str:
    return f"{day.day} {day:%b %Y}" if day is not None else "no date"


def check_season(*, league: League, name: str, starts_on: date | None, ends_on: date | None, year: int | None,
                 scoring: str, place_points: Sequence[Any], season: Season | None = None) -> dict[str, Any]:
    """Refuse (ServiceError) a season's details that cannot be: no name, or one the
    league has; a date missing, the end before the start, or days another season of the
    league has; a year out of range; a place-points table without points, or one where a
    place earns more than the place above. Answers the details as kept (the year, when
    not given, is the year the season starts)."""
    if league.pk is None:  # the console adding a league with its seasons: none of its own yet
        others = Season.objects.none()
    else:
        others = league.seasons.exclude(pk=season.pk) if season is not None else league.seasons.all()
    name = _check_name(name, what="season", taken=others.values_list("name", flat=True))
    if starts_on is None or ends_on is None:
        raise ServiceError("bad-dates", "A season needs its first and its last day.")
    low, high = EVENT_YEARS
    if not (low <= starts_on.year <= high and low <= ends_on.year <= high):
        raise ServiceError("bad-dates", f"A season's days fall between the years {low} and {high}.")
    if ends_on < starts_on:
        raise ServiceError("bad-dates", "A season ends on or after the day it starts.")
    clash = (others.filter(starts_on__isnull=False, ends_on__isnull=False,
                           starts_on__lte=ends_on, ends_on__gte=starts_on).order_by("starts_on").first())
    if clash is not None:
        raise ServiceError("season-overlap", f"{league.name} already has a season on those days: {clash.name}, "
                                             f"{_day(clash.starts_on)} to {_day(clash.ends_on)}. "
                                             "A league's seasons come one after another.")
    year = starts_on.year if year is None else year
    if not low <= year <= high:
        raise ServiceError("bad-year", f"A season's year is between {low} and {high}.")
    return {"name": name, "starts_on": starts_on, "ends_on": ends_on, "year": year, "scoring": scoring,
            "place_points": _place_points(scoring, place_points)}


# -- services -------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A value for the audit log's JSON."""
    return value.isoformat() if isinstance(value, date) else value


@transaction.atomic
def create_league(*, by: User, club: Club, name: str, description: str = "") -> League:
    """A new league of ``club``, by one of its organisers."""
    check_organiser(user=by, club=club)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one new league of a club at a time
    name = check_league(club=club, name=name, description=description)
    league = League.objects.create(club=club, name=name, description=description or "",
                                   slug=_unique_slug(League, slugify(name), RESERVED_LEAGUE_SLUGS, club=club))
    audit.record(actor=by, action="league.create", target=league, club=club, details={"name": name})
    return league


@transaction.atomic
def edit_league(*, by: User, league: League, **changes: Any) -> League:
    """Change a league's name or description; its address stays. Audited when something changed."""
    league = League.objects.select_for_update().select_related("club").get(pk=league.pk)
    check_organiser(user=by, club=league.club)
    unknown = set(changes) - LEAGUE_CHANGES
    if unknown:
        raise ServiceError("bad-setting", f"Unknown league detail(s): {', '.join(sorted(unknown))}.")
    after = {field: changes.get(field, getattr(league, field)) for field in LEAGUE_CHANGES}
    after["name"] = check_league(club=league.club, name=after["name"], description=after["description"], league=league)
    after["description"] = after["description"] or ""
    changed = {field: [getattr(league, field), value] for field, value in after.items()
               if getattr(league, field) != value}
    if changed:
        for field, (_, value) in changed.items():
            setattr(league, field, value)
        league.save(update_fields=sorted(changed))
        audit.record(actor=by, action="league.edit", target=league, club=league.club, details={"changed": changed})
    return league


def _locked_league(league: League) -> League:
    """The league's row, locked: two seasons made or moved at once cannot both take the same days."""
    return League.objects.select_for_update().select_related("club").get(pk=league.pk)


@transaction.atomic
def create_season(*, by: User, league: League, name: str, starts_on: date | None, ends_on: date | None,
                  year: int | None = None, scoring: str = Season.Scoring.GAME_POINTS,
                  place_points: Sequence[Any] = ()) -> Season:
    """A new season of ``league``, by one of its club's organisers (check_season's rules)."""
    check_organiser(user=by, club=league.club)
    league = _locked_league(league)
    details = check_season(league=league, name=name, starts_on=starts_on, ends_on=ends_on, year=year,
                           scoring=scoring, place_points=place_points)
    season = Season.objects.create(league=league, **details, slug=_unique_slug(
        Season, slugify(details["name"]), RESERVED_SEASON_SLUGS, league=league))
    audit.record(actor=by, action="season.create", target=season, club=league.club,
                 details={"league": league.pk, **{field: _plain(value) for field, value in details.items()}})
    return season


@transaction.atomic
def edit_season(*, by: User, season: Season, **changes: Any) -> Season:
    """Change a season's name, dates, year or scoring (creation's checks; the standings
    follow a new scoring at once, as they are counted when shown); its address stays.
    Audited when something changed."""
    check_organiser(user=by, club=season.league.club)
    league = _locked_league(season.league)
    season = Season.objects.select_for_update().get(pk=season.pk)
    unknown = set(changes) - SEASON_CHANGES
    if unknown:
        raise ServiceError("bad-setting", f"Unknown season detail(s): {', '.join(sorted(unknown))}.")
    after = {field: changes.get(field, getattr(season, field)) for field in SEASON_CHANGES}
    details = check_season(league=league, season=season, **after)
    changed = {field: [_plain(getattr(season, field)), _plain(value)] for field, value in details.items()
               if getattr(season, field) != value}
    if changed:
        for field in changed:
            setattr(season, field, details[field])
        season.save(update_fields=sorted(changed))
        audit.record(actor=by, action="season.edit", target=season, club=league.club, details={"changed": changed})
    return season
