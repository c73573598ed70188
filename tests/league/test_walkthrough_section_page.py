"""A section page, from an outside walkthrough: a player's own board in the rounds table
and the bracket says "play" (anyone else's "watch"), and the organiser's "Enter a player"
answers beside its form, where the page opens after it, not at the top of the page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from league.competitions import event_services
from league.models import Entry
from tests.factories import MembershipFactory, SectionFactory, TournamentFactory, make_section

from .support import text_of, url

pytestmark = pytest.mark.django_db


def game_links(html: str) -> dict[int, str]:
    """game id -> the words of its link, in the rounds table and the bracket."""
    return {int(game): words for game, words in re.findall(r'<a (?:class="watch" )?href="/play/(\d+)/">(\w+)</a>', html)}


@pytest.mark.parametrize("format", ["swiss", "single-elimination"])
def test_a_players_own_board_says_play_and_the_others_watch(client, club, organiser, make_player, format):
    people = [make_player(username=f"pw{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format=format, players=people, **({"rounds": 2} if format == "swiss" else {}))
    event_services.start_section(by=organiser, section=section)
    section.refresh_from_db()
    mine, other = section.pairings.get(board=1), section.pairings.get(board=2)
    assert mine.game_id and other.game_id

    client.force_login(mine.second)
    page = client.get(url("section", section)).content.decode()
    rounds = page.split('id="rounds-heading"')[1]
    assert game_links(rounds) == {mine.game_id: "play", other.game_id: "watch"}
    if format == "single-elimination":
        bracket = page.split('id="bracket-heading"')[1].split("</section>")[0]
        assert game_links(bracket) == {mine.game_id: "play", other.game_id: "watch"}
    # The live refresh says the same to the same player.
    part = client.get(url("section", section), headers={"HX-Request": "true"}).content.decode()
    assert game_links(part.split('id="rounds-heading"')[1]) == {mine.game_id: "play", other.game_id: "watch"}
    # The organiser, who plays in neither, and someone signed out watch both.
    client.force_login(organiser)
    assert set(game_links(client.get(url("section", section)).content.decode()).values()) == {"watch"}
    client.logout()
    assert set(game_links(client.get(url("section", section)).content.decode()).values()) == {"watch"}


@pytest.fixture
def section(club, organiser):
    tournament = TournamentFactory.create(by=organiser, club=club, name="Winter open",
                                          starts_at=timezone.now() + timedelta(days=2))
    return SectionFactory.create(by=organiser, tournament=tournament, name="Open", format="round-robin")


def top_messages(html: str) -> str:
    """The messages at the top of the page (before the page's own content)."""
    return text_of(html.split('<main id="main" class="container">')[1].split("<h1>")[0])


def beside_the_form(html: str) -> str:
    """The "Enter a player" card: the answer, then the field."""
    return text_of(html.split('id="enter-player"')[1].split(">", 1)[1].split("</form>")[0])


def test_the_organisers_entry_answers_beside_its_form(client, club, organiser, section, make_player):
    MembershipFactory.create(club=club, user=make_player(username="maya", display_name="Maya Rossi"))
    make_player(username="sam")  # of no club
    client.force_login(organiser)
    # The suggestions show the name (typing it finds her) and fill in the username.
    assert '<option value="maya" label="Maya Rossi (maya)">' in client.get(url("section", section)).content.decode()

    refused = client.post(url("section-players", section), {"action": "enter", "username": "sam"})
    assert refused.url == url("section", section) + "#enter-player"
    page = client.get(refused.url).content.decode()
    card = beside_the_form(page)
    assert card.startswith(" Enter a player (organiser) sam is not a member of Chess club: an organiser enters"), card
    assert card.index("is not a member") < card.index("Username of a member")  # above the field
    assert "is not a member" not in top_messages(page)
    assert re.search(r'<p class="message error" role="alert">sam is not a member', page)
    field = re.search(r'<input id="id_enter_username"[^>]*>', page).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="players-notes id_enter_username_helptext"' in field
    # Said once: the next visit is clean.
    page = client.get(url("section", section)).content.decode()
    assert "is not a member" not in page and 'aria-invalid' not in page

    page = client.post(url("section-players", section), {"action": "enter", "username": "Maya"},
                       follow=True).content.decode()
    assert Entry.objects.filter(section=section, user__username="maya").exists()
    # Her name, as the refusals and the players list say it (it said "maya is entered.").
    assert "Maya Rossi is entered." in beside_the_form(page) and "is entered." not in top_messages(page)
    assert 'aria-invalid' not in page
    page = client.post(url("section-players", section), {"action": "enter", "username": "maya"},
                       follow=True).content.decode()
    assert "Maya Rossi is already entered" in beside_the_form(page), beside_the_form(page)

    # A withdrawal from the players list just below answers in the same place.
    page = client.post(url("section-players", section), {"action": "withdraw", "username": "maya"},
                       follow=True).content.decode()
    maya = Entry.objects.get(section=section, user__username="maya").user
    assert f"{maya.name} is withdrawn." in beside_the_form(page) and "withdrawn" not in top_messages(page)
    assert 'aria-invalid' not in page  # not the entry's refusal


def test_an_answer_shows_in_place_when_no_more_players_may_be_entered(client, club, organiser, make_player):
    """Entering the last place closes the form; the answer still shows where it was."""
    tournament = TournamentFactory.create(by=organiser, club=club, name="Small open",
                                          starts_at=timezone.now() + timedelta(days=2))
    small = SectionFactory.create(by=organiser, tournament=tournament, name="Small", format="round-robin",
                                  capacity=2)
    for name in ("ada", "ben"):
        MembershipFactory.create(club=club, user=make_player(username=name))
    client.force_login(organiser)
    client.post(url("section-players", small), {"action": "enter", "username": "ada"})
    page = client.post(url("section-players", small), {"action": "enter", "username": "ben"},
                       follow=True).content.decode()
    assert 'id="id_enter_username"' not in page  # full: no form
    card = text_of(page.split('id="enter-player">')[1].split("</div></div>")[0])
    assert "ben is entered." in card and "ben is entered." not in top_messages(page)
