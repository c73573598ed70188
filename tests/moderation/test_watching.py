"""Observer policies, caps, bans and kicks on the real websocket stack (the runtime's
channel layer: in-process, or Redis with REDIS_URL) and the real database."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.observing import CLOSE_KICKED, CLOSE_OBSERVERS_FULL, CLOSE_WATCH_REFUSED
from tests.sockets import Socket, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("own_channel_layer", "observer_counts_sent")]


async def expect_refused(game_id: int, user: Any, code: str, close_code: int = CLOSE_WATCH_REFUSED) -> str:
    communicator = await connect(game_id, user)
    frame = await communicator.receive_json_from(timeout=5)
    assert frame["type"] == "error" and frame["code"] == code, frame
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": close_code}
    await communicator.disconnect()
    return frame["message"]


async def expect_watching(game_id: int, user: Any) -> Socket:
    communicator = await connect(game_id, user)
    socket = Socket(communicator)
    frame = await socket.recv_type("state")
    assert frame["game"]["you"] is None  # an observer
    return socket


@database_sync_to_async
def club_b_game_in_play(world: Any) -> Any:
    """A game under club B's rules, accepted: the world's own game_b is a challenge to
    one player still open, which only its two players may read (docs/game-page.md)."""
    from tests.factories import GameFactory

    return GameFactory.create(creator=world.player_1, rule_set=world.rules_b, opponent=world.player_2)


def set_policy(world: Any, **kwargs: Any) -> Any:
    from moderation import services

    return services.set_observer_policy(actor=world.superuser, **kwargs)


async def test_nobody_watches_a_closed_game_but_its_players_and_moderators(world_tx, make_player):
    w = world_tx
    await database_sync_to_async(set_policy)(w, club=w.club_a, policy="none")
    message = await expect_refused(w.game_a.pk, None, "observers-not-allowed")
    assert message == "This game is closed to observers."
    await expect_refused(w.game_a.pk, w.member_a, "observers-not-allowed")
    player = Socket(await connect(w.game_a.pk, w.player_1))
    assert (await player.recv_type("state"))["game"]["you"] == 0
    arbiter = await expect_watching(w.game_a.pk, w.arbiter_a)
    # Club B's game is not covered by club A's policy.
    other = await expect_watching((await club_b_game_in_play(w)).pk, None)
    for socket in (player, arbiter, other):
        await socket.close()


async def test_signed_in_members_and_invited(world_tx, make_player):
    w = world_tx
    outsider = await database_sync_to_async(make_player)(username="outsider")
    await database_sync_to_async(set_policy)(w, club=w.club_a, policy="signed-in")
    assert await expect_refused(w.game_a.pk, None, "sign-in-to-watch") == "Sign in to watch this game."
    await (await expect_watching(w.game_a.pk, outsider)).close()

    await database_sync_to_async(set_policy)(w, club=w.club_a, policy="members")
    await expect_refused(w.game_a.pk, outsider, "members-only")
    await (await expect_watching(w.game_a.pk, w.member_a)).close()

    await database_sync_to_async(set_policy)(w, club=w.club_a, policy="invited", invited=[outsider])
    await expect_refused(w.game_a.pk, w.member_a, "invited-only")
    await (await expect_watching(w.game_a.pk, outsider)).close()


async def test_the_most_specific_policy_wins(world_tx):
    w = world_tx
    await database_sync_to_async(set_policy)(w, club=w.club_a, policy="none")
    await database_sync_to_async(set_policy)(w, game=w.game_a, policy="anyone")
    await (await expect_watching(w.game_a.pk, None)).close()


async def test_the_cap_refuses_one_observer_too_many(world_tx, make_player):
    w = world_tx
    await database_sync_to_async(set_policy)(w, game=w.game_a, policy="anyone", cap=1)
    first = await expect_watching(w.game_a.pk, w.member_a)
    message = await expect_refused(w.game_a.pk, None, "observers-full", CLOSE_OBSERVERS_FULL)
    assert "(1)" in message
    await first.close()
    await (await expect_watching(w.game_a.pk, None)).close()


async def expect_watching_from(game_id: int, user: Any, address: str) -> tuple[Socket, int]:
    """A socket watching from ``address``, and the observer count its state frame gives."""
    socket = Socket(await connect(game_id, user, address=address))
    frame = await socket.recv_type("state")
    assert frame["game"]["you"] is None
    return socket, frame["observers"]


async def test_the_cap_counts_viewers_not_their_tabs(world_tx, make_player):
    """An outside probe filled a cap alone, with one tab a place. Counted by viewer: a
    signed-in account, else an address."""
    w = world_tx
    await database_sync_to_async(set_policy)(w, game=w.game_a, policy="anyone", cap=2)
    tabs = []
    for _ in range(3):  # one visitor, three tabs: one observer
        socket, count = await expect_watching_from(w.game_a.pk, None, "203.0.113.7")
        tabs.append(socket)
        assert count == 1
    for _ in range(2):  # a member with two tabs (from wherever): the second observer
        socket, count = await expect_watching_from(w.game_a.pk, w.member_a, "198.51.100.9")
        tabs.append(socket)
        assert count == 2
    # Full: another address is refused, and so is another account from the first address.
    socket = Socket(await connect(w.game_a.pk, None, address="203.0.113.8"))
    frame = await socket.recv_type("error")
    assert frame["code"] == "observers-full" and "(2)" in frame["message"]
    await socket.close()
    outsider = await database_sync_to_async(make_player)(username="outsider")
    socket = Socket(await connect(w.game_a.pk, outsider, address="203.0.113.7"))
    assert (await socket.recv_type("error"))["code"] == "observers-full"
    await socket.close()
    # A viewer already counted may open yet another tab.
    socket, count = await expect_watching_from(w.game_a.pk, None, "203.0.113.7")
    assert count == 2
    await socket.close()
    # The visitor closes every tab: their place is free.
    for tab in tabs[:3]:
        await tab.close()
    socket, count = await expect_watching_from(w.game_a.pk, None, "203.0.113.8")
    assert count == 2
    for tab in [socket, *tabs[3:]]:
        await tab.close()


async def test_a_banned_user_is_refused_with_the_reason_until_lifted(world_tx):
    from moderation import services

    w = world_tx
    ban = await database_sync_to_async(services.ban_user)(
        actor=w.arbiter_a, user=w.member_a, club=w.club_a, reason="Shouting moves at the players")
    message = await expect_refused(w.game_a.pk, w.member_a, "banned")
    assert "Shouting moves at the players" in message
    await (await expect_watching((await club_b_game_in_play(w)).pk, w.member_a)).close()  # another club's game
    await database_sync_to_async(services.lift_ban)(actor=w.organiser_a, ban=ban, reason="Apologised")
    await (await expect_watching(w.game_a.pk, w.member_a)).close()


async def test_a_kick_closes_the_socket_at_once(world_tx):
    from games.models import Observer
    from moderation import services
    from moderation.models import AuditEntry

    w = world_tx
    watcher = await expect_watching(w.game_a.pk, w.member_a)
    player = Socket(await connect(w.game_a.pk, w.player_1))
    await player.recv_type("state")
    observer = await database_sync_to_async(Observer.objects.select_related("game", "user").get)(user=w.member_a)
    await database_sync_to_async(services.kick_observer)(actor=w.arbiter_a, observer=observer, reason="Spam")
    frame = await watcher.recv_type("error")
    assert frame["code"] == "kicked" and "Spam" in frame["message"]
    assert await watcher.ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_KICKED}
    await watcher.close()
    assert not await database_sync_to_async(Observer.objects.filter(user=w.member_a).exists)()
    entry = await database_sync_to_async(AuditEntry.objects.get)(action="observer.kick")
    assert entry.reason == "Spam" and entry.actor_name == "arbiter_a" and entry.club_id == w.club_a.pk
    # A kick is not a ban: they may come back.
    await (await expect_watching(w.game_a.pk, w.member_a)).close()
    await player.close()


async def test_a_ban_closes_their_open_sockets_and_keeps_them_out(world_tx):
    from games.models import Observer
    from moderation import services

    w = world_tx
    watcher = await expect_watching(w.game_a.pk, w.member_a)
    observer = await database_sync_to_async(Observer.objects.select_related("game", "user").get)(user=w.member_a)
    await database_sync_to_async(services.ban_observer)(
        actor=w.organiser_a, user=observer.user, game=observer.game, scope="game", reason="Coaching a player")
    frame = await watcher.recv_type("error")
    assert frame["code"] == "banned"
    assert (await watcher.ws.receive_output(timeout=5))["code"] == CLOSE_KICKED
    await watcher.close()
    await expect_refused(w.game_a.pk, w.member_a, "banned")


async def test_observers_never_act_in_a_game(world_tx):
    w = world_tx
    watcher = await expect_watching(w.game_a.pk, w.member_a)
    for frame in ({"type": "move", "ply": 0, "move": {"cell": 5}}, {"type": "resign"}, {"type": "note", "text": "hi"}):
        await watcher.send(frame)
        assert (await watcher.recv_type("error"))["code"] == "not-a-player"
    await watcher.close()
