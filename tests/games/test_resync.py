"""games/resync.py's version of a game: what a socket has seen, compared with the database."""

from __future__ import annotations

from games import resync
from games.models import Game


def test_every_status_has_a_place_and_a_game_only_moves_forward() -> None:
    assert set(resync.STATUS_ORDER) == set(Game.Status.values)
    # open -> active -> finished or aborted; a move (ply + 1) beats any status of the ply before.
    order = [resync.version(0, "open"), resync.version(0, "active"), resync.version(3, "active"),
             resync.version(3, "finished"), resync.version(4, "active")]
    assert order == sorted(order) and len(set(order)) == len(order)
    assert resync.version(0, "aborted") == resync.version(0, "finished")
