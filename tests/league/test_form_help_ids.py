"""Every form page's aria-describedby names elements the page has: a field's help
(Django's widget says "<id>_helptext") and its errors ("<id>_error") are read out by a
screen reader only if accounts/_field.html gives them those very ids."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from league.competitions import event_services
from league.competitions.formats import FORMATS

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.described_by: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            elif name == "aria-describedby" and value:
                self.described_by += value.split()


def assert_described_by_ids_exist(html: str) -> list[str]:
    page = _Ids()
    page.feed(html)
    missing = [ref for ref in page.described_by if ref not in page.ids]
    assert not missing, f"aria-describedby names ids the page lacks: {missing}"
    return page.described_by


@pytest.fixture
def tournament(club, organiser):
    return event_services.create_tournament(by=organiser, club=club, name="Help cup",
                                            starts_at=timezone.now() + timedelta(days=1))


def test_the_new_section_form_names_its_help_and_errors_by_their_ids(client, organiser, tournament):
    client.force_login(organiser)
    new_section = reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])
    described = assert_described_by_ids_exist(client.get(new_section).content.decode())
    assert "id_capacity_helptext" in described and "id_variant_helptext" in described
    # Refused: the errors are named too.
    again = client.post(new_section, {"name": "Evening", "format": "swiss", "capacity": "1"})
    assert again.status_code == 200
    described = assert_described_by_ids_exist(again.content.decode())
    assert "id_capacity_error" in described


@pytest.mark.parametrize("key", list(FORMATS))
def test_each_formats_settings_name_their_help_by_its_id(client, organiser, tournament, key):
    client.force_login(organiser)
    fieldset = reverse("competitions:section-format-settings", args=[tournament.club.slug, tournament.slug])
    assert_described_by_ids_exist(client.get(fieldset, {"format": key}).content.decode())


def test_the_swiss_pairing_systems_help_is_read_out(client, organiser, tournament):
    client.force_login(organiser)
    fieldset = reverse("competitions:section-format-settings", args=[tournament.club.slug, tournament.slug])
    assert "id_swiss_system_helptext" in assert_described_by_ids_exist(
        client.get(fieldset, {"format": "swiss"}).content.decode())


def test_the_signup_and_new_tournament_forms_name_their_help_by_its_id(client, organiser, tournament):
    assert_described_by_ids_exist(client.get(reverse("accounts:signup")).content.decode())
    assert_described_by_ids_exist(client.post(reverse("accounts:signup"), {"username": ""}).content.decode())
    client.force_login(organiser)
    page = client.get(reverse("competitions:tournament-new", args=[tournament.club.slug])).content.decode()
    assert "id_season_helptext" in assert_described_by_ids_exist(page)
