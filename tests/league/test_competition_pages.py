"""The competition pages and exports with real data made through the services: brackets
(byes, winners), a round robin crosstable, Swiss standings with tie-breaks, registration
refusals in words, organiser pages, and the CSV / iCalendar / JSON exports."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date, timedelta

import icalendar
import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.competitions import event_services
from league.management.commands.play_section_bots import play_pending_moves
from league.models import Entry, Section, Tournament
from tests.factories import MembershipFactory, make_section

from .support import play_to_the_end, text_of, url

pytestmark = pytest.mark.django_db


# -- brackets -----------------------------------------------------------------------------


def test_six_player_bracket_gives_the_two_byes_to_seeds_1_and_2(client, club, organiser, make_player):
    people = [make_player(username=f"ko{i}") for i in range(1, 7)]
    section = make_section(club, organiser, format="single-elimination", players=people, placements="third")
    event_services.start_section(by=organiser, section=section)

    page = client.get(url("section", section))
    assert page.status_code == 200
    html = page.content.decode()
    first_column = html.split('class="bracket-column')[1]
    byes = re.findall(r'class="bracket-match is-bye[^"]*".*?</li>', first_column, re.S)
    assert len(byes) == 2
    seeds_with_bye = sorted(int(re.search(r'class="seed">(\d+)<', b).group(1)) for b in byes)
    assert seeds_with_bye == [1, 2]
    assert all("<em>bye</em>" in b for b in byes)

    data = json.loads(client.get(url("section-bracket-json", section)).content)
    first = data["columns"][0]
    assert [m["bye"] for m in first["matches"]].count(True) == 2
    bye_seeds = sorted(s["player"]["seed"] for m in first["matches"] if m["bye"] for s in m["sides"] if s["player"])
    assert bye_seeds == [1, 2]
    assert [c["title"] for c in data["columns"]] == ["Quarter-finals", "Semi-finals", "Final"]

    play_to_the_end(section)
    data = json.loads(client.get(url("section-bracket-json", section)).content)
    final_column = data["columns"][-1]
    assert {m["bracket"] for m in final_column["matches"]} == {"winners", "placement"}
    for match in (m for c in data["columns"] for m in c["matches"]):
        assert match["decided"]
        assert sum(side["winner"] for side in match["sides"]) == 1
    champion = next(s for s in final_column["matches"][0]["sides"] if s["winner"])["player"]["username"]
    table = list(csv.DictReader(io.StringIO(client.get(url("section-standings-csv", section)).content.decode())))
    assert table[0]["username"] == champion and table[0]["rank"] == "1"
    assert "Third place" in client.get(url("section", section)).content.decode()


def test_placement_and_consolation_brackets_are_blocks_of_their_own(client, club, organiser, make_player):
    people = [make_player(username=f"pl{i}") for i in range(1, 13)]
    section = make_section(club, organiser, format="single-elimination", players=people, placements="all")
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)
    data = json.loads(client.get(url("section-bracket-json", section)).content)
    blocks = list(dict.fromkeys(c["block"] for c in data["columns"]))
    assert blocks == ["", "Places 5-8", "Places 9-16"]
    main = [c for c in data["columns"] if not c["block"]]
    assert [c["title"] for c in main] == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]
    assert [m["label"] for m in main[-1]["matches"]] == ["", "Third place"]
    labels = [m["label"] for c in data["columns"] if c["block"] == "Places 5-8" for m in c["matches"]]
    assert labels == ["", "", "Places 5-6", "Places 7-8"]
    html = client.get(url("section", section)).content.decode()
    assert '<h3 class="bracket-block-title" id="bracket-block-2">Places 5-8</h3>' in html
    ranks = [row["rank"] for row in csv.DictReader(io.StringIO(
        client.get(url("section-standings-csv", section)).content.decode()))]
    assert ranks == [str(rank) for rank in range(1, 13)]

    people = [make_player(username=f"co{i}") for i in range(1, 9)]
    section = make_section(club, organiser, format="single-elimination", players=people, consolation=True)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)
    data = json.loads(client.get(url("section-bracket-json", section)).content)
    consolation = [c for c in data["columns"] if c["block"] == "Consolation"]
    assert [c["title"] for c in consolation] == ["Semi-finals", "Final"]
    consolation_final = consolation[-1]["matches"][0]
    assert consolation_final["label"] == "Consolation final" and sum(s["winner"] for s in consolation_final["sides"]) == 1
    assert "Consolation</h3>" in client.get(url("section", section)).content.decode()


def test_double_elimination_shows_losers_bracket_and_grand_final(client, club, organiser, make_player):
    people = [make_player(username=f"de{i}") for i in range(1, 6)]
    section = make_section(club, organiser, format="double-elimination", players=people)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)
    data = json.loads(client.get(url("section-bracket-json", section)).content)
    brackets = {c["bracket"] for c in data["columns"]}
    assert {"winners", "losers", "final"} <= brackets
    html = text_of(client.get(url("section", section)).content.decode())
    assert "Grand final" in html and "Losers round 1" in html
    assert Section.objects.get(pk=section.pk).status == Section.Status.FINISHED


# -- round robin --------------------------------------------------------------------------


def test_round_robin_crosstable_page_and_json(client, club, organiser, make_player):
    people = [make_player(username=f"rr{i}") for i in range(1, 6)]  # odd: a bye each round
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    data = json.loads(client.get(url("section-crosstable-json", section)).content)
    rows = {row["number"]: row for row in data["rows"]}
    assert sorted(rows) == [1, 2, 3, 4, 5]
    value = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}
    for i, row in rows.items():
        assert row["cells"][i - 1] == "X"
        for j in rows:
            if i != j:  # every pair met once, and their scores add up to one game
                assert value[row["cells"][j - 1]] + value[rows[j]["cells"][i - 1]] == 1.0
    # Totals: the games plus the bye (1 point by default).
    for row in rows.values():
        assert row["points"] == sum(value[c] for c in row["cells"] if c != "X") + 1.0

    html = client.get(url("section", section)).content.decode()
    assert "Crosstable" in html and html.count('class="cell self"') == 5
    # Each heading says what it means (its tooltip was the tie-break's slug: a walkthrough).
    for heading, meaning in (("DE", "Direct encounter"), ("Wins", "Games won"), ("SB", "Sonneborn-Berger")):
        assert re.search(rf'<abbr title="{meaning}[^"]*">{heading}</abbr></th>', html), heading


# -- Swiss --------------------------------------------------------------------------------


def test_swiss_standings_with_the_organisers_tiebreaks_and_csv(client, club, organiser, make_player):
    people = [make_player(username=f"sw{i}") for i in range(1, 9)]
    order = ["buchholz", "sonneborn-berger", "wins"]
    section = make_section(club, organiser, format="swiss", players=people, rounds=3, tiebreaks=order)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    html = client.get(url("section", section)).content.decode()
    headings = re.findall(r'<th scope="col"><abbr title="[^"]*">([^<]+)</abbr>', html.split('id="st-heading"')[1])
    assert headings[:3] == ["Buchholz", "SB", "Wins"]  # the organiser's order

    body = client.get(url("section-standings-csv", section))
    assert body["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body.content.decode())))
    assert len(rows) == 8
    assert list(rows[0])[:8] == ["rank", "username", "name", "seed", "points", "Buchholz", "SB", "Wins"]
    assert sum(float(r["points"]) for r in rows) == 12.0  # 4 boards x 3 rounds, one point each
    keys = [(-float(r["points"]), -float(r["Buchholz"]), -float(r["SB"]), -float(r["Wins"])) for r in rows]
    assert keys == sorted(keys)
    assert {r["final"] for r in rows} == {"yes"}
    # Three rounds, four boards each, every one scored and linked to its game.
    assert html.count("replay</a>") >= 12


def test_arena_standings_are_counted_live_while_it_runs(client, club, organiser, make_player):
    people = [make_player(username=f"ar{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="arena", players=people)
    event_services.start_section(by=organiser, section=section)
    wave = section.round_set.get(number=1)
    assert wave.pairings.count() == 2
    for _ in range(200):  # the first wave's two games, to their end
        if not wave.pairings.exclude(status="finished").exists():
            break
        if not play_pending_moves([section.pk], level="random"):
            cs.sweep()
    html = client.get(url("section", section)).content.decode()
    table = html.split('id="st-heading"')[1].split("</table>")[0]
    rows = re.findall(r"<tr><td[^>]*>(\d+)</td><td[^>]*><a[^>]*>([^<]+)</a>.*?</td><td[^>]*>([\d.]+)</td><td>(\d+)</td>",
                      table, re.S)
    assert len(rows) == 4 and {int(played) for *_, played in rows} == {1}
    assert sum(float(points) for _, _, points, _ in rows) == 4  # a win 2 (or a draw 1 each) per game
    assert "Round 1" in html and "Wave" not in html and Section.objects.get(pk=section.pk).status == Section.Status.RUNNING


def test_the_polled_live_part_costs_the_same_queries_for_a_bigger_field(client, club, organiser, make_player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_for(n: int, prefix: str) -> int:
        section = make_section(club, organiser, format="swiss", rounds=3,
                               players=[make_player(username=f"{prefix}{i}") for i in range(n)])
        event_services.start_section(by=organiser, section=section)
        client.get(url("section", section), headers={"HX-Request": "true"})  # warm caches (sessions, sites)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url("section", section), headers={"HX-Request": "true"}).status_code == 200
        return len(captured)

    small, big = queries_for(8, "qa"), queries_for(24, "qb")
    assert small == big, (small, big)


def test_games_in_play_show_their_clocks_and_who_is_to_move(client, club, organiser, make_player):
    blitz = game_rule_sets.create_rule_set(name="Blitz", variant="classic", seconds_per_game=300)
    people = [make_player(username=f"cl{i}", display_name=f"Clara {i}") for i in range(1, 3)]
    later = timezone.now() + timedelta(hours=1)
    tournament = event_services.create_tournament(by=organiser, club=club, name="Blitz cup", starts_at=later)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Open", rule_set=blitz,
                                            format="round-robin")
    for user in people:
        cs.register(section=section, user=user)
    event_services.start_section(by=organiser, section=section)
    html = text_of(client.get(url("section", section), headers={"HX-Request": "true"}).content.decode())
    clocks = re.findall(r"\b([0-5]):([0-5]\d)\b", html)
    assert len(clocks) == 2 and all(int(m) * 60 + int(s) > 240 for m, s in clocks)  # five minutes, just begun
    # The page names people as the rest of the site does (a walkthrough saw usernames here).
    assert "in play · Clara 1 to move" in html or "in play · Clara 2 to move" in html
    players = client.get(url("section", section)).content.decode().split('class="players"')[1].split("</ul>")[0]
    assert ">Clara 1</a>" in players and ">cl1</a>" not in players
    data = APIClient().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    board = data[0]["pairings"][0]
    assert set(board["clocks"]) == {"cl1", "cl2"} and all(board["clocks"].values())
    assert board["moves_first"] in {"cl1", "cl2"}


def test_the_section_shows_the_clocks_the_game_page_shows_grace_included(client, club, organiser, make_player):
    """Found by a walkthrough: with a game clock shorter than the first move's no-show
    grace, the section said 0:00 (its own count of the game clock) while the game page
    counted the grace, and the game went on."""
    from games import selectors as game_selectors
    from games.models import Game

    quick = game_rule_sets.create_rule_set(name="Quick", variant="classic", seconds_per_game=60, no_show_seconds=300)
    people = [make_player(username=f"gr{i}") for i in range(1, 3)]
    tournament = event_services.create_tournament(by=organiser, club=club, name="Grace cup",
                                                  starts_at=timezone.now() + timedelta(hours=1))
    section = event_services.create_section(by=organiser, tournament=tournament, name="Open", rule_set=quick,
                                            format="round-robin")
    for user in people:
        cs.register(section=section, user=user)
    event_services.start_section(by=organiser, section=section)
    game = Game.objects.get(pairing__section=section)
    # 90 seconds into its first step (the game started then, and no turn has begun since).
    Game.objects.filter(pk=game.pk).update(turn_started_at=F("turn_started_at") - timedelta(seconds=90),
                                           started_at=F("started_at") - timedelta(seconds=90))
    game = game_selectors.load_game(game.pk)
    mover = next(s for s in game.seats_in_hand if s.number in game.to_move)
    left = (game_selectors.deadline_for(game, mover) - timezone.now()).total_seconds()  # what the game page counts
    board = APIClient().get(f"/api/v1/sections/{section.pk}/rounds/").json()[0]["pairings"][0]
    minutes, seconds = map(int, board["clocks"][mover.user.username].split(":"))
    assert abs(minutes * 60 + seconds - left) <= 2 and left > 200, (board["clocks"], left)  # 3:30 of grace, not 0:00
    other = next(s for s in game.seats_in_hand if s.number not in game.to_move)
    assert board["clocks"][other.user.username] == "1:00"  # the other's game clock, not running
    # The page says which clock is the grace ("3:30" beside "1:00" read as a wrong clock).
    page = client.get(reverse("competitions:section", args=[club.slug, tournament.slug, section.slug]))
    html = page.content.decode()
    graced = re.findall(r'<span class="clock" title="Time left to make the first move[^"]*">([0-9:]+)</span> '
                        r'<small class="muted">to first move</small>', html)
    assert len(graced) == 1 and html.count("to first move") == 1, graced


def test_the_rounds_table_shows_who_really_moves_first(client, club, organiser, make_player):
    from league.models import PairingPlayer

    coin = game_rule_sets.create_rule_set(name="Coin toss", variant="classic", decider="coin")
    later = timezone.now() + timedelta(hours=1)
    tournament = event_services.create_tournament(by=organiser, club=club, name="Coin cup", starts_at=later)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Open", rule_set=coin,
                                            format="swiss", swiss_system="fast", rounds=1)
    for i in range(12):
        cs.register(section=section, user=make_player(username=f"co{i:02d}"))
    event_services.start_section(by=organiser, section=section)
    table = client.get(url("section", section)).content.decode().split('class="boards by-board"')[1]
    shown = re.findall(r"<tr[^>]*>\s*<td[^>]*>(\d+)</td>\s*<td[^>]*>([^<]+?)[ <]", table)
    movers = dict(PairingPlayer.objects.filter(round__section=section, moves_first=True)
                  .values_list("pairing__board", "user__username"))
    assert len(shown) == 6 and {int(board): name.strip() for board, name in shown} == movers


def test_live_part_is_served_alone_to_htmx_and_follows_the_socket_while_running(client, club, organiser, make_player):
    people = [make_player(username=f"lv{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=2)
    event_services.start_section(by=organiser, section=section)
    part = client.get(url("section", section), headers={"HX-Request": "true"}).content.decode()
    assert part.lstrip().startswith('<div id="section-live"') and "<html" not in part
    assert 'hx-trigger="section-update"' in part and f'data-socket="/ws/sections/{section.pk}/"' in part
    assert 'data-poll="5"' in part and "watch</a>" in part  # polled only while the socket is down
    # A player sees their next game on the tournament's page and the section's, with the game's link.
    pairing = section.pairings.get(board=1)
    client.force_login(pairing.first)
    play = f'href="/play/{pairing.game_id}/"'
    tournament_page = client.get(reverse("competitions:tournament", args=[club.slug, section.tournament.slug]))
    assert "Your next game:" in tournament_page.content.decode() and play in tournament_page.content.decode()
    section_page = text_of(client.get(url("section", section)).content.decode())
    assert f"Your next game: round 1, board 1, against {pairing.second.name} (you move first)" in section_page


def test_the_live_refresh_brings_the_facts_and_the_players_out_of_band(client, club, organiser, make_player):
    """The page's facts (the schedule: "Started") and its players list follow the section
    with the live part: sent again, swapped by id, on every refresh."""
    people = [make_player(username=f"ob{i}") for i in range(1, 4)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=2)
    page = client.get(url("section", section)).content.decode()
    assert 'id="section-facts"' in page and 'id="section-players"' in page and "hx-swap-oob" not in page.split(
        'id="section-live"')[0]
    late = make_player(username="ob-late")
    cs.register(section=section, user=late)
    part = client.get(url("section", section), headers={"HX-Request": "true"}).content.decode()
    players = part.split('<section id="section-players"')[1]
    assert players.startswith(' aria-labelledby="players-heading" hx-swap-oob="true">')
    assert "Players (4)" in players and ">ob-late</a>" in players
    event_services.start_section(by=organiser, section=section)
    part = client.get(url("section", section), headers={"HX-Request": "true"}).content.decode()
    facts = part.split('<dl class="facts" id="section-facts" hx-swap-oob="true">')[1].split("</dl>")[0]
    assert "Started" in facts


# -- entries ------------------------------------------------------------------------------


def test_ineligible_player_sees_the_reason_and_registering_changes_nothing(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", age_under=12, age_year=2026)
    child = make_player(username="born2013", born=date(2013, 3, 1))
    client.force_login(child)
    html = text_of(client.get(url("section", section)).content.decode())
    reason = "Born 2013, and this U12 section is for players born 2014 or later."
    assert f"You cannot enter: {reason}" in html
    assert "Register" not in html.split("Your entry")[1].split("Download")[0]

    response = client.post(url("section-entry", section), {"action": "register"}, follow=True)
    assert reason in text_of(response.content.decode())
    assert not Entry.objects.filter(section=section, user=child).exists()


def test_register_and_withdraw_through_the_page(client, club, organiser, make_player):
    section = make_section(club, organiser, format="round-robin")
    player = make_player(username="joiner")
    client.force_login(player)
    client.post(url("section-entry", section), {"action": "register"})
    assert Entry.objects.get(section=section, user=player).status == Entry.Status.REGISTERED
    assert "You are registered" in text_of(client.get(url("section", section)).content.decode())
    client.post(url("section-entry", section), {"action": "withdraw"})
    assert Entry.objects.get(section=section, user=player).status == Entry.Status.WITHDRAWN


def test_check_in_inside_its_window(client, club, organiser, make_player):
    now = timezone.now()
    section = make_section(club, organiser, format="swiss", check_in_opens_at=now - timedelta(minutes=5),
                           check_in_closes_at=now + timedelta(minutes=30))
    player = make_player(username="checker")
    client.force_login(player)
    client.post(url("section-entry", section), {"action": "register"})
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Check in" in page and "The bracket is drawn" not in page
    client.post(url("section-entry", section), {"action": "check-in"})
    assert Entry.objects.get(section=section, user=player).status == Entry.Status.CHECKED_IN
    assert "You are checked in" in text_of(client.get(url("section", section)).content.decode())


def _card_of(client, section) -> str:
    """The words of ``section``'s card on its tournament's page."""
    page = client.get(reverse("competitions:tournament", args=[section.tournament.club.slug, section.tournament.slug]))
    html = page.content.decode()
    return text_of(next(card for card in html.split("<article")[1:] if f">{section.name}</a>" in card))


def test_a_sections_card_says_what_its_entry_page_says_once_it_is_under_way_and_over(client, make_player):
    """A finished section's card told its player "You are registered.", where its page
    said "You played in this section (seed 1)." (walkthrough)."""
    from tests.factories import players, section_with
    from tests.league.support import run_decided

    entrants = players(make_player, 4)
    section = section_with(entrants, format="round-robin")
    client.force_login(entrants[0])
    card = _card_of(client, section)
    assert "You are playing in this section (seed " in card and "You are registered" not in card
    run_decided(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    card = _card_of(client, section)
    assert "You played in this section (seed " in card and "You are registered" not in card


def test_the_tournament_page_offers_register_and_check_in_on_each_sections_card(client, club, organiser,
                                                                              make_player):
    """A newcomer on the tournament page saw its sections "Open for registration" and no
    button: Register was only on each section's page, reached by the section's name
    (walkthrough). The card offers what the section page offers, by the same refusals."""
    now = timezone.now()
    section = make_section(club, organiser, format="swiss", check_in_opens_at=now - timedelta(minutes=5),
                           check_in_closes_at=now + timedelta(minutes=30))
    assert "Log in to enter." in _card_of(client, section)  # a visitor
    player = make_player(username="newcomer")
    client.force_login(player)
    card = _card_of(client, section)
    assert "Register in " + section.name in card and "Check in" not in card and "You are" not in card
    response = client.post(url("section-entry", section), {"action": "register"})
    assert response.status_code == 302
    card = _card_of(client, section)
    assert "You are registered." in card and "Check in to " + section.name in card and "Register" not in card
    client.post(url("section-entry", section), {"action": "check-in"})
    card = _card_of(client, section)
    assert "You are checked in." in card and "Check in to" not in card and "Register" not in card
    # Someone who may not enter gets no button there (the section page says why).
    child = make_player(username="born2013", born=date(2013, 3, 1))
    young = make_section(club, organiser, format="swiss", name="Under 12", age_under=12, age_year=2026)
    client.force_login(child)
    assert "Register" not in _card_of(client, young)


def test_an_arenas_card_says_when_it_starts_not_its_round_1(client, club, organiser):
    """An arena is no series of rounds to its players: its card said "round 1 30 Nov
    12:37 UTC" beside a Swiss's (walkthrough); its own page says "Starts ..."."""
    arena = make_section(club, organiser, format="arena", name="Blitz arena")
    swiss = make_section(club, organiser, format="swiss", name="Slow swiss")
    assert re.search(r"0 players · starts \d+ \w+ \d\d:\d\d UTC", _card_of(client, arena))
    assert re.search(r"0 players · round 1 \d+ \w+ \d\d:\d\d UTC", _card_of(client, swiss))


def test_an_unstarted_bracket_says_when_it_is_drawn(client, club, organiser):
    section = make_section(club, organiser, format="double-elimination")
    assert "The bracket is drawn when the section starts" in client.get(url("section", section)).content.decode()


# -- organiser pages ------------------------------------------------------------------------


def test_organiser_creates_a_tournament_and_a_section_and_starts_it(client, club, organiser, make_player):
    client.force_login(organiser)
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("competitions:tournament-new", args=[club.slug]),
                           {"name": "Winter cup", "starts_at": starts, "rating_period": "game"})
    tournament = Tournament.objects.get(club=club, name="Winter cup")
    assert response.status_code == 302

    new_section = reverse("competitions:section-new", args=[club.slug, tournament.slug])
    form = {"name": "Juniors", "variant": "classic", "rule_set": game_rule_sets.standard_rule_set("classic").pk,
            "format": "single-elimination", "rated": "on", "observer_policy": "anyone", "grand_final": "reset",
            "cycles": "1", "bye_points": "1", "late_entry_rounds": "0", "age_under": "14",
            "tiebreaks_0": "no-such-tiebreak"}  # a choice the boxes do not offer
    refused = client.post(new_section, {**form, "format": "swiss", "rounds": "3"})
    assert "Select a valid choice" in refused.content.decode()
    assert not tournament.sections.exists()
    # A bracket ranks without tie-breaks: its form has no boxes, and nothing posted for them counts.
    form.update(rule_set="", variant="nine-square")  # the variant's standard rules
    assert client.post(new_section, form).status_code == 302
    section = tournament.sections.get()
    assert section.age_under == 14 and section.format == "single-elimination"
    assert section.variant == "nine-square" and section.rule_set.name == "Standard nine-square"
    assert section.tiebreaks == []

    page = client.get(reverse("competitions:tournament", args=[club.slug, tournament.slug])).content.decode()
    assert "Juniors" in page and "Start now" not in page  # offered once it could start
    assert "Juniors needs at least two players to start." in page

    client.post(reverse("competitions:tournament-action", args=[club.slug, tournament.slug]), {"action": "close"})
    section.refresh_from_db()
    assert section.registration_closes_at is not None
    client.post(reverse("competitions:tournament-action", args=[club.slug, tournament.slug]), {"action": "open"})
    section.refresh_from_db()
    assert section.registration_closes_at is None

    for i in range(3):
        cs.register(section=section, user=make_player(username=f"jr{i}", born=date(2014, 1, 1)))
    client.post(reverse("competitions:tournament-action", args=[club.slug, tournament.slug]), {"action": "start"})
    section.refresh_from_db()
    assert section.status == Section.Status.RUNNING and section.current_round == 1


def test_only_owners_and_organisers_run_events(client, club, organiser, make_player):
    member = make_player(username="member")
    MembershipFactory.create(club=club, user=member)
    section = make_section(club, organiser, format="swiss", players=[make_player(), make_player()])
    client.force_login(member)
    assert client.get(reverse("competitions:tournament-new", args=[club.slug])).status_code == 403
    assert client.post(url("section-start", section)).status_code == 403
    section.refresh_from_db()
    assert section.status == Section.Status.REGISTRATION


def test_draft_tournament_is_hidden_from_the_public(client, club, organiser):
    draft = event_services.create_tournament(by=organiser, club=club, name="Secret cup",
                                             starts_at=timezone.now() + timedelta(days=1), draft=True)
    assert client.get(reverse("competitions:tournament", args=[club.slug, draft.slug])).status_code == 404
    assert "Secret cup" not in client.get(reverse("competitions:club", args=[club.slug])).content.decode()
    client.force_login(organiser)
    assert client.get(reverse("competitions:tournament", args=[club.slug, draft.slug])).status_code == 200


# -- calendar, season ---------------------------------------------------------------------


def test_player_rounds_as_icalendar(client, club, organiser, make_player):
    people = [make_player(username=f"ic{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    # The player's private link (tests/league/test_private_links.py: who else may not).
    feed = event_services.new_calendar_link(user=people[0])
    response = client.get(reverse("competitions:player-calendar", args=[feed.token]))
    assert response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    events = list(calendar.walk("VEVENT"))
    assert len(events) == 1  # round 1 exists; later rounds are created as the event goes on
    event = events[0]
    assert str(event["summary"]) == "round-robin open, Open: round 1"
    assert event.decoded("dtstart") == section.round_set.get(number=1).starts_at.replace(microsecond=0)
    opponent = section.pairings.get(first__username="ic1") if section.pairings.filter(first__username="ic1") \
        else section.pairings.get(second__username="ic1")
    other = opponent.second.username if opponent.first.username == "ic1" else opponent.first.username
    assert f"against {other}" in str(event["description"])

    play_to_the_end(section)
    events = list(icalendar.Calendar.from_ical(
        client.get(reverse("competitions:player-calendar", args=[feed.token])).content).walk("VEVENT"))
    assert len(events) == 3 and len({str(e["uid"]) for e in events}) == 3


def test_season_page_adds_up_finished_sections(client, club, organiser, make_player):
    from league.models import League, Season

    league = League.objects.create(club=club, name="Club league", slug="club-league")
    season = Season.objects.create(league=league, name="2026", slug="2026", year=2026)
    people = [make_player(username=f"se{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="round-robin", players=people)
    Tournament.objects.filter(pk=section.tournament_id).update(season=season)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)
    html = client.get(reverse("competitions:season", args=[club.slug, league.slug, season.slug])).content.decode()
    assert "Season standings" in html
    assert all(f">se{i}<" in html for i in range(1, 5))
    club_page = client.get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert "Club league" in club_page and "round-robin open" in club_page


def test_a_paused_section_says_so_on_its_page_and_in_the_api(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", players=[make_player(username=f"pz{i}") for i in range(4)])
    assert "Paused by the organisers" not in client.get(url("section", section)).content.decode()
    assert client.get(f"/api/v1/sections/{section.pk}/").json()["paused_at"] is None

    cs.pause_section(section_id=section.pk)
    assert "Paused by the organisers" in text_of(client.get(url("section", section)).content.decode())
    assert client.get(f"/api/v1/sections/{section.pk}/").json()["paused_at"] is not None

    cs.resume_section(section_id=section.pk)
    assert "Paused by the organisers" not in client.get(url("section", section)).content.decode()
    assert client.get(f"/api/v1/sections/{section.pk}/").json()["paused_at"] is None


def test_a_section_that_ended_while_paused_no_longer_says_it_is_paused(client, club, organiser, make_player):
    """Games in play go on during a pause, so the last round can end the section while it
    is paused (organiser probe: a knockout's final and third-place match were lost on the
    first-move clock). Its page then said "the next round waits until the event resumes"
    under "This section is over", and offered "Resume in the console"."""
    section = make_section(club, organiser, format="round-robin", players=[make_player(), make_player()])
    event_services.start_section(by=organiser, section=section)
    cs.pause_section(section_id=section.pk)
    play_to_the_end(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED and section.paused_at is not None
    client.force_login(organiser)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "section is over" in page
    assert "Paused by the organisers" not in page
    assert "Resume in the console" not in page


def _confirm_of(page: str, button: str) -> str | None:
    """The data-confirm question of the button labelled ``button`` (None: it acts at once)."""
    found = re.search(rf'<button(?P<attrs>[^>]*)>{re.escape(button)}</button>', page)
    assert found, f"no button {button!r}"
    question = re.search(r'data-confirm="([^"]*)"', found.group("attrs"))
    return question.group(1).replace("&#x27;", "'") if question else None


def test_irreversible_clicks_ask_first_in_words(client, club, organiser, make_player):
    """Start now, Start this section now and a mid-event Withdraw acted on one click
    (static/js/site.js asks the data-confirm question; tests/browser/test_tournament_pages.py)."""
    players = [make_player(username=f"conf{i}") for i in range(4)]
    section = make_section(club, organiser, format="swiss", players=players,
                           check_in_opens_at=timezone.now() - timedelta(minutes=5))
    for player in players:
        cs.check_in(section=section, user=player)
    client.force_login(organiser)
    page = client.get(url("section", section)).content.decode()
    assert _confirm_of(page, "Start this section now") == (
        f"Start {section.name} now: registration closes and round 1 is paired at once. Players who have not "
        "checked in are withdrawn. This cannot be undone. Start?")
    tournament = section.tournament
    page = client.get(reverse("competitions:tournament", args=[club.slug, tournament.slug])).content.decode()
    assert _confirm_of(page, "Start now") == (
        f"Start {tournament.name} now: registration closes and round 1 is paired at once. Players who have not "
        "checked in are withdrawn. This cannot be undone. Start?")
    assert _confirm_of(page, "Close registration") is None  # undone by "Open registration"

    # Before the start a player may enter again: Withdraw just acts. Mid-event it forfeits.
    client.force_login(players[0])
    assert _confirm_of(client.get(url("section", section)).content.decode(), "Withdraw") is None
    event_services.start_section(by=organiser, section=section)
    assert _confirm_of(client.get(url("section", section)).content.decode(), "Withdraw") == (
        f"Withdraw from {section.name}: your game in play is lost by forfeit and you are paired in no later round. "
        "This cannot be undone. Withdraw?")


def test_starting_an_arena_asks_in_its_words(client, club, organiser, make_player):
    section = make_section(club, organiser, format="arena", players=[make_player(), make_player()])
    client.force_login(organiser)
    assert _confirm_of(client.get(url("section", section)).content.decode(), "Start this section now") == (
        f"Start {section.name} now: registration closes and play begins at once. This cannot be undone. Start?")


def test_a_withdrawn_player_is_counted_nowhere_and_named_apart(client, club, organiser, make_player):
    """The tournament page and the section page count the same players, those entered and
    not withdrawn; the withdrawn are named on a line of their own."""
    people = [make_player(username=f"wd{i}", display_name=f"Wd{i}") for i in range(1, 4)]
    section = make_section(club, organiser, format="swiss", players=people, rounds=1, capacity=64)
    cs.withdraw(section=section, user=people[0])
    tournament_page = text_of(client.get(reverse("competitions:tournament", args=[
        club.slug, section.tournament.slug])).content.decode())
    assert "2 players of 64" in tournament_page
    players = client.get(url("section", section)).content.decode().split('<section id="section-players"')[1]
    players = players.split("</section>")[0]
    listed, withdrawn = players.split('class="muted small withdrawn-players"')
    assert "Players (2)" in listed
    assert ">Wd2</a>" in listed and ">Wd3</a>" in listed and "Wd1" not in listed and "withdrawn" not in listed
    assert text_of("<p " + withdrawn).strip().endswith("Withdrawn: Wd1")


def test_prizes_list_the_places_first_then_the_special_prizes(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", rounds=1)
    cs.add_prize(section=section, kind="age", age_over=65, label="Best 65+")
    cs.add_prize(section=section, kind="rating", rating_below=1400, label="Best under 1400")
    cs.add_prize(section=section, label="2nd", place=2)
    cs.add_prize(section=section, label="1st")
    prizes = text_of(client.get(url("section", section)).content.decode().split('id="prize-heading"')[1]
                     .split("</ul>")[0])
    assert re.findall(r"1st|2nd|Best 65\+|Best under 1400", prizes) == ["1st", "2nd", "Best 65+", "Best under 1400"]
