"""Rounds: withdrawals mid-event, idempotence (a round starts once, a result counts
once, tasks delivered twice), races on PostgreSQL, prizes, seasons and rating periods."""

from __future__ import annotations

from datetime import date, timedelta
from functools import partial

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Profile
from games.models import Game
from league import competitions as cs
from league import tasks
from league.competitions import notices as competition_notices
from league.competitions import selectors as sel
from league.models import (
    Entry,
    League,
    Pairing,
    PairingPlayer,
    PeriodGame,
    Prize,
    RatingChange,
    Round,
    Season,
    Section,
    Standing,
)
from tests.factories import SectionFactory, players, section_with
from tests.support import at_once

from .support import decide, run_decided

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def seeds_of(section):
    return {seed: user for user, seed in Entry.objects.filter(section=section).values_list("user_id", "seed")}


# -- withdrawals ------------------------------------------------------------------------


def test_a_swiss_withdrawal_mid_round_forfeits_the_game_and_is_never_paired_again(make_player):
    users = players(make_player, 6)
    section = section_with(users, format="swiss", rounds=4)
    decide(section)  # round 1
    assert section.round_set.get(number=2).status == Round.Status.IN_PLAY
    pairing = section.pairings.filter(round__number=2, status=Pairing.Status.IN_PLAY).first()
    quitter, opponent = pairing.first, pairing.second
    game = pairing.game
    cs.withdraw(section=section, user=quitter, reason="Feeling unwell")
    pairing.refresh_from_db()
    game.refresh_from_db()
    assert pairing.result == Pairing.Result.SECOND_FORFEIT_WIN
    assert (pairing.first_points, pairing.second_points) == (0.0, 1.0)
    assert game.status == Game.Status.ABORTED  # not begun: aborted, never rated
    sides = {s.user_id: s for s in pairing.players.all()}
    assert not sides[opponent.pk].played and not sides[opponent.pk].won  # FIDE: a forfeit win is unplayed
    run_decided(section)
    assert not PairingPlayer.objects.filter(round__section=section, round__number__gt=2, user=quitter).exists()
    table = {s.user_id: s for s in Standing.objects.filter(section=section)}
    assert quitter.pk in table  # withdrawn players stay in the final table
    # The opponent's forfeit win counts 1 point but not as a win over the board.
    mine = PairingPlayer.objects.filter(round__section=section, user=opponent)
    assert table[opponent.pk].points == sum(p.points for p in mine)
    assert table[opponent.pk].wins == mine.filter(won=True).count()


def test_a_round_robin_withdrawal_turns_the_remaining_games_into_forfeits(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="round-robin")
    decide(section)  # round 1 of 3
    quitter = users[0]
    cs.withdraw(section=section, user=quitter)
    run_decided(section)
    later = Pairing.objects.filter(section=section, round__number__gt=1).filter(first=quitter) | \
        Pairing.objects.filter(section=section, round__number__gt=1).filter(second=quitter)
    assert later.count() == 2
    for pairing in later:
        # Round 2 had started (its game is aborted, not begun); round 3 has no game at all.
        if pairing.round.number == 2:
            assert pairing.game.status == Game.Status.ABORTED
        else:
            assert pairing.game_id is None and pairing.match_id is None
        assert pairing.result in (Pairing.Result.FIRST_FORFEIT_WIN, Pairing.Result.SECOND_FORFEIT_WIN)
        assert (pairing.first_points if pairing.first_id == quitter.pk else pairing.second_points) == 0.0
    # Round 3's pairing, decided without a game, is told to each player as theirs: the
    # notice named nobody ("Second player won by forfeit").
    from accounts.models import Notice

    third = later.get(round__number=3)
    rival = third.second_id if third.first_id == quitter.pk else third.first_id
    told = Notice.objects.get(recipient_id=rival, data__round=3).message
    assert told.endswith("round 3: you won by forfeit.")
    assert Notice.objects.get(recipient=quitter, data__round=3).message.endswith("round 3: you lost by forfeit.")


def test_a_knockout_withdrawal_sends_the_opponent_through(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="single-elimination")
    seeds = seeds_of(section)
    cs.withdraw(section=section, user=users[[u.pk for u in users].index(seeds[4])])
    run_decided(section)
    table = dict(Standing.objects.filter(section=section).values_list("user_id", "rank"))
    assert table[seeds[1]] == 1  # the higher seed wins every decided game
    assert table[seeds[4]] == 3  # out in the semi-final, by forfeit


# -- idempotence --------------------------------------------------------------------------


def test_start_round_twice_and_the_task_delivered_twice_pair_once(make_player):
    section = section_with(players(make_player, 6), format="swiss", rounds=3, start=False)
    first = cs.start_round(section_id=section.pk, number=1, force=True)
    games = Game.objects.count()
    again = cs.start_round(section_id=section.pk, number=1, force=True)
    tasks.start_round.apply(args=(section.pk, 1))
    tasks.start_round.apply(args=(section.pk, 1))
    assert first.pk == again.pk
    assert Game.objects.count() == games == 3
    assert Pairing.objects.filter(section=section).count() == 3
    assert Round.objects.filter(section=section).count() == 1


def test_a_result_delivered_twice_counts_once_and_schedules_the_next_round_once(make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    decide(section)
    section.refresh_from_db()
    round_two = Round.objects.get(section=section, number=2)
    before = list(PairingPlayer.objects.filter(round__number=1, round__section=section)
                  .order_by("pk").values_list("points", flat=True))
    for pairing in Pairing.objects.filter(section=section, round__number=1):
        tasks.record_game_result.apply(args=(pairing.game_id,))
        cs.record_game_result(game_id=pairing.game_id)
    after = list(PairingPlayer.objects.filter(round__number=1, round__section=section)
                 .order_by("pk").values_list("points", flat=True))
    assert before == after
    assert Round.objects.filter(section=section, number=2).get().pk == round_two.pk
    assert Pairing.objects.filter(section=section, round__number=2).count() == 2


def test_a_round_starting_early_waits_unless_forced(make_player):
    section = section_with(players(make_player, 4), format="round-robin", start=False, starts_in=600)
    assert cs.start_round(section_id=section.pk, number=1) is None
    assert Round.objects.get(section=section, number=1).status == Round.Status.SCHEDULED


def test_the_database_refuses_a_second_pairing_for_a_player_in_a_round(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="swiss", rounds=2)
    round_one = section.round_set.get(number=1)
    taken = round_one.players.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        other = Pairing.objects.create(round=round_one, section=section, board=99, first=taken.user)
        PairingPlayer.objects.create(round=round_one, pairing=other, user=taken.user, moves_first=True)


@pytest.mark.postgres
def test_two_workers_starting_the_same_round_at_once_pair_it_once(make_player):
    section = section_with(players(make_player, 8), format="swiss", rounds=3, start=False)
    _, errors = at_once(*[partial(cs.start_round, section_id=section.pk, number=1, force=True)] * 4)
    assert not errors
    assert Pairing.objects.filter(section=section).count() == 4
    assert PairingPlayer.objects.filter(round__section=section).count() == 8
    assert Game.objects.count() == 4


@pytest.mark.postgres
def test_two_workers_recording_the_last_results_at_once_start_the_next_round_once(make_player):
    from games.signals import game_finished
    from league import signals

    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    # Results are recorded by the racing threads below, not by the signal's tasks.
    game_finished.disconnect(dispatch_uid="league.score_pairing")
    game_finished.disconnect(dispatch_uid="league.rate_finished_game")
    try:
        game_ids = []
        for pairing in Pairing.objects.filter(section=section, round__number=1):
            game_ids.append(pairing.game_id)
        from games import services as game_services

        for game_id in game_ids:
            game = Game.objects.get(pk=game_id)
            seat = game.seats.get(number=1)
            game_services.resign(game_id=game_id, user=seat.user)
        _, errors = at_once(*[partial(cs.record_game_result, game_id=g) for g in game_ids * 2])
        assert errors == []
    finally:
        game_finished.connect(signals.on_game_finished, dispatch_uid="league.rate_finished_game")
        game_finished.connect(signals.on_game_finished_for_competitions, dispatch_uid="league.score_pairing")
    assert Round.objects.filter(section=section, number=2).count() == 1
    assert Pairing.objects.filter(section=section, round__number=1, status="finished").count() == 2


# -- prizes, seasons, rating periods -------------------------------------------------------


def test_place_age_and_rating_prizes_one_per_player(make_player):
    from league.models import Rating

    kid = make_player(born=date(2016, 3, 3))
    adults = players(make_player, 3)
    everyone = [*adults, kid]
    for value, user in zip([1800, 1700, 1300, 1200], everyone):
        Rating.objects.create(user=user, variant="classic", list_key="league", rating=value)
    section = section_with(everyone, format="round-robin", start=False)
    cs.add_prize(section=section, label="1st")
    cs.add_prize(section=section, kind="age", age_under=12, label="Best U12")
    cs.add_prize(section=section, kind="rating", rating_below=1500, label="Best under 1500")
    with pytest.raises(ServiceError, match="one group"):
        cs.add_prize(section=section, kind="age", label="Best junior")
    cs.start_round(section_id=section.pk, number=1, force=True)
    run_decided(section)  # the higher seed (higher rating) wins every game
    prizes = {p.label: p.winner_id for p in Prize.objects.filter(section=section)}
    assert prizes["1st"] == adults[0].pk
    assert prizes["Best U12"] == kid.pk
    assert prizes["Best under 1500"] == adults[2].pk  # the kid already has a prize


def test_season_standings_add_up_the_tournaments(make_player):
    users = players(make_player, 3)
    section_a = section_with(users, format="round-robin", start=False)
    club = section_a.tournament.club
    league = League.objects.create(club=club, name="League", slug="league")
    season = Season.objects.create(league=league, name="2026", slug="2026", year=2026,
                                   scoring=Season.Scoring.PLACE_POINTS, place_points=[10, 6, 4])
    section_a.tournament.season = season
    section_a.tournament.save()
    cs.start_round(section_id=section_a.pk, number=1, force=True)
    run_decided(section_a)
    section_b = SectionFactory.create(tournament__club=club, tournament__name="Second", tournament__starts_at=timezone.now(),
                                      tournament__season=season, format="round-robin",
                                      starts_at=timezone.now() + timedelta(minutes=5), players=users)
    cs.start_round(section_id=section_b.pk, number=1, force=True)
    run_decided(section_b, winner=lambda p: max(p.first_id, p.second_id))  # another winner
    rows = sel.season_standings(season)
    assert [r.tournaments for r in rows] == [2, 2, 2]
    ranks_a = dict(Standing.objects.filter(section=section_a).values_list("user_id", "rank"))
    ranks_b = dict(Standing.objects.filter(section=section_b).values_list("user_id", "rank"))
    expected = {u.pk: [10, 6, 4][ranks_a[u.pk] - 1] + [10, 6, 4][ranks_b[u.pk] - 1] for u in users}
    assert {r.user_id: r.points for r in rows} == expected
    # Named as every other table names players: by display name.
    Profile.objects.filter(user=users[0]).update(display_name="Ada Lovelace")
    assert {r.user_id: r.name for r in sel.season_standings(season)} == {
        users[0].pk: "Ada Lovelace", users[1].pk: users[1].username, users[2].pk: users[2].username}


def test_a_tournament_rating_period_rates_its_games_together_at_the_end(one_period_round_robin):
    section = one_period_round_robin
    tournament = section.tournament
    assert PeriodGame.objects.count() >= 1
    assert not RatingChange.objects.exists()  # kept out of live ratings
    run_decided(section)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    periods = set(RatingChange.objects.values_list("period", flat=True))
    assert periods == {tournament.rating_period_key}
    assert RatingChange.objects.count() == 2 * 3  # three games, two players each


def test_a_player_who_never_moves_forfeits_after_the_grace_period(make_player):
    import random

    from games import services as game_services
    from games.rules import get_variant

    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    pairing = section.pairings.get()
    game = pairing.game
    mover = game.seats.get(number=0)
    variant = get_variant(game.variant)
    move = variant.random_move(variant.load(game.state), 0, random.Random(3))
    game = game_services.submit_move(game_id=game.pk, user=mover.user, ply=0, move=move)
    grace = timedelta(seconds=section.rule_set.no_show_seconds)
    assert cs.forfeit_no_show(pairing_id=pairing.pk, now=game.turn_started_at + grace - timedelta(seconds=1)) is None
    cs.sweep(now=game.turn_started_at + grace + timedelta(seconds=1))
    pairing.refresh_from_db()
    absent = game.seats.get(number=1).user_id
    assert pairing.status == Pairing.Status.FINISHED
    assert pairing.result == (Pairing.Result.SECOND_FORFEIT_WIN if absent == pairing.first_id
                              else Pairing.Result.FIRST_FORFEIT_WIN)
    assert not pairing.players.filter(played=True).exists()
    assert not RatingChange.objects.filter(game=game).exists()  # a forfeit is not rated
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED


def test_players_cannot_abort_a_tournament_game_or_match_and_an_old_abort_is_created_again(make_player):
    """The attacker probe's find: aborting a tournament game made a new one with a new draw
    of who moves first, as often as a player liked (and reset the no-show grace); an
    aborted match game left its pairing in play for good. The pairing stands now."""
    from games import rule_sets as game_rule_sets
    from games import services as game_services

    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    pairing = section.pairings.get()
    old = pairing.game
    for user in (pairing.first, pairing.second):
        with pytest.raises(ServiceError) as refused:
            game_services.abort(game_id=old.pk, user=user)
        assert refused.value.code == "no-abort" and "the pairing stands" in refused.value.message
    old.refresh_from_db()
    assert old.status == Game.Status.ACTIVE and cs.sweep()["restarted"] == 0
    # A game aborted before players were refused (an earlier release's) is created again.
    Game.objects.filter(pk=old.pk).update(status=Game.Status.ABORTED)
    assert cs.sweep()["restarted"] == 1
    pairing.refresh_from_db()
    assert pairing.game_id != old.pk and pairing.game.status == Game.Status.ACTIVE
    assert pairing.status == Pairing.Status.IN_PLAY

    best_of_3 = game_rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    matched = section_with(players(make_player, 2, prefix="m"), format="round-robin", rule_set=best_of_3)
    first_game = matched.pairings.get().match.games.get()
    with pytest.raises(ServiceError, match="the pairing stands"):
        game_services.abort(game_id=first_game.pk, user=first_game.seats.get(number=0).user)


def test_players_are_told_their_pairing_on_their_own_group(make_player, monkeypatch):
    sent = []
    monkeypatch.setattr(competition_notices, "send_to_groups", sent.extend)  # what goes to the channel layer, after commit
    from accounts import notices as account_notices
    from accounts.realtime import user_group

    monkeypatch.setattr(account_notices, "send_to_groups", sent.extend)  # the stored notices' live hints

    users = players(make_player, 2)
    section = section_with(users, format="swiss", rounds=1, start=False)
    cs.start_round(section_id=section.pk, number=1, force=True)
    game = Pairing.objects.get(section=section).game
    notices = {group: message for group, message in sent if message["type"] == "user.notice"}
    assert set(notices) == {user_group(u.pk) for u in users}
    message = notices[user_group(users[0].pk)]
    assert message["event"] == message["kind"] == "pairing" and message["section"] == section.pk
    assert message["id"] and message["unread"] == 1
    assert message["game"] == game.pk and message["url"] == f"/play/{game.pk}/"
    assert "your game is ready" in message["message"]
    assert (f"section-{section.pk}", {"type": "section.update", "section": section.pk,
                                        "event": "round-started", "round": 1}) in sent


def test_a_draft_tournament_waits_and_the_sweep_starts_it_once_published(make_player):
    from league.models import Tournament

    section = section_with(players(make_player, 2), format="swiss", rounds=1, start=False)
    tournament = section.tournament
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DRAFT)
    later = section.starts_at + timedelta(seconds=5)
    assert cs.start_round(section_id=section.pk, number=1, now=later) is None
    assert cs.sweep(now=later)["rounds"] == 0
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    assert cs.sweep(now=later)["rounds"] == 1
    assert Pairing.objects.filter(section=section).count() == 1


def test_a_knockout_drawn_every_replay_goes_through_on_seed_and_counts_no_win(make_player):
    """The organiser walkthrough's find: the seed's decision read "won" on the bracket and
    counted a game won over the board (the "wins" tie-break), though every game was drawn."""
    from games import services as game_services
    from league.competitions import event_selectors
    from league.models import Pairing, PairingPlayer

    users = players(make_player, 2)
    section = section_with(users, format="single-elimination")
    seeds = seeds_of(section)
    drawing = [1, 2, 3, 5, 4, 6, 8, 7, 9]  # a classic game that ends drawn
    for _ in range(20):
        pairing = Pairing.objects.get(section=section)
        if pairing.status == Pairing.Status.FINISHED:
            break
        game = pairing.game
        for ply, cell in enumerate(drawing):
            game.refresh_from_db()
            mover = game.seats.get(number=game.to_move[0]).user
            game_services.submit_move(game_id=game.pk, user=mover, ply=ply, move={"cell": cell})
        cs.sweep()
    pairing = Pairing.objects.get(section=section)
    assert pairing.status == Pairing.Status.FINISHED
    winner = seeds[1]
    assert (pairing.first_id if pairing.result == Pairing.Result.FIRST_WON else pairing.second_id) == winner
    assert not PairingPlayer.objects.filter(pairing=pairing, won=True).exists()
    words = [b.result for r in event_selectors.rounds(section) for b in r.boards]
    assert words and all("through on seed (drawn every replay)" in w for w in words)
