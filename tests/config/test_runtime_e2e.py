"""The platform as it really runs: real server processes, a real Celery worker and beat,
a real websocket client. Embedded: one `runplatform` process. With DATABASE_URL and
REDIS_URL: uvicorn, `celery worker` and `celery beat` as three processes."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
import websockets

from tests.processes import free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = pytest.mark.slow


async def first_heartbeat(port: int) -> dict:
    url = f"ws://127.0.0.1:{port}/ws/notifications/"
    async with websockets.connect(url, origin=f"http://127.0.0.1:{port}") as ws:
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
