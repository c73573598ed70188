"""Notices (accounts/notices.py): stored once per cause in the cause's transaction, one
per cause listed in docs/accounts.md, the inbox page and the API (own notices only),
the live hint after commit, and the e-mail sent once."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import notices
from accounts import services as account_services
from accounts.errors import ServiceError
from accounts.models import Notice
from games import rule_sets
from games import services as game_services
from league import competitions as cs
from league.models import ClubMembership, Pairing, Section
from tests.factories import PASSWORD, ClubFactory, MembershipFactory, players, section_with
from tests.league.support import eager_tasks, one_move, run_decided

pytestmark = pytest.mark.django_db(transaction=True)

Kind = Notice.Kind


@pytest.fixture
def eager():
    with eager_tasks():
        yield


@pytest.fixture
def pushed(monkeypatch):
    """The live hints sent after commit, as (group, message)."""
    sent: list = []
    monkeypatch.setattr(notices, "send_to_groups", sent.extend)
    return sent


def kinds_of(user) -> list[str]:
    return list(Notice.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True))


# -- the service -----------------------------------------------------------------------


def test_the_same_cause_writes_one_notice_however_often_it_is_written(make_player, pushed):
    ann = make_player(username="ann")
    for _ in range(3):
        with transaction.atomic():
            notices.notify(recipient=ann, kind=Kind.PAIRING, cause="pairing:1:game:2", message="Your game is ready.",
                           url="/play/2/", game=2)
    notice = Notice.objects.get(recipient=ann)
    assert (notice.kind, notice.url, notice.data) == ("pairing", "/play/2/", {"game": 2})
    # One hint too: only the write that stored it pushes, after its commit.
    assert [(group, message["id"], message["unread"]) for group, message in pushed] == [
        (f"user-{ann.pk}", notice.pk, 1)]


def test_notices_for_many_take_three_statements_and_keep_each_ones_e_mail_choice(
        make_player, pushed, django_assert_num_queries):
    # Inside a game's last move (games.notices.game_ended): what it costs stays fixed.
    ann = make_player(username="ann", email="ann@example.org")  # the default choices: pairings e-mailed
    bob = make_player(username="bob", email="bob@example.org")
    notices.set_email_notices(user=bob, kinds=[])
    cat = make_player(username="cat")  # no address
    specs = [notices.NoticeSpec(user.pk, Kind.PAIRING, "pairing:9", "Your game is ready.") for user in (ann, bob, cat)]
    with transaction.atomic():
        notices.notify(recipient=ann, kind=Kind.PAIRING, cause="pairing:9", message="Written before.")
        with django_assert_num_queries(3):
            written = notices.notify_many(specs)
    assert sorted(n.recipient_id for n in written) == [bob.pk, cat.pk]  # ann's was there: kept, not returned
    stored = {n.recipient_id: (n.message, n.email_wanted) for n in Notice.objects.all()}
    assert stored == {ann.pk: ("Written before.", True), bob.pk: ("Your game is ready.", False),
                      cat.pk: ("Your game is ready.", False)}


def test_a_cause_rolled_back_leaves_no_notice_and_no_hint(make_player, pushed):
    ann = make_player(username="ann")
    with pytest.raises(RuntimeError), transaction.atomic():
        notices.notify(recipient=ann, kind=Kind.PAIRING, cause="pairing:1:game:2", message="Your game is ready.")
        raise RuntimeError("the cause failed")
    assert not Notice.objects.exists() and pushed == []


def test_a_failed_push_is_logged_and_the_notice_stays(make_player, monkeypatch, caplog):
    ann = make_player(username="ann")

    class LayerDown:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    from accounts import broadcast

    monkeypatch.setattr(broadcast, "get_channel_layer", LayerDown)
    with transaction.atomic():
        notices.notify(recipient=ann, kind=Kind.ROUND_STARTED, cause="x", message="Round 1.")
    assert Notice.objects.filter(recipient=ann).count() == 1
    assert "live message(s) lost from user.notice" in caplog.text


def test_an_unknown_kind_is_refused(make_player):
    with pytest.raises(ValueError):
        notices.notify(recipient=make_player(), kind="gossip", cause="x", message="?")


# -- every cause writes its notice ---------------------------------------------------


def test_a_challenge_to_a_player_and_its_acceptance(make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    game = game_services.create_game(creator=ann, variant="classic", opponent=bob)
    received = Notice.objects.get(recipient=bob)
    assert received.kind == Kind.CHALLENGE_RECEIVED and received.url == f"/play/{game.pk}/"
    assert "ann challenges you" in received.message
    game_services.accept_challenge(game_id=game.pk, user=bob)
    assert kinds_of(ann) == [Kind.CHALLENGE_ACCEPTED]
    assert kinds_of(bob) == [Kind.CHALLENGE_RECEIVED]


def test_an_ai_game_and_an_open_challenge_notify_nobody_until_accepted(make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    game_services.create_game(creator=ann, variant="classic", ai_level="random")
    open_game = game_services.create_game(creator=ann, variant="classic")
    assert not Notice.objects.exists()
    game_services.accept_challenge(game_id=open_game.pk, user=bob)
    assert kinds_of(ann) == [Kind.CHALLENGE_ACCEPTED]


def test_a_game_ended_tells_both_players_their_result(make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    game = game_services.create_game(creator=ann, variant="classic", opponent=bob, creator_seat=0)
    game_services.accept_challenge(game_id=game.pk, user=bob)
    game_services.resign(game_id=game.pk, user=bob)
    ended = {n.recipient_id: n for n in Notice.objects.filter(kind=Kind.GAME_ENDED)}
    assert set(ended) == {ann.pk, bob.pk}
    assert ended[ann.pk].message == f"You beat {bob.name} at Classic Tic Tac Toe. {bob.name} resigned."
    # Bob reads his own resignation as his: not "Ann beat you ... Bob resigned."
    assert ended[bob.pk].message == f"{ann.name} beat you at Classic Tic Tac Toe. You resigned."
    assert ended[ann.pk].data["game"] == game.pk


def test_a_call_off_tells_the_other_player_who_did_it_and_not_the_caller(make_player):
    """The walkthrough's find: a cancelled challenge told its addressee "Your game ... was
    aborted", and told its maker too."""
    ann, bob = make_player(username="ann"), make_player(username="bob")
    challenge = game_services.create_game(creator=ann, variant="classic", opponent=bob)
    game_services.cancel_challenge(game_id=challenge.pk, user=ann)
    assert not Notice.objects.filter(recipient=ann, kind=Kind.GAME_ENDED).exists()
    assert Notice.objects.get(recipient=bob, kind=Kind.GAME_ENDED).message == (
        f"{ann.name} called off their challenge to Classic Tic Tac Toe.")
    game = game_services.create_game(creator=ann, variant="classic", opponent=bob)
    game_services.accept_challenge(game_id=game.pk, user=bob)
    game_services.abort(game_id=game.pk, user=bob)
    assert not Notice.objects.filter(recipient=bob, kind=Kind.GAME_ENDED, data__game=game.pk).exists()
    assert Notice.objects.get(recipient=ann, kind=Kind.GAME_ENDED, data__game=game.pk).message == (
        f"{bob.name} aborted your game of Classic Tic Tac Toe before the first move.")


def test_the_next_game_of_a_match_started(make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    best_of = rule_sets.create_rule_set(name="Best of 3", variant="classic", options={}, created_by=ann,
                                        match_format="best-of", match_games=3)
    first = game_services.create_game(creator=ann, rule_set=best_of, opponent=bob)
    assert kinds_of(bob) == [Kind.CHALLENGE_RECEIVED]
    first = game_services.accept_challenge(game_id=first.pk, user=bob, notify=False)
    loser = first.seats.get(number=first.to_move[0]).user
    game_services.resign(game_id=first.pk, user=loser)
    second = first.match.games.get(number_in_match=2)
    started = Notice.objects.filter(kind=Kind.GAME_STARTED)
    assert {n.recipient_id for n in started} == {ann.pk, bob.pk}
    assert {n.url for n in started} == {f"/play/{second.pk}/"}


@pytest.mark.parametrize(("per_move", "per_game", "notified"), [
    (3600, None, True),  # an hour a move: correspondence
    (None, 3 * 24 * 3600, True),  # three days a game
    (30, None, False),  # blitz
    (None, 600, False),  # ten minutes a game
    (None, None, False),  # no clock: the lobby's live games
])
def test_your_turn_only_in_a_correspondence_paced_game(make_player, per_move, per_game, notified):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    rules = rule_sets.create_rule_set(name="Paced", variant="classic", options={}, created_by=ann,
                                      seconds_per_move=per_move, seconds_per_game=per_game)
    game = game_services.create_game(creator=ann, rule_set=rules, opponent=bob, creator_seat=0)
    game_services.accept_challenge(game_id=game.pk, user=bob)
    game = one_move(game)
    game = one_move(game)
    turns = Notice.objects.filter(kind=Kind.YOUR_TURN).order_by("pk")
    if notified:
        assert [(n.recipient_id, n.data["ply"]) for n in turns] == [(bob.pk, 1), (ann.pk, 2)]
    else:
        assert not turns.exists()


@pytest.mark.usefixtures("eager")
def test_a_pairing_tells_each_player_their_game_once_even_when_started_again(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="swiss", rounds=2, start=False)
    for _ in range(2):  # a task delivered twice
        cs.start_round(section_id=section.pk, number=1, force=True)
    pairings = Notice.objects.filter(kind=Kind.PAIRING)
    assert sorted(n.recipient_id for n in pairings) == sorted(u.pk for u in users)
    for notice in pairings:
        pairing = Pairing.objects.get(section=section, round__number=1, game_id=notice.data["game"])
        assert notice.recipient_id in (pairing.first_id, pairing.second_id)
        assert notice.url == f"/play/{pairing.game_id}/"
    # A league game is no challenge: the pairing is its only notice.
    assert not Notice.objects.exclude(kind=Kind.PAIRING).exists()


@pytest.mark.usefixtures("eager")
def test_a_bye_is_a_round_started_notice_with_the_section_link(make_player):
    users = players(make_player, 3)
    section = section_with(users, format="swiss", rounds=2)
    bye = Notice.objects.get(kind=Kind.ROUND_STARTED)
    assert "you have a bye" in bye.message and bye.url.endswith(f"/{section.slug}/")
    assert Notice.objects.filter(kind=Kind.PAIRING).count() == 2


@pytest.mark.usefixtures("eager")
def test_a_finished_tournament_tells_each_player_their_place_and_the_standings(make_player):
    users = players(make_player, 4)
    section = section_with(users, format="single-elimination")
    run_decided(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    finished = {n.recipient_id: n for n in Notice.objects.filter(kind=Kind.TOURNAMENT_FINISHED)}
    assert set(finished) == {u.pk for u in users}
    places = sorted(n.data["place"] for n in finished.values())
    assert places[0] == 1 and all(n.data["players"] == 4 for n in finished.values())
    champion = next(n for n in finished.values() if n.data["place"] == 1)
    assert "you placed 1 of 4" in champion.message and "Final standings: 1." in champion.message
    # Played again (a result delivered twice), nothing more is written.
    cs.sweep()
    assert Notice.objects.filter(kind=Kind.TOURNAMENT_FINISHED).count() == 4


def test_a_moderation_ban_and_its_lifting_are_told_to_the_banned(make_player):
    from moderation import services as moderation
    from tests.moderation.conftest import _world

    world = _world(make_player)
    ban = moderation.ban_user(actor=world.organiser_a, user=world.member_a, club=world.club_a, reason="Spoilers")
    moderation.lift_ban(actor=world.organiser_a, ban=ban)
    told = Notice.objects.filter(recipient=world.member_a, kind=Kind.MODERATION).order_by("pk")
    assert [n.data["action"] for n in told] == ["observer.ban", "observer.unban"]
    assert "Spoilers" in told[0].message


def test_a_guardian_consent_opens_the_account_with_a_notice(make_player):
    kid = make_player(username="kid", born=date.today() - timedelta(days=15 * 366), country="DE",
                      guardian_name="Greta", guardian_email="greta@example.org", open_account=False)
    assert not Notice.objects.filter(recipient=kid).exists()
    token = account_services.consent_token(kid.guardian_consent)
    account_services.grant_guardian_consent(token=token)
    account_services.grant_guardian_consent(token=token)  # the link followed twice
    assert kinds_of(kid) == [Kind.GUARDIAN_CONSENT]


# -- pages ---------------------------------------------------------------------------------


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def give(user, n: int, *, kind: str = Kind.PAIRING) -> list[Notice]:
    with transaction.atomic():
        for i in range(n):
            notices.notify(recipient=user, kind=kind, cause=f"test:{i}", message=f"Notice {i}", url=f"/play/{i + 1}/")
    return list(Notice.objects.filter(recipient=user).order_by("pk"))


def test_every_page_shows_the_unread_count_and_the_inbox_lists_them(client, make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    give(ann, 2)
    give(bob, 5)
    login(client, ann)
    home = client.get("/").content.decode()
    assert 'id="unread-count"' in home and 'data-unread="2"' in home
    page = client.get(reverse("accounts:notices")).content.decode()
    assert page.count('class="notice-item is-unread"') == 2 and "Notice 1" in page
    assert "Mark all read" in page


def test_opening_a_notice_marks_it_read_and_goes_to_its_link(client, make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    first, _ = give(ann, 2)
    (theirs,) = give(bob, 1)
    login(client, ann)
    assert client.get(reverse("accounts:notice-open", args=[first.pk])).status_code == 405  # a GET changes nothing
    first.refresh_from_db()
    assert first.read_at is None
    response = client.post(reverse("accounts:notice-open", args=[first.pk]))
    assert response.status_code == 302 and response["Location"] == first.url
    first.refresh_from_db()
    assert first.read_at is not None
    assert 'data-unread="1"' in client.get("/").content.decode()
    # Another's notice is no notice of yours, and stays unread.
    assert client.post(reverse("accounts:notice-open", args=[theirs.pk])).status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_mark_all_read_from_the_page(client, make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    give(ann, 3)
    give(bob, 1)
    login(client, ann)
    assert client.get(reverse("accounts:notices-read-all")).status_code == 405
    client.post(reverse("accounts:notices-read-all"))
    assert notices.unread_count(ann.pk) == 0 and notices.unread_count(bob.pk) == 1
    assert "Nothing unread." in client.get(reverse("accounts:notices") + "?unread=1").content.decode()


def test_mark_all_read_leaves_a_notice_the_page_never_showed(client, make_player):
    ann = make_player(username="ann")
    shown = give(ann, 2)
    login(client, ann)
    page = client.get(reverse("accounts:notices")).content.decode()
    assert f'name="up_to" value="{shown[-1].pk}"' in page
    with transaction.atomic():  # arrives while the page is open
        notices.notify(recipient=ann, kind=Kind.PAIRING, cause="later", message="Later", url="/play/9/")
    for junk in ("\u00b9", "9" * 30):  # a superscript one (str.isdigit says yes), past 64 bits: never a 500
        assert client.post(reverse("accounts:notices-read-all"), {"up_to": junk}).status_code == 302
        Notice.objects.filter(recipient=ann).update(read_at=None)
    client.post(reverse("accounts:notices-read-all"), {"up_to": str(shown[-1].pk)})
    assert list(Notice.objects.filter(recipient=ann, read_at__isnull=True).values_list("message", flat=True)) == [
        "Later"]


def test_the_inbox_needs_a_login(client):
    assert client.get(reverse("accounts:notices")).status_code == 302


def test_e_mail_choices_on_the_profile(client, make_player):
    ann = make_player(username="ann")
    login(client, ann)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert re.search(r'<input [^>]*value="pairing"[^>]* checked', page)  # whatever the box's place in the list
    client.post(reverse("accounts:notice-emails"), {"email_notices": ["game-ended"]})
    ann.profile.refresh_from_db()
    assert ann.profile.email_notices == ["game-ended"]
    client.post(reverse("accounts:notice-emails"), {"email_notices": ["gossip"]})  # refused, nothing changes
    ann.profile.refresh_from_db()
    assert ann.profile.email_notices == ["game-ended"]


def guardian_choice_shown(client) -> bool:
    return 'value="guardian-consent"' in client.get(reverse("accounts:profile")).content.decode()


def test_the_guardians_choice_is_offered_only_to_a_player_with_a_guardian(client, make_player):
    """An adult's profile offered "Guardian's consent", ticked (a walkthrough)."""
    adult = make_player(username="ann")
    login(client, adult)
    assert not guardian_choice_shown(client)
    before = adult.profile.email_notices
    client.post(reverse("accounts:notice-emails"), {"email_notices": ["pairing", "guardian-consent"]})
    adult.profile.refresh_from_db()
    assert adult.profile.email_notices == before  # refused whole: not a choice of hers
    with pytest.raises(ServiceError):
        notices.set_email_notices(user=adult, kinds=["guardian-consent"])
    kid = make_player(username="kid", born=date.today() - timedelta(days=15 * 366), country="DE",
                      guardian_name="Greta", guardian_email="greta@example.org")
    login(client, kid)
    assert guardian_choice_shown(client)
    assert notices.set_email_notices(user=kid, kinds=["guardian-consent"]).email_notices == ["guardian-consent"]


def test_your_clubs_events_is_offered_only_to_a_clubs_organisers(client, make_player):
    """Every new player's profile offered "Your club's events", ticked: a newcomer read it
    as news of their club's tournaments, but it carries only what an event needs of its
    organisers (a round that cannot be paired, a stage waiting on its start)."""
    def shown() -> bool:
        return 'value="organising"' in client.get(reverse("accounts:profile")).content.decode()

    player = make_player(username="newcomer")
    login(client, player)
    assert not shown()
    with pytest.raises(ServiceError):
        notices.set_email_notices(user=player, kinds=["organising"])
    MembershipFactory(club=ClubFactory(), user=player, role=ClubMembership.Role.ORGANISER)
    assert shown()
    assert notices.set_email_notices(user=player, kinds=[]).email_notices == []


def test_no_guardians_notice_is_e_mailed_to_a_player_without_a_guardian(make_player):
    adult = make_player(username="ann", email="ann@example.org")
    assert "guardian-consent" in adult.profile.email_notices  # the default, from before the choice was hidden
    kid = make_player(username="kid", email="kid@example.org", born=date.today() - timedelta(days=15 * 366),
                      country="DE", guardian_name="Greta", guardian_email="greta@example.org")
    with transaction.atomic():
        for user in (adult, kid):
            notices.notify(recipient=user, kind=Kind.GUARDIAN_CONSENT, cause="test:guardian", message="Hello")
            notices.notify(recipient=user, kind=Kind.PAIRING, cause="test:pairing", message="Paired")
    wanted = dict(Notice.objects.filter(cause="test:guardian").values_list("recipient__username", "email_wanted"))
    assert wanted == {"ann": False, "kid": True}
    assert Notice.objects.filter(cause="test:pairing", email_wanted=True).count() == 2


def test_the_e_mail_choices_address_opened_directly_goes_to_the_profile(client, make_player):
    """A GET of the form's address gave a bare 405 page."""
    login(client, make_player(username="ann"))
    response = client.get(reverse("accounts:notice-emails"))
    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile") + "#email-card"
    assert client.get(reverse("accounts:notice-emails"), follow=True).status_code == 200
    client.logout()
    assert client.get(reverse("accounts:notice-emails"))["Location"].startswith(reverse("accounts:login"))


# -- the API -------------------------------------------------------------------------------


@pytest.fixture
def api_as():
    from rest_framework.authtoken.models import Token

    def make(user):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        return api

    return make


def test_the_api_lists_your_notices_only_and_marks_them(make_player, api_as):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    first, second, third = give(ann, 3)
    (theirs,) = give(bob, 1)
    api = api_as(ann)
    listed = api.get("/api/v1/accounts/notices/").json()
    assert listed["count"] == 3 and [n["id"] for n in listed["results"]] == [third.pk, second.pk, first.pk]
    assert listed["results"][0]["read"] is False and listed["results"][0]["url"] == third.url
    assert api.get("/api/v1/accounts/notices/?limit=1").json()["results"][0]["id"] == third.pk
    assert api.get("/api/v1/accounts/notices/unread-count/").json() == {"unread": 3}
    marked = api.post(f"/api/v1/accounts/notices/{second.pk}/read/")
    assert marked.status_code == 200 and marked.json()["read"] is True
    assert [n["id"] for n in api.get("/api/v1/accounts/notices/?unread=true").json()["results"]] == [third.pk, first.pk]
    refused = api.post(f"/api/v1/accounts/notices/{theirs.pk}/read/")
    assert refused.status_code == 404 and refused.json()["code"] == "no-such-notice"
    assert api.get("/api/v1/accounts/notices/?unread=maybe").status_code == 400
    assert api.post("/api/v1/accounts/notices/read-all/").json() == {"marked": 2, "unread": 0}
    assert notices.unread_count(bob.pk) == 1
    assert APIClient().get("/api/v1/accounts/notices/").status_code in (401, 403)


def test_the_notice_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    for path in ("/api/v1/accounts/notices/", "/api/v1/accounts/notices/unread-count/",
                 "/api/v1/accounts/notices/read-all/", "/api/v1/accounts/notices/{id}/read/"):
        assert path in schema["paths"], path


# -- e-mail ----------------------------------------------------------------------------------


def test_an_opted_in_notice_is_e_mailed_once_however_often_the_task_runs(make_player, eager):
    ann = make_player(username="ann", email="ann@example.org")
    with transaction.atomic():  # pairing: e-mailed by default
        notices.notify(recipient=ann, kind=Kind.PAIRING, cause="p", message="Your game is ready.", url="/play/9/")
        notices.notify(recipient=ann, kind=Kind.GAME_ENDED, cause="e", message="Your game is over.")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ann@example.org"]
    assert "Your game is ready." in mail.outbox[0].body and "/play/9/" in mail.outbox[0].body
    notice = Notice.objects.get(cause="p")
    assert notice.emailed_at is not None
    # The task redelivered, the sweep run: nothing more is sent.
    from accounts.tasks import email_notice

    email_notice.apply(args=(notice.pk,))
    assert notices.email_notice(notice_id=notice.pk) is False
    notices.sweep_unsent_emails(now=timezone.now() + timedelta(minutes=5))
    assert len(mail.outbox) == 1


def test_a_lost_enqueue_is_sent_by_the_sweep(make_player, eager, monkeypatch):
    ann = make_player(username="ann", email="ann@example.org")
    monkeypatch.setattr(notices, "enqueue_email", lambda notice_id: None)  # the enqueue after commit lost
    with transaction.atomic():
        notices.notify(recipient=ann, kind=Kind.CHALLENGE_RECEIVED, cause="c", message="A challenge.")
    monkeypatch.undo()
    assert mail.outbox == []
    assert notices.sweep_unsent_emails() == 0  # not yet: its own enqueue may still come
    assert notices.sweep_unsent_emails(now=timezone.now() + timedelta(minutes=3)) == 1
    assert len(mail.outbox) == 1


def test_no_e_mail_without_an_address_or_the_choice(make_player, eager):
    ann = make_player(username="ann")  # no address
    bob = make_player(username="bob", email="bob@example.org")
    notices.set_email_notices(user=bob, kinds=[])
    with transaction.atomic():
        notices.notify(recipient=ann, kind=Kind.PAIRING, cause="p", message="Your game is ready.")
        notices.notify(recipient=bob, kind=Kind.PAIRING, cause="p", message="Your game is ready.")
    assert mail.outbox == [] and not Notice.objects.filter(email_wanted=True).exists()

