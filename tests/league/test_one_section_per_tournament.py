"""A player is entered in one section of a tournament (docs/competitions.md, "One section
of a tournament"): every way in (their own Register, an organiser's entry, the API) goes
through entries.register, which refuses a second section with its name and the way out,
changing nothing; a withdrawal frees them, a cancelled section too; the pages offer no
Register where the service would refuse, and say why."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from league import competitions as cs
from league.competitions import event_services
from league.models import Entry, Section
from tests.factories import MembershipFactory, SectionFactory, TournamentFactory
from tests.support import api_as as api
from tests.support import at_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return TournamentFactory.create(by=organiser, club=club, name="Winter open",
                                    starts_at=timezone.now() + timedelta(days=2))


@pytest.fixture
def under_12(organiser, tournament):
    return SectionFactory.create(by=organiser, tournament=tournament, name="Under 12", format="round-robin")


@pytest.fixture
def open_section(organiser, tournament):
    return SectionFactory.create(by=organiser, tournament=tournament, name="Open", format="swiss")


@pytest.fixture
def mei(make_player, club):
    """A member of the club, shown as "Mei" (her login is mei)."""
    return MembershipFactory.create(club=club, user=make_player(username="mei", display_name="Mei")).user


def entries_of(user) -> list[tuple[str, str]]:
    return sorted(Entry.objects.filter(user=user).values_list("section__name", "status"))


def section_url(section: Section, name: str = "section") -> str:
    return reverse(f"competitions:{name}", args=[section.tournament.club.slug, section.tournament.slug, section.slug])


# -- the service ----------------------------------------------------------------------------------


def test_a_second_section_of_the_tournament_is_refused_naming_the_first_and_nothing_changes(
        under_12, open_section, mei):
    cs.register(section=under_12, user=mei)
    with pytest.raises(ServiceError) as err:
        cs.register(section=open_section, user=mei)
    assert err.value.code == "entered-elsewhere"
    assert err.value.message == ("You are already entered in Under 12 of this tournament: withdraw there first to "
                                 "enter Open.")
    assert entries_of(mei) == [("Under 12", "registered")]


def test_an_organiser_entering_a_member_in_a_second_section_is_told_by_the_players_name(
        organiser, under_12, open_section, mei):
    event_services.enter_player(by=organiser, section=under_12, user=mei)
    with pytest.raises(ServiceError) as err:
        event_services.enter_player(by=organiser, section=open_section, user=mei)
    assert err.value.message == ("Mei is already entered in Under 12 of this tournament: withdraw there first to "
                                 "enter Open.")
    assert entries_of(mei) == [("Under 12", "registered")]


@pytest.fixture
def under_16(organiser, tournament):
    return SectionFactory.create(by=organiser, tournament=tournament, name="Under 16", format="round-robin",
                                 age_under=16)


def test_a_section_she_may_not_enter_says_why_first_not_withdraw_there(open_section, under_16, mei):
    """Born 1990 and entered in the Open, Mei is told the Under 16 is not for her, by the
    service and by an organiser's entry alike: withdrawing from the Open would not let her in."""
    cs.register(section=open_section, user=mei)
    with pytest.raises(ServiceError) as err:
        cs.register(section=under_16, user=mei)
    assert err.value.code == "not-eligible"
    assert err.value.message.startswith("Born 1990")
    assert "withdraw there first" not in err.value.message
    with pytest.raises(ServiceError) as err:
        event_services.enter_player(by=open_section.tournament.created_by, section=under_16, user=mei)
    assert err.value.code == "not-eligible"
    assert entries_of(mei) == [("Open", "registered")]


def test_after_withdrawing_before_play_the_player_enters_another_section(under_12, open_section, mei):
    cs.register(section=under_12, user=mei)
    cs.withdraw(section=under_12, user=mei)
    assert cs.register(section=open_section, user=mei).status == Entry.Status.REGISTERED
    assert entries_of(mei) == [("Open", "registered"), ("Under 12", "withdrawn")]
    # ... and the way back is shut the same way, naming where she is now.
    with pytest.raises(ServiceError) as err:
        cs.register(section=under_12, user=mei)
    assert err.value.message.startswith("You are already entered in Open of this tournament")


def test_a_section_of_another_tournament_or_a_cancelled_one_does_not_count(
        organiser, club, under_12, open_section, mei):
    other = SectionFactory.create(by=organiser, tournament__club=club, tournament__name="Spring open", name="Open")
    cs.register(section=other, user=mei)
    cs.register(section=under_12, user=mei)  # another tournament's entry is no bar
    Section.objects.filter(pk=under_12.pk).update(status=Section.Status.CANCELLED)
    assert cs.register(section=open_section, user=mei).status == Entry.Status.REGISTERED


def test_a_finished_section_is_named_as_played(under_12, open_section, mei):
    cs.register(section=under_12, user=mei)
    Section.objects.filter(pk=under_12.pk).update(status=Section.Status.FINISHED)
    with pytest.raises(ServiceError) as err:
        cs.register(section=open_section, user=mei)
    assert err.value.message == "You played in Under 12 of this tournament: a player enters one section of a tournament."


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_registrations_at_once_in_two_sections_make_one_entry(under_12, open_section, mei):
    results, errors = at_once(partial(cs.register, section=under_12, user=mei),
                              partial(cs.register, section=open_section, user=mei))
    assert len(results) == 1
    assert [(type(e), getattr(e, "code", "")) for e in errors] == [(ServiceError, "entered-elsewhere")]
    assert Entry.objects.filter(user=mei, status__in=(Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)).count() == 1


# -- the API --------------------------------------------------------------------------------------


def test_api_refuses_the_second_section_with_400_and_the_words(organiser, under_12, open_section, mei):
    assert api(mei).post(f"/api/v1/sections/{under_12.pk}/entries/").status_code == 201
    refused = api(mei).post(f"/api/v1/sections/{open_section.pk}/entries/")
    assert refused.status_code == 400
    assert refused.json() == {"code": "entered-elsewhere", "message": "You are already entered in Under 12 of this "
                                                                      "tournament: withdraw there first to enter Open."}
    by_organiser = api(organiser).post(f"/api/v1/sections/{open_section.pk}/entries/", {"username": "mei"},
                                       format="json")
    assert by_organiser.status_code == 400
    assert by_organiser.json()["message"].startswith("Mei is already entered in Under 12")
    assert entries_of(mei) == [("Under 12", "registered")]


# -- the pages ------------------------------------------------------------------------------------


def test_the_pages_offer_no_register_for_a_second_section_and_say_why(client, under_12, open_section, mei):
    cs.register(section=under_12, user=mei)
    client.force_login(mei)
    reason = "You are already entered in Under 12 of this tournament: withdraw there first to enter Open."
    page = client.get(section_url(open_section)).content.decode()
    assert 'value="register"' not in page and reason in page
    tournament_page = client.get(reverse("competitions:tournament", args=[
        open_section.tournament.club.slug, open_section.tournament.slug])).content.decode()
    assert "Register<span" not in tournament_page and reason in tournament_page
    # A post anyway (a page left open) is refused with the same words.
    answer = client.post(section_url(open_section, "section-entry"), {"action": "register"}, follow=True)
    assert reason in answer.content.decode()
    assert entries_of(mei) == [("Under 12", "registered")]


def test_the_pages_tell_a_player_entered_elsewhere_why_she_may_not_enter_an_age_section(
        client, open_section, under_16, mei):
    cs.register(section=open_section, user=mei)
    client.force_login(mei)
    page = client.get(section_url(under_16)).content.decode()
    assert "<strong>You cannot enter:</strong> Born 1990" in page
    assert "withdraw there first" not in page and 'value="register"' not in page
    tournament_page = client.get(reverse("competitions:tournament", args=[
        under_16.tournament.club.slug, under_16.tournament.slug])).content.decode()
    assert "withdraw there first to enter Under 16" not in tournament_page
    answer = client.post(section_url(under_16, "section-entry"), {"action": "register"}, follow=True)
    assert "withdraw there first" not in answer.content.decode()
    assert "Born 1990" in answer.content.decode()


def test_the_organisers_suggestions_leave_out_members_entered_in_another_section(
        client, organiser, under_12, open_section, mei, make_player, club):
    MembershipFactory.create(club=club, user=make_player(username="noor"))
    cs.register(section=under_12, user=mei)
    client.force_login(organiser)
    page = client.get(section_url(open_section)).content.decode()
    assert '<option value="noor"' in page and '<option value="mei"' not in page
