"""Nine-Square's board before the game starts: an open challenge (to anyone, or to one
player) shows no die and does not say its number anywhere in the page (the engine has
rolled already, from the seed, when the game was made). It says the roll comes when the
game starts; once the challenge is accepted the die of the first turn is shown. A
challenge called off before it started never shows one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.rules import get_variant
from tests.games.test_views import client_for
from tests.sockets import pushed_board

PENDING = "No die yet: the first roll comes when the game starts."


def no_die(html: str) -> None:
    assert 'class="die"' not in html and "Die shows" not in html and "Roll of the turn" not in html
    assert 'id="die-pending"' in html and PENDING in html
    assert 'data-need="0"' in html  # the number the die would need is not in the markup either


@pytest.mark.parametrize("named", [False, True], ids=["open-to-anyone", "to-one-player"])
def test_an_open_challenge_shows_no_die_until_the_game_starts(named, alice, bob, carol):
    game = services.create_game(creator=alice, variant="nine-square", opponent=bob if named else None)
    assert game.status == Game.Status.OPEN
    page = reverse("games:game", args=[game.pk])
    # The challenger, the player who may accept, the socket's boards and, for a challenge
    # open to anyone, another player and a visitor (a challenge to one player is theirs alone).
    clients = [client_for(alice), client_for(bob)] + ([] if named else [client_for(carol), Client()])
    for html in [c.get(page).content.decode() for c in clients] + [pushed_board(game.pk, alice), pushed_board(game.pk)]:
        no_die(html)

    services.accept_challenge(game_id=game.pk, user=bob)
    game.refresh_from_db()
    roll = get_variant("nine-square").load(game.state).roll  # type: ignore[attr-defined]
    mover = alice if game.seats.get(number=game.to_move[0]).user == alice else bob
    waiting = bob if mover == alice else alice
    for user in (mover, waiting, None):
        html = pushed_board(game.pk, user)
        assert f'aria-label="Die shows {roll}">{roll}</span>' in html
        assert 'id="die-pending"' not in html and PENDING not in html
    assert f'data-need="{roll}"' in pushed_board(game.pk, mover)
    assert "Roll of the turn in progress." in pushed_board(game.pk, waiting)


def test_a_challenge_called_off_before_it_started_shows_no_die(alice, bob):
    game = services.create_game(creator=alice, variant="nine-square", opponent=bob)
    services.decline_challenge(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.started_at is None
    for html in (client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode(), pushed_board(game.pk)):
        assert 'class="die"' not in html and "Die shows" not in html and 'data-need="0"' in html
        assert PENDING not in html  # it will never start: nothing to wait for
