"""A Celery worker and a broker that stays away: the worker waits for it, however long.

Celery gives up after ``broker_connection_max_retries`` attempts (100 by default, 2 s
apart growing to 30: about 46 minutes of a Redis outage); the worker then logged
"Unrecoverable error" with a traceback and exited, and no round started and no game was
rated after Redis came back until someone restarted it (a chaos probe). The worker's
consumer reconnects with ``ensure_connection(errback, broker_connection_max_retries)``;
here the same call, its waits shortened, outlasts 100 attempts and connects once a Redis
listens on the port."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time

import pytest

from tests.processes import free_port, wait_for_port

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


def test_a_worker_waits_for_the_broker_however_long_it_is_away(tmp_path):
    from config.celery import app

    port = free_port()
    connection = app.connection_for_read(url=f"redis://127.0.0.1:{port}/0")
    attempts: list[float] = []
    outcome: list[object] = []

    def reconnect() -> None:
        try:
            connection.ensure_connection(lambda exc, interval: attempts.append(interval),
                                         app.conf.broker_connection_max_retries,
                                         interval_start=0.005, interval_step=0, interval_max=0.005)
            outcome.append("connected")
        except Exception as exc:  # the worker's "Unrecoverable error"
            outcome.append(exc)

    thread = threading.Thread(target=reconnect, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while len(attempts) <= 150 and not outcome:
        assert time.monotonic() < deadline, f"only {len(attempts)} attempts"
        time.sleep(0.05)
    assert not outcome, f"gave up after {len(attempts)} attempts: {outcome[0]!r}"
    redis = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no",
                              "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        wait_for_port(port, process=redis)
        thread.join(timeout=10)
        assert outcome == ["connected"], outcome
    finally:
        connection.release()
        redis.terminate()
        redis.wait(timeout=10)
