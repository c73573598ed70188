"""Tournament results and ratings: a forfeit (a no-show, a game ended with no move) is
never rated, live or as a tournament period or by the recompute; a corrected result is
rated as if it had been the result all along."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Game
from league import competitions as cs
from league.models import Pairing, Rating, RatingChange
from league.ratings import recompute
from league.ratings import selectors as rating_selectors
from tests.factories import players, section_with

from .support import decide, one_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def _no_show_in_round_one(section):
    """Round 1 of a four-player section: board 1 played (one move, a resignation), board
    2 ended by the games' clock sweep before any move ("did not show up")."""
    played, absent = section.pairings.filter(round__number=1).order_by("board")
    game = one_move(played.game)
    game_services.resign(game_id=game.pk, user=game.seats.get(number=game.to_move[0]).user)
    game_services.flag_expired_clocks(now=timezone.now() + timedelta(days=1))
    absent.refresh_from_db()
    played.refresh_from_db()
    return played, absent


def test_a_no_show_ended_by_the_clock_sweep_is_scored_a_forfeit_and_never_rated(make_player):
    section = section_with(players(make_player, 4), format="round-robin", rated=True)
    played, absent = _no_show_in_round_one(section)
    game = Game.objects.get(pk=absent.game_id)
    assert game.ply == 0 and "did not show up" in game.end_reason
    assert absent.result in (Pairing.Result.FIRST_FORFEIT_WIN, Pairing.Result.SECOND_FORFEIT_WIN)
    assert not absent.players.filter(played=True).exists()
    assert not RatingChange.objects.filter(game=game).exists()
    assert RatingChange.objects.filter(game=played.game_id).count() == 2  # the game played is rated
    note = rating_selectors.game_rating_note(game)
    assert note is not None and not note.rated and "forfeit" in note.text
    # Nor by the recompute from the game log.
    recompute.recompute_all()
    assert not RatingChange.objects.filter(game=game).exists()
    assert RatingChange.objects.filter(game=played.game_id).count() == 2


def test_a_no_show_is_left_out_of_a_tournament_rating_period(make_player):
    section = section_with(players(make_player, 4), format="round-robin", rated=True, start=False)
    tournament = section.tournament
    tournament.rating_period = "tournament"
    tournament.save()
    cs.start_round(section_id=section.pk, number=1, force=True)
    played, absent = _no_show_in_round_one(section)
    for _ in range(10):
        section.refresh_from_db()
        if section.status == "finished":
            break
        if not decide(section):
            cs.sweep()
    assert section.status == "finished"
    assert not RatingChange.objects.filter(game=absent.game_id).exists()
    rated_games = set(RatingChange.objects.values_list("game_id", flat=True))
    assert played.game_id in rated_games and len(rated_games) == 5  # six boards, one a no-show


def test_a_tournament_game_resigned_before_any_move_is_a_forfeit_and_unrated(make_player):
    """The league scores a game with no move as a forfeit, whatever ended it: so a
    resignation before the first move is unrated too (a lobby game's is rated)."""
    section = section_with(players(make_player, 2), format="swiss", rounds=1, rated=True)
    pairing = section.pairings.get()
    game = pairing.game
    game_services.resign(game_id=game.pk, user=game.seats.get(number=0).user)
    pairing.refresh_from_db()
    assert pairing.result in (Pairing.Result.FIRST_FORFEIT_WIN, Pairing.Result.SECOND_FORFEIT_WIN)
    assert not RatingChange.objects.filter(game=game).exists()
    recompute.recompute_all()
    assert not RatingChange.objects.filter(game=game).exists()
    note = rating_selectors.game_rating_note(Game.objects.get(pk=game.pk))
    assert note is not None and not note.rated and "forfeit" in note.text


def _ratings_of(*users):
    return [Rating.objects.get(user=u, list_key="league").rating for u in users]


@pytest.mark.parametrize("period", ["game", "tournament"])
def test_a_corrected_result_is_rated_as_if_it_had_been_the_result(make_player, period):
    """Two equal sections: in one the first player wins and the arbiter corrects it to a
    loss; in the other the first player loses. The ratings afterwards are the same."""
    def played(prefix, winner_first):
        users = players(make_player, 2, prefix=prefix)
        section = section_with(users, format="swiss", rounds=1, rated=True, start=False, tournament=prefix)
        section.tournament.rating_period = period
        section.tournament.save()
        cs.start_round(section_id=section.pk, number=1, force=True)
        pairing = section.pairings.get()
        decide(section, winner=lambda p: p.first_id if winner_first else p.second_id)
        pairing.refresh_from_db()
        return section, pairing

    _, pairing = played("cor", winner_first=True)
    first, second = pairing.first, pairing.second
    before = _ratings_of(first, second)
    assert before[0] > before[1]
    cs.correct_result(pairing_id=pairing.pk, result="0-1", reason="The scoresheet says Black won.")
    _, twin = played("twin", winner_first=False)
    assert _ratings_of(first, second) == _ratings_of(twin.first, twin.second)
    assert _ratings_of(first, second)[0] < _ratings_of(first, second)[1]
    assert RatingChange.objects.filter(game=pairing.game_id).count() == 2
