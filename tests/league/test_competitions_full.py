"""Full tournaments in every format, played by AI-driven players to the final
standings, on the embedded runtime with Celery eager (the same tasks a worker runs).
The real worker, PostgreSQL and Redis: test_competitions_worker.py."""

from __future__ import annotations

import pytest

from league.competitions import event_selectors
from league.models import Entry, Pairing, PairingPlayer, Round, Section, Standing
from tests.factories import players, section_with

from .support import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def _standings(section):
    return list(Standing.objects.filter(section=section).order_by("rank").values_list("user__username", "rank",
                                                                                       "points", "final"))


def test_round_robin_of_five_plays_every_berger_round_with_a_bye(make_player, eager_celery):
    section = section_with(players(make_player, 5), format="round-robin")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    assert section.total_rounds == 5
    assert Round.objects.filter(section=section, status=Round.Status.FINISHED).count() == 5
    # Everyone met everyone once and had one bye.
    for entry in Entry.objects.filter(section=section):
        mine = PairingPlayer.objects.filter(round__section=section, user=entry.user)
        assert mine.count() == 5
        assert mine.filter(opponent__isnull=True).count() == 1
        assert len(set(mine.exclude(opponent__isnull=True).values_list("opponent", flat=True))) == 4
    table = _standings(section)
    assert len(table) == 5 and all(row[3] for row in table)
    assert sum(row[2] for row in table) == 10 + 5  # 10 games, 5 byes worth 1


def test_swiss_of_nine_plays_the_recommended_rounds_without_rematches(make_player, eager_celery):
    section = section_with(players(make_player, 9), format="swiss")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    assert section.total_rounds == 6  # recommended_rounds(9): capped at n - 3
    pairs = Pairing.objects.filter(section=section, second__isnull=False).values_list("first", "second")
    met = [frozenset(p) for p in pairs]
    assert len(met) == len(set(met))
    byes = Pairing.objects.filter(section=section, second__isnull=True).values_list("first", flat=True)
    assert len(byes) == 6 and len(set(byes)) == 6  # one bye each at most
    assert len(_standings(section)) == 9


def test_single_elimination_of_six_gives_byes_to_the_top_seeds_and_a_champion(make_player, eager_celery):
    section = section_with(players(make_player, 6), format="single-elimination", placements="third")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    first_round = Pairing.objects.filter(section=section, round__number=1)
    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    assert {seeds[p.first_id] for p in first_round} | {seeds[p.second_id] for p in first_round} == {3, 4, 5, 6}
    table = _standings(section)
    assert [row[1] for row in table] == [1, 2, 3, 4, 5, 5]


def test_single_elimination_playing_every_place_ranks_everyone_apart(make_player, eager_celery):
    section = section_with(players(make_player, 7), format="single-elimination", placements="all")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    assert Round.objects.filter(section=section).count() == 3  # no longer than the main bracket
    assert [row[1] for row in _standings(section)] == [1, 2, 3, 4, 5, 6, 7]
    # The table is the bracket's outcome: the final's and the placement finals' winners and losers.
    rank = dict(Standing.objects.filter(section=section).values_list("user_id", "rank"))
    finals = Pairing.objects.filter(section=section, round__number=3).exclude(second__isnull=True)
    assert len(finals) == 3  # the final, 3rd-4th, 5th-6th (7th's opponent is a bye)
    for pairing in finals:
        won = pairing.first if pairing.first_points > pairing.second_points else pairing.second
        lost = pairing.second if won == pairing.first else pairing.first
        assert rank[lost.pk] == rank[won.pk] + 1
    assert {p.bracket for p in finals} == {"winners", "placement"}
    # In every match, placement ones too, the higher seed moves first (a drawn game's replay swaps).
    seed = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    played = [p for p in Pairing.objects.filter(section=section).exclude(second__isnull=True)
              if not any("replayed" in flag for flag in p.flags)]
    assert len(played) >= 4 and all(seed[p.first_id] < seed[p.second_id] for p in played)


def test_single_elimination_consolation_crowns_a_first_round_loser(make_player, eager_celery):
    section = section_with(players(make_player, 8), format="single-elimination", consolation=True)
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    first_round_losers = {p.first_id if p.first_points < p.second_points else p.second_id
                          for p in Pairing.objects.filter(section=section, round__number=1)}
    consolation = Pairing.objects.filter(section=section, bracket="consolation")
    assert {u for p in consolation for u in (p.first_id, p.second_id)} == first_round_losers
    assert len(consolation) == 3 and Round.objects.filter(section=section).count() == 3
    # No place for it: the first round's losers share 5th.
    assert {r for u, r in Standing.objects.filter(section=section).values_list("user_id", "rank")
            if u in first_round_losers} == {5}


def test_double_elimination_of_eight_ends_with_everyone_placed(make_player, eager_celery):
    section = section_with(players(make_player, 8), format="double-elimination")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    table = _standings(section)
    assert table[0][1] == 1 and table[1][1] == 2 and len(table) == 8
    losses = Pairing.objects.filter(section=section).exclude(result="")
    assert losses.filter(result__in=["1-0", "0-1", "+-", "-+"]).count() >= 14


def test_arena_pairs_players_again_until_the_time_is_up(make_player, eager_celery):
    section = section_with(players(make_player, 6), format="arena")
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    assert Pairing.objects.filter(section=section).count() > 3  # more than one wave
    assert len(_standings(section)) == 6


def test_swiss_pairings_explain_themselves_by_name(make_player, eager_celery):
    section = section_with(players(make_player, 5, prefix="ann"), format="swiss", rounds=2)
    bye = Pairing.objects.get(section=section, round__number=1, second__isnull=True)
    assert [r["code"] for r in bye.reasons] == ["bye"] and bye.reasons[0]["players"] == [bye.first_id]
    play_out([section.pk])
    round_2 = event_selectors.rounds(section)[0]
    assert round_2.round.number == 2
    texts = " ".join(r["text"] for b in round_2.boards for r in b.reasons)
    assert "ann0" in texts and "moved" in texts  # names, and the first-move history of round 1


def test_a_double_round_robin_reverses_who_moves_first(make_player, eager_celery):
    section = section_with(players(make_player, 4), format="round-robin", cycles=2)
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED and section.total_rounds == 6
    for user_id in Entry.objects.filter(section=section).values_list("user_id", flat=True):
        mine = PairingPlayer.objects.filter(round__section=section, user_id=user_id)
        assert mine.filter(moves_first=True).count() == 3  # X in exactly half the games


def test_best_of_three_matches_decide_a_knockout(make_player, eager_celery):
    from games import rule_sets as game_rule_sets

    rules = game_rule_sets.create_rule_set(name="Best of 3", variant="classic", match_format="best-of",
                                          match_games=3)
    section = section_with(players(make_player, 4), format="single-elimination", rule_set=rules)
    play_out([section.pk])
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    pairings = Pairing.objects.filter(section=section)
    assert all(p.match_id for p in pairings)
    assert any(p.match.games.count() >= 2 for p in pairings)
    assert [row[1] for row in _standings(section)] == [1, 2, 3, 3]


def test_the_official_t_tic_t_tac_toe_match_in_a_round_robin(make_player, eager_celery):
    from games import rule_sets as game_rule_sets

    rules = game_rule_sets.create_rule_set(name="Official", variant="t-tic-t-tac-toe", match_format="official")
    section = section_with(players(make_player, 3), format="round-robin", rule_set=rules)
    play_out([section.pk], limit=100_000)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    played = Pairing.objects.filter(section=section, second__isnull=False)
    assert played.count() == 3
    for pairing in played:
        assert pairing.match.kind == "official" and pairing.match.status == "finished"
        assert pairing.first_points + pairing.second_points == 1.0
