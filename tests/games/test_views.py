"""The live-play pages through Django's test client: lobby, create and accept with htmx
posts, the game page of every variant, the board partial, notes, secrets and replay."""

from __future__ import annotations

import re

import pytest
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from games import rule_sets, services
from games.models import Game
from games.rules import get_variant
from tests.factories import PASSWORD, GameFactory, SuperuserFactory
from tests.sockets import pushed_board

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    # django-axes checks every log-in against its lockout, so it needs the request.
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)
    return client


def started(variant: str, alice, bob) -> Game:
    return Game.objects.get(pk=GameFactory.create(creator=alice, opponent=bob, variant=variant).pk)


def buttons(html: str) -> dict[str, str]:
    """id -> the whole opening tag, for every button with an id."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<button[^>]*\bid="([^"]+)"[^>]*>', html)}


def enabled(tag: str) -> bool:
    # A live board's unplayable square is aria-disabled (still focusable for the arrow keys).
    return " disabled" not in tag and 'aria-disabled="true"' not in tag


class TestLobby:
    def test_lists_open_active_and_finished_games_with_their_actions(self, alice, bob, carol):
        open_game = services.create_game(creator=alice, variant="classic")
        active = started("classic", alice, bob)
        finished = started("classic", bob, carol)
        services.submit_move(game_id=finished.pk, user=bob, ply=0, move={"cell": 1})
        services.submit_move(game_id=finished.pk, user=carol, ply=1, move={"cell": 4})  # played: listed
        services.resign(game_id=finished.pk, user=carol)

        html = client_for(bob).get(reverse("games:lobby")).content.decode()
        assert f'aria-label="Accept game {open_game.pk}"' in html
        assert f'aria-label="Play game {active.pk}"' in html  # Bob's own: to play, not to watch
        assert f'aria-label="Replay game {finished.pk}"' in html
        # The creator is not offered their own challenge.
        assert "Accept game" not in client_for(alice).get(reverse("games:lobby")).content.decode()

    def test_anyone_may_look_but_only_players_get_the_form(self, db):
        html = Client().get(reverse("games:lobby")).content.decode()
        assert 'id="create-form"' not in html and "Log in" in html

    def test_htmx_refresh_sends_only_the_lists(self, alice):
        response = client_for(alice).get(reverse("games:lobby") + "?part=lists", **HTMX)
        html = response.content.decode()
        assert 'id="lobby-lists"' in html and "<html" not in html


    def test_a_players_set_with_a_standard_name_is_listed_as_theirs_and_standards_are_not_repeated(self, alice, bob):
        """The standard sets are "The variant's standard rules" (the first option): listed
        again by name they looked like house rules; a player's set that borrows a
        standard name is listed as theirs, with its variant (docs/security.md)."""
        standard = rule_sets.standard_rule_set("classic")
        copycat = rule_sets.create_rule_set(name="Standard classic", variant="classic", created_by=bob)
        html = client_for(alice).get(reverse("games:lobby")).content.decode()
        select = re.search(r'<select id="id_rule_set".*?</select>', html, re.S).group(0)
        options = re.findall(r'<option value="(\d*)"([^>]*)>([^<]*)</option>', select)
        assert options[0] == ("", "", "The variant's standard rules")
        labels = {int(pk): (attributes, label) for pk, attributes, label in options[1:]}
        assert standard.pk not in labels
        assert labels[copycat.pk] == (' data-variant="classic"', "Standard classic (v1, classic, by bob) · No clock")


class TestCreateAndAccept:
    def test_an_open_challenge_then_accepted_by_another_player(self, alice, bob):
        response = client_for(alice).post(
            reverse("games:create"), {"variant": "tactic-toe", "opponent": "open", "seat": "1"}, **HTMX
        )
        game = Game.objects.get()
        assert response["HX-Redirect"] == reverse("games:game", args=[game.pk])
        assert game.status == Game.Status.OPEN and game.variant == "tactic-toe"
        assert game.seats.get(number=1).user == alice

        response = client_for(bob).post(reverse("games:accept", args=[game.pk]), **HTMX)
        assert response["HX-Redirect"] == reverse("games:game", args=[game.pk])
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.seats.get(number=0).user == bob

    def test_a_challenge_to_a_named_player_and_against_the_ai(self, alice, bob):
        client = client_for(alice)
        client.post(
            reverse("games:create"), {"variant": "classic", "opponent": "user", "username": "BOB"}, **HTMX
        )
        client.post(
            reverse("games:create"),
            {"variant": "nine-square", "opponent": "ai", "ai_level": "random"},
            **HTMX,
        )
        named, ai = Game.objects.order_by("pk")
        assert named.seats.get(number=1).user == bob and named.status == Game.Status.OPEN
        assert ai.status == Game.Status.ACTIVE and {s.ai_level for s in ai.seats.all()} == {"", "random"}

    def test_errors_come_back_in_the_form_and_create_nothing(self, alice):
        client = client_for(alice)
        html = client.post(
            reverse("games:create"), {"variant": "classic", "opponent": "user", "username": "nobody"}, **HTMX
        ).content.decode()
        assert 'role="alert"' in html and "nobody" in html and 'id="create-form"' in html
        html = client.post(
            reverse("games:create"), {"variant": "chess", "opponent": "open"}, **HTMX
        ).content.decode()
        assert "no variant called" in html
        assert not Game.objects.exists()

    def test_own_challenge_cannot_be_accepted_and_guests_must_log_in(self, alice):
        game = services.create_game(creator=alice, variant="classic")
        html = client_for(alice).post(reverse("games:accept", args=[game.pk]), **HTMX).content.decode()
        assert "cannot accept your own" in html
        response = Client().post(reverse("games:accept", args=[game.pk]))
        assert response.status_code == 302 and "login" in response["Location"]
        assert Game.objects.get().status == Game.Status.OPEN


# The controls each variant's page must offer the player to move, and what they hold.
CONTROLS = {
    "classic": ["sq-1", "sq-5", "sq-9"],
    "tactic-toe": ["sq-1", "plan-clear", "plan-submit"],
    "nine-square": ["sq-1-1", "sq-9-9", "marks-clear", "marks-submit"],
    "t-tic-t-tac-toe": ["sq-1", "sq-25"],
    "tic-tac-two": ["sq-1", "sq-16"],
    "rock-paper-scissors": ["throw-rock", "throw-paper", "throw-scissors"],
}


class TestGamePage:
    @pytest.mark.parametrize("variant", sorted(CONTROLS))
    def test_every_variant_offers_its_controls_to_the_player_to_move(self, variant, alice, bob):
        game = started(variant, alice, bob)
        mover = alice if game.seats.get(number=game.to_move[0]).user == alice else bob
        html = client_for(mover).get(reverse("games:game", args=[game.pk])).content.decode()
        found = buttons(html)
        for control in CONTROLS[variant]:
            assert control in found, control
        assert f'data-socket="/ws/games/{game.pk}/?board=html"' in html and 'aria-live="assertive"' in html
        assert 'id="note-text"' in html and 'id="resign"' in html
        if variant == "classic":
            assert 'aria-label="Square 5, empty"' in found["sq-5"] and enabled(found["sq-5"])
        if variant == "tactic-toe":
            # Round 1 forbids the centre: its square is not offered, and the rule is explained.
            assert not enabled(found["sq-5"]) and enabled(found["sq-1"])
            assert "not the centre (5)" in html
        if variant == "nine-square":
            roll = get_variant(variant).load(game.state).roll  # type: ignore[attr-defined]
            assert (
                f'data-need="{roll}"' in html and len(re.findall(r'class="square mark-square"', html)) == 81
            )
        if variant == "t-tic-t-tac-toe":
            # The board drawer's wall around 13 (rule 3.1.02) is drawn on the square's edges.
            assert 'id="action-select"' in html and "place on square 13" in html
            assert "Berlin Wall around square 13" in html
            assert 'class="ttt-blockage wall box drawer protected x-2 y-2 w-1 h-1"' in html
            assert 'id="tool-place"' in html
        if variant == "tic-tac-two":
            assert "pick Double" in html and 'id="action-select"' in html

    def test_the_player_waiting_and_an_observer_get_no_live_controls(self, alice, bob):
        game = started("classic", alice, bob)
        waiting = buttons(client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode())
        assert not any(enabled(tag) for key, tag in waiting.items() if key.startswith("sq-"))
        html = Client().get(reverse("games:game", args=[game.pk])).content.decode()
        assert not any(enabled(tag) for key, tag in buttons(html).items() if key.startswith("sq-"))
        assert 'id="note-text"' not in html and 'id="resign"' not in html

    def test_the_board_partial_follows_moves_and_the_seed_shows_only_at_the_end(self, alice, bob):
        game = started("classic", alice, bob)
        for ply, (user, cell) in enumerate([(alice, 1), (bob, 4), (alice, 2), (bob, 5)]):
            services.submit_move(game_id=game.pk, user=user, ply=ply, move={"cell": cell})
        html = pushed_board(game.pk, alice)
        assert html.startswith('<div id="board"') and 'data-ply="4"' in html
        assert 'aria-label="Square 4, O"' in html and "square 5" in html  # the move list's notation
        assert game.seed not in html and game.seed_hash in html
        services.submit_move(game_id=game.pk, user=alice, ply=4, move={"cell": 3})
        html = pushed_board(game.pk)
        assert game.seed in html and "wins" in html and "square win" in html

    def test_the_boards_numbers_are_data_never_localised(self, alice, bob, settings):
        # A site that turns thousand separators on must not get "30,000" in the clock's
        # milliseconds (static/js/game.js reads them) or in a ply: the board partial
        # renders with localisation off, on the page and in every push.
        settings.USE_THOUSAND_SEPARATOR = True
        game = started("classic", alice, bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 4})
        for html in (client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode(),
                     pushed_board(game.pk, alice), pushed_board(game.pk)):
            clocks = re.findall(r'data-clock-ms="([^"]*)"', html)
            assert clocks and all(ms.isdigit() for ms in clocks), clocks
            assert any(int(ms) >= 1000 for ms in clocks)  # wide enough to be separated

    def test_the_move_list_names_who_made_each_move(self, alice, bob):
        game = started("classic", alice, bob)
        for ply, (user, cell) in enumerate([(alice, 1), (bob, 4)]):
            services.submit_move(game_id=game.pk, user=user, ply=ply, move={"cell": cell})
        html = pushed_board(game.pk)
        entries = [re.sub(r"\s+", " ", e).strip() for e in re.findall(r'<li>(.*?)</li>',
                   html.split('id="move-list"')[1].split("</ol>")[0], re.S)]
        assert entries[0].startswith(f'<span class="muted">1.</span> {alice.name} (X):'), entries
        assert entries[1].startswith(f'<span class="muted">2.</span> {bob.name} (O):'), entries

    def test_an_open_challenge_page_offers_accept_to_others(self, alice, bob):
        game = services.create_game(creator=alice, variant="classic")
        assert (
            "Accept and play" in client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
        )
        assert (
            "Accept and play"
            not in client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
        )
        assert Client().get(reverse("games:game", args=[999_999])).status_code == 404


class TestSecrets:
    def test_notes_are_private_to_their_author(self, alice, bob):
        game = started("classic", alice, bob)
        response = client_for(alice).post(
            reverse("games:note", args=[game.pk]), {"text": "fork on 7"}, **HTMX
        )
        assert "Saved" in response.content.decode()
        assert "fork on 7" in client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
        assert "fork on 7" not in client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
        assert "fork on 7" not in Client().get(reverse("games:game", args=[game.pk])).content.decode()

    def test_an_observer_cannot_write_notes(self, alice, bob, make_player):
        game = started("classic", alice, bob)
        html = client_for(make_player()).post(reverse("games:note", args=[game.pk]), {"text": "x"}, **HTMX)
        assert "Only the game" in html.content.decode()

    def test_an_unrevealed_plan_is_seen_only_by_its_author(self, alice, bob, make_player):
        game = started("tactic-toe", alice, bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"plan": [1, 3, 8]})
        mine = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
        assert "1, 3, 8" in mine
        for viewer in (client_for(bob), client_for(make_player()), Client()):
            html = viewer.get(reverse("games:game", args=[game.pk])).content.decode()
            assert "1, 3, 8" not in html and "secret until the reveal" in html
            assert game.moves.get().commitment[:10] in html  # the commitment is public
        services.submit_move(game_id=game.pk, user=bob, ply=1, move={"plan": [2, 4, 9]})
        html = Client().get(reverse("games:game", args=[game.pk])).content.decode()
        assert "1, 3, 8" in html and game.moves.first().nonce in html and "Round 1 revealed" in html


class TestReplay:
    def test_step_by_step_from_the_seed(self, alice, bob):
        game = started("classic", alice, bob)
        cells = [1, 4, 2, 5, 3]
        for ply, cell in enumerate(cells):
            services.submit_move(game_id=game.pk, user=(alice, bob)[ply % 2], ply=ply, move={"cell": cell})
        url = reverse("games:replay", args=[game.pk])
        client = Client()
        start = client.get(url + "?step=0").content.decode()
        assert start.count(', empty"') == 9 and "Move 0 of 5" in start
        step3 = client.get(url + "?step=3", **HTMX).content.decode()
        assert step3.lstrip().startswith('<div id="replay-step"')
        assert all(f'aria-label="Square {n}, {m}"' in step3 for n, m in ((1, "X"), (4, "O"), (2, "X")))
        assert (
            'aria-label="Square 5, empty"' in step3 and "Move 3 of 5" in step3
        )
        # The head says the move in the move list's words (an outside walkthrough: it said
        # "Move 3: square 2", the engine's notation, above "placed X in square 2 ...").
        # And who made it, as the move list names them (a newcomer stepping through a Tic
        # Tac Two draft read "Move 5: pick Shift", not whose pick it was).
        assert f"Move 3, {alice.name} (X): placed X in square 2 (top middle)" in step3
        assert "Move 3: square 2" not in step3
        assert f'href="{url}?step=2"' in step3 and f'href="{url}?step=4"' in step3
        last = client.get(url).content.decode()
        assert "Move 5 of 5" in last and "square win" in last and "Game over" in last

    def test_a_tactic_toe_round_replays_its_reveal(self, alice, bob):
        game = started("tactic-toe", alice, bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"plan": [2, 3, 7]})
        services.submit_move(game_id=game.pk, user=bob, ply=1, move={"plan": [2, 7, 1]})
        services.resign(game_id=game.pk, user=bob)
        url = reverse("games:replay", args=[game.pk])
        # After the first plan only: nothing on the board yet (the text's worked example).
        one = Client().get(url + "?step=1").content.decode()
        assert one.count(", empty") >= 9
        two = Client().get(url + "?step=2").content.decode()
        assert 'aria-label="Square 3, X"' in two and 'aria-label="Square 7, O"' in two
        assert 'aria-label="Square 1, O"' in two and 'aria-label="Square 2, empty"' in two
        # The head and the move list say the step's move in the same words.
        head = re.search(r'<p id="turn-status"[^>]*>\s*Move 2, [^:]+: (.*?)(?:\. Game over[^<]*)?\s*</p>', two, re.S).group(1)
        current = re.search(r'<li class="current"[^>]*>(.*?)</li>', two, re.S).group(1)
        assert head and head in " ".join(current.split()), (head, current)

    def test_the_ends_disable_the_links_that_would_stay_put(self, alice, bob):
        # A tester: on the last step "Next" and "Last" were live links to that same step.
        game = started("classic", alice, bob)
        for ply, cell in enumerate([1, 4, 2, 5, 3]):
            services.submit_move(game_id=game.pk, user=(alice, bob)[ply % 2], ply=ply, move={"cell": cell})
        url = reverse("games:replay", args=[game.pk])

        def controls(step: int) -> dict[str, str]:
            html = Client().get(f"{url}?step={step}").content.decode()
            found = {name: re.search(rf'<a [^>]*id="replay-{name}"[^>]*>', html) for name in ("first", "prev", "next", "last")}
            assert all(found.values()), found
            return {name: match.group(0) for name, match in found.items() if match}

        def disabled(tag: str) -> bool:
            return 'aria-disabled="true"' in tag and "href=" not in tag and "hx-get=" not in tag

        last, first, middle = controls(5), controls(0), controls(3)
        assert disabled(last["next"]) and disabled(last["last"])
        assert f'href="{url}?step=4"' in last["prev"] and f'href="{url}?step=0"' in last["first"]
        assert disabled(first["first"]) and disabled(first["prev"])
        assert f'href="{url}?step=1"' in first["next"] and f'href="{url}?step=5"' in first["last"]
        assert not any(disabled(tag) for tag in middle.values())

    def test_no_replay_while_the_game_runs(self, alice, bob):
        game = started("classic", alice, bob)
        assert Client().get(reverse("games:replay", args=[game.pk])).status_code == 404


# -- observer bans and policies on the HTTP pages (moderation's watch gate) -----------------


def test_a_banned_viewer_gets_a_403_page_and_the_players_still_play(alice, bob, make_player):
    from moderation import services as moderation

    root = SuperuserFactory.create()
    carol = make_player(username="carol")
    game = started("classic", alice, bob)
    urls = [reverse("games:game", args=[game.pk])]
    assert all(client_for(carol).get(url).status_code == 200 for url in urls)
    moderation.ban_user(actor=root, user=carol, game=game, reason="Shouting moves")
    for url in urls:
        page = client_for(carol).get(url)
        assert page.status_code == 403
        assert "You are banned from watching this game: Shouting moves" in page.content.decode()
    assert all(client_for(alice).get(url).status_code == 200 for url in urls)  # a seat always sees its game
    assert client_for(root).get(urls[0]).status_code == 200  # moderators always watch
    assert Client().get(urls[0]).status_code == 200  # guests: the policy is "anyone"
    game_row = Game.objects.get(pk=game.pk)
    moderation.set_observer_policy(actor=root, game=game_row, policy="signed-in")
    guest = Client().get(urls[0])
    assert guest.status_code == 403 and "Sign in to watch this game." in guest.content.decode()
    services.resign(game_id=game.pk, user=alice)
    assert client_for(carol).get(reverse("games:replay", args=[game.pk])).status_code == 403
    assert client_for(bob).get(reverse("games:replay", args=[game.pk])).status_code == 200


def test_a_full_observer_cap_does_not_close_the_page(alice, bob, make_player):
    from games import observing
    from moderation import services as moderation

    root = SuperuserFactory.create()
    game = started("classic", alice, bob)
    moderation.set_observer_policy(actor=root, game=game, policy="anyone", cap=1)
    observing.observer_joined(game_id=game.pk, user=make_player(), channel_name="specific.test!first")  # full
    # The cap counts open observer sockets: the page's socket is refused, not the page.
    assert Client().get(reverse("games:game", args=[game.pk])).status_code == 200
    moderation.set_observer_policy(actor=root, game=game, policy="none", cap=None)
    assert Client().get(reverse("games:game", args=[game.pk])).status_code == 403
