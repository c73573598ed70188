"""Results in words on the pages (templates/games/_result.html, the payload's result
``text``): the game page, the board partial, the replay, the lobby's finished lines and
the API all say the same sentence; Nine-Square's scoring is drawn on its boards; a
finished game shows no clocks and Tactic-Toe no empty round box."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.models import Game
from tests.factories import GameFactory, play_to_the_end
from tests.games.test_views import client_for
from tests.sockets import pushed_board

pytestmark = pytest.mark.django_db


def played(variant: str, alice, bob, seed: int = 1) -> Game:
    game = GameFactory.create(creator=alice, opponent=bob, variant=variant)
    return play_to_the_end(game, [alice, bob], seed=seed)


def text_of(page: str) -> str:
    """The words a reader sees: tags out, entities read ("Cat&#x27;s" is "Cat's": a
    Tactic-Toe AI on a loaded machine plays to a draw whose sentence has an apostrophe)."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("variant", ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square"])
def test_every_page_says_the_same_sentence(variant, alice, bob):
    game = played(variant, alice, bob)
    sentence = selectors.game_payload(selectors.load_game(game.pk), None)["result"]["text"]
    assert sentence.endswith(".") and len(sentence) > 20
    viewer = client_for(alice)
    pages = {
        "game": viewer.get(reverse("games:game", args=[game.pk])),
        "replay": viewer.get(reverse("games:replay", args=[game.pk])),
        "lobby": Client().get(reverse("games:lobby")),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert sentence in text_of(response.content.decode()), name
    assert sentence in text_of(pushed_board(game.pk, alice))  # what the socket pushes
    # Said once on a page: the replay's last step leaves it to the page's head.
    assert text_of(pages["replay"].content.decode()).count(sentence) == 1
    assert text_of(pages["game"].content.decode()).count(sentence) == 1
    api = viewer.get(f"/api/v1/games/{game.pk}/").json()
    assert api["result"]["text"] == sentence


def test_a_resignation_names_both_players(alice, bob):
    game = GameFactory.create(creator=alice, opponent=bob, variant="classic", resigned_by=bob)
    html = text_of(client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode())
    assert f"Game over: {alice.name} (X) wins: {bob.name} resigned." in html


def test_nine_square_draws_its_scoring_lines_and_legend(alice, bob):
    game = played("nine-square", alice, bob, seed=3)
    payload = selectors.game_payload(selectors.load_game(game.pk), None)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    view = payload["view"]
    strokes = len(re.findall(r'<line class="strike-[XO]"', html))
    full = len(re.findall(r'class="grid grid-3 small-board full full-[XO]"', html))
    lines = view["points"]["lines"][0] + view["points"]["bonus"][0] // 3 + view["points"]["lines"][1] \
        + view["points"]["bonus"][1] // 3
    # Every line of three and every line of boards is one stroke; a full board's eight are one mark.
    assert strokes + 8 * full == lines
    assert strokes > 0
    assert 'id="nine-legend-title"' in html
    for seat in (0, 1):
        assert f"<strong>{view['letters'][seat]} {view['scores'][seat]}</strong>" in html


def test_finished_games_show_no_clock_and_tactic_toe_no_empty_round(alice, bob):
    game = GameFactory.create(creator=alice, opponent=bob, variant="tactic-toe", resigned_by=alice)
    html = client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'class="clock' not in html
    assert 'id="plan-panel"' not in html
    live = GameFactory.create(creator=alice, opponent=bob, variant="tactic-toe")
    html = client_for(bob).get(reverse("games:game", args=[live.pk])).content.decode()
    assert 'class="clock' in html and 'id="plan-panel"' in html


def test_winning_squares_are_marked(alice, bob):
    game = GameFactory.create(creator=alice, opponent=bob, variant="classic")
    for ply, (user, cell) in enumerate([(alice, 1), (bob, 4), (alice, 2), (bob, 5), (alice, 3)]):
        services.submit_move(game_id=game.pk, user=user, ply=ply, move={"cell": cell})
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    won = sorted(re.findall(r'class="square win[^"]*" id="sq-(\d)"', html))
    assert won == ["1", "2", "3"]
    assert "wins with three in a row on the top row." in text_of(html)
