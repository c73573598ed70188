"""Live play as it really runs: real server processes, real websocket clients (the
``websockets`` package, authenticating with the REST token like any bot), and races on
PostgreSQL.

- Two uvicorn processes sharing Redis: players on different processes see each other.
- A server stopped mid-game and started again: clients reconnect, nothing is lost,
  nothing is applied twice (both runtimes: runplatform on SQLite, uvicorn on PostgreSQL).
- A server killed between a move's commit and its broadcast: the opponent on the other
  server gets the state within the documented bound, sending nothing.
- 50 concurrent submissions for one ply store exactly one move, 100 times over; racing
  duplicates of a game-ending move get ``stale-ply`` like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import websockets
from django.conf import settings
from websockets.typing import Origin

from tests.processes import (
    ROOT,
    free_port,
    platform_commands,
    running,
    runplatform_command,
    scratch_database,
    uvicorn_command,
    wait_for_port,
)

SETUP = """
import json
from datetime import date
from rest_framework.authtoken.models import Token
from accounts.services import register_player
from games import services

users = [
    register_player(username=f"{prefix}-{name}", password="a-long-Passw0rd!", date_of_birth=date(1990, 1, 1),
                    country="GB").user
    for name in ("one", "two", "fan")
]
game = services.create_game(creator=users[0], variant="classic", opponent=users[1])
services.accept_challenge(game_id=game.pk, user=users[1])
print(json.dumps({"game": game.pk, "tokens": [Token.objects.create(user=u).key for u in users]}))
"""

STORED = """
import json
from games.models import Game
game = Game.objects.get(pk={game_id})
print(json.dumps({{"status": game.status, "winner": game.winner_seat,
                  "moves": [[m.ply, m.seat, m.move] for m in game.moves.order_by("ply")]}}))
"""


def manage_shell(env: dict[str, str], code: str) -> Any:
    """Run code against the processes' database; its last printed line is JSON."""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def server_command(port: int) -> list[str]:
    if settings.EMBEDDED:
        return runplatform_command(port, "--no-celery")
    return uvicorn_command(port)


class Player:
    """A websocket client of one game, as a bot would write it."""

    def __init__(self, port: int, game_id: int, token: str | None) -> None:
        self.port, self.game_id, self.token = port, game_id, token
        self.ws: Any = None

    async def connect(self, *, retry_for: float = 0) -> dict[str, Any]:
        """Connect and return the state frame; keep trying for ``retry_for`` seconds."""
        deadline = time.monotonic() + retry_for
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        while True:
            try:
                self.ws = await websockets.connect(
                    f"ws://127.0.0.1:{self.port}/ws/games/{self.game_id}/",
                    origin=Origin(f"http://127.0.0.1:{self.port}"),
                    additional_headers=headers,
                )
                break
            except (OSError, websockets.InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
        return await self.recv("state")

    async def recv(self, kind: str) -> dict[str, Any]:
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=15))
            if frame["type"] != "observers":
                assert frame["type"] == kind, frame
                return frame

    async def move(self, ply: int, cell: int) -> None:
        await self.ws.send(json.dumps({"type": "move", "ply": ply, "move": {"cell": cell}}))

    async def closed_by_server(self) -> bool:
        """Read (and drop) whatever is left until the server's close arrives."""
        try:
            while True:
                await asyncio.wait_for(self.ws.recv(), timeout=15)
        except websockets.ConnectionClosed:
            return True

    async def close(self) -> None:
        await self.ws.close()


async def play_moves(
    seats: list[Player],
    watchers: list[Player],
    cells: list[int],
    first_ply: int,
    latencies: list[float] | None = None,
) -> dict:
    """Each move acked to its mover and seen by everyone else, in order. ``latencies``
    collects, per move, the seconds from sending it to the opponent's update."""
    update: dict = {}
    for ply, cell in enumerate(cells, start=first_ply):
        mover, opponent = seats[ply % 2], seats[1 - ply % 2]
        sent = time.perf_counter()
        await mover.move(ply, cell)
        assert (await mover.recv("ack"))["ply"] == ply + 1
        for client in [opponent, mover, *watchers]:
            update = await client.recv("update")
            if client is opponent and latencies is not None:
                latencies.append(time.perf_counter() - sent)
            assert update["ply"] == ply + 1 and update["game"]["moves"][-1]["move"] == {"cell": cell}
    return update


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.parametrize("db_processes", [0, 2], ids=["db-channels-thread", "db-worker-processes"])
def test_one_game_across_two_server_processes_sharing_redis(tmp_path: Path, db_processes: int) -> None:
    ports = [free_port(), free_port()]
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = str(db_processes)  # games/workers.py
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + SETUP)
        commands = [server_command(port) for port in ports]
        with running(*commands, env=env, log_dir=tmp_path) as processes:
            for port, process in zip(ports, processes):
                wait_for_port(port, process=process)

            async def game() -> dict:
                one = Player(ports[0], setup["game"], setup["tokens"][0])
                two = Player(ports[1], setup["game"], setup["tokens"][1])
                fans = [
                    Player(ports[0], setup["game"], None),
                    Player(ports[1], setup["game"], setup["tokens"][2]),
                ]
                for client in (one, two, *fans):
                    assert (await client.connect())["ply"] == 0
                latencies: list[float] = []
                final = await play_moves([one, two], fans, [1, 4, 2, 5, 3], first_ply=0, latencies=latencies)
                print(
                    f"move -> opponent's update across processes: {sorted(latencies)[2] * 1000:.1f} ms median of 5"
                )
                for client in (one, two, *fans):
                    await client.close()
                return final

            final = asyncio.run(game())
            assert final["game"]["status"] == "finished" and final["game"]["result"]["winner"] == 0
            for process in processes:
                assert process.poll() is None
        stored = manage_shell(env, STORED.format(game_id=setup["game"]))
        assert [m[2]["cell"] for m in stored["moves"]] == [1, 4, 2, 5, 3]
        assert stored["status"] == "finished" and stored["winner"] == 0


#: docs/protocol.md, "When to sync": a socket behind the database hears of it within this.
RESYNC_BOUND_SECONDS = 5


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.parametrize("db_processes", [0, 2], ids=["db-channels-thread", "db-worker-processes"])
def test_a_server_killed_between_a_moves_commit_and_its_broadcast_costs_the_opponent_seconds(
    tmp_path: Path, db_processes: int
) -> None:
    """Player One's server stores the move and dies before its broadcast leaves (the
    test-only fault of games/realtime.py: it exits as if killed, at that very point).
    The opponent and an observer on the other server hear of the move within the
    documented bound without sending anything: their own server's resync check
    (games/resync.py) finds them behind the database."""
    ports = [free_port(), free_port()]
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = str(db_processes)
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + SETUP)
        game_id, tokens = setup["game"], setup["tokens"]
        logs = [tmp_path / "doomed", tmp_path / "survivor"]
        for log in logs:
            log.mkdir()
        doomed_env = {**env, "GAMES_FAULT_EXIT_BEFORE_BROADCAST": "1"}
        with (
            running(server_command(ports[0]), env=doomed_env, log_dir=logs[0]) as (doomed,),
            running(server_command(ports[1]), env=env, log_dir=logs[1]) as (survivor,),
        ):
            wait_for_port(ports[0], process=doomed)
            wait_for_port(ports[1], process=survivor)

            async def lost_broadcast() -> tuple[list[dict], float]:
                one = Player(ports[0], game_id, tokens[0])
                two, fan = Player(ports[1], game_id, tokens[1]), Player(ports[1], game_id, None)
                for client in (one, two, fan):
                    assert (await client.connect())["ply"] == 0
                sent = time.monotonic()
                await one.move(0, 5)
                heard = []
                for client in (two, fan):  # they send nothing
                    heard.append(await next_game_frame(client, timeout=RESYNC_BOUND_SECONDS + 1))
                elapsed = time.monotonic() - sent
                # The game goes on on the surviving server.
                await two.move(1, 1)
                assert (await two.recv("ack"))["ply"] == 2
                for client in (two, fan):
                    assert (await client.recv("update"))["ply"] == 2
                for client in (two, fan):
                    await client.close()
                return heard, elapsed

            heard, elapsed = asyncio.run(lost_broadcast())
            # It died at the fault, so no broadcast of the move ever left it.
            assert doomed.wait(timeout=15) == 137
            print(f"move stored, its server killed -> the other server's sockets told in {elapsed:.2f} s")
            for frame in heard:
                assert frame["type"] == "state" and frame["ply"] == 1
                assert frame["game"]["moves"][0]["move"] == {"cell": 5}
            assert elapsed < RESYNC_BOUND_SECONDS
            assert survivor.poll() is None
        stored = manage_shell(env, STORED.format(game_id=game_id))
        assert stored["moves"] == [[1, 0, {"cell": 5}], [2, 1, {"cell": 1}]]


async def next_game_frame(client: Player, *, timeout: float) -> dict[str, Any]:
    """The next frame about the game itself (observer counts skipped)."""
    while True:
        frame = json.loads(await asyncio.wait_for(client.ws.recv(), timeout=timeout))
        if frame["type"] != "observers":
            return frame


@pytest.mark.slow
def test_the_game_goes_on_after_the_server_is_stopped_and_started_again(tmp_path: Path) -> None:
    port = free_port()
    with scratch_database(tmp_path) as env:
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + SETUP)
        game_id, tokens = setup["game"], setup["tokens"]
        one, two = Player(port, game_id, tokens[0]), Player(port, game_id, tokens[1])
        fan = Player(port, game_id, tokens[2])
        loop = asyncio.new_event_loop()
        try:
            with running(server_command(port), env=env, log_dir=tmp_path) as (server,):
                wait_for_port(port, process=server)
                for client in (one, two, fan):
                    loop.run_until_complete(client.connect())
                loop.run_until_complete(play_moves([one, two], [fan], [5, 1], first_ply=0))
                # Player One moves and the server goes down before any ack can be relied on.
                loop.run_until_complete(one.move(2, 9))
            # The server is gone: every client notices its socket closed.
            for client in (one, two, fan):
                assert loop.run_until_complete(client.closed_by_server())
            with running(server_command(port), env=env, log_dir=tmp_path) as (server,):
                states = [loop.run_until_complete(c.connect(retry_for=30)) for c in (one, two, fan)]
                plies = {state["ply"] for state in states}
                assert len(plies) == 1 and plies <= {2, 3}  # everyone resyncs to the same stored state
                # The client does not know whether its last move landed: it sends it again
                # for the ply it believed. Either it is stored now, or refused as stale.
                loop.run_until_complete(one.move(2, 9))
                reply = loop.run_until_complete(one.recv("error" if plies == {3} else "ack"))
                assert reply.get("code", "stale-ply") == "stale-ply"
                if plies == {3}:
                    assert loop.run_until_complete(one.recv("state"))["ply"] == 3
                else:
                    for client in (one, two, fan):
                        loop.run_until_complete(client.recv("update"))
                final = loop.run_until_complete(play_moves([one, two], [fan], [3, 7], first_ply=3))
                assert final["game"]["status"] == "active" and final["ply"] == 5
                for client in (one, two, fan):
                    loop.run_until_complete(client.close())
                assert server.poll() is None
        finally:
            loop.close()
        stored = manage_shell(env, STORED.format(game_id=game_id))
        assert stored["moves"] == [
            [1, 0, {"cell": 5}],
            [2, 1, {"cell": 1}],
            [3, 0, {"cell": 9}],
            [4, 1, {"cell": 3}],
            [5, 0, {"cell": 7}],
        ]


AI_SETUP = """
import json
from datetime import date
from rest_framework.authtoken.models import Token
from accounts.services import register_player
from games import services

user = register_player(username=f"{prefix}-human", password="a-long-Passw0rd!", date_of_birth=date(1990, 1, 1),
                       country="GB").user
game = services.create_game(creator=user, variant="classic", ai_level="random", creator_seat=0)
print(json.dumps({"game": game.pk, "token": Token.objects.create(user=user).key}))
"""


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_a_game_against_the_ai_on_the_whole_platform(tmp_path: Path) -> None:
    """uvicorn (its database calls in worker processes), a Celery worker and beat: the
    human's move, stored by a worker process, queues the AI's reply in Celery, and the
    AI's move reaches the human's socket."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = "2"
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + AI_SETUP)
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])

            async def play() -> list[dict]:
                human = Player(port, setup["game"], setup["token"])
                assert (await human.connect())["ply"] == 0
                updates = []
                for ply in (0, 2):
                    state_cells = await human_move_cell(human, ply)
                    await human.move(ply, state_cells)
                    assert (await human.recv("ack"))["ply"] == ply + 1
                    updates.append(await human.recv("update"))  # the human's own move
                    updates.append(await human.recv("update"))  # the AI's reply, from Celery
                await human.close()
                return updates

            updates = asyncio.run(play())
            assert [u["ply"] for u in updates] == [1, 2, 3, 4]
            assert [m["seat"] for m in updates[-1]["game"]["moves"]] == [0, 1, 0, 1]
            assert all(p.poll() is None for p in processes)


async def human_move_cell(human: Player, ply: int) -> int:
    """A free cell for the human's move at ``ply`` (asks the server for the state)."""
    await human.ws.send(json.dumps({"type": "sync"}))
    state = await human.recv("state")
    assert state["ply"] == ply
    taken = {m["move"]["cell"] for m in state["game"]["moves"]}
    return next(cell for cell in range(1, 10) if cell not in taken)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def worker_pids(server_pid: int) -> list[int]:
    return [
        pid
        for pid in children_of(server_pid)
        if b"multiprocessing.spawn" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]


@contextlib.contextmanager
def one_worker_server(tmp_path: Path) -> Iterator[SimpleNamespace]:
    """A server with one database worker (LIVE_DB_PROCESSES=1) on a scratch database, a
    classic game between two players with tokens, and an event loop for their clients."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = "1"
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + SETUP)
        loop = asyncio.new_event_loop()
        try:
            with running(server_command(port), env=env, log_dir=tmp_path) as (server,):
                wait_for_port(port, process=server)
                yield SimpleNamespace(env=env, port=port, server=server, loop=loop, game_id=setup["game"],
                                      tokens=setup["tokens"])
        finally:
            loop.close()


def wait_for_lock_waiter(blocker: Any, statement: str) -> None:
    """Until a statement of this database containing ``statement`` waits for a lock
    (``blocker``'s); fails after 10 s without one (the kill that follows would hit an
    idle worker and test nothing)."""
    deadline = time.monotonic() + 10
    while not cast(tuple[Any, ...], blocker.execute(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
        " WHERE NOT l.granted AND a.datname = current_database() AND a.query LIKE %s", [f"%{statement}%"]
    ).fetchone())[0]:  # count(*) always returns a row
        assert time.monotonic() < deadline, f"no statement on {statement!r} waited for the lock"
        time.sleep(0.05)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_a_database_worker_killed_mid_move_is_replaced_and_the_game_goes_on(tmp_path: Path) -> None:
    """With LIVE_DB_PROCESSES, a worker killed while it holds a move costs that move a
    "try-again" (with the state) and every socket a fresh state; the move is not stored
    half-way, a new worker takes over, the mover sends it again and play goes on. The
    workers leave with their server."""
    import psycopg

    with one_worker_server(tmp_path) as live:
        loop, server, game_id = live.loop, live.server, live.game_id
        one, two = Player(live.port, game_id, live.tokens[0]), Player(live.port, game_id, live.tokens[1])
        fan = Player(live.port, game_id, None)
        for client in (one, two, fan):
            loop.run_until_complete(client.connect())
        loop.run_until_complete(play_moves([one, two], [fan], [5, 1], first_ply=0))
        (worker,) = worker_pids(server.pid)
        # Hold the game's row so the worker's next move waits on it, then kill it there.
        with psycopg.connect(live.env["DATABASE_URL"]) as blocker:
            blocker.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game_id])
            loop.run_until_complete(one.move(2, 9))
            wait_for_lock_waiter(blocker, "FOR UPDATE")
            os.kill(worker, signal.SIGKILL)
            refused = loop.run_until_complete(one.recv("error"))
            blocker.rollback()
        assert refused["code"] == "try-again"
        # The mover gets the state with its refusal and again with everyone's resync.
        for client in (one, one, two, fan):
            assert loop.run_until_complete(client.recv("state"))["ply"] == 2
        final = loop.run_until_complete(play_moves([one, two], [fan], [9, 3], first_ply=2))
        assert final["ply"] == 4 and final["game"]["status"] == "active"
        (replacement,) = worker_pids(server.pid)
        assert replacement != worker and server.poll() is None
        for client in (one, two, fan):
            loop.run_until_complete(client.close())
        server.kill()  # outright: no shutdown runs, the worker must notice alone
        server.wait()
        deadline = time.monotonic() + 10
        while Path(f"/proc/{replacement}").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not Path(f"/proc/{replacement}").exists()
        stored = manage_shell(live.env, STORED.format(game_id=game_id))
    assert [m[:3] for m in stored["moves"]] == [
        [1, 0, {"cell": 5}],
        [2, 1, {"cell": 1}],
        [3, 0, {"cell": 9}],
        [4, 1, {"cell": 3}],
    ]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_a_state_read_or_a_handshake_lost_with_its_worker_is_answered_in_words(tmp_path: Path) -> None:
    """Found by a chaos probe: a worker killed while it read a socket's state (a ``sync``,
    or the state after a ``try-again``) dropped the socket without a close frame, and one
    killed while it looked up a handshake's user failed the handshake with a 500. Now the
    socket gets ``try-again`` and stays, and the game-wide resync brings its state; the
    handshake is refused, and the next one works."""
    import psycopg

    with one_worker_server(tmp_path) as live:
        loop, server, game_id = live.loop, live.server, live.game_id
        one, two = Player(live.port, game_id, live.tokens[0]), Player(live.port, game_id, live.tokens[1])
        for client in (one, two):
            loop.run_until_complete(client.connect())
        loop.run_until_complete(play_moves([one, two], [], [5, 1], first_ply=0))
        with psycopg.connect(live.env["DATABASE_URL"]) as blocker:
            # The state read waits on the moves table; its worker is killed there.
            blocker.execute("LOCK TABLE games_move IN ACCESS EXCLUSIVE MODE")
            loop.run_until_complete(one.ws.send(json.dumps({"type": "sync"})))
            wait_for_lock_waiter(blocker, "games_move")
            (worker,) = worker_pids(server.pid)
            os.kill(worker, signal.SIGKILL)
            refused = loop.run_until_complete(one.recv("error"))
            blocker.rollback()
        assert refused["code"] == "try-again"
        for client in (one, two):  # the resync the lost read sent brings the state
            assert loop.run_until_complete(client.recv("state"))["ply"] == 2
        final = loop.run_until_complete(play_moves([one, two], [], [9, 3], first_ply=2))
        assert final["ply"] == 4
        # A handshake whose user lookup waits on the token table, its worker killed.
        late = Player(live.port, game_id, live.tokens[0])
        with psycopg.connect(live.env["DATABASE_URL"]) as blocker:
            blocker.execute("LOCK TABLE authtoken_token IN ACCESS EXCLUSIVE MODE")
            handshake = loop.create_task(late.connect())
            # The loop runs the handshake (up to its lookup, which waits on the lock) while
            # a thread watches for that wait: waited for with the loop stopped, the
            # handshake had not begun, and the kill hit an idle worker.
            loop.run_until_complete(loop.run_in_executor(None, wait_for_lock_waiter, blocker, "authtoken_token"))
            (worker,) = worker_pids(server.pid)
            os.kill(worker, signal.SIGKILL)
            with pytest.raises(websockets.InvalidStatus) as rejected:
                loop.run_until_complete(handshake)
            blocker.rollback()
        assert rejected.value.response.status_code == 403  # refused before accept, not a 500
        assert loop.run_until_complete(late.connect(retry_for=10))["ply"] == 4
        for client in (one, two, late):
            loop.run_until_complete(client.close())
    log = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert "Exception in ASGI application" not in log, log

OBSERVER_ROWS = """
import json
from datetime import timedelta
from games import observing
from games.models import Observer
swept = observing.sweep_stale_observers(older_than=timedelta(0)) if {sweep} else 0
print(json.dumps({{"swept": swept, "rows": sorted(Observer.objects.filter(game_id={game_id}).values_list("channel_name", flat=True))}}))
"""


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_observer_rows_of_a_killed_server_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    """A server killed outright (SIGKILL: no disconnect runs) leaves its observers' rows;
    the sweep (Celery beat's, called at once here) deletes them and keeps the row of a
    socket open on the server that replaced it."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        setup = manage_shell(env, f"prefix = {uuid.uuid4().hex[:6]!r}\n" + SETUP)
        game_id = setup["game"]
        loop = asyncio.new_event_loop()
        try:
            with running(server_command(port), env=env, log_dir=tmp_path) as (server,):
                wait_for_port(port, process=server)
                for fan in (Player(port, game_id, None), Player(port, game_id, setup["tokens"][2])):
                    loop.run_until_complete(fan.connect())
                server.kill()  # no graceful shutdown: the disconnects never run
                server.wait()
            left_behind = manage_shell(env, OBSERVER_ROWS.format(sweep=False, game_id=game_id))["rows"]
            assert len(left_behind) == 2
            with running(server_command(port), env=env, log_dir=tmp_path) as (server,):
                wait_for_port(port, process=server)
                watcher = Player(port, game_id, None)
                # Counted by viewer (games/observing.py): the ghosts are an account and an
                # address, the anonymous ghost's, which the watcher shares (all come from here).
                assert loop.run_until_complete(watcher.connect())["observers"] == 2
                after = manage_shell(env, OBSERVER_ROWS.format(sweep=True, game_id=game_id))
                assert after["swept"] == 2 and len(after["rows"]) == 1 and after["rows"][0] not in left_behind
                # The watcher hears its own arrival counted, then the corrected count.
                frames = [
                    json.loads(loop.run_until_complete(asyncio.wait_for(watcher.ws.recv(), timeout=15)))
                    for _ in range(2)
                ]
                assert frames == [{"type": "observers", "count": 2}, {"type": "observers", "count": 1}]
                loop.run_until_complete(watcher.close())
        finally:
            loop.close()


# -- races --------------------------------------------------------------------------

RACERS = 50
ROUNDS = 100


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_for_one_ply_store_exactly_one_move(make_player) -> None:
    from django.db import connection

    from accounts.errors import ServiceError
    from games import services
    from games.models import Game, Move

    p0, p1 = make_player(), make_player()
    games = []
    for _ in range(ROUNDS):
        game = services.create_game(creator=p0, variant="classic", opponent=p1)
        services.accept_challenge(game_id=game.pk, user=p1)
        games.append(game.pk)
    barrier = threading.Barrier(RACERS)

    def submit(game_id: int, racer: int) -> str:
        barrier.wait()  # all 50 leave the gate together
        try:
            services.submit_move(game_id=game_id, user=p0, ply=0, move={"cell": 1 + racer % 9})
            return "stored"
        except ServiceError as err:
            return err.code
        finally:
            connection.close()  # hand the connection back to the pool

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        for game_id in games:
            outcomes = list(pool.map(submit, [game_id] * RACERS, range(RACERS)))
            assert outcomes.count("stored") == 1, outcomes
            assert set(outcomes) == {"stored", "stale-ply"}, outcomes
    elapsed = time.monotonic() - started
    moves = list(Move.objects.filter(game_id__in=games).values_list("game_id", "ply"))
    assert sorted(moves) == sorted((game_id, 1) for game_id in games)
    assert set(Game.objects.filter(pk__in=games).values_list("ply", flat=True)) == {1}
    print(f"{ROUNDS} rounds of {RACERS} racing submissions in {elapsed:.1f} s")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_duplicates_of_a_game_ending_move_get_stale_ply_like_any_other(make_player) -> None:
    """Every racer sends the winning move for the same ply: one stores it and ends the
    game, and every other gets ``stale-ply`` (the code a duplicate of any move gets),
    not ``game-over``."""
    from django.db import connection

    from accounts.errors import ServiceError
    from games import services
    from games.models import Game, Move

    p0, p1 = make_player(), make_player()
    games = []
    for _ in range(20):
        game = services.create_game(creator=p0, variant="classic", opponent=p1)
        services.accept_challenge(game_id=game.pk, user=p1)
        for ply, cell in enumerate([1, 4, 2, 5]):  # X to complete the top row with 3
            services.submit_move(game_id=game.pk, user=(p0, p1)[ply % 2], ply=ply, move={"cell": cell})
        games.append(game.pk)
    racers = 20
    barrier = threading.Barrier(racers)

    def submit(game_id: int) -> str:
        barrier.wait()
        try:
            services.submit_move(game_id=game_id, user=p0, ply=4, move={"cell": 3})
            return "stored"
        except ServiceError as err:
            return err.code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=racers) as pool:
        for game_id in games:
            outcomes = list(pool.map(submit, [game_id] * racers))
            assert outcomes.count("stored") == 1 and set(outcomes) == {"stored", "stale-ply"}, outcomes
    assert set(Game.objects.filter(pk__in=games).values_list("status", "ply")) == {("finished", 5)}
    assert Move.objects.filter(game_id__in=games).count() == 5 * len(games)
