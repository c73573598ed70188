"""The section socket /ws/sections/<id>/ (league/consumers.py): it joins the section's
group and forwards what the services broadcast after commit (a result, a pause, an arena player
away and back), and it
follows the page's rule: a draft's sections are its organisers' alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from league import competitions as cs
from league.competitions import event_services
from league.consumers import CLOSE_NO_SUCH_SECTION
from league.models import Tournament
from tests.factories import make_section, section_with
from tests.sockets import Socket

from .support import decide

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layers_fresh", "eager_celery")]


async def open_section_socket(section_id: int, user=None) -> tuple[Socket, dict]:
    return await Socket.open(0, user, path=f"/ws/sections/{section_id}/")


async def test_a_result_and_a_pause_reach_the_section_socket(make_player):
    people = [await sync_to_async(make_player)() for _ in range(4)]
    section = await sync_to_async(section_with)(people, format="swiss", rounds=2)
    socket, first = await open_section_socket(section.pk)
    assert first == {"type": "following", "section": section.pk}

    # Both boards of round 1: two results, the round's end, and round 2 (sent at once, Celery eager).
    assert await sync_to_async(decide)(section) == 2
    frames = [await socket.recv_type("update") for _ in range(4)]
    assert sorted((f["event"], f["round"], f.get("board")) for f in frames) == [
        ("result", 1, 1), ("result", 1, 2), ("round-finished", 1, None), ("round-started", 2, None)]
    assert all(f["section"] == section.pk for f in frames)

    await sync_to_async(cs.pause_section)(section_id=section.pk)
    assert await socket.recv_type("update") == {"type": "update", "section": section.pk, "event": "paused"}
    await socket.send({"type": "ping"})
    assert await socket.recv_type("pong") == {"type": "pong"}
    await socket.close()


async def test_an_arena_players_pause_and_return_reach_the_section_socket(make_player):
    """Every open page of the section fetches its live part again, the players list and the
    standings with their pause marks (test_arena_pause.py reads the fragment)."""
    people = [await sync_to_async(make_player)() for _ in range(2)]
    section = await sync_to_async(section_with)(people, format="arena", arena_duration=timedelta(minutes=10))
    socket, _ = await open_section_socket(section.pk)
    await sync_to_async(cs.pause_player)(section=section, user=people[0])
    assert await socket.recv_type("update") == {"type": "update", "section": section.pk, "event": "entry"}
    await sync_to_async(cs.player_back)(section=section, user=people[0])
    assert await socket.recv_type("update") == {"type": "update", "section": section.pk, "event": "entry"}
    await socket.close()


async def test_a_drafts_section_socket_is_its_organisers_alone(make_player):
    from league.models import ClubMembership
    from tests.factories import ClubFactory, MembershipFactory

    def world():
        club = ClubFactory.create(name="Draft club", slug="draft-club")
        organiser = MembershipFactory.create(club=club, user=make_player(username="org"),
                                             role=ClubMembership.Role.ORGANISER).user
        draft = event_services.create_tournament(by=organiser, club=club, name="Quiet cup", draft=True,
                                                 starts_at=timezone.now() + timezone.timedelta(hours=1))
        section = event_services.create_section(by=organiser, tournament=draft, name="Open", format="swiss",
                                                variant="classic")
        return organiser, section.pk, make_player(username="outsider")

    organiser, section_id, outsider = await sync_to_async(world)()
    for viewer in (None, outsider):
        socket, frame = await open_section_socket(section_id, viewer)
        assert frame["type"] == "error" and frame["code"] == "no-such-section"
        assert await socket.ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_NO_SUCH_SECTION}
    socket, frame = await open_section_socket(section_id, organiser)
    assert frame == {"type": "following", "section": section_id}
    await socket.close()


async def test_no_such_section_is_refused():
    socket, frame = await open_section_socket(987654)
    assert frame["code"] == "no-such-section"
    assert await socket.ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_NO_SUCH_SECTION}


async def test_closing_and_opening_registration_reach_the_section_socket(club, organiser, make_player):
    people = [await sync_to_async(make_player)() for _ in range(2)]
    section = await sync_to_async(make_section)(club, organiser, format="swiss", players=people)
    socket, _ = await open_section_socket(section.pk)

    def close_then_open():
        tournament = Tournament.objects.get(pk=section.tournament_id)
        event_services.close_registration(by=organiser, tournament=tournament)
        event_services.open_registration(by=organiser, tournament=tournament)

    await sync_to_async(close_then_open)()
    assert await socket.recv_type("update") == {"type": "update", "section": section.pk,
                                                "event": "registration-closed"}
    assert await socket.recv_type("update") == {"type": "update", "section": section.pk,
                                                "event": "registration-opened"}
    await socket.close()


async def test_deleting_a_section_or_its_tournament_tells_its_open_pages(club, organiser):
    first = await sync_to_async(make_section)(club, organiser, format="swiss", players=[])
    second = await sync_to_async(make_section)(club, organiser, format="swiss", players=[])
    sockets = [(await open_section_socket(section.pk))[0] for section in (first, second)]
    first_tournament = await Tournament.objects.aget(pk=first.tournament_id)
    await sync_to_async(event_services.delete_section)(by=organiser, section=first)
    assert await sockets[0].recv_type("update") == {
        "type": "update", "section": first.pk, "event": "deleted", "what": "section",
        "url": f"/clubs/{club.slug}/{first_tournament.slug}/"}
    tournament = await Tournament.objects.aget(pk=second.tournament_id)
    await sync_to_async(event_services.delete_tournament)(by=organiser, tournament=tournament)
    assert await sockets[1].recv_type("update") == {
        "type": "update", "section": second.pk, "event": "deleted", "what": "tournament", "url": f"/clubs/{club.slug}/"}
    for socket in sockets:
        await socket.close()


async def test_a_later_stage_s_page_hears_its_qualifiers_arrive(make_player):
    people = [await sync_to_async(make_player)() for _ in range(4)]
    swiss = await sync_to_async(section_with)(people, format="swiss", rounds=1)

    def knockout():
        return cs.create_section(tournament=swiss.tournament, name="Knockout", format="single-elimination",
                                 rule_set=swiss.rule_set, starts_at=timezone.now() + timedelta(hours=1),
                                 previous_stage=swiss, advance=2)

    later = await sync_to_async(knockout)()
    socket, _ = await open_section_socket(later.pk)
    assert await sync_to_async(decide)(swiss) == 2  # the Swiss ends: its top 2 are carried over
    assert await socket.recv_type("update") == {"type": "update", "section": later.pk, "event": "entry"}
    await socket.close()
