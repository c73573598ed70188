"""The section form shows the chosen format's own settings only: its fieldset is built
from the format's declared ``settings`` (and fetched alone when the Format select
changes), the other formats' settings are sent at their defaults, and without script
"Show this format's settings" brings the form back with what was typed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.competitions import event_services
from league.competitions.formats import FORMAT_SETTINGS, FORMATS
from league.models import Section
from tests.factories import MembershipFactory, SectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return event_services.create_tournament(by=organiser, club=club, name="Form cup",
                                            starts_at=timezone.now() + timedelta(days=1))


def settings_url(tournament) -> str:
    return reverse("competitions:section-format-settings", args=[tournament.club.slug, tournament.slug])


def field_names(html: str) -> set[str]:
    return set(re.findall(r'<(?:input|select|textarea)[^>]* name="([^"]+)"', html))


@pytest.mark.parametrize("key", list(FORMATS))
def test_each_formats_fieldset_holds_its_declared_settings_and_the_tiebreaks(client, organiser, tournament, key):
    """The rounds' timetable in every format played in rounds, not in the arena (timed);
    the tie-breaks only where the format ranks by them (round robin, Swiss): an
    elimination ranks by its bracket and an arena by its points."""
    client.force_login(organiser)
    answer = client.get(settings_url(tournament), {"format": key})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert html.lstrip().startswith('<fieldset id="format-settings"') and "<html" not in html
    # The tie-breaks: one select box a place (tiebreaks_0, tiebreaks_1...).
    ranks_by_tiebreaks = {f"tiebreaks_{i}" for i in range(6)} if key in ("round-robin", "swiss") else set()
    in_rounds = set() if key == "arena" else {"round_interval", "round_starts"}
    assert field_names(html) == {setting.name for setting in FORMATS[key].settings} | ranks_by_tiebreaks | in_rounds
    assert f"{FORMATS[key].label} settings" in html


def test_the_form_page_shows_only_the_chosen_formats_settings(client, organiser, tournament):
    client.force_login(organiser)
    new_section = reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])
    page = client.get(new_section).content.decode()
    others = {s.name for s in FORMAT_SETTINGS} - {s.name for s in FORMATS["single-elimination"].settings}
    assert not others & field_names(page)
    own = {s.name for s in FORMATS["single-elimination"].settings}
    assert own <= field_names(page) and 'data-settings-url="' + settings_url(tournament) in page
    assert "<details" in page and "<summary>Schedule</summary>" in page

    # Without script: the form comes back for the format chosen, with what was typed, and nothing is made.
    again = client.post(new_section, {"name": "Evening", "format": "swiss", "show-format": "1", "capacity": "12"})
    html = again.content.decode()
    assert again.status_code == 200 and not tournament.sections.exists()
    assert {s.name for s in FORMATS["swiss"].settings} <= field_names(html)
    assert not ({s.name for s in FORMAT_SETTINGS} - {s.name for s in FORMATS["swiss"].settings}) & field_names(html)
    assert 'value="Evening"' in html and 'value="12"' in html and 'class="error"' not in html


def test_a_section_is_made_from_its_own_formats_fields_alone(client, organiser, tournament):
    client.force_login(organiser)
    new_section = reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])
    posted = client.post(new_section, {"name": "Arena", "variant": "classic", "format": "arena",
                                       "rated": "on", "observer_policy": "anyone", "arena_duration": "45",
                                       "streak_bonus": "on", "round_interval": "30"})  # forged: not on its page
    assert posted.status_code == 302, posted.content.decode()[-2000:]
    section = tournament.sections.get()
    assert section.format == "arena" and section.arena_duration == timedelta(minutes=45) and section.streak_bonus
    assert section.round_interval is None and section.round_starts in ([], None)
    defaults = {s.name: s.default for s in FORMAT_SETTINGS if s not in FORMATS["arena"].settings}
    assert {name: getattr(section, name) for name in defaults} == defaults


def test_bad_or_forbidden_format_settings_requests(client, organiser, tournament, make_player, club):
    client.force_login(organiser)
    assert client.get(settings_url(tournament), {"format": "no-such-format"}).status_code == 400
    assert client.get(settings_url(tournament)).status_code == 400
    member = make_player(username="member")
    MembershipFactory.create(club=club, user=member)
    client.force_login(member)
    assert client.get(settings_url(tournament), {"format": "swiss"}).status_code == 403


def test_a_finished_tournament_offers_no_section_form(client, organiser, tournament):
    client.force_login(organiser)
    tournament.status = tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    page = client.get(reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug]))
    assert "Add a section" not in page.content.decode()
    form = client.get(reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug]))
    assert "This tournament is over." in form.content.decode() and "Create the section" not in form.content.decode()
    assert not Section.objects.filter(tournament=tournament).exists()


def test_an_arenas_minutes_are_asked_for_as_needed_and_refused_beside_the_field(client, organiser, tournament):
    """It was labelled "(optional)", and its refusal came at the top of the form."""
    client.force_login(organiser)
    fieldset = client.get(settings_url(tournament), {"format": "arena"}).content.decode()
    label = re.search(r'<label for="id_arena_duration">(.*?)</label>', fieldset, re.S)
    assert label and "optional" not in label.group(1) and "Minutes" in label.group(1)
    assert "Needed for an arena" in fieldset and re.search(r'<input[^>]*name="arena_duration"[^>]*required', fieldset)
    new_section = reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])
    posted = client.post(new_section, {"name": "Arena", "variant": "classic", "format": "arena", "rated": "on",
                                       "observer_policy": "anyone", "arena_duration": ""})
    html = posted.content.decode()
    assert posted.status_code == 200 and not tournament.sections.exists()
    beside = re.search(r'<div id="id_arena_duration_error"><p class="error" role="alert">(.*?)</p>', html)
    assert beside and beside.group(1) == "An arena needs a duration.", html[-3000:]
    top = html.split('<fieldset><legend>Section</legend>')[0]
    assert "needs a duration" not in top  # not (also) at the top of the form
    # Another format does not ask for it.
    swiss = client.get(settings_url(tournament), {"format": "swiss"}).content.decode()
    assert "arena_duration" not in swiss


def test_a_new_sections_name_is_one_the_tournament_has_not_got(client, organiser, tournament):
    """Found by a walkthrough: the form offered "Open" beside a section called "Open",
    and saving it was refused."""
    client.force_login(organiser)
    new_section = reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])
    assert 'name="name" value="Open"' in client.get(new_section).content.decode()
    SectionFactory.create(tournament=tournament, name="open")
    SectionFactory.create(tournament=tournament, name="Open 2")
    assert 'name="name" value="Open 3"' in client.get(new_section).content.decode()
