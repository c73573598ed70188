"""What each call of live play costs the server, in CPU and SQL statements: a move, an
observer's and a player's connect (with the token lookup), an observer's disconnect;
then the game page for each kind of viewer, the floor every page pays (a signed-in 404:
middleware, session, user, profile, unread count, the menu), a board render per viewer
kind and the three renders after every move (``boards.update_message_for``).
bench/live.py measures the whole stack under load, where a crowd arriving for each new
game makes its page loads and connects most of a move's cost; this isolates the part
the platform adds to the bare relay, one call at a time, so a change shows up here
without the noise of a loaded machine (CPU time, not wall time).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttt .venv/bin/python bench/live_costs.py
    .venv/bin/python bench/live_costs.py --calls 500          # embedded SQLite

A scratch database (tests.processes.scratch_database: created, migrated, dropped). Each
socket call runs in this process as a database worker process runs it
(``games.workers.run``: each broadcast built and pickled for the pipe, not sent; the
outcome pickled too); pages go through Django's test client (no network), on a classic game
four moves in. Printed per call: the median and p90 of this thread's CPU time, the
median wall time, and the SQL statements (counted in a separate pass, as counting costs
time itself).
"""

from __future__ import annotations

import argparse
import functools
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.processes import scratch_database  # noqa: E402


def measure(name: str, calls: list[Callable[[], Any]], warm: int = 0) -> None:
    """Run every call, timing each; then count one call's statements on a fresh call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    *timed, counted = calls
    for call in timed[:warm]:  # the same call again and again (pages): caches, prepared statements
        call()
    cpu, wall = [], []
    for call in timed:
        cpu_start, wall_start = time.thread_time(), time.perf_counter()
        call()
        cpu.append((time.thread_time() - cpu_start) * 1000)
        wall.append((time.perf_counter() - wall_start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        counted()
    statements = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN",)]
    print(
        f"{name:<34} {statistics.median(cpu):>8.2f} {statistics.quantiles(cpu, n=10)[-1]:>8.2f}"
        f" {statistics.median(wall):>9.2f} {len(statements):>6}"
    )
    if os.environ.get("SHOW_SQL"):
        for sql in statements:
            print("      ", sql[:160])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="calls timed per kind (default 300)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ttt-live-costs-") as tmp, scratch_database(Path(tmp)) as env:
        os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SQLITE_PATH")})
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
        os.environ["DJANGO_DEBUG"] = "0"
        import logging
        import warnings

        import django

        django.setup()
        logging.disable(logging.WARNING)  # the 404s would log a line each
        warnings.filterwarnings("ignore", message="No directory at")  # collectstatic not run: no matter here
        from django.conf import settings

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # setup speed only
        settings.CHANNEL_LAYERS = {}  # build each broadcast, send none
        run(args.calls)


def run(count: int) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from accounts import realtime
    from accounts.services import register_player
    from games import consumers, observing, services, workers
    from games.models import Game
    from games.rules import get_variant

    print(f"database: {connection.vendor}; {count} calls of each kind")
    users = [
        register_player(username=f"costs{i}", password="bench-Passw0rd-long", date_of_birth=date(1990, 1, 1),
                        country="GB").user
        for i in range(2)
    ]
    token = Token.objects.create(user=users[0]).key
    variant = get_variant("classic")
    rng = random.Random(1)

    def new_game() -> Game:
        game = services.create_game(creator=users[0], variant="classic", opponent=users[1])
        return services.accept_challenge(game_id=game.pk, user=users[1])

    games = [new_game() for _ in range(count // 4 + 2)]

    def in_worker(func: Callable[..., Any], **kwargs: Any) -> Callable[[], Any]:
        # As a database worker process runs it (games/workers.py): each live message and
        # the outcome pickled for the pipe back to the server, none sent.
        def hand(group: str, message: dict[str, Any]) -> None:
            pickle.dumps(("send", (group, message)))

        def call() -> Any:
            return pickle.dumps(workers.run(func, kwargs, hand))

        return call

    print(f"{'call':<34} {'cpu p50':>8} {'cpu p90':>8} {'wall p50':>9} {'stmts':>6}  (ms)")
    # Moves: a legal move of one game after another (each played to its end, then a
    # new one), so the log grows as in play.
    playing = {g.pk: (0, variant.load(g.state)) for g in games}

    def next_move() -> Callable[[], Any]:
        while True:
            live = [gid for gid, (_, state) in playing.items() if variant.outcome(state) is None]
            if live:
                break
            fresh = new_game()
            playing[fresh.pk] = (0, variant.load(fresh.state))
        game_id = rng.choice(live)
        ply, state = playing[game_id]
        seat = state.to_move[0]
        move = rng.choice(variant.legal_moves(state, seat))
        playing[game_id] = (ply + 1, variant.apply(state, seat, move))
        return in_worker(services.submit_move, game_id=game_id, user=users[seat], ply=ply, move=move)

    measure("move (submit_move)", [next_move() for _ in range(count + 1)])

    target = games[0].pk
    observer_channels = [f"costs.{uuid.uuid4().hex}" for _ in range(count + 1)]
    measure("observer connect (_open)", [
        in_worker(consumers._open, game_id=target, user=AnonymousUser(), channel_name=name)
        for name in observer_channels
    ])
    measure("observer disconnect (observer_left)", [
        in_worker(observing.observer_left, channel_name=name) for name in observer_channels
    ])
    measure("player connect (_open)", [
        in_worker(consumers._open, game_id=target, user=users[0], channel_name="unused") for _ in range(count + 1)
    ])
    measure("token lookup (websocket auth)", [in_worker(realtime._user_for_token, key=token) for _ in range(count + 1)])
    pages(count, users, new_game)


def pages(count: int, users: list[Any], new_game: Callable[[], Any]) -> None:
    """The game page for each kind of viewer and the board's renders, on a game in its
    middle (four moves of a ~7.5-move game: the move list as long as usual)."""
    from django.test import Client

    from accounts.services import register_player
    from games import boards, selectors, services, sql
    from games.rules import get_variant

    game = new_game()
    variant = get_variant("classic")
    state = variant.load(game.state)
    for ply in range(4):
        seat = state.to_move[0]
        move = variant.legal_moves(state, seat)[0]
        services.submit_move(game_id=game.pk, user=users[seat], ply=ply, move=move)
        state = variant.apply(state, seat, move)
    watcher = register_player(username="costs-watcher", password="bench-Passw0rd-long",
                              date_of_birth=date(1990, 1, 1), country="GB").user
    player, observer, anonymous = Client(), Client(), Client()
    player.force_login(users[0])
    observer.force_login(watcher)
    url = f"/play/{game.pk}/"
    times = range(count + 1)
    measure("404 page, signed in", [functools.partial(observer.get, "/play/999999999/") for _ in times], warm=30)
    measure("game page: a player", [functools.partial(player.get, url) for _ in times], warm=30)
    measure("game page: a signed-in observer", [functools.partial(observer.get, url) for _ in times], warm=30)
    measure("game page: anonymous", [functools.partial(anonymous.get, url) for _ in times], warm=30)
    loaded = selectors.load_game(game.pk)
    shared = boards.shared_parts(loaded)
    for viewer in boards.VIEWERS:
        context = boards.board_context(loaded, selectors.game_payload(loaded, viewer), viewer, shared=shared)
        measure(f"board render: {selectors.viewer_key(viewer)}",
                [functools.partial(boards.render_board, context) for _ in times], warm=30)
    moves = sql.moves(game.pk)
    measure("after a move (update_message_for)",
            [functools.partial(boards.update_message_for, loaded, moves) for _ in times], warm=30)
    # The same game played to its end: a finished board also reads the rematch offers
    # and the rating note (games/boards.py, shared_parts).
    ply = 4
    while not selectors.load_game(game.pk).is_over:
        seat = state.to_move[0]
        move = variant.legal_moves(state, seat)[0]
        services.submit_move(game_id=game.pk, user=users[seat], ply=ply, move=move)
        state, ply = variant.apply(state, seat, move), ply + 1
    finished = selectors.load_game(game.pk)
    moves = sql.moves(game.pk)
    measure("after a game's last move (update_message_for)",
            [functools.partial(boards.update_message_for, finished, moves) for _ in times], warm=30)


if __name__ == "__main__":
    main()
