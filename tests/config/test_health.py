"""/healthz: each component checked on its own (config/health.py)."""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any, cast

import pytest
import websockets
from django.test import Client, override_settings

from games import workers
from tests.processes import ROOT, free_port, running, scratch_database, uvicorn_command, wait_for_port

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_every_component_answers(client, channel_layers_fresh):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "components": {
        "database": {"status": "ok"}, "channel_layer": {"status": "ok"}, "broker": {"status": "ok"}}}


def test_healthz_keeps_a_server_in_rotation_without_redis_and_names_it_degraded(client, channel_layers_fresh):
    """Pages and play go on without Redis (docs/operations.md), so a load balancer must
    not take every server out when it is down: 200, "degraded", each component named
    without a secret. A monitor that reads only the code asks ?strict=1: 503."""
    dead = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    layers = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                          "CONFIG": {"hosts": [{"address": dead}]}}}
    with override_settings(CHANNEL_LAYERS=layers, CELERY_BROKER_URL=dead):
        response = client.get("/healthz")
        strict = client.get("/healthz", {"strict": "1"})
    assert response.status_code == 200 and strict.status_code == 503
    for body in (response.json(), strict.json()):
        assert body["status"] == "degraded"
        assert body["components"]["database"] == {"status": "ok"}
        assert body["components"]["channel_layer"] == {"status": "error", "reason": "ConnectionError"}
        assert body["components"]["broker"] == {"status": "error", "reason": "ConnectionError"}
    assert "hunter2" not in response.content.decode()


def test_healthz_is_ok_under_strict_when_every_component_answers(client, channel_layers_fresh):
    assert client.get("/healthz", {"strict": "1"}).status_code == 200


def _pool(*started: bool) -> workers.Workers:
    """A pool of workers as /healthz sees them: each started (it takes calls) or not."""
    pool = workers.Workers(len(started))
    for done in started:
        ready = SimpleNamespace(value=int(done))
        pool.workers.append(workers._Worker(cast(Any, SimpleNamespace(is_alive=lambda: True)), cast(Any, None), ready))
    return pool


def test_healthz_fails_until_a_database_worker_can_take_a_call(client, channel_layers_fresh, monkeypatch):
    monkeypatch.setattr(workers, "_workers", _pool(False, False))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["components"] == {
        "database": {"status": "ok"}, "channel_layer": {"status": "ok"}, "broker": {"status": "ok"},
        "database_workers": {"status": "error", "reason": "NoDatabaseWorkerReady"}}
    monkeypatch.setattr(workers, "_workers", _pool(True, False))  # one serves: moves are taken
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["components"]["database_workers"] == {"status": "ok"}


#: Holds every process multiprocessing spawns (the server's database workers) before it
#: imports anything, until the gate file exists: a loaded machine's slow start, on demand.
GATED_START = """
import os, sys, time
if "spawn_main" in " ".join(getattr(sys, "orig_argv", [])):
    while not os.path.exists({gate!r}):
        time.sleep(0.05)
"""


@pytest.mark.slow
@pytest.mark.postgres
def test_a_server_is_not_ready_before_its_database_workers_are(tmp_path):
    """Found by a chaos probe: /healthz was green about 15 s before a loaded server's
    database workers could serve a socket. Here they are held at their start: /healthz
    says 503 naming them, and 200 once they are up, when a socket is served."""
    gate = tmp_path / "gate"
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(GATED_START.format(gate=str(gate)))
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = "2"
        env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), str(ROOT)])
        with running(uvicorn_command(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            status, body = _healthz(port)
            assert status == 503, body
            assert body["components"]["database_workers"] == {"status": "error", "reason": "NoDatabaseWorkerReady"}
            assert body["components"]["database"] == {"status": "ok"}

            gate.touch()
            deadline = time.monotonic() + 120  # a guard against a hang, not a measure
            while (status := _healthz(port)[0]) != 200 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert status == 200

            async def first_frame():
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/999999/", open_timeout=10) as ws:
                    return json.loads(await asyncio.wait_for(ws.recv(), timeout=10))

            assert asyncio.run(first_frame())["code"] == "no-such-game"  # a worker looked


@pytest.mark.slow
@pytest.mark.postgres
def test_a_server_stopped_as_usual_logs_no_leaked_semaphores(tmp_path):
    """A chaos probe: every server stop logged "resource_tracker: There appear to be 10
    leaked semaphore objects", which reads as a fault at each deploy. Each database
    worker's readiness was a multiprocessing Event; it is a byte of shared memory now."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["LIVE_DB_PROCESSES"] = "2"
        with running(uvicorn_command(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            deadline = time.monotonic() + 120  # a guard against a hang, not a measure
            while (status := _healthz(port)[0]) != 200 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert status == 200
        # running() stopped it with SIGTERM, as a deploy does; the resource tracker, a
        # process of its own, writes its warning as it sees the server gone.
    time.sleep(2)
    log = (tmp_path / "process-0.log").read_text()
    assert "Finished server process" in log and "leaked" not in log, log


def _healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_healthz_answers_only_reads(client):
    """Found by a probe: a POST got the HTML "form expired" page (403, CSRF)."""
    response = Client(enforce_csrf_checks=True).post("/healthz", {})
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert client.head("/healthz").status_code in (200, 503)
