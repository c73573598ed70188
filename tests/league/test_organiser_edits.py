"""Organisers correct what they made (docs/competitions.md, "Corrections"): a tournament's
details and a section's settings until they start, deleting what has not started and
holds nobody, and entering or withdrawing a club member themselves, through the same
rules a player's own entry meets. Services, pages and the API; every refusal changes
nothing and says why."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from accounts.errors import ServiceError
from league import competitions as cs
from league.competitions import event_services, refusals
from league.models import ClubMembership, Entry, Rating, Round, Section, Tournament
from moderation.models import AuditEntry
from tests.factories import MembershipFactory, SectionFactory, TournamentFactory
from tests.support import api_as as api
from tests.support import form_fields, years_ago

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return TournamentFactory.create(by=organiser, club=club, name="Winter open",
                                    starts_at=timezone.now() + timedelta(days=2))


@pytest.fixture
def section(organiser, tournament):
    """Round 1 at the tournament's start (none given)."""
    return SectionFactory.create(by=organiser, tournament=tournament, name="Open", format="round-robin")


@pytest.fixture
def member(make_player, club):
    return MembershipFactory.create(club=club, user=make_player(username="maya")).user


@pytest.fixture
def stranger(make_player):
    return make_player(username="sam")


def refused(call, code: str) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    return caught.value


def round_one(section: Section) -> Round:
    return Round.objects.select_related("start_task__clocked").get(section=section, number=1)


def started(organiser, section: Section, *players) -> Section:
    for player in players:
        cs.register(section=section, user=player)
    event_services.start_section(by=organiser, section=section)
    section.refresh_from_db()
    return section


# -- editing a tournament ----------------------------------------------------------------------


def test_organiser_edits_a_tournament_and_its_sections_at_its_start_move_with_it(organiser, tournament, section):
    own_time = SectionFactory.create(by=organiser, tournament=tournament, name="Rapid", format="swiss",
                                     starts_at=tournament.starts_at + timedelta(hours=3))
    later = tournament.starts_at + timedelta(days=1)
    event_services.edit_tournament(by=organiser, tournament=tournament, name="  Winter classic ",
                                   description="Bring a pen.", rating_period="tournament", starts_at=later)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.description, tournament.rating_period) == (
        "Winter classic", "Bring a pen.", "tournament")
    assert tournament.slug == "winter-open"  # the address stays
    section.refresh_from_db()
    assert section.starts_at == later and round_one(section).starts_at == later
    assert round_one(section).start_task.clocked.clocked_time == later  # beat starts it at the new time
    own_time.refresh_from_db()
    assert own_time.starts_at == tournament.starts_at - timedelta(days=1) + timedelta(hours=3)
    logged = AuditEntry.objects.get(action="tournament.edit")
    assert logged.actor == organiser and logged.details["changed"]["name"] == ["Winter open", "Winter classic"]
    assert AuditEntry.objects.filter(action="section.edit").count() == 0  # the tournament's entry says it


def test_a_tournament_edit_is_refused_as_creation_is_and_changes_nothing(organiser, stranger, tournament, section):
    before = (tournament.name, tournament.starts_at)
    assert "owners and organisers" in refused(
        lambda: event_services.edit_tournament(by=stranger, tournament=tournament, name="Mine"), "not-organiser").message
    refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament, name="  "), "bad-name")
    refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament, rating_period="weekly"),
            "bad-rating-period")
    refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament, slug="x"), "bad-setting")
    # A start that has passed, as at creation (its section's round 1 would move there too).
    past = refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament,
                                                          starts_at=timezone.now() - timedelta(hours=1)),
                   "bad-start")
    assert past.message.startswith("The tournament would start at ") and "which has passed" in past.message
    refused(lambda: event_services.create_tournament(by=organiser, club=tournament.club, name="Last year",
                                                     starts_at=timezone.now() - timedelta(days=365)), "bad-start")
    assert not Tournament.objects.filter(name="Last year").exists()
    tournament.refresh_from_db()
    section.refresh_from_db()
    assert (tournament.name, tournament.starts_at) == before and section.starts_at == before[1]
    assert not AuditEntry.objects.filter(action="tournament.edit").exists()


def test_a_tournament_is_fixed_once_a_section_has_started(organiser, tournament, section, make_player):
    started(organiser, section, make_player(), make_player())
    message = refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament, name="Late"),
                      "tournament-started").message
    assert message == "Winter open has started: its details are fixed."


def test_a_started_tournament_names_the_sections_still_taking_entries(organiser, tournament, section, make_player):
    """It said "its registration cannot reopen" above an under-12s card still showing
    "Registration" (outside organiser)."""
    later = SectionFactory.create(by=organiser, tournament=tournament, name="Under 12", format="round-robin",
                                  starts_at=tournament.starts_at + timedelta(days=3))
    started(organiser, section, make_player(), make_player())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    refusal = refusals.open_registration_refusal(tournament, organiser, timezone.now())
    assert refusal.reason == ("This tournament has started: Under 12 still takes entries until its round 1; "
                               "the others' registration cannot reopen.")
    Section.objects.filter(pk=later.pk).update(registration_closes_at=timezone.now() - timedelta(minutes=1))
    refusal = refusals.open_registration_refusal(tournament, organiser, timezone.now())
    assert refusal.reason == "This tournament has started: its registration cannot reopen."


# -- editing a section ---------------------------------------------------------------------------


def test_organiser_edits_a_section_before_round_1(organiser, tournament, section):
    later = tournament.starts_at + timedelta(hours=5)
    event_services.edit_section(by=organiser, section=section, name="Juniors", capacity=12, age_under=12,
                                starts_at=later, registration_closes_at=later - timedelta(hours=1))
    section.refresh_from_db()
    assert (section.name, section.capacity, section.age_under, section.slug) == ("Juniors", 12, 12, "open")
    assert round_one(section).starts_at == later == round_one(section).start_task.clocked.clocked_time
    changed = AuditEntry.objects.get(action="section.edit").details["changed"]
    assert changed["capacity"] == [None, 12] and changed["name"] == ["Open", "Juniors"]


def test_another_format_takes_its_own_settings_and_drops_the_old_ones(organiser, tournament):
    swiss = SectionFactory.create(by=organiser, tournament=tournament, name="Swiss", format="swiss",
                                  swiss_system="dutch", acceleration="baku")
    event_services.edit_section(by=organiser, section=swiss, format="round-robin")
    swiss.refresh_from_db()
    assert (swiss.format, swiss.swiss_system, swiss.acceleration) == ("round-robin", None, "none")
    event_services.edit_section(by=organiser, section=swiss, format="arena", arena_duration=timedelta(minutes=30))
    ends = PeriodicTask.objects.select_related("clocked").get(name=f"league: end arena {swiss.pk}")
    assert ends.clocked.clocked_time == swiss.starts_at + timedelta(minutes=30)
    event_services.edit_section(by=organiser, section=swiss, arena_duration=timedelta(minutes=45))
    ends = PeriodicTask.objects.select_related("clocked").get(name=f"league: end arena {swiss.pk}")
    assert ends.clocked.clocked_time == swiss.starts_at + timedelta(minutes=45)  # moved, not doubled


@pytest.mark.parametrize(("changes", "code"), [
    ({"name": "Rapid"}, "bad-name"),  # the other section's name, in any case
    ({"name": " "}, "bad-name"),
    ({"min_age": 121}, "bad-age-group"),
    ({"min_age": 12, "max_age": 10}, "bad-age-group"),
    ({"rating_min": 1800, "rating_max": 1200}, "bad-rating-band"),
    ({"capacity": 1}, "bad-capacity"),
    ({"format": "chess"}, "bad-format"),
    ({"cycles": 3}, "bad-cycles"),
    ({"starts_at": "past"}, "bad-schedule"),
    ({"registration_opens_at": "after round 1"}, "bad-window"),
    ({"tiebreaks": ["luck"]}, "bad-tiebreak"),
    ({"tournament": None}, "bad-setting"),
])
def test_a_section_edit_runs_the_checks_of_creation_and_changes_nothing(organiser, tournament, section, changes, code):
    SectionFactory.create(by=organiser, tournament=tournament, name="RAPID", format="swiss")
    if changes.get("starts_at") == "past":
        changes["starts_at"] = timezone.now() - timedelta(minutes=1)
    if changes.get("registration_opens_at") == "after round 1":
        changes["registration_opens_at"] = section.starts_at + timedelta(minutes=1)
    refused(lambda: event_services.edit_section(by=organiser, section=section, **changes), code)
    fresh = Section.objects.get(pk=section.pk)
    assert (fresh.name, fresh.capacity, fresh.min_age, fresh.format, fresh.starts_at) == (
        "Open", None, None, "round-robin", section.starts_at)
    assert not AuditEntry.objects.filter(action="section.edit").exists()


def test_a_limit_that_would_exclude_entrants_is_refused_saying_how_many(organiser, section, make_player):
    adults = [make_player(username=f"adult{i}") for i in range(3)]
    child = make_player(username="kid", born=years_ago(9))
    for player in [*adults, child]:
        cs.register(section=section, user=player)
    error = refused(lambda: event_services.edit_section(by=organiser, section=section, age_under=12),
                    "would-exclude-entrants")
    assert error.message.startswith("This change would exclude 3 entered players (adult0, adult1, adult2): Born ")
    assert "Withdraw them first" in error.message
    one = refused(lambda: event_services.edit_section(by=organiser, section=section, min_age=10),
                  "would-exclude-entrants")
    assert "would exclude 1 entered player (kid)" in one.message
    unrated = refused(lambda: event_services.edit_section(by=organiser, section=section, rating_min=1000),
                      "would-exclude-entrants")
    assert "4 entered players" in unrated.message and "Unrated" in unrated.message
    room = refused(lambda: event_services.edit_section(by=organiser, section=section, capacity=3),
                   "would-exclude-entrants")
    assert room.message.startswith("4 players are entered: room for 3 would leave 1 out.")
    members = refused(lambda: event_services.edit_section(by=organiser, section=section, members_only=True),
                      "would-exclude-entrants")
    assert "4 entered players" in members.message
    fresh = Section.objects.get(pk=section.pk)
    assert (fresh.age_under, fresh.min_age, fresh.rating_min, fresh.capacity, fresh.members_only) == (
        None, None, None, None, False)
    assert selectors_active(section) == 4
    # A limit every entrant meets is fine; a withdrawn player does not count.
    cs.withdraw(section=section, user=child, reason="")
    event_services.edit_section(by=organiser, section=section, min_age=18, capacity=3)
    assert Section.objects.get(pk=section.pk).min_age == 18


def selectors_active(section: Section) -> int:
    return Entry.objects.filter(section=section).exclude(status=Entry.Status.WITHDRAWN).count()


def test_a_section_is_fixed_from_round_1_and_only_organisers_edit_it(organiser, stranger, section, make_player):
    refused(lambda: event_services.edit_section(by=stranger, section=section, name="Mine"), "not-organiser")
    started(organiser, section, make_player(), make_player())
    error = refused(lambda: event_services.edit_section(by=organiser, section=section, name="Late"),
                    "section-started")
    assert error.message == "Open has started: its settings are fixed."


# -- deleting ----------------------------------------------------------------------------------------


def test_organiser_deletes_a_section_not_started_and_its_scheduled_round(organiser, tournament, section):
    task_name = round_one(section).start_task.name
    event_services.delete_section(by=organiser, section=section)
    assert not Section.objects.filter(pk=section.pk).exists()
    assert not PeriodicTask.objects.filter(name=task_name).exists()  # beat will not start a ghost
    logged = AuditEntry.objects.get(action="section.delete")
    assert logged.details["name"] == "Open" and logged.target_id == str(section.pk)


def test_deleting_a_section_is_refused_with_entrants_a_next_stage_or_once_started(
        organiser, stranger, tournament, section, member, make_player):
    refused(lambda: event_services.delete_section(by=stranger, section=section), "not-organiser")
    cs.register(section=section, user=member)
    error = refused(lambda: event_services.delete_section(by=organiser, section=section), "has-entries")
    assert error.message.startswith("1 player is entered: withdraw them first")
    cs.withdraw(section=section, user=member)
    final = SectionFactory.create(by=organiser, tournament=tournament, name="Final", format="single-elimination",
                                  previous_stage=section, advance=2, starts_at=section.starts_at + timedelta(days=1))
    assert "Final follows Open" in refused(lambda: event_services.delete_section(by=organiser, section=section),
                                           "has-next-stage").message
    event_services.delete_section(by=organiser, section=final)
    other = SectionFactory.create(by=organiser, tournament=tournament, name="Blitz", format="round-robin")
    started(organiser, other, make_player(), make_player())
    refused(lambda: event_services.delete_section(by=organiser, section=other), "section-started")
    assert Section.objects.filter(pk__in=[section.pk, other.pk]).count() == 2


def test_organiser_deletes_a_tournament_with_its_sections_and_stages(organiser, club, section, tournament):
    SectionFactory.create(by=organiser, tournament=tournament, name="Final", format="single-elimination",
                          previous_stage=section, advance=2, starts_at=section.starts_at + timedelta(days=1))
    tasks = PeriodicTask.objects.filter(name__startswith="league: start section").count()
    assert tasks == 2
    event_services.delete_tournament(by=organiser, tournament=tournament)
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Section.objects.filter(tournament_id=tournament.pk).exists()
    assert not PeriodicTask.objects.filter(name__startswith="league: start section").exists()
    assert AuditEntry.objects.get(action="tournament.delete").details["sections"] == ["Final", "Open"]


def test_deleting_a_tournament_is_refused_with_entrants_or_once_started(organiser, stranger, tournament, section,
                                                                        member, make_player):
    refused(lambda: event_services.delete_tournament(by=stranger, tournament=tournament), "not-organiser")
    cs.register(section=section, user=member)
    assert "withdraw them first" in refused(
        lambda: event_services.delete_tournament(by=organiser, tournament=tournament), "has-entries").message
    started(organiser, section, make_player())
    refused(lambda: event_services.delete_tournament(by=organiser, tournament=tournament), "tournament-started")
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_draft_is_deleted(organiser, club):
    draft = TournamentFactory.create(by=organiser, club=club, name="Draft", draft=True)
    SectionFactory.create(by=organiser, tournament=draft, format="swiss")
    event_services.delete_tournament(by=organiser, tournament=draft)
    assert not Tournament.objects.filter(pk=draft.pk).exists()


# -- entering and withdrawing players ----------------------------------------------------------------


def test_organiser_enters_a_member_even_after_registration_closed(organiser, tournament, section, member):
    event_services.close_registration(by=organiser, tournament=tournament)
    entry = event_services.enter_player(by=organiser, section=section, user=member)
    assert entry.status == Entry.Status.REGISTERED and entry.user == member
    logged = AuditEntry.objects.get(action="entry.enter")
    assert logged.actor == organiser and logged.details["player"] == "maya"
    assert refused(lambda: event_services.enter_player(by=organiser, section=section, user=member),
                   "already-entered").message == "maya is already entered in this section."


def test_an_organisers_entry_meets_every_rule_of_a_players_own(organiser, stranger, club, tournament, make_player):
    youth = SectionFactory.create(by=organiser, tournament=tournament, name="U12", format="round-robin",
                                  age_under=12, capacity=2)
    adult = MembershipFactory.create(club=club, user=make_player(username="adam")).user
    kids = [MembershipFactory.create(club=club, user=make_player(username=f"kid{i}", born=years_ago(8))).user
            for i in range(3)]
    error = refused(lambda: event_services.enter_player(by=organiser, section=youth, user=adult), "not-eligible")
    assert error.message.startswith("adam cannot enter: Born ")
    refused(lambda: event_services.enter_player(by=organiser, section=youth, user=stranger), "not-member")
    refused(lambda: event_services.enter_player(by=stranger, section=youth, user=kids[0]), "not-organiser")
    event_services.enter_player(by=organiser, section=youth, user=kids[0])
    event_services.enter_player(by=organiser, section=youth, user=kids[1])
    refused(lambda: event_services.enter_player(by=organiser, section=youth, user=kids[2]), "section-full")
    assert Entry.objects.filter(section=youth).count() == 2
    assert AuditEntry.objects.filter(action="entry.enter").count() == 2


def test_an_organiser_entering_a_member_without_a_date_of_birth_is_told_of_them(organiser, club, section):
    """Not "admin cannot enter: Add your date of birth to your profile": the organiser's
    profile was not the one missing it (walkthrough)."""
    from tests.factories import SuperuserFactory

    root = MembershipFactory.create(club=club, user=SuperuserFactory.create()).user
    error = refused(lambda: event_services.enter_player(by=organiser, section=section, user=root), "not-eligible")
    assert error.message == ("root cannot enter: Their profile has no date of birth yet: "
                             "they add it before they can play.")
    assert not Entry.objects.filter(section=section).exists()


def test_no_entries_in_a_draft_or_a_later_stage_and_checked_in_while_check_in_is_open(organiser, club, member):
    draft = TournamentFactory.create(by=organiser, club=club, name="Draft", draft=True)
    hidden = SectionFactory.create(by=organiser, tournament=draft, format="round-robin")
    refused(lambda: event_services.enter_player(by=organiser, section=hidden, user=member), "registration-not-open")
    soon = TournamentFactory.create(by=organiser, club=club, name="Tonight")
    desk = SectionFactory.create(by=organiser, tournament=soon, format="round-robin",
                                 check_in_opens_at=timezone.now() - timedelta(minutes=5))
    assert event_services.enter_player(by=organiser, section=desk, user=member).status == Entry.Status.CHECKED_IN
    final = SectionFactory.create(by=organiser, tournament=soon, name="Final", format="single-elimination",
                                  previous_stage=desk, advance=2, starts_at=desk.starts_at + timedelta(hours=2))
    refused(lambda: event_services.enter_player(by=organiser, section=final, user=member), "later-stage")


def test_organiser_withdraws_an_entrant(organiser, stranger, section, member):
    cs.register(section=section, user=member)
    refused(lambda: event_services.withdraw_player(by=stranger, section=section, user=member), "not-organiser")
    entry = event_services.withdraw_player(by=organiser, section=section, user=member)
    assert entry.status == Entry.Status.WITHDRAWN and entry.withdrawn_reason == "Withdrawn by the organiser."
    assert AuditEntry.objects.get(action="entry.withdraw").details["player"] == "maya"
    assert refused(lambda: event_services.withdraw_player(by=organiser, section=section, user=member),
                   "not-entered").message == f"{member.name} is not entered in this section."  # as the site names her


# -- pages --------------------------------------------------------------------------------------------


def url(name: str, *objects) -> str:
    section = next((o for o in objects if isinstance(o, Section)), None)
    tournament = section.tournament if section else next(o for o in objects if isinstance(o, Tournament))
    args = [tournament.club.slug, tournament.slug] + ([section.slug] if section else [])
    return reverse(f"competitions:{name}", args=args)


def confirm_of(html: str, label: str) -> str | None:
    found = re.search(rf"<button(?P<attrs>[^>]*)>{label}</button>", html)
    assert found, label
    question = re.search(r'data-confirm="([^"]*)"', found.group("attrs"))
    return question.group(1) if question else None


def test_organiser_sees_edit_and_delete_and_a_player_does_not(client, organiser, member, tournament, section):
    client.force_login(organiser)
    page = client.get(url("tournament", tournament)).content.decode()
    assert f'href="{url("tournament-edit", tournament)}"' in page and f'href="{url("section-edit", section)}"' in page
    assert confirm_of(page, "Delete tournament") == "Delete Winter open and its 1 section? This cannot be undone."
    page = client.get(url("section", section)).content.decode()
    assert f'href="{url("section-edit", section)}"' in page
    assert confirm_of(page, "Delete section").startswith("Delete Open? ")
    assert 'name="username"' in page and "Enter the player" in page
    client.force_login(member)
    for path in (url("tournament", tournament), url("section", section)):
        page = client.get(path).content.decode()
        assert "Edit" not in page and "Delete" not in page and "Enter the player" not in page
    assert client.get(url("tournament-edit", tournament)).status_code == 403
    assert client.get(url("section-edit", section)).status_code == 403
    for name in ("tournament-delete", "tournament-edit"):
        assert client.post(url(name, tournament), {"name": "Mine"}).status_code == 403
    for name in ("section-delete", "section-edit", "section-players"):
        assert client.post(url(name, section), {"name": "Mine", "action": "enter", "username": "maya"}
                           ).status_code == 403
    assert Section.objects.filter(pk=section.pk, name="Open").exists() and not Entry.objects.exists()
    client.logout()
    assert client.post(url("section-delete", section)).status_code == 302  # to the log-in page
    assert Section.objects.filter(pk=section.pk).exists()


def test_the_edit_pages_are_the_creation_forms_filled_in(client, organiser, tournament):
    section = SectionFactory.create(by=organiser, tournament=tournament, name="Swiss", format="swiss", capacity=30,
                                    round_interval=timedelta(minutes=45), tiebreaks=["buchholz", "sonneborn-berger"],
                                    bye_points="0.5", min_age=10)
    client.force_login(organiser)
    page = client.get(url("tournament-edit", tournament)).content.decode()
    assert 'value="Winter open"' in page and 'name="draft"' not in page and "Save changes" in page
    answer = client.get(url("section-edit", section))
    page = answer.content.decode()
    assert 'name="name" value="Swiss"' in page and 'name="capacity" value="30"' in page
    assert 'name="round_interval" value="45"' in page and 'name="min_age" value="10"' in page
    assert re.search(r'<select name="bye_points"[^>]*>.*?<option value="0.5"[^>]* selected>', page, re.S)
    form = answer.context["form"]
    assert [n.strip() for n in form.initial["tiebreaks"].split(",")] == ["buchholz", "sonneborn-berger"]
    assert form.initial["format"] == "swiss" and form.initial["swiss_system"] == "fast"


def test_the_section_form_saves_and_shows_a_refusal_beside_it(client, organiser, tournament, section, make_player):
    client.force_login(organiser)
    data = {key: value for key, value in _form_data(client, url("section-edit", section)).items()}
    data.update(name="Evening", capacity="16", rating_max="2500")
    answer = client.post(url("section-edit", section), data, follow=True)
    assert answer.redirect_chain == [(url("section", section), 302)]
    assert "Section Evening is saved." in answer.content.decode()
    section.refresh_from_db()
    assert (section.name, section.capacity) == ("Evening", 16)
    assert section.starts_at.second or section.starts_at.microsecond  # shown to the minute, kept to the second
    assert not AuditEntry.objects.get(action="section.edit").details["changed"].keys() - {"name", "capacity",
                                                                                         "rating_max"}
    cs.register(section=section, user=make_player(username="grown"))
    data = form_fields(client.get(url("section-edit", section)).content.decode())
    assert data["rating_max"] == "2500"
    data.update(age_under="10", rating_max="")  # a limit cleared is not pointed at: it leaves nobody out
    answer = client.post(url("section-edit", section), data)
    page = answer.content.decode()
    assert "This change would exclude 1 entered player (grown)" in page and 'role="alert"' in page
    assert Section.objects.get(pk=section.pk).age_under is None
    # The limit changed is pointed at, in its group, unfolded; the other groups stay folded.
    form = answer.context["form"]
    assert list(form.errors) == ["__all__", "age_under"]
    assert [group.legend for group in form.common_groups() if group.has_errors] == ["Who may enter"]
    assert re.search(r'<details class="form-group" open>\s*<summary>Who may enter', page)
    assert not re.search(r'<details class="form-group" open>\s*<summary>Schedule', page)


def _form_data(client, path: str) -> dict[str, str]:
    return form_fields(client.get(path).content.decode())


def test_the_tournament_form_saves(client, organiser, tournament):
    client.force_login(organiser)
    data = _form_data(client, url("tournament-edit", tournament))
    data.update(name="Winter classic", description="Two days.")
    answer = client.post(url("tournament-edit", tournament), data, follow=True)
    assert answer.redirect_chain == [(url("tournament", tournament), 302)]
    assert "Winter classic is saved." in answer.content.decode()
    tournament.refresh_from_db()
    assert (tournament.name, tournament.description) == ("Winter classic", "Two days.")


def test_organiser_deletes_from_the_pages(client, organiser, club, tournament, section, member):
    client.force_login(organiser)
    cs.register(section=section, user=member)
    page = client.get(url("section", section)).content.decode()
    assert "Delete section" not in page and "To delete it: 1 player is entered: withdraw them first" in page
    answer = client.post(url("section-delete", section), follow=True)
    assert "withdraw them first" in answer.content.decode() and Section.objects.filter(pk=section.pk).exists()
    client.post(url("section-players", section), {"action": "withdraw", "username": "maya"})
    answer = client.post(url("section-delete", section))
    assert answer.url == url("tournament", tournament) and not Section.objects.filter(pk=section.pk).exists()
    answer = client.post(url("tournament-delete", tournament))
    assert answer.url == reverse("competitions:club", args=[club.slug])
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_organiser_enters_and_withdraws_a_player_on_the_section_page(client, organiser, section, member, stranger):
    client.force_login(organiser)
    page = client.get(url("section", section)).content.decode()
    assert '<option value="maya" label="maya">' in page  # members not entered are suggested
    answer = client.post(url("section-players", section), {"action": "enter", "username": "Maya"}, follow=True)
    assert "maya is entered." in answer.content.decode()
    assert Entry.objects.get(section=section, user=member).status == Entry.Status.REGISTERED
    page = client.get(url("section", section)).content.decode()
    assert confirm_of(page, 'Withdraw<span class="visually-hidden"> maya</span>').startswith(
        "Withdraw maya from Open: they may be entered again")
    for name in ("sam", "nobody-at-all"):  # a stranger and an unknown name: the same words
        answer = client.post(url("section-players", section), {"action": "enter", "username": name}, follow=True)
        assert f"{name} is not a member of Chess club" in answer.content.decode()
    client.post(url("section-players", section), {"action": "withdraw", "username": "maya"})
    assert Entry.objects.get(section=section, user=member).status == Entry.Status.WITHDRAWN


def test_once_started_the_pages_offer_no_edit_or_delete(client, organiser, tournament, section, make_player):
    started(organiser, section, make_player(), make_player())
    client.force_login(organiser)
    page = client.get(url("tournament", tournament)).content.decode()
    assert "Edit" not in page and "Delete tournament" not in page
    page = client.get(url("section", section)).content.decode()
    assert "Edit section" not in page and "Delete section" not in page
    page = client.get(url("section-edit", section)).content.decode()
    assert "Open has started: its settings are fixed." in page and "Save changes" not in page
    client.post(url("section-edit", section), {"name": "Late"})
    assert Section.objects.get(pk=section.pk).name == "Open"


def test_the_edit_page_says_until_when_in_the_section_s_own_words(client, organiser, tournament, section):
    """An arena has no round 1 to its organiser, and a section started or over says only
    that its settings are fixed (it read "Until round 1 starts." above "... is over")."""
    arena = SectionFactory.create(by=organiser, tournament=tournament, name="Blitz arena", format="arena",
                                  arena_duration=timedelta(minutes=30))
    client.force_login(organiser)
    page = client.get(url("section-edit", section)).content.decode()
    assert "Its settings can change until round 1 starts." in page
    page = client.get(url("section-edit", arena)).content.decode()
    assert "Its settings can change until the arena starts." in page and "until round 1" not in page.lower()
    assert "Empty: at round 1." not in page and "Empty: when play starts (round 1, or an arena&#x27;s start)." in page
    Section.objects.filter(pk=arena.pk).update(status=Section.Status.FINISHED, started_at=timezone.now())
    page = client.get(url("section-edit", arena)).content.decode()
    assert "Blitz arena is over: its settings are fixed." in page
    assert "until round 1" not in page.lower() and "can change until" not in page


# -- the API ------------------------------------------------------------------------------------------


def test_api_patch_and_delete_a_tournament(organiser, stranger, club, tournament, section, member):
    path = f"/api/v1/tournaments/{tournament.pk}/"
    answer = api(organiser).patch(path, {"name": "Winter classic"}, format="json")
    assert answer.status_code == 200 and answer.json()["name"] == "Winter classic"
    assert api(organiser).patch(path, {"rating_period": "weekly"}, format="json").json()["code"] == "bad-rating-period"
    mine = api(stranger).patch(path, {"name": "Mine"}, format="json")
    assert mine.status_code == 403 and mine.json()["code"] == "not-organiser"
    assert api().patch(path, {"name": "Mine"}, format="json").status_code == 401
    assert api(stranger).delete(path).status_code == 403
    cs.register(section=section, user=member)
    busy = api(organiser).delete(path)
    assert busy.status_code == 409 and busy.json()["code"] == "has-entries"
    cs.withdraw(section=section, user=member)
    assert api(organiser).delete(path).status_code == 204
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    draft = TournamentFactory.create(by=organiser, club=club, name="Secret", draft=True)
    assert api(stranger).patch(f"/api/v1/tournaments/{draft.pk}/", {"name": "x"}, format="json").status_code == 404
    assert api(stranger).delete(f"/api/v1/tournaments/{draft.pk}/").status_code == 404


def test_api_patch_and_delete_a_section(organiser, stranger, section, make_player):
    path = f"/api/v1/sections/{section.pk}/"
    answer = api(organiser).patch(path, {"name": "Evening", "capacity": 8, "variant": "tactic-toe"}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["name"], answer.json()["capacity"], answer.json()["variant"]) == ("Evening", 8, "tactic-toe")
    bad = api(organiser).patch(path, {"registration_opens_at": (section.starts_at + timedelta(hours=1)).isoformat()},
                               format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad-window"
    cs.register(section=section, user=make_player(username="grown"))
    out = api(organiser).patch(path, {"age_under": 10}, format="json")
    assert out.status_code == 409 and out.json()["code"] == "would-exclude-entrants"
    assert api(stranger).patch(path, {"name": "Mine"}, format="json").status_code == 403
    assert api(stranger).delete(path).status_code == 403
    assert api(organiser).delete(path).json()["code"] == "has-entries"
    assert Section.objects.get(pk=section.pk).name == "Evening"


def test_api_started_section_is_409_and_deleted_one_204(organiser, tournament, section, make_player):
    other = SectionFactory.create(by=organiser, tournament=tournament, name="Blitz", format="round-robin")
    assert api(organiser).delete(f"/api/v1/sections/{other.pk}/").status_code == 204
    started(organiser, section, make_player(), make_player())
    late = api(organiser).patch(f"/api/v1/sections/{section.pk}/", {"name": "Late"}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "section-started"


def test_api_organiser_enters_and_withdraws_a_member(organiser, section, member, stranger):
    path = f"/api/v1/sections/{section.pk}/"
    entered = api(organiser).post(path + "entries/", {"username": "maya"}, format="json")
    assert entered.status_code == 201 and entered.json()["username"] == "maya"
    assert api(organiser).post(path + "entries/", {"username": "sam"}, format="json").json()["code"] == "not-member"
    assert api(stranger).post(path + "entries/", {"username": "maya"}, format="json").status_code == 403
    assert api(stranger).post(path + "withdraw/", {"username": "maya"}, format="json").status_code == 403
    mine = api(stranger).post(path + "entries/", {"username": "sam"}, format="json")  # oneself: the usual way
    assert mine.status_code == 201
    left = api(organiser).post(path + "withdraw/", {"username": "maya", "reason": "Ill."}, format="json")
    assert left.status_code == 200 and left.json()["status"] == "withdrawn" and left.json()["withdrawn_reason"] == "Ill."
    assert ClubMembership.objects.filter(user=member).exists()


def test_another_variant_re_freezes_the_entrants_ratings_in_it(organiser, section, member):
    Rating.objects.create(user=member, variant="tactic-toe", rating=1712.0)
    cs.register(section=section, user=member)
    event_services.edit_section(by=organiser, section=section, variant="tactic-toe")
    assert Entry.objects.get(section=section, user=member).rating == 1712.0


def test_a_deleted_tournaments_observer_bans_stay_in_the_audit_log(organiser, club, tournament, section, stranger):
    from moderation import services as moderation
    from moderation.models import ObserverBan

    ban = moderation.ban_user(actor=organiser, user=stranger, tournament=tournament, reason="Heckled at the last one")
    moderation.lift_ban(actor=organiser, ban=ban)
    moderation.ban_user(actor=organiser, user=stranger, tournament=tournament, reason="Again")
    event_services.delete_tournament(by=organiser, tournament=tournament)
    assert not ObserverBan.objects.filter(user=stranger).exists()
    ended = AuditEntry.objects.filter(action="observer.ban-ended").order_by("details__ban_reason")
    assert [(e.details["ban_reason"], e.details["lifted_at"] is None, e.club_id) for e in ended] == [
        ("Again", True, club.pk), ("Heckled at the last one", False, club.pk)]
    assert {e.details["user"] for e in ended} == {stranger.get_username()}


@pytest.mark.parametrize("name", ["Winter \u202enepo", "Open\u200b", "\u3164\u3164", "Rapid\u0007"])
def test_an_event_name_with_characters_nobody_sees_is_refused_and_changes_nothing(organiser, club, tournament,
                                                                                  section, name):
    """A right-to-left override in a tournament's name turned the rest of its line around
    on every page that listed it; a zero-width space or a Hangul filler made a name that
    reads as another, or as nothing (an outside probe)."""
    count = Tournament.objects.count(), Section.objects.count()
    refused(lambda: event_services.create_tournament(by=organiser, club=club, name=name,
                                                     starts_at=timezone.now() + timedelta(days=3)), "bad-name")
    refused(lambda: event_services.edit_tournament(by=organiser, tournament=tournament, name=name), "bad-name")
    refused(lambda: event_services.create_section(by=organiser, tournament=tournament, name=name,
                                                  format="round-robin", variant="classic"), "bad-name")
    refused(lambda: event_services.edit_section(by=organiser, section=section, name=name), "bad-name")
    tournament.refresh_from_db()
    section.refresh_from_db()
    assert (tournament.name, section.name) == ("Winter open", "Open")
    assert (Tournament.objects.count(), Section.objects.count()) == count
