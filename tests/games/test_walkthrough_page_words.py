"""What the lobby and a decider's page say, from an outside walkthrough: a player's own
game in play is theirs to play, not to watch; a finished rock-paper-scissors decider
says what each threw, not "not yet"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import rule_sets, services
from games.models import Game
from tests.factories import GameFactory
from tests.games.test_views import client_for

pytestmark = pytest.mark.django_db


def in_play_list(html: str) -> str:
    return html.split('id="active-title"')[1].split("</section>")[0]


def test_the_lobby_offers_a_player_their_own_game_to_play_and_others_to_watch(alice, bob, carol):
    mine = Game.objects.get(pk=GameFactory.create(creator=alice, opponent=bob, variant="classic").pk)
    theirs = Game.objects.get(pk=GameFactory.create(creator=bob, opponent=carol, variant="classic").pk)
    lobby = reverse("games:lobby")

    listed = in_play_list(client_for(alice).get(lobby).content.decode())
    assert re.search(rf'<a href="/play/{mine.pk}/" aria-label="Play game {mine.pk}">Play</a>', listed)
    assert f'aria-label="Watch game {theirs.pk}">Watch</a>' in listed and f"Watch game {mine.pk}" not in listed
    # Bob plays in both; the filter bar's refresh of the lists says the same.
    listed = in_play_list(client_for(bob).get(lobby, {"part": "lists"}, HTTP_HX_REQUEST="true").content.decode())
    assert f"Play game {mine.pk}" in listed and f"Play game {theirs.pk}" in listed and "Watch game" not in listed
    # Someone signed out watches every game.
    listed = in_play_list(Client().get(lobby).content.decode())
    assert "Play game" not in listed and f"Watch game {mine.pk}" in listed and f"Watch game {theirs.pk}" in listed


def _decider(alice, bob) -> Game:
    rules = rule_sets.create_rule_set(name="Thrown for", variant="classic", decider="rock-paper-scissors")
    decider = services.create_game(creator=alice, rule_set=rules, opponent=bob)
    decider = services.accept_challenge(game_id=decider.pk, user=bob)
    assert decider.variant == "rock-paper-scissors" and decider.status == Game.Status.ACTIVE
    return decider


def throws_of(html: str) -> str:
    card = html.split('<section class="card throws"')[1].split("</section>")[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card.split(">", 1)[1])).strip()


def test_a_finished_decider_says_what_each_threw(alice, bob, carol):
    decider = _decider(alice, bob)
    services.submit_move(game_id=decider.pk, user=alice, ply=0, move={"throw": "rock"})
    services.submit_move(game_id=decider.pk, user=bob, ply=1, move={"throw": "rock"})  # a tie: thrown again
    page = throws_of(client_for(alice).get(reverse("games:game", args=[decider.pk])).content.decode())
    assert "Thrown: Player One not yet · Player Two not yet" in page and "rock vs rock" in page  # still going
    services.submit_move(game_id=decider.pk, user=alice, ply=2, move={"throw": "paper"})
    services.submit_move(game_id=decider.pk, user=bob, ply=3, move={"throw": "scissors"})
    decider.refresh_from_db()
    assert decider.status == Game.Status.FINISHED
    for viewer in (alice, bob, carol):  # both players and an onlooker
        page = throws_of(client_for(viewer).get(reverse("games:game", args=[decider.pk])).content.decode())
        assert "not yet" not in page and "waiting" not in page, page
        assert page.startswith("Thrown: Player One paper · Player Two scissors"), page
        assert "rock vs rock paper vs scissors" in page  # every throw, the tie too
    replay = client_for(carol).get(reverse("games:replay", args=[decider.pk])).content.decode()
    assert throws_of(replay).startswith("Thrown: Player One paper · Player Two scissors")


def test_a_decider_ended_in_the_middle_of_a_throw_keeps_the_throw_secret(alice, bob):
    decider = _decider(alice, bob)
    services.submit_move(game_id=decider.pk, user=alice, ply=0, move={"throw": "scissors"})
    services.resign(game_id=decider.pk, user=bob)
    decider.refresh_from_db()
    assert decider.status == Game.Status.FINISHED
    for viewer in (alice, bob):
        page = throws_of(client_for(viewer).get(reverse("games:game", args=[decider.pk])).content.decode())
        assert page == "Ended during a throw: Player One threw · Player Two did not throw", page
        assert "scissors" not in page  # never matched: secret, to its thrower too
