"""Live-play benchmark: real clients playing classic games on the platform, and the same
clients on a bare relay (bench/relay_asgi.py) as the control.

Run from the repository root, with PostgreSQL and Redis up on 127.0.0.1::

    .venv/bin/python bench/live.py --quick                     # 10 games, a few seconds
    .venv/bin/python bench/live.py --games 50,100,250 --processes 2 --seconds 30
    .venv/bin/python bench/live.py --burst 128 --processes 2   # a tournament round

For each G it runs the control, then the platform, with the same clients:

- G game slots. Each slot has two players (seat 0 and 1) and ``--observers`` observers
  (a number, or a range LO-HI from which each slot draws its count, seeded), every one
  on its own websocket. The player to move plays a random free square about once per
  second per game. When a game ends the slot starts a new one in its place, so the load
  stays constant (new game, new sockets: the churn is part of the load).
- ``--client browser`` (the default) does what static/js/game.js does: each screen
  (player or observer, each a signed-in user of its own unless
  ``--anonymous-observers``) loads the game page with its session cookie, opens the
  socket the page names (``data-socket``) with that cookie and the server's Origin, and
  on each ``state``/``update`` either takes the ``board`` the frame carries or fetches
  ``data-board-url`` (``HX-Request: true``; one fetch at a time, one more if frames came
  meanwhile). A screen shows the board's ``data-ply``; a player whose board says
  ``data-my-turn="1"`` clicks one of its playable squares (``data-move``). The
  control's screens do only the socket part (the relay has no pages); its frames carry
  a board the platform rendered, so both sides carry the same bytes.
  ``--client api`` is the JSON protocol with token auth (players) and anonymous
  observers, as before.
- The N server processes share ONE port (``uvicorn --workers N``): the kernel spreads
  the connections. Mid-window, the bench asks the kernel which process holds each
  websocket (/proc; the protocol carries no process id) and counts the games with
  sockets on two processes or more ("split-games").
- Latency: from a player's send of a move to the moment every screen of the game SHOWS
  it (the frame in API mode or when the board comes with the frame; the board fetched
  otherwise), p50/p95/p99 over the moves sent in the window.
- Lost: a move acked that did not reach every screen within the grace period; unacked:
  a move sent and never acked; unstored (platform): a move sent whose (game, ply) is
  not in the database at the end.
- "holds": nothing lost, unacked or unstored, no error frames, p99 < 100 ms, and the
  load offered was carried: moves per second at least 90% of G x rate ("carried").
- Statements per move (platform): pg_stat_statements, reset for the scratch database
  at the window's start and summed at its end, over the moves sent in the window: the
  servers', their database workers' and Celery's statements (page loads, board fetches
  and connects included); not the bench helpers' (their own database role).
- ``--burst P``: instead of the sweep, one round of P players (P/2 games, and their
  observers) created at once; every screen then loads its page and opens its socket at
  once. It reports the time from the games' creation to each screen showing its board,
  then sends every game's first move at once and reports the time until every screen
  shows it.

The platform: a scratch PostgreSQL database (created, migrated, dropped), an unused
Redis database number (checked empty, flushed after), ``uvicorn config.asgi:application
--workers N`` (settings config.settings.dev, DJANGO_DEBUG=0), each process with
``--db-processes`` database worker processes (``LIVE_DB_PROCESSES``, games/workers.py;
0: threads), a Celery worker and beat. Server CPU counts the servers and everything
under them. Users, sessions and games are made through ``accounts.services`` and
``games.services`` in helper processes (so the client's event loop does not share a
GIL with the ORM). The control: ``uvicorn bench.relay_asgi:application --workers N``
on the same Redis pub/sub layer.

Everything is bounded (games, seconds, processes), talks only to 127.0.0.1, and is
stopped on exit, Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import html
import json
import multiprocessing
import os
import random
import re
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
MAX_OBSERVERS = 50
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


def _db_make_players(prefix: str, count: int) -> list[tuple[int, str, str]]:
    """``count`` adult players (id, token key, session cookie), made through the accounts
    service; the cookie is a signed-in browser's (``force_login``)."""
    from datetime import date

    from django.conf import settings
    from django.test import Client
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
            browser = Client()
            browser.force_login(user)
            cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
            out.append((user.pk, Token.objects.create(user=user).key, cookie))
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


def _db_sample_game(seat0: int, seat1: int) -> int:
    """A game four moves in (X 1, O 2, X 3, O 5: no line yet), the middle of a ~7.5-move
    game: the board whose size the control's frames copy."""
    from games import services

    game_id = _db_new_game(seat0, seat1)
    for ply, cell in enumerate((1, 2, 3, 5)):
        services.submit_move(game_id=game_id, user=_db_user((seat0, seat1)[ply % 2]), ply=ply, move={"cell": cell})
    return game_id


def _db_new_games(pairs: list[tuple[int, int]]) -> list[int]:
    """A round's games, all at once: :func:`_db_new_game` for each pair."""
    return [_db_new_game(seat0, seat1) for seat0, seat1 in pairs]


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
                # Its whole session (uvicorn's workers and their database workers) with it.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            if process in self.children:
                self.children.remove(process)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _parents() -> dict[int, int]:
    parent_of: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent_of[int(entry.name)] = int(_stat(int(entry.name))[1])
    return parent_of


def with_descendants(pids: list[int]) -> list[int]:
    """The given processes and every process under them (a server's workers and their
    database workers, Celery's pool), from /proc."""
    parent_of = _parents()
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


def socket_owners(server_pid: int, port: int) -> dict[int, int]:
    """Which server process holds each connection to ``port``: {client port: pid}.

    The platform's frames carry no process id (and the bench adds nothing to its
    protocol), so this asks the kernel: the server end of each established connection in
    /proc/net/tcp (local port ``port``) has an inode, and the process with that inode
    among its file descriptors serves it. The serving processes are ``uvicorn
    --workers``' children (or the server itself with one worker)."""
    parent_of = _parents()
    serving = [server_pid] + [pid for pid, parent in parent_of.items() if parent == server_pid]
    owner_of_inode: dict[str, int] = {}
    for pid in serving:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    link = os.readlink(fd)
                    if link.startswith("socket:["):
                        owner_of_inode[link[8:-1]] = pid
    owners: dict[int, int] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].rsplit(":", 1)[1], 16)
        if local_port == port and fields[3] == "01" and fields[9] in owner_of_inode:  # 01: established
            owners[int(fields[2].rsplit(":", 1)[1], 16)] = owner_of_inode[fields[9]]
    return owners


def uvicorn_command(app: str, port: int, workers: int) -> list[str]:
    # The same server flags for the control and the platform (Procfile's web line). One
    # port for all N processes: uvicorn's workers share the listening socket, and the
    # kernel hands each connection to whichever accepts first.
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--lifespan",
        "off",
        "--ws-max-size",
        "1048576",
        "--log-level",
        "warning",
        "--no-access-log",
    ]


@dataclass
class Scratch:
    """The scratch services of a run."""

    env: dict[str, str]  # the servers' environment
    helper_env: dict[str, str]  # the helper processes': the same database, as the helper role
    admin_url: str
    database: str
    helper_role: str


@contextlib.contextmanager
def scratch_services(args: argparse.Namespace) -> Iterator[Scratch]:
    """A scratch PostgreSQL database (migrated), a role of its own for the bench's helper
    processes (so pg_stat_statements tells their statements from the platform's) and an
    empty Redis database; the environment pointing at them. All dropped / flushed after."""
    import psycopg
    import redis

    base = urlparse(args.database_url)
    name = f"ttt_bench_{uuid.uuid4().hex[:10]}"
    role = f"{name}_helper"
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
        **({"DB_POOL_MAX": str(args.db_pool)} if args.db_pool else {}),
        LIVE_DB_PROCESSES=str(args.db_processes),
        WEBSOCKET_MAX_PER_ADDRESS="0",  # every screen of the bench comes from 127.0.0.1
        WEBSOCKET_ADDRESS_FRAMES_PER_SECOND="0",
    )
    helper_netloc = f"{role}@{base.hostname}:{base.port or 5432}"
    helper_env = {
        **env,
        "DATABASE_URL": urlunparse(base._replace(netloc=helper_netloc, path=f"/{name}")),
        "DB_POOL_MAX": "4",
    }
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        # Trust auth on 127.0.0.1 (the scratch cluster); superuser: it writes every table.
        conn.execute(f'CREATE ROLE "{role}" LOGIN SUPERUSER')
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=REPO_ROOT,
            env=env,
            check=True,
        )
        yield Scratch(env, helper_env, admin_url, name, role)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')
        rds.flushdb()
        rds.close()


class Statements:
    """The statements the scratch database ran, from pg_stat_statements: reset for that
    database alone at the window's start (other databases' figures are left alone), and
    summed at its end by who ran them: the platform (servers, their database workers,
    Celery) or the bench's helpers (game creation, by their own role). The bench's own
    queries run in the ``postgres`` database and are not counted."""

    def __init__(self, scratch: Scratch) -> None:
        self.scratch = scratch
        self.missing = ""  # why there is no figure, when there is none

    def _query(self, sql: str) -> Any:
        import psycopg

        params = {"db": self.scratch.database, "role": self.scratch.helper_role}
        with psycopg.connect(self.scratch.admin_url, autocommit=True) as conn:
            return conn.execute(sql, params).fetchone()

    def reset(self) -> None:
        import psycopg

        try:
            self._query("select pg_stat_statements_reset(0, (select oid from pg_database where datname = %(db)s), 0)")
            self.missing = ""
        except psycopg.Error as exc:
            self.missing = str(exc).splitlines()[0]

    def count(self) -> tuple[int, int] | None:
        """(the platform's statements, the helpers') since the reset; None if unknown."""
        if self.missing:
            return None
        row = self._query(
            "select coalesce(sum(s.calls) filter (where r.rolname <> %(role)s), 0),"
            " coalesce(sum(s.calls) filter (where r.rolname = %(role)s), 0)"
            " from pg_stat_statements s join pg_roles r on r.oid = s.userid"
            " where s.dbid = (select oid from pg_database where datname = %(db)s)"
        )
        return int(row[0]), int(row[1])


# -- what a browser reads from the pages --------------------------------------------------

#: The opening tags the page script reads: #game-page (where the socket and the board
#: partial are) and #board (the ply shown, the status, whose turn); its attributes are
#: double-quoted. A playable square is a button with ``data-move='<json>'``
#: (templates/games/boards/), unplayable ones say ``aria-disabled="true"`` or ``disabled``.
PAGE_TAG = re.compile(r'<div id="game-page"([^>]*)>')
BOARD_TAG = re.compile(r'<div id="board"([^>]*)>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
MOVE_BUTTON = re.compile(r"<button\b([^>]*)\bdata-move='([^']*)'([^>]*)>")
UNAVAILABLE = re.compile(r'aria-disabled="true"|(?<![\w-])disabled(?![\w-])')


def tag_attributes(pattern: re.Pattern[str], page: str) -> dict[str, str]:
    found = pattern.search(page)
    if found is None:
        return {}
    return {name: html.unescape(value) for name, value in ATTRIBUTE.findall(found.group(1))}


@dataclass
class BoardView:
    """What a screen shows: the board's ply, status and turn, and its HTML."""

    ply: int
    status: str
    my_turn: bool
    html: str


def board_view(board_html: str) -> BoardView:
    """The #board element's ply, status and turn (game.js reads data-ply the same way)."""
    attrs = tag_attributes(BOARD_TAG, board_html)
    if "data-ply" not in attrs:
        raise ValueError("no #board with data-ply in the HTML")
    return BoardView(int(attrs["data-ply"]), attrs.get("data-status", ""), attrs.get("data-my-turn") == "1", board_html)


def playable_moves(board_html: str) -> list[dict[str, Any]]:
    """The moves of the board's playable squares, as a click would send them."""
    return [
        json.loads(html.unescape(found.group(2)))
        for found in MOVE_BUTTON.finditer(board_html)
        if not UNAVAILABLE.search(found.group(1) + found.group(3))
    ]


class HttpClient:
    """One browser's keep-alive HTTP/1.1 connection to the server: GETs with its session
    cookie, bodies read by Content-Length or chunks. Reconnects once if the server
    closed the idle connection (uvicorn closes it after 5 s), as a browser does."""

    def __init__(self, port: int, cookie: str | None) -> None:
        self.port = port
        self.cookie = cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, htmx_target: str = "") -> tuple[int, str]:
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept: text/html"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        if htmx_target:  # as htmx.ajax sends them
            lines += ["HX-Request: true", f"HX-Target: {htmx_target}"]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        reused = self.writer is not None
        try:
            return await self._exchange(request)
        except (ConnectionError, asyncio.IncompleteReadError):
            await self.close()
            if not reused:
                raise
            return await self._exchange(request)

    async def _exchange(self, request: bytes) -> tuple[int, str]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        reader = self.reader
        self.writer.write(request)
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        length, chunked, close = -1, False, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding":
                chunked = "chunked" in value
            elif name == "connection":
                close = value == "close"
        if chunked:
            parts = []
            while size := int((await reader.readline()).split(b";")[0], 16):
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readline()
            body = b"".join(parts)
        elif length >= 0:
            body = await reader.readexactly(length)
        else:
            body, close = await reader.read(), True
        if close:
            await self.close()
        return status, body.decode()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


# -- the clients ------------------------------------------------------------------------


@dataclass
class Crowd:
    """Who plays and watches in each game slot: two players, and a number of observers
    (signed-in users of their own, or anonymous). A user is (id, token key, cookie)."""

    players: list[tuple[int, str, str]]
    observer_counts: list[int]
    observers: list[list[tuple[int, str, str]]]  # per slot; empty lists when anonymous

    def screens(self, slot: int) -> int:
        return 2 + self.observer_counts[slot]

    def user(self, slot: int, number: int) -> tuple[int, str, str] | None:
        if number < 2:
            return self.players[2 * slot + number]
        mine = self.observers[slot]
        return mine[number - 2] if mine else None


@dataclass
class Pending:
    """One move in flight: which screens still have to show it."""

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
    ending_latencies: list[float] = field(default_factory=list)  # of those, the moves that ended a game
    screens_updated: int = 0  # (counted move, screen) pairs shown
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
    games_seen: int = 0  # games in the socket census (mid-window)
    games_split: int = 0  # of those, games with sockets on more than one server process
    sockets_by_process: Counter[int] = field(default_factory=Counter)
    statements: tuple[int, int] | None = None  # (platform, helpers) in the window
    statements_missing: str = ""
    wall: float = 0.0  # the point's seconds and its CPU seconds by side: set by run_point
    cpu: dict[str, float] = field(default_factory=dict)


@dataclass
class Screen:
    """One browser tab (or API client) on a game: a player's (seat 0, 1) or an observer's."""

    number: int
    seat: int | None
    ply: int = -1  # the ply it shows
    status: str = ""
    my_turn: bool = False
    board: str = ""
    ws: Any = None
    local_port: int = 0
    stated: bool = False  # its first state frame came
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # ... and is shown
    ready_at: float = 0.0
    page_at: float = 0.0  # when its page came (browser mode)
    first_move_at: float = 0.0  # when it first showed a ply after 0 (the burst's first move)
    stale: asyncio.Event = field(default_factory=asyncio.Event)  # a frame asks for a fetch


@dataclass
class GameRun:
    """One game of a slot as the clients know it."""

    game_id: int
    ply: int = -1
    board: list[Any] = field(default_factory=list)
    to_move: list[int] = field(default_factory=list)
    over: bool = False
    engine: Any = None
    screens: list[Screen] = field(default_factory=list)
    inflight: set[int] = field(default_factory=set)  # plies sent, not yet on every screen
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Target:
    """What differs between the platform and the control, for the clients."""

    name = ""
    has_pages = False

    def __init__(self, port: int, server_pid: int, crowd: Crowd, page_port: int | None = None) -> None:
        self.port = port
        self.server_pid = server_pid
        self.crowd = crowd
        self.page_port = page_port or port  # where the screens load their pages

    async def new_games(self, slots: list[int]) -> list[int]:
        raise NotImplementedError

    def read(self, game: GameRun, frame: dict[str, Any]) -> None:
        """Take a JSON state or update frame into the game's board, to_move and over."""
        raise NotImplementedError

    def view(self, game: GameRun, screen: Screen, frame: dict[str, Any]) -> BoardView:
        """What a screen shows from a frame that carries its board."""
        raise NotImplementedError

    def pick(self, game: GameRun, screen: Screen, rng: random.Random) -> dict[str, Any]:
        """A browser player's move, from what its screen shows."""
        raise NotImplementedError


class PlatformTarget(Target):
    name = "platform"
    has_pages = True

    def __init__(self, port: int, server_pid: int, crowd: Crowd, pool: concurrent.futures.Executor,
                 page_port: int | None = None) -> None:
        super().__init__(port, server_pid, crowd, page_port)
        self.pool = pool

    async def new_games(self, slots: list[int]) -> list[int]:
        # Split over the helper processes, all at once (a round's games start together).
        loop = asyncio.get_running_loop()
        pairs = [(self.crowd.players[2 * s][0], self.crowd.players[2 * s + 1][0]) for s in slots]
        shares = [pairs[i::2] for i in range(2) if pairs[i::2]]
        done = await asyncio.gather(*(loop.run_in_executor(self.pool, _db_new_games, share) for share in shares))
        ids: list[int] = [0] * len(pairs)
        for offset, share_ids in enumerate(done):
            ids[offset::2] = share_ids
        return ids

    def read(self, game: GameRun, frame: dict[str, Any]) -> None:
        if frame["ply"] > game.ply:
            view = frame["view"]
            game.ply = frame["ply"]
            game.board = view["board"]
            game.to_move = view["to_move"]
            game.over = frame["game"]["status"] != "active"

    def view(self, game: GameRun, screen: Screen, frame: dict[str, Any]) -> BoardView:
        return board_view(frame["board"])

    def pick(self, game: GameRun, screen: Screen, rng: random.Random) -> dict[str, Any]:
        return rng.choice(playable_moves(screen.board))


class ControlTarget(Target):
    name = "control"

    def __init__(self, port: int, server_pid: int, crowd: Crowd) -> None:
        super().__init__(port, server_pid, crowd)
        self.next_id = 0
        from games.rules import get_variant  # the pure engine: the clients keep the board here

        self.variant = get_variant("classic")

    async def new_games(self, slots: list[int]) -> list[int]:
        first = self.next_id + 1
        self.next_id += len(slots)
        return list(range(first, self.next_id + 1))

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

    def view(self, game: GameRun, screen: Screen, frame: dict[str, Any]) -> BoardView:
        # The relay has no pages: the board it pads its frames with is a sample of the
        # platform's; what the screen shows comes from the engine the clients keep.
        self.read(game, frame)
        status = "active" if not game.over else "finished"
        my_turn = screen.seat is not None and not game.over and game.to_move[:1] == [screen.seat]
        return BoardView(frame["ply"], status, my_turn and frame["ply"] == game.ply, frame["board"])

    def pick(self, game: GameRun, screen: Screen, rng: random.Random) -> dict[str, Any]:
        return {"cell": rng.choice([cell for cell, mark in enumerate(game.board, start=1) if mark is None])}


class Bench:
    """One point: G slots against one target for the window, then the accounts. Or one
    round's burst (:meth:`burst`)."""

    def __init__(
        self, target: Target, args: argparse.Namespace, games: int, statements: Statements | None
    ) -> None:
        self.target = target
        self.args = args
        self.browser = args.client == "browser"
        self.games = games
        self.statements = statements
        self.stats = Stats()
        self.pending: dict[tuple[int, int], Pending] = {}
        self.window = (0.0, 0.0)
        self.sending = True
        self.rng = random.Random(args.seed)
        self.live: dict[int, GameRun] = {}  # games being played, for the socket census

    def in_window(self, now: float) -> bool:
        return self.window[0] <= now < self.window[1]

    async def run(self) -> Stats:
        loop = asyncio.get_running_loop()
        ramp = min(10.0, max(1.0, self.games / 50))
        start = time.perf_counter()
        self.window = (start + ramp + self.args.warmup, start + ramp + self.args.warmup + self.args.seconds)
        slots = [asyncio.create_task(self.slot(i, start + ramp * i / self.games)) for i in range(self.games)]
        await asyncio.sleep(self.window[0] - time.perf_counter())
        if self.statements is not None:
            await asyncio.to_thread(self.statements.reset)
        await asyncio.sleep(self.window[0] + self.args.seconds / 2 - time.perf_counter())
        await self.census()
        await asyncio.sleep(self.window[1] - time.perf_counter())
        if self.statements is not None:
            self.stats.statements = await asyncio.to_thread(self.statements.count)
            self.stats.statements_missing = self.statements.missing
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

    async def census(self) -> None:
        """Which server process holds each websocket of the games in play (see
        :func:`socket_owners`): games with sockets on two processes or more."""
        ports = [[s.local_port for s in game.screens if s.local_port] for game in self.live.values()]
        owners = await asyncio.to_thread(socket_owners, self.target.server_pid, self.target.port)
        for game_ports in ports:
            pids = [owners[port] for port in game_ports if port in owners]
            if pids:
                self.stats.games_seen += 1
                self.stats.games_split += len(set(pids)) > 1
                self.stats.sockets_by_process.update(pids)

    async def slot(self, index: int, start_at: float) -> None:
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        while self.sending:
            try:
                (game_id,) = await self.target.new_games([index])
            except Exception as exc:
                self.stats.errors[f"new-game: {type(exc).__name__}: {exc}"[:120]] += 1
                await asyncio.sleep(1.0)
                continue
            self.stats.games_started += 1
            try:
                await self.play(index, GameRun(game_id))
            except Exception as exc:
                self.stats.errors[f"socket: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    def open_screens(self, slot: int, game: GameRun) -> list[asyncio.Task[None]]:
        """Every screen of the game opens at once, as the browsers of its crowd do."""
        count = self.target.crowd.screens(slot)
        game.screens = [Screen(number, number if number < 2 else None) for number in range(count)]
        return [asyncio.create_task(self.screen(slot, game, screen)) for screen in game.screens]

    async def until_ready(self, game: GameRun, tasks: list[asyncio.Task[None]], timeout: float) -> None:
        """Until every screen shows its first state, or one of them fails."""

        async def all_ready() -> None:
            for screen in game.screens:
                await screen.ready.wait()

        # A task, not a gather: a gather cancelled ends in an exception nobody reads.
        everyone = asyncio.create_task(all_ready())
        try:
            done, _ = await asyncio.wait([everyone, *tasks], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            everyone.cancel()  # nothing once done; cancelled, its waits end with it
        if everyone in done:
            return
        for task in done:
            task.result()  # a screen's error
            raise ConnectionError("a socket closed before its state")
        raise TimeoutError

    async def play(self, slot: int, game: GameRun) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        tasks = self.open_screens(slot, game)
        self.live[game.game_id] = game
        try:
            await self.until_ready(game, tasks, CLIENT_TIMEOUT)
            self.stats.connect_times.append(loop.time() - began)
            await (self.drive_browser(game) if self.browser else self.drive(game))
            # Moves still in flight (the window closed, or the game ended) may reach
            # the other screens: keep them open until then, or the grace is over.
            deadline = loop.time() + self.args.grace
            while loop.time() < deadline and game.inflight:
                await asyncio.sleep(0.02)
        finally:
            del self.live[game.game_id]
            for task in tasks:
                task.cancel()
            ended = await asyncio.gather(*tasks, return_exceptions=True)
        # A screen that failed mid-game (its socket or its board fetches) is an error.
        self.stats.errors.update(f"screen: {type(end).__name__}" for end in ended if isinstance(end, Exception))

    async def screen(self, slot: int, game: GameRun, screen: Screen) -> None:
        """One screen: in browser mode the page's first paint, its socket (with the
        session cookie) and its board fetches; in API mode the socket with the token."""
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        user = self.target.crowd.user(slot, screen.number)
        socket_path, board_url = f"/ws/games/{game.game_id}/", ""
        headers: dict[str, str] = {}
        http = None
        if not self.browser:
            if screen.seat is not None and user is not None:
                headers["Authorization"] = f"Token {user[1]}"
        elif user is not None:
            headers["Cookie"] = user[2]
        if self.browser and self.target.has_pages:
            http = HttpClient(self.target.page_port, headers.get("Cookie"))
        try:
            if http is not None:
                status, page = await http.get(f"/play/{game.game_id}/")
                if status != 200:
                    raise ConnectionError(f"game page: HTTP {status}")
                attrs = tag_attributes(PAGE_TAG, page)
                socket_path = attrs.get("data-socket") or socket_path
                board_url = attrs.get("data-board-url", "")  # gone where boards are pushed
                screen.page_at = time.perf_counter()
                self.show(game, screen, board_view(page))  # the first paint
            async with connect(
                f"ws://127.0.0.1:{self.target.port}{socket_path}",
                origin=Origin(f"http://127.0.0.1:{self.target.port}"),
                additional_headers=headers or None,
                compression=None if self.args.no_deflate else "deflate",
                open_timeout=CLIENT_TIMEOUT,
                close_timeout=2,
                ping_interval=None,
                max_size=2**20,
            ) as ws:
                screen.ws = ws
                screen.local_port = ws.local_address[1]
                if http is None:
                    await self.reader(game, screen, ws)
                    return
                # The screen ends when its socket or its board fetches do (an error raised).
                both = [
                    asyncio.create_task(self.reader(game, screen, ws)),
                    asyncio.create_task(self.fetcher(game, screen, http, board_url)),
                ]
                try:
                    done, _ = await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
                    for task in done:
                        task.result()
                finally:
                    for task in both:
                        task.cancel()
                    await asyncio.gather(*both, return_exceptions=True)
        finally:
            if http is not None:
                await http.close()

    async def fetcher(self, game: GameRun, screen: Screen, http: HttpClient, board_url: str) -> None:
        """game.js's ``refresh``: one board fetch at a time; frames that came during a
        fetch make one more fetch after it."""
        while True:
            await screen.stale.wait()
            screen.stale.clear()
            status, board = await http.get(board_url, htmx_target="board")
            if status != 200:
                self.stats.errors[f"board fetch: HTTP {status}"] += 1
                continue
            self.show(game, screen, board_view(board))

    def show(self, game: GameRun, screen: Screen, view: BoardView) -> None:
        """The screen now shows ``view``: the moment every move up to its ply reached it."""
        now = time.perf_counter()
        screen.ply, screen.status, screen.my_turn, screen.board = view.ply, view.status, view.my_turn, view.html
        if screen.stated and not screen.ready.is_set():
            screen.ready_at = now
            screen.ready.set()
        if view.ply > 0 and not screen.first_move_at:
            screen.first_move_at = now
        ended = view.status not in ("", "active")
        for ply in [p for p in game.inflight if p <= view.ply]:
            self.delivered(game, ply, screen.number, now, ended=ended and ply == view.ply)
        if screen.seat is not None and view.status not in ("", "active"):
            game.over = True
        game.changed.set()

    def delivered(self, game: GameRun, ply: int, number: int, now: float, ended: bool = False) -> None:
        pending = self.pending.get((game.game_id, ply))
        if pending is None:
            return
        pending.waiting.discard(number)
        if not pending.waiting:
            del self.pending[(game.game_id, ply)]
            game.inflight.discard(ply)
            if pending.counted:
                self.stats.latencies.append(now - pending.sent_at)
                if ended:
                    self.stats.ending_latencies.append(now - pending.sent_at)
                self.stats.screens_updated += len(game.screens)

    async def reader(self, game: GameRun, screen: Screen, ws: Any) -> None:
        async for raw in ws:
            now = time.perf_counter()
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind in ("state", "update"):
                if kind == "state":
                    if screen.stated:  # not the connect's: a resync, or after a refusal (errors)
                        self.stats.resyncs += 1
                    screen.stated = True
                if not self.browser:
                    self.target.read(game, frame)
                    if kind == "update":
                        self.delivered(game, frame["ply"], screen.number, now, ended=game.over)
                    if kind == "state" and not screen.ready.is_set():
                        screen.ready.set()
                    game.changed.set()
                elif "board" in frame:  # the board came with the frame
                    self.show(game, screen, self.target.view(game, screen, frame))
                elif frame["ply"] >= screen.ply:  # game.js ignores frames older than its board
                    screen.stale.set()
            elif kind == "ack":
                self.stats.acked_keys.add((game.game_id, frame["ply"]))
                pending = self.pending.get((game.game_id, frame["ply"]))
                if pending is not None:
                    pending.acked = True
                if self.in_window(now):
                    self.stats.acked += 1
            elif kind == "error":
                self.stats.errors[frame.get("code", "?")] += 1

    async def send_move(self, game: GameRun, screen: Screen, ply: int, move: dict[str, Any]) -> None:
        now = time.perf_counter()
        counted = self.in_window(now)
        self.pending[(game.game_id, ply + 1)] = Pending(now, {s.number for s in game.screens}, counted)
        game.inflight.add(ply + 1)
        self.stats.sent_all += 1
        if counted:
            self.stats.sent += 1
            self.stats.sent_keys.append((game.game_id, ply + 1))
        game.changed.clear()
        await screen.ws.send(json.dumps({"type": "move", "ply": ply, "move": move}))

    async def drive(self, game: GameRun) -> None:
        """API clients: at about one move per second, the mover picks a random free square."""
        loop = asyncio.get_running_loop()
        period = 1.0 / self.args.rate
        next_at = loop.time() + self.rng.uniform(0, period)
        while not game.over and self.sending:
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            if not self.sending:
                return
            ply = game.ply
            free = [cell for cell, mark in enumerate(game.board, start=1) if mark is None]
            await self.send_move(game, game.screens[game.to_move[0]], ply, {"cell": self.rng.choice(free)})
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

    async def drive_browser(self, game: GameRun) -> None:
        """Browsers: at about one move per second, the player whose screen says it is
        their turn (after the last move sent) clicks a random playable square."""
        loop = asyncio.get_running_loop()
        period = 1.0 / self.args.rate
        next_at = loop.time() + self.rng.uniform(0, period)
        sent_ply = -1
        while self.sending:
            # Seen first (a real player sees the last move before the next): the game's end too.
            mover = await self.mover(game, sent_ply)
            if mover is None:
                break
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            if not self.sending:
                return
            sent_ply = mover.ply
            await self.send_move(game, mover, mover.ply, self.target.pick(game, mover, self.rng))
            next_at = max(next_at + period, loop.time())
        if game.over:
            self.stats.games_finished += 1

    async def mover(self, game: GameRun, after: int) -> Screen | None:
        """The player's screen that shows a ply after ``after`` and their turn; None once
        the game is over (or no turn came in time: an error)."""
        deadline = asyncio.get_running_loop().time() + CLIENT_TIMEOUT
        while not game.over:
            for screen in game.screens[:2]:
                if screen.my_turn and screen.ply > after and screen.status == "active":
                    return screen
            game.changed.clear()
            try:
                await asyncio.wait_for(game.changed.wait(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                self.stats.errors["no-turn-in-15s"] += 1
                return None
        return None

    async def burst(self) -> Burst:
        """A tournament round: every game created at once, then every screen of every game
        opens at once; then every game's first move at once."""
        result = Burst()
        if self.statements is not None:
            await asyncio.to_thread(self.statements.reset)
        began = time.perf_counter()
        ids = await self.target.new_games(list(range(self.games)))
        created = time.perf_counter()
        result.create_seconds = created - began
        runs = [GameRun(game_id) for game_id in ids]
        tasks = [task for slot, game in enumerate(runs) for task in self.open_screens(slot, game)]
        screens = [screen for game in runs for screen in game.screens]
        try:
            waits = [asyncio.ensure_future(s.ready.wait()) for s in screens]
            await asyncio.wait(waits, timeout=self.args.burst_timeout)
            for wait in waits:
                wait.cancel()
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    result.errors[f"{type(task.exception()).__name__}: {task.exception()}"[:100]] += 1
            result.shown = sorted(s.ready_at - created for s in screens if s.ready.is_set())
            result.pages = sorted(s.page_at - created for s in screens if s.page_at)
            result.screens = len(screens)
            self.live = {game.game_id: game for game in runs}
            await self.census()
            moved = time.perf_counter()
            movers = [
                (game, next(s for s in game.screens[:2] if s.my_turn))
                for game in runs
                if all(s.ready.is_set() for s in game.screens)
            ]
            await asyncio.gather(
                *(self.send_move(game, mover, mover.ply, self.target.pick(game, mover, self.rng)) for game, mover in movers)
            )
            watching = [s for game, _ in movers for s in game.screens]
            deadline = time.perf_counter() + self.args.burst_timeout
            while time.perf_counter() < deadline and not all(s.first_move_at for s in watching):
                await asyncio.sleep(0.01)
            result.first_move = sorted(s.first_move_at - moved for s in watching if s.first_move_at)
            result.first_move_screens = len(watching)
            if self.statements is not None:
                result.statements = await asyncio.to_thread(self.statements.count)
                result.statements_missing = self.statements.missing
            result.games_seen, result.games_split = self.stats.games_seen, self.stats.games_split
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return result


@dataclass
class Burst:
    """A round's burst, measured from the moment its games exist."""

    create_seconds: float = 0.0
    screens: int = 0
    shown: list[float] = field(default_factory=list)  # seconds to each screen's first board
    pages: list[float] = field(default_factory=list)  # seconds to each screen's page (its first paint)
    first_move_screens: int = 0
    first_move: list[float] = field(default_factory=list)  # seconds to each screen showing move 1
    errors: Counter[str] = field(default_factory=Counter)
    games_seen: int = 0  # the socket census once every screen showed its board
    games_split: int = 0
    statements: tuple[int, int] | None = None  # the whole burst: creation to the first move shown
    statements_missing: str = ""
    cpu: dict[str, float] = field(default_factory=dict)


# -- one point, one run ------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def statements_text(counted: tuple[int, int] | None, missing: str, moves: int | None) -> str:
    """Statements per move, or in all when ``moves`` is None."""
    name = "stmts" if moves is None else "stmts/move"
    if counted is None:
        return f"{name}=n/a ({missing or 'not measured'})"
    platform, helpers = counted
    figure = f"{platform}" if moves is None else f"{platform / max(1, moves):.1f}"
    return f"{name}={figure} (helpers' {helpers} not counted)"


def report(target: str, games: int, args: argparse.Namespace, stats: Stats) -> bool:
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
    cpu, wall = stats.cpu, stats.wall
    spread = "/".join(str(n) for _, n in sorted(stats.sockets_by_process.items()))
    print(
        f"{target:8} {args.client} G={games:<5} N={args.processes} moves/s={stats.sent / args.seconds:7.1f} "
        f"carried={carried:.2f} screens-updated/s={stats.screens_updated / args.seconds:7.0f} "
        f"p50={percentile(lat, 50) * ms:7.1f}ms p95={percentile(lat, 95) * ms:7.1f}ms "
        f"p99={percentile(lat, 99) * ms:7.1f}ms max={max(lat, default=float('nan')) * ms:7.1f}ms "
        f"ending-moves(n={len(stats.ending_latencies)} p50={percentile(stats.ending_latencies, 50) * ms:.1f}ms "
        f"p99={percentile(stats.ending_latencies, 99) * ms:.1f}ms) "
        f"sent={stats.sent} acked={stats.acked} lost={stats.lost} unacked={stats.unacked} "
        f"unstored={stats.unstored} (acked {stats.unstored_acked}) errors={errors} games={stats.games_started}/{stats.games_finished} "
        f"connect-p50={percentile(stats.connect_times, 50) * ms:.0f}ms resyncs={stats.resyncs} "
        f"split-games={stats.games_split}/{stats.games_seen} sockets-by-process={spread or '-'} "
        f"{statements_text(stats.statements, stats.statements_missing, stats.sent) if target == 'platform' else ''} "
        f"cpu(servers/celery/client)={cpu['servers'] / wall:.2f}/{cpu['celery'] / wall:.2f}/{cpu['client'] / wall:.2f} "
        f"server-cpu-ms/move={1000 * cpu['servers'] / max(1, stats.sent_all):.1f} "
        f"client-cpu-ms/move={1000 * cpu['client'] / max(1, stats.sent_all):.1f} "
        f"load={os.getloadavg()[0]:.2f} -> {'HOLDS' if holds else 'fails'}",
        flush=True,
    )
    for code, count in stats.errors.most_common(5):
        print(f"           error {code}: {count}", flush=True)
    return holds


def report_burst(target: str, args: argparse.Namespace, burst: Burst) -> bool:
    ms = 1000.0
    shown_all = len(burst.shown) == burst.screens
    moved_all = bool(burst.first_move_screens) and len(burst.first_move) == burst.first_move_screens
    within = shown_all and bool(burst.shown) and burst.shown[-1] <= 1.0
    print(
        f"{target:8} burst players={args.burst} games={args.burst // 2} screens={burst.screens} N={args.processes} "
        f"created-in={burst.create_seconds * ms:.0f}ms | boards shown {len(burst.shown)}/{burst.screens}: "
        f"last={max(burst.shown, default=float('nan')) * ms:.0f}ms p50={percentile(burst.shown, 50) * ms:.0f}ms "
        f"p99={percentile(burst.shown, 99) * ms:.0f}ms all-within-1s={'yes' if within else 'no'} "
        f"(pages: last={max(burst.pages, default=float('nan')) * ms:.0f}ms p50={percentile(burst.pages, 50) * ms:.0f}ms) | "
        f"first move on {len(burst.first_move)}/{burst.first_move_screens} screens: "
        f"last={max(burst.first_move, default=float('nan')) * ms:.0f}ms p50={percentile(burst.first_move, 50) * ms:.0f}ms "
        f"p99={percentile(burst.first_move, 99) * ms:.0f}ms | "
        f"split-games={burst.games_split}/{burst.games_seen} "
        f"{statements_text(burst.statements, burst.statements_missing, None) if target == 'platform' else ''} "
        f"cpu-s(servers/client)={burst.cpu['servers']:.2f}/{burst.cpu['client']:.2f} load={os.getloadavg()[0]:.2f}",
        flush=True,
    )
    for code, count in burst.errors.most_common(5):
        print(f"           error {code}: {count}", flush=True)
    return within and moved_all and not burst.errors


async def run_point(
    target: Target,
    games: int,
    args: argparse.Namespace,
    server_pids: list[int],
    celery_pids: list[int],
    statements: Statements | None,
) -> Stats:
    bench = Bench(target, args, games, statements)
    cpu0 = (cpu_seconds(server_pids), cpu_seconds(celery_pids), client_cpu_seconds(), time.monotonic())
    stats = await bench.run()
    stats.cpu = {
        "servers": cpu_seconds(server_pids) - cpu0[0],
        "celery": cpu_seconds(celery_pids) - cpu0[1],
        "client": client_cpu_seconds() - cpu0[2],
    }
    stats.wall = time.monotonic() - cpu0[3]
    return stats


async def run_burst(
    target: Target, args: argparse.Namespace, server_pids: list[int], statements: Statements | None
) -> Burst:
    cpu0 = (cpu_seconds(server_pids), client_cpu_seconds())
    burst = await Bench(target, args, args.burst // 2, statements).burst()
    burst.cpu = {"servers": cpu_seconds(server_pids) - cpu0[0], "client": client_cpu_seconds() - cpu0[1]}
    return burst


async def sample_board(port: int, game_id: int, cookie: str) -> str:
    """The platform's classic board partial as its first player's page gets it: from
    the socket's ``state`` frame where the page asks for pushed boards, else fetched."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    http = HttpClient(port, cookie)
    try:
        status, page = await http.get(f"/play/{game_id}/")
        attrs = tag_attributes(PAGE_TAG, page)
        if status == 200 and "data-board-url" in attrs:
            status, board = await http.get(attrs["data-board-url"], htmx_target="board")
        elif status == 200:
            async with connect(
                f"ws://127.0.0.1:{port}{attrs['data-socket']}",
                origin=Origin(f"http://127.0.0.1:{port}"),
                additional_headers={"Cookie": cookie},
            ) as ws:
                board = json.loads(await ws.recv())["board"]
    finally:
        await http.close()
    if status != 200:
        raise RuntimeError(f"the board sample: HTTP {status}")
    return board


def observer_range(text: str) -> tuple[int, int]:
    """``--observers``: "N" or "LO-HI" (each game slot draws its count in the range)."""
    low, _, high = text.partition("-")
    bounds = (int(low), int(high or low))
    if not 0 <= bounds[0] <= bounds[1] <= MAX_OBSERVERS:
        raise argparse.ArgumentTypeError(f"observers: N or LO-HI within 0..{MAX_OBSERVERS}")
    return bounds


def make_crowd(
    pool: concurrent.futures.Executor, args: argparse.Namespace, slots: int
) -> tuple[Crowd, list[tuple[int, str, str]]]:
    """The crowd of ``slots`` game slots, and two more players for the board sample.
    Users are made in both helper processes at once."""
    rng = random.Random(args.seed)
    low, high = args.observers
    counts = [rng.randint(low, high) for _ in range(slots)]
    signed_in = 0 if args.anonymous_observers or args.client == "api" else sum(counts)
    wanted = 2 * slots + 2 + signed_in
    prefix = f"bench{uuid.uuid4().hex[:6]}_"
    halves = [pool.submit(_db_make_players, f"{prefix}{i}_", n) for i, n in enumerate((wanted // 2, wanted - wanted // 2))]
    users = [user for half in halves for user in half.result()]
    players, spare, watchers = users[: 2 * slots], users[2 * slots : 2 * slots + 2], users[2 * slots + 2 :]
    observers: list[list[tuple[int, str, str]]] = []
    for count in counts:
        mine = watchers[:count] if signed_in else []
        watchers = watchers[len(mine) :]
        observers.append(mine)
    return Crowd(players, counts, observers), spare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", default="50,100,250", help=f"G, or a comma list to sweep (each <= {MAX_GAMES})"
    )
    parser.add_argument("--client", choices=("browser", "api"), default="browser",
                        help="browser: what the game page does (session, pages, board); api: JSON and tokens")
    parser.add_argument("--processes", type=int, default=1, help="ASGI server processes (N), behind one port")
    parser.add_argument(
        "--page-processes", type=int, default=0,
        help="serve the game pages from this many server processes of their own, on another port, as a proxy "
             "sending /ws/ apart would (0: the socket servers serve them too)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window per point")
    parser.add_argument("--observers", type=observer_range, default=None,
                        help="observers per game: N, or LO-HI drawn per game slot (default 10 browser, 2 api)")
    parser.add_argument("--anonymous-observers", action="store_true",
                        help="browser observers not signed in (default: each a signed-in user of its own)")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per game")
    parser.add_argument("--burst", type=int, default=0,
                        help="instead of the sweep: a tournament round of this many players starting at once")
    parser.add_argument("--burst-timeout", type=float, default=30.0, help="seconds the burst waits for screens")
    parser.add_argument("--target", choices=("both", "platform", "control"), default="both")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds after the ramp before the window")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds to wait for updates in flight")
    parser.add_argument("--no-deflate", action="store_true", help="clients offer no permessage-deflate")
    parser.add_argument("--keep-going", action="store_true", help="sweep on after a target fails a point")
    parser.add_argument(
        "--db-pool", type=int, default=None,
        help="DB_POOL_MAX of each server process (default: the platform's own, config/settings/base.py)",
    )
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
    if args.observers is None:
        args.observers = (10, 10) if args.client == "browser" else (2, 2)
    points = [int(g) for g in str(args.games).split(",") if g.strip()]
    if not points or not all(0 < g <= MAX_GAMES for g in points):
        parser.error(f"games are 1..{MAX_GAMES}")
    if args.burst and (args.client != "browser" or args.burst % 2 or not 2 <= args.burst <= 2 * MAX_GAMES):
        parser.error(f"--burst is an even number of players, 2..{2 * MAX_GAMES}, in browser mode")
    if (
        not 1 <= args.processes <= MAX_PROCESSES
        or not 0 < args.seconds <= MAX_SECONDS
        or not 0 < args.rate <= 10
        or not 0 <= args.db_processes <= MAX_PROCESSES
        or not 0 <= args.page_processes <= MAX_PROCESSES
    ):
        parser.error(
            f"processes 1..{MAX_PROCESSES}, db-processes and page-processes 0..{MAX_PROCESSES}, "
            f"seconds up to {MAX_SECONDS}, rate up to 10"
        )
    for url in (args.database_url, args.redis_url):
        if urlparse(url).hostname not in ("127.0.0.1", "localhost"):
            parser.error("only services on 127.0.0.1")

    # SIGTERM ends the run like Ctrl-C: through the finally blocks that stop everything.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    low, high = args.observers
    print(
        f"live bench: client={args.client} "
        + (f"burst={args.burst} players " if args.burst else f"games={points} ")
        + f"processes={args.processes} (one port) db-processes={args.db_processes} "
        + (f"page-processes={args.page_processes} (another port) " if args.page_processes else "")
        + f"seconds={args.seconds} "
        f"observers={low if low == high else f'{low}-{high}'}"
        f"{' anonymous' if args.anonymous_observers or args.client == 'api' else ' signed-in'} "
        f"rate={args.rate}/s deflate={not args.no_deflate} cpus={os.cpu_count()} load={os.getloadavg()}",
        flush=True,
    )
    try:
        import uvloop

        runner: Callable[[Coroutine[Any, Any, Any]], Any] = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ttt-live-") as tmp, scratch_services(args) as scratch:
        env = scratch.env
        procs = Processes(Path(tmp))
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=2,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_db_init,
            initargs=(scratch.helper_env,),
        )
        try:
            platform_port, control_port = free_port(), free_port()
            platform = procs.start(
                "web", uvicorn_command("config.asgi:application", platform_port, args.processes), env
            )
            celery = [
                procs.start(
                    "worker",
                    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "WARNING"],
                    env,
                ),
                procs.start(
                    "beat",
                    [
                        sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "WARNING",
                        "--schedule", str(Path(tmp) / "beat-schedule"),
                    ],
                    env,
                ),
            ]
            wait_for_port(platform_port, platform)
            pages, page_port = None, None
            if args.page_processes:
                # Their own processes, without database workers: no socket of theirs is used.
                page_port = free_port()
                pages = procs.start(
                    "pages", uvicorn_command("config.asgi:application", page_port, args.page_processes),
                    dict(env, LIVE_DB_PROCESSES="0"),
                )
                wait_for_port(page_port, pages)
            crowd, spare = make_crowd(pool, args, args.burst // 2 or max(points))
            relay_env = dict(env)
            if args.client == "browser":
                # The relay's frames carry a board of the platform's own (taken once, mid-
                # game) so both sides carry the same bytes.
                sample_id = pool.submit(_db_sample_game, spare[0][0], spare[1][0]).result()
                board = runner(sample_board(platform_port, sample_id, spare[0][2]))
                pool.submit(_db_resign_active).result()
                board_file = Path(tmp) / "board.html"
                board_file.write_text(board)
                relay_env["RELAY_BOARD"] = str(board_file)
                print(f"board sample: {len(board.encode())} bytes (the relay's frames carry it)", flush=True)
            control = procs.start(
                "relay", uvicorn_command("bench.relay_asgi:application", control_port, args.processes), relay_env
            )
            wait_for_port(control_port, control)
            statements = Statements(scratch)
            alive = {
                "control": args.target in ("both", "control"),
                "platform": args.target in ("both", "platform"),
            }
            for games in [0] if args.burst else points:
                for name in ("control", "platform"):
                    if not alive[name]:
                        continue
                    if name == "control":
                        target: Target = ControlTarget(control_port, control.pid, crowd)
                        server = control
                    else:
                        target = PlatformTarget(platform_port, platform.pid, crowd, pool, page_port)
                        server = platform
                    measured = statements if name == "platform" else None
                    server_pids = [server.pid] + ([pages.pid] if pages is not None and name == "platform" else [])
                    if args.burst:
                        burst = runner(run_burst(target, args, server_pids, measured))
                        holds = report_burst(name, args, burst)
                    else:
                        stats = runner(
                            run_point(target, games, args, server_pids, [p.pid for p in celery], measured)
                        )
                        if name == "platform" and stats.sent_keys:
                            stored = set(pool.submit(_db_stored, stats.sent_keys).result())
                            stats.unstored = sum(1 for key in stats.sent_keys if key not in stored)
                            stats.unstored_acked = sum(
                                1 for key in stats.sent_keys if key not in stored and key in stats.acked_keys
                            )
                    dead = [p.args for p in [control, platform, *celery, *([pages] if pages else [])]
                            if p.poll() is not None]
                    if not args.burst:
                        if dead:
                            stats.errors[f"process exited: {dead[0]!r}"] += 1  # the command list: repr is str
                        holds = report(name, games, args, stats)
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
