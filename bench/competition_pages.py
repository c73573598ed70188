"""What a competition page costs: the section page, its polled live part and the
exports, for big sections (a 256-player Swiss in round 1 with its 128 games in play, a
256-entrant knockout, a 16-player round robin), in milliseconds and queries.

    .venv/bin/python bench/competition_pages.py                       # embedded SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttt .venv/bin/python bench/competition_pages.py

A scratch database (tests.processes.scratch_database: created, migrated, dropped); the
sections are made through the services (players registered, the organiser's "start
now"), then each URL is fetched through Django's test client in this process (no
network), 20 times after one warm-up; the median and the worst are printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.processes import scratch_database  # noqa: E402


def build(fmt: str, players: int, tag: str):
    from datetime import date, timedelta

    from django.utils import timezone

    from accounts import services as accounts
    from games import rule_sets as game_rule_sets
    from league import competitions as cs
    from league.competitions import event_services
    from league.models import Club, ClubMembership

    club = Club.objects.get_or_create(slug="bench-club", defaults={"name": "Bench club"})[0]
    organiser = accounts.register_player(username=f"org-{tag}", password="bench-Passw0rd!",
                                         date_of_birth=date(1980, 1, 1), country="GB").user
    ClubMembership.objects.create(club=club, user=organiser, role=ClubMembership.Role.ORGANISER)
    tournament = event_services.create_tournament(by=organiser, club=club, name=f"Bench {tag}",
                                                  starts_at=timezone.now() + timedelta(hours=1))
    section = event_services.create_section(by=organiser, tournament=tournament, name="Open", format=fmt,
                                            rule_set=game_rule_sets.standard_rule_set("classic"))
    for i in range(players):
        user = accounts.register_player(username=f"{tag}{i:04d}", password="bench-Passw0rd!",
                                        date_of_birth=date(1990, 1, 1), country="GB").user
        cs.register(section=section, user=user)
    event_services.start_section(by=organiser, section=section)
    return section


def measure(client, path: str, repeat: int, **headers) -> tuple[float, float, int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path, headers=headers)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, headers=headers)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(times), max(times), len(queries), len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--swiss", type=int, default=256)
    parser.add_argument("--knockout", type=int, default=256)
    parser.add_argument("--round-robin", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ttt-pages-") as tmp, scratch_database(Path(tmp)) as env:
        os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SQLITE_PATH", "REDIS_URL")})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
        os.environ["DJANGO_DEBUG"] = "0"
        import django

        django.setup()
        from django.conf import settings
        from django.test import Client

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # setup speed only
        print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}")
        started = time.perf_counter()
        sections = {
            f"Swiss, {args.swiss} players, round 1 in play": build("swiss", args.swiss, "sw"),
            f"single elimination, {args.knockout} entrants": build("single-elimination", args.knockout, "ko"),
            f"round robin, {args.round_robin} players": build("round-robin", args.round_robin, "rr"),
        }
        print(f"setup through the services: {time.perf_counter() - started:.1f} s")
        client = Client()
        print(f"{'page':<58} {'median ms':>9} {'worst ms':>9} {'queries':>8} {'KB':>7}")
        for label, section in sections.items():
            t = section.tournament
            base = f"/clubs/{t.club.slug}/{t.slug}/{section.slug}/"
            paths = [("section page", base, {}), ("live part (htmx poll)", base, {"HX-Request": "true"}),
                     ("standings.csv", base + "standings.csv", {})]
            if section.format == "single-elimination":
                paths.append(("bracket.json", base + "bracket.json", {}))
            if section.format == "round-robin":
                paths.append(("crosstable.json", base + "crosstable.json", {}))
            paths.append(("API rounds", f"/api/v1/sections/{section.pk}/rounds/", {}))
            for name, path, headers in paths:
                median, worst, queries, size = measure(client, path, args.repeat, **headers)
                print(f"{label + ': ' + name:<58} {median:>9.1f} {worst:>9.1f} {queries:>8} {size / 1024:>7.1f}")


if __name__ == "__main__":
    main()
