"""A section's pages as an outside walkthrough read them: withdrawal texts named the
player by their username ("jonas withdrew from the section."), a knocked-out player was
still offered Withdraw, a finished section showed an empty Organiser card, the notice
of a finished section told everyone not in its table "You withdrew before it started."
(a missed check-in too, and a withdrawn qualifier that they were beaten on seed), the
BH Cut-1 key did not say that an unplayed round is cut first, and a Swiss had no
crosstable. The tap targets are checked in a browser (tests/browser/test_section_tables_phone.py)."""

from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from accounts.notices import Kind
from games import rule_sets as game_rule_sets
from games import services as game_services
from games.models import Game
from league import competitions as cs
from league.competitions import event_selectors, event_services
from league.formats import tiebreaks
from league.models import Entry, Pairing, PairingPlayer, Section, Standing
from tests.factories import make_section, players, section_with

from .support import decide, one_move, play_to_the_end, run_decided, text_of, url

pytestmark = pytest.mark.django_db


def _page(client, section) -> str:
    return client.get(url("section", section)).content.decode()


# -- 2. withdrawals name the player as the site does -------------------------------------------


def test_a_withdrawal_mid_game_names_the_player_by_their_display_name(make_player):
    jonas = make_player(username="jonas", display_name="Jonas Berg")
    field = [jonas, *players(make_player, 3)]
    section = section_with(field, format="round-robin")
    pairing = Pairing.objects.get(Q(first=jonas) | Q(second=jonas), section=section, round__number=1)
    game = pairing.game
    assert game is not None
    one_move(game)  # begun, so lost by forfeit (one not begun is called off, with the same words)

    cs.withdraw(section=section, user=jonas)
    game.refresh_from_db()
    opponent = pairing.second if pairing.first_id == jonas.pk else pairing.first
    assert game.end_reason == f"Jonas Berg withdrew from the section: {opponent.name} wins by forfeit."


def test_a_withdrawal_before_the_first_move_tells_the_opponent_they_win_by_forfeit(make_player):
    """A game without a move is called off, and its notice said only "Your game ... with
    Lucía was aborted. Lucía withdrew from the section." though the opponent wins the
    pairing by forfeit (organiser probe)."""
    lucia = make_player(username="lucia", display_name="Lucía")
    section = section_with([lucia, *players(make_player, 3)], format="single-elimination")
    pairing = Pairing.objects.get(Q(first=lucia) | Q(second=lucia), section=section, round__number=1)
    opponent = pairing.second if pairing.first_id == lucia.pk else pairing.first
    cs.withdraw(section=section, user=lucia)
    game = Game.objects.get(pk=pairing.game_id)
    assert game.status == Game.Status.ABORTED
    assert game.end_reason == f"Lucía withdrew from the section: {opponent.name} wins by forfeit."


def test_the_organisers_withdrawal_and_its_refusal_name_the_player_by_their_display_name(client, club, organiser,
                                                                                          make_player):
    maya = make_player(username="maya", display_name="Maya Lin")
    section = make_section(club, organiser, format="swiss", players=[maya])
    client.force_login(organiser)
    page = _page(client, section)
    assert "Withdraw Maya Lin from" in html_lib.unescape(page)  # the question before the click

    client.post(url("section-players", section), {"action": "withdraw", "username": "maya"})
    assert "Maya Lin is withdrawn." in _page(client, section)
    with pytest.raises(ServiceError, match=r"^Maya Lin is not entered in this section\.$"):
        event_services.withdraw_player(by=organiser, section=section, user=maya)


# -- 3. Withdraw only when it means something ------------------------------------------------


def _first_round_decided(section) -> tuple[list, list]:
    """Round 1 won by the higher seeds; (winners, losers) by user."""
    assert decide(section)
    cs.sweep()
    section.refresh_from_db()
    round_1 = Pairing.objects.filter(section=section, round__number=1)
    winners = [p.first if p.first_points == 1 else p.second for p in round_1]
    losers = [p.second if p.first_points == 1 else p.first for p in round_1]
    return winners, losers


def test_a_knocked_out_player_with_nothing_left_to_play_is_not_offered_withdraw(client, make_player):
    section = section_with(players(make_player, 4), format="single-elimination")
    winners, losers = _first_round_decided(section)
    assert section.status == Section.Status.RUNNING
    out, through = losers[0], winners[0]

    assert not event_selectors.entry_state(section=section, user=out).can_withdraw
    client.force_login(out)
    assert 'value="withdraw"' not in _page(client, section)
    with pytest.raises(ServiceError) as refused:
        cs.withdraw(section=section, user=out)
    assert refused.value.code == "knocked-out"
    assert Entry.objects.get(section=section, user=out).status != Entry.Status.WITHDRAWN

    # Still in (the final to play): Withdraw means forfeiting it, so it is offered.
    assert event_selectors.entry_state(section=section, user=through).can_withdraw
    client.force_login(through)
    assert 'value="withdraw"' in _page(client, section)


def test_a_knocked_out_player_with_a_placement_match_to_play_may_still_withdraw(make_player):
    section = section_with(players(make_player, 4), format="single-elimination", placements="third")
    _, losers = _first_round_decided(section)
    # Out of the final, but the third-place match is theirs to play (or forfeit).
    assert all(event_selectors.entry_state(section=section, user=loser).can_withdraw for loser in losers)


def test_the_organiser_is_offered_withdraw_only_beside_players_with_a_game_left(make_player, club, organiser):
    section = section_with(players(make_player, 4), format="single-elimination", club=club)
    winners, losers = _first_round_decided(section)
    admin = event_selectors.section_admin(section, organiser)
    assert admin is not None
    assert admin.withdrawable == frozenset(u.pk for u in winners)
    with pytest.raises(ServiceError, match=r"is out of the knockout with no game left to play"):
        event_services.withdraw_player(by=organiser, section=section, user=losers[0])


# -- 4. a finished section's Organiser card -------------------------------------------------


def test_a_finished_section_shows_no_empty_organiser_card_but_keeps_its_exports(client, club, organiser,
                                                                                  make_player):
    section = make_section(club, organiser, format="swiss", rounds=1, players=players(make_player, 4))
    client.force_login(organiser)
    assert 'id="section-org-heading"' in _page(client, section)  # before the start: start, edit, delete

    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    page = _page(client, section)
    assert 'id="section-org-heading"' not in page and 'class="card organiser"' not in page
    assert "standings (CSV)" in page


# -- 5. the notice of a finished section says what is true for each entrant --------------------


def _finished_notice(user) -> str:
    return Notice.objects.get(recipient=user, kind=Kind.TOURNAMENT_FINISHED).message


def test_the_finished_notice_says_why_each_entrant_has_no_place(make_player, club, organiser):
    now = timezone.now()
    field = players(make_player, 4)
    late, quitter, removed = (make_player(username=name) for name in ("late", "quitter", "removed"))
    section = make_section(club, organiser, format="swiss", rounds=1, players=[*field, late, quitter, removed],
                           check_in_opens_at=now - timedelta(minutes=5), check_in_closes_at=now + timedelta(minutes=30))
    for user in field:
        cs.check_in(section=section, user=user)
    cs.withdraw(section=section, user=quitter)
    event_services.withdraw_player(by=organiser, section=section, user=removed)
    event_services.start_section(by=organiser, section=section)  # "late" never checked in
    run_decided(section)

    assert "You did not play: you had not checked in when round 1 started." in _finished_notice(late)
    assert "You withdrew before it started." in _finished_notice(quitter)
    assert "The organiser withdrew you before it started." in _finished_notice(removed)
    assert not any("before it started" in _finished_notice(user) or "check" in _finished_notice(user)
                   for user in field)


def test_a_withdrawn_player_ranked_in_an_earlier_stage_is_told_they_withdrew_not_beaten_on_seed(make_player, club):
    tournament = cs.create_tournament(club=club, name="Two stages", starts_at=timezone.now() + timedelta(seconds=60))
    rules = game_rule_sets.standard_rule_set("classic")
    first = cs.create_section(tournament=tournament, name="Swiss stage", format="swiss", rounds=2, rule_set=rules,
                              starts_at=tournament.starts_at)
    following = cs.create_section(tournament=tournament, name="Final", format="single-elimination", rule_set=rules,
                                  previous_stage=first, advance=2, starts_at=tournament.starts_at + timedelta(days=1))
    for user in players(make_player, 4):
        cs.register(section=first, user=user)
    cs.start_round(section_id=first.pk, number=1, force=True)
    assert decide(first)
    cs.sweep()  # the results, as the worker records them
    leader = Standing.objects.filter(section=first).order_by("rank", "user__username").first()
    assert leader is not None and leader.points == 1
    cs.withdraw(section=first, user=leader.user)  # between the rounds: the point won stays in the table
    run_decided(first)

    assert Standing.objects.filter(section=first, user=leader.user).exists()
    message = _finished_notice(leader.user)
    assert f"; withdrawn since, you do not go through to {following.name}." in message
    assert "better seed" not in message and "before it started" not in message


# -- 6. the BH Cut-1 key says what the tie-break does -------------------------------------------


def test_buchholz_cut_1_cuts_an_unplayed_round_first_as_its_key_says():
    """A forfeit win (own score 2 as its dummy opponent's) is cut before a real opponent
    who scored 0: the key's words are the code's behaviour."""
    results = {
        "a": [tiebreaks.RoundResult("b", 1.0), tiebreaks.RoundResult("c", 1.0, played=False)],
        "b": [tiebreaks.RoundResult("a", 0.0), tiebreaks.RoundResult(None, 0.0, played=False)],
        "c": [tiebreaks.RoundResult(None, 0.0, played=False), tiebreaks.RoundResult("a", 0.0, played=False)],
    }
    score = tiebreaks.scores(results)
    assert tiebreaks.value("buchholz-cut1", "a", results, score) == score["b"] == 0.0  # not the lowest, 0, cut
    meaning = event_selectors.TIEBREAK_MEANINGS["buchholz-cut1"]
    assert "a round not played over the board" in meaning and "game won or lost by forfeit" in meaning
    assert "if there is one, else the lowest opponent" in meaning


def test_the_standings_key_under_a_swiss_says_an_unplayed_round_is_cut_first(client, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=1)
    key = html_lib.unescape(text_of(_page(client, section).split('id="st-key">')[1].split("</dl>")[0]))
    assert ("BH Cut-1 Buchholz cut 1: the sum of the opponents' scores, less one: a round not played over the "
            "board (a bye, or a game won or lost by forfeit) if there is one, else the lowest opponent") in key


# -- 7. a Swiss's crosstable -------------------------------------------------------------------


def _crosstable(page: str) -> tuple[list[str], list[list[str]]]:
    table = page.split('<table class="crosstable by-round"')[1].split("</table>")[0]
    head = table.split("<thead>")[1].split("</thead>")[0]
    headings = [text_of(c).strip() for c in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    body = table.split("<tbody>")[1].split("</tbody>")[0]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        # The visible text only (the words for screen readers are said again, hidden).
        visible = (re.sub(r'<span class="visually-hidden">.*?</span>', "", c) for c in cells)
        rows.append([" ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", c)).split()) for c in visible])
    return headings, rows


def test_a_swiss_has_a_crosstable_by_round_that_agrees_with_its_pairings_and_table(client, make_player):
    section = section_with(players(make_player, 5), format="swiss", rounds=3)
    play_to_the_end(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    headings, rows = _crosstable(_page(client, section))
    assert headings == ["Rk.", "SNo", "Player", "R1", "R2", "R3", "Points"]

    table = list(Standing.objects.filter(section=section).order_by("rank", "user__username").select_related(
        "user__profile"))
    assert [row[2] for row in rows] == [s.user.name for s in table]  # in standing order
    assert [int(row[0]) for row in rows] == [s.rank for s in table]
    assert [float(row[-1].replace("½", ".5")) for row in rows] == [s.points for s in table]
    # Opponents by starting number (the seed), which stays the same whatever the standing.
    number = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    assert [int(row[1]) for row in rows] == [number[s.user_id] for s in table]
    line = {s.user_id: index for index, s in enumerate(table)}
    byes = 0
    for side in PairingPlayer.objects.filter(round__section=section):
        cell = rows[line[side.user_id]][2 + side.round.number]
        if side.opponent_id is None:
            byes += 1
            assert cell.startswith("bye ")
            continue
        result = {1.0: "1", 0.5: "½", 0.0: "0"}[side.points] if side.played else ("+" if side.points else "-")
        assert cell == f"{number[side.opponent_id]}{'F' if side.moves_first else 'S'} {result}"
    assert byes == 3  # five players, three rounds: a bye each round, each shown


def test_the_swiss_crosstable_numbers_opponents_as_the_players_list_does(client, make_player):
    """One numbering on the page: a cell's opponent number is the number the players list
    shows beside that opponent (the seed), not the row's place in the standings."""
    section = section_with(players(make_player, 5), format="swiss", rounds=3)
    play_to_the_end(section)
    page = _page(client, section)
    listed = page.split('id="section-players"')[1].split("</ul>")[0]
    number_of = {html_lib.unescape(name): int(seed) for seed, name in re.findall(
        r'<span class="seed">(\d+)</span> <a [^>]*>([^<]+)</a>', listed)}
    assert len(number_of) == 5
    _, rows = _crosstable(page)
    assert {row[2]: int(row[1]) for row in rows} == number_of
    seen = 0
    for row in rows:
        for cell in row[3:-1]:
            if cell and not cell.startswith("bye"):
                seen += 1
                assert int(re.match(r"\d+", cell).group()) in number_of.values()
    hidden = re.findall(r'<span class="visually-hidden">Against SNo (\d+), ([^,]+),', page)
    assert len(hidden) == seen > 0
    assert all(number_of[html_lib.unescape(name)] == int(n) for n, name in hidden)


def test_a_round_robin_keeps_its_crosstable_by_opponent(client, make_player):
    section = section_with(players(make_player, 4), format="round-robin")
    page = _page(client, section)
    assert '<table class="crosstable"' in page and "crosstable by-round" not in page


def test_a_swiss_not_started_has_no_crosstable(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", players=players(make_player, 4))
    assert "crosstable by-round" not in _page(client, section)


def test_a_game_in_play_shows_its_opponent_and_first_move_without_a_result(client, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=2)
    _, rows = _crosstable(_page(client, section))
    assert all(re.fullmatch(r"[1-4][FS] …", row[3]) for row in rows)  # R1, after Rk., SNo and Player
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 2


# -- a resignation before any move: the forfeit it is scored as, said in plain words ------------


def test_a_resignation_before_any_move_is_a_forfeit_and_every_page_says_so(client, make_player):
    """The game page said "resigned" while the crosstable showed "−", "lost by forfeit"
    and Games 0: the rule stays (a game ended before any move is unplayed), the words agree."""
    from league.ratings.selectors import game_rating_note

    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    pairing = Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY).select_related(
        "first__profile", "second__profile").first()
    assert pairing is not None and pairing.game is not None and pairing.game.ply == 0
    game_services.resign(game_id=pairing.game.pk, user=pairing.second)
    cs.sweep()
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.FIRST_FORFEIT_WIN  # the rule: still a forfeit
    first, second = pairing.first.name, pairing.second.name

    page = html_lib.unescape(_page(client, section))
    assert f"{first} won by forfeit: {second} resigned before any move" in text_of(page)
    # The crosstable's cells (their words, for the tooltip and screen readers): each names the opponent.
    assert f"{first}, moving second: lost by forfeit: resigned before any move" in page  # the second's row
    assert f"{second}, moving first: won by forfeit: resigned before any move" in page
    assert "a resignation before any move is" in page  # the crosstable's key
    assert "a game ended before any move, even by a resignation, is a forfeit" in page  # the standings' Games

    note = game_rating_note(Game.objects.get(pk=pairing.game_id))
    assert note is not None and not note.rated
    assert note.text.startswith(f"Unrated: {second} resigned before any move, and the section scores")
    assert "as a forfeit" in note.text
    replay = client.get(reverse("games:replay", args=[pairing.game_id]))  # the game page's note, after the game
    assert f"{second} resigned before any move" in html_lib.unescape(replay.content.decode())
