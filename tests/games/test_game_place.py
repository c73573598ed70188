"""A tournament game's page says where it belongs: "<Tournament> · <Section> · Round 1,
board 1" at its top, linking to the section's page, and, once the game is over, "Back
to <Section>" beside "Lobby" (games.places, league's finder registered in its ready)."""

from __future__ import annotations

import html as html_lib
import json

import pytest
from django.urls import reverse

from games import boards, places, selectors, services, sql
from games import rule_sets as game_rule_sets
from league.models import Pairing
from tests.factories import finished_game, players, section_with

pytestmark = pytest.mark.django_db


def _page(client, user, game_id):
    client.force_login(user)
    return html_lib.unescape(client.get(reverse("games:game", args=[game_id])).content.decode())


def _section_url(section):
    t = section.tournament
    return reverse("competitions:section", args=[t.club.slug, t.slug, section.slug])


def test_a_tournament_games_page_says_its_event_and_links_back(client, make_player):
    people = players(make_player, 5)
    section = section_with(people[:4], format="swiss", rounds=3, tournament="Spring Open")
    pairing = section.pairings.get(round__number=1, board=2)
    game = pairing.game
    line = f"Spring Open · {section.name} · Round 1, board 2"
    url = _section_url(section)
    for viewer in (pairing.first, people[4]):  # a player and an observer
        page = _page(client, viewer, game.pk)
        assert f'<p class="game-place"><a href="{url}">{line}</a></p>' in page
        assert f"Back to {section.name}" not in page  # in play: the way on comes with the result

    services.resign(game_id=game.pk, user=pairing.second)
    for viewer in (pairing.first, people[4]):
        page = _page(client, viewer, game.pk)
        assert f'<p class="game-place"><a href="{url}">{line}</a></p>' in page
        assert f'<a href="{url}">Back to {section.name}</a> ·' in page
    # The board pushed to every socket at the end carries it too (no reload needed).
    message = boards.update_message_for(selectors.load_game(game.pk), sql.moves(game.pk))
    assert all(f"Back to {section.name}" in json.loads(message["boards"][key])["board"]
               for key in ("0", "1", "observer"))


def test_a_game_of_no_event_has_no_place(client, make_player):
    ann, ben = make_player(username="ann"), make_player(username="ben")
    game = finished_game(ann, ben)
    assert places.place_of(game) is None
    page = _page(client, ann, game.pk)
    assert "game-place" not in page and "Back to" not in page


def test_place_of_answers_from_the_pairing(make_player):
    people = players(make_player, 4)
    section = section_with(people, format="swiss", rounds=3)
    pairing = section.pairings.filter(round__number=1).first()
    assert isinstance(pairing, Pairing)
    place = places.place_of(pairing.game)
    assert place is not None and place.part == section.name and place.url == _section_url(section)
    assert place.where == f"Round 1, board {pairing.board}"


def test_a_matchs_later_game_has_its_pairings_place(make_player):
    """A match's games after the first are found through the match, not the pairing's game."""
    best_of_3 = game_rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    section = section_with(players(make_player, 2), format="round-robin", rule_set=best_of_3, tournament="Bo3 Cup")
    pairing = section.pairings.get()
    first = pairing.match.games.get()
    services.resign(game_id=first.pk, user=first.seats.get(number=0).user)
    second = pairing.match.games.exclude(pk=first.pk).get()
    assert second.pk != pairing.game_id
    place = places.place_of(second)
    assert place is not None and (place.event, place.part) == ("Bo3 Cup", section.name)
    assert place.where == "Round 1, board 1" and place.url == _section_url(section)
