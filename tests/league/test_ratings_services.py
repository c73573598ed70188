"""Ratings through the real stack: games finished by games.services, the signal, the
Celery task, tournament periods, club lists, adjustments and the full recompute."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import IntegrityError, transaction

from accounts.errors import ServiceError
from games import rule_sets as game_rule_sets
from games import services as game_services
from games.models import Game
from league import tasks
from league.models import PeriodGame, Rating, RatingAdjustment, RatingChange
from league.ratings import recompute
from league.ratings import services as rating_services
from tests.factories import ClubFactory, GameFactory, finished_game
from tests.support import at_once

from .support import snapshot

pytestmark = pytest.mark.django_db


def test_a_finished_rated_game_is_rated_by_the_task_queued_on_commit(
    make_player, eager_celery, django_capture_on_commit_callbacks
):
    a, b = make_player(), make_player()
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory.create(creator=a, opponent=b, rated=True)
    assert not RatingChange.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(game_id=game.pk, user=b)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {a.pk, b.pk}
    assert changes[a.pk].score == 1.0 and changes[b.pk].score == 0.0
    assert changes[a.pk].rating_after > changes[a.pk].rating_before
    # The loser has scored nothing yet: FIDE disregards that, still 1800 and unrated.
    assert changes[b.pk].rating_after == changes[b.pk].rating_before == 1800
    rating = Rating.objects.get(user=a, variant="classic", list_key="league")
    assert rating.games == 1 and rating.provisional


def test_unrated_and_ai_games_are_not_rated(make_player, eager_celery, django_capture_on_commit_callbacks):
    a, b = make_player(), make_player()
    with pytest.raises(ServiceError) as refused:
        game_services.create_game(creator=a, variant="classic", ai_level="random", rated=True)
    assert refused.value.code == "ai-not-rated"
    with django_capture_on_commit_callbacks(execute=True):
        unrated = finished_game(a, b, rated=False)
        ai_game = game_services.create_game(creator=a, variant="classic", ai_level="random")
        # A row flagged rated by hand (the admin, old data): the AI seat still keeps it out.
        Game.objects.filter(pk=ai_game.pk).update(rated=True)
        game_services.resign(game_id=ai_game.pk, user=a)
    assert rating_services.rate_game(game_id=unrated.pk) == 0
    assert rating_services.rate_game(game_id=ai_game.pk) == 0
    assert not RatingChange.objects.exists()


def test_the_task_applies_a_game_once_however_often_it_runs(make_player):
    a, b = make_player(), make_player()
    game = finished_game(a, b)
    for _ in range(3):  # a redelivery, a duplicate, a retry
        tasks.rate_game.apply(args=[game.pk])
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=a, list_key="league").games == 1
    # And the database itself refuses a second change for the same (game, player, list).
    change = RatingChange.objects.get(game=game, user=a)
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_a_task_that_fails_after_writing_leaves_nothing_and_its_retry_applies_once(make_player, monkeypatch):
    a, b = make_player(), make_player()
    game = finished_game(a, b)
    calls = []

    def crash_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            assert RatingChange.objects.filter(game=game).count() == 2  # written, not committed
            raise ConnectionError("the worker lost its database mid-task")

    apply_periods = rating_services._apply_periods

    def apply_then_crash_once(*args, **kwargs) -> None:  # the seam: after a game's rows are written
        apply_periods(*args, **kwargs)
        crash_once()

    monkeypatch.setattr(rating_services, "_apply_periods", apply_then_crash_once)
    with pytest.raises(ConnectionError):
        rating_services.rate_game(game_id=game.pk)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert rating_services.rate_game(game_id=game.pk) == 1
    assert rating_services.rate_game(game_id=game.pk) == 0
    assert RatingChange.objects.filter(game=game).count() == 2


def test_games_are_rated_in_the_order_they_ended(make_player):
    a, b, c = make_player(), make_player(), make_player()
    first = finished_game(a, b)
    second = finished_game(a, c)
    # The task for the later game comes first: it rates the earlier one before it.
    assert rating_services.rate_game(game_id=second.pk) == 2
    assert rating_services.rate_game(game_id=first.pk) == 0
    a_changes = list(RatingChange.objects.filter(user=a).order_by("sequence"))
    assert [ch.game_id for ch in a_changes] == [first.pk, second.pk]
    assert a_changes[1].rating_before == a_changes[0].rating_after


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_on_one_game_apply_it_once(make_player):
    a, b = make_player(), make_player()
    game = finished_game(a, b)
    results, _ = at_once(*[partial(rating_services.rate_game, game_id=game.pk)] * 4)
    assert sorted(results) == [0, 0, 0, 1]
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_club_with_its_own_list_rates_its_members_games_with_its_system(make_player):
    a, b, c = make_player(), make_player(), make_player()
    club = ClubFactory.create(name="Glickers", slug="glickers", rating_system="glicko2", own_rating_list=True,
                              members=[a, b])
    inside = finished_game(a, b)
    outside = finished_game(a, c)
    rating_services.rate_game(game_id=outside.pk)
    club_list = f"club-{club.pk}"
    assert set(RatingChange.objects.filter(game=inside).values_list("list_key", "system")) == {
        ("league", "elo"), (club_list, "glicko2")}
    assert not RatingChange.objects.filter(game=outside, list_key=club_list).exists()
    club_rating = Rating.objects.get(user=a, list_key=club_list)
    assert club_rating.rating > 1500 and club_rating.rd < 350 and club_rating.provisional


def test_a_tournament_period_uses_the_ratings_from_before_it(make_player):
    a, b, c = make_player(), make_player(), make_player()
    games = [finished_game(a, b), finished_game(a, c)]
    rating_services.defer_to_period(games=games, key="tournament-1", name="Cup")
    assert rating_services.rate_game(game_id=games[1].pk) == 0  # left to the period
    assert rating_services.rate_period(games, key="tournament-1") == 2
    assert rating_services.rate_period(games, key="tournament-1") == 0  # applied once
    a_changes = RatingChange.objects.filter(user=a).order_by("sequence")
    assert [ch.rating_before for ch in a_changes] == [1800.0, 1800.0]  # both from before
    assert {ch.period for ch in a_changes} == {"tournament-1"}
    assert Rating.objects.get(user=a, list_key="league").games == 2


def test_a_manual_adjustment_needs_a_reason_and_is_kept_in_the_audit_log(make_player):
    a, b = make_player(), make_player()
    rating_services.rate_game(game_id=finished_game(a, b).pk)
    rating = Rating.objects.get(user=a, list_key="league")
    with pytest.raises(ServiceError):
        rating_services.adjust_rating(rating=rating, new_rating=1900, reason="  ", made_by=b)
    adjustment = rating_services.adjust_rating(rating=rating, new_rating=1900, reason="Cheating refund", made_by=b)
    assert RatingAdjustment.objects.get().reason == "Cheating refund"
    assert adjustment.rating_after == 1900 and Rating.objects.get(pk=rating.pk).rating == 1900
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingAdjustment.objects.create(user=a, variant="classic", list_key="league", rating_before=1,
                                        rating_after=2, reason="")


def test_the_recompute_gives_the_same_numbers_as_the_incremental_path(make_player):
    players = [make_player() for _ in range(6)]
    ClubFactory.create(name="Own list", slug="own", rating_system="glicko2", own_rating_list=True, members=players[:4])
    pairs = [(i, j) for i in range(6) for j in range(6) if i != j]
    for round_number in range(3):
        for number, (i, j) in enumerate(pairs[round_number::3]):
            game = finished_game(players[i], players[j], variant="classic" if number % 3 else "nine-square")
            rating_services.rate_game(game_id=game.pk)
        if round_number == 1:
            row = Rating.objects.filter(list_key="league").order_by("pk").first()
            rating_services.adjust_rating(rating=row, new_rating=row.rating + 40, reason="Appeal upheld",
                                          made_by=None)
    tournament = [finished_game(players[0], players[5]), finished_game(players[1], players[0])]
    rating_services.defer_to_period(games=tournament, key="tournament-9")
    rating_services.rate_period(tournament, key="tournament-9")
    rating_services.rate_game(game_id=finished_game(players[2], players[3]).pk)
    before = snapshot()
    assert len(before[0]) > 80 and any(row[2] != "league" for row in before[0])
    assert any(not r[10] for r in before[1])  # someone established
    seen = []
    result = recompute.recompute_all(progress=lambda done, total: seen.append((done, total)))
    assert result.games == Game.objects.filter(rated=True).count()
    assert seen[-1] == (result.games, result.games)
    assert snapshot() == before


def test_a_task_catches_up_only_within_its_window_and_every_game_is_rated_by_its_own(make_player):
    a, b, c = make_player(), make_player(), make_player()
    old = finished_game(a, b)
    Game.objects.filter(pk=old.pk).update(finished_at=old.finished_at - rating_services.CATCH_UP_WINDOW * 2)
    recent = finished_game(a, c)
    assert rating_services.rate_game(game_id=recent.pk) == 1  # the old game is out of its window
    assert not RatingChange.objects.filter(game=old).exists()
    assert rating_services.rate_game(game_id=old.pk) == 1  # its own task still rates it


def test_every_game_of_a_match_in_a_tournament_period_is_rated_with_the_period(make_player):
    a, b, c = make_player(), make_player(), make_player()
    rating_services.rate_game(game_id=finished_game(a, c).pk)  # a rating from before the tournament
    rules = game_rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    first = game_services.create_game(creator=a, rule_set=rules, opponent=b, rated=True)
    game_services.accept_challenge(game_id=first.pk, user=b)
    rating_services.defer_to_period(games=[first], key="tournament-3", name="Match cup")
    match_games = []
    for loser in (b, a, b):  # 1-1 after two games: all three are played
        current = first.match.games.order_by("-number_in_match").first()
        game_services.resign(game_id=current.pk, user=loser)
        match_games.append(current.pk)
        assert rating_services.rate_game(game_id=current.pk) == 0  # held for the period
    assert not RatingChange.objects.filter(game_id__in=match_games).exists()
    assert rating_services.rate_period([first], key="tournament-3") == 3  # the later games follow the first
    changes = RatingChange.objects.filter(game_id__in=match_games, user=a)
    assert {ch.period for ch in changes} == {"tournament-3"} and changes.count() == 3
    assert len({ch.rating_before for ch in changes}) == 1  # all three from before the period
    before = snapshot()
    recompute.recompute_all()
    assert snapshot() == before


def test_a_game_already_rated_or_in_another_period_cannot_be_deferred(make_player):
    a, b = make_player(), make_player()
    rated = finished_game(a, b)
    rating_services.rate_game(game_id=rated.pk)
    with pytest.raises(ServiceError) as refused:
        rating_services.defer_to_period(games=[rated], key="tournament-1")
    assert refused.value.code == "already-rated"
    waiting = game_services.create_game(creator=a, variant="classic", opponent=b, rated=True)
    rating_services.defer_to_period(games=[waiting], key="tournament-1")
    rating_services.defer_to_period(games=[waiting], key="tournament-1")  # again: nothing new
    with pytest.raises(ServiceError) as refused:
        rating_services.defer_to_period(games=[waiting], key="tournament-2")
    assert refused.value.code == "in-another-period"
    assert list(PeriodGame.objects.values_list("game_id", "period__key")) == [(waiting.pk, "tournament-1")]


def test_the_recompute_command_shows_a_progress_bar_and_keeps_the_numbers(make_player, capsys):
    from django.core.management import call_command

    a, b, c = make_player(), make_player(), make_player()
    for winner, loser in ((a, b), (b, c), (c, a), (a, c)):
        rating_services.rate_game(game_id=finished_game(winner, loser).pk)
    before = snapshot()
    call_command("recompute_ratings")
    out, err = capsys.readouterr()
    assert "Rated 4 games (8 rating changes)" in out
    assert "4/4" in err and "game" in err  # tqdm's bar, on stderr
    assert snapshot() == before


def test_a_junior_keeps_k_40_after_30_games_through_the_year_of_the_18th_birthday(make_player):
    from datetime import date

    from django.utils import timezone

    this_year = timezone.now().year
    # Both are 18 today (unless today is 31 December); only one turns 18 this year.
    junior = make_player(born=date(this_year - 18, 1, 1))
    adult = make_player(born=date(this_year - 19, 12, 31))
    for user in (junior, adult):  # established, 40 games, 2000: K would be 20 for an adult
        Rating.objects.create(user=user, variant="classic", list_key="league", rating=2000.0, games=40,
                              established=True, provisional=False)
    game = finished_game(junior, adult)
    rating_services.rate_game(game_id=game.pk)
    k = dict(RatingChange.objects.filter(game=game).values_list("user_id", "k"))
    assert k == {junior.pk: 40, adult.pk: 20}
    assert Rating.objects.get(user=junior).rating == 2020.0 and Rating.objects.get(user=adult).rating == 1990.0
