"""The section pages' tables and facts as an outside walkthrough read them: an odd round
robin's crosstable shows each bye so a row adds up to its points; a standings table says
games won once and has a key in words (a touch screen shows no tooltip); who may enter is
said in words, in the pages' own date format, on the section and in its tournament's
list; and a minimum age with no cutoff date counts on the day round 1 starts."""

from __future__ import annotations

import html as html_lib
import json
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.age import day_words
from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.competitions import event_selectors, event_services
from league.competitions import selectors as core
from tests.factories import make_section

from .support import decide, play_to_the_end, text_of, url

pytestmark = pytest.mark.django_db

POINTS = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "": 0.0}


def _rows(table: str) -> list[list[str]]:
    """A table's body rows, each as its cells' text."""
    body = table.split("<tbody>")[1].split("</tbody>")[0]
    return [[html_lib.unescape(text_of(cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]


def _headings(table: str) -> list[str]:
    head = table.split("<thead>")[1].split("</thead>")[0]
    return [html_lib.unescape(text_of(cell)).strip() for cell in re.findall(r"<th[^>]*>(.*?)</th>", head)]


def _table(page: str, css_class: str) -> str:
    return page.split(f'<table class="{css_class}"')[1].split("</table>")[0]


# -- 1. the crosstable's byes ---------------------------------------------------------------


def test_an_odd_round_robins_crosstable_shows_each_bye_so_every_row_adds_up(client, club, organiser, make_player):
    people = [make_player(username=f"odd{i}") for i in range(1, 6)]  # five: one sits out each round
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    page = client.get(url("section", section)).content.decode()
    table = _table(page, "crosstable")
    headings = _headings(table)
    assert headings[-3:] == ["Bye", "Points", "Place"]
    rows = _rows(table)
    assert len(rows) == 5
    rounds_out = []
    for row in rows:
        cells, bye, points = row[2:7], row[7], float(row[8])
        found = re.fullmatch(r"(1|½|0) \(R(\d)\)", bye)
        assert found, bye  # each player sat out one round: its points and which round
        rounds_out.append(int(found[2]))
        assert sum(POINTS[c] for c in cells if c != "■") + POINTS[found[1]] == points  # the row adds up
    assert sorted(rounds_out) == [1, 2, 3, 4, 5]
    key = text_of(page.split('id="ct-key">')[1].split("</p>")[0])
    assert "Bye: the points for a round the player sat out" in key and "R3: round 3" in key

    data = json.loads(client.get(url("section-crosstable-json", section)).content)
    assert all(len(row["byes"]) == 1 and row["byes"][0]["points"] == 1.0 for row in data["rows"])


def test_an_even_round_robin_has_no_bye_column(client, club, organiser, make_player):
    people = [make_player(username=f"even{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    page = client.get(url("section", section)).content.decode()
    assert "Bye" not in _headings(_table(page, "crosstable"))
    assert "sat out" not in page


# -- 3. the standings: games won once, and a key in words -----------------------------------


def test_standings_show_games_won_once_and_explain_every_heading_in_a_visible_key(client, club, organiser,
                                                                                  make_player):
    people = [make_player(username=f"key{i}") for i in range(1, 7)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=2,
                           tiebreaks=["buchholz-cut1", "sonneborn-berger", "wins"])
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    page = client.get(url("section", section)).content.decode()
    table = _table(page, "standings")
    headings = _headings(table)
    assert headings == ["#", "Player", "Points", "BH Cut-1", "SB", "Wins", "Games", "D", "L"]  # no "W" beside "Wins"
    rows = _rows(table)
    assert all(len(row) == len(headings) for row in rows)
    # The key is text on the page, not a tooltip: each abbreviation said in words.
    key = html_lib.unescape(text_of(page.split('id="st-key">')[1].split("</dl>")[0]))
    assert "Players level on points are ranked by BH Cut-1, then SB, then Wins; level on all of them too, " \
           "they share the place." in key
    assert "BH Cut-1 Buchholz cut 1: the sum of the opponents' scores, less one: a round not played" in key
    assert "SB Sonneborn-Berger: the scores of the opponents beaten" in key
    assert "Wins Games won over the board" in key
    assert "Games Played over the board" in key and "D, L Games drawn and lost" in key
    assert 'aria-describedby="st-key"' in table.split(">")[0]


def test_standings_without_the_wins_tiebreak_keep_the_w_column(client, club, organiser, make_player):
    people = [make_player(username=f"wdl{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=1)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    page = client.get(url("section", section)).content.decode()
    assert _headings(_table(page, "standings")) == [
        "#", "Player", "Points", "BH Cut-1", "Buchholz", "SB", "Games", "W", "D", "L"]
    key = html_lib.unescape(text_of(page.split('id="st-key">')[1].split("</dl>")[0]))
    assert "Buchholz The sum of the opponents' scores" in key  # not "Buchholz: Buchholz: ..."
    assert "W, D, L Games won, drawn and lost" in key


# -- 4. who may enter, in words -------------------------------------------------------------


def test_who_may_enter_is_said_in_words_on_the_section_and_in_the_tournaments_list(client, club, organiser):
    section = make_section(club, organiser, format="swiss", min_age=18, age_cutoff=date(2026, 12, 20),
                           rating_max=2400)
    words = "Players aged 18 or over on Sun 20 Dec 2026, rated up to 2400 or unrated"

    page = text_of(client.get(url("section", section)).content.decode())
    assert f"Who may enter {words}" in page
    assert "\N{EN DASH}2400" not in page and "Dec. 20, 2026" not in page

    tournament = section.tournament
    listing = text_of(client.get(reverse("competitions:tournament", args=[club.slug, tournament.slug]))
                      .content.decode())
    assert f"Who may enter: {words}" in listing


@pytest.mark.parametrize(("settings", "words"), [
    ({}, ""),
    ({"age_under": 12, "age_year": 2026}, "Players born in 2014 or later (U12)"),
    ({"age_over": 65, "age_year": 2026}, "Players born in 1961 or earlier (65+)"),
    ({"min_age": 10, "max_age": 12, "age_cutoff": date(2026, 9, 1)}, "Players aged 10 to 12 on Tue 1 Sep 2026"),
    ({"max_age": 12, "age_cutoff": date(2026, 9, 1)}, "Players aged 12 or under on Tue 1 Sep 2026"),
    ({"rating_min": 1200, "rating_max": 1800}, "Players rated 1200 to 1800"),
    ({"rating_min": 1200}, "Players rated 1200 or more"),
    ({"members_only": True, "rating_max": 1500}, "Members of Chess club, rated up to 1500 or unrated"),
    ({"members_only": True}, "Members of Chess club"),
])
def test_who_may_enter_says_every_rule_in_words(club, organiser, settings, words):
    section = make_section(club, organiser, format="swiss", **settings)
    assert event_selectors.who_may_enter(section) == words


# -- 6. a minimum age without a cutoff date -------------------------------------------------


def _years_before(day: date, years: int) -> date:
    """The same day ``years`` earlier (29 February: the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def test_a_minimum_age_without_a_cutoff_counts_on_the_day_round_1_starts(client, club, organiser, make_player):
    client.force_login(organiser)
    starts = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    tournament = cs.create_tournament(club=club, name="Adults cup", starts_at=starts)
    form = {"name": "Adults", "variant": "classic", "rule_set": game_rule_sets.standard_rule_set("classic").pk,
            "format": "swiss", "rated": "on", "observer_policy": "anyone", "bye_points": "1",
            "late_entry_rounds": "0", "min_age": "18", "age_cutoff": ""}
    page = client.get(reverse("competitions:section-new", args=[club.slug, tournament.slug])).content.decode()
    assert "Empty: the day round 1 starts." in page
    response = client.post(reverse("competitions:section-new", args=[club.slug, tournament.slug]), form)
    assert response.status_code == 302, text_of(response.content.decode())[:3000]
    section = tournament.sections.get()
    assert section.min_age == 18 and section.age_cutoff is None
    assert core.age_cutoff(section) == starts.date()

    day = event_selectors.date_words(starts.date())
    facts = text_of(client.get(url("section", section)).content.decode())
    assert f"Who may enter Players aged 18 or over on {day} (the day round 1 starts)" in facts

    eighteenth_birthday = _years_before(starts.date(), 18)
    cs.register(section=section, user=make_player(born=eighteenth_birthday))
    too_young = make_player(born=eighteenth_birthday + timedelta(days=1))
    assert core.eligibility_refusal(section=section, user=too_young, rating=None) == (
        f"Aged 17 on {day_words(starts.date())}, and this section is for ages 18 and over.")


# -- 6. an arena's streak, in the key -------------------------------------------------------


def test_an_arenas_fire_is_said_in_the_key_while_someone_is_on_a_streak(client, club, organiser, make_player):
    """🔥 had only a tooltip, which a touch screen never shows."""
    people = [make_player(username=f"fire{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="arena", players=people)
    event_services.start_section(by=organiser, section=section)
    page = client.get(url("section", section)).content.decode()
    assert "🔥" not in page  # nobody is on a streak yet: nothing to explain
    seeds = dict(section.entries.values_list("user_id", "seed"))
    top = min(seeds, key=lambda user_id: seeds[user_id])
    for _ in range(2):  # the top seed wins twice in a row; the others' games go by seed
        assert decide(section, winner=lambda p: top if top in (p.first_id, p.second_id) else min(
            (p.first_id, p.second_id), key=lambda u: seeds[u]))
        cs.sweep()
        cs.pair_arena(section_id=section.pk)

    page = client.get(url("section", section)).content.decode()
    assert 'class="on-fire"' in _table(page, "standings")
    key = html_lib.unescape(text_of(page.split('id="st-key">')[1].split("</dl>")[0]))
    assert "🔥 On a winning streak (two wins or more in a row): each game scores double" in key
