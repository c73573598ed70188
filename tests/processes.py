"""Start the platform's real processes for end-to-end tests (not a fixture file:
tests import what they need)."""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent


def runplatform_command(port: int, *extra: str) -> list[str]:
    return [sys.executable, "manage.py", "runplatform", "--port", str(port), *extra]


def uvicorn_command(port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port), "--lifespan", "off",
            *extra]


WORKER_COMMAND = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "INFO"]
BEAT_COMMAND = [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO"]


def platform_commands(port: int) -> list[list[str]]:
    """The platform as it runs: one `runplatform` process on the embedded default;
    uvicorn, a Celery worker and beat with DATABASE_URL and REDIS_URL."""
    from django.conf import settings

    if settings.EMBEDDED:
        return [runplatform_command(port)]
    return [
        uvicorn_command(port, "--no-proxy-headers"),  # as the Procfile: the client's address is Django's to read
        WORKER_COMMAND,
        BEAT_COMMAND,
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"process exited with {process.returncode} before listening on {port}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listened on port {port} within {timeout} s")


@contextlib.contextmanager
def empty_redis_db(url: str) -> Iterator[str]:
    """An empty Redis database for one test's processes alone, emptied again after:
    Celery's queue is "celery" in every database, so a shared one would let another
    run's worker take our tasks."""
    import redis

    base = url.rsplit("/", 1)[0]
    claim = f"test-processes-claim-{uuid.uuid4().hex}"
    for db in range(15, 0, -1):
        client = redis.Redis.from_url(f"{base}/{db}")
        # Claimed with a key, not merely found empty: two runs at once (CI's, a
        # developer's) would otherwise both take the same empty database.
        client.set(claim, "1", nx=True)
        if client.dbsize() == 1:
            break
        client.delete(claim)
    else:
        raise RuntimeError("no empty Redis database (1-15) for a test's own processes")
    try:
        yield f"{base}/{db}"
    finally:
        client.flushdb()


@contextlib.contextmanager
def scratch_database(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Environment for processes using a database of their own, migrated and seeded.

    On PostgreSQL a new database is created and dropped after; on SQLite a file in
    tmp_path. With REDIS_URL, an empty Redis database of their own too, holding what
    the seeding left queued for a worker.
    """
    with contextlib.ExitStack() as stack:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.dev", PYTHONUNBUFFERED="1")
        # The API's rates on, far above what a test's browsers and bots do from one
        # address (their own tests: tests/accounts/test_throttling.py).
        env.update(dict.fromkeys(
            ("THROTTLE_USER_WRITE", "THROTTLE_ANON_WRITE", "THROTTLE_LOGIN", "THROTTLE_SIGNUP"), "100000/min"
        ))
        template = _seeded_template()
        if env.get("REDIS_URL"):
            env["REDIS_URL"] = stack.enter_context(empty_redis_db(env["REDIS_URL"]))
            env.pop("CELERY_BROKER_URL", None)
            _restore_redis(env["REDIS_URL"], template.redis)
            # Pub/sub channels span Redis's databases, and every scratch copy has the
            # same games: two tests' servers at once (pytest-xdist) would hear each other.
            env.setdefault("CHANNEL_PREFIX", f"ttt-{uuid.uuid4().hex[:8]}")
        yield stack.enter_context(_scratch_database(tmp_path, env, template.database))


@dataclass(frozen=True)
class _Template:
    database: str  # the SQLite path or the PostgreSQL database name
    redis: dict[bytes, bytes]  # the seeding's Redis keys (the tasks it queued), as DUMPed


@functools.cache
def _seeded_template() -> _Template:
    """The migrated, seeded database every scratch one copies, made once per test run:
    migrate and seed_demo took 9 s for each of the 26 uses; a copy takes under 0.01 s
    (SQLite) or 0.05 s (PostgreSQL's CREATE DATABASE ... TEMPLATE)."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.dev", PYTHONUNBUFFERED="1")
    base_url = env.get("DATABASE_URL", "")
    with contextlib.ExitStack() as stack:
        if env.get("REDIS_URL"):
            env["REDIS_URL"] = stack.enter_context(empty_redis_db(env["REDIS_URL"]))
            env.pop("CELERY_BROKER_URL", None)
        if base_url.startswith(("postgres", "postgresql")):
            name = f"ttt_e2e_template_{uuid.uuid4().hex[:10]}"
            _admin_execute(base_url, f'CREATE DATABASE "{name}"')
            atexit.register(_admin_execute, base_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            env["DATABASE_URL"] = urlunparse(urlparse(base_url)._replace(path=f"/{name}"))
        else:
            directory = tempfile.mkdtemp(prefix="ttt-e2e-template-")
            atexit.register(shutil.rmtree, directory, ignore_errors=True)
            name = env["SQLITE_PATH"] = str(Path(directory) / "template.sqlite3")
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        subprocess.run([sys.executable, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True,
                       capture_output=True)
        redis_keys: dict[bytes, bytes] = {}
        if env.get("REDIS_URL"):
            import redis

            client = redis.Redis.from_url(env["REDIS_URL"])
            for key in client.scan_iter():
                dumped = client.dump(key)
                if dumped is not None and not key.startswith(b"test-processes-claim-"):
                    redis_keys[key] = dumped
    return _Template(name, redis_keys)


def _restore_redis(url: str, keys: dict[bytes, bytes]) -> None:
    import redis

    client = redis.Redis.from_url(url)
    for key, value in keys.items():
        client.restore(key, 0, value, replace=True)


def _admin_execute(base_url: str, statement: str) -> None:
    import psycopg

    admin_url = urlunparse(urlparse(base_url)._replace(path="/postgres"))
    with psycopg.connect(admin_url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
        conn.execute(statement)


@contextlib.contextmanager
def _scratch_database(tmp_path: Path, env: dict[str, str], template: str) -> Iterator[dict[str, str]]:
    base_url = env.get("DATABASE_URL", "")
    if not base_url.startswith(("postgres", "postgresql")):
        env["SQLITE_PATH"] = str(tmp_path / "e2e.sqlite3")
        shutil.copyfile(template, env["SQLITE_PATH"])  # its WAL was folded in when the seeding closed it
        yield env
        return
    name = f"ttt_e2e_{uuid.uuid4().hex[:10]}"
    _admin_execute(base_url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    env["DATABASE_URL"] = urlunparse(urlparse(base_url)._replace(path=f"/{name}"))
    try:
        yield env
    finally:
        _admin_execute(base_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def running(*commands: list[str], env: dict[str, str], log_dir: Path) -> Iterator[list[subprocess.Popen]]:
    """Run commands from the repository root; stop them all at the end."""
    processes = []
    try:
        for index, command in enumerate(commands):
            log = open(log_dir / f"process-{index}.log", "wb")  # noqa: SIM115 - closed with the process
            processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
        yield processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
