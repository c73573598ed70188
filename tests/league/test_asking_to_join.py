"""Asking to join a club (an outside tester: the club page's "to join, ask Olivia
Organiser" named people whose pages offered only a game, a dead end; and organisers had
no way to add a member outside the admin, which only superusers may change): a
signed-in visitor presses "Ask to join" on the club page; the club's owners and
organisers get a notice and answer on the club page (Add as member, Decline); the person
is told either way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from league.clubs import services as club_services
from league.models import ClubMembership, JoinRequest

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(club, make_player):
    owner, organiser, arbiter, member = (make_player(username=n) for n in ("owner", "olivia", "arnav", "mia"))
    for user, role in ((owner, "owner"), (organiser, "organiser"), (arbiter, "arbiter"), (member, "member")):
        club_services.set_membership(club=club, user=user, role=role)
    return {"owner": owner, "organiser": organiser, "arbiter": arbiter, "member": member,
            "visitor": make_player(username="vic")}


def notices(kind_of_cause: str = "join-request:"):
    return Notice.objects.filter(kind=Notice.Kind.JOIN_REQUEST, cause__startswith=kind_of_cause)


def test_the_owners_and_organisers_are_told_once(club, people):
    visitor = people["visitor"]
    request, new = club_services.ask_to_join(club=club, user=visitor)
    assert new and request.status == JoinRequest.Status.PENDING
    told = {n.recipient_id: n for n in notices()}
    assert set(told) == {people["owner"].pk, people["organiser"].pk}  # not the arbiter, not a member
    notice = told[people["organiser"].pk]
    assert notice.message == (f"{visitor.name} (vic) asks to join {club.name}: add them or decline on the club's "
                              "page.")
    assert notice.url == reverse("competitions:club", args=[club.slug]) + "#join-requests"
    assert club_services.ask_to_join(club=club, user=visitor) == (request, False)  # again: nothing more
    assert notices().count() == 2 and JoinRequest.objects.count() == 1


def test_a_member_cannot_ask_and_nothing_is_written(club, people):
    with pytest.raises(ServiceError, match="You are already a member of"):
        club_services.ask_to_join(club=club, user=people["member"])
    assert not notices().exists() and not JoinRequest.objects.exists()


def test_a_club_without_organisers_says_so(club, make_player):
    with pytest.raises(ServiceError, match="has no organiser to ask yet"):
        club_services.ask_to_join(club=club, user=make_player(username="vic"))
    assert not JoinRequest.objects.exists()


def test_an_organiser_adds_the_member_who_is_told(club, people):
    request, _ = club_services.ask_to_join(club=club, user=people["visitor"])
    club_services.decide_join_request(request_id=request.pk, by=people["organiser"], accept=True)
    assert ClubMembership.objects.get(club=club, user=people["visitor"]).role == "member"
    request.refresh_from_db()
    assert (request.status, request.decided_by) == (JoinRequest.Status.ACCEPTED, people["organiser"])
    answer = Notice.objects.get(recipient=people["visitor"], kind=Notice.Kind.JOIN_REQUEST)
    assert answer.message == f"You are now a member of {club.name}."
    for asked in notices(f"join-request:{request.pk}").exclude(recipient=people["visitor"]):  # the organisers'
        assert asked.message.endswith(f"on the club's page. Answered: {people['organiser'].name} added them.")
    with pytest.raises(ServiceError, match="answered already"):
        club_services.decide_join_request(request_id=request.pk, by=people["owner"], accept=False)


def test_a_decline_is_told_and_asking_again_waits_a_week(club, people):
    visitor = people["visitor"]
    request, _ = club_services.ask_to_join(club=club, user=visitor)
    club_services.decide_join_request(request_id=request.pk, by=people["owner"], accept=False)
    assert not ClubMembership.objects.filter(club=club, user=visitor).exists()
    assert Notice.objects.get(recipient=visitor).message == f"The organisers of {club.name} declined your request to join."
    with pytest.raises(ServiceError, match=r"declined your request on .*; you may ask again from"):
        club_services.ask_to_join(club=club, user=visitor)
    later = timezone.now() + club_services.ASK_AGAIN_AFTER + timedelta(minutes=1)
    again, new = club_services.ask_to_join(club=club, user=visitor, now=later)
    assert new and again.pk != request.pk


def test_only_the_clubs_organisers_answer(club, people, make_player):
    request, _ = club_services.ask_to_join(club=club, user=people["visitor"])
    for someone in (people["arbiter"], people["member"], make_player(username="stranger")):
        with pytest.raises(ServiceError, match="no such request"):
            club_services.decide_join_request(request_id=request.pk, by=someone, accept=True)
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.PENDING


def test_the_pages_ask_then_the_organiser_adds(client, club, people):
    page_url = reverse("competitions:club", args=[club.slug])
    client.force_login(people["visitor"])
    assert "Ask to join</button>" in client.get(page_url).content.decode()
    answer = client.post(reverse("competitions:club-join", args=[club.slug]), follow=True).content.decode()
    assert "are asked to add you" in answer
    page = client.get(page_url).content.decode()
    assert "Ask to join</button>" not in page and 'id="join-asked"' in page
    client.force_login(people["organiser"])
    page = client.get(page_url).content.decode()
    assert 'id="join-requests"' in page and "Asking to join (1)" in page
    request = JoinRequest.objects.get()
    done = client.post(reverse("competitions:club-join-answer", args=[club.slug]),
                       {"request": request.pk, "action": "add"}, follow=True).content.decode()
    assert f"{people['visitor'].name} is now a member." in done
    assert ClubMembership.objects.filter(club=club, user=people["visitor"]).exists()
    assert 'id="join-requests"' not in client.get(page_url).content.decode()


def test_members_and_visitors_signed_out_get_no_button_nor_the_requests(client, club, people):
    club_services.ask_to_join(club=club, user=people["visitor"])
    page_url = reverse("competitions:club", args=[club.slug])
    page = client.get(page_url).content.decode()
    assert "Ask to join</button>" not in page and 'id="join-requests"' not in page
    client.force_login(people["member"])
    page = client.get(page_url).content.decode()
    assert "Ask to join</button>" not in page and 'id="join-requests"' not in page
