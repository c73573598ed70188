"""A server pointed at a Redis that is down (a port where nothing listens), on
PostgreSQL, with real processes: it says so once at start-up, /healthz fails naming the
channel layer and the broker, and the writes still answer truthfully: committed and 2xx,
never a 500 (docs/operations.md, "When Redis or a worker is down")."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import psycopg
import pytest
import websockets
from websockets.typing import Origin

from tests.processes import ROOT, free_port, running, scratch_database, uvicorn_command, wait_for_port

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

MAKE_PLAYERS = """
from rest_framework.authtoken.models import Token
from tests.factories import PlayerFactory
import json
tokens = {name: Token.objects.create(user=PlayerFactory.create(username=name)).key for name in ("ann", "ben")}
print(json.dumps(tokens))
"""


def call(port, path, token=None, body=None, headers=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {}),
                 **(headers or {})},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read()), {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null"), {k.lower(): v for k, v in err.headers.items()}


async def handshake(port, path):
    """The first frame and the close code of a websocket on a server without Redis."""
    async with websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=Origin(f"http://127.0.0.1:{port}")) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), timeout=10)
        return frame, ws.close_code


def test_a_server_with_redis_down_answers_writes_truthfully_and_healthz_fails(tmp_path):
    port, dead = free_port(), free_port()
    with scratch_database(tmp_path) as env:
        env["REDIS_URL"] = f"redis://:hunter2@127.0.0.1:{dead}/0"
        tokens = json.loads(subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True).stdout.strip().splitlines()[-1])
        with running(uvicorn_command(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])

            status, health, _ = call(port, "/healthz")
            assert status == 503
            assert health["components"]["database"] == {"status": "ok"}
            assert health["components"]["channel_layer"]["status"] == "error"
            assert health["components"]["broker"]["status"] == "error"
            assert "hunter2" not in json.dumps(health) and str(dead) not in json.dumps(health)

            # An AI game (its AI task cannot be queued), retried with its key: one game.
            ai_game = {"variant": "classic", "ai_level": "random"}
            created = [call(port, "/api/v1/games/", tokens["ann"], ai_game, {"Idempotency-Key": "ai-1"})
                       for _ in range(2)]
            assert [c[0] for c in created] == [201, 201]
            assert created[1][2].get("idempotent-replayed") == "true"
            # A challenge, accepted; then a move (their broadcasts cannot be sent).
            status, challenge, _ = call(port, "/api/v1/games/", tokens["ann"], {"variant": "classic", "opponent": "ben"})
            assert status == 201
            game_id = challenge["id"]
            status, accepted, _ = call(port, f"/api/v1/games/{game_id}/accept/", tokens["ben"], {})
            assert status == 200, accepted
            to_move = accepted["to_move"][0]
            mover = next(s["user"] for s in accepted["seats"] if s["seat"] == to_move)
            status, moved, _ = call(port, f"/api/v1/games/{game_id}/moves/", tokens[mover],
                                    {"ply": 0, "move": {"cell": 5}})
            assert status == 201, moved

            with psycopg.connect(env["DATABASE_URL"]) as db:
                games = db.execute("SELECT id, status, ply FROM games_game WHERE id = %s OR id = %s",
                                   (created[0][1]["id"], game_id)).fetchall()
                # The demo's own games are finished; the two made here are the only others.
                assert db.execute("SELECT count(*) FROM games_game WHERE status <> 'finished'").fetchone()[0] == 2
            assert sorted(games) == sorted([(created[0][1]["id"], "active", 0), (game_id, "active", 1)])

            # Websockets: no 500; an error frame and "try again later".
            for path in (f"/ws/games/{game_id}/", "/ws/notifications/"):
                frame, code = asyncio.run(handshake(port, path))
                assert frame["type"] == "error" and frame["code"] == "unavailable", frame
                assert code == 1013

        log = (tmp_path / "process-0.log").read_text()
        start_up = [line for line in log.splitlines() if "ERROR" in line and "Redis unreachable" in line]
        assert len(start_up) == 1, log[-3000:]
        assert f"redis://:**@127.0.0.1:{dead}/0" in start_up[0] and "hunter2" not in log
        assert "Internal Server Error" not in log and " 500" not in log, log[-3000:]


def test_a_server_with_a_redis_that_never_answers_ends_each_handshake_in_words(tmp_path):
    """Found by a chaos probe: a Redis that accepts connections and never answers (hung,
    or a black hole on its port) held every websocket handshake forever. Each now ends
    with ``unavailable`` and 1013 once config.channel_layer's bound (5 s) has passed.
    And every REST write waited 3-5 s for it: now only the first does."""
    port = free_port()
    with socket.socket() as hung, scratch_database(tmp_path) as env:
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)  # the kernel completes the connections; nobody ever reads or answers
        env["REDIS_URL"] = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
        tokens = json.loads(subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True).stdout.strip().splitlines()[-1])
        with running(uvicorn_command(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])

            # Writes: the first waits for Redis (its throttle count, its broadcast); the
            # next ones do not ask it again for a few seconds (accounts/unanswered.py),
            # where each used to wait 3-5 s. All are stored.
            def timed(*args):
                started = time.monotonic()
                status, body, _ = call(port, *args)
                return status, body, time.monotonic() - started

            status, game, took = timed("/api/v1/games/", tokens["ann"], {"variant": "classic", "opponent": "ben"})
            # The throttle's count meets the hung server first (1 s); the task's publish and
            # the broadcast on the same server are then not asked (6.2-6.4 s when each waited).
            print(f"first write against a hung Redis: {took:.2f} s")
            assert status == 201 and took < 2.5, (status, game, took)  # 3.4 s before, 1.4 s after
            status, accepted, took = timed(f"/api/v1/games/{game['id']}/accept/", tokens["ben"], {})
            assert status == 200 and took < 1.5, (status, took)
            mover = "ben" if accepted["to_move"] == [accepted["you"]] else "ann"  # the accept answers as ben
            status, moved, took = timed(f"/api/v1/games/{game['id']}/moves/", tokens[mover],
                                        {"ply": 0, "move": {"cell": 4}})
            assert status == 201 and moved["ply"] == 1 and took < 1.5, (status, moved, took)

            async def handshake_within(path, seconds):
                started = time.monotonic()
                async with websockets.connect(f"ws://127.0.0.1:{port}{path}", open_timeout=seconds,
                                              origin=Origin(f"http://127.0.0.1:{port}")) as ws:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=seconds))
                    with pytest.raises(websockets.ConnectionClosed):
                        await asyncio.wait_for(ws.recv(), timeout=5)
                    return frame, ws.close_code, time.monotonic() - started

            async def both():
                return await asyncio.gather(handshake_within("/ws/games/1/", 30),
                                            handshake_within("/ws/notifications/", 30))

            for frame, code, took in asyncio.run(both()):
                assert frame["type"] == "error" and frame["code"] == "unavailable", frame
                assert code == 1013 and took < 15, (code, took)
        log = (tmp_path / "process-0.log").read_text()
        assert "Internal Server Error" not in log and "Exception in ASGI application" not in log, log[-3000:]
