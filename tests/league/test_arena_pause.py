"""An arena's players away and back (league/competitions/arena_pause.py): a no-show is
paused and paired with nobody until they press "I'm back"; a player may pause for a
break; the page says why and offers the buttons; a no-show is told by a notice; the
players list and the standings mark who is paused; the standings say how ties are broken;
the arena shows its time left; and the pages say "round", never "wave"."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from games import services as game_services
from league import competitions as cs
from league.competitions import arena_pause
from league.models import Entry, Pairing, Section
from tests.factories import make_section, players, section_with

from .support import one_move, text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def arena_of(make_player, n: int = 2) -> Section:
    return section_with(players(make_player, n), format="arena", arena_duration=timedelta(minutes=10))


def in_play(section: Section) -> list[Pairing]:
    return list(section.pairings.filter(status=Pairing.Status.IN_PLAY))


def entry(section: Section, user) -> Entry:
    return Entry.objects.get(section=section, user=user)


def resign_after_a_move(pairing: Pairing) -> None:
    assert pairing.game is not None
    game = one_move(pairing.game)
    loser = game.seats.get(number=game.to_move[0]).user
    assert loser is not None
    game_services.resign(game_id=game.pk, user=loser)


def no_show(pairing: Pairing):
    """The first player moves, the second never does: the league's sweep forfeits them."""
    assert pairing.game is not None
    game = one_move(pairing.game)
    absent = game.seats.get(number=game.to_move[0]).user
    assert game.turn_started_at is not None
    later = game.turn_started_at + timedelta(seconds=pairing.section.rule_set.no_show_seconds + 5)
    assert cs.forfeit_no_show(pairing_id=pairing.pk, now=later) is not None
    return absent


def test_a_no_show_is_paused_and_paired_with_nobody_until_they_are_back(make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    absent = no_show(pairing)
    present = pairing.first if pairing.second_id == absent.pk else pairing.second
    mine = entry(section, absent)
    assert mine.paused_at is not None and "without a move (round 1, board 1)" in mine.paused_reason
    assert entry(section, present).paused_at is None
    # Before: the two were paired again at once, and again, each time a forfeit.
    assert in_play(section) == [] and cs.pair_arena(section_id=section.pk) is None

    cs.player_back(section=section, user=absent)  # on commit: league.pair_arena (eager here)
    assert entry(section, absent).paused_at is None and entry(section, absent).paused_reason == ""
    (again,) = in_play(section)
    assert {again.first_id, again.second_id} == {absent.pk, present.pk}


def test_a_no_show_ended_by_the_games_clock_is_flagged_as_the_league_s_sweep_flags_one(make_player):
    """The games' clock sweep ends the no-show grace before the league's (an arena's games
    are short): the pairing said only "-+", where forfeit_no_show's says who did not show."""
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    assert pairing.game is not None and pairing.game.ply == 0
    game_services.flag_expired_clocks(now=timezone.now() + timedelta(
        seconds=section.rule_set.no_show_seconds + 5))
    pairing.refresh_from_db()
    game = pairing.game
    assert game.ply == 0 and "did not show up" in game.end_reason and pairing.status == Pairing.Status.FINISHED
    absent = game.seats.exclude(number=game.winner_seat).get().user
    assert pairing.flags == [f"{absent.username} did not show up: forfeit"]
    assert pairing.result in (Pairing.Result.FIRST_FORFEIT_WIN, Pairing.Result.SECOND_FORFEIT_WIN)
    assert entry(section, absent).paused_at is not None


def test_a_game_lost_over_the_board_pauses_nobody(make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    resign_after_a_move(pairing)
    assert not section.entries.filter(paused_at__isnull=False).exists()
    (again,) = in_play(section)  # the only two free: a rematch
    assert again.round.number == 2


def test_a_double_forfeit_by_the_arbiter_pauses_both_and_only_them(make_player):
    section = arena_of(make_player, 4)
    forfeited, played = in_play(section)
    cs.forfeit_pairing(pairing_id=forfeited.pk, loser="both")
    resign_after_a_move(played)
    paused = set(section.entries.filter(paused_at__isnull=False).values_list("user_id", flat=True))
    assert paused == {forfeited.first_id, forfeited.second_id}
    (next_game,) = in_play(section)
    assert {next_game.first_id, next_game.second_id} == {played.first_id, played.second_id}


def test_a_player_pauses_for_a_break_their_game_goes_on_and_nothing_new_comes(make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    cs.pause_player(section=section, user=pairing.first)
    assert entry(section, pairing.first).paused_reason == "You paused."
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.IN_PLAY  # the game in play goes on
    resign_after_a_move(pairing)
    assert in_play(section) == []
    cs.player_back(section=section, user=pairing.first)
    assert len(in_play(section)) == 1


@pytest.mark.parametrize("case", ["twice", "back-not-paused", "not-entered", "not-arena", "time-up"])
def test_pausing_and_coming_back_are_refused_in_words(make_player, case):
    if case == "not-arena":
        section = section_with(players(make_player, 2), format="swiss", rounds=1)
    else:
        section = arena_of(make_player)
    someone = section.entries.first().user
    call, code = cs.pause_player, {"twice": "paused", "back-not-paused": "not-paused", "not-entered": "not-entered",
                                   "not-arena": "not-arena", "time-up": "arena-over"}[case]
    kwargs = {"section": section, "user": someone}
    if case == "twice":
        cs.pause_player(**kwargs)
    elif case == "back-not-paused":
        call = cs.player_back
    elif case == "not-entered":
        kwargs["user"] = make_player(username="outsider")
    elif case == "time-up":
        kwargs["now"] = timezone.now() + timedelta(minutes=11)
    before = list(section.entries.order_by("pk").values_list("paused_at", flat=True))
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.message
    assert list(section.entries.order_by("pk").values_list("paused_at", flat=True)) == before


def test_the_entry_box_says_why_a_player_is_paused_and_brings_them_back(client, make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    absent = no_show(pairing)
    client.force_login(absent)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "You are paused: You lost a game without a move (round 1, board 1)." in page
    assert "I'm back" in page and ">Pause<" not in page

    answer = client.post(url("section-entry", section), {"action": "back"}, follow=True)
    # Not "you are paired": with nobody free, nobody is paired yet.
    assert "Welcome back: the arena pairs you with the next player who is free." in text_of(answer.content.decode())
    assert entry(section, absent).paused_at is None and len(in_play(section)) == 1
    html = client.get(url("section", section)).content.decode()
    assert 'value="pause"' in html and 'value="back"' not in html

    client.post(url("section-entry", section), {"action": "pause"})
    assert entry(section, absent).paused_reason == "You paused."
    # A break is said as one ("You are paused: You paused." before).
    page = text_of(client.get(url("section", section)).content.decode())
    assert "You are on a break. The arena pairs you with nobody until you press “I'm back”." in page
    assert "You paused." not in page


def test_a_visitor_is_asked_to_log_in_to_an_arena_under_way(client, make_player):
    """An arena takes entries while it runs: a visitor was told "Registration is closed"
    where a signed-in player had the Register button."""
    section = arena_of(make_player)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Log in to enter." in page and "Registration is closed" not in page
    Section.objects.filter(pk=section.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Log in to enter." not in page and "Registration is closed: the section is under way." in page


def test_a_swiss_offers_no_pause(client, make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1)
    client.force_login(section.entries.first().user)
    html = client.get(url("section", section)).content.decode()
    assert 'value="pause"' not in html and "arena-clock" not in html


def test_the_arena_page_says_how_ties_are_broken_and_its_time_left(client, make_player):
    section = arena_of(make_player, 4)
    html = client.get(url("section", section)).content.decode()
    key = text_of(html.split('id="st-key"')[1].split("</div>")[0])
    assert "Players level on points are ranked by games played (over the board: a forfeit is none), more first; " \
           "level on both, they share the place." in key
    ends = section.starts_at + timedelta(minutes=10)
    clock = re.search(r'<span class="arena-clock">(.*?)</span>', html, re.S)
    assert clock and f'datetime="{ends.isoformat()}"' in clock[1]
    left = int(re.search(r'data-left-ms="(\d+)"', clock[1])[1])
    assert 9 * 60_000 < left <= 10 * 60_000
    assert re.search(r">(9:\d\d|10:00)</strong> left", clock[1])  # said without JavaScript too
    assert "js/arena-clock.js" in html
    assert "Wave" not in html and "wave" not in html and "Round 1" in html


def test_an_arena_whose_time_is_up_says_so(client, make_player):
    section = arena_of(make_player)
    Section.objects.filter(pk=section.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    facts = text_of(client.get(url("section", section)).content.decode().split('id="section-facts"')[1]
                    .split("</dl>")[0])
    assert "Time is up" in facts and "nobody is paired again" in facts and "left" not in facts


def test_an_arena_not_started_says_when_it_starts_not_round_1(client, club, organiser, make_player):
    section = make_section(club, organiser, format="arena", players=players(make_player, 2))
    client.force_login(organiser)
    facts = text_of(client.get(url("section", section)).content.decode().split('id="section-facts"')[1]
                    .split("</dl>")[0])
    assert "Starts " in facts and "Round 1" not in facts and "Ends" not in facts


# -- telling the player, and everyone else ----------------------------------------------------


def test_a_no_show_is_told_why_and_where_to_come_back_once(make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    absent = no_show(pairing)
    (notice,) = Notice.objects.filter(recipient=absent, kind=Notice.Kind.ARENA_PAUSED)
    assert notice.message == (f"{section}: you are paused. You lost a game without a move (round 1, board 1). "
                              "The arena pairs you with nobody until you press “I'm back” on its page.")
    assert notice.url == url("section", section) + "#entry-heading"
    assert notice.data == {"section": section.pk, "round": 1, "board": 1}
    present = pairing.first if pairing.second_id == absent.pk else pairing.second
    assert not Notice.objects.filter(recipient=present, kind=Notice.Kind.ARENA_PAUSED).exists()

    # The same result told again (a retried task): one notice, one pause.
    pairing.refresh_from_db()
    arena_pause.pause_forfeiters(section, pairing, timezone.now())
    assert Notice.objects.filter(recipient=absent, kind=Notice.Kind.ARENA_PAUSED).count() == 1


def test_a_double_forfeit_tells_both(make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    cs.forfeit_pairing(pairing_id=pairing.pk, loser="both")
    told = set(Notice.objects.filter(kind=Notice.Kind.ARENA_PAUSED).values_list("recipient_id", flat=True))
    assert told == {pairing.first_id, pairing.second_id}


def test_a_break_the_player_asked_for_writes_no_notice(make_player):
    section = arena_of(make_player)
    cs.pause_player(section=section, user=section.entries.first().user)
    assert not Notice.objects.filter(kind=Notice.Kind.ARENA_PAUSED).exists()


def players_list(html: str) -> dict[str, str]:
    """Each player's line in the players list, in words, by name."""
    items = html.split('id="section-players"')[1].split("</section>")[0].split("<li")[1:]
    lines = [text_of("<li" + item).strip() for item in items]
    return {line.split(" ")[1]: line for line in lines}  # after the seed


def test_the_players_list_marks_who_is_paused_and_the_organiser_sees_why(client, club, organiser, make_player):
    section = section_with(players(make_player, 4), format="arena", arena_duration=timedelta(minutes=10), club=club)
    forfeited, played = in_play(section)
    absent = no_show(forfeited)
    on_break = played.first
    cs.pause_player(section=section, user=on_break)
    since = {e.user_id: e.paused_at for e in section.entries.all()}
    absent_mark = f"paused since {since[absent.pk]:%H:%M} UTC"
    break_mark = f"paused since {since[on_break.pk]:%H:%M} UTC"

    client.force_login(organiser)
    listed = players_list(client.get(url("section", section)).content.decode())
    assert listed[absent.name].endswith(f"{absent_mark} (lost a game without a move)")
    assert listed[on_break.name].endswith(f"{break_mark} (taking a break)")
    assert [name for name, line in listed.items() if "paused" in line] == \
        [name for name in listed if name in (absent.name, on_break.name)]  # the others are paired as usual

    client.force_login(played.second)  # another player: who is away, not why
    listed = players_list(client.get(url("section", section)).content.decode())
    assert listed[absent.name].endswith(absent_mark) and listed[on_break.name].endswith(break_mark)

    # A live refresh (the section socket's htmx fetch) sends the list again, the mark with it.
    cs.player_back(section=section, user=on_break)
    listed = players_list(client.get(url("section", section), HTTP_HX_REQUEST="true").content.decode())
    assert listed[absent.name].endswith(absent_mark) and "paused" not in listed[on_break.name]


def test_the_standings_mark_a_paused_player_who_keeps_their_place(client, make_player):
    section = arena_of(make_player)
    (pairing,) = in_play(section)
    absent = no_show(pairing)
    html = client.get(url("section", section)).content.decode()
    row = next(r for r in html.split('class="standings"')[1].split("<tr") if absent.name in r)
    assert 'class="paused-mark"' in row and ">paused</span>" in row
    assert section.standings.filter(user=absent).exists()  # still in the table
    key = unescape(text_of(html.split('id="st-key"')[1].split("</dl>")[0]))
    assert "paused Not paired until they press “I'm back”" in key
    assert html.split('class="standings"')[1].split("</table>")[0].count('class="paused-mark"') == 1

    # Over: nobody is paired any more, so nobody is marked.
    cs.player_back(section=section, user=absent)
    cs.pause_player(section=section, user=absent)
    Section.objects.filter(pk=section.pk).update(status=Section.Status.FINISHED)
    html = client.get(url("section", section)).content.decode()
    assert "paused-mark" not in html and "paused since" not in html


def test_a_late_entrant_is_in_the_standings_at_once(make_player):
    """Found by a walkthrough: a player entering a running arena was listed and paired,
    but missing from the table until their first game ended."""
    section = arena_of(make_player)
    latecomer = make_player()
    cs.register(section=section, user=latecomer)
    table = {row.user_id: row for row in section.standings.all()}
    assert latecomer.pk in table and table[latecomer.pk].points == 0 and table[latecomer.pk].played == 0
    assert len(table) == 3
