"""An organiser's probe of withdrawals and corrections in each format: a knocked-out
player who withdrew read "plays for places 5 to 8; withdrew"; round robin, Swiss and arena
tables did not say who had withdrawn; a placement column was titled by its bracket's round,
not the event's; a knockout's page offered "Correct a result" that the service refuses."""

from __future__ import annotations

import html as html_lib

import pytest
from django.db.models import Q

from games import services as game_services
from league import competitions as cs
from league.competitions import event_selectors
from league.models import Entry, Pairing
from tests.factories import players, section_with

from .support import decide, one_move, text_of, url

pytestmark = pytest.mark.django_db


def _page(client, section) -> str:
    return html_lib.unescape(text_of(client.get(url("section", section)).content.decode()))


def _next_round(section) -> None:
    assert decide(section)
    cs.sweep()  # the results
    cs.sweep()  # the round they made due
    section.refresh_from_db()


def test_a_knocked_out_player_who_withdraws_forfeits_the_placement_match_and_is_not_said_to_play_it(
        client, make_player):
    section = section_with(players(make_player, 8), format="single-elimination", placements="all")
    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    first = Pairing.objects.filter(section=section, round__number=1).order_by("board").first()
    assert first is not None and first.game is not None
    # Quarter-final 1 won by the higher seed; the others still in play, so the 5-8 match waits.
    one_move(first.game, seed=1)
    loser = max((first.first_id, first.second_id), key=lambda u: seeds[u])
    game_services.resign(game_id=first.game.pk, user=first.game.seats.get(user_id=loser).user)
    cs.sweep()
    cs.withdraw(section=section, user=Entry.objects.get(section=section, user_id=loser).user)

    words = event_selectors.knockout_progress(section)[loser].words
    assert words == "Eliminated in the quarter-finals; withdrew: forfeits the match for places 5 to 8"
    page = _page(client, section)
    assert "plays for places 5 to 8; withdrew" not in page and words in page

    _next_round(section)  # the 5-8 semi-final against them is a forfeit when paired
    placement = Pairing.objects.get(Q(first_id=loser) | Q(second_id=loser), section=section, round__number=2)
    assert placement.bracket == "placement" and placement.result in ("+-", "-+")
    assert event_selectors.knockout_progress(section)[loser].words.endswith(
        "withdrew: forfeits the match for places 7 to 8")


@pytest.mark.parametrize(("format", "after"), [
    ("round-robin", "their games still to play are lost by forfeit"),
    ("swiss", "not paired again"),
])
def test_a_withdrawn_players_row_says_so_in_a_table_ranked_by_points(client, make_player, format, after):
    field = players(make_player, 5)
    section = section_with(field, format=format, **({"rounds": 3} if format == "swiss" else {}))
    _next_round(section)
    cs.withdraw(section=section, user=field[2])

    row = next(r for r in event_selectors.standings(section) if r.person.username == field[2].username)
    assert row.withdrawn_note == f"withdrew in round 2: {after}"
    page = _page(client, section)
    assert f"{field[2].name} withdrew in round 2: {after}" in page
    assert "withdrew Left the section after it started" in page  # the key under the table
    assert f"{field[2].name} (withdrew)" in page  # the crosstable's row (the Swiss's by round)
    others = [r for r in event_selectors.standings(section) if r.person.username != field[2].username]
    assert not any(r.withdrawn_note for r in others)


def test_an_arena_table_marks_the_withdrawn_player(make_player):
    field = players(make_player, 4)
    section = section_with(field, format="arena")
    cs.withdraw(section=section, user=field[3])
    row = next(r for r in event_selectors.standings(section) if r.person.username == field[3].username)
    assert row.withdrawn_note == "withdrew in round 1: not paired again"


def test_placement_columns_are_titled_by_the_rounds_the_event_plays_them_in(make_player):
    # Six players: the 5-8 semi-finals are byes and the match for places 5-6 (the bracket's
    # round 3) is played in round 2, beside the semi-finals. It was titled "Round 3".
    section = section_with(players(make_player, 6), format="single-elimination", placements="all")
    titles = [c.title for c in event_selectors.bracket(section) if c.block == "Places 5-8"]
    assert titles == ["Byes", "Round 2"]
    _next_round(section)
    assert Pairing.objects.filter(section=section, round__number=2, bracket="placement", bracket_round=3).count() == 1
    eight = section_with(players(make_player, 8, prefix="e"), format="single-elimination", placements="all",
                         tournament="Eight")
    assert [c.title for c in event_selectors.bracket(eight) if c.block == "Places 5-8"] == ["Round 2", "Round 3"]


def test_a_knockout_page_says_a_played_result_stands_before_the_console_asks_a_reason(client, make_player,
                                                                                         organiser, club):
    section = section_with(players(make_player, 4), format="single-elimination", club=club)
    client.force_login(organiser)
    page = _page(client, section)
    assert "Correct a result in the console" not in page
    assert "Forfeit or adjudicate a game in the console : round 1 · A bracket's result stands once played" in page
    swiss = section_with(players(make_player, 4, prefix="s"), format="swiss", rounds=2, club=club, tournament="Swiss")
    assert "Correct a result in the console" in _page(client, swiss)
