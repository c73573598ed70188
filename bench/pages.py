"""What a page and a board render cost the server, in CPU: the game page for each kind
of viewer (a player, a signed-in observer, someone anonymous), a signed-in 404 (the
floor every page pays: middleware, session, user, menu), the board partial for each
viewer kind, and the three renders that follow every move (``boards.update_message_for``).
bench/live.py measures the whole stack under load, where a crowd arriving for each new
game makes page loads the largest part of a move's cost; this isolates them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttt .venv/bin/python bench/pages.py
    .venv/bin/python bench/pages.py --calls 200          # embedded SQLite

A scratch database (tests.processes.scratch_database: created, migrated, dropped), a
classic game four moves in, Django's test client (no network). Printed per line: the
median and p90 of this thread's CPU time over ``--calls`` calls, after a warm-up.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.processes import scratch_database  # noqa: E402


def measure(name: str, call: Callable[[], Any], count: int) -> None:
    for _ in range(max(20, count // 10)):
        call()
    cpu = []
    for _ in range(count):
        start = time.thread_time()
        call()
        cpu.append((time.thread_time() - start) * 1000)
    print(f"{name:<34} {statistics.median(cpu):>8.2f} {statistics.quantiles(cpu, n=10)[-1]:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=400, help="calls timed per line (default 400)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ttt-pages-") as tmp, scratch_database(Path(tmp)) as env:
        os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SQLITE_PATH")})
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
        os.environ["DJANGO_DEBUG"] = "0"
        import logging
        import warnings

        import django

        warnings.filterwarnings("ignore", message="No directory at")  # collectstatic not run: no matter here

        django.setup()
        logging.disable(logging.WARNING)  # the 404s would log a line each
        from django.conf import settings

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # setup speed only
        settings.CHANNEL_LAYERS = {}  # build each broadcast, send none
        run(args.calls)


def run(count: int) -> None:
    from datetime import date

    from django.db import connection
    from django.test import Client

    from accounts.services import register_player
    from games import boards, selectors, services, sql
    from games.rules import get_variant

    print(f"database: {connection.vendor}; {count} calls a line")
    users = [
        register_player(username=f"pages{i}", password="bench-Passw0rd-long", date_of_birth=date(1990, 1, 1),
                        country="GB").user
        for i in range(3)
    ]
    game = services.create_game(creator=users[0], variant="classic", opponent=users[1])
    game = services.accept_challenge(game_id=game.pk, user=users[1])
    variant = get_variant("classic")
    state = variant.load(game.state)
    for ply in range(4):  # the middle of a ~7.5-move game: the move list as long as usual
        seat = state.to_move[0]
        move = variant.legal_moves(state, seat)[0]
        services.submit_move(game_id=game.pk, user=users[seat], ply=ply, move=move)
        state = variant.apply(state, seat, move)

    player, observer, anonymous = Client(), Client(), Client()
    player.force_login(users[0])
    observer.force_login(users[2])
    url = f"/play/{game.pk}/"
    print(f"{'call':<34} {'cpu p50':>8} {'cpu p90':>8}  (ms)")
    measure("404 page, signed in", lambda: observer.get("/play/999999999/"), count)
    measure("game page: a player", lambda: player.get(url), count)
    measure("game page: a signed-in observer", lambda: observer.get(url), count)
    measure("game page: anonymous", lambda: anonymous.get(url), count)
    loaded = selectors.load_game(game.pk)
    shared = boards.shared_parts(loaded)
    for viewer in boards.VIEWERS:
        payload = selectors.game_payload(loaded, viewer)
        context = boards.board_context(loaded, payload, viewer, shared=shared)
        measure(f"board render: {selectors.viewer_key(viewer)}", functools.partial(boards.render_board, context), count)
    moves = sql.moves(game.pk)
    measure("after a move (update_message_for)", lambda: boards.update_message_for(loaded, moves), count)


if __name__ == "__main__":
    main()
