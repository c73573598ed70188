"""Run one section end to end with AI-driven test players, through the real runtime:
round 1 is started by django-celery-beat, rounds are paired and results recorded by the
Celery worker, and this process only makes the players' moves (as bot clients would).

    python manage.py play_competition --format swiss --players 256 --rounds 8
    python manage.py play_competition --stages groups-knockout --players 16
    python manage.py play_competition --format single-elimination --players 12 --placements all

``--stages`` plays a two-stage event instead (docs/competitions.md, "Multi-stage
events"): ``groups-knockout`` (round robin groups of 4, the top 2 of each into a
knockout) or ``swiss-top4`` (a Swiss, then a knockout of its top 4); it prints both
stages' summaries with their final tables and the knockout's seeds.

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
from league.formats.stages import group_letter, snake_group
from league.management.commands.play_section_bots import all_finished, play_pending_moves
from league.models import Club, Entry, Pairing, Section, Standing

#: The two-stage presets of --stages: the first stage's format and settings, how many go through.
STAGES: dict[str, tuple[str, dict[str, Any], int]] = {
    "groups-knockout": ("round-robin", {}, 2),  # groups of 4 (players // 4 groups), top 2 of each
    "swiss-top4": ("swiss", {}, 4),
}


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
        parser.add_argument("--swiss-system", choices=Section.SwissSystem.values, default=None,
                            help="Swiss pairing system (default: a new section's, the FIDE Dutch).")
        parser.add_argument("--acceleration", choices=Section.Acceleration.values, default=None,
                            help="A FIDE Dutch Swiss's accelerated rounds (baku: C.04.5.1; default none).")
        parser.add_argument("--variant", default="classic")
        parser.add_argument("--arena-seconds", type=float, default=20.0)
        parser.add_argument("--start-in", type=float, default=2.0, help="Seconds until beat starts round 1.")
        parser.add_argument("--level", default="random", choices=["random", "casual", "strong"])
        parser.add_argument("--prefix", default="bot")
        parser.add_argument("--timeout", type=float, default=900.0)
        parser.add_argument("--rated", action="store_true")
        parser.add_argument("--drivers", type=int, default=1, help="Processes making the players' moves.")
        parser.add_argument("--stages", choices=list(STAGES), default=None,
                            help="A two-stage event (then a single-elimination knockout) instead of --format.")
        # Single elimination's placement matches and consolation bracket.
        parser.add_argument("--placements", choices=Section.Placements.values, default=None)
        parser.add_argument("--consolation", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        users = ensure_players(opts["prefix"], opts["players"])
        club, _ = Club.objects.get_or_create(slug="bot-club", defaults={"name": "Bot club"})
        starts_at = timezone.now() + timedelta(seconds=opts["start_in"])
        fmt = STAGES[opts["stages"]][0] if opts["stages"] else opts["format"]
        name = f"{opts['stages'] or fmt} x{opts['players']}"
        tournament = cs.create_tournament(club=club, name=name, starts_at=starts_at)
        options: dict[str, Any] = {}
        if ARENA_DURATION in FORMATS[fmt].settings:
            options["arena_duration"] = timedelta(seconds=opts["arena_seconds"])
        if opts["rounds"]:
            options["rounds"] = opts["rounds"]
        if opts["swiss_system"]:
            options["swiss_system"] = opts["swiss_system"]
        if opts["acceleration"]:
            options["acceleration"] = opts["acceleration"]
        if opts["stages"] == "groups-knockout":
            options["groups"] = max(1, opts["players"] // 4)
        if opts["placements"]:
            options["placements"] = opts["placements"]
        if opts["consolation"]:
            options["consolation"] = True
        # Registration closes at the start: register before it.
        rule_set = game_rule_sets.standard_rule_set(opts["variant"])
        section = cs.create_section(
            tournament=tournament, name="Open" if not opts["stages"] else "Stage 1", rule_set=rule_set,
            format=fmt, starts_at=starts_at + timedelta(seconds=0), rated=opts["rated"], **options,
        )
        sections = [section]
        if opts["stages"]:  # the knockout, due as soon as the first stage hands over
            sections.append(cs.create_section(
                tournament=tournament, name="Knockout", rule_set=rule_set, format=Section.Format.SINGLE_ELIMINATION,
                starts_at=starts_at, rated=opts["rated"], previous_stage=section, advance=STAGES[opts["stages"]][2],
            ))
        for user in users:
            cs.register(section=section, user=user)
        if timezone.now() >= starts_at:
            raise CommandError("Registration took longer than --start-in; give it more seconds.")
        ids = [str(s.pk) for s in sections]
        helpers = [
            subprocess.Popen([sys.executable, "manage.py", "play_section_bots", *ids, "--level",
                              opts["level"], "--shard", f"{k}/{opts['drivers']}", "--timeout", str(opts["timeout"])],
                             cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL)
            for k in range(1, opts["drivers"])
        ]
        try:
            self._drive(sections, opts)
        finally:
            for helper in helpers:
                helper.terminate()
                helper.wait(timeout=30)

    def _drive(self, sections: list[Section], opts: dict[str, Any]) -> None:
        ids = [s.pk for s in sections]
        registered_at = time.monotonic()
        started = None
        deadline = time.monotonic() + opts["timeout"]
        while not all_finished(ids):
            if time.monotonic() > deadline:
                raise CommandError(f"Sections {ids} did not finish in {opts['timeout']} s.")
            if started is None and Pairing.objects.filter(section_id__in=ids).exists():
                started = time.monotonic()
            if not play_pending_moves(ids, level=opts["level"], shard=(0, opts["drivers"])):
                time.sleep(0.02)
        wall = time.monotonic() - (started or registered_at)
        summaries = [self._summary(section, wall) for section in sections]
        if len(summaries) == 1:
            self.stdout.write(json.dumps(summaries[0]))
            return
        tournament = sections[0].tournament
        tournament.refresh_from_db()
        self.stdout.write(json.dumps({"stages": summaries, "tournament": tournament.status}))

    def _summary(self, section: Section, wall: float) -> dict[str, Any]:
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
        if section.previous_stage_id is not None or section.next_stages.exists():
            summary["table"] = _stage_table(section)
        return summary


def _stage_table(section: Section) -> list[dict[str, Any]]:
    """A stage's final table: each player's seed, group (letter, "" for none) and rank."""
    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    rows = Standing.objects.filter(section=section, final=True).order_by("rank").values_list(
        "user_id", "user__username", "rank")
    return [
        {"username": username, "seed": seeds[user_id], "rank": rank,
         "group": group_letter(snake_group(seeds[user_id] or 0, section.groups)) if section.groups > 1 else ""}
        for user_id, username, rank in rows
    ]
