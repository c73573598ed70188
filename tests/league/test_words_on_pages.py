"""From an outside walkthrough of the section, tournament and rating pages: what they
say reads as people say it. Clocks and schedules in words ("3 minutes a game", not "180
s a game"); an entry's state in one sentence, never a status word repeated as its own
reason; a Swiss bye's points said beside the player they lift; rating changes as
"1512 → 1528 (+16)", the sign always shown, "provisional" in a word."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rule_sets as game_rule_sets
from games.time_controls import duration_words
from league import competitions as cs
from league.competitions import event_services
from league.competitions.event_selectors import StandingRow
from league.models import Entry, PairingPlayer
from league.ratings import explain
from league.ratings import services as rating_services
from league.templatetags.league_sections import duration
from tests.factories import finished_game, make_section, players, section_with

from .support import decide, run_decided, text_of, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return event_services.create_tournament(by=organiser, club=club, name="Words cup",
                                            starts_at=timezone.now() + timedelta(days=1))


# -- 1. durations in words -------------------------------------------------------------------


@pytest.mark.parametrize(("seconds", "words"), [
    (180, "3 minutes"), (10, "10 seconds"), (90, "1 minute 30 seconds"), (60, "1 minute"), (1, "1 second"),
    (5400, "1 hour 30 minutes"), (3600, "1 hour"), (2 * 86400, "2 days"), (86400 + 61, "1 day 1 minute 1 second"),
    (0, "0 seconds"),
])
def test_a_length_is_said_as_people_say_it(seconds, words):
    assert duration_words(seconds) == words


def test_the_duration_filter_takes_a_schedule_or_a_clock():
    assert duration(timedelta(minutes=20)) == "20 minutes"
    assert duration(180) == "3 minutes"
    assert duration(None) == "" and duration(0) == ""


def test_a_sections_clock_is_said_in_minutes_and_seconds(client, organiser, tournament):
    """The facts said "180 s a game · 10 s a move", and its rules in words "Each player has
    180 seconds for the whole game."."""
    clocked = game_rule_sets.create_rule_set(name="Blitz", variant="classic", seconds_per_game=180,
                                             seconds_per_move=10)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Blitz", format="swiss",
                                            variant="classic", rule_set=clocked)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Classic Tic Tac Toe, house rules: Blitz · 3 minutes a game · 10 seconds a move · rated" in page
    assert "Each move must be made within 10 seconds." in page
    assert "Each player has 3 minutes for the whole game." in page
    assert "180" not in page and " s a " not in page
    # The clock sits before who is Player One, as the describer orders it.
    assert page.index("for the whole game.") < page.index("Who is Player One: the pairing")
    listing = text_of(client.get(reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug]))
                      .content.decode())
    assert ("Swiss · rounds: the recommended number for the field, fixed at the start · Classic Tic Tac Toe, house rules: "
            "Blitz · 3 minutes "
            "a game · 10 seconds a move · rated") in listing


def test_a_sections_standard_rules_are_named_by_the_variant_not_its_slug(client, organiser, tournament):
    """The tournament and section pages said "Standard tic-tac-two (tic-tac-two)": the
    stored name of the standard set and the variant's slug (walkthrough)."""
    section = event_services.create_section(by=organiser, tournament=tournament, name="Fours", format="arena",
                                            variant="tic-tac-two", arena_duration=timedelta(minutes=30))
    page = text_of(client.get(url("section", section)).content.decode())
    listing = text_of(client.get(reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug]))
                      .content.decode())
    for text in (page, listing):
        assert "Tic Tac Two, standard rules · 1 minute a move · rated" in text
        assert "(tic-tac-two)" not in text and "Standard tic-tac-two" not in text


def test_a_clock_of_odd_seconds_keeps_both_units(client, organiser, tournament):
    clocked = game_rule_sets.create_rule_set(name="Ninety", variant="classic", seconds_per_game=90)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Ninety", format="swiss",
                                            variant="classic", rule_set=clocked)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "· 1 minute 30 seconds a game ·" in page and "Each player has 1 minute 30 seconds for the whole game." in page



# -- 2. an entry's state in one sentence -----------------------------------------------------


def _entry_box(client, section) -> str:
    """The words of the signed-in player's entry box on the section page."""
    page = client.get(url("section", section)).content.decode()
    box = re.search(r'<section class="card entry-box".*?</section>', page, re.S)
    assert box is not None
    return html.unescape(text_of(box.group(0))).strip()


def test_a_player_who_withdrew_is_told_so_once(client, club, organiser, make_player):
    """It said "You withdrew: Withdrew." (the stored reason is the status again)."""
    player = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[player])
    client.force_login(player)
    assert _entry_box(client, section).startswith("Your entry You are registered. ")
    client.post(url("section-entry", section), {"action": "withdraw"})
    box = _entry_box(client, section)
    assert box == "Your entry You withdrew from this section. Register"


def test_a_player_the_organiser_withdrew_is_told_who(client, club, organiser, make_player):
    player = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[player])
    client.force_login(organiser)
    client.post(url("section-players", section), {"action": "withdraw", "username": "mei"})
    assert Entry.objects.get(section=section, user=player).status == Entry.Status.WITHDRAWN
    client.force_login(player)
    assert _entry_box(client, section) == "Your entry The organiser withdrew you from this section. Register"


@pytest.mark.parametrize(("reason", "said"), [
    ("Ill", "Your entry was withdrawn. The reason given: “Ill”."),
    ("Left the club.", "Your entry was withdrawn. The reason given: “Left the club.”"),
])
def test_a_reason_given_is_quoted_once(client, club, organiser, make_player, reason, said):
    player = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[player])
    event_services.withdraw_player(by=organiser, section=section, user=player, reason=reason)
    client.force_login(player)
    assert _entry_box(client, section) == f"Your entry {said} Register"


def test_a_player_who_did_not_check_in_is_told_why_they_are_out(client, make_player, eager_celery):
    """It said "You withdrew: Did not check in." to a player who had withdrawn nobody."""
    late, *others = players(make_player, 3)
    section = section_with([late, *others], format="swiss", start=False,
                           check_in_opens_at=timezone.now() - timedelta(minutes=5))
    for player in others:
        cs.check_in(section=section, user=player)
    cs.start_round(section_id=section.pk, number=1, force=True)
    client.force_login(late)
    box = _entry_box(client, section)
    assert box == ("Your entry You were withdrawn when round 1 started, as you had not checked in. "
                   "Registration is closed: this section is under way.")


def test_a_player_who_withdrew_mid_event_is_not_told_twice(client, make_player, eager_celery):
    """With late entries open the refusal to enter again said "You withdrew from this
    section after it started." under the status that had just said so."""
    leaver, *others = players(make_player, 4)
    section = section_with([leaver, *others], format="swiss", late_entry_rounds=2)
    cs.withdraw(section=section, user=leaver)
    client.force_login(leaver)
    box = _entry_box(client, section)
    assert box == ("Your entry You withdrew from this section. "
                   "You cannot enter again now that the section has started.")


def test_a_player_in_play_and_after(client, make_player, eager_celery):
    """Mid-event "You are registered (seed 2)." read as if nothing had started."""
    first, second = players(make_player, 2)
    section = section_with([first, second], format="round-robin")
    seed = Entry.objects.get(section=section, user=first).seed
    client.force_login(first)
    assert _entry_box(client, section).startswith(f"Your entry You are playing in this section (seed {seed}). ")
    run_decided(section)
    assert _entry_box(client, section) == f"Your entry You played in this section (seed {seed})."


def test_a_player_out_of_a_knockout_is_told_so(client, make_player, eager_celery):
    field = players(make_player, 4)
    section = section_with(field, format="single-elimination")
    decide(section)  # the higher seeds win round 1
    cs.sweep()  # the results (as the worker would record them)
    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    loser, winner = max(field, key=lambda user: seeds[user.pk]), min(field, key=lambda user: seeds[user.pk])
    client.force_login(loser)
    # Nothing follows: out, with no game left, they are offered no Withdraw (it would forfeit nothing).
    assert _entry_box(client, section).strip() == "Your entry You are seed 4: eliminated in the semi-finals."
    client.force_login(winner)
    assert _entry_box(client, section).startswith("Your entry You are seed 1: still in the final. ")


def test_a_checked_in_player_is_told_once_with_a_tick(client, club, organiser, make_player):
    """It said "You are checked in.", "You are checked in (...): you will be paired." and
    "Checked in ✓", one under the other."""
    player = make_player(username="mei")
    section = make_section(club, organiser, format="swiss", players=[player],
                           check_in_opens_at=timezone.now() - timedelta(minutes=5))
    client.force_login(player)
    client.post(url("section-entry", section), {"action": "check-in"})
    box = _entry_box(client, section)
    assert box.startswith("Your entry ✓ You are checked in (") and box.endswith("): you will be paired. Withdraw")
    assert box.count("checked in") == 1


# -- 3. a bye's points said beside the player -------------------------------------------------


def _standings_rows(page: str) -> list[str]:
    table = re.search(r'<table class="standings".*?</table>', page, re.S)
    assert table is not None
    return [html.unescape(text_of(row)).strip() for row in re.findall(r"<tr>.*?</tr>", table.group(0), re.S)[1:]]


def test_a_swiss_bye_is_said_beside_the_player_and_in_the_key(client, make_player, eager_celery):
    """A bye scores a win's point with no game: its player could stand above players who
    had won games, and nothing on the page said why."""
    field = players(make_player, 3)
    section = section_with(field, format="swiss", rounds=2)
    bye = PairingPlayer.objects.get(round__section=section, round__number=1, opponent__isnull=True)
    decide(section)
    page = client.get(url("section", section)).content.decode()
    rows = _standings_rows(page)
    had_bye = next(row for row in rows if bye.user.name in row)
    assert f"{bye.user.name} 1 point from a bye in round 1 1 " in had_bye
    assert sum("from a bye" in row for row in rows) == 1
    key = html.unescape(text_of(re.search(r'<div class="table-key.*?</div>', page, re.S).group(0)))
    assert ("A bye (sitting out a round when the number of players is odd) scores 1 point, as a win does, without "
            "a game: so a player who had one can rank above players who won more games (the bye is said under "
            "their name).") in key
    run_decided(section)
    results = client.get(url("section-results", section)).content.decode()
    assert "from a bye in round 1" in text_of(results) and "A bye (sitting out a round" in text_of(results)


def test_a_table_without_byes_says_nothing_of_them(client, make_player, eager_celery):
    section = section_with(players(make_player, 4), format="swiss", rounds=2)
    assert decide(section) == 2
    page = text_of(client.get(url("section", section)).content.decode())
    assert "from a bye" not in page and "A bye (sitting out" not in page


def test_the_bye_note_in_words():
    def row(byes):
        return StandingRow(1, None, 0.0, [], 0, 0, 0, 0, None, False, byes=byes)  # type: ignore[arg-type]
    assert row([]).bye_note == ""
    assert row([(3, 1.0)]).bye_note == "1 point from a bye in round 3"
    assert row([(3, 0.5)]).bye_note == "½ point from a bye in round 3"
    assert row([(2, 1.0), (7, 1.0)]).bye_note == "2 points from byes in rounds 2 and 7"
    assert row([(1, 0.5), (4, 1.0), (6, 1.0)]).bye_note == "2½ points from byes in rounds 1, 4 and 6"


# -- 4. rating changes as "1512 → 1528 (+16)" ------------------------------------------------


@pytest.fixture
def rated(make_player):
    """ann wins her first game (a provisional estimate up), then loses two (no change:
    the estimate stays); ben's first game is a loss (no estimate: ±0)."""
    ann, ben, cat = (make_player(username=n) for n in ("ann", "ben", "cat"))
    games = [finished_game(ann, ben), finished_game(cat, ann), finished_game(cat, ann)]
    for game in games:
        rating_services.rate_game(game_id=game.pk)
    return {"ann": ann, "ben": ben, "games": games}


def _changes(html_text: str) -> list[str]:
    """The words of each rating change (the player page's list, the game page's note)."""
    return [html.unescape(text_of(item)).strip()
            for item in re.findall(r'<span class="rating-move">.*?<span class="rating-why">.*?</span>', html_text, re.S)]


def test_a_change_reads_before_arrow_after_with_its_sign_once(client, rated):
    """The player page said "-13 Rating 1693 → 1680 (−13): ...": the change twice, with two
    different minus signs, and "0" with no sign for a change of nothing."""
    page = client.get(reverse("league:player", args=["ben"])).content.decode()
    assert _changes(page) == ["1800 → 1800 (±0) provisional No estimate yet: FIDE's first rating needs a score above "
                              "zero, so the rating stays at the starting 1800 after 1 game without a point."]
    page = client.get(reverse("league:player", args=["ann"])).content.decode()
    changes = _changes(page)
    assert len(changes) == 3
    assert re.match(r"1800 → \d+ \(\+\d+\) provisional The first rating is estimated again after each game, from "
                    r"this first game, a win\.", changes[-1])  # the oldest, last: newest first
    assert "from all 3 games together" in changes[0]  # the newest: every game so far
    for words in changes:
        assert re.match(r"\d+ → \d+ \(([+−]\d+|±0)\) provisional [A-Z]", words), words
        assert "Rating " not in words and words.count(" → ") == 1
        assert not re.search(r"(^|[\s(])-\d", words), words  # a true minus, never a hyphen
    # The list's heading says "provisional" in a word too (it showed a lone "P").
    heading = html.unescape(text_of(re.search(r'<h2 id="list-1">.*?</h2>', page, re.S).group(0)))
    assert re.fullmatch(r" ?Classic Tic Tac Toe · League: \d+ provisional ?", heading.replace("  ", " ")), heading


def test_the_game_page_says_each_players_change_the_same_way(client, rated):
    page = client.get(reverse("games:game", args=[rated["games"][0].pk])).content.decode()
    note = re.search(r'<section class="game-rating-note".*?</section>', page, re.S)
    assert note is not None
    words = html.unescape(text_of(note.group(0))).replace(" :", ":")
    assert re.search(r"ann \(League\): 1800 → \d+ \(\+\d+\) provisional The first rating is estimated again", words)
    assert "ben (League): 1800 → 1800 (±0) provisional No estimate yet:" in words
    assert "Rating 1800" not in words


def test_the_explanation_says_the_figures_once_and_signs_every_number():
    e = explain.established(rating_before=1693, rating_after=1680, opponent="Sam", opponent_rating=1816, score=0.0,
                            k=40)
    assert (e.signed, e.rating_before, e.rating_after) == ("−13", 1693, 1680)
    assert e.why == ("K = 40, expected score 0.33 against Sam (1816), scored 0 (a loss): 40 × (0 − 0.33) = −13.2, "
                     "rounded to −13.")
    assert e.text == f"Rating 1693 → 1680 (−13): {e.why}"
    assert explain.signed(16) == "+16" and explain.signed(-13) == "−13" and explain.signed(0) == "±0"
    glicko = explain.glicko(rating_before=1500, rating_after=1662, rd_before=350, rd_after=290, opponent="Sam",
                            opponent_rating=1500, score=1.0)
    assert glicko.provisional and glicko.why.startswith("Uncertainty ±350 → ±290: Glicko-2, against Sam (1500)")
    settled = explain.glicko(rating_before=1500, rating_after=1510, rd_before=90, rd_after=88, opponent="Sam",
                             opponent_rating=1500, score=1.0)
    assert not settled.provisional


def test_the_leaderboard_trend_and_the_chart_sign_every_change(client, rated):
    board = html.unescape(text_of(client.get(reverse("league:leaderboard", args=["classic"])).content.decode()))
    assert re.search(r"▼ −\d+", board) and "▼ -" not in board
    assert "±0" in board  # ben: one game, rating unchanged
    page = client.get(reverse("league:player", args=["ann"])).content.decode()
    titles = re.findall(r"<title>([^<]+)</title>", page)[1:]
    assert titles and all(re.search(r": rating \d+ → \d+ \(([+−]\d+|±0)\) after game #", t) for t in titles)
