"""Tic Tac Two's board on the game page, the board partial and the replay: the action
buttons and targets the player to move gets, none for the other player or in a replay,
and what the last turn did drawn after it."""

from __future__ import annotations

import html as html_lib
import json
import re

from django.test import Client
from django.urls import reverse

from games import rule_sets, services
from games.models import Game
from tests.games.test_views import started
from tests.sockets import pushed_board

DRAFT = ["wall", "double", "swap", "shift", "dibs", "intersect"]  # O, X, O, X, O, X
TURNS = [
    {"type": "write", "cell": 1},
    {"type": "write", "cell": 16},
    {"type": "double", "cell": 5},
    {"type": "write", "cell": 9},
    {"type": "wall", "cell": 9, "side": "bottom"},
    {"type": "write", "cell": 2},
    {"type": "write", "cell": 13},
]


def moves(html: str) -> list[dict]:
    return [json.loads(html_lib.unescape(m)) for m in re.findall(r'data-move="([^"]+)"', html)]


def test_the_board_offers_actions_to_the_mover_only_and_draws_the_last_turn(alice, bob):
    game = started("tic-tac-two", alice, bob)
    x, o = (alice, bob) if game.seats.get(number=0).user == alice else (bob, alice)
    ply = 0
    for n, action in enumerate(DRAFT):
        services.submit_move(
            game_id=game.pk, user=o if n % 2 == 0 else x, ply=ply, move={"type": "pick", "action": action}
        )
        ply += 1
    users = [x, o, x, x, o, o, x]
    for user, move in zip(users, TURNS, strict=True):
        services.submit_move(game_id=game.pk, user=user, ply=ply, move=move)
        ply += 1
    # O to move: it may topple its Wall (onto 9 or 13) and use Swap or Dibs Space.
    page = pushed_board(game.pk, o)
    assert 'id="use-topple"' in page and 'id="use-swap"' in page and 'id="use-dibs"' in page
    offered = moves(page)
    assert {"type": "topple", "cell": 13, "side": "top"} in offered
    assert {"type": "topple", "cell": 9, "side": "bottom"} in offered
    assert 'id="wall-9-bottom"' in page and "X wrote X on square 13." in page
    # X, waiting, gets no actions and no targets; the position is drawn the same.
    waiting = pushed_board(game.pk, x)
    assert "t2-tool" not in waiting and "t2-target" not in waiting and 'id="wall-9-bottom"' in waiting

    services.submit_move(game_id=game.pk, user=o, ply=ply, move={"type": "topple", "cell": 13, "side": "top"})
    page = pushed_board(game.pk)
    assert 'id="fallen-9-bottom"' in page and 'id="wall-9-bottom"' not in page
    assert "fell onto square 13, erasing its X" in page and 'aria-label="Square 13, empty' in page

    services.resign(game_id=game.pk, user=o)
    replay = reverse("games:replay", args=[game.pk])
    step = Client().get(replay + f"?step={ply + 1}").content.decode()
    assert 'id="fallen-9-bottom"' in step and "t2-target" not in step and "t2-tool" not in step
    draft_step = Client().get(replay + "?step=1").content.decode()
    assert 'id="card-wall"' in draft_step and "Held by O" in draft_step and "Take this card" not in draft_step


def test_the_void_variation_places_its_voids_on_the_squares(alice, bob):
    game = void_game(alice, bob, {"void": True})
    x, o = (alice, bob) if game.seats.get(number=0).user == alice else (bob, alice)
    for ply, action in enumerate(DRAFT):
        user = o if ply % 2 == 0 else x
        services.submit_move(game_id=game.pk, user=user, ply=ply, move={"type": "pick", "action": action})
    page = pushed_board(game.pk, x)
    assert "Place a Void" in page
    assert sorted(m["cell"] for m in moves(page) if m["type"] == "void") == list(range(1, 17))
    services.submit_move(game_id=game.pk, user=x, ply=6, move={"type": "void", "cell": 6})
    page = pushed_board(game.pk, o)
    assert "X placed a Void on square 6." in page and re.search(r'aria-label="Square 6, empty, Void', page)
    assert {"type": "void", "cell": 6} not in moves(page)


def void_game(alice, bob, options):
    rule_set = rule_sets.create_rule_set(name="Void test", variant="tic-tac-two", options=options)
    game = services.create_game(creator=alice, rule_set=rule_set, opponent=bob)
    services.accept_challenge(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)
