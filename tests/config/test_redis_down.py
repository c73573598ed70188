"""A server pointed at a Redis that is down (a port where nothing listens), on
PostgreSQL, with real processes: it says so once at start-up, /healthz says degraded naming the
channel layer and the broker, and the writes still answer truthfully: committed and 2xx,
never a 500 (docs/operations.md, "When Redis or a worker is down")."""

from __future__ import annotations

import asyncio
import contextlib
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
from django.conf import settings
from websockets.typing import Origin

from accounts.unanswered import QUIET_SECONDS
from config.channel_layer import BoundedRedisChannelLayer
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


def ai_turn_played(port, token, game_id, seat, *, ply, seconds=15.0):
    """The game once ``seat`` is to move after ``ply``, the AI having answered it (at ply 0,
    also the new game itself when ``seat`` moves first)."""
    deadline = time.monotonic() + seconds
    while True:
        status, game, _ = call(port, f"/api/v1/games/{game_id}/", token)
        assert status == 200, game
        if game["to_move"] == [seat] and (game["ply"] > ply or (game["ply"] == ply and ply == 0)):
            return game
        assert time.monotonic() < deadline, f"the AI did not move: {game['ply']=} {game['to_move']=}"
        time.sleep(0.2)


async def open_socket(port, path, token=None):
    """A websocket on the server, as a bot (token) or anonymous."""
    return await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=Origin(f"http://127.0.0.1:{port}"),
                                    open_timeout=15,
                                    additional_headers={"Authorization": f"Token {token}"} if token else None)


async def next_frame(ws, *types, timeout=10):
    """The next frame of one of these types (others, such as an observer count, skipped)."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=timeout))
        if frame["type"] in types or frame["type"] == "error":
            return frame


async def reaching(ws, ply, timeout=15):
    """The first state or update at ``ply`` or later (the mover's own socket, whose
    update was lost with Redis, also gets its own move by the resync first)."""
    while (frame := await next_frame(ws, "state", "update", timeout=timeout))["type"] != "error":
        if frame["ply"] >= ply:
            return frame
    return frame


async def play_on_sockets(port, tokens, game_id, mover, ply):
    """Both players' game sockets and the mover's notifications socket open, with Redis
    away: each answers (a state, the unread count), the move is acknowledged, and the
    other player's socket gets it by the resync (docs/protocol.md, within 5 s)."""
    other = "ben" if mover == "ann" else "ann"
    async with await open_socket(port, f"/ws/games/{game_id}/", tokens[mover]) as mine, \
            await open_socket(port, f"/ws/games/{game_id}/", tokens[other]) as theirs, \
            await open_socket(port, "/ws/notifications/", tokens[mover]) as notices, \
            await open_socket(port, "/ws/notifications/") as anonymous:
        assert (await next_frame(mine, "state"))["ply"] == ply
        assert (await next_frame(theirs, "state"))["ply"] == ply
        assert (await next_frame(notices, "unread"))["type"] == "unread"
        await anonymous.send(json.dumps({"type": "ping"}))
        assert (await next_frame(anonymous, "pong"))["type"] == "pong"
        await mine.send(json.dumps({"type": "move", "ply": ply, "move": {"cell": 1}}))
        assert await next_frame(mine, "ack") == {"type": "ack", "ply": ply + 1}
        caught_up = await reaching(theirs, ply + 1)
        assert caught_up["type"] == "state" and caught_up["ply"] == ply + 1, caught_up


def test_a_server_with_redis_down_answers_writes_truthfully_and_healthz_says_degraded(tmp_path):
    port, dead = free_port(), free_port()
    with scratch_database(tmp_path) as env:
        env["REDIS_URL"] = f"redis://:hunter2@127.0.0.1:{dead}/0"
        tokens = json.loads(subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True).stdout.strip().splitlines()[-1])
        with running(uvicorn_command(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])

            deadline = time.monotonic() + 60  # its database workers start (503 until one can take a call)
            while (status := call(port, "/healthz")[0]) == 503 and time.monotonic() < deadline:
                time.sleep(0.2)
            status, health, _ = call(port, "/healthz")
            assert status == 200 and health["status"] == "degraded", health  # it serves: kept in rotation
            assert call(port, "/healthz?strict=1")[0] == 503
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
            # The AI replies all the same: its task cannot be queued, and the sweep that
            # redoes lost tasks needs the broker too, so the server plays it itself
            # (a player waited for the broker's return: a chaos probe).
            ai_id, ann_seat = created[0][1]["id"], created[0][1]["you"]
            first = ai_turn_played(port, tokens["ann"], ai_id, ann_seat, ply=0)
            for cell in range(1, 10):
                status, moved, _ = call(port, f"/api/v1/games/{ai_id}/moves/", tokens["ann"],
                                        {"ply": first["ply"], "move": {"cell": cell}})
                if status == 201:
                    break
            assert status == 201, moved
            replied = ai_turn_played(port, tokens["ann"], ai_id, ann_seat, ply=first["ply"] + 1)
            assert replied["ply"] == first["ply"] + 2
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
            assert sorted(games) == sorted([(ai_id, "active", replied["ply"]), (game_id, "active", 1)])

            # Websockets open all the same, served from the database (they were refused
            # with 1013, so a reloaded page could not move: a chaos probe).
            other = "ben" if mover == "ann" else "ann"
            asyncio.run(play_on_sockets(port, tokens, game_id, other, 1))
            with psycopg.connect(env["DATABASE_URL"]) as db:
                assert db.execute("SELECT ply FROM games_game WHERE id = %s", (game_id,)).fetchone()[0] == 2

        log = (tmp_path / "process-0.log").read_text()
        start_up = [line for line in log.splitlines() if "ERROR" in line and "Redis unreachable" in line]
        assert len(start_up) == 1, log[-3000:]
        assert f"redis://:**@127.0.0.1:{dead}/0" in start_up[0] and "hunter2" not in log
        assert "Internal Server Error" not in log and " 500" not in log, log[-3000:]


def test_a_server_with_a_redis_that_never_answers_opens_its_sockets_all_the_same(tmp_path):
    """Found by a chaos probe: a Redis that accepts connections and never answers (hung,
    or a black hole on its port) held every websocket handshake forever. The first now
    waits config.channel_layer's bound (5 s), the next ones do not ask, and all play.
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
            assert status == 201, (status, game)  # 3.4 s before, 1.4 s after: it waits by design
            # The next ones: 3-5 s each before; the bound leaves room for a loaded machine.
            status, accepted, took = timed(f"/api/v1/games/{game['id']}/accept/", tokens["ben"], {})
            assert status == 200 and took < 2.9, (status, took)
            mover = "ben" if accepted["to_move"] == [accepted["you"]] else "ann"  # the accept answers as ben
            status, moved, took = timed(f"/api/v1/games/{game['id']}/moves/", tokens[mover],
                                        {"ply": 0, "move": {"cell": 4}})
            assert status == 201 and moved["ply"] == 1 and took < 2.9, (status, moved, took)

            # The sockets open, the first after SUBSCRIBE_SECONDS (5 s; it held every
            # handshake forever before), the others without asking Redis again, and play.
            started = time.monotonic()
            asyncio.run(play_on_sockets(port, tokens, game["id"], "ann" if mover == "ben" else "ben", 1))
            print(f"sockets opened and played against a hung Redis in {time.monotonic() - started:.2f} s")
        log = (tmp_path / "process-0.log").read_text()
        assert "Internal Server Error" not in log and "Exception in ASGI application" not in log, log[-3000:]


def _redis(port, *args):
    return subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True, text=True, check=False)


def test_a_socket_opened_during_an_outage_plays_and_hears_live_updates_once_redis_is_back(tmp_path):
    """Found by a chaos probe: with Redis gone mid-run, the sockets already open went on
    from the database, but a page reloaded meanwhile was refused (1013) while its
    player's clock ran. Two servers, a Redis of the test's own: the first mover's socket
    opens on one, Redis stops, the other player's socket opens on the other server and
    plays, each catching up by the resync; Redis comes back, the second server
    subscribes the game for its socket, and the next move reaches it live."""
    redis_port, ports = free_port(), (free_port(), free_port())
    redis_command = ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no",
                     "--dir", str(tmp_path)]
    redis_servers = [subprocess.Popen(redis_command, stdout=subprocess.DEVNULL)]
    try:
        wait_for_port(redis_port, process=redis_servers[0])
        with scratch_database(tmp_path) as env:
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
            tokens = json.loads(subprocess.run(
                [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS], cwd=ROOT, env=env, check=True,
                capture_output=True, text=True).stdout.strip().splitlines()[-1])
            with running(*(uvicorn_command(port) for port in ports), env=env, log_dir=tmp_path) as processes:
                for port, process in zip(ports, processes, strict=True):
                    wait_for_port(port, process=process)
                status, game, _ = call(ports[0], "/api/v1/games/", tokens["ann"], {"variant": "classic", "opponent": "ben"})
                assert status == 201, game
                status, accepted, _ = call(ports[0], f"/api/v1/games/{game['id']}/accept/", tokens["ben"], {})
                assert status == 200, accepted
                first = next(s["user"] for s in accepted["seats"] if s["seat"] == accepted["to_move"][0])
                second = "ben" if first == "ann" else "ann"
                path = f"/ws/games/{game['id']}/"
                group = f"{env['CHANNEL_PREFIX']}__group__game-{game['id']}"

                async def play():
                    async with await open_socket(ports[0], path, tokens[first]) as one:
                        assert (await next_frame(one, "state"))["ply"] == 0
                        redis_servers[0].terminate()  # the outage
                        redis_servers[0].wait()
                        async with await open_socket(ports[1], path, tokens[second]) as two:
                            assert (await next_frame(two, "state"))["ply"] == 0
                            await one.send(json.dumps({"type": "move", "ply": 0, "move": {"cell": 5}}))
                            assert await next_frame(one, "ack") == {"type": "ack", "ply": 1}
                            assert (await reaching(two, 1))["ply"] == 1  # by the resync
                            await two.send(json.dumps({"type": "move", "ply": 1, "move": {"cell": 1}}))
                            assert await next_frame(two, "ack") == {"type": "ack", "ply": 2}
                            assert (await reaching(one, 2))["ply"] == 2

                            redis_servers.append(subprocess.Popen(redis_command, stdout=subprocess.DEVNULL))
                            wait_for_port(redis_port, process=redis_servers[1])
                            # Both servers subscribe the game again (the first by redis-py's
                            # reconnect, the second by the layer's catch-up) ...
                            for _ in range(150):
                                if _redis(redis_port, "pubsub", "numsub", group).stdout.split()[-1:] == ["2"]:
                                    break
                                await asyncio.sleep(0.2)
                            else:
                                raise AssertionError(f"{group} was not subscribed by both servers again in 30 s")
                            # ... and send again once the quiet after Redis' last failure ends.
                            await asyncio.sleep(QUIET_SECONDS)
                            await one.send(json.dumps({"type": "move", "ply": 2, "move": {"cell": 9}}))
                            assert await next_frame(one, "ack") == {"type": "ack", "ply": 3}
                            live = await reaching(two, 3)
                            assert live["type"] == "update" and live["ply"] == 3, live  # live, not the resync

                asyncio.run(play())
            for index in range(2):
                log = (tmp_path / f"process-{index}.log").read_text()
                assert "Internal Server Error" not in log and "Exception in ASGI application" not in log, log[-3000:]
            assert "subscription(s) caught up" in (tmp_path / "process-1.log").read_text()
    finally:
        for server in redis_servers:
            if server.poll() is None:
                server.kill()
                server.wait()


def test_a_broadcast_after_redis_restarts_goes_out_on_a_new_connection(tmp_path):
    """Found by a chaos probe: after Redis restarted, the first live message on each
    pooled connection it had dropped failed, and every screen waited for its resync.
    The layer as configured (its host options), against a Redis of the test's own."""
    redis_port = free_port()
    redis_command = ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no",
                     "--dir", str(tmp_path)]
    host = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0], "address": f"redis://127.0.0.1:{redis_port}/0"}

    async def restart_between_sends() -> list[dict]:
        sender, receiver = BoundedRedisChannelLayer(hosts=[host]), BoundedRedisChannelLayer(hosts=[dict(host)])
        channel = await receiver.new_channel()
        await receiver.group_add("game-1", channel)
        heard = []
        await sender.group_send("game-1", {"type": "game.update", "ply": 1})
        heard.append(await asyncio.wait_for(receiver.receive(channel), 5))
        _redis(redis_port, "shutdown", "nosave")
        servers.append(subprocess.Popen(redis_command, stdout=subprocess.DEVNULL))
        wait_for_port(redis_port, process=servers[-1])
        for _ in range(50):  # the receiver's reader reconnects and subscribes again
            if _redis(redis_port, "pubsub", "numsub", "ttt__group__game-1").stdout.split()[-1:] == ["1"]:
                break
            await asyncio.sleep(0.1)
        await sender.group_send("game-1", {"type": "game.update", "ply": 2})
        heard.append(await asyncio.wait_for(receiver.receive(channel), 5))
        await sender.flush()
        await receiver.flush()
        return heard

    servers = [subprocess.Popen(redis_command, stdout=subprocess.DEVNULL)]
    try:
        wait_for_port(redis_port, process=servers[0])
        assert [m["ply"] for m in asyncio.run(restart_between_sends())] == [1, 2]
    finally:
        for server in servers:
            server.kill()
            server.wait()


def test_a_channel_let_go_while_redis_is_away_is_unsubscribed_once_it_is_back(tmp_path):
    """Found by a probe: sockets opened before an outage and closed during it stayed
    subscribed for good once Redis was back (their unsubscribe went nowhere, and
    redis-py's reconnect subscribes again whatever its pub/sub held), so PUBSUB NUMSUB
    called the closed sockets alive. The layer as configured, against a Redis of the
    test's own."""
    redis_port = free_port()
    redis_command = ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no",
                     "--dir", str(tmp_path)]
    host = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0], "address": f"redis://127.0.0.1:{redis_port}/0"}

    def subscribers(*names: str) -> list[str]:
        return _redis(redis_port, "pubsub", "numsub", *names).stdout.split()[1::2]

    async def close_during_outage() -> list[str]:
        layer = BoundedRedisChannelLayer(hosts=[host])
        kept, gone = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(gone))  # a socket's consumer, waiting
        await asyncio.sleep(0.2)
        _redis(redis_port, "shutdown", "nosave")
        await asyncio.sleep(1)  # the layer's reader finds Redis gone
        waiting.cancel()  # the socket closes during the outage
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        servers.append(subprocess.Popen(redis_command, stdout=subprocess.DEVNULL))
        wait_for_port(redis_port, process=servers[-1])
        counts = subscribers(kept, gone)
        for _ in range(100):  # the reader reconnects (subscribing both again), the catch-up lets go
            await asyncio.sleep(0.1)
            counts = subscribers(kept, gone)
            if counts == ["1", "0"]:
                break
        await layer.flush()
        return counts

    servers = [subprocess.Popen(redis_command, stdout=subprocess.DEVNULL)]
    try:
        wait_for_port(redis_port, process=servers[0])
        assert asyncio.run(close_during_outage()) == ["1", "0"]
    finally:
        for server in servers:
            server.kill()
            server.wait()
