"""Finding opponents (issue #18, item 1): player search, presence (who is online) and
its sweep, club members, directed challenges seen only by their two players, decline,
cancel and the rematch: services, pages and the API."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import players, presence
from accounts.errors import ServiceError
from accounts.models import Notice, Presence
from games import selectors, services
from games.models import Game
from league.models import ClubMembership
from tests.factories import ClubFactory, GameFactory, finished_game
from tests.sockets import pushed_board
from tests.support import token_client as client_for

GAMES = "/api/v1/games/"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- search -------------------------------------------------------------------------


@pytest.mark.django_db
def test_search_matches_username_and_display_name_any_case_prefixes_first(make_player):
    sam = make_player(username="sam")
    samira = make_player(username="samira")
    rosa = make_player(username="rosa", display_name="Rosa Samuels")
    make_player(username="kofi")
    assert players.search_players("SAM") == [sam, samira, rosa]  # a display-name prefix comes first
    assert players.search_players("samu") == [rosa]
    assert players.search_players("  ") == [] and players.search_players("zzz") == []
    with pytest.raises(ServiceError) as err:
        players.search_players("x" * 151)
    assert err.value.code == "query-too-long"


@pytest.mark.django_db
def test_search_and_online_list_leave_out_children_and_closed_accounts(make_player):
    child = make_player(username="kidsam", born=date(timezone.now().year - 10, 1, 1), guardian_name="Parent",
                        guardian_email="parent@example.com")
    child.is_active = True  # the guardian confirmed: still a child, never listed to strangers
    child.save()
    presence.socket_opened(user_id=child.pk, channel_name="c!child")
    closed = make_player(username="closedsam")
    closed.is_active = False
    closed.save()
    adult = make_player(username="adultsam")
    assert players.search_players("sam") == [adult]
    for user in (closed, adult):
        presence.socket_opened(user_id=user.pk, channel_name=f"c!{user.pk}")
    assert players.online_players() == [adult]


def child_stranger_and_coach(make_player):
    """An 11-year-old playing with a guardian's consent, a stranger, and a member of the
    child's club."""
    child = make_player(username="kiddo", born=date(timezone.now().year - 11, 1, 1), guardian_name="Parent",
                        guardian_email="parent@example.com")
    stranger, coach = make_player(username="stranger"), make_player(username="coach")
    club = ClubFactory.create()
    for user in (child, coach):
        ClubMembership.objects.create(club=club, user=user)
    return child, stranger, coach


@pytest.mark.django_db
def test_a_child_is_reached_by_club_mates_only_not_by_strangers_who_know_the_username(make_player, client):
    """The walkthrough's find: a stranger who read a child's username in the lobby's lists
    saw on their player page that they were online, and challenged them. Now only the
    members of a club the child belongs to see either; the child's tournament games
    (pairings, not challenges) are not affected."""
    child, stranger, coach = child_stranger_and_coach(make_player)
    presence.socket_opened(user_id=child.pk, channel_name="c!kiddo")
    page_url = reverse("league:player", args=["kiddo"])

    for viewer in (None, stranger):
        page = (signed_in(viewer) if viewer else client).get(page_url).content.decode()
        assert "Online now" not in page and f"Challenge {child.name}" not in page
        assert f"Only members of {child.name}'s clubs may challenge them" in page
        assert "guardian" not in page.lower()  # why is the child's to tell: it says they are a minor
    with pytest.raises(ServiceError) as refused:
        services.create_game(creator=stranger, variant="classic", opponent=child)
    assert refused.value.code == "clubmates-only" and "guardian" not in refused.value.message
    api = client_for(stranger).post(GAMES, {"variant": "classic", "opponent": "kiddo"}, format="json")
    assert api.status_code == 400 and api.json()["code"] == "clubmates-only"
    assert not Game.objects.exists() and not Notice.objects.filter(recipient=child, kind="challenge-received").exists()

    page = signed_in(coach).get(page_url).content.decode()
    assert "Online now" in page and f"Challenge {child.name}" in page
    assert services.create_game(creator=coach, variant="classic", opponent=child).status == Game.Status.OPEN
    # A pairing is no challenge: a tournament seats a child against whoever the draw gives.
    assert services.create_game(creator=stranger, variant="classic", opponent=child, notify=False)
    # The child reaches anyone, and sees their own page as before.
    assert services.create_game(creator=child, variant="classic", opponent=stranger).status == Game.Status.OPEN


def test_a_childs_open_challenge_is_listed_to_and_taken_by_club_mates_only(make_player):
    """An outside probe: a stranger could not challenge a child by name, but could take
    the child's open challenge from the lobby. Now it is listed to, and taken by, those
    who may reach the child; the child still takes anyone's open challenge."""
    child, stranger, coach = child_stranger_and_coach(make_player)
    open_game = services.create_game(creator=child, variant="classic")
    adults_game = services.create_game(creator=stranger, variant="classic")

    def listed(viewer):
        return set(selectors.lobby_games(viewer)["open"].values_list("pk", flat=True))

    assert listed(stranger) == {adults_game.pk} and listed(None) == {adults_game.pk}
    assert listed(coach) == listed(child) == {open_game.pk, adults_game.pk}
    api = client_for(stranger).get(GAMES, {"status": "open"}).json()
    assert [g["id"] for g in api["results"]] == [adults_game.pk]
    with pytest.raises(ServiceError) as refused:
        services.accept_challenge(game_id=open_game.pk, user=stranger)
    assert refused.value.code == "clubmates-only" and "guardian" not in refused.value.message
    answer = client_for(stranger).post(f"{GAMES}{open_game.pk}/accept/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "clubmates-only"
    assert Game.objects.get(pk=open_game.pk).status == Game.Status.OPEN
    assert services.accept_challenge(game_id=open_game.pk, user=coach).status == Game.Status.ACTIVE
    assert services.accept_challenge(game_id=adults_game.pk, user=child).status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_a_childs_open_challenge_is_not_shown_by_its_id_to_those_who_may_not_take_it(make_player, client):
    """An outside probe: the lobby hid a child's open challenge from strangers, but by its
    id (they are counted up) anyone read it, the child's name waiting for an opponent:
    the API, the page and the socket. Now refused as a challenge to one player is until
    it is accepted (`private-challenge`); club mates and the child read it as before."""
    from games import observing, sql

    child, stranger, coach = child_stranger_and_coach(make_player)
    open_game = services.create_game(creator=child, variant="classic")
    url, page = f"{GAMES}{open_game.pk}/", reverse("games:game", args=[open_game.pk])
    for reader in (client_for(stranger), APIClient()):
        for path in (url, f"{url}moves/"):
            answer = reader.get(path)
            assert answer.status_code == 403 and answer.json()["code"] == "private-challenge", path
    for viewer in (stranger, None):
        answer = (signed_in(viewer) if viewer else client).get(page)
        assert answer.status_code == 403 and child.name not in answer.content.decode()
    game = sql.game(open_game.pk)  # as the consumer reads it, with its seats
    refusal = observing.check_watch(game=game, user=stranger, viewer=f"user:{stranger.pk}")  # the socket's gate
    assert refusal is not None and refusal.code == "private-challenge" and refusal.close_code == 4403
    assert observing.check_watch(game=game, user=coach, viewer=f"user:{coach.pk}") is None
    for reader in (coach, child):
        assert client_for(reader).get(url).status_code == 200
        assert signed_in(reader).get(page).status_code == 200
    adults = services.create_game(creator=stranger, variant="classic")  # an adult's: anyone's to read
    assert APIClient().get(f"{GAMES}{adults.pk}/").status_code == 200
    services.accept_challenge(game_id=open_game.pk, user=coach)  # accepted: watched as any game
    assert client_for(stranger).get(url).status_code == 200


@pytest.mark.django_db
def test_a_stranger_offers_a_child_no_rematch_but_takes_the_childs_offer(make_player):
    """An outside probe: a child took a stranger's open challenge (as they may), and after
    the game the stranger's rematch was a challenge to the child, with its notice, which
    a challenge by name is refused. Now the stranger is told why, nothing is made, and
    the page offers no button; the child may offer the rematch, and the stranger accept."""
    child, stranger, coach = child_stranger_and_coach(make_player)
    game = services.create_game(creator=stranger, variant="classic")
    services.accept_challenge(game_id=game.pk, user=child)
    services.resign(game_id=game.pk, user=child)
    games_before = Game.objects.count()
    with pytest.raises(ServiceError) as refused:
        services.rematch(game_id=game.pk, user=stranger)
    assert refused.value.code == "clubmates-only" and "They may ask for one themselves" in refused.value.message
    assert "guardian" not in refused.value.message
    answer = client_for(stranger).post(f"{GAMES}{game.pk}/rematch/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "clubmates-only"
    page = signed_in(stranger).get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="rematch-refused"' in page and 'id="rematch-button"' not in page
    assert 'id="rematch-button"' in signed_in(child).get(reverse("games:game", args=[game.pk])).content.decode()
    assert Game.objects.count() == games_before
    assert not Notice.objects.filter(recipient=child, kind="challenge-received").exists()
    offered = services.rematch(game_id=game.pk, user=child)  # the child asks
    assert offered.status == Game.Status.OPEN
    assert services.rematch(game_id=game.pk, user=stranger).status == Game.Status.ACTIVE  # and the stranger accepts
    # A club mate's rematch with the child is a challenge they may make.
    mates = services.create_game(creator=coach, variant="classic", opponent=child)
    services.accept_challenge(game_id=mates.pk, user=child)
    services.resign(game_id=mates.pk, user=child)
    assert services.rematch(game_id=mates.pk, user=coach).status == Game.Status.OPEN


@pytest.mark.django_db
def test_challenges_waiting_for_one_player_are_capped_per_challenger(alice, bob, carol):
    """The attacker probe sent one player 40 challenges in a few seconds."""
    for _ in range(services.OPEN_CHALLENGES_TO_ONE):
        services.create_game(creator=alice, variant="classic", opponent=bob)
    with pytest.raises(ServiceError) as refused:
        services.create_game(creator=alice, variant="classic", opponent=bob)
    assert refused.value.code == "too-many-challenges" and "cancel one" in refused.value.message
    assert Notice.objects.filter(recipient=bob, kind="challenge-received").count() == services.OPEN_CHALLENGES_TO_ONE
    services.create_game(creator=carol, variant="classic", opponent=bob)  # another challenger is not held up
    services.create_game(creator=alice, variant="classic", opponent=carol)  # nor another opponent
    services.accept_challenge(game_id=Game.objects.filter(created_by=alice, seats__user=bob).first().pk, user=bob)
    services.create_game(creator=alice, variant="classic", opponent=bob)  # answered: room for one more


@pytest.mark.django_db
def test_the_search_page_and_its_htmx_results_show_online_dots(alice, bob, carol):
    presence.socket_opened(user_id=bob.pk, channel_name="c!bob")
    page = signed_in(alice).get(reverse("players"), {"q": "b"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/ratings/player/bob/"' in html and "Online now:" in html
    results = signed_in(alice).get(reverse("players"), {"q": "car"}, HTTP_HX_REQUEST="true")
    body = results.content.decode()
    assert "<html" not in body and "carol" in body and "bob" not in body
    assert signed_in(alice).get(reverse("players"), {"q": "x" * 200}).status_code == 200  # the reason, no 500


@pytest.mark.django_db
def test_the_api_search_and_online_list(alice, bob):
    presence.socket_opened(user_id=bob.pk, channel_name="c!bob")
    found = client_for().get("/api/v1/accounts/players/", {"q": "BO"})
    assert found.status_code == 200 and found.json() == [{"username": "bob", "name": bob.name, "online": True}]
    assert client_for().get("/api/v1/accounts/players/", {"q": "x" * 151}).json()["code"] == "query-too-long"
    online = client_for(alice).get("/api/v1/accounts/players/online/").json()
    assert [p["username"] for p in online] == ["bob"]


# -- presence ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layers_fresh")
async def test_a_signed_in_socket_is_presence_and_the_sweep_drops_a_dead_servers_rows(make_player):
    from config.asgi import application

    user = await database_sync_to_async(make_player)()
    token = await database_sync_to_async(lambda: Token.objects.create(user=user).key)()
    ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[
        (b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"), (b"authorization", f"Token {token}".encode())])
    assert (await ws.connect())[0]
    assert await ws.receive_json_from() == {"type": "unread", "unread": 0}  # the connect (and its row) is done
    assert await database_sync_to_async(presence.online_ids)([user.pk]) == {user.pk}

    def crash_leftovers() -> None:
        # A server killed with -9 never ran its sockets' disconnects: their rows stay.
        Presence.objects.create(user=user, channel_name="specific.dead-process!gone")
        Presence.objects.update(connected_at=timezone.now() - timedelta(minutes=5))

    await database_sync_to_async(crash_leftovers)()
    assert await database_sync_to_async(presence.sweep_stale_presence)() == 1
    names = await database_sync_to_async(lambda: list(Presence.objects.values_list("channel_name", flat=True)))()
    assert names and "specific.dead-process!gone" not in names  # the live socket's row stays
    await ws.disconnect()
    assert await database_sync_to_async(presence.online_ids)([user.pk]) == set()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layers_fresh")
async def test_an_anonymous_socket_is_nobodys_presence():
    from config.asgi import application

    ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")])
    assert (await ws.connect())[0]
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    assert await database_sync_to_async(Presence.objects.count)() == 0
    await ws.disconnect()


# -- club members ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_club_page_lists_members_with_online_marks_and_a_challenge_each(make_player, alice, bob):
    club = ClubFactory.create()
    child = make_player(username="kiddo", born=date(timezone.now().year - 10, 1, 1), guardian_name="Parent",
                        guardian_email="parent@example.com")
    child.is_active = True  # the guardian confirmed
    child.save()
    for user in (alice, bob, child):
        ClubMembership.objects.create(club=club, user=user)
    presence.socket_opened(user_id=bob.pk, channel_name="c!bob")
    html = signed_in(alice).get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert 'aria-label="Challenge bob"' in html and 'aria-label="Challenge alice"' not in html
    assert html.count("Online now:") == 1 and "kiddo" in html  # a fellow member sees the child
    outsider = make_player(username="outsider")
    outsider_page = signed_in(outsider).get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert "kiddo" not in outsider_page
    # A visitor is told how to join (a walkthrough found no way to); a member is not.
    ClubMembership.objects.filter(club=club, user=bob).update(role="organiser")
    outsider_page = signed_in(outsider).get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert "to join, ask" in outsider_page and f'">{bob.name}</a>' in outsider_page.split("to join, ask")[1]
    assert "to join, ask" not in signed_in(alice).get(reverse("competitions:club", args=[club.slug])).content.decode()
    # The API lists the members as the page does (it used to list the child to anyone).
    closed = make_player(username="closed")
    closed.is_active = False
    closed.save()
    ClubMembership.objects.create(club=club, user=closed)
    for who, seen in ((None, {"alice", "bob"}), (outsider, {"alice", "bob"}), (alice, {"alice", "bob", "kiddo"})):
        api = client_for(who) if who else Client()
        for url in (f"/api/v1/clubs/{club.slug}/", "/api/v1/clubs/"):
            body = api.get(url).json()
            listed = body if "slug" in body else next(c for c in body["results"] if c["slug"] == club.slug)
            assert {m["username"] for m in listed["members"]} == seen, (who, url)


@pytest.mark.django_db
def test_the_club_page_offers_no_challenge_the_games_service_would_refuse(make_player, alice, bob):
    """A walkthrough's find: "Challenge" beside a member without a date of birth, whom
    create_game refuses ("root cannot play: ..."). The list offers what the service takes
    (games.services.challenge_refusal), and their page says why instead of a form."""
    from tests.factories import SuperuserFactory

    root = SuperuserFactory.create()  # createsuperuser asks for no date of birth
    club = ClubFactory.create(members=[alice, bob, root])
    html = signed_in(alice).get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert 'aria-label="Challenge bob"' in html and 'aria-label="Challenge root"' not in html
    assert html.count("Cannot play yet") == 1
    with pytest.raises(ServiceError) as refused:
        services.create_game(creator=alice, variant="classic", opponent=root)
    page = signed_in(alice).get(reverse("league:player", args=["root"])).content.decode()
    assert 'id="challenge-submit"' not in page and refused.value.message.replace("'", "&#x27;") in page
    # Root, who may not play, is offered no challenge at all (and no "Cannot play yet").
    as_root = signed_in(root).get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert 'aria-label="Challenge' not in as_root and "Cannot play yet" not in as_root
    assert "Add your date of birth" in signed_in(root).get(reverse("league:player", args=["bob"])).content.decode()


@pytest.mark.django_db
def test_the_search_and_online_now_offer_no_challenge_the_games_service_would_refuse(alice, bob):
    """The search's results and "Online now" (the lobby's, the players page's) list
    players as the club page does: no Challenge beside one who may not play."""
    from accounts import services as account_services
    from tests.factories import SuperuserFactory

    root = SuperuserFactory.create()
    account_services.update_profile(user=root, display_name="Club Admin")  # as seed_demo's admin: no date of birth
    for user in (bob, root):
        presence.socket_opened(user_id=user.pk, channel_name=f"c!{user.username}")
    for url, query in ((reverse("players"), {"q": "o"}), (reverse("games:lobby"), {})):
        html = signed_in(alice).get(url, query).content.decode()
        assert f'href="/ratings/player/{root.username}/"' in html, url
        assert 'aria-label="Challenge bob"' in html and f'aria-label="Challenge {root.name}"' not in html, url
        assert "Cannot play yet" in html, url


# -- directed challenges -----------------------------------------------------------


@pytest.mark.django_db
def test_a_directed_challenge_is_listed_only_to_its_two_players(alice, bob, carol):
    challenge = GameFactory.create(creator=alice, opponent=bob, accepted=False)
    open_game = GameFactory.create(creator=alice, opponent=None, accepted=False)
    for viewer, sees in ((alice, True), (bob, True), (carol, False), (None, False)):
        lists = selectors.lobby_games(viewer)  # bob's is among his own challenges ("to_you")
        listed = {g.pk for kind in ("open", "to_you") for g in lists[kind]}
        assert (challenge.pk in listed) is sees and open_game.pk in listed
        api = {g["id"] for g in client_for(viewer).get(GAMES, {"status": "open"}).json()["results"]}
        assert (challenge.pk in api) is sees and open_game.pk in api
    lobby = {
        who: signed_in(who).get(reverse("games:lobby"), {"part": "lists"}, HTTP_HX_REQUEST="true").content.decode()
        for who in (alice, bob, carol)
    }
    assert f"open-{challenge.pk}" not in lobby[carol]
    # The challenged player's own list sits at the top of the page (its own refresh).
    to_you = {who: signed_in(who).get(reverse("games:lobby"), {"part": "to-you"}, HTTP_HX_REQUEST="true").content.decode()
              for who in (bob, carol)}
    assert "challenges you" in to_you[bob] and f'aria-label="Decline game {challenge.pk}"' in to_you[bob]
    assert f"open-{challenge.pk}" not in to_you[carol] and f"open-{challenge.pk}" not in lobby[bob]
    assert f'aria-label="Cancel game {challenge.pk}"' in lobby[alice]
    # The third player can neither accept it by hand (the service refuses) nor see an Accept on its page.
    with pytest.raises(ServiceError) as err:
        services.accept_challenge(game_id=challenge.pk, user=carol)
    assert err.value.code == "not-invited"
    page = signed_in(carol).get(reverse("games:game", args=[challenge.pk])).content.decode()
    assert "Accept and play" not in page
    # Each side is told what the challenge waits for (the player challenged was told it
    # waited "for an opponent", found by a walkthrough).
    waits = {who: signed_in(who).get(reverse("games:game", args=[challenge.pk])).content.decode()
             for who in (alice, bob)}
    assert f"Waiting for {bob.name} to accept." in waits[alice]
    assert f"{alice.name} is waiting for you to accept." in waits[bob]
    for who in (alice, carol):  # an open challenge: its maker, and anyone watching
        page = signed_in(who).get(reverse("games:game", args=[open_game.pk])).content.decode()
        assert "Waiting for an opponent to accept." in page


@pytest.mark.django_db
def test_decline_calls_the_challenge_off_and_tells_its_maker(alice, bob, carol):
    challenge = GameFactory.create(creator=alice, opponent=bob, accepted=False)
    for who, code in ((alice, "bad-opponent"), (carol, "not-invited")):
        with pytest.raises(ServiceError) as err:
            services.decline_challenge(game_id=challenge.pk, user=who)
        assert err.value.code == code
    response = signed_in(bob).post(reverse("games:decline", args=[challenge.pk]))
    assert response.status_code == 302
    challenge.refresh_from_db()
    assert challenge.status == Game.Status.ABORTED and "declined" in challenge.end_reason
    notice = Notice.objects.get(recipient=alice, kind="challenge-declined")
    assert "bob declined your challenge" in notice.message
    with pytest.raises(ServiceError) as err:
        services.decline_challenge(game_id=challenge.pk, user=bob)
    assert err.value.code == "not-open"


@pytest.mark.django_db
def test_the_maker_cancels_a_challenge_from_the_lobby(alice, bob):
    challenge = GameFactory.create(creator=alice, opponent=bob, accepted=False)
    assert signed_in(bob).post(reverse("games:cancel", args=[challenge.pk])).status_code == 302
    challenge.refresh_from_db()
    assert challenge.status == Game.Status.OPEN  # not bob's to cancel
    signed_in(alice).post(reverse("games:cancel", args=[challenge.pk]))
    challenge.refresh_from_db()
    assert challenge.status == Game.Status.ABORTED


@pytest.mark.django_db
def test_the_player_challenged_cannot_abort_it_over_the_api_only_decline(alice, bob):
    """The outside probe's find: the API's abort let the addressee call a challenge off
    as its maker would, and its maker heard "aborted" instead of "declined"."""
    challenge = GameFactory.create(creator=alice, opponent=bob, accepted=False)
    refused = client_for(bob).post(f"{GAMES}{challenge.pk}/abort/", {}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not-yours"
    challenge.refresh_from_db()
    assert challenge.status == Game.Status.OPEN and not Notice.objects.filter(recipient=alice).exists()
    assert client_for(alice).post(f"{GAMES}{challenge.pk}/abort/", {}, format="json").status_code == 200


@pytest.mark.django_db
def test_either_player_aborts_from_the_page_before_the_first_move_as_the_api_allows(alice, bob, carol):
    """The rules let either player abort an accepted game nobody has moved in; the page
    offered only "Resign", a loss. Now both players' pages offer it until the first move;
    an observer's never does, and the limit on aborts holds here too."""
    game = GameFactory.create(creator=alice, opponent=bob)
    form = f'action="{reverse("games:abort", args=[game.pk])}"'
    for user in (alice, bob):
        page = signed_in(user).get(reverse("games:game", args=[game.pk])).content.decode()
        assert form in page and "Abort the game" in page
    assert form not in signed_in(carol).get(reverse("games:game", args=[game.pk])).content.decode()
    signed_in(carol).post(reverse("games:abort", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # not carol's to abort
    follow = signed_in(bob).post(reverse("games:abort", args=[game.pk]), follow=True)
    assert "Game aborted" in follow.content.decode()
    game.refresh_from_db()
    assert (game.status, game.aborted_by) == (Game.Status.ABORTED, bob)
    # Once a move is made, the page offers it no more.
    moved = GameFactory.create(creator=alice, opponent=bob)
    services.submit_move(game_id=moved.pk, user=alice, ply=0, move={"cell": 5})
    assert "Abort the game" not in signed_in(bob).get(reverse("games:game", args=[moved.pk])).content.decode()
    # Over the limit, the page says why and the game goes on.
    limit, _ = services.ABORTS_ALLOWED
    for _ in range(limit - 1):
        services.abort(game_id=GameFactory.create(creator=alice, opponent=bob).pk, user=bob)
    last = GameFactory.create(creator=alice, opponent=bob)
    refused = signed_in(bob).post(reverse("games:abort", args=[last.pk]), follow=True).content.decode()
    assert "play this game, or resign it" in refused
    last.refresh_from_db()
    assert last.status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_the_finished_game_page_names_who_resigned(alice, bob):
    game = finished_game(alice, bob)  # bob resigns
    assert "Player" in game.end_reason  # stored by seat, named on the page
    page = signed_in(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    # One sentence: who won, then why, with both names as the players wrote them.
    assert f"Game over: {alice.name} (X) wins: {bob.name} resigned." in page and game.end_reason not in page


@pytest.mark.django_db
def test_the_challenge_form_on_a_player_page_challenges_them(alice, bob):
    page = signed_in(alice).get(reverse("league:player", args=["bob"])).content.decode()
    assert 'id="challenge"' in page and 'name="username" value="bob"' in page
    assert 'id="challenge"' not in signed_in(bob).get(reverse("league:player", args=["bob"])).content.decode()
    response = signed_in(alice).post(reverse("games:create"), {
        "opponent": "user", "username": "bob", "variant": "tactic-toe", "seat": "1"})
    game = Game.objects.get(created_by=alice)
    assert response.status_code == 302 and game.status == Game.Status.OPEN and game.variant == "tactic-toe"
    assert {s.number: s.user_id for s in game.seats.all()} == {0: bob.pk, 1: alice.pk}


# -- rematch -----------------------------------------------------------------------


def _seats(game: Game) -> dict[int, int | None]:
    return {s.number: s.user_id for s in Game.objects.get(pk=game.pk).seats.all()}


@pytest.mark.django_db
def test_a_rematch_swaps_the_seats_and_both_asking_make_one_game(alice, bob, carol):
    old = finished_game(alice, bob, rated=True)  # alice was Player One
    new = services.rematch(game_id=old.pk, user=bob)
    assert new.status == Game.Status.OPEN and new.rematch_of_id == old.pk and new.rated
    assert _seats(new) == {0: bob.pk, 1: alice.pk}  # the first move swapped
    assert new.rule_set_id == old.rule_set_id
    assert "offers you a rematch" in Notice.objects.get(recipient=alice, cause=f"challenge:{new.pk}").message
    assert services.rematch(game_id=old.pk, user=bob).pk == new.pk  # asking again: the same game
    accepted = services.rematch(game_id=old.pk, user=alice)  # alice asks too: she accepts it
    assert accepted.pk == new.pk and Game.objects.get(pk=new.pk).status == Game.Status.ACTIVE
    assert Game.objects.filter(rematch_of=old).count() == 1
    with pytest.raises(ServiceError) as err:
        services.rematch(game_id=old.pk, user=carol)
    assert err.value.code == "not-a-player"


@pytest.mark.django_db
def test_no_rematch_before_the_end_after_a_decline_or_in_a_match(alice, bob):
    active = GameFactory.create(creator=alice, opponent=bob)
    with pytest.raises(ServiceError) as err:
        services.rematch(game_id=active.pk, user=alice)
    assert err.value.code == "not-finished"
    old = finished_game(alice, bob)
    new = services.rematch(game_id=old.pk, user=alice)
    services.decline_challenge(game_id=new.pk, user=bob)
    with pytest.raises(ServiceError) as err:
        services.rematch(game_id=old.pk, user=alice)
    assert err.value.code == "rematch-declined"
    from games import rule_sets

    best_of = rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    match_game = services.create_game(creator=alice, opponent=bob, rule_set=best_of)
    if Game.objects.get(pk=match_game.pk).status == Game.Status.OPEN:
        services.accept_challenge(game_id=match_game.pk, user=bob)
    services.resign(game_id=match_game.pk, user=bob)
    with pytest.raises(ServiceError) as err:
        services.rematch(game_id=match_game.pk, user=alice)
    assert err.value.code == "no-rematch"


@pytest.mark.django_db
def test_a_rematch_against_the_ai_starts_at_once_with_seats_swapped(alice):
    game = services.create_game(creator=alice, variant="classic", ai_level="random", creator_seat=0)
    services.resign(game_id=game.pk, user=alice)
    new = services.rematch(game_id=game.pk, user=alice)
    assert new.status == Game.Status.ACTIVE
    seats = {s.number: (s.user_id, s.ai_level) for s in Game.objects.get(pk=new.pk).seats.all()}
    assert seats == {0: (None, "random"), 1: (alice.pk, "")}


@pytest.mark.django_db
def test_the_finished_game_page_offers_the_rematch_and_shows_the_offer(alice, bob, carol):
    old = finished_game(alice, bob)
    page = signed_in(alice).get(reverse("games:game", args=[old.pk])).content.decode()
    assert 'id="rematch-button"' in page
    assert 'id="rematch-button"' not in signed_in(carol).get(reverse("games:game", args=[old.pk])).content.decode()
    response = signed_in(alice).post(reverse("games:rematch", args=[old.pk]))
    new = Game.objects.get(rematch_of=old)
    assert response.status_code == 302 and response["Location"] == reverse("games:game", args=[new.pk])
    board = pushed_board(old.pk, bob)  # what the socket pushes
    assert 'id="rematch-offered"' in board and 'id="rematch-accept"' in board
    replay = signed_in(bob).get(reverse("games:replay", args=[old.pk])).content.decode()
    assert 'id="rematch-offered"' in replay
    signed_in(bob).post(reverse("games:rematch", args=[old.pk]))
    assert Game.objects.get(pk=new.pk).status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_the_api_rematch_and_decline(alice, bob):
    old = finished_game(alice, bob)
    offered = client_for(bob).post(f"{GAMES}{old.pk}/rematch/")
    assert offered.status_code == 200 and offered.json()["status"] == "open"
    assert [s["user"] for s in offered.json()["seats"]] == ["bob", "alice"]
    declined = client_for(alice).post(f"{GAMES}{offered.json()['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "aborted"
    refused = client_for(alice).post(f"{GAMES}{old.pk}/rematch/")
    assert refused.status_code == 400 and refused.json()["code"] == "rematch-declined"
    assert client_for(alice).post(f"{GAMES}999999/rematch/").status_code == 404


@pytest.mark.django_db
def test_before_the_first_move_the_page_says_why_the_clock_shows_the_grace(alice, bob):
    """The probe's find: "3 min per game" over a clock showing 4:58. The no-show grace
    (5 min) is said in words until the first move."""
    game = GameFactory.create(creator=alice, opponent=bob)
    page = signed_in(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "The first move may take up to 5 min" in page and "the clock is 3 min per game" in page
    first = next(seat.user for seat in game.seats.select_related("user") if seat.number in game.to_move)
    services.submit_move(game_id=game.pk, user=first, ply=0, move={"cell": 5})
    assert "The first move may take up to" not in signed_in(alice).get(reverse("games:game", args=[game.pk])).content.decode()


@pytest.mark.django_db
def test_a_directed_challenge_cannot_be_read_by_id_until_accepted(alice, bob, carol):
    """The probe's find: the lists hid it, but its page and the API's detail answered
    anyone who guessed the id. Only its two players read it until it is accepted."""
    challenge = GameFactory.create(creator=alice, opponent=bob, accepted=False)
    page = reverse("games:game", args=[challenge.pk])
    for who in (alice, bob):
        assert signed_in(who).get(page).status_code == 200
        assert client_for(who).get(f"{GAMES}{challenge.pk}/").status_code == 200
    assert signed_in(carol).get(page).status_code == 403 and Client().get(page).status_code == 403
    refused = client_for(carol).get(f"{GAMES}{challenge.pk}/")
    assert refused.status_code == 403 and refused.json()["code"] == "private-challenge"
    services.accept_challenge(game_id=challenge.pk, user=bob)
    assert signed_in(carol).get(page).status_code == 200  # in play: watched like any game
