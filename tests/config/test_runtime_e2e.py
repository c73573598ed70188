"""The platform as it really runs: real server processes, a real Celery worker and beat,
a real websocket client. Embedded: one `runplatform` process. With DATABASE_URL and
REDIS_URL: uvicorn, `celery worker` and `celery beat` as three processes."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest
import websockets
from websockets.typing import Origin

from tests.processes import free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = pytest.mark.slow


async def first_heartbeat(port: int) -> dict:
    url = f"ws://127.0.0.1:{port}/ws/notifications/"
    async with websockets.connect(url, origin=Origin(f"http://127.0.0.1:{port}")) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            if frame["type"] == "heartbeat":
                return frame


def test_the_platform_serves_pages_and_beat_reaches_websockets(tmp_path):
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["HEARTBEAT_SECONDS"] = "1"
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            home = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
            assert "Demo Noughts &amp; Crosses Club" in home
            css = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=10)
            assert css.status == 200
            frame = asyncio.run(first_heartbeat(port))
            assert frame["at"]
            for process in processes:
                assert process.poll() is None, (tmp_path / "process-0.log").read_text()[-2000:]


def test_the_served_platform_takes_no_client_address_from_x_forwarded_for(tmp_path):
    """Through the real server (uvicorn), a client that writes X-Forwarded-For still
    counts as its own address: the log-in limit catches it on the fourth try."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        env["THROTTLE_LOGIN"] = "3/min"
        with running(platform_commands(port)[0], env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            statuses = []
            for n in range(4):
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/accounts/login/",
                    data=json.dumps({"username": "nobody", "password": "wrong"}).encode(),
                    headers={"Content-Type": "application/json", "X-Forwarded-For": f"203.0.113.{n + 1}"},
                )
                try:
                    statuses.append(urllib.request.urlopen(request, timeout=10).status)
                except urllib.error.HTTPError as err:
                    statuses.append(err.code)
            assert statuses == [400, 400, 400, 429], (tmp_path / "process-0.log").read_text()[-2000:]
