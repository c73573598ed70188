"""A game that ended before any move (a forfeit, a resignation at once) has nothing to
replay: no page offers "Replay" for it, and its replay page says so, with how it ended,
rather than an empty stepper ("Move 0 of 0"; an outside probe)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from tests.factories import finished_game
from tests.games.test_views import client_for

pytestmark = pytest.mark.django_db


def test_the_replay_of_a_game_without_a_move_says_so_and_how_it_ended(alice, bob):
    at_once = finished_game(alice, bob)  # bob resigns before anyone moved: a rated result
    page = client_for(alice).get(reverse("games:replay", args=[at_once.pk])).content.decode()
    assert "No move was played" in page and "nothing to replay" in page
    assert "Bob resigned" in page or "resign" in page.lower()
    assert 'id="replay-position"' not in page and 'id="replay-next"' not in page


def test_no_page_offers_a_replay_of_a_game_without_a_move(alice, bob):
    at_once = finished_game(alice, bob)
    moved = services.create_game(creator=alice, variant="classic", opponent=bob, rated=True)
    services.accept_challenge(game_id=moved.pk, user=bob)
    services.submit_move(game_id=moved.pk, user=alice, ply=0, move={"cell": 4})
    services.resign(game_id=moved.pk, user=bob)
    viewer = client_for(alice)
    lobby = viewer.get(reverse("games:lobby")).content.decode()
    player = viewer.get(reverse("league:player", args=[alice.username])).content.decode()
    for page in (lobby, player):
        assert reverse("games:replay", args=[moved.pk]) in page
        assert reverse("games:replay", args=[at_once.pk]) not in page
        assert f"Result of game {at_once.pk}" in page
    assert 'id="replay-link"' not in viewer.get(reverse("games:game", args=[at_once.pk])).content.decode()
    assert 'id="replay-link"' in viewer.get(reverse("games:game", args=[moved.pk])).content.decode()

