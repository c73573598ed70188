"""league's public operations: pause and resume a section, pair a round again,
forfeit, adjudicate and correct through services (moderation's console calls these),
and slugs the pages' own routes use."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.errors import ServiceError
from games import rule_sets as game_rule_sets
from games import services as game_services
from games.models import Game
from league import competitions as cs
from league.models import Entry, Pairing, PairingPlayer, Round, Section
from tests.factories import players, section_with

from .support import one_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def refused(code, call, **kwargs):
    before = (list(Pairing.objects.order_by("pk").values_list("pk", "status", "result")),
              list(Round.objects.order_by("pk").values_list("status", flat=True)),
              list(Section.objects.order_by("pk").values_list("paused_at", flat=True)),
              list(Game.objects.order_by("pk").values_list("status", flat=True)))
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.message
    after = (list(Pairing.objects.order_by("pk").values_list("pk", "status", "result")),
             list(Round.objects.order_by("pk").values_list("status", flat=True)),
             list(Section.objects.order_by("pk").values_list("paused_at", flat=True)),
             list(Game.objects.order_by("pk").values_list("status", flat=True)))
    assert after == before


# -- pause and resume -----------------------------------------------------------------------


def test_a_paused_section_starts_no_round_until_resumed_then_starts_what_fell_due(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1, start=False, starts_in=60)
    round_1 = section.round_set.get(number=1)
    cs.pause_section(section_id=section.pk)
    refused("already-paused", cs.pause_section, section_id=section.pk)
    later = round_1.starts_at + timedelta(minutes=5)
    assert cs.start_round(section_id=section.pk, number=1, now=later) is None
    assert cs.start_round(section_id=section.pk, number=1, now=later, force=True) is None  # "start now" waits too
    assert cs.sweep(now=later)["rounds"] == 0
    round_1.refresh_from_db()
    assert round_1.status == Round.Status.SCHEDULED and not round_1.pairings.exists()

    Round.objects.filter(pk=round_1.pk).update(starts_at=timezone.now() - timedelta(seconds=5))  # due now
    cs.resume_section(section_id=section.pk)  # on commit: league.start_round (eager here)
    round_1.refresh_from_db()
    section.refresh_from_db()
    assert section.paused_at is None and section.resumed_at is not None
    assert round_1.status == Round.Status.IN_PLAY and round_1.pairings.count() == 1
    refused("not-paused", cs.resume_section, section_id=section.pk)


def test_a_paused_section_forfeits_no_no_show_and_the_grace_restarts_at_resume(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    pairing = section.pairings.get()
    game = one_move(pairing.game)  # the second player never moves
    grace = timedelta(seconds=section.rule_set.no_show_seconds)
    long_after = game.turn_started_at + grace + timedelta(minutes=1)
    cs.pause_section(section_id=section.pk, now=game.turn_started_at)
    assert cs.forfeit_no_show(pairing_id=pairing.pk, now=long_after) is None
    assert cs.sweep(now=long_after)["no_shows"] == 0
    resumed = cs.resume_section(section_id=section.pk, now=long_after).resumed_at
    assert cs.forfeit_no_show(pairing_id=pairing.pk, now=resumed + grace - timedelta(seconds=1)) is None
    assert cs.forfeit_no_show(pairing_id=pairing.pk, now=resumed + grace + timedelta(seconds=1)) is not None
    pairing.refresh_from_db()
    game.refresh_from_db()
    assert pairing.status == Pairing.Status.FINISHED and not pairing.players.filter(played=True).exists()
    assert game.status == Game.Status.FINISHED and not game.rated and "did not show up" in game.end_reason


def test_results_of_games_in_play_count_while_paused_but_the_next_round_waits(make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=2)
    cs.pause_section(section_id=section.pk)
    for pairing in section.pairings.filter(round__number=1):
        game = one_move(pairing.game)
        game_services.resign(game_id=game.pk, user=game.seats.get(number=game.to_move[0]).user)
    round_1, round_2 = section.round_set.get(number=1), section.round_set.get(number=2)
    assert round_1.status == Round.Status.FINISHED
    assert round_2.status == Round.Status.SCHEDULED and not round_2.pairings.exists()
    cs.resume_section(section_id=section.pk)
    round_2.refresh_from_db()
    assert round_2.status == Round.Status.IN_PLAY and round_2.pairings.count() == 2


def test_a_paused_arena_pairs_nobody_until_resumed(make_player):
    section = section_with(players(make_player, 4), format="arena", arena_duration=timedelta(minutes=5))
    cs.pause_section(section_id=section.pk)
    waves = section.round_set.count()
    for pairing in section.pairings.all():  # their results count; nobody is paired again
        game = one_move(pairing.game)
        game_services.resign(game_id=game.pk, user=game.seats.get(number=game.to_move[0]).user)
    assert cs.pair_arena(section_id=section.pk) is None
    assert section.round_set.count() == waves
    assert not section.pairings.exclude(status=Pairing.Status.FINISHED).exists()
    cs.resume_section(section_id=section.pk)  # queues a wave (run at once: Celery eager)
    assert section.round_set.count() == waves + 1
    assert section.pairings.filter(status=Pairing.Status.IN_PLAY).count() == 2


def test_a_finished_section_cannot_be_paused(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    cs.forfeit_pairing(pairing_id=section.pairings.get().pk, loser="both", reason="Both absent")
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    refused("section-over", cs.pause_section, section_id=section.pk)


# -- pairing a round again --------------------------------------------------------------------


def test_re_pairing_leaves_out_a_player_withdrawn_before_any_move(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="swiss", rounds=3)
    round_1 = section.round_set.get(number=1)
    old_games = list(Game.objects.filter(pk__in=round_1.pairings.values("game_id")))
    quitter = users[3]
    cs.withdraw(section=section, user=quitter, reason="Left before the start")
    cs.repair_round(round_id=round_1.pk)
    round_1.refresh_from_db()
    assert round_1.status == Round.Status.IN_PLAY
    paired = set(PairingPlayer.objects.filter(round=round_1).values_list("user_id", flat=True))
    assert paired == {u.pk for u in users[:3]}  # two on a board, one with the bye
    assert round_1.pairings.filter(second__isnull=True).count() == 1
    assert all(Game.objects.get(pk=g.pk).status == Game.Status.ABORTED for g in old_games)
    new_game = round_1.pairings.exclude(game__isnull=True).get().game
    assert new_game.status == Game.Status.ACTIVE and new_game.pk not in {g.pk for g in old_games}


def test_re_pairing_is_refused_once_a_move_is_made_and_for_rounds_not_started(make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    round_1 = section.round_set.get(number=1)
    one_move(round_1.pairings.first().game)
    refused("round-under-way", cs.repair_round, round_id=round_1.pk)
    later = section_with(players(make_player, 2, prefix="q"), format="swiss", rounds=1, start=False)
    refused("not-paired", cs.repair_round, round_id=later.round_set.get(number=1).pk)
    arena = section_with(players(make_player, 2, prefix="a"), format="arena")
    refused("arena", cs.repair_round, round_id=arena.round_set.first().pk)
    refused("no-such-round", cs.repair_round, round_id=10**9)


def test_re_pairing_a_round_robin_keeps_the_berger_table(make_player):
    section = section_with(players(make_player, 4), format="round-robin")
    round_1 = section.round_set.get(number=1)
    before = sorted(round_1.pairings.values_list("board", "first_id", "second_id"))
    cs.repair_round(round_id=round_1.pk)
    assert sorted(round_1.pairings.values_list("board", "first_id", "second_id")) == before
    assert Entry.objects.filter(section=section, status=Entry.Status.WITHDRAWN).count() == 0


# -- the public result services ------------------------------------------------------------------


def test_forfeit_pairing_of_a_begun_game_is_unrated_and_scored_unplayed(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    pairing = section.pairings.get()
    game = one_move(pairing.game)
    assert game.rated
    refused("bad-loser", cs.forfeit_pairing, pairing_id=pairing.pk, loser="nobody")
    cs.forfeit_pairing(pairing_id=pairing.pk, loser="first", reason="Left the hall")
    game.refresh_from_db()
    pairing.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rated and "Left the hall" in game.end_reason
    assert game.seats.get(number=game.winner_seat).user_id == pairing.second_id
    assert pairing.result == Pairing.Result.SECOND_FORFEIT_WIN
    refused("already-scored", cs.forfeit_pairing, pairing_id=pairing.pk, loser="second")


def test_adjudicating_a_game_in_play_ends_it_rated(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    pairing = section.pairings.get()
    game = one_move(pairing.game)
    refused("game-in-play", cs.adjudicate_pairing, pairing_id=pairing.pk, result="draw")
    cs.adjudicate_pairing(pairing_id=pairing.pk, result="1-0", reason="Mate in one on the board")
    game.refresh_from_db()
    assert game.rated and game.status == Game.Status.FINISHED
    assert game.seats.get(number=game.winner_seat).user_id == pairing.first_id


def test_games_correct_result_refuses_a_game_in_play_and_a_match_game(make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    game = section.pairings.get().game
    with pytest.raises(ServiceError) as err:
        game_services.correct_result(game_id=game.pk, winner_seat=0, reason="x")
    assert err.value.code == "not-finished"
    with pytest.raises(ServiceError) as err:
        game_services.forfeit(game_id=game.pk, seat=2, reason="x")
    assert err.value.code == "bad-seat"


def test_a_knockout_match_is_never_decided_as_a_draw_or_a_double_forfeit(make_player):
    """An arbiter's 'both lose' in a knockout used to send the lower seed, who had not
    withdrawn, on to the next round (the bracket read 0-0 as the second player's win)."""
    section = section_with(players(make_player, 4), format="single-elimination")
    pairing = section.pairings.order_by("board").first()
    refused("one-goes-through", cs.forfeit_pairing, pairing_id=pairing.pk, loser="both")
    refused("one-goes-through", cs.adjudicate_pairing, pairing_id=pairing.pk, result="draw")
    cs.forfeit_pairing(pairing_id=pairing.pk, loser="second", reason="Both absent: the lower seed forfeits")
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.FIRST_FORFEIT_WIN


def test_both_players_of_a_knockout_match_withdrawn_send_the_higher_seed_on_to_forfeit(make_player):
    """Seeds 1 and 4 win round 1, then both withdraw: their semi-final is a double
    forfeit, the higher seed goes through (as after every replay drawn) and forfeits the
    final."""
    section = section_with(players(make_player, 8), format="single-elimination")
    seeds = dict(Entry.objects.filter(section=section).values_list("seed", "user"))
    first_round = {p.first_id: p for p in section.pairings.filter(round__number=1)}  # the higher seed first
    for seed in (1, 4):
        cs.adjudicate_pairing(pairing_id=first_round[seeds[seed]].pk, result="1-0")
        cs.withdraw(section=section, user=Entry.objects.get(section=section, seed=seed).user, reason="Ill")
    for seed in (2, 3):
        cs.adjudicate_pairing(pairing_id=first_round[seeds[seed]].pk, result="1-0")
    both_out = section.pairings.get(round__number=2, first_id=seeds[1])
    assert both_out.second_id == seeds[4] and both_out.result == Pairing.Result.DOUBLE_FORFEIT
    other = section.pairings.get(round__number=2, first_id=seeds[2])
    cs.adjudicate_pairing(pairing_id=other.pk, result="1-0")
    final = section.pairings.get(round__number=3)
    assert (final.first_id, final.second_id) == (seeds[1], seeds[2])
    assert final.result == Pairing.Result.SECOND_FORFEIT_WIN
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED


# -- slugs the routes use ------------------------------------------------------------------------


def test_reserved_slugs_take_a_number(client, make_player):
    from league.models import Club

    club = Club.objects.create(name="Slug club", slug="slug-club")
    start = timezone.now() + timedelta(days=3)
    shadowed = cs.create_tournament(club=club, name="New tournament", starts_at=start)
    leagues = cs.create_tournament(club=club, name="Leagues", starts_at=start)
    assert shadowed.slug == "new-tournament-2" and leagues.slug == "leagues-2"
    rules = game_rule_sets.standard_rule_set("classic")
    sections = [cs.create_section(tournament=shadowed, name=name, rule_set=rules, format="swiss")
                for name in ("New section", "Organise")]
    assert [s.slug for s in sections] == ["new-section-2", "organise-2"]
    from league.models import Tournament

    Tournament.objects.filter(pk=shadowed.pk).update(status=Tournament.Status.REGISTRATION)
    page = client.get(f"/clubs/slug-club/{shadowed.slug}/")
    assert page.status_code == 200 and "New tournament" in page.content.decode()
    section_page = client.get(f"/clubs/slug-club/{shadowed.slug}/{sections[1].slug}/")
    assert section_page.status_code == 200 and "Organise" in section_page.content.decode()
