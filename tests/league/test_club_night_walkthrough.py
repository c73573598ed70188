"""From an organiser's club night (a knockout, a round robin, an arena and a
groups-then-knockout event run to the end on the demo server): what the section pages
and the notices said, or left out."""

from __future__ import annotations

from datetime import UTC, date, timedelta

import pytest
from django.urls import reverse

from games import services as game_services
from league import competitions as cs
from league.models import Pairing, Section
from tests.factories import players, section_with

from .support import decide, run_decided, text_of, url

pytestmark = pytest.mark.django_db


def _draw(game) -> None:
    seats = {seat.number: seat.user for seat in game.seats.all()}
    for ply, cell in enumerate((5, 1, 9, 3, 2, 8, 7, 4, 6)):  # a full grid, no line: a draw
        game = game_services.submit_move(game_id=game.pk, user=seats[ply % 2], ply=ply, move={"cell": cell})
    assert game.result == "draw", game.result


def test_a_knockout_board_replayed_after_a_draw_links_the_drawn_game(client, make_player, eager_celery):
    """The final was drawn and played again: the rounds table showed the replay's game
    alone ("Mei won · replay"), and the drawn game was found nowhere on the page."""
    section = section_with(players(make_player, 2), format="single-elimination")
    pairing = Pairing.objects.get(section=section, second__isnull=False)
    drawn = pairing.game
    _draw(drawn)
    cs.sweep()
    decide(section)
    cs.sweep()
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.FINISHED and pairing.game_id != drawn.pk
    page = client.get(url("section", section)).content.decode()
    assert f'href="/play/{drawn.pk}/"' in page
    assert f"won (after a draw: game {drawn.pk} )" in text_of(page)  # text_of spaces out the link


@pytest.mark.usefixtures("eager_celery")
def test_the_final_notice_names_every_player_of_a_shared_third_place(make_player):
    """A knockout without a third-place match: both semi-finalists are 3rd, and the notice
    said "Final standings: 1. Kofi, 2. Edith, 3. Mei" to Sam, 3rd too ("You placed 3 of 4")."""
    from accounts.models import Notice

    users = players(make_player, 4)
    section = section_with(users, format="single-elimination")
    run_decided(section)
    notice = Notice.objects.get(recipient=users[0], kind=Notice.Kind.TOURNAMENT_FINISHED)
    third = [u.name for u in users if f"3. {u.name}" in notice.message]
    assert len(third) == 2, notice.message


def test_an_arena_standings_key_says_how_a_game_scores(client, make_player, eager_celery):
    """An arena's table read "Mei 12 · 6 games · 4 W 2 D" with nothing saying a win is
    2 and a streak doubles: its 🔥 line shows only while somebody is on a streak."""
    section = section_with(players(make_player, 4), format="arena", arena_duration=timedelta(minutes=10))
    decide(section)
    cs.sweep()
    page = text_of(client.get(url("section", section)).content.decode())
    assert "🔥" not in page  # nobody on a streak yet: the key said nothing of points
    assert "Points A win scores 2, a draw 1, a loss 0; after two wins in a row each game scores double" in page
    Section.objects.filter(pk=section.pk).update(streak_bonus=False)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Points A win scores 2, a draw 1, a loss 0 " in page and "scores double" not in page


@pytest.mark.django_db(transaction=True)
def test_after_the_groups_the_tournament_page_starts_the_waiting_knockout(client, club, organiser, make_player,
                                                                          eager_celery):
    """The groups ended at 20:44 and the knockout, its four qualifiers in, waited for its
    own start the next evening, while the tournament page told the organiser that every
    section "starts when the stage before it ends", with no Start button."""
    from django.utils import timezone

    from .support import play_out

    groups = section_with(players(make_player, 6), format="round-robin", groups=2, club=club,
                          tournament="Groups cup")
    knockout = cs.create_section(tournament=groups.tournament, name="Final stage", format="single-elimination",
                                 rule_set=groups.rule_set, previous_stage=groups, advance=2,
                                 starts_at=timezone.now() + timedelta(days=1))
    page_url = reverse("competitions:tournament", args=[club.slug, groups.tournament.slug])
    client.force_login(organiser)
    assert "starts when the stage before it ends" in text_of(client.get(page_url).content.decode())
    play_out([groups.pk])
    knockout.refresh_from_db()
    assert knockout.status == Section.Status.REGISTRATION and knockout.entries.count() == 4
    # The qualifiers are told when it starts, not only that they go through.
    from accounts.age import day_words
    from accounts.models import Notice
    start = knockout.starts_at.astimezone(UTC)
    qualifier = knockout.entries.order_by("seed").first().user
    told = Notice.objects.get(recipient=qualifier, kind=Notice.Kind.TOURNAMENT_FINISHED).message
    assert told.endswith(f"You go through to Final stage as seed 1. Its round 1 starts {day_words(start.date())}, "
                         f"{start:%H:%M} UTC."), told
    page = text_of(client.get(page_url).content.decode())
    assert "starts when the stage before it ends" not in page and "Start now" in page
    client.post(reverse("competitions:tournament-action", args=[club.slug, groups.tournament.slug]),
                {"action": "start"})
    knockout.refresh_from_db()
    assert knockout.status == Section.Status.RUNNING


def test_a_tie_on_every_tie_break_is_said_to_share_the_place(client, make_player, eager_celery):
    """Three players, each a win, a loss and a bye: 1, 1, 1 on the table, and its key said
    only "ranked by DE, then Wins, then SB", as if the ranking had broken down."""
    section = section_with(players(make_player, 3), format="round-robin")
    run_decided(section, winner=lambda pairing: pairing.first_id)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Players level on points are ranked by DE, then Wins, then SB; level on all of them too, " \
           "they share the place." in page


def test_the_podium_says_which_tie_break_put_the_winner_ahead_on_equal_points(client, make_player, eager_celery):
    """"Kofi won." over Lucía, both on 3.5 points: the podium said nothing of the direct
    encounter that decided it, left to a column of the table below."""
    a, b, c, d = users = players(make_player, 4)
    beats = {(a, b), (c, a), (a, d), (b, c), (b, d), (d, c)}  # a and b on 2 points; a beat b

    def winner(pairing):
        first, second = (u for u in users if u.pk == pairing.first_id), (u for u in users if u.pk == pairing.second_id)
        one, other = next(first), next(second)
        return one.pk if (one, other) in beats else other.pk

    section = section_with(users, format="round-robin")
    run_decided(section, winner=winner)
    page = text_of(client.get(url("section", section)).content.decode())
    assert f"{a.name} won." in page
    assert f"{a.name} is ahead of {b.name} on DE (1 to 0), both on 2 points." in page


def test_a_place_points_season_says_a_shared_place_scores_in_full(client, club, organiser):
    """Kofi, Mei and Sam shared first in the season's one tournament and each got 10 of
    "10, 6, 4": the page named the table only, not what a shared place scores."""
    from league.competitions import seasons

    league = seasons.create_league(by=organiser, club=club, name="Thursday league")
    season = seasons.create_season(by=organiser, league=league, name="Winter 2026", starts_on=date(2026, 11, 30),
                                   ends_on=date(2027, 2, 28), scoring="place-points", place_points=[10, 6, 4])
    page = text_of(client.get(reverse("competitions:season", args=[club.slug, league.slug, season.slug]))
                   .content.decode())
    assert "Points for each final place (10, 6, 4); players sharing a place each score its points in full." in page


def test_a_win_by_forfeit_is_said_under_the_players_name(client, make_player, eager_celery):
    """Kofi's arena line read "6 points · 0 W 2 D 4 L": 4 of the points were two wins by
    forfeit, which no column counts (W is over the board) and nothing on the table said."""
    users = players(make_player, 4)
    section = section_with(users, format="swiss", rounds=2)
    pairing = Pairing.objects.get(section=section, first=users[0]) if Pairing.objects.filter(
        section=section, first=users[0]).exists() else Pairing.objects.get(section=section, second=users[0])
    opponent = pairing.second if pairing.first_id == users[0].pk else pairing.first
    cs.withdraw(section=section, user=users[0], reason="Went home")  # their game in play: lost by forfeit
    page = text_of(client.get(url("section", section)).content.decode())
    assert f"{opponent.name} won round 1 by forfeit" in page, page[page.find("Standings"):][:600]


def test_a_knockout_table_says_who_withdrew(client, make_player, eager_celery):
    """Kofi was withdrawn by the organiser during his first game: the table said only
    "Eliminated in the semi-finals", as if he had lost it over the board."""
    users = players(make_player, 4)
    section = section_with(users, format="single-elimination")
    cs.withdraw(section=section, user=users[3], reason="Went home")
    page = text_of(client.get(url("section", section)).content.decode())
    assert f"{users[3].name} Eliminated in the semi-finals; withdrew" in page, page[page.find("Standings"):][:500]


def test_a_finished_tournament_tells_its_organiser_it_is_over(client, organiser, make_player, eager_celery, club):
    """Knockout night was over, and its organiser box still said "This tournament has
    started: its registration cannot reopen. Every section has already started, or starts
    when the stage before it ends.\""""
    section = section_with(players(make_player, 2), format="single-elimination", club=club, tournament="Knockout night")
    run_decided(section)
    client.force_login(organiser)
    page = text_of(client.get(reverse("competitions:tournament", args=[club.slug, section.tournament.slug]))
                   .content.decode())
    assert "Knockout night is over: its results are on each section's page." in page
    assert "registration cannot reopen" not in page and "Every section has already started" not in page
