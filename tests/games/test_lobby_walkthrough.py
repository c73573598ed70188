"""The lobby after a newcomer's walkthrough: a game against the computer without a clock
unless asked, its no-show in words that fit the computer, a challenge by the name the
lists show, challenges to the viewer at the top, "Recently finished" of played games,
and the viewer among "Online now" on their first visit."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from accounts import players
from accounts.errors import ServiceError
from accounts.models import Presence, Profile
from games import selectors, services, time_controls
from games.models import Game, RuleSet
from games.rules import get_variant

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sweep_at(game: Game, seconds: float) -> int:
    game.refresh_from_db()
    assert game.turn_started_at is not None
    return services.flag_expired_clocks(now=game.turn_started_at + timedelta(seconds=seconds))


# -- 1. the computer's games: the clock and the no-show -------------------------------


@pytest.mark.parametrize("variant", ["nine-square", "tic-tac-two", "tactic-toe"])
def test_the_lobby_plays_the_computer_without_a_clock_unless_asked(alice, variant):
    client = signed_in(alice)
    form = {"variant": variant, "opponent": "ai", "ai_level": "casual", "seat": "0"}
    client.post("/play/new/", form)
    game = Game.objects.filter(created_by=alice).latest("pk")
    assert (game.rule_set.seconds_per_move, game.rule_set.seconds_per_game) == (None, None)
    assert time_controls.label_of(game.rule_set) == "No clock"
    # Nobody waits on the other side: the first move may wait as long as any other.
    assert sweep_at(game, 10 * 60) == 0 and Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE

    client.post("/play/new/", dict(form, ai_clock="rules"))
    timed = Game.objects.filter(created_by=alice).latest("pk")
    engine = get_variant(variant)
    assert timed.rule_set.is_standard
    assert (timed.rule_set.seconds_per_move, timed.rule_set.seconds_per_game) == (
        engine.default_seconds_per_move, engine.default_seconds_per_game)


def test_an_untimed_game_says_what_its_clock_face_counts_before_the_first_move(alice):
    """A probe's find: "No clock" in the head over a clock face counting down from
    "2d 23:59", and not a word why until the first move was made."""
    game = services.create_game(creator=alice, variant="classic", ai_level="casual", creator_seat=0, untimed=True)
    page = signed_in(alice).get(f"/play/{game.pk}/").content.decode()
    assert ("No clock: the first move may take up to 3 days; after it, if nobody moves for 3 days, "
            "the game ends as abandoned and the player to move loses.") in page
    assert "time to arrive" not in page and "the clock is No clock" not in page
    game = services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
    page = signed_in(alice).get(f"/play/{game.pk}/").content.decode()
    assert "the first move may take up to" not in page
    assert "No clock: if nobody moves for 3 days, the game ends as abandoned and the player to move loses." in page


def test_the_practice_copy_is_made_once_offered_nowhere_and_the_standard_rules_stay(alice):
    first = services.create_game(creator=alice, variant="nine-square", ai_level="casual", untimed=True)
    again = services.create_game(creator=alice, variant="nine-square", ai_level="casual", untimed=True)
    assert first.rule_set_id == again.rule_set_id
    assert first.rule_set not in selectors.current_rule_sets()
    standard = RuleSet.objects.get(variant="nine-square", is_standard=True, is_current=True)
    assert standard.seconds_per_move == get_variant("nine-square").default_seconds_per_move


def test_only_a_game_against_the_computer_may_be_untimed(alice, bob):
    with pytest.raises(ServiceError) as err:
        services.create_game(creator=alice, variant="classic", opponent=bob, untimed=True)
    assert err.value.code == "untimed-needs-ai"


def test_a_timed_game_against_the_computer_never_says_both_players_arrive_nor_did_not_show_up(alice, bob):
    # Classic: the challenger's seat is Player One, who moves first (no opening roll).
    game = services.create_game(creator=alice, variant="classic", ai_level="casual", creator_seat=0)
    assert game.to_move == [0] and game.seats.get(number=0).user == alice
    page = signed_in(alice).get(f"/play/{game.pk}/").content.decode()
    assert "The first move may take up to 5 minutes; after it, the clock is 3 min per game." in page
    assert "time to arrive" not in page
    assert sweep_at(game, game.rule_set.no_show_seconds + 1) == 1
    game.refresh_from_db()
    assert (game.end_reason, game.winner_seat, game.rated) == (
        "The game was abandoned: Player 1 never made a move.", 1, False)
    # Between two people the grace and its words are unchanged.
    human = services.accept_challenge(
        game_id=services.create_game(creator=alice, variant="nine-square", opponent=bob).pk, user=bob)
    assert "to give both players time to arrive" in signed_in(alice).get(f"/play/{human.pk}/").content.decode()


# -- 2. a challenge by the name shown ----------------------------------------------------


def test_a_player_is_found_by_the_name_the_lists_show(make_player):
    edith = make_player(username="edith_w", display_name="Edith")
    assert players.by_name_shown("Edith (105)") == edith
    assert players.by_name_shown("  edith ") == edith
    assert players.by_name_shown("@EDITH_W") == edith
    assert players.by_name_shown("Edith (1500?)") == edith
    with pytest.raises(ServiceError) as err:
        players.by_name_shown("Edna")
    assert err.value.code == "no-such-player"


def _same_name(*people, name: str) -> None:
    """Names made before the service refused a taken one (accounts.services): rows as such."""
    Profile.objects.filter(user__in=people).update(display_name=name)


def test_a_display_name_two_players_share_names_both_usernames(make_player):
    _same_name(make_player(username="sam_a"), make_player(username="sam_b"), name="Sam")
    with pytest.raises(ServiceError) as err:
        players.by_name_shown("Sam (120)")
    assert err.value.code == "ambiguous-player"
    assert "sam_a" in err.value.message and "sam_b" in err.value.message


def test_the_lobby_challenges_by_display_name_and_says_which_when_ambiguous(alice, make_player):
    edith = make_player(username="edith_w", display_name="Edith")
    client = signed_in(alice)
    client.post("/play/new/", {"variant": "classic", "opponent": "user", "username": "Edith (105)", "seat": "0"})
    challenge = Game.objects.filter(created_by=alice).latest("pk")
    assert challenge.seats.filter(user=edith).exists()
    _same_name(edith, make_player(username="edith_b"), name="Edith")
    page = client.post("/play/new/", {"variant": "classic", "opponent": "user", "username": "Edith", "seat": "0"})
    assert page.status_code == 400
    assert "More than one player is called" in page.content.decode() and "edith_b, edith_w" in page.content.decode()


def test_the_name_field_suggests_who_is_online(alice, bob):
    Presence.objects.create(user=bob, channel_name="c!bob")
    page = signed_in(alice).get("/play/").content.decode()
    assert 'list="lobby-players"' in page
    assert re.search(r'<datalist id="lobby-players">.*<option value="bob">', page, re.S)


# -- 3. challenges to the viewer first -------------------------------------------------


def test_a_challenge_to_the_viewer_comes_before_the_new_game_form(alice, bob):
    challenge = services.create_game(creator=bob, variant="classic", opponent=alice)
    page = signed_in(alice).get("/play/").content.decode()
    assert page.index("challenges you") < page.index('id="create-form"')
    assert page.count(f'id="open-{challenge.pk}"') == 1  # listed once, at the top
    part = signed_in(alice).get("/play/?part=to-you", headers={"HX-Request": "true"}).content.decode()
    assert "challenges you" in part and 'id="lobby-to-you"' in part
    # Its maker sees it among the open challenges, with Cancel.
    theirs = signed_in(bob).get("/play/").content.decode()
    assert "challenges you" not in theirs and f'aria-label="Cancel game {challenge.pk}"' in theirs


@pytest.mark.parametrize("query", ["variant=classic", "pace=none", "variant=classic&pace=quick"])
def test_no_filter_hides_a_challenge_to_the_viewer(alice, bob, carol, query):
    # Tactic-Toe's standard clock is "Longer": neither the variant nor the pace matches.
    challenge = services.create_game(creator=bob, variant="tactic-toe", opponent=alice)
    others = services.create_game(creator=carol, variant="tactic-toe")  # an open challenge: filtered
    page = signed_in(alice).get(f"/play/?{query}").content.decode()
    assert page.count(f'id="open-{challenge.pk}"') == 1
    assert page.index(f'id="open-{challenge.pk}"') < page.index('id="create-form"')
    assert f'id="open-{others.pk}"' not in page
    for part in ("to-you", "lists"):  # the 10-second refreshes keep it too
        html = signed_in(alice).get(f"/play/?part={part}&{query}", headers={"HX-Request": "true"}).content.decode()
        assert (f'id="open-{challenge.pk}"' in html) == (part == "to-you"), part
    # The filter still narrows everyone else's lists; the challenge is not listed to a third player.
    assert f'id="open-{challenge.pk}"' not in signed_in(carol).get("/play/").content.decode()


# -- 5. "Recently finished" -------------------------------------------------------------


def _played(game: Game, plies: int) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, ply=plies, finished_at=game.created_at)
    return game


def test_recently_finished_shows_played_games_between_people_and_the_viewers_own(alice, bob, carol):
    played = _played(services.create_game(creator=alice, variant="classic", opponent=bob), 5)
    no_show = _played(services.create_game(creator=alice, variant="classic", opponent=bob), 0)
    # A rated result moved ratings, even resigned before a move: the club's news.
    rated = _played(services.create_game(creator=bob, variant="classic", opponent=carol, rated=True), 0)
    bobs_practice = _played(services.create_game(creator=bob, variant="classic", ai_level="casual"), 5)
    alices_practice = _played(services.create_game(creator=alice, variant="classic", ai_level="casual"), 5)

    def shown(viewer):
        return {game.pk for game in selectors.lobby_games(viewer)["finished"]}

    assert shown(carol) == {played.pk, rated.pk}
    assert shown(None) == {played.pk, rated.pk}
    assert shown(alice) == {played.pk, rated.pk, alices_practice.pk}
    assert no_show.pk not in shown(alice) and bobs_practice.pk not in shown(alice)


# -- 6. "Online now" --------------------------------------------------------------------


def test_the_viewer_is_online_on_their_first_visit_in_the_lobby_and_on_players(alice, bob):
    assert not Presence.objects.filter(user=alice).exists()  # no socket yet: the page opens it
    lobby = signed_in(alice).get("/play/").content.decode()
    assert "Nobody is online just now" not in lobby and "(you)" in lobby
    assert players.online_players(viewer=alice) == [alice]
    assert players.online_players() == []
    listing = signed_in(alice).get("/players/").content.decode()
    assert "Nobody is online just now" not in listing
    assert "Nobody is online just now" in Client().get("/play/").content.decode()
