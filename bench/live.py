"""Live-play benchmark: real websocket clients playing classic games on the platform,
and the same clients on a bare relay (bench/relay_asgi.py) as the control.

Run from the repository root, with PostgreSQL and Redis up on 127.0.0.1::

    .venv/bin/python bench/live.py --quick                     # 10 games, a few seconds
    .venv/bin/python bench/live.py --games 50,100,250 --processes 2 --seconds 30

For each G it runs the control, then the platform, with the same clients:

- G game slots. Each slot has two players (seat 0 and 1) and ``--observers`` anonymous
  observers, every one on its own websocket, spread round robin over the N server
  processes (so a game's sockets sit on different processes, as in production). The
  player to move picks a random free square (the "random" AI level) about once per
  second per game. When a game ends the slot starts a new one in its place, so the load
  stays constant (new game, new sockets: the churn is part of the load).
- Latency: from a player's send of a move to its receipt (the ``update`` with that
  ply) on every socket of the game, p50/p95/p99 over the moves sent in the window.
- Lost: a move acked whose update did not reach every socket of the game within the
  grace period; unacked: a move sent and never acked; unstored (platform): a move sent
  whose (game, ply) is not in the database at the end.
- "holds": nothing lost, unacked or unstored, no error frames, p99 < 100 ms, and the
  load offered was carried: moves per second at least 90% of G x rate ("carried").
  Without that last test a server too slow to let players connect would "hold" with
  fewer games actually playing.

The platform: a scratch PostgreSQL database (created, migrated, dropped), an unused
Redis database number (checked empty, flushed after), N ``uvicorn config.asgi:application``
processes (settings config.settings.dev, DJANGO_DEBUG=0), each with ``--db-processes``
database worker processes (``LIVE_DB_PROCESSES``, games/workers.py; 0: threads), a
Celery worker and beat. Server CPU counts the servers and everything under them.
Players and games are made through ``accounts.services`` and ``games.services`` in
helper processes (so the client's event loop does not share a GIL with the ORM), and
players authenticate with ``Authorization: Token <key>``. The control: N
``uvicorn bench.relay_asgi:application`` processes on the same Redis pub/sub layer.

Everything is bounded (games, seconds, processes), talks only to 127.0.0.1, and is
stopped on exit, Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

MAX_GAMES = 2000
MAX_PROCESSES = 8
MAX_SECONDS = 600
#: p99 goal from the brief, in seconds.
GOAL_P99 = 0.100
#: The share of the offered moves per second (G x rate) a point must carry to hold.
CARRIED_SHARE = 0.9
PASSWORD = "bench-Passw0rd-long-enough"
CLIENT_TIMEOUT = 15.0


# -- helpers running in the DB helper processes (Django lives only there) -----------------

_users: dict[int, Any] = {}


def _db_init(env: dict[str, str]) -> None:
    os.environ.update(env)
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    import django

    django.setup()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop


def _db_make_players(prefix: str, count: int) -> list[tuple[int, str]]:
    """``count`` adult players (id, token key), made through the accounts service."""
    from datetime import date

    from django.test.utils import override_settings
    from rest_framework.authtoken.models import Token

    from accounts.services import register_player

    out = []
    # A fast hasher: a thousand PBKDF2 hashes would take minutes and measure nothing here.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for index in range(count):
            user = register_player(
                username=f"{prefix}{index}",
                password=PASSWORD,
                date_of_birth=date(1990, 1, 1),
                country="GB",
                notify_guardian=False,
            ).user
            out.append((user.pk, Token.objects.create(user=user).key))
    return out


def _db_user(user_id: int) -> Any:
    from accounts.models import User

    if user_id not in _users:
        _users[user_id] = User.objects.get(pk=user_id)
    return _users[user_id]


def _db_new_game(seat0: int, seat1: int) -> int:
    """A classic game between two players, started: seat 0 challenges, seat 1 accepts."""
    from accounts.errors import ServiceError
    from games import services

    try:
        game = services.create_game(creator=_db_user(seat0), variant="classic", opponent=_db_user(seat1))
        services.accept_challenge(game_id=game.pk, user=_db_user(seat1))
    except ServiceError as err:
        # ServiceError does not unpickle: it would break the pool; pass its words on.
        raise RuntimeError(f"{err.code}: {err.message}") from None
    return game.pk


def _db_stored(keys: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Which (game id, ply) of ``keys`` are stored moves."""
    from games.models import Move

    wanted = set(keys)
    game_ids = sorted({g for g, _ in keys})
    stored: list[tuple[int, int]] = []
    for start in range(0, len(game_ids), 500):
        rows = Move.objects.filter(game_id__in=game_ids[start : start + 500]).values_list("game_id", "ply")
        stored.extend(row for row in rows if row in wanted)
    return stored


def _db_resign_active() -> int:
    """Resign every game still in play (a point's leftovers), through the service."""
    from accounts.errors import ServiceError
    from games import services
    from games.models import Game

    count = 0
    for game in Game.objects.filter(status=Game.Status.ACTIVE).prefetch_related("seats__user"):
        user = next((s.user for s in game.seats.all() if s.user is not None), None)
        if user is not None:
            with contextlib.suppress(ServiceError):  # it may have ended meanwhile
                services.resign(game_id=game.pk, user=user)
                count += 1
    return count


# -- process control ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}; see its log")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listened on port {port} within {timeout} s")


class Processes:
    """Child processes in their own sessions, stopped (TERM, then KILL) in reverse order."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.children: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.children.append(process)
        return process

    def stop(self, processes: list[subprocess.Popen[bytes]] | None = None) -> None:
        targets = list(reversed(processes if processes is not None else self.children))
        for process in targets:
            if process.poll() is None:
                process.terminate()
        for process in targets:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process in self.children:
                self.children.remove(process)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def with_descendants(pids: list[int]) -> list[int]:
    """The given processes and every process under them (a server's database workers,
    Celery's pool), from /proc."""
    parent_of: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent_of[int(entry.name)] = int(_stat(int(entry.name))[1])
    found, frontier = set(pids), set(pids)
    while frontier:
        frontier = {pid for pid, parent in parent_of.items() if parent in frontier} - found
        found |= frontier
    return sorted(found)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of the given processes and their descendants so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in with_descendants(pids):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = _stat(pid)
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def uvicorn_command(app: str, port: int) -> list[str]:
    # The same server flags for the control and the platform (Procfile's web line).
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "off",
        "--ws-max-size",
        "1048576",
        "--log-level",
        "warning",
        "--no-access-log",
    ]


@contextlib.contextmanager
def scratch_services(args: argparse.Namespace) -> Iterator[dict[str, str]]:
    """A scratch PostgreSQL database (migrated) and an empty Redis database; the
    environment pointing at them. Both are dropped / flushed at the end."""
    import psycopg
    import redis

    base = urlparse(args.database_url)
    name = f"ttt_bench_{uuid.uuid4().hex[:10]}"
    admin_url = urlunparse(base._replace(path="/postgres"))
    rds = redis.Redis.from_url(f"{args.redis_url.rstrip('/')}/{args.redis_db}")
    if rds.dbsize():
        raise SystemExit(f"Redis database {args.redis_db} is not empty: choose a free one with --redis-db")
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        DJANGO_DEBUG="0",
        DATABASE_URL=urlunparse(base._replace(path=f"/{name}")),
        REDIS_URL=f"{args.redis_url.rstrip('/')}/{args.redis_db}",
        # Redis pub/sub ignores database numbers: a prefix of our own keeps us apart.
        CHANNEL_PREFIX=f"bench{os.getpid()}",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        DB_POOL_MAX=str(args.db_pool),
        LIVE_DB_PROCESSES=str(args.db_processes),
    )
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=REPO_ROOT,
            env=env,
            check=True,
        )
        yield env
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        rds.flushdb()
        rds.close()


# -- the clients ------------------------------------------------------------------------


@dataclass
class Pending:
    """One move in flight: who still has to receive its update."""

    sent_at: float
    waiting: set[int]
    counted: bool  # sent inside the measurement window
    acked: bool = False


@dataclass
class Stats:
    sent: int = 0
    sent_all: int = 0  # moves sent during the whole point (ramp and grace too): CPU per move
    acked: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    unacked: int = 0
    unstored: int = 0
    unstored_acked: int = 0  # acked yet not in the database: a real loss, never expected
    acked_keys: set[tuple[int, int]] = field(default_factory=set)
    games_started: int = 0
    games_finished: int = 0
    connect_times: list[float] = field(default_factory=list)
    resyncs: int = 0  # unasked state frames: the server's resync checks (games/resync.py)
    sent_keys: list[tuple[int, int]] = field(default_factory=list)
    wall: float = 0.0  # the point's seconds and its CPU seconds by side: set by run_point
    cpu: dict[str, float] = field(default_factory=dict)


class Target:
    """What differs between the platform and the control, for the clients."""

    name = ""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports

    async def new_game(self, slot: int) -> int:
        raise NotImplementedError

    def headers(self, slot: int, seat: int) -> dict[str, str]:
        return {}

    def read(self, game: GameRun, frame: dict[str, Any]) -> None:
        """Take a state or update frame into the game's board, to_move and over."""
        raise NotImplementedError


class PlatformTarget(Target):
    name = "platform"

    def __init__(
        self, ports: list[int], pool: concurrent.futures.Executor, players: list[tuple[int, str]]
    ) -> None:
        super().__init__(ports)
        self.pool = pool
        self.players = players

    async def new_game(self, slot: int) -> int:
        seat0, seat1 = self.players[2 * slot][0], self.players[2 * slot + 1][0]
        return await asyncio.get_running_loop().run_in_executor(self.pool, _db_new_game, seat0, seat1)

    def headers(self, slot: int, seat: int) -> dict[str, str]:
        return {"Authorization": f"Token {self.players[2 * slot + seat][1]}"}

    def read(self, game: GameRun, frame: dict[str, Any]) -> None:
        if frame["ply"] > game.ply:
            view = frame["view"]
            game.ply = frame["ply"]
            game.board = view["board"]
            game.to_move = view["to_move"]
            game.over = frame["game"]["status"] != "active"


class ControlTarget(Target):
    name = "control"

    def __init__(self, ports: list[int]) -> None:
        super().__init__(ports)
        self.next_id = 0
        from games.rules import get_variant  # the pure engine: the clients keep the board here

        self.variant = get_variant("classic")

    async def new_game(self, slot: int) -> int:
        self.next_id += 1
        return self.next_id

    def read(self, game: GameRun, frame: dict[str, Any]) -> None:
        if frame["type"] == "state" and game.engine is None:
            game.engine = self.variant.new_game()
        elif frame["type"] == "update" and frame["ply"] == game.ply + 1:
            game.engine = self.variant.apply(game.engine, game.engine.to_move[0], frame["move"])
        else:
            return
        view = self.variant.view(game.engine, None)
        game.ply = frame["ply"]
        game.board = view["board"]
        game.to_move = view["to_move"]
        game.over = view["outcome"] is not None


@dataclass
class GameRun:
    """One game of a slot as the clients know it."""

    game_id: int
    ply: int = -1
    board: list[Any] = field(default_factory=list)
    to_move: list[int] = field(default_factory=list)
    over: bool = False
    engine: Any = None
    inflight: set[int] = field(default_factory=set)  # plies sent, not yet on every socket
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Bench:
    """One point: G slots against one target for the window, then the accounts."""

    def __init__(self, target: Target, args: argparse.Namespace, games: int) -> None:
        self.target = target
        self.args = args
        self.games = games
        self.sockets_per_game = 2 + args.observers
        self.stats = Stats()
        self.pending: dict[tuple[int, int], Pending] = {}
        self.window = (0.0, 0.0)
        self.sending = True
        self.rng = random.Random(args.seed)
        self.socket_counter = 0

    def in_window(self, now: float) -> bool:
        return self.window[0] <= now < self.window[1]

    async def run(self) -> Stats:
        loop = asyncio.get_running_loop()
        ramp = min(10.0, max(1.0, self.games / 50))
        start = loop.time()
        # The window on the perf_counter clock (what moves are stamped with).
        offset = time.perf_counter() - start
        self.window = (
            start + offset + ramp + self.args.warmup,
            start + offset + ramp + self.args.warmup + self.args.seconds,
        )
        slots = [asyncio.create_task(self.slot(i, start + ramp * i / self.games)) for i in range(self.games)]
        await asyncio.sleep(self.window[1] - time.perf_counter())
        self.sending = False
        # Grace: moves still in flight may arrive; after it, what is missing is lost.
        deadline = loop.time() + self.args.grace
        while loop.time() < deadline and any(p.counted for p in self.pending.values()):
            await asyncio.sleep(0.05)
        for pending in self.pending.values():
            if pending.counted:
                if pending.acked:
                    self.stats.lost += 1
                else:
                    self.stats.unacked += 1
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        return self.stats

    async def slot(self, index: int, start_at: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start_at - loop.time()))
        while self.sending:
            try:
                game_id = await self.target.new_game(index)
            except Exception as exc:
                self.stats.errors[f"new-game: {type(exc).__name__}: {exc}"[:120]] += 1
                await asyncio.sleep(1.0)
                continue
            self.stats.games_started += 1
            try:
                await self.play(index, GameRun(game_id))
            except (TimeoutError, OSError, ConnectionError) as exc:
                self.stats.errors[f"socket: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)
            except Exception as exc:
                self.stats.errors[f"socket: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    async def play(self, slot: int, game: GameRun) -> None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        loop = asyncio.get_running_loop()
        async with contextlib.AsyncExitStack() as stack:
            sockets = []
            ready: list[asyncio.Event] = []
            began = loop.time()
            for number in range(self.sockets_per_game):
                port = self.target.ports[self.socket_counter % len(self.target.ports)]
                self.socket_counter += 1
                ws = await stack.enter_async_context(
                    connect(
                        f"ws://127.0.0.1:{port}/ws/games/{game.game_id}/",
                        origin=Origin(f"http://127.0.0.1:{port}"),
                        additional_headers=self.target.headers(slot, number) if number < 2 else None,
                        compression=None if self.args.no_deflate else "deflate",
                        open_timeout=CLIENT_TIMEOUT,
                        close_timeout=2,
                        ping_interval=None,
                        max_size=2**20,
                    )
                )
                sockets.append(ws)
                ready.append(asyncio.Event())
            readers = [
                asyncio.create_task(self.reader(game, number, ws, ready[number]))
                for number, ws in enumerate(sockets)
            ]
            try:
                for event in ready:
                    await asyncio.wait_for(event.wait(), CLIENT_TIMEOUT)
                self.stats.connect_times.append(loop.time() - began)
                await self.drive(game, sockets)
                # Moves still in flight (the window closed, or the game ended) may reach
                # the other sockets: keep them open until then, or the grace is over.
                deadline = loop.time() + self.args.grace
                while loop.time() < deadline and game.inflight:
                    await asyncio.sleep(0.02)
            finally:
                for task in readers:
                    task.cancel()
                await asyncio.gather(*readers, return_exceptions=True)

    async def reader(self, game: GameRun, number: int, ws: Any, ready: asyncio.Event) -> None:
        async for raw in ws:
            now = time.perf_counter()
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "update":
                pending = self.pending.get((game.game_id, frame["ply"]))
                if pending is not None:
                    pending.waiting.discard(number)
                    if not pending.waiting:
                        del self.pending[(game.game_id, frame["ply"])]
                        game.inflight.discard(frame["ply"])
                        if pending.counted:
                            self.stats.latencies.append(now - pending.sent_at)
                self.target.read(game, frame)
                game.changed.set()
            elif kind == "state":
                if ready.is_set():  # not the connect's: a resync, or after a refusal (errors)
                    self.stats.resyncs += 1
                self.target.read(game, frame)
                ready.set()
                game.changed.set()
            elif kind == "ack":
                self.stats.acked_keys.add((game.game_id, frame["ply"]))
                pending = self.pending.get((game.game_id, frame["ply"]))
                if pending is not None:
                    pending.acked = True
                if self.in_window(now):
                    self.stats.acked += 1
            elif kind == "error":
                self.stats.errors[frame.get("code", "?")] += 1

    async def drive(self, game: GameRun, sockets: list[Any]) -> None:
        """Play the game at about one move per second, the mover picking a random free square."""
        loop = asyncio.get_running_loop()
        period = 1.0 / self.args.rate
        next_at = loop.time() + self.rng.uniform(0, period)
        while not game.over and self.sending:
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            if not self.sending:
                return
            ply = game.ply
            seat = game.to_move[0]
            free = [cell for cell, mark in enumerate(game.board, start=1) if mark is None]
            move = {"cell": self.rng.choice(free)}
            now = time.perf_counter()
            counted = self.in_window(now)
            self.pending[(game.game_id, ply + 1)] = Pending(now, set(range(len(sockets))), counted)
            game.inflight.add(ply + 1)
            self.stats.sent_all += 1
            if counted:
                self.stats.sent += 1
                self.stats.sent_keys.append((game.game_id, ply + 1))
            game.changed.clear()
            await sockets[seat].send(json.dumps({"type": "move", "ply": ply, "move": move}))
            # The next move waits for this one's update (a real player sees it first).
            while game.ply <= ply:
                try:
                    await asyncio.wait_for(game.changed.wait(), CLIENT_TIMEOUT)
                except TimeoutError:
                    self.stats.errors["no-update-in-15s"] += 1
                    return
                game.changed.clear()
            next_at = max(next_at + period, loop.time())
        if game.over:
            self.stats.games_finished += 1


# -- one point, one run ------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def report(
    target: str, games: int, args: argparse.Namespace, stats: Stats, wall: float, cpu: dict[str, float]
) -> bool:
    lat = stats.latencies
    errors = sum(stats.errors.values())
    carried = stats.sent / args.seconds / (games * args.rate)
    holds = (
        bool(lat)
        and carried >= CARRIED_SHARE
        and stats.lost == 0
        and stats.unacked == 0
        and stats.unstored == 0
        and errors == 0
        and percentile(lat, 99) < GOAL_P99
    )
    ms = 1000.0
    print(
        f"{target:8} G={games:<5} N={args.processes} moves/s={stats.sent / args.seconds:7.1f} carried={carried:.2f} "
        f"frames-out/s={len(lat) * (2 + args.observers) / args.seconds:7.0f} "
        f"p50={percentile(lat, 50) * ms:7.1f}ms p95={percentile(lat, 95) * ms:7.1f}ms "
        f"p99={percentile(lat, 99) * ms:7.1f}ms max={max(lat, default=float('nan')) * ms:7.1f}ms "
        f"sent={stats.sent} acked={stats.acked} lost={stats.lost} unacked={stats.unacked} "
        f"unstored={stats.unstored} (acked {stats.unstored_acked}) errors={errors} games={stats.games_started}/{stats.games_finished} "
        f"connect-p50={percentile(stats.connect_times, 50) * ms:.0f}ms resyncs={stats.resyncs} "
        f"cpu(servers/celery/client)={cpu['servers'] / wall:.2f}/{cpu['celery'] / wall:.2f}/{cpu['client'] / wall:.2f} "
        f"server-cpu-ms/move={1000 * cpu['servers'] / max(1, stats.sent_all):.1f} "
        f"load={os.getloadavg()[0]:.2f} -> {'HOLDS' if holds else 'fails'}",
        flush=True,
    )
    for code, count in stats.errors.most_common(5):
        print(f"           error {code}: {count}", flush=True)
    return holds


async def run_point(
    target: Target, games: int, args: argparse.Namespace, server_pids: list[int], celery_pids: list[int]
) -> Stats:
    bench = Bench(target, args, games)
    cpu0 = (cpu_seconds(server_pids), cpu_seconds(celery_pids), client_cpu_seconds(), time.monotonic())
    stats = await bench.run()
    cpu = {
        "servers": cpu_seconds(server_pids) - cpu0[0],
        "celery": cpu_seconds(celery_pids) - cpu0[1],
        "client": client_cpu_seconds() - cpu0[2],
    }
    stats.wall = time.monotonic() - cpu0[3]
    stats.cpu = cpu
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", default="50,100,250", help=f"G, or a comma list to sweep (each <= {MAX_GAMES})"
    )
    parser.add_argument("--processes", type=int, default=1, help="ASGI server processes (N)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window per point")
    parser.add_argument("--observers", type=int, default=2, help="observers per game")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per game")
    parser.add_argument("--target", choices=("both", "platform", "control"), default="both")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds after the ramp before the window")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds to wait for updates in flight")
    parser.add_argument("--no-deflate", action="store_true", help="clients offer no permessage-deflate")
    parser.add_argument("--keep-going", action="store_true", help="sweep on after a target fails a point")
    parser.add_argument("--db-pool", type=int, default=10, help="DB_POOL_MAX of each server process")
    parser.add_argument(
        "--db-processes", type=int, default=2,
        help="LIVE_DB_PROCESSES of each server process: its database worker processes (0: threads)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="10 games, 8 s: a smoke run")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=11, help="an empty Redis database number to use")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.seconds, args.warmup, args.grace = "10", 8.0, 2.0, 3.0
    points = [int(g) for g in str(args.games).split(",") if g.strip()]
    if not points or not all(0 < g <= MAX_GAMES for g in points):
        parser.error(f"games are 1..{MAX_GAMES}")
    if (
        not 1 <= args.processes <= MAX_PROCESSES
        or not 0 < args.seconds <= MAX_SECONDS
        or not 0 < args.rate <= 10
        or not 0 <= args.db_processes <= MAX_PROCESSES
    ):
        parser.error(
            f"processes 1..{MAX_PROCESSES}, db-processes 0..{MAX_PROCESSES}, seconds up to {MAX_SECONDS}, rate up to 10"
        )
    for url in (args.database_url, args.redis_url):
        if urlparse(url).hostname not in ("127.0.0.1", "localhost"):
            parser.error("only services on 127.0.0.1")

    # SIGTERM ends the run like Ctrl-C: through the finally blocks that stop everything.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    print(
        f"live bench: games={points} processes={args.processes} db-processes={args.db_processes} "
        f"seconds={args.seconds} "
        f"observers={args.observers} rate={args.rate}/s deflate={not args.no_deflate} "
        f"cpus={os.cpu_count()} load={os.getloadavg()}",
        flush=True,
    )
    try:
        import uvloop

        runner: Callable[[Coroutine[Any, Any, Stats]], Stats] = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ttt-live-") as tmp, scratch_services(args) as env:
        procs = Processes(Path(tmp))
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=2,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_db_init,
            initargs=({**env, "DB_POOL_MAX": "4"},),
        )
        try:
            control_ports = [free_port() for _ in range(args.processes)]
            platform_ports = [free_port() for _ in range(args.processes)]
            control = [
                procs.start(f"relay-{i}", uvicorn_command("bench.relay_asgi:application", p), env)
                for i, p in enumerate(control_ports)
            ]
            platform = [
                procs.start(f"web-{i}", uvicorn_command("config.asgi:application", p), env)
                for i, p in enumerate(platform_ports)
            ]
            celery = [
                procs.start(
                    "worker",
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "--pool",
                        "solo",
                        "-l",
                        "WARNING",
                    ],
                    env,
                ),
                procs.start(
                    "beat",
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "beat",
                        "-l",
                        "WARNING",
                        "--schedule",
                        str(Path(tmp) / "beat-schedule"),
                    ],
                    env,
                ),
            ]
            for port, process in zip(control_ports + platform_ports, control + platform, strict=True):
                wait_for_port(port, process)
            players = pool.submit(_db_make_players, f"bench{uuid.uuid4().hex[:6]}_", 2 * max(points)).result()
            alive = {
                "control": args.target in ("both", "control"),
                "platform": args.target in ("both", "platform"),
            }
            for games in points:
                for name in ("control", "platform"):
                    if not alive[name]:
                        continue
                    if name == "control":
                        target: Target = ControlTarget(control_ports)
                        pids = [p.pid for p in control]
                    else:
                        target = PlatformTarget(platform_ports, pool, players)
                        pids = [p.pid for p in platform]
                    stats = runner(run_point(target, games, args, pids, [p.pid for p in celery]))
                    if name == "platform" and stats.sent_keys:
                        stored = set(pool.submit(_db_stored, stats.sent_keys).result())
                        stats.unstored = sum(1 for key in stats.sent_keys if key not in stored)
                        stats.unstored_acked = sum(
                            1 for key in stats.sent_keys if key not in stored and key in stats.acked_keys
                        )
                    dead = [p.args for p in control + platform + celery if p.poll() is not None]
                    if dead:
                        stats.errors[f"process exited: {dead[0]!r}"] += 1  # the command list: repr is str
                    holds = report(name, games, args, stats, stats.wall, stats.cpu)
                    if name == "platform":
                        pool.submit(_db_resign_active).result()
                    if not holds:
                        failures += 1
                        alive[name] = args.keep_going
                    if dead:
                        raise SystemExit(f"a server process died; logs in {tmp}: {sorted(os.listdir(tmp))}")
        except KeyboardInterrupt:
            print("interrupted: stopping everything", flush=True)
            return 130
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            procs.stop()
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
