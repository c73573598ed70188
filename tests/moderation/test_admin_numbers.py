"""Numbers typed into the console (an outside walkthrough): an observer cap of -3 or 0, a
clock of 99999999999999999999, a season's year past its column. Each gets one sentence
naming the field and its range, the page again (no 500), and nothing changed; Django's
own words were "Ensure this value is greater than or equal to 0." and, past the column,
a second message with SQLite's limit, 9223372036854775807."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from django.contrib import admin

from games import rule_sets
from games.models import RuleSet
from games.rules import RuleError, get_variant
from league.models import League, Season
from moderation.admin_site import NumbersInWords
from moderation.models import OBSERVER_CAP_REFUSAL, ObserverPolicy
from tests.moderation.test_rule_sets_admin import form_data

pytestmark = pytest.mark.django_db

BAD_NUMBERS = ["-3", "0", "99999999999999999999", "1e3"]


def errors(response) -> list[str]:
    assert response.status_code == 200
    return [html.unescape(e) for e in
            re.findall(r'<ul class="errorlist[^"]*"[^>]*><li>(.*?)</li>', response.content.decode())]


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize("field", sorted(rule_sets.NUMBER_FIELDS))
def test_a_rule_sets_number_out_of_range_gets_its_sentence_and_nothing_is_made(client, world, field, value):
    client.force_login(world.organiser_a)
    before = RuleSet.objects.count()
    response = client.post("/admin/games/ruleset/add/?variant=classic",
                           form_data(**{field: value, "club": world.club_a.pk}))
    # One message, beside the field: no second one from the model's column check.
    assert errors(response) == [rule_sets.NUMBER_FIELDS[field].refusal]
    assert f'id="id_{field}_error"' in response.content.decode()
    assert RuleSet.objects.count() == before


def test_a_revision_with_a_bad_clock_changes_nothing(client, world):
    client.force_login(world.organiser_a)
    url = f"/admin/games/ruleset/{world.rules_a.pk}/change/"
    response = client.post(url, form_data(name="A's classic", seconds_per_game="-3", club=world.club_a.pk))
    assert errors(response) == [rule_sets.NUMBER_FIELDS["seconds_per_game"].refusal]
    assert RuleSet.objects.filter(family=world.rules_a.family).count() == 1


@pytest.mark.parametrize("value", [*BAD_NUMBERS, "100001"])
def test_an_observer_cap_out_of_range_gets_its_sentence(client, world, value):
    client.force_login(world.organiser_a)
    response = client.post("/admin/moderation/observerpolicy/add/",
                           {"club": world.club_a.pk, "policy": "anyone", "cap": value})
    assert errors(response) == [OBSERVER_CAP_REFUSAL]
    assert not ObserverPolicy.objects.exists()
    # The same on the change page of a policy that exists: its cap stays.
    client.post("/admin/moderation/observerpolicy/add/", {"club": world.club_a.pk, "policy": "anyone", "cap": "5"})
    policy = ObserverPolicy.objects.get(club=world.club_a)
    response = client.post(f"/admin/moderation/observerpolicy/{policy.pk}/change/",
                           {"club": world.club_a.pk, "policy": "anyone", "cap": value})
    assert errors(response) == [OBSERVER_CAP_REFUSAL]
    policy.refresh_from_db()
    assert policy.cap == 5


@pytest.mark.parametrize("value", ["-3", "99999999999999999999"])
def test_any_other_number_field_says_its_columns_range(client, world, value):
    """A field with no range of its own (a season's year) is held to its column's."""
    client.force_login(world.superuser)
    response = client.post("/admin/league/season/add/", {"name": "Odd", "slug": "odd", "year": value})
    assert "The year is a whole number from 0 to 32,767." in errors(response)
    assert not any("Ensure this value" in e for e in errors(response))
    assert not Season.objects.filter(slug="odd").exists()


def _league_with_seasons(league: League, season: Season, year: str, new_year: str | None) -> dict[str, str]:
    """The league's change form: its one season's row with ``year``, and a new row with
    ``new_year`` when given (the inline formset "seasons")."""
    data = {"club": str(league.club_id), "name": league.name, "slug": league.slug, "description": "",
            "seasons-TOTAL_FORMS": "2" if new_year is not None else "1", "seasons-INITIAL_FORMS": "1",
            "seasons-MIN_NUM_FORMS": "0", "seasons-MAX_NUM_FORMS": "1000"}
    rows = [(str(season.pk), season.name, season.slug, year, "2026")]
    if new_year is not None:
        rows.append(("", "New", "new", new_year, "2027"))
    for n, (pk, name, slug, row_year, days) in enumerate(rows):
        data.update({f"seasons-{n}-id": pk, f"seasons-{n}-league": str(league.pk), f"seasons-{n}-name": name,
                     f"seasons-{n}-slug": slug, f"seasons-{n}-year": row_year, f"seasons-{n}-starts_on": f"{days}-01-01",
                     f"seasons-{n}-ends_on": f"{days}-12-31", f"seasons-{n}-scoring": "game-points",
                     f"seasons-{n}-place_points": "[]"})
    return data


@pytest.mark.parametrize("value", ["-3", "99999999999999999999"])
def test_an_inline_rows_number_says_its_range_too(client, world, value):
    """A season's year typed in the league's inline rows (a TabularInline): the same
    sentence as on the season's own page, for a row that exists and a new one."""
    league = League.objects.create(club=world.club_a, name="Winter league", slug="winter")
    season = Season.objects.create(league=league, name="2026", slug="2026", year=2026)
    client.force_login(world.superuser)
    url = f"/admin/league/league/{league.pk}/change/"
    assert client.post(url, _league_with_seasons(league, season, "2027", None)).status_code == 302  # a good form
    season.refresh_from_db()
    assert season.year == 2027
    for existing, new in ((value, None), ("2027", value)):
        said = errors(client.post(url, _league_with_seasons(league, season, existing, new)))
        assert said == ["The year is a whole number from 0 to 32,767."]
        assert not any("Ensure this value" in e for e in said)
    season.refresh_from_db()
    assert season.year == 2027 and not Season.objects.filter(slug="new").exists()


def test_every_inline_on_the_console_says_its_numbers_range(rf, world):
    """Each registered admin's inlines (ProfileInline, SeatInline, MembershipInline,
    SeasonInline, ...) get the model admins' hook, however they were declared."""
    request = rf.get("/admin/")
    request.user = world.superuser
    inlines = [inline for model_admin in admin.site._registry.values()
               for inline in model_admin.get_inline_instances(request, None)]
    assert {type(inline).__name__ for inline in inlines} >= {"ProfileInline", "SeasonInline", "MembershipInline"}
    assert all(isinstance(inline, NumbersInWords) for inline in inlines)


@pytest.mark.parametrize("value", [-3, 26, 99999999999999999999])
def test_an_engine_option_out_of_range_is_refused_by_its_title_and_range(value):
    with pytest.raises(RuleError) as err:
        get_variant("t-tic-t-tac-toe").validate_options({"take_backs": value})
    assert err.value.message == "Take-backs per player and game is a whole number from 0 to 25."


def test_the_preview_in_words_follows_a_form_refused_for_a_number(client, world):
    """Refused for its clock, the add page's "rules in words" still read the letters
    typed, not an empty form's ("'' is not a letter you can play")."""
    client.force_login(world.organiser_a)
    response = client.post("/admin/games/ruleset/add/?variant=classic",
                           form_data(seconds_per_move="-3", club=world.club_a.pk))
    page = html.unescape(response.content.decode())
    assert "is not a letter" not in page and "Classic Tic Tac Toe on a 3x3 grid" in page


@pytest.mark.parametrize("value", ["5", "3000"])
def test_a_season_in_the_console_is_held_to_the_sites_years(client, world, value):
    """Found by a walkthrough: the console saved a season's year of 5, which the site's
    form refuses; its rows and its own page now say the site's sentence (check_season)."""
    league = League.objects.create(club=world.club_a, name="Winter league", slug="winter")
    season = Season.objects.create(league=league, name="2026", slug="2026", year=2026,
                                   starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31))
    client.force_login(world.superuser)
    url = f"/admin/league/league/{league.pk}/change/"
    for existing, new in ((value, None), ("2026", value)):
        said = errors(client.post(url, _league_with_seasons(league, season, existing, new)))
        assert said == ["A season's year is between 1900 and 2999."]
    response = client.post("/admin/league/season/add/", {
        "league": league.pk, "name": "Odd", "slug": "odd", "year": value, "starts_on": "2030-01-01",
        "ends_on": "2030-12-31", "scoring": "game-points", "place_points": "[]"})
    assert errors(response) == ["A season's year is between 1900 and 2999."]
    response = client.post("/admin/league/season/add/", {
        "league": league.pk, "name": "Overlap", "slug": "overlap", "year": "2026", "starts_on": "2026-06-01",
        "ends_on": "2027-05-31", "scoring": "place-points", "place_points": "[25, 18]"})
    assert errors(response)[0].startswith("Winter league already has a season on those days: 2026")
    response = client.post("/admin/league/season/add/", {
        "league": league.pk, "name": "Points", "slug": "points", "year": "2027", "starts_on": "2027-01-01",
        "ends_on": "2027-05-31", "scoring": "place-points", "place_points": "5"})
    assert errors(response) == ["Points for each place are a list of numbers: [25, 18, 15]."]
    season.refresh_from_db()
    assert season.year == 2026 and list(league.seasons.values_list("slug", flat=True)) == ["2026"]
