"""The demo club: idempotent, with the people the README promises."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts import age
from accounts.models import User
from league.models import Club, ClubMembership, Section

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_complete():
    call_command("seed_demo", verbosity=0)
    counts = (User.objects.count(), Club.objects.count(), ClubMembership.objects.count())
    call_command("seed_demo", verbosity=0)
    assert (User.objects.count(), Club.objects.count(), ClubMembership.objects.count()) == counts
    today = timezone.localdate()
    ages = {u.username: age.age_on(u.profile.date_of_birth, today) for u in User.objects.exclude(username="admin")}
    assert ages["ada"] == 4 and ages["jonas"] == 15 and ages["edith"] == 105
    assert User.objects.get(username="jonas").profile.country.code == "DE"
    assert User.objects.get(username="jonas").guardian_consent.is_granted
    assert User.objects.get(username="admin").is_superuser
    roles = set(ClubMembership.objects.values_list("role", flat=True))
    assert {"owner", "organiser", "arbiter", "member"} <= roles
    # A two-stage championship: groups with six entered, then a knockout of each group's top two.
    knockout = Section.objects.get(tournament__slug="club-championship", name="Knockout")
    assert knockout.previous_stage.groups == 2 and knockout.advance == 2
    assert knockout.previous_stage.entries.count() == 6 and not knockout.entries.exists()
    # The rated games have moves to replay (a game with none offers its result only), each won by resignation.
    from games.models import Game

    rated = Game.objects.filter(rated=True, match__isnull=True, pairing__isnull=True)
    assert rated.count() >= 10 and not rated.filter(ply=0).exists()
    assert set(rated.values_list("end_reason", flat=True)) and all(
        "resign" in reason for reason in rated.values_list("end_reason", flat=True))


def test_home_page_lists_the_demo_club(client):
    call_command("seed_demo", verbosity=0)
    page = client.get("/").content.decode()
    # 11 members, of whom 2 children opened by their guardians are counted only for fellow
    # members, as the club page lists them (tests/league/test_club_member_counts.py).
    assert "Demo Noughts &amp; Crosses Club" in page and "9 members" in page


def test_clubs_api(client):
    call_command("seed_demo", verbosity=0)
    clubs = client.get("/api/v1/clubs/").json()["results"]
    assert clubs[0]["slug"] == "demo-noughts-crosses-club" and clubs[0]["member_count"] == 9


def test_seed_demo_says_the_member_counts_the_club_page_shows(client):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    said = out.getvalue()
    # The page's counts: 9 to a visitor (the home page, the API), 11 to a fellow member.
    assert "Its page lists 11 members to a fellow member and 9 to anyone else (2 play with a guardian's consent: " \
           "listed to fellow members only)." in said
    assert "with 11 members" not in said
    club = Club.objects.get()
    assert client.get("/api/v1/clubs/").json()["results"][0]["member_count"] == 9
    client.force_login(User.objects.get(username="sam"))
    assert client.get(f"/api/v1/clubs/{club.slug}/").json()["member_count"] == 11


def test_the_demo_has_a_finished_swiss_played_out_on_the_board(client):
    """The Autumn Cup: three rounds of four games, each moved to its end (no resignations),
    so its standings, crosstable and replays show something, dated as its schedule says
    (a round every 20 minutes, two days ago); seeded again, nothing is added."""
    from games.models import Game, Move
    from league.models import Pairing, Standing

    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)
    section = Section.objects.get(tournament__slug="autumn-cup")
    assert section.status == Section.Status.FINISHED and not section.rated
    pairings = Pairing.objects.filter(section=section)
    assert pairings.count() == 12 and not pairings.filter(game__isnull=True).exists()
    games = Game.objects.filter(pk__in=pairings.values("game_id"))
    assert all(g.status == Game.Status.FINISHED and "resign" not in g.end_reason.lower() for g in games)
    assert all(Move.objects.filter(game=g).count() >= 5 for g in games)  # a line takes five moves at least
    assert Standing.objects.filter(section=section).count() == 8
    from datetime import timedelta

    from league.models import Round
    starts_at = section.tournament.starts_at
    assert abs(section.started_at - starts_at) < timedelta(minutes=1) < timezone.now() - section.finished_at
    for round_ in Round.objects.filter(section=section):
        due = starts_at + (round_.number - 1) * section.round_interval
        assert abs(round_.started_at - due) < timedelta(minutes=1), (round_.number, round_.started_at, due)
        for game in games.filter(pairing__round=round_):
            assert due <= game.started_at <= game.finished_at < due + timedelta(minutes=1)
            assert all(due <= move.created_at < due + timedelta(minutes=1) for move in game.moves.all())
    page = client.get(f"/clubs/demo-noughts-crosses-club/autumn-cup/{section.slug}/").content.decode()
    assert "Crosstable" in page and "Podium" in page
