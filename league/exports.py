"""Files people take away: a section's standings as CSV, a player's rounds as
iCalendar, a bracket or crosstable as JSON. Pure formatting of event_selectors' reads."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from typing import Any

import icalendar
from django.utils import timezone

from accounts.models import User

from .competitions import event_selectors
from .models import Section

#: How long a round is booked in a calendar when the section sets no interval.
DEFAULT_ROUND_LENGTH = timedelta(hours=1)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


#: A cell starting with one of these is read as a formula by spreadsheets (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _safe_cell(value: Any) -> Any:
    """Text a spreadsheet would run as a formula, prefixed with a quote so it stays text.
    A plain number is left as it is (a negative tie-break is a number, not a formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class _SafeWriter:
    """csv.writer whose every text cell goes through _safe_cell: use it for every CSV."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([_safe_cell(value) for value in row])


def standings_csv(section: Section) -> str:
    """Rank, player, points, the organiser's tie-breaks in order, games, frozen rating; a
    knockout's also its place (empty until decided) and how far each player got."""
    tiebreaks = event_selectors.tiebreak_columns(section)
    out = io.StringIO()
    writer = _SafeWriter(out)
    rows = event_selectors.standings(section)
    knockout = any(row.status for row in rows)  # how far each got, as the page says it
    writer.writerow(["rank", "username", "name", "seed", "points", *[column.label for column in tiebreaks],
                     "played", "wins", "draws", "losses", "rating", "final", *(["place", "standing"] if knockout else [])])
    for row in rows:
        writer.writerow([row.rank, row.person.username, row.person.name, row.person.seed or "",
                         _number(row.points), *[_number(v) for v in row.tiebreaks], row.played, row.wins,
                         row.draws, row.losses, _number(round(row.rating)) if row.rating is not None else "",
                         "yes" if row.final else "no",
                         *([row.place if row.place is not None else "", row.status] if knockout else [])])
    return out.getvalue()


def standings_filename(section: Section) -> str:
    return f"{section.tournament.slug}-{section.slug}-standings.csv"


def player_calendar(user: User, *, site: str = "") -> bytes:
    """Every round of the player's sections as an event: the start, the board and the
    opponent once paired, and a link to the section's page."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Tic Tac Toe League//rounds//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{user.username}: tournament rounds")
    stamp = timezone.now()
    for item in event_selectors.player_rounds(user):
        round_, section = item.round, item.section
        event = icalendar.Event()
        event.add("uid", f"round-{round_.pk}-{user.pk}@tictactoe-league")
        event.add("dtstamp", stamp)
        event.add("dtstart", round_.starts_at)
        event.add("dtend", round_.starts_at + (section.round_interval or DEFAULT_ROUND_LENGTH))
        event.add("summary", f"{section.tournament.name}, {section.name}: round {round_.number}")
        if item.opponent == "bye":
            detail = "You have a bye."
        elif item.opponent:
            detail = f"Board {item.board} against {item.opponent}."
        else:
            detail = "Pairings are made when the round starts."
        event.add("description", f"{detail} Status: {round_.get_status_display()}.")
        path = f"/clubs/{section.tournament.club.slug}/{section.tournament.slug}/{section.slug}/"
        event.add("url", f"{site}{path}")
        calendar.add_component(event)
    return calendar.to_ical()


def calendar_filename(user: User) -> str:
    return f"{user.username}-rounds.ics"


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)
