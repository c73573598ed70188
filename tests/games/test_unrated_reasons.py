"""The game page says the true reason a finished game counts for no rating: a forfeit
by withdrawal or no-show, a casual game, an AI game, a lesson, an unrated section
(league.ratings.explain.unrated_words, chosen by league.ratings.selectors)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from league import competitions as cs
from league.models import Pairing
from tests.factories import finished_game, players, section_with

pytestmark = pytest.mark.django_db


def _page(client, user, game):
    client.force_login(user)
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def _begun(section):
    pairing = section.pairings.filter(round__number=1, status=Pairing.Status.IN_PLAY).first()
    game = pairing.game
    mover = next(s.user for s in game.seats.select_related("user") if s.number in game.to_move)
    services.submit_move(game_id=game.pk, user=mover, ply=0, move={"cell": 4})
    return pairing, game, mover


def test_a_withdrawal_forfeit_says_who_withdrew_not_a_casual_game(client, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    pairing, game, mover = _begun(section)
    quitter = pairing.second if mover == pairing.first else pairing.first
    cs.withdraw(section=section, user=quitter, reason="Withdrawn by the organiser")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rated
    html = _page(client, mover, game)
    assert "casual game" not in html
    assert f"Unrated: {quitter.name} withdrew from the tournament, so the game was decided by forfeit" in html


def test_a_tournament_forfeit_by_the_arbiter_says_forfeit(client, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    pairing, game, mover = _begun(section)
    cs.forfeit_pairing(pairing_id=pairing.pk, loser="first" if mover != pairing.first else "second")
    html = _page(client, mover, Game.objects.get(pk=game.pk))
    assert "Unrated: it was decided by forfeit, and a forfeit is not rated" in html


def test_an_unrated_sections_game_says_so(client, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3, rated=False)
    pairing, game, mover = _begun(section)
    other = pairing.second if mover == pairing.first else pairing.first
    services.resign(game_id=game.pk, user=other)
    html = _page(client, mover, Game.objects.get(pk=game.pk))
    assert "Unrated: a game of an unrated tournament section" in html and "casual" not in html


def test_a_casual_game_and_a_computer_game(client, make_player):
    ann, ben = make_player(username="ann"), make_player(username="ben")
    assert "Unrated: a casual game (it was created without the Rated box)" in _page(
        client, ann, finished_game(ann, ben, rated=False))
    ai = services.create_game(creator=ann, variant="classic", ai_level="random")
    services.resign(game_id=ai.pk, user=ann)
    assert "Unrated: a game against the computer is never rated." in _page(client, ann, Game.objects.get(pk=ai.pk))
