"""A database worker process (games/workers.py) hands each live message to its server
over a pipe. When the server was killed mid-call (a chaos probe, 2026-11-30: kill -9 of a
uvicorn process during a game's last move), the pipe is broken: the message is lost (the
sockets resync from the database) and the hooks after it in the same commit must still
run. They did not: the broken pipe was raised out of the on-commit hook, and Django drops
the hooks after a hook that raises, so the game's ``league.record_game_result`` and
``league.rate_game`` were never queued and the round waited for the sweep (30 s), the
ratings for theirs (90 s)."""

from __future__ import annotations

from django.db import transaction

from accounts import broadcast
from games.realtime import send_to_game


def _server_gone(group, message):
    raise BrokenPipeError(32, "Broken pipe")


def test_a_live_message_to_a_dead_server_is_lost_and_the_hooks_after_it_still_run(db,
                                                                                   django_capture_on_commit_callbacks):
    ran = []
    with broadcast.handed_to(_server_gone), django_capture_on_commit_callbacks(execute=True):
        transaction.on_commit(lambda: send_to_game(1, {"type": "game.update", "ply": 6}))
        transaction.on_commit(lambda: broadcast.send_to_groups([("user-1", {"type": "notice.new"})]))
        transaction.on_commit(lambda: ran.append("league.record_game_result queued"))
    assert ran == ["league.record_game_result queued"]


def test_a_live_message_handed_to_a_live_server_is_handed_once():
    handed = []
    with broadcast.handed_to(lambda group, message: handed.append((group, message))):
        assert broadcast.handed_over("game-1", {"type": "game.update"})
    assert handed == [("game-1", {"type": "game.update"})]
    assert not broadcast.handed_over("game-1", {"type": "game.update"})  # outside: the caller sends it
