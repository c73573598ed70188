"""From an organiser's walkthrough of the section pages and forms: a match of even
length ("best of 4") is kept, and how a level match is settled is said on the form and
the page; check-in is explained on the section page (its window, what not checking in
does, the Check in button's state, and for organisers how many have checked in); the
tie-breaks are chosen from select boxes, not typed, and the API refuses an unknown one
in words."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rule_sets as game_rule_sets
from games.models import Match
from league import competitions as cs
from league.competitions import event_services
from league.models import Entry, Pairing, Section
from tests.factories import make_section, players, section_with
from tests.support import api_as as api

from .support import decide, text_of, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return event_services.create_tournament(by=organiser, club=club, name="Walkthrough cup",
                                            starts_at=timezone.now() + timedelta(days=1))


def _new_section_url(tournament) -> str:
    return reverse("competitions:section-new", args=[tournament.club.slug, tournament.slug])


def _best_of_4():
    return game_rule_sets.create_rule_set(name="Best of 4", variant="classic", match_format="best-of",
                                          match_games=4)


# -- a match of even length ---------------------------------------------------------------


def test_the_form_says_how_a_level_match_is_settled_and_takes_a_best_of_4(client, organiser, tournament):
    client.force_login(organiser)
    page = client.get(_new_section_url(tournament)).content.decode()
    help_text = re.search(r'id="id_rule_set_helptext">(.*?)</small>', page, re.S).group(1)
    assert "2-2 in a best of 4" in help_text and "drawn pairing, half a point each" in help_text
    assert "played again" in help_text and "higher seed goes through" in help_text
    rules = _best_of_4()
    made = client.post(_new_section_url(tournament), {
        "name": "Matches", "variant": "classic", "rule_set": rules.pk, "format": "swiss", "rated": "on",
        "observer_policy": "anyone", "grand_final": "reset", "cycles": "1", "bye_points": "1",
        "late_entry_rounds": "0", "rounds": "3"})
    assert made.status_code == 302
    section = tournament.sections.get()
    assert section.rule_set == rules
    facts = text_of(client.get(url("section", section)).content.decode())
    assert ("A match that ends level on games won (as 2-2 in a best of 4, or with drawn games) is a drawn "
            "pairing: half a point each.") in facts


def test_the_api_takes_a_best_of_4_and_a_knockouts_page_says_a_level_match_is_played_again(
        client, club, organiser, tournament):
    rules = _best_of_4()
    made = api(organiser).post("/api/v1/sections/", {
        "tournament": tournament.pk, "name": "Knockout", "rule_set": rules.pk, "format": "single-elimination",
    }, format="json")
    assert made.status_code == 201, made.content
    section = Section.objects.get(pk=made.json()["id"])
    assert section.rule_set == rules
    facts = text_of(client.get(url("section", section)).content.decode())
    assert ("A match that ends level on games won (as 2-2 in a best of 4, or with drawn games) is played again "
            "with the first move swapped, up to 4 times; then the higher seed goes through") in facts


def _play_match_level(section) -> Pairing:
    """Each game of the one match won in turn by its first and its second player: 2-2."""
    pairing = Pairing.objects.get(section=section, second__isnull=False)
    first, second = pairing.first_id, pairing.second_id
    for number in range(4):
        assert decide(section, winner=lambda p, n=number: first if n % 2 == 0 else second) == 1
        cs.sweep()
    pairing.refresh_from_db()
    return pairing


def test_a_best_of_4_level_at_2_2_is_a_drawn_pairing_in_a_swiss(make_player, eager_celery):
    section = section_with(players(make_player, 2), format="swiss", rounds=1, rule_set=_best_of_4())
    pairing = _play_match_level(section)
    assert pairing.match.status == Match.Status.FINISHED and pairing.match.games.count() == 4
    assert (pairing.result, pairing.first_points, pairing.second_points) == (Pairing.Result.DRAW, 0.5, 0.5)


def test_a_best_of_4_level_at_2_2_is_played_again_in_a_knockout(make_player, eager_celery):
    section = section_with(players(make_player, 2), format="single-elimination", rule_set=_best_of_4())
    pairing = _play_match_level(section)
    assert pairing.status == Pairing.Status.IN_PLAY  # not settled: the match is played again
    assert any(flag.startswith("drawn, replayed (match") for flag in pairing.flags)
    assert pairing.match is not None and pairing.match.status == Match.Status.ACTIVE


def test_a_replayed_draws_pairing_notice_says_it_is_a_replay(make_player, eager_celery):
    """A knockout's drawn game is played again: its players' second "round 1, board 1:
    your game is ready." read as the first one sent twice (walkthrough)."""
    from accounts.models import Notice
    from games import services as game_services

    section = section_with(players(make_player, 2), format="single-elimination")
    pairing = Pairing.objects.get(section=section, second__isnull=False)
    game = pairing.game
    seats = {seat.number: seat.user for seat in game.seats.all()}
    for ply, cell in enumerate((5, 1, 9, 3, 2, 8, 7, 4, 6)):  # a full grid, no line: a draw
        game = game_services.submit_move(game_id=game.pk, user=seats[ply % 2], ply=ply, move={"cell": cell})
    assert game.result == "draw", game.result
    cs.sweep()
    pairing.refresh_from_db()
    assert pairing.game_id not in (None, game.pk)  # played again
    for user_id in (pairing.first_id, pairing.second_id):
        told = list(Notice.objects.filter(recipient_id=user_id, cause__startswith=f"pairing:{pairing.pk}:")
                    .order_by("pk").values_list("message", flat=True))
        assert told[0].endswith("round 1, board 1: your game is ready.")
        assert told[1].endswith("round 1, board 1: your game is ready (a new game after the drawn "
                                "one, the first move swapped)."), told


# -- check-in -------------------------------------------------------------------------------


def _check_in_section(club, organiser, make_player, *, opens_in: timedelta):
    entrant = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[entrant],
                           check_in_opens_at=timezone.now() + opens_in)
    return section, entrant


def test_the_section_page_explains_check_in_before_it_opens(client, club, organiser, make_player):
    section, entrant = _check_in_section(club, organiser, make_player, opens_in=timedelta(minutes=30))
    client.force_login(entrant)
    page = client.get(url("section", section)).content.decode()
    words = html.unescape(text_of(page))
    assert "Check-in Required. Entrants check in from" in words
    assert "Whoever has not checked in when round 1 starts is withdrawn (\"Did not check in.\") and not paired." \
        in words
    assert "Not open yet." in words
    assert "Check-in opens" in words and "come back then and press Check in." in words
    # The button is shown, disabled, with when it opens.
    assert re.search(r'<button type="button" disabled[^>]*>Check in</button>', page)
    assert 'value="check-in"' not in page


def test_the_section_page_offers_check_in_while_open_and_counts_it_for_organisers(
        client, club, organiser, make_player):
    section, entrant = _check_in_section(club, organiser, make_player, opens_in=timedelta(minutes=-5))
    client.force_login(organiser)
    words = text_of(client.get(url("section", section)).content.decode())
    assert "Check-in (organiser): 0 of 1 entrant checked in; 1 still to check in before" in words
    client.force_login(entrant)
    page = client.get(url("section", section)).content.decode()
    assert 'value="check-in"' in page and "Open now." in text_of(page)
    assert "Check in before" in text_of(page) and "or you are not paired." in text_of(page)
    client.post(url("section-entry", section), {"action": "check-in"})
    assert Entry.objects.get(section=section, user=entrant).status == Entry.Status.CHECKED_IN
    words = text_of(client.get(url("section", section)).content.decode())
    assert "✓ You are checked in (" in words and "you will be paired." in words
    client.force_login(organiser)
    words = text_of(client.get(url("section", section)).content.decode())
    assert "Check-in (organiser): 1 of 1 entrant checked in." in words


def test_a_section_without_check_in_says_nothing_of_it(client, club, organiser, make_player):
    entrant = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[entrant])
    client.force_login(entrant)
    assert "Check-in" not in text_of(client.get(url("section", section)).content.decode())


# -- tie-breaks ---------------------------------------------------------------------------


def _settings(client, tournament, key: str) -> str:
    fieldset = reverse("competitions:section-format-settings", args=[tournament.club.slug, tournament.slug])
    return client.get(fieldset, {"format": key}).content.decode()


def test_the_tiebreaks_are_chosen_in_order_by_name_not_typed(client, organiser, tournament):
    client.force_login(organiser)
    page = _settings(client, tournament, "swiss")
    assert 'name="tiebreaks"' not in page  # no free text
    boxes = re.findall(r'<select name="(tiebreaks_\d)"[^>]*aria-describedby="id_tiebreaks_helptext"', page)
    assert boxes == [f"tiebreaks_{i}" for i in range(6)]
    assert '<label for="id_tiebreaks_0">1st</label>' in page
    assert "Sonneborn-Berger: opponents beaten, plus half those drawn" in page
    # The format's default order is what the boxes show.
    order = page.split('<ol class="tiebreak-order">')[1].split("</ol>")[0]
    selected = re.findall(r'<option value="([a-z0-9-]*)" selected>', order)
    assert selected == ["buchholz-cut1", "buchholz", "sonneborn-berger", "", "", ""]  # then "—"

    form = {"name": "Evening", "variant": "classic", "format": "swiss", "rated": "on", "observer_policy": "anyone",
            "grand_final": "reset", "cycles": "1", "bye_points": "1", "late_entry_rounds": "0", "rounds": "3",
            "tiebreaks_0": "wins", "tiebreaks_1": "", "tiebreaks_2": "wins"}
    refused = client.post(_new_section_url(tournament), form)
    assert refused.status_code == 200 and not tournament.sections.exists()
    error = re.search(r'<div id="id_tiebreaks_error">(.*?)</div>', refused.content.decode(), re.S)
    assert error and "Each tie-break counts once: Wins is chosen twice." in error.group(1)
    form.update(tiebreaks_0="sonneborn-berger", tiebreaks_1="", tiebreaks_2="wins")
    assert client.post(_new_section_url(tournament), form).status_code == 302
    assert tournament.sections.get().tiebreaks == ["sonneborn-berger", "wins"]  # an empty box is skipped


def test_the_api_takes_tiebreak_names_and_refuses_an_unknown_one_in_words(organiser, tournament):
    made = api(organiser).post("/api/v1/sections/", {
        "tournament": tournament.pk, "name": "Swiss", "variant": "classic", "format": "swiss",
        "tiebreaks": ["wins", "buchholz"],
    }, format="json")
    assert made.status_code == 201 and made.json()["tiebreaks"] == ["wins", "buchholz"]
    refused = api(organiser).post("/api/v1/sections/", {
        "tournament": tournament.pk, "name": "Typo", "variant": "classic", "format": "swiss",
        "tiebreaks": ["bucholz"],
    }, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad-tiebreak"
    assert refused.json()["message"].startswith("Unknown tie-break 'bucholz'; known: direct-encounter "
                                                "(Direct encounter), wins (Wins), buchholz (Buchholz),")


# -- the schedule in words ----------------------------------------------------------------


def test_the_schedule_says_its_lengths_in_words(client, organiser, tournament):
    """The page used to print the stored durations as they are ("a round every 0:20:00")."""
    swiss = event_services.create_section(by=organiser, tournament=tournament, name="Swiss", format="swiss",
                                          variant="classic", round_interval=timedelta(minutes=20))
    arena = event_services.create_section(by=organiser, tournament=tournament, name="Arena", format="arena",
                                          variant="classic", arena_duration=timedelta(hours=1, minutes=30))
    assert "a round every 20 minutes" in text_of(client.get(url("section", swiss)).content.decode())
    assert "runs 1 hour 30 minutes" in text_of(client.get(url("section", arena)).content.decode())


# -- a long event's rounds ----------------------------------------------------------------


def test_a_long_event_lists_its_latest_rounds_and_the_rest_on_asking(client, organiser, tournament):
    """An hour's arena plays a hundred waves: the page listed every board of every one, at
    every live refresh. It lists the latest ten, says how many more, and shows all on asking."""
    from league.competitions.event_selectors import ROUNDS_SHOWN
    from league.models import Round

    section = event_services.create_section(by=organiser, tournament=tournament, name="Long", format="swiss",
                                            variant="classic", rounds=ROUNDS_SHOWN + 2)
    for number in range(1, ROUNDS_SHOWN + 3):
        Round.objects.get_or_create(section=section, number=number,
                                    defaults={"starts_at": section.starts_at + timedelta(hours=number)})
    page = client.get(url("section", section)).content.decode()
    shown = [int(n) for n in re.findall(r"<strong>Round (\d+)</strong>", page)]
    assert shown == list(range(ROUNDS_SHOWN + 2, 2, -1))
    assert "2 earlier rounds not shown" in text_of(page) and 'href="?rounds=all#rounds-heading"' in page
    every = client.get(url("section", section) + "?rounds=all").content.decode()
    assert [int(n) for n in re.findall(r"<strong>Round (\d+)</strong>", every)] == list(range(ROUNDS_SHOWN + 2, 0, -1))
    assert "earlier rounds not shown" not in every and "Show the latest only" in every
