"""Helpers shared by the competition tests (no tests here)."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from games import services as game_services
from league import competition_services as cs
from league.management.commands.play_section_bots import all_finished, play_pending_moves
from league.models import Club, Section


def players(make_player, n: int, *, prefix: str = "p", born: date = date(1990, 5, 17)):
    return [make_player(username=f"{prefix}{i:03d}", born=born) for i in range(1, n + 1)]


def section_with(users, *, format: str, variant: str = "classic", rule_set=None, starts_in: float = 60,
                 start: bool = True, **options):
    """A section of ``users``; ``start``: its round 1 started at once, as the organiser's
    "start now" does (beat would start it at its time)."""
    club = Club.objects.get_or_create(slug="chess-club", defaults={"name": "Chess club"})[0]
    now = timezone.now()
    tournament = cs.create_tournament(club=club, name=f"{format} cup", starts_at=now + timedelta(seconds=starts_in))
    rule_set = rule_set or game_services.standard_rule_set(variant)
    if format == "arena":
        options.setdefault("arena_duration", timedelta(seconds=8))
    section = cs.create_section(tournament=tournament, name="Open", rule_set=rule_set, format=format,
                                starts_at=now + timedelta(seconds=starts_in), **options)
    for user in users:
        cs.register(section=section, user=user, now=now)
    if start:
        if format == "arena":  # the arena's clock starts now
            Section.objects.filter(pk=section.pk).update(starts_at=timezone.now())
            section.refresh_from_db()
        cs.start_round(section_id=section.pk, number=1, force=True)
        section.refresh_from_db()
    return section


def play_out(section_ids, *, limit: int = 20_000, level: str = "random") -> None:
    """Bots move until the sections finish (every other step is Celery's)."""
    for _ in range(limit):
        if all_finished(section_ids):
            return
        if not play_pending_moves(section_ids, level=level):
            cs.sweep()  # a round due, an arena over: what beat's sweep would catch
    raise AssertionError("the sections did not finish")
