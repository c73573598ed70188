"""games/workers.py: what a database worker process runs for a socket, and what it hands
back to the server (result, refusal, broadcasts), called here in-process. The worker
processes themselves, and one killed mid-game, are in test_live_e2e.py."""

from __future__ import annotations

import pickle
from datetime import timedelta

import pytest
from django.db.models import F

from accounts.errors import ServiceError
from games import consumers, rule_sets, workers
from games.models import Game, Move
from games.observing import WatchRefusal
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)


def started(p0, p1, **kwargs) -> int:
    return GameFactory.create(creator=p0, opponent=p1, **kwargs).pk


def crossed(value):
    """``value`` as the server gets it back from a worker: pickled and unpickled."""
    return pickle.loads(pickle.dumps(value))


def in_worker(func, kwargs):
    """``workers.run`` as a worker runs it: (its outcome, its live messages), each as the
    server gets it over the pipe."""
    handed = []
    outcome = workers.run(func, kwargs, lambda group, message: handed.append(crossed((group, message))))
    return crossed(outcome), handed


def test_a_move_returns_its_ply_and_its_broadcast_instead_of_sending_it(make_player, monkeypatch):
    p0, p1 = make_player(), make_player()
    game_id = started(p0, p1)
    sent = []  # anything the worker tried to send itself
    monkeypatch.setattr("games.realtime.get_channel_layer", lambda: sent.append("layer"))
    (result, error), handed = in_worker(consumers._play, {"game_id": game_id, "user": p0, "ply": 0, "move": {"cell": 5}})
    assert (result, error) == (1, None)
    assert [(group, m["type"], m["ply"]) for group, m in handed] == [(f"game-{game_id}", "game.update", 1)]
    assert sent == []  # collected, not sent: the server sends it
    assert Move.objects.filter(game_id=game_id, ply=1).exists()


def test_a_last_move_hands_over_the_update_before_the_end_notices(make_player, monkeypatch):
    """The move that ends a game: its update crosses first, then each player's notice
    push, all to the server (none sent from the worker itself), so the screens are not
    kept waiting for the notices (games/workers.py)."""
    p0, p1 = make_player(), make_player()
    game_id = started(p0, p1)
    for ply, (player, cell) in enumerate([(p0, 1), (p1, 4), (p0, 2), (p1, 5)]):
        in_worker(consumers._play, {"game_id": game_id, "user": player, "ply": ply, "move": {"cell": cell}})
    sent = []  # anything the worker tried to send itself
    monkeypatch.setattr("accounts.broadcast.get_channel_layer", lambda: sent.append("layer"))
    monkeypatch.setattr("games.realtime.get_channel_layer", lambda: sent.append("layer"))
    (result, error), handed = in_worker(consumers._play, {"game_id": game_id, "user": p0, "ply": 4, "move": {"cell": 3}})
    assert (result, error) == (5, None) and Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    assert handed[0][0] == f"game-{game_id}" and handed[0][1]["status"] == "finished"
    notices = [(group, message["type"]) for group, message in handed[1:]]
    assert sorted(notices) == sorted((f"user-{p.pk}", "user.notice") for p in (p0, p1))
    assert sent == []


def test_a_refusal_comes_back_as_a_value_with_what_was_committed_before_it(make_player):
    """A move on an expired clock: the time-out is committed and broadcast, then the move
    is refused. Both must reach the server."""
    rules = rule_sets.create_rule_set(name="Blitz", variant="classic", seconds_per_move=5)
    p0, p1 = make_player(), make_player()
    game_id = started(p0, p1, variant=None, rule_set=rules)
    Game.objects.filter(pk=game_id).update(turn_started_at=F("turn_started_at") - timedelta(hours=1))
    (result, error), handed = in_worker(consumers._play, {"game_id": game_id, "user": p0, "ply": 0, "move": {"cell": 5}})
    assert result is None and isinstance(error, ServiceError) and error.code == "time-out"
    assert error.message == "Time ran out; the game is over."
    assert [m["type"] for group, m in handed if group == f"game-{game_id}"] == ["game.update"]
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    assert not Move.objects.filter(game_id=game_id).exists()


def test_a_refused_move_changes_nothing_and_sends_nothing(make_player):
    p0, p1 = make_player(), make_player()
    game_id = started(p0, p1)
    (result, error), handed = in_worker(consumers._play, {"game_id": game_id, "user": p1, "ply": 0, "move": {"cell": 5}})
    assert result is None and error.code == "not-your-turn" and handed == []
    assert not Move.objects.filter(game_id=game_id).exists()


def test_a_connect_state_frame_and_a_refusal_cross_intact(make_player):
    p0, p1 = make_player(), make_player()
    game_id = started(p0, p1)
    ((state, refusal), error), handed = in_worker(consumers._open, {"game_id": game_id, "user": p0, "channel_name": "test.one"})
    assert refusal is None and error is None and handed == []
    assert state.seat == 0 and state.status == "active"
    assert state.frame["type"] == "state" and state.frame["game"]["you"] == 0 and state.frame["note"] == ""
    ((state, refusal), _), _ = in_worker(consumers._open, {"game_id": 10**9, "user": p0, "channel_name": "test.two"})
    assert state is None and refusal == WatchRefusal("no-such-game", "There is no such game.", 4404)


def test_service_errors_pickle_with_their_code():
    err = crossed(ServiceError("stale-ply", "The game is at ply 3."))
    assert (err.code, err.message, str(err)) == ("stale-ply", "The game is at ply 3.", "The game is at ply 3.")


# -- the pool itself, with real worker processes (calls that touch no database) ------------------


def pause_then_answer(*, seconds: float, answer: str) -> str:
    import time

    time.sleep(seconds)
    return answer


def refuse(**kwargs) -> None:
    raise ServiceError("no-way", "Refused in the worker.")


def announce(*, seconds: float = 0.0) -> str:
    import time

    from games import realtime

    realtime.send_to_game(7, {"type": "game.test"})  # as a service's on_commit does
    time.sleep(seconds)  # what follows it in the call: a finished game's notices, say
    return "announced"


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
async def test_moves_jump_the_queue_refusals_cross_and_a_dead_worker_is_replaced(monkeypatch):
    import asyncio
    import os
    import signal

    pool = workers.Workers(1)
    pool.start()
    pool.attach(asyncio.get_running_loop())
    try:
        for _ in range(600):  # a spawned worker sets Django up first
            if pool.workers[0].ready:
                break
            await asyncio.sleep(0.1)
        finished: list[str] = []

        async def run(lane: str, answer: str, seconds: float = 0.0) -> None:
            finished.append(await pool.submit(lane, pause_then_answer, {"seconds": seconds, "answer": answer}))

        first = asyncio.create_task(run(workers.SOCKETS, "connect-1", 0.5))
        await asyncio.sleep(0.05)
        waiting = [
            asyncio.create_task(run(workers.SOCKETS, "connect-2")),
            asyncio.create_task(run(workers.MOVES, "move")),
        ]
        await asyncio.wait_for(asyncio.gather(first, *waiting), timeout=60)
        assert finished == ["connect-1", "move", "connect-2"]  # the move went before the waiting connect

        with pytest.raises(ServiceError) as refused:
            await pool.submit(workers.MOVES, refuse, {})
        assert refused.value.code == "no-way"

        # A worker's live messages are sent by the server as soon as each crosses, before
        # the call ends, and the caller is answered after them; one that cannot be sent
        # is logged, and the caller is answered all the same.
        sent = []

        async def send(group, message):
            sent.append((group, message))

        monkeypatch.setattr("games.realtime.send_to_group_async", send)
        call = asyncio.ensure_future(pool.submit(workers.MOVES, announce, {"seconds": 1.0}))
        for _ in range(90):
            if sent:
                break
            await asyncio.sleep(0.01)
        assert sent == [("game-7", {"type": "game.test"})] and not call.done()  # sent while the call runs
        assert await asyncio.wait_for(call, 10) == "announced"

        async def fail(group, message):
            raise ConnectionError("Redis is gone")

        monkeypatch.setattr("games.realtime.send_to_group_async", fail)
        assert await asyncio.wait_for(pool.submit(workers.MOVES, announce, {}), 10) == "announced"

        (worker,) = pool.workers
        held = pool.submit(workers.MOVES, pause_then_answer, {"seconds": 30, "answer": "never"})
        await asyncio.sleep(0.3)
        os.kill(worker.process.pid, signal.SIGKILL)
        with pytest.raises(workers.WorkerDied):
            await asyncio.wait_for(held, timeout=10)
        (replacement,) = pool.workers
        assert replacement is not worker
        assert await asyncio.wait_for(pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": "on"}), 60) == "on"

        # A worker stopped mid-call (SIGSTOP: alive, silent) is killed once the call
        # outlasts CALL_SECONDS, and its caller told as for one that died.
        monkeypatch.setattr(workers, "CALL_SECONDS", 1.0)
        (stuck,) = pool.workers
        held = pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0.5, "answer": "stuck"})
        await asyncio.sleep(0.1)
        os.kill(stuck.process.pid, signal.SIGSTOP)
        with pytest.raises(workers.WorkerDied):
            await asyncio.wait_for(held, timeout=10)
        (replacement,) = pool.workers
        assert replacement is not stuck and not stuck.process.is_alive()
        # A fresh process's first call (imports, a connection) can take over 1 s on a loaded
        # machine: made under the usual limit, so the check below is of a warm worker.
        monkeypatch.setattr(workers, "CALL_SECONDS", 30.0)
        warm = pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": "warm"})
        assert await asyncio.wait_for(warm, 60) == "warm"
        monkeypatch.setattr(workers, "CALL_SECONDS", 1.0)
        quick = pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": "on"})
        assert await asyncio.wait_for(quick, 60) == "on"
        await asyncio.sleep(1.5)  # past the deadline of the call that finished: nothing is killed
        assert pool.workers == [replacement] and replacement.process.is_alive()
    finally:
        pool.stop()
    assert not replacement.process.is_alive()


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_an_answer_longer_than_the_pipe_buffer_crosses_under_uvloop():
    """The servers run on uvloop, whose add_reader makes the pipe non-blocking: an answer
    over the pipe's 64 KB buffer (a finished T-Tic-T-Tac-Toe game's broadcast) arrives in
    parts, and must be read whole, not taken for a dead worker."""
    import asyncio

    uvloop = pytest.importorskip("uvloop")
    long = "x" * 1_000_000

    async def main() -> None:
        pool = workers.Workers(1)
        pool.start()
        pool.attach(asyncio.get_running_loop())
        try:
            for _ in range(600):
                if pool.workers[0].ready:
                    break
                await asyncio.sleep(0.1)
            (worker,) = pool.workers
            answer = await asyncio.wait_for(
                pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": long}), 60
            )
            assert answer == long and pool.workers == [worker]
        finally:
            pool.stop()

    uvloop.run(main())


# -- a call whose arguments cannot cross the pipe ------------------------------------------

#: 900 levels deep: JSON the websocket's reader takes (tests/games/test_socket_limits.py),
#: far deeper than the pickler's recursion limit.
DEEP_MOVE: dict = {"cell": [[[]]]}
for _ in range(450):
    DEEP_MOVE = {"cell": [DEEP_MOVE]}


def idle_pool(loop):
    """A pool with one idle worker that reads nothing: its pipe's other end, held by the
    test (no process is started: the calls here must never reach a worker)."""
    import multiprocessing

    ours, theirs = multiprocessing.Pipe()
    pool = workers.Workers(0)
    pool.loop = loop
    pool.workers.append(workers._Worker(process=None, conn=ours, started=None, ready=True))
    return pool, theirs


@pytest.mark.django_db(transaction=False)
async def test_a_call_too_deep_to_pickle_is_the_callers_to_answer_and_the_pool_goes_on():
    """Pickled when submitted, in the caller's turn: it used to be pickled in _dispatch,
    where its RecursionError went up into the game consumer (the socket died without a
    close frame, an ASGI traceback in the server's log) or, when it waited behind a
    busy worker, into the loop's reader callback, its caller left waiting for ever."""
    import asyncio

    pool, theirs = idle_pool(asyncio.get_running_loop())
    with pytest.raises(workers.CannotCross):
        pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": DEEP_MOVE})
    assert not pool.waiting[workers.MOVES] and pool.workers[0].busy is None
    assert not theirs.poll()  # nothing was written down the pipe
    pool.submit(workers.MOVES, pause_then_answer, {"seconds": 0, "answer": "next"})
    assert theirs.recv() == (pause_then_answer, {"seconds": 0, "answer": "next"})  # the next call goes


async def test_a_move_too_deep_for_the_workers_is_refused_as_the_engine_refuses_it(make_player, monkeypatch):
    """With LIVE_DB_PROCESSES (PostgreSQL's default), a game socket's move nested 900
    levels deep is run on Channels' thread instead, and refused ``malformed-move`` as on
    the embedded runtime; nothing is stored."""
    import asyncio

    from asgiref.sync import sync_to_async

    from games import database

    p0, p1 = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    game_id = await sync_to_async(started)(p0, p1)
    pool, theirs = idle_pool(asyncio.get_running_loop())
    monkeypatch.setattr(workers, "_running_workers", lambda: pool)
    try:
        with pytest.raises(ServiceError) as refused:
            await database.InWorkerProcesses().run(
                consumers._play, workers.MOVES, {"game_id": game_id, "user": p0, "ply": 0, "move": DEEP_MOVE}
            )
        assert refused.value.code == "malformed-move"
        assert not theirs.poll()
        assert not await Move.objects.filter(game_id=game_id).aexists()
    finally:  # the call's connection, on Channels' thread: else the test database cannot be dropped
        from django.db import connections

        await sync_to_async(connections.close_all)()


#: A worker whose server is gone (the watch's parent pid is nobody's) while a call runs:
#: the call prints when it ends; the worker then leaves at once.
ORPHAN_MID_CALL = """
import threading, time, django
django.setup()
from games import workers
idle = threading.Event()  # a call is running
threading.Thread(target=workers._exit_with_parent, args=(-1, idle), daemon=True).start()
time.sleep(1.5)  # the call, still going though its server is gone
print("call ended", flush=True)
idle.set()
time.sleep(60)
print("still here", flush=True)
"""


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_a_worker_whose_server_died_leaves_after_its_call_not_during_it():
    """Cut off between its commit and its on-commit hooks, a game's last move lost its
    result and rating tasks (a chaos probe): the watch waits for the call in hand."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", ORPHAN_MID_CALL], capture_output=True, text=True, timeout=50,
                          env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    assert done.stdout == "call ended\n"


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_a_worker_whose_server_stopped_while_it_started_leaves_without_a_traceback():
    """A server stopped (or killed) while its workers still set Django up: each then found
    the pipe closed as it said "ready", and died on the BrokenPipeError with a traceback
    in the server's log (a chaos probe restarting a server). It leaves quietly instead."""
    import multiprocessing
    import os

    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    started = context.RawValue("b", 0)  # kept: the child unpickles it after start() returns
    process = context.Process(target=workers._worker_main, args=(theirs, os.getpid(), started), daemon=True)
    process.start()
    theirs.close()
    ours.close()  # the server is gone before the worker is ready
    process.join(60)
    assert process.exitcode == 0

