"""A club's organisers make and change its leagues and seasons (league/competitions/seasons.py,
league/views/seasons.py): the services' rules and refusals, who may, and the pages
(docs/competitions.md, "Leagues and seasons")."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from league.competitions import event_services, seasons
from league.models import ClubMembership, League, Season, Standing, Tournament
from moderation.models import AuditEntry
from tests.factories import ClubFactory, MembershipFactory, TournamentFactory, section_with

from .support import text_of
from .test_form_help_ids import assert_described_by_ids_exist

pytestmark = pytest.mark.django_db

D = date


@pytest.fixture
def junior(club, organiser):
    return seasons.create_league(by=organiser, club=club, name="Junior league", description="Under 14s.")


@pytest.fixture
def spring(junior, organiser):
    return seasons.create_season(by=organiser, league=junior, name="Spring 2026",
                                 starts_on=D(2026, 3, 1), ends_on=D(2026, 5, 31))


def _refused(code: str, call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


# -- services: leagues ----------------------------------------------------------------------


def test_an_organiser_creates_a_league_with_a_slug_and_an_audit_entry(club, organiser, junior):
    assert (junior.club, junior.name, junior.slug, junior.description) == (club, "Junior league", "junior-league",
                                                                           "Under 14s.")
    entry = AuditEntry.objects.get(action="league.create")
    assert (entry.actor, entry.club_id, entry.target_id) == (organiser, club.pk, str(junior.pk))


def test_league_slugs_are_unique_in_the_club_and_never_a_route(club, organiser, junior):
    other_club = ClubFactory.create(name="Other club")
    MembershipFactory.create(club=other_club, user=organiser, role=ClubMembership.Role.OWNER)
    assert seasons.create_league(by=organiser, club=other_club, name="Junior league").slug == "junior-league"
    assert seasons.create_league(by=organiser, club=club, name="Junior League!").slug == "junior-league-2"
    assert seasons.create_league(by=organiser, club=club, name="New").slug == "new-2"


def test_league_refusals_change_nothing(club, organiser, junior):
    _refused("bad-name", seasons.create_league, by=organiser, club=club, name="   ")
    _refused("bad-name", seasons.create_league, by=organiser, club=club, name="x" * 121)
    _refused("bad-name", seasons.create_league, by=organiser, club=club, name="Junior \u202eeugael")  # nobody sees it
    error = _refused("name-taken", seasons.create_league, by=organiser, club=club, name=" junior LEAGUE ")
    assert "already a league called junior LEAGUE" in error.message
    _refused("bad-description", seasons.create_league, by=organiser, club=club, name="Open", description="x" * 10_001)
    assert list(League.objects.values_list("name", flat=True)) == ["Junior league"]
    assert AuditEntry.objects.filter(action__startswith="league.").count() == 1


def test_only_the_clubs_organisers_make_or_edit_its_leagues(club, junior, make_player):
    member = make_player(username="mo")
    MembershipFactory.create(club=club, user=member)
    elsewhere = make_player(username="elsie")
    MembershipFactory.create(club=ClubFactory.create(name="Far club"), user=elsewhere, role=ClubMembership.Role.ORGANISER)
    for who in (member, elsewhere):
        error = _refused("not-organiser", seasons.create_league, by=who, club=club, name="Blitz league")
        assert "owners and organisers" in error.message
        _refused("not-organiser", seasons.edit_league, by=who, league=junior, name="Taken over")
    assert list(League.objects.values_list("name", flat=True)) == ["Junior league"]


def test_an_owner_edits_a_league_and_its_address_stays(club, junior, make_player):
    owner = MembershipFactory.create(club=club, user=make_player(username="owen"), role=ClubMembership.Role.OWNER).user
    seasons.create_league(by=owner, club=club, name="Blitz league")
    _refused("name-taken", seasons.edit_league, by=owner, league=junior, name="blitz league")
    seasons.edit_league(by=owner, league=junior, name="Youth league", description="")
    junior.refresh_from_db()
    assert (junior.name, junior.slug, junior.description) == ("Youth league", "junior-league", "")
    entry = AuditEntry.objects.get(action="league.edit")
    assert entry.details == {"changed": {"description": ["Under 14s.", ""], "name": ["Junior league", "Youth league"]}}
    seasons.edit_league(by=owner, league=junior, name="Youth league")  # nothing changed: no entry
    assert AuditEntry.objects.filter(action="league.edit").count() == 1
    _refused("bad-setting", seasons.edit_league, by=owner, league=junior, slug="elsewhere")


# -- services: seasons ----------------------------------------------------------------------


def test_a_season_takes_its_year_from_its_first_day_unless_given(junior, organiser, spring):
    assert (spring.slug, spring.year, spring.starts_on, spring.ends_on, spring.scoring, spring.place_points) == (
        "spring-2026", 2026, D(2026, 3, 1), D(2026, 5, 31), Season.Scoring.GAME_POINTS, [])
    winter = seasons.create_season(by=organiser, league=junior, name="Winter", starts_on=D(2026, 12, 1),
                                   ends_on=D(2027, 2, 28), year=2027, scoring="place-points", place_points=[25, 18.5, 18])
    assert (winter.year, winter.scoring, winter.place_points) == (2027, "place-points", [25, 18.5, 18])
    entry = AuditEntry.objects.get(action="season.create", target_id=str(winter.pk))
    assert entry.details["starts_on"] == "2026-12-01" and entry.details["league"] == junior.pk


def test_season_dates_are_checked(junior, organiser):
    error = _refused("bad-dates", seasons.create_season, by=organiser, league=junior, name="Back to front",
                     starts_on=D(2026, 6, 1), ends_on=D(2026, 5, 31))
    assert error.message == "A season ends on or after the day it starts."
    _refused("bad-dates", seasons.create_season, by=organiser, league=junior, name="Open ended",
             starts_on=D(2026, 6, 1), ends_on=None)
    _refused("bad-dates", seasons.create_season, by=organiser, league=junior, name="Far", starts_on=D(1800, 1, 1),
             ends_on=D(1800, 2, 1))
    _refused("bad-year", seasons.create_season, by=organiser, league=junior, name="Odd year", starts_on=D(2026, 1, 1),
             ends_on=D(2026, 2, 1), year=3001)
    one_day = seasons.create_season(by=organiser, league=junior, name="Festival", starts_on=D(2026, 7, 4),
                                    ends_on=D(2026, 7, 4))
    assert one_day.starts_on == one_day.ends_on
    assert list(junior.seasons.values_list("name", flat=True)) == ["Festival"]


@pytest.mark.parametrize(("starts_on", "ends_on"), [
    (D(2026, 1, 1), D(2026, 3, 1)),    # ends on the other's first day
    (D(2026, 5, 31), D(2026, 8, 31)),  # starts on the other's last day
    (D(2026, 4, 1), D(2026, 4, 30)),   # inside it
    (D(2026, 1, 1), D(2026, 12, 31)),  # around it
])
def test_a_leagues_seasons_never_share_a_day(junior, organiser, spring, starts_on, ends_on):
    error = _refused("season-overlap", seasons.create_season, by=organiser, league=junior, name="Clash",
                     starts_on=starts_on, ends_on=ends_on)
    assert "already has a season on those days: Spring 2026, 1 Mar 2026 to 31 May 2026" in error.message
    assert junior.seasons.count() == 1


def test_seasons_side_by_side_and_in_other_leagues_are_fine(club, junior, organiser, spring):
    summer = seasons.create_season(by=organiser, league=junior, name="Summer 2026", starts_on=D(2026, 6, 1),
                                   ends_on=D(2026, 8, 31))
    blitz = seasons.create_league(by=organiser, club=club, name="Blitz league")
    same_days = seasons.create_season(by=organiser, league=blitz, name="Spring 2026", starts_on=D(2026, 3, 1),
                                      ends_on=D(2026, 5, 31))
    assert (summer.slug, same_days.slug) == ("summer-2026", "spring-2026")
    # A season without dates (the admin's) does not clash; its name is still taken.
    Season.objects.create(league=junior, name="Old", slug="old", year=2020)
    seasons.create_season(by=organiser, league=junior, name="Autumn", starts_on=D(2026, 9, 1), ends_on=D(2026, 11, 30))
    _refused("name-taken", seasons.create_season, by=organiser, league=junior, name="OLD", starts_on=D(2030, 1, 1),
             ends_on=D(2030, 2, 1))


def test_season_slugs_never_take_a_route(junior, organiser):
    made = [seasons.create_season(by=organiser, league=junior, name=name, starts_on=D(2026, month, 1),
                                  ends_on=D(2026, month, 20)) for month, name in ((1, "New season"), (2, "Edit"))]
    assert [s.slug for s in made] == ["new-season-2", "edit-2"]


def test_place_points_are_checked(junior, organiser):
    def make(scoring, points):
        return seasons.create_season(by=organiser, league=junior, name="Points", starts_on=D(2026, 1, 1),
                                     ends_on=D(2026, 1, 31), scoring=scoring, place_points=points)

    _refused("bad-place-points", make, "place-points", [])
    _refused("bad-place-points", make, "place-points", [10, -1])
    _refused("bad-place-points", make, "place-points", ["ten"])
    error = _refused("bad-place-points", make, "place-points", [10, 12, 8])
    assert error.message == "A place never earns more points than the place above it."
    _refused("bad-place-points", make, "place-points", [1] * 101)
    _refused("bad-scoring", make, "most-wins", [])
    assert not junior.seasons.exists()
    assert make("place-points", [10, 10, 0]).place_points == [10, 10, 0]


def test_only_the_clubs_organisers_make_or_edit_its_seasons(club, junior, spring, make_player):
    member = make_player(username="mo")
    MembershipFactory.create(club=club, user=member, role=ClubMembership.Role.MEMBER)
    elsewhere = make_player(username="elsie")
    MembershipFactory.create(club=ClubFactory.create(name="Far club"), user=elsewhere, role=ClubMembership.Role.OWNER)
    for who in (member, elsewhere):
        _refused("not-organiser", seasons.create_season, by=who, league=junior, name="Mine",
                 starts_on=D(2027, 1, 1), ends_on=D(2027, 2, 1))
        _refused("not-organiser", seasons.edit_season, by=who, season=spring, name="Mine")
    assert list(junior.seasons.values_list("name", flat=True)) == ["Spring 2026"]


def test_editing_a_season_checks_as_creation_does_and_keeps_the_address(junior, organiser, spring):
    summer = seasons.create_season(by=organiser, league=junior, name="Summer 2026", starts_on=D(2026, 6, 1),
                                   ends_on=D(2026, 8, 31))
    _refused("season-overlap", seasons.edit_season, by=organiser, season=summer, starts_on=D(2026, 5, 15))
    _refused("name-taken", seasons.edit_season, by=organiser, season=summer, name="spring 2026")
    _refused("bad-dates", seasons.edit_season, by=organiser, season=summer, ends_on=D(2026, 5, 1))
    summer.refresh_from_db()
    assert (summer.name, summer.starts_on, summer.ends_on) == ("Summer 2026", D(2026, 6, 1), D(2026, 8, 31))
    assert not AuditEntry.objects.filter(action="season.edit").exists()

    # Its own days do not clash with itself; a new name keeps the slug.
    seasons.edit_season(by=organiser, season=summer, name="Long summer", ends_on=D(2026, 9, 30),
                        scoring="place-points", place_points=[3, 2, 1])
    summer.refresh_from_db()
    assert (summer.name, summer.slug, summer.ends_on, summer.place_points) == (
        "Long summer", "summer-2026", D(2026, 9, 30), [3, 2, 1])
    entry = AuditEntry.objects.get(action="season.edit")
    assert entry.details["changed"]["ends_on"] == ["2026-08-31", "2026-09-30"]
    assert set(entry.details["changed"]) == {"name", "ends_on", "scoring", "place_points"}


# -- pages ----------------------------------------------------------------------------------


def _club_url(club):
    return reverse("competitions:club", args=[club.slug])


def test_the_organiser_sees_the_buttons_and_a_player_does_not(client, club, organiser, junior, spring, make_player):
    new_league = reverse("competitions:league-new", args=[club.slug])
    new_season = reverse("competitions:season-new", args=[club.slug, junior.slug])
    edit_season = reverse("competitions:season-edit", args=[club.slug, junior.slug, spring.slug])
    season_page = reverse("competitions:season", args=[club.slug, junior.slug, spring.slug])

    client.force_login(organiser)
    html = client.get(_club_url(club)).content.decode()
    assert new_league in html and new_season in html
    assert "1 Mar 2026 to 31 May 2026" in text_of(html)
    html = client.get(season_page).content.decode()
    assert edit_season in html
    assert f'{reverse("competitions:tournament-new", args=[club.slug])}?season={spring.pk}' in html

    member = make_player(username="mo")
    MembershipFactory.create(club=club, user=member)
    client.force_login(member)
    for page in (_club_url(club), season_page):
        html = client.get(page).content.decode()
        assert new_league not in html and new_season not in html and edit_season not in html
        assert "New tournament in this season" not in html
    assert "Spring 2026" in client.get(_club_url(club)).content.decode()


def test_a_player_is_refused_every_form_and_nothing_changes(client, club, junior, spring, make_player):
    member = make_player(username="mo")
    MembershipFactory.create(club=club, user=member)
    client.force_login(member)
    posts = {
        reverse("competitions:league-new", args=[club.slug]): {"name": "Mine"},
        reverse("competitions:league-edit", args=[club.slug, junior.slug]): {"name": "Mine"},
        reverse("competitions:season-new", args=[club.slug, junior.slug]): {
            "name": "Mine", "starts_on": "2027-01-01", "ends_on": "2027-02-01", "scoring": "game-points"},
        reverse("competitions:season-edit", args=[club.slug, junior.slug, spring.slug]): {
            "name": "Mine", "starts_on": "2026-03-01", "ends_on": "2026-05-31", "scoring": "game-points"},
    }
    for page, data in posts.items():
        assert client.get(page).status_code == 403
        assert client.post(page, data).status_code == 403
    assert client.get(reverse("competitions:season-new", args=[club.slug, "no-such-league"])).status_code == 403
    assert list(League.objects.values_list("name", flat=True)) == ["Junior league"]
    assert list(Season.objects.values_list("name", flat=True)) == ["Spring 2026"]
    client.logout()
    assert client.post(reverse("competitions:league-new", args=[club.slug]), {"name": "Mine"}).status_code == 302
    assert League.objects.count() == 1


def test_the_organiser_makes_a_league_then_its_season_then_a_tournament_in_it(client, club, organiser):
    client.force_login(organiser)
    answer = client.post(reverse("competitions:league-new", args=[club.slug]),
                         {"name": "Rapid league", "description": "Saturdays."})
    league = League.objects.get(name="Rapid league")
    assert answer.status_code == 302 and answer["Location"] == reverse("competitions:season-new",
                                                                       args=[club.slug, league.slug])
    answer = client.post(answer["Location"], {"name": "2026", "starts_on": "2026-01-10", "ends_on": "2026-12-12",
                                              "scoring": "place-points", "place_points": "10, 6; 4,2 "})
    season = league.seasons.get()
    assert (season.slug, season.year, season.place_points) == ("2026", 2026, [10, 6, 4, 2])
    assert answer["Location"] == reverse("competitions:season", args=[club.slug, league.slug, season.slug])
    page = text_of(client.get(answer["Location"]).content.decode())
    assert "Rapid league: 2026" in page and "Sat 10 Jan 2026 to Sat 12 Dec 2026" in page and "(10, 6, 4, 2)" in page

    form = client.get(reverse("competitions:tournament-new", args=[club.slug]), {"season": season.pk}).content.decode()
    assert re.search(rf'<option value="{season.pk}" selected>', form)
    tournament = TournamentFactory.create(club=club, by=organiser, name="January rapid", season=season)
    assert "January rapid" in client.get(answer["Location"]).content.decode()
    assert tournament.season == season

    edit = reverse("competitions:season-edit", args=[club.slug, league.slug, season.slug])
    assert 'value="10, 6, 4, 2"' in client.get(edit).content.decode()
    answer = client.post(edit, {"name": "Season 2026", "starts_on": "2026-01-10", "ends_on": "2026-12-12",
                                "year": "2026", "scoring": "game-points", "place_points": ""})
    assert answer.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.slug, season.scoring) == ("Season 2026", "2026", "game-points")
    answer = client.post(reverse("competitions:league-edit", args=[club.slug, league.slug]), {"name": "Rapid"})
    assert answer["Location"] == f"{_club_url(club)}leagues/{league.slug}/"
    assert League.objects.get(pk=league.pk).name == "Rapid"


def test_a_refusal_is_shown_beside_its_field_and_changes_nothing(client, club, organiser, junior, spring):
    client.force_login(organiser)
    page = reverse("competitions:season-new", args=[club.slug, junior.slug])
    answer = client.post(page, {"name": "Clash", "starts_on": "2026-05-01", "ends_on": "2026-06-30",
                                "scoring": "game-points"})
    assert answer.status_code == 200
    html = answer.content.decode()
    beside = re.search(r'<div id="id_starts_on_error">(.*?)</div>', html, re.S)
    assert beside and "already has a season on those days: Spring 2026" in beside.group(1)
    assert 'value="2026-06-30"' in html  # what was typed stays
    assert "id_starts_on_error" in assert_described_by_ids_exist(html)  # read out with the field
    assert "id_ends_on_helptext" in assert_described_by_ids_exist(client.get(page).content.decode())
    answer = client.post(page, {"name": "Back", "starts_on": "2026-09-01", "ends_on": "2026-08-01",
                                "scoring": "game-points"})
    beside = re.search(r'<div id="id_ends_on_error">(.*?)</div>', answer.content.decode(), re.S)
    assert beside and "ends on or after the day it starts" in beside.group(1)
    answer = client.post(page, {"name": "Points", "starts_on": "2026-09-01", "ends_on": "2026-10-01",
                                "scoring": "place-points", "place_points": "25, lots"})
    assert "&quot;lots&quot; is not a number" in answer.content.decode()
    answer = client.post(reverse("competitions:league-new", args=[club.slug]), {"name": "Junior League"})
    beside = re.search(r'<div id="id_name_error">(.*?)</div>', answer.content.decode(), re.S)
    assert beside and "already a league called Junior League" in beside.group(1)
    assert list(Season.objects.values_list("name", flat=True)) == ["Spring 2026"]
    assert League.objects.count() == 1


def test_the_season_page_lists_drafts_to_its_organisers_only(client, club, organiser, junior, spring, make_player):
    event_services.create_tournament(by=organiser, club=club, name="Quiet draft", season=spring, draft=True,
                                     starts_at=timezone.now() + timedelta(days=1))
    page = reverse("competitions:season", args=[club.slug, junior.slug, spring.slug])
    client.force_login(organiser)
    assert "Quiet draft" in client.get(page).content.decode()
    client.force_login(make_player(username="nosy"))
    assert "Quiet draft" not in client.get(page).content.decode()


def test_a_leagues_page_lists_its_seasons_with_their_leaders(client, club, organiser, make_player):
    league = seasons.create_league(by=organiser, club=club, name="Rapid league", description="Fridays.")
    old = seasons.create_season(by=organiser, league=league, name="2025", year=2025,
                                starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31))
    today = timezone.localdate()
    seasons.create_season(by=organiser, league=league, name="This season", starts_on=today - timedelta(days=30),
                          ends_on=today + timedelta(days=30))
    ana, ben = make_player(username="ana", display_name="Ana A"), make_player(username="ben")
    section = section_with([ana, ben], format="round-robin", club=club, tournament="Friday rapid", start=False)
    Tournament.objects.filter(pk=section.tournament_id).update(season=old)
    Standing.objects.create(section=section, user=ana, points=2, rank=1, final=True)
    Standing.objects.create(section=section, user=ben, points=1, rank=2, final=True)
    page_url = reverse("competitions:league", args=[club.slug, league.slug])
    page = client.get(page_url).content.decode()
    assert "<h1>Rapid league</h1>" in page and "Fridays." in page
    assert page.index("This season") < page.index("2025")  # the latest first
    assert page.count('class="badge">Now<') == 1 and page.index("Now<") < page.index("2025")
    assert re.search(r"Won by: <a [^>]*>Ana A</a> \(2 points\)", page)
    assert "1 tournament" in page and "No finished sections yet." in page
    assert "New season" not in page  # organisers only
    client.force_login(organiser)
    assert "New season" in client.get(page_url).content.decode()
    club_page = client.get(_club_url(club)).content.decode()
    assert f'href="{page_url}"' in club_page
    assert client.get(reverse("competitions:league", args=[club.slug, "no-such-league"])).status_code == 404
