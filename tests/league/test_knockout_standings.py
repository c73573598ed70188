"""A knockout's table, as an organiser's walkthrough read it mid-event: it showed points
and ranked everyone 1 while the event ran. It now shows how far each player got (still
in, or knocked out in round N, and for double elimination in which bracket), listed by
how far they got, with no points column, and a place only once it is decided. A pairing
drawn every replay and sent on by seed counts as what was played, a draw, in W/D/L."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from accounts.models import Notice
from games import services as game_services
from league import competitions as cs
from league.competitions import event_selectors
from league.competitions.podium import podium
from league.models import Entry, Pairing, Section
from tests.factories import players, section_with
from tests.support import api_as as api

from .support import decide, one_move, run_decided, text_of, url

pytestmark = pytest.mark.django_db


#: The Place cell of a player whose place is not decided yet (an en dash).
OPEN = "\N{EN DASH}"


def _table(client, section) -> tuple[list[str], list[list[str]]]:
    page = client.get(url("section", section)).content.decode()
    table = page.split('<table class="standings"')[1].split("</table>")[0]
    head = table.split("<thead>")[1].split("</thead>")[0]
    headings = [html_lib.unescape(text_of(c)).strip() for c in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    body = table.split("<tbody>")[1].split("</tbody>")[0]
    rows = [[html_lib.unescape(text_of(c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]
    return headings, rows


def _next_round(section) -> None:
    """The games in play won by the higher seeds, scored, and the next round started."""
    assert decide(section)
    cs.sweep()  # the results (as the worker would record them)
    cs.sweep()  # the round they made due
    section.refresh_from_db()


def test_a_single_elimination_table_shows_who_is_still_in_not_points_nor_everyone_first(client, make_player):
    section = section_with(players(make_player, 8), format="single-elimination")
    headings, rows = _table(client, section)
    assert "Points" not in headings and headings[:3] == ["#", "Player", "Standing"]
    # Before a result: nobody has a place yet, everyone is still in (not "1" for all).
    assert {row[0] for row in rows} == {OPEN}
    assert {row[2] for row in rows} == {"Still in: the quarter-finals"}

    _next_round(section)
    headings, rows = _table(client, section)
    standing = [row[2] for row in rows]
    # Listed by how far they got: the four still in first, then the four knocked out.
    assert standing == ["Still in: the semi-finals"] * 4 + ["Eliminated in the quarter-finals"] * 4
    # The quarter-finals' losers share 5th, decided now; the semi-finalists' places are open.
    assert [row[0] for row in rows] == [OPEN] * 4 + ["5"] * 4

    run_decided(section)
    headings, rows = _table(client, section)
    assert [row[0] for row in rows] == ["1", "2", "3", "3", "5", "5", "5", "5"]
    assert [row[2] for row in rows][:3] == ["Winner", "Runner-up (lost the final)", "Eliminated in the semi-finals"]
    result = podium(section)
    assert result is not None and result.steps[0].players[0].summary == "Winner"
    assert "point" not in client.get(url("section", section)).content.decode().split('id="podium-heading"')[1] \
        .split("</ol>")[0]
    # The "is over" notices say it too, where they said "with 2 points".
    told = Notice.objects.get(recipient_id=result.table[1].user_id, cause__startswith="tournament-finished:")
    assert "You placed 2 of 8: Runner-up (lost the final)." in told.message and "point" not in told.message


def test_players_level_on_how_far_they_got_are_listed_by_seed_not_by_name(client, make_player):
    """Seed 1 is "p008": by name the four still in read p005 to p008, an order that means nothing."""
    users = [make_player(username=f"p{i:03d}") for i in range(8, 0, -1)]  # registered first, seeded first
    section = section_with(users, format="single-elimination")
    seeds = dict(Entry.objects.filter(section=section).values_list("seed", "user__username"))
    assert [seeds[n] for n in range(1, 9)] == [f"p{i:03d}" for i in range(8, 0, -1)]
    _next_round(section)  # the higher seeds won: seeds 1 to 4 are in the semi-finals
    table = event_selectors.standings(section)
    assert [row.person.username for row in table] == [seeds[n] for n in range(1, 9)]
    assert [row.status for row in table] == ["Still in: the semi-finals"] * 4 + ["Eliminated in the quarter-finals"] * 4
    key = text_of(client.get(url("section", section)).content.decode())
    assert "those still in first, by the round they have reached" in key and "level there, by seed" in key


def test_the_third_place_match_is_told_once_played_on_the_table_and_the_podium(client, make_player):
    """The podium's 3rd read "Eliminated in the semi-finals", as 4th did: the third-place
    match they won was nowhere (walkthrough)."""
    section = section_with(players(make_player, 4), format="single-elimination", placements="third")
    run_decided(section)
    _, rows = _table(client, section)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[2] for row in rows] == ["Winner", "Runner-up (lost the final)",
                                        "Eliminated in the semi-finals; won the third-place match",
                                        "Eliminated in the semi-finals; lost the third-place match"]
    result = podium(section)
    assert result is not None
    assert result.steps[2].players[0].summary == "Eliminated in the semi-finals; won the third-place match"


def test_the_api_and_the_csv_say_how_far_each_player_got(client, make_player):
    section = section_with(players(make_player, 8), format="single-elimination")
    _next_round(section)
    answer = api().get(f"/api/v1/sections/{section.pk}/standings/").json()
    assert [(row["place"], row["standing"]) for row in answer] == (
        [(None, "Still in: the semi-finals")] * 4 + [(5, "Eliminated in the quarter-finals")] * 4)
    lines = client.get(url("section-standings-csv", section)).content.decode().splitlines()
    assert lines[0].endswith(",final,place,standing")
    assert lines[1].endswith(",,Still in: the semi-finals") and lines[-1].endswith(",5,Eliminated in the quarter-finals")


def test_a_quarter_final_half_played_gives_its_losers_no_place_yet(client, make_player):
    """Counted mid-round, a loser's place would count the players still to lose in that
    round as ahead of them (7th, not 5th): it shows once the round is over."""
    section = section_with(players(make_player, 8), format="single-elimination")
    pairing = Pairing.objects.filter(section=section).order_by("board").first()
    game = one_move(pairing.game, seed=1)
    game_services.resign(game_id=game.pk, user=pairing.second)  # the lower seed
    cs.sweep()
    _headings, rows = _table(client, section)
    out = [row for row in rows if row[2].startswith("Eliminated")]
    assert len(out) == 1 and out[0][0] == OPEN and rows[-1] == out[0]


def test_double_elimination_says_which_bracket_each_player_is_in(client, make_player):
    section = section_with(players(make_player, 4), format="double-elimination")
    _next_round(section)
    _headings, rows = _table(client, section)
    standing = [row[2] for row in rows]
    # Named as the bracket's columns are: its round 2 is the "Winners final" (it said
    # "winners' bracket, round 2"; the last losers' round "losers' round 2": walkthrough).
    assert standing[:2] == ["Still in: the winners' final (no loss)"] * 2
    assert standing[2:] == ["Still in: losers' bracket, round 1 (one loss)"] * 2
    assert all(row[0] == OPEN for row in rows)
    _next_round(section)  # winners' final and losers' round 1: one player has lost twice
    _headings, rows = _table(client, section)
    assert rows[-1][2] == "Eliminated in losers' round 1 (second loss)" and rows[-1][0] == "4"
    run_decided(section)
    _headings, rows = _table(client, section)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[2] for row in rows][:3] == ["Winner", "Runner-up (lost the grand final)",
                                            "Eliminated in the losers' final (second loss)"]


def _draw_every_replay(section) -> Pairing:
    drawing = [1, 2, 3, 5, 4, 6, 8, 7, 9]  # a classic game that ends drawn
    for _ in range(20):
        pairing = Pairing.objects.get(section=section)
        if pairing.status == Pairing.Status.FINISHED:
            return pairing
        game = pairing.game
        assert game is not None  # a single game, in play
        for ply, cell in enumerate(drawing):
            game.refresh_from_db()
            mover = game.seats.get(number=game.to_move[0]).user
            assert mover is not None
            game_services.submit_move(game_id=game.pk, user=mover, ply=ply, move={"cell": cell})
        cs.sweep()
    raise AssertionError("the pairing was not decided")


def test_a_pairing_decided_on_seed_counts_as_the_draws_played_and_says_so(client, make_player):
    """The walkthrough's find: the seed's pass counted as a 1-0 win in W/D/L."""
    users = players(make_player, 2)
    section = section_with(users, format="single-elimination")
    _draw_every_replay(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    rows = {row.person.username: row for row in event_selectors.standings(section)}
    top, other = rows["p001"], rows["p002"]  # p001 is seed 1 (both unrated: the earlier entry)
    assert (top.wins, top.draws, top.losses) == (0, 1, 0) == (other.wins, other.draws, other.losses)
    assert (top.place, other.place) == (1, 2)  # the higher seed still goes through: the champion
    assert top.status == "Winner; through on seed in round 1 (drawn every replay)"
    assert other.status == "Runner-up (lost the final); out on seed in round 1 (drawn every replay)"
    _headings, table = _table(client, section)
    assert table[0][2:] == ["Winner; through on seed in round 1 (drawn every replay)", "1", "0", "1", "0"]
    result = podium(section)
    assert result is not None
    assert result.steps[0].players[0].summary == "Winner; through on seed in round 1 (drawn every replay)"
    page = client.get(url("section", section)).content.decode()
    assert "through on seed in round 1 (drawn every replay)" in page.split('id="podium-heading"')[1]
