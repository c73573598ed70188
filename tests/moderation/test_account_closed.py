"""Closing an account (the console's "Active" unticked, a guardian's consent withdrawn)
closes its open sockets at once: a socket keeps the user it signed in with at connect,
and a deactivated player resigned a game through one (an outside probe, 2026-12-01)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.db import transaction

from accounts.realtime import CLOSE_ACCOUNT_CLOSED, CLOSE_BAD_TOKEN
from tests.sockets import Socket, connect


def _close_account(user) -> None:
    from accounts import services

    with transaction.atomic():
        user.is_active = False
        user.save(update_fields=["is_active"])
        services.close_account_sockets(user_id=user.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer", "observer_counts_sent")
async def test_a_closed_accounts_open_game_socket_closes_and_cannot_act(world_tx):
    from games.models import Game

    w = world_tx
    player = Socket(await connect(w.game_a.pk, w.player_1))
    await player.recv_type("state")
    watcher = Socket(await connect(w.game_a.pk, w.member_a))
    await watcher.recv_type("state")
    await database_sync_to_async(_close_account)(w.player_1)
    await database_sync_to_async(_close_account)(w.member_a)
    for socket in (player, watcher):
        frame = await socket.recv_type("error")
        assert frame["code"] == "account-closed"
        assert await socket.ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_ACCOUNT_CLOSED}
        await socket.close()
    game = await database_sync_to_async(Game.objects.get)(pk=w.game_a.pk)
    assert game.status == Game.Status.ACTIVE
    # And coming back with the token is refused (REST answers it 401 too).
    again = Socket(await connect(w.game_a.pk, w.player_1))
    assert (await again.recv_type("error"))["code"] == "bad-token"
    assert (await again.ws.receive_output(timeout=5))["code"] == CLOSE_BAD_TOKEN
    await again.close()


def test_unticking_active_in_the_console_closes_the_sockets(world, django_capture_on_commit_callbacks):
    from django.contrib.admin import site

    from accounts.admin import UserAdmin
    from accounts.broadcast import collecting
    from accounts.models import User
    from accounts.realtime import account_group, user_group

    user = world.member_a
    admin = UserAdmin(User, site)
    request = SimpleNamespace(user=world.superuser)
    with collecting() as sent, django_capture_on_commit_callbacks(execute=True):
        user.first_name = "Renamed"
        admin.save_model(request, user, SimpleNamespace(changed_data=["first_name"]), change=True)
    assert sent == []  # another change closes nothing
    with collecting() as sent, django_capture_on_commit_callbacks(execute=True):
        user.is_active = False
        admin.save_model(request, user, SimpleNamespace(changed_data=["is_active"]), change=True)
    assert sorted(group for group, message in sent if message["type"] == "account.closed") == sorted(
        [user_group(user.pk), account_group(user.pk)])
