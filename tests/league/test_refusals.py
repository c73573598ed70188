"""Every action's button shows exactly when its service would accept the click
(league/competitions/refusals.py): for each state a section or a tournament passes
through, the page is read as the player or organiser sees it, and the service is
called (in a savepoint, rolled back) to see whether it accepts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from league import competitions as cs
from league.competitions import event_services, refusals
from league.models import Section, Tournament
from tests.factories import make_section

from .support import run_decided, url

pytestmark = pytest.mark.django_db


class Rollback(Exception):
    """Undoes a service's call once it has been seen to succeed."""


def accepted(call: Callable[[], Any]) -> bool:
    try:
        with transaction.atomic():
            call()
            raise Rollback
    except Rollback:
        return True
    except ServiceError:
        return False


def shown(client: Any, page_url: str, marker: str) -> bool:
    return marker in client.get(page_url).content.decode()


PLAYER_BUTTONS: dict[str, tuple[Callable[..., Any], str]] = {
    "register": (cs.register, 'value="register"'),
    "check-in": (cs.check_in, 'value="check-in"'),
    "withdraw": (cs.withdraw, 'value="withdraw"'),
}


def assert_player_buttons_agree(client: Any, section: Section, user: Any) -> dict[str, bool]:
    """Each player button shown iff its service accepts; what was offered, by action."""
    client.force_login(user)
    section.refresh_from_db()
    offered = {}
    for action, (service, marker) in PLAYER_BUTTONS.items():
        is_shown = shown(client, url("section", section), marker)
        assert is_shown == accepted(functools.partial(service, section=section, user=user)), (action, section.status)
        offered[action] = is_shown
    return offered


def test_player_buttons_follow_the_section_through_its_states(client, club, organiser, make_player, eager_celery):
    people = [make_player(username=f"p{i}") for i in range(3)]
    newcomer = make_player(username="newcomer")
    section = make_section(club, organiser, format="swiss", players=people, rounds=1)

    # Registration open: a newcomer may register, an entrant may withdraw.
    assert assert_player_buttons_agree(client, section, newcomer) == {
        "register": True, "check-in": False, "withdraw": False}
    assert assert_player_buttons_agree(client, section, people[0]) == {
        "register": False, "check-in": False, "withdraw": True}

    # Closed by the organiser: nobody new enters; the page says so in words.
    event_services.close_registration(by=organiser, tournament=section.tournament)
    assert assert_player_buttons_agree(client, section, newcomer)["register"] is False
    client.force_login(newcomer)
    assert "Registration is closed." in client.get(url("section", section)).content.decode()
    t = section.tournament
    tournament_page = client.get(reverse("competitions:tournament", args=[t.club.slug, t.slug])).content.decode()
    assert "Registration closed" in tournament_page and "Open for registration" not in tournament_page

    # Started: no late entries in this Swiss; entrants may still withdraw.
    event_services.start_section(by=organiser, section=section)
    assert assert_player_buttons_agree(client, section, newcomer)["register"] is False
    assert "Registration is closed: this section is under way." in client.get(url("section", section)).content.decode()
    assert assert_player_buttons_agree(client, section, people[1])["withdraw"] is True

    # Over: nothing to do.
    run_decided(section)
    assert assert_player_buttons_agree(client, section, people[1]) == {
        "register": False, "check-in": False, "withdraw": False}


def test_check_in_shows_only_in_its_window_and_until_done(client, club, organiser, make_player):
    now = timezone.now()
    player = make_player(username="checker")
    section = make_section(club, organiser, format="round-robin", players=[player],
                           check_in_opens_at=now + timedelta(minutes=30))
    assert assert_player_buttons_agree(client, section, player)["check-in"] is False  # not open yet
    Section.objects.filter(pk=section.pk).update(check_in_opens_at=now - timedelta(minutes=1))
    assert assert_player_buttons_agree(client, section, player)["check-in"] is True
    cs.check_in(section=section, user=player)
    assert assert_player_buttons_agree(client, section, player)["check-in"] is False  # done


def test_a_full_section_and_an_ineligible_player_get_no_register_button(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", players=[make_player(), make_player()], capacity=2)
    assert assert_player_buttons_agree(client, section, make_player())["register"] is False
    assert "This section is full (2 players)." in client.get(url("section", section)).content.decode()

    under12 = make_section(club, organiser, format="swiss", age_under=12)
    teen = make_player(username="teen", born=date(timezone.now().year - 15, 1, 1))
    assert assert_player_buttons_agree(client, under12, teen)["register"] is False
    assert "You cannot enter:" in client.get(url("section", under12)).content.decode()


def test_a_late_entry_is_offered_while_the_swiss_takes_them(client, club, organiser, make_player, eager_celery):
    people = [make_player() for _ in range(4)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=3, late_entry_rounds=1)
    event_services.start_section(by=organiser, section=section)
    assert assert_player_buttons_agree(client, section, make_player(username="late"))["register"] is True


TOURNAMENT_BUTTONS: dict[str, Callable[..., Any]] = {
    "open": event_services.open_registration,
    "close": event_services.close_registration,
    "start": event_services.start_tournament,
}


def assert_organiser_buttons_agree(client: Any, tournament: Tournament, user: Any) -> dict[str, bool]:
    client.force_login(user)
    tournament.refresh_from_db()
    page_url = reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug])
    offered = {}
    for action, service in TOURNAMENT_BUTTONS.items():
        is_shown = shown(client, page_url, f'name="action" value="{action}"')
        assert is_shown == accepted(functools.partial(service, by=user, tournament=tournament)), (action, tournament.status)
        offered[action] = is_shown
    return offered


def test_organiser_buttons_follow_the_tournament_through_its_states(client, club, organiser, make_player,
                                                                    eager_celery):
    draft = event_services.create_tournament(by=organiser, club=club, name="Draft cup", draft=True,
                                             starts_at=timezone.now() + timedelta(hours=1))
    section = event_services.create_section(by=organiser, tournament=draft, name="Open", format="swiss",
                                            swiss_system="fast", variant="classic", rounds=1)
    # A draft: open it; it cannot start before it is published.
    assert assert_organiser_buttons_agree(client, draft, organiser) == {"open": True, "close": False, "start": False}
    event_services.open_registration(by=organiser, tournament=draft)
    # Open: "Open registration" is gone while it is open; no start with one player.
    cs.register(section=section, user=make_player())
    assert assert_organiser_buttons_agree(client, draft, organiser) == {"open": False, "close": True, "start": False}
    cs.register(section=section, user=make_player())
    assert assert_organiser_buttons_agree(client, draft, organiser) == {"open": False, "close": True, "start": True}
    event_services.close_registration(by=organiser, tournament=draft)
    assert assert_organiser_buttons_agree(client, draft, organiser) == {"open": True, "close": False, "start": True}
    event_services.start_tournament(by=organiser, tournament=draft)
    # Started: none of the three applies any more.
    assert assert_organiser_buttons_agree(client, draft, organiser) == {"open": False, "close": False, "start": False}


def test_a_refused_start_names_every_section_that_cannot_start(client, club, organiser, make_player):
    """The newcomer walkthrough's find: with two sections empty, the tournament page
    named only the first ("Arena needs at least two players to start.")."""
    cup = event_services.create_tournament(by=organiser, club=club, name="Two halls cup",
                                           starts_at=timezone.now() + timedelta(hours=1))
    sections = [event_services.create_section(by=organiser, tournament=cup, name=name, format="swiss",
                                              swiss_system="fast", variant="classic", rounds=1)
                for name in ("Arena", "Blitz", "Open")]
    for _ in range(2):
        cs.register(section=sections[2], user=make_player())
    refusal = refusals.start_tournament_refusal(cup, organiser)
    assert refusal == ("too-few-players", "Arena and Blitz each need at least two players to start.")
    client.force_login(organiser)
    page = client.get(reverse("competitions:tournament", args=[club.slug, cup.slug])).content.decode()
    assert "Arena and Blitz each need at least two players to start." in page
    cs.register(section=sections[0], user=make_player())
    cs.register(section=sections[0], user=make_player())
    cs.pause_section(section_id=sections[0].pk)
    assert refusals.start_tournament_refusal(cup, organiser) == (
        "too-few-players", "Blitz needs at least two players to start. Arena is paused: resume it first.")


def test_start_section_shows_with_two_players_and_goes_after_the_start(client, club, organiser, make_player,
                                                                       eager_celery):
    section = make_section(club, organiser, format="swiss", players=[make_player()], rounds=1)
    client.force_login(organiser)
    start_form = f'action="{url("section-start", section)}"'

    def agree() -> bool:
        section.refresh_from_db()
        is_shown = shown(client, url("section", section), start_form)
        assert is_shown == accepted(lambda: event_services.start_section(by=organiser, section=section))
        return is_shown

    assert agree() is False
    assert "needs at least two players to start" in client.get(url("section", section)).content.decode()
    cs.register(section=section, user=make_player())
    assert agree() is True
    cs.pause_section(section_id=section.pk)
    assert agree() is False  # paused: resume first
    cs.resume_section(section_id=section.pk)
    event_services.start_section(by=organiser, section=section)
    assert agree() is False


def test_pause_and_resume_links_follow_the_pause(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", players=[make_player(), make_player()])
    client.force_login(organiser)

    def offered() -> set[str]:
        page = client.get(url("section", section)).content.decode()
        return {label for label in ("Pause in the console", "Resume in the console") if label in page}

    assert offered() == {"Pause in the console"}
    cs.pause_section(section_id=section.pk)
    assert offered() == {"Resume in the console"}
    client.force_login(make_player())  # not an organiser: neither
    assert offered() == set()


def test_the_refusal_functions_name_the_reason(club, organiser, make_player):
    now = timezone.now()
    section = make_section(club, organiser, format="swiss", players=[make_player()])
    outsider = make_player()
    assert refusals.start_section_refusal(section, outsider) == refusals.Refusal(
        "not-organiser", "Only Chess club's owners and organisers run its events.")
    assert refusals.start_section_refusal(section, organiser).code == "too-few-players"
    assert refusals.registration_refusal(section, outsider, now) is None
    Section.objects.filter(pk=section.pk).update(registration_closes_at=now - timedelta(seconds=1))
    section.refresh_from_db()
    assert refusals.registration_refusal(section, outsider, now) == ("registration-closed", "Registration is closed.")
    with pytest.raises(ServiceError) as refused:
        cs.register(section=section, user=outsider, now=now)
    assert (refused.value.code, refused.value.message) == ("registration-closed", "Registration is closed.")


def test_publishing_keeps_each_sections_window_and_reopening_opens_now(client, club, organiser, make_player):
    """The organiser walkthrough's find: publishing a draft (and reopening after a close)
    cleared every section's registration window, so a section set to open tomorrow took
    entries at once."""
    now = timezone.now()
    draft = event_services.create_tournament(by=organiser, club=club, name="Windows cup", draft=True,
                                             starts_at=now + timedelta(days=3))
    later = event_services.create_section(by=organiser, tournament=draft, name="Later", format="swiss",
                                          swiss_system="fast", variant="classic", rounds=1,
                                          registration_opens_at=now + timedelta(days=1),
                                          registration_closes_at=now + timedelta(days=2))
    client.force_login(organiser)
    page = client.get(reverse("competitions:tournament", args=[club.slug, draft.slug])).content.decode()
    assert '<button name="action" value="open">Publish</button>' in page
    event_services.open_registration(by=organiser, tournament=draft)
    later.refresh_from_db()
    assert (later.registration_opens_at, later.registration_closes_at) == (
        now + timedelta(days=1), now + timedelta(days=2))
    with pytest.raises(ServiceError) as refused:
        cs.register(section=later, user=make_player())
    assert refused.value.code == "registration-closed" or "opens" in refused.value.message
    # Opening again now, by hand: at once, until the closing time still ahead.
    page = client.get(reverse("competitions:tournament", args=[club.slug, draft.slug])).content.decode()
    assert '<button name="action" value="open">Open registration now</button>' in page
    event_services.open_registration(by=organiser, tournament=draft)
    later.refresh_from_db()
    assert (later.registration_opens_at, later.registration_closes_at) == (None, now + timedelta(days=2))
    cs.register(section=later, user=make_player())


def test_a_section_that_would_start_in_the_past_or_open_after_round_1_is_refused(club, organiser):
    """Started at once with nobody entered, it was cancelled on the spot; a window opening
    after round 1 let nobody enter; an age of 150 or a name twice were taken."""
    now = timezone.now()
    cup = event_services.create_tournament(by=organiser, club=club, name="Past cup", starts_at=now + timedelta(days=1))
    attempts = [
        ({"starts_at": now - timedelta(hours=4)}, "which has passed"),
        ({"registration_opens_at": now + timedelta(days=2)}, "open after round 1 starts"),
        ({"round_starts": [(now + timedelta(hours=12)).isoformat()]}, "round 2 starts after round 1"),
        ({"min_age": 150}, "Ages run from 0 to 120"),
        ({"max_age": -1}, "Ages run from 0 to 120"),
    ]
    for settings, words in attempts:
        with pytest.raises(ServiceError) as refused:
            event_services.create_section(by=organiser, tournament=cup, name="Bad", format="swiss",
                                          swiss_system="fast", variant="classic", rounds=2, **settings)
        assert words in refused.value.message
    assert not cup.sections.exists()
    # Two sections of one name read as one on every page ("Your next game: Open, round 1" twice).
    event_services.create_section(by=organiser, tournament=cup, name="Open", format="swiss", swiss_system="fast",
                                  variant="classic", rounds=2)
    with pytest.raises(ServiceError, match="already has a section called 'open'"):
        event_services.create_section(by=organiser, tournament=cup, name="open", format="swiss",
                                      swiss_system="fast", variant="classic", rounds=2)
