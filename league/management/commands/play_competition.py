"""Run one section end to end with AI-driven test players, through the real runtime:
round 1 is started by django-celery-beat, rounds are paired and results recorded by the
Celery worker, and this process only makes the players' moves (as bot clients would).

    python manage.py play_competition --format swiss --players 256 --rounds 8
    python manage.py play_competition --format single-elimination --players 12 --placements all

Prints one JSON line: wall time, games, moves, moves/s and the final standings' top.
Used by tests/league/test_competitions_worker.py and bench/competitions.py. It creates
players named <prefix>NNN: run it on a scratch or demo database, never on real data.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import Profile, User
from games import rule_sets as game_rule_sets
from games.models import Game, Move
from league import competitions as cs
from league.competitions.formats import FORMATS
from league.competitions.formats.section_settings import ARENA_DURATION
from league.management.commands.play_section_bots import all_finished, play_pending_moves
from league.models import Club, Pairing, Section, Standing


def ensure_players(prefix: str, n: int) -> list[User]:
    users = []
    for i in range(1, n + 1):
        user, created = User.objects.get_or_create(username=f"{prefix}{i:04d}")
        if created:
            user.set_unusable_password()
            user.save()
        Profile.objects.update_or_create(user=user, defaults={"date_of_birth": date(1990, 1, 1), "country": "GB"})
        users.append(user)
    return users


class Command(BaseCommand):
    help = "Play one section end to end with AI-driven players on the real worker and beat."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--format", default="swiss", choices=Section.Format.values)
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default: recommended).")
        parser.add_argument("--variant", default="classic")
        parser.add_argument("--arena-seconds", type=float, default=20.0)
        parser.add_argument("--start-in", type=float, default=2.0, help="Seconds until beat starts round 1.")
        parser.add_argument("--level", default="random", choices=["random", "casual", "strong"])
        parser.add_argument("--prefix", default="bot")
        parser.add_argument("--timeout", type=float, default=900.0)
        parser.add_argument("--rated", action="store_true")
        parser.add_argument("--drivers", type=int, default=1, help="Processes making the players' moves.")
        # Single elimination's placement matches and consolation bracket.
        parser.add_argument("--placements", choices=Section.Placements.values, default=None)
        parser.add_argument("--consolation", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        users = ensure_players(opts["prefix"], opts["players"])
        club, _ = Club.objects.get_or_create(slug="bot-club", defaults={"name": "Bot club"})
        starts_at = timezone.now() + timedelta(seconds=opts["start_in"])
        tournament = cs.create_tournament(club=club, name=f"{opts['format']} x{opts['players']}", starts_at=starts_at)
        options: dict[str, Any] = {}
        if ARENA_DURATION in FORMATS[opts["format"]].settings:
            options["arena_duration"] = timedelta(seconds=opts["arena_seconds"])
        if opts["rounds"]:
            options["rounds"] = opts["rounds"]
        if opts["placements"]:
            options["placements"] = opts["placements"]
        if opts["consolation"]:
            options["consolation"] = True
        # Registration closes at the start: register before it.
        section = cs.create_section(
            tournament=tournament, name="Open", rule_set=game_rule_sets.standard_rule_set(opts["variant"]),
            format=opts["format"], starts_at=starts_at + timedelta(seconds=0), rated=opts["rated"], **options,
        )
        for user in users:
            cs.register(section=section, user=user)
        if timezone.now() >= starts_at:
            raise CommandError("Registration took longer than --start-in; give it more seconds.")
        helpers = [
            subprocess.Popen([sys.executable, "manage.py", "play_section_bots", str(section.pk), "--level",
                              opts["level"], "--shard", f"{k}/{opts['drivers']}", "--timeout", str(opts["timeout"])],
                             cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL)
            for k in range(1, opts["drivers"])
        ]
        try:
            self._drive(section, opts)
        finally:
            for helper in helpers:
                helper.terminate()
                helper.wait(timeout=30)

    def _drive(self, section: Section, opts: dict[str, Any]) -> None:
        registered_at = time.monotonic()
        started = None
        deadline = time.monotonic() + opts["timeout"]
        while not all_finished([section.pk]):
            if time.monotonic() > deadline:
                raise CommandError(f"Section {section.pk} did not finish in {opts['timeout']} s.")
            if started is None and Pairing.objects.filter(section=section).exists():
                started = time.monotonic()
            if not play_pending_moves([section.pk], level=opts["level"], shard=(0, opts["drivers"])):
                time.sleep(0.02)
        wall = time.monotonic() - (started or registered_at)
        pairings = Pairing.objects.filter(section=section)
        games = Game.objects.filter(Q(pk__in=pairings.values("game_id")) | Q(match_id__in=pairings.values("match_id")))
        moves = Move.objects.filter(game__in=games).count()
        section.refresh_from_db()
        top = list(Standing.objects.filter(section=section, final=True).order_by("rank", "user__username")
                   .values_list("user__username", "rank", "points")[:5])
        summary = {
            "section": section.pk, "format": section.format, "status": section.status,
            "players": section.entries.count(), "rounds": section.round_set.count(),
            "games": games.count(), "moves": moves, "wall_seconds": round(wall, 2),
            "moves_per_second": round(moves / wall, 1) if wall else None,
            "standings": Standing.objects.filter(section=section, final=True).count(),
            "prizes": section.prizes.filter(winner__isnull=False).count(),
            "one_pairing_each": not pairings.values("round", "first").annotate(n=Count("pk")).filter(n__gt=1).exists(),
            "top": top,
        }
        self.stdout.write(json.dumps(summary))
