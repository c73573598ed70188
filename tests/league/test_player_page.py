"""A player's page: clubs, record, head-to-head and games (league.views.ratings.player)."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from games import selectors
from games import services as game_services
from games.models import Game
from tests.factories import ClubFactory, GameFactory, finished_game

pytestmark = pytest.mark.django_db

#: A classic game that ends in a draw, square by square in the order played.
DRAWN = [1, 5, 9, 2, 8, 7, 3, 6, 4]


def drawn_game(a, b) -> Game:
    game = GameFactory.create(creator=a, opponent=b, variant="classic")
    users = {seat.number: seat.user for seat in game.seats.all() if seat.user is not None}
    for ply, cell in enumerate(DRAWN):
        mover = Game.objects.get(pk=game.pk).to_move[0]
        game_services.submit_move(game_id=game.pk, user=users[mover], ply=ply, move={"cell": cell})
    game.refresh_from_db()
    assert game.result == "draw"
    return game


@pytest.fixture
def history(make_player):
    """alice: beat bob, drew with bob, lost to carol; beside them games no record counts."""
    alice, bob, carol = (make_player(username=name) for name in ("alice", "bob", "carol"))
    finished_game(alice, bob)
    drawn_game(bob, alice)
    lost = finished_game(carol, alice)
    # Not counted: against the computer, a game nobody moved in that moved no rating.
    ai = game_services.create_game(creator=alice, variant="classic", ai_level="random")
    game_services.resign(game_id=ai.pk, user=alice)
    finished_game(bob, alice, rated=False)
    playing = GameFactory.create(creator=alice, opponent=carol, variant="classic")
    return alice, bob, carol, lost, playing


def test_the_record_counts_games_against_people_from_the_players_own_seat(history):
    alice, bob, carol, _, _ = history
    assert selectors.player_record(alice) == selectors.Record(won=1, drawn=1, lost=1)
    assert selectors.player_record(bob) == selectors.Record(won=0, drawn=1, lost=1)
    assert selectors.player_record(bob, against=alice) == selectors.Record(won=0, drawn=1, lost=1)
    assert selectors.player_record(carol, against=alice) == selectors.Record(won=1, drawn=0, lost=0)
    assert selectors.player_record(carol, against=bob).played == 0


def test_the_page_shows_record_head_to_head_clubs_and_games(client, history):
    alice, bob, _, lost, playing = history
    ClubFactory.create(name="Chess Club", slug="chess-club", members=[alice])
    client.force_login(bob)
    page = client.get(reverse("league:player", args=["alice"])).content.decode()
    assert f"<title>{alice.name} · Tic Tac Toe League</title>" in page
    assert "Member of <a href=\"/clubs/chess-club/\">Chess Club</a>" in page
    assert "3 games against people: <strong>1</strong> won, <strong>1</strong> drawn, <strong>1</strong> lost." in page
    assert "you won 0, drew 1, lost 1." in page
    assert f'aria-label="Watch game {playing.pk}"' in page
    # Resigned before a move: its result, no replay (tests/games/test_replay_without_moves.py).
    assert f'aria-label="Result of game {lost.pk}: no move was played"' in page
    games_part = page[page.index('id="player-games-title"'):]
    # the AI game and the unplayed one are left out; only the drawn game has moves to replay
    assert (games_part.count("Replay game"), games_part.count("Result of game")) == (1, 2)
    assert games_part.index(f"Result of game {lost.pk}") < games_part.index("drew")  # newest first


def test_a_players_own_page_offers_play_and_no_head_to_head(client, history):
    alice, _, _, _, playing = history
    client.force_login(alice)
    page = client.get(reverse("league:player", args=["alice"])).content.decode()
    assert f'aria-label="Play game {playing.pk}"' in page and 'id="head-to-head"' not in page


def test_a_childs_games_and_clubs_are_shown_only_to_whom_may_reach_them(client, make_player):
    child = make_player(username="kid", born=date(date.today().year - 10, 1, 1))
    mate, stranger = make_player(username="mate"), make_player(username="stranger")
    ClubFactory.create(name="Junior Club", slug="junior-club", members=[child, mate])
    finished_game(mate, child)
    url = reverse("league:player", args=["kid"])
    client.force_login(stranger)
    page = client.get(url).content.decode()
    assert "Junior Club" not in page and 'id="player-record"' not in page and "Result of game" not in page
    client.force_login(mate)
    page = client.get(url).content.decode()
    assert "Junior Club" in page and "1 game against people" in page and "Result of game" in page
