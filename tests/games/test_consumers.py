"""The game websocket through Channels' communicator and the real ASGI stack (origin
check, session and token auth, the SafeJsonConsumer frame checks), the real services
and the real channel layer of the runtime (in-process, or Redis with REDIS_URL)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import database
from tests.sockets import HOST, ORIGIN, Socket, players, started_game, started_game_sync, token_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("channel_layers_fresh", "observer_counts_sent"),
]

def verify_commitment(entry: dict[str, Any]) -> bool:
    """sha256(canonical move JSON + nonce) == commitment, recomputed here, not by services."""
    canonical = json.dumps(entry["move"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((canonical + entry["nonce"]).encode()).hexdigest() == entry["commitment"]


def contains(value: Any, needle: Any) -> bool:
    """Whether ``needle`` occurs anywhere inside a JSON value (as a value, a key's value
    or a list element)."""
    if value == needle:
        return True
    if isinstance(value, dict):
        return any(contains(v, needle) for v in value.values())
    if isinstance(value, list):
        return any(contains(v, needle) for v in value)
    return False


@database_sync_to_async
def db_snapshot(game_id: int) -> dict[str, Any]:
    """Everything a refused frame must leave alone."""
    from games.models import Game, Move, PrivateNote

    game = Game.objects.get(pk=game_id)
    return {
        "game": (game.ply, game.status, game.state, game.to_move, game.result, game.turn_started_at),
        "moves": list(
            Move.objects.filter(game_id=game_id).order_by("ply").values_list("ply", "seat", "move")
        ),
        "notes": list(PrivateNote.objects.filter(game_id=game_id).values_list("author_id", "text")),
        "all_moves": Move.objects.count(),
    }


@database_sync_to_async
def stored_moves(game_id: int) -> list[tuple[int, int, Any]]:
    from games.models import Move

    return list(Move.objects.filter(game_id=game_id).order_by("ply").values_list("ply", "seat", "move"))


@database_sync_to_async
def observer_rows(game_id: int) -> int:
    from games.models import Observer

    return Observer.objects.filter(game_id=game_id).count()


# -- a whole game ---------------------------------------------------------------------


async def test_a_full_classic_game_between_two_players_and_an_observer(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, state0 = await Socket.open(game_id, p0)
    s1, state1 = await Socket.open(game_id, p1)
    watcher, state_w = await Socket.open(game_id)  # anonymous
    for state, seat in ((state0, 0), (state1, 1), (state_w, None)):
        assert state["type"] == "state" and state["ply"] == 0
        assert state["game"]["you"] == seat and state["view"] == state["game"]["view"]
        assert state["game"]["status"] == "active"
    assert state_w["observers"] == 1 and "note" not in state_w and state0["note"] == ""

    sockets = {0: s0, 1: s1}
    cells = [1, 4, 2, 5, 3]  # X completes the top row on the fifth move
    for ply, cell in enumerate(cells):
        seat = ply % 2
        await sockets[seat].send({"type": "move", "ply": ply, "move": {"cell": cell}})
        assert await sockets[seat].recv_type("ack") == {"type": "ack", "ply": ply + 1}
        for viewer, sock in ((0, s0), (1, s1), (None, watcher)):
            update = await sock.recv_type("update")
            assert update["ply"] == ply + 1 and update["game"]["you"] == viewer
            assert update["view"] == update["game"]["view"]
            assert update["game"]["moves"][-1]["move"] == {"cell": cell}
    final = update["game"]
    assert final["status"] == "finished" and final["result"]["winner"] == 0
    assert [m[2] for m in await stored_moves(game_id)] == [{"cell": c} for c in cells]

    # A move after the end is refused with a code; nothing more is stored.
    await s1.send({"type": "move", "ply": 5, "move": {"cell": 9}})
    assert (await s1.recv_type("error"))["code"] == "game-over"
    assert len(await stored_moves(game_id)) == 5

    # A reconnecting client resyncs: the whole state on connect, and on "sync".
    await s1.close()
    s1, again = await Socket.open(game_id, p1)
    assert again["type"] == "state" and again["ply"] == 5 and again["game"]["result"]["winner"] == 0
    await s1.send({"type": "sync"})
    assert (await s1.recv_type("state"))["ply"] == 5
    for sock in (s0, s1, watcher):
        await sock.close()


async def test_illegal_moves_get_the_engines_code(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    await s1.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    assert (await s1.recv_type("error"))["code"] == "not-your-turn"
    await s0.send({"type": "move", "ply": 0, "move": {"cell": 10}})
    assert (await s0.recv_type("error"))["code"] == "out-of-range"
    await s0.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    await s0.recv_type("ack")
    await s1.recv_type("update")
    await s1.send({"type": "move", "ply": 1, "move": {"cell": 5}})
    error = await s1.recv_type("error")
    assert error["code"] == "occupied" and error["message"]
    assert await stored_moves(game_id) == [(1, 0, {"cell": 5})]
    for sock in (s0, s1):
        await sock.close()


async def test_a_stale_ply_is_refused_with_the_state_and_never_applied_twice(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    move = {"type": "move", "ply": 0, "move": {"cell": 1}}
    await s0.send(move)
    assert (await s0.recv_type("ack"))["ply"] == 1
    await s0.recv_type("update")
    # The same frame again (a client retrying after a lost ack): refused, then the state.
    await s0.send(move)
    error = await s0.recv_type("error")
    assert error["code"] == "stale-ply"
    state = await s0.recv_type("state")
    assert state["ply"] == 1 and state["game"]["moves"][0]["move"] == {"cell": 1}
    # Seat 1 moving for a ply it has not caught up with: refused too.
    await s1.recv_type("update")
    await s1.send({"type": "move", "ply": 0, "move": {"cell": 2}})
    assert (await s1.recv_type("error"))["code"] == "stale-ply"
    assert (await s1.recv_type("state"))["ply"] == 1
    # A ply from the future is no better.
    await s1.send({"type": "move", "ply": 7, "move": {"cell": 2}})
    assert (await s1.recv_type("error"))["code"] == "stale-ply"
    await s1.recv_type("state")
    assert await stored_moves(game_id) == [(1, 0, {"cell": 1})]
    assert await s0.drain() == []  # and no broadcast for what was refused
    for sock in (s0, s1):
        await sock.close()


async def test_a_duplicate_gets_stale_ply_and_the_state_also_when_the_stored_move_ended_the_game(make_player):
    """A client resending a move that was stored (a racing duplicate, or a retry after a
    lost ack) gets one answer whatever that move did: ``stale-ply``, then the state."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    sockets = {0: s0, 1: s1}
    cells = [1, 4, 2, 5, 3]  # the fifth move wins the game
    for ply, cell in enumerate(cells):
        move = {"type": "move", "ply": ply, "move": {"cell": cell}}
        await sockets[ply % 2].send(move)
        assert (await sockets[ply % 2].recv_type("ack"))["ply"] == ply + 1
        for sock in (s0, s1):
            await sock.recv_type("update")
        await sockets[ply % 2].send(move)  # its duplicate
        assert (await sockets[ply % 2].recv_type("error"))["code"] == "stale-ply"
        state = await sockets[ply % 2].recv_type("state")
        assert state["ply"] == ply + 1
    assert state["game"]["status"] == "finished"
    # A move for the current ply of a finished game is no duplicate: the game is over.
    await s1.send({"type": "move", "ply": 5, "move": {"cell": 9}})
    assert (await s1.recv_type("error"))["code"] == "game-over"
    assert len(await stored_moves(game_id)) == 5
    for sock in (s0, s1):
        await sock.close()


async def test_a_socket_behind_the_database_gets_the_state_by_itself(make_player):
    """A change stored but never broadcast (here its broadcasts are collected and thrown
    away, as a server killed after the commit would lose them): every socket gets the
    state within the bound of games/resync.py without sending anything. A resignation
    changes the status, not the ply, and is caught up with too."""
    from accounts import broadcast
    from games import resync, services

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    watcher, _ = await Socket.open(game_id)

    def unannounced(service: Any, **kwargs: Any) -> None:
        with broadcast.collecting():  # the broadcasts go nowhere
            service(game_id=game_id, **kwargs)

    bound = 2 * resync.CHECK_SECONDS + 1  # two checks and a state, with room for a busy machine
    for change, expected in (
        (lambda: unannounced(services.submit_move, user=p0, ply=0, move={"cell": 5}), (1, "active")),
        (lambda: unannounced(services.resign, user=p1), (1, "finished")),
    ):
        await database_sync_to_async(change)()
        started = asyncio.get_running_loop().time()
        for sock in (s0, s1, watcher):
            state = await sock.recv_type("state", timeout=bound)
            assert (state["ply"], state["game"]["status"]) == expected
        assert asyncio.get_running_loop().time() - started < bound
    # Caught up: no more states.
    await asyncio.sleep(2 * resync.CHECK_SECONDS)
    for sock in (s0, s1, watcher):
        assert await sock.drain() == []
        await sock.close()


async def test_sockets_that_heard_every_change_get_no_extra_state(make_player):
    """The checks only resync a socket that is behind: a game whose broadcasts all arrive
    gets none (a check that resynced every socket a move had not yet reached would send
    states all the time on a busy server)."""
    from games import resync

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    sockets = {0: s0, 1: s1}
    for ply, cell in enumerate([1, 4, 2]):
        await sockets[ply % 2].send({"type": "move", "ply": ply, "move": {"cell": cell}})
        await asyncio.sleep(resync.CHECK_SECONDS * 0.7)  # moves across several checks
    await asyncio.sleep(2 * resync.CHECK_SECONDS)
    for sock in (s0, s1):
        assert "state" not in [frame["type"] for frame in await sock.drain()]
        await sock.close()


async def test_observers_are_refused_anything_but_watching(make_player):
    p0, p1, outsider = await players(make_player, 3)
    game_id = await started_game(p0, p1)
    before = await db_snapshot(game_id)
    signed_in, state = await Socket.open(game_id, outsider)
    anonymous, _ = await Socket.open(game_id)
    assert state["game"]["you"] is None
    for sock in (signed_in, anonymous):
        for frame in (
            {"type": "move", "ply": 0, "move": {"cell": 5}},
            {"type": "resign"},
            {"type": "claim-timeout"},
            {"type": "note", "text": "I think X wins"},
        ):
            await sock.send(frame)
            assert (await sock.recv_type("error"))["code"] == "not-a-player", frame
    assert await db_snapshot(game_id) == before
    for sock in (signed_in, anonymous):
        await sock.send({"type": "ping"})  # the page's check that a quiet socket's server is there
        assert await sock.recv_type("pong") == {"type": "pong"}
    assert await db_snapshot(game_id) == before
    for sock in (signed_in, anonymous):
        await sock.close()


async def test_observer_rows_follow_the_sockets_and_the_count_is_shared(make_player):
    p0, p1, fan = await players(make_player, 3)
    game_id = await started_game(p0, p1)
    s0, state0 = await Socket.open(game_id, p0)
    assert state0["observers"] == 0 and await observer_rows(game_id) == 0  # players are not observers
    w1, state1 = await Socket.open(game_id, fan)
    assert state1["observers"] == 1
    assert await s0.recv_type("observers") == {"type": "observers", "count": 1}
    w2, state2 = await Socket.open(game_id)
    assert state2["observers"] == 2 and await observer_rows(game_id) == 2
    assert (await s0.recv_type("observers"))["count"] == 2
    await w1.close()
    assert (await s0.recv_type("observers"))["count"] == 1
    assert await observer_rows(game_id) == 1
    await w2.close()
    assert (await s0.recv_type("observers"))["count"] == 0
    assert await observer_rows(game_id) == 0
    await s0.close()


async def test_unknown_game_gets_an_error_then_the_socket_closes(make_player):
    (p0,) = await players(make_player, 1)
    sock, frame = await Socket.open(999_999, p0)
    assert frame["type"] == "error" and frame["code"] == "no-such-game"
    closed = await sock.ws.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    assert await observer_rows(999_999) == 0


async def test_session_and_token_authentication_seat_the_user(make_player):
    from django.test import Client

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    client = Client()
    await sync_to_async(client.force_login)(p1)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    browser, state = await Socket.open(game_id, headers=[(b"cookie", cookie)])
    assert state["game"]["you"] == 1  # the session's user
    bot, state = await Socket.open(game_id, p0)
    assert state["game"]["you"] == 0  # the token's user
    bad, frame = await Socket.open(game_id, headers=[(b"authorization", b"Token not-a-real-token")])
    assert frame["code"] == "bad-token"  # refused, as REST refuses it, not seated as an observer
    assert (await bad.ws.receive_output())["code"] == 4401
    anonymous, state = await Socket.open(game_id)
    assert state["game"]["you"] is None  # no token: watches, anonymous
    stale, state = await Socket.open(game_id, headers=[(b"cookie", b"sessionid=no-such-session")])
    assert state["game"]["you"] is None  # so does an unknown session
    await stale.close()
    await bot.send({"type": "move", "ply": 0, "move": {"cell": 9}})
    assert (await bot.recv_type("ack"))["ply"] == 1
    await browser.recv_type("update")
    await browser.send({"type": "move", "ply": 1, "move": {"cell": 1}})
    assert (await browser.recv_type("ack"))["ply"] == 2
    await anonymous.send({"type": "move", "ply": 2, "move": {"cell": 2}})
    assert (await anonymous.recv_type("error", skip=("observers", "update")))["code"] == "not-a-player"
    assert [m[:2] for m in await stored_moves(game_id)] == [(1, 0), (2, 1)]
    for sock in (browser, bot, anonymous):
        await sock.close()


async def test_a_crowd_of_observers_is_announced_once_with_the_newest_count(make_player, monkeypatch):
    """games.consumers.ObserverCounts: observers arriving together make one "observers"
    frame for everyone, not one each, with the count when it is sent; a later change
    makes another."""
    monkeypatch.setattr("games.consumers.OBSERVER_COUNT_SECONDS", 1.0)
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    crowd = [await Socket.open(game_id) for _ in range(3)]  # well within the wait
    assert [state["observers"] for _, state in crowd] == [1, 2, 3]
    assert await s0.drain(1.5) == [{"type": "observers", "count": 3}]
    await crowd[0][0].close()
    assert await s0.drain(1.5) == [{"type": "observers", "count": 2}]
    for sock in (s0, *(sock for sock, _ in crowd[1:])):
        await sock.close()


async def test_notes_reach_only_their_authors_sockets(make_player):
    p0, p1, fan = await players(make_player, 3)
    game_id = await started_game(p0, p1)
    tab1, _ = await Socket.open(game_id, p0)
    tab2, _ = await Socket.open(game_id, p0)
    other, _ = await Socket.open(game_id, p1)
    watcher, _ = await Socket.open(game_id, fan)
    await tab1.send({"type": "note", "text": "Take the centre, then a corner."})
    for tab in (tab1, tab2):
        assert await tab.recv_type("note") == {"type": "note", "text": "Take the centre, then a corner."}
    others = await other.drain() + await watcher.drain()
    assert not contains(others, "Take the centre, then a corner.")
    assert all(frame["type"] == "observers" for frame in others)
    # The note comes back with the author's state, and only theirs.
    again, state = await Socket.open(game_id, p0)
    assert state["note"] == "Take the centre, then a corner."
    await other.send({"type": "sync"})
    assert (await other.recv_type("state"))["note"] == ""
    await watcher.send({"type": "sync"})
    assert "note" not in await watcher.recv_type("state")
    # Saved over REST (or by the page's form), it reaches the author's open tabs alike
    # (it did not: only a note sent over a socket did; attacker probe).
    from rest_framework.test import APIClient

    def put_note() -> int:
        client = APIClient()
        client.force_authenticate(p0)
        return client.put(f"/api/v1/games/{game_id}/note/", {"text": "Corners first."}, format="json").status_code

    assert await sync_to_async(put_note)() == 200
    for tab in (tab1, tab2, again):
        assert await tab.recv_type("note") == {"type": "note", "text": "Corners first."}
    assert not contains(await other.drain() + await watcher.drain(), "Corners first.")
    for sock in (tab1, tab2, other, watcher, again):
        await sock.close()


@pytest.mark.parametrize("text", ["x\x00y", "\ud800"])
async def test_a_note_no_database_or_socket_can_carry_is_refused_and_the_socket_stays(make_player, text):
    """A NUL or a lone surrogate (sent as a JSON escape): the service refuses it as the
    HTTP note does, so nothing is stored and the socket answers instead of crashing."""
    from games.models import PrivateNote

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    await sock.send({"type": "note", "text": text})
    assert (await sock.recv_type("error"))["code"] == "bad-note"
    assert not await database_sync_to_async(PrivateNote.objects.exists)()
    await sock.send({"type": "note", "text": "still here"})
    assert await sock.recv_type("note") == {"type": "note", "text": "still here"}
    await sock.close()


async def test_resign_and_claim_timeout_go_through_the_services(make_player):
    from django.db.models import F

    from games import rule_sets
    from games.models import Game

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    await s1.send({"type": "claim-timeout"})
    assert (await s1.recv_type("error"))["code"] == "no-time-out"
    await s0.send({"type": "resign"})
    assert await s0.recv_type("ack") == {"type": "ack", "ply": 0, "for": "resign"}
    update = await s1.recv_type("update")
    assert update["game"]["status"] == "finished" and update["game"]["result"]["winner"] == 1

    # A clock that ran out: the waiting player claims it.
    rules = await database_sync_to_async(rule_sets.create_rule_set)(
        name="Blitz", variant="classic", seconds_per_move=5
    )
    timed = await started_game(p0, p1, variant=None, rule_set=rules)
    t0, _ = await Socket.open(timed, p0)
    t1, _ = await Socket.open(timed, p1)
    await t1.send({"type": "claim-timeout"})
    assert (await t1.recv_type("error"))["code"] == "no-time-out"
    # The test's clock: player one's turn (and the no-show grace) began long ago.
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=timed).update(
            turn_started_at=F("turn_started_at") - timedelta(hours=1)
        )
    )()
    await t1.send({"type": "claim-timeout"})
    assert (await t1.recv_type("ack"))["for"] == "claim-timeout"
    update = await t0.recv_type("update")
    assert update["game"]["result"]["winner"] == 1 and "Player 1" in update["game"]["result"]["reason"]
    for sock in (s0, s1, t0, t1):
        await sock.close()


async def test_an_observer_who_accepts_the_open_challenge_starts_seeing_as_a_player(make_player):
    from games import services

    p0, p1 = await players(make_player)
    game = await database_sync_to_async(services.create_game)(creator=p0, variant="classic")
    watcher, state = await Socket.open(game.pk, p1)
    assert state["game"]["you"] is None and await observer_rows(game.pk) == 1
    await database_sync_to_async(services.accept_challenge)(game_id=game.pk, user=p1)
    update = await watcher.recv_type("update")
    assert update["game"]["you"] == 1 and update["game"]["status"] == "active"
    assert await observer_rows(game.pk) == 0
    await watcher.close()


async def test_sockets_open_before_the_accept_follow_the_seats_drawn_at_the_start(make_player, monkeypatch):
    """A coin decides Player One when the challenge is accepted (games/starting.py,
    draw_at_start), here against the challenger: the sockets both players opened on the
    challenge were seated as it was made; they must see, and act, as the seats drawn
    (an outside probe found the maker's socket still seat 0, shown the other's secret
    plan on Tactic-Toe, and told "Your move." when it was not)."""
    from games import rule_sets, services, starting
    from games.models import RuleSet

    p0, p1 = await players(make_player)
    coin = await database_sync_to_async(rule_sets.create_rule_set)(
        name="Coin", variant="tactic-toe", decider=RuleSet.Decider.COIN, created_by=p0)
    monkeypatch.setattr(starting, "player_one_draw", lambda seed: 0)  # the maker sits as Player One...
    game = await database_sync_to_async(services.create_game)(creator=p0, rule_set=coin, opponent=p1)
    monkeypatch.setattr(starting, "player_one_draw", lambda seed: 1)  # ... and draws Player Two at the start
    maker, state = await Socket.open(game.pk, p0)
    assert state["game"]["you"] == 0  # as the challenge was made
    page, _ = await Socket.open(game.pk, p0, path=board_path(game.pk))
    other, state = await Socket.open(game.pk, p1)
    assert state["game"]["you"] == 1
    await database_sync_to_async(services.accept_challenge)(game_id=game.pk, user=p1)
    assert (await maker.recv_type("update"))["game"]["you"] == 1
    assert (await other.recv_type("update"))["game"]["you"] == 0
    cards = assert_board_frame(await page.recv_type("update"), "update", 0, "active").split('<li class="player')
    assert "(you)" in cards[2] and "(you)" not in cards[1]  # the page's board seats the maker as Player Two
    await other.send({"type": "move", "ply": 0, "move": {"plan": [1, 2, 6]}})
    await other.recv_type("ack")
    for sock in (maker, page):
        update = await sock.recv_type("update")
        assert "1, 2, 6" not in json.dumps(update), update
        await sock.send({"type": "sync"})
        assert "1, 2, 6" not in json.dumps(await sock.recv_type("state"))
    await maker.send({"type": "sync"})
    assert (await maker.recv_type("state"))["game"]["you"] == 1
    for sock in (maker, page, other):
        await sock.close()


# -- board mode: the rendered board instead of the payload ------------------------------

BOARD_FRAME_KEYS = {"type", "ply", "status", "board"}


def board_path(game_id: int) -> str:
    """The game page's socket (its #game-page data-socket)."""
    return f"/ws/games/{game_id}/?board=html"


def assert_board_frame(frame: dict[str, Any], kind: str, ply: int, status: str) -> str:
    """A board frame's fields, and its board: the partial's element at that ply."""
    extra = {"state": {"observers", "note"}, "update": set()}[kind]
    assert frame["type"] == kind and BOARD_FRAME_KEYS <= set(frame) <= BOARD_FRAME_KEYS | extra, frame
    assert (frame["ply"], frame["status"]) == (ply, status)
    board = frame["board"]
    assert board.startswith('<div id="board"') and f'data-ply="{ply}"' in board and board.endswith("</div>")
    return str(board)


async def test_board_mode_sockets_get_each_viewers_board_and_json_sockets_keep_the_payload(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, state0 = await Socket.open(game_id, p0, path=board_path(game_id))
    s1, state1 = await Socket.open(game_id, p1, path=board_path(game_id))
    watcher, state_w = await Socket.open(game_id, path=board_path(game_id))
    bot, state_bot = await Socket.open(game_id, p1)  # no ?board=html: the JSON protocol
    boards = {seat: assert_board_frame(state, "state", 0, "active")
              for seat, state in ((0, state0), (1, state1), (None, state_w))}
    assert state0["note"] == "" and "note" not in state_w and state_w["observers"] == 1
    assert "Your move." in boards[0] and "(you)" in boards[0] and 'data-my-turn="1"' in boards[0]
    assert "Your move." not in boards[1] and "(you)" in boards[1]
    assert "(you)" not in boards[None] and "Resign" not in boards[None]
    assert state_bot["game"]["you"] == 1 and "board" not in state_bot

    await s0.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    await s0.recv_type("ack")
    for seat, sock in ((0, s0), (1, s1), (None, watcher)):
        board = assert_board_frame(await sock.recv_type("update"), "update", 1, "active")
        assert ("Your move." in board) == (seat == 1)
    update = await bot.recv_type("update")
    assert update["game"]["you"] == 1 and update["view"]["board"][4] == "X" and "board" not in update

    # A resignation changes no ply: the frame comes at the same ply, the game over.
    await s1.send({"type": "resign"})
    await s1.recv_type("ack")
    for sock in (s0, s1, watcher):
        board = assert_board_frame(await sock.recv_type("update"), "update", 1, "finished")
        assert "Game over" in board
    # sync and reconnecting give the same board frame as the update.
    await s1.send({"type": "sync"})
    synced = await s1.recv_type("state")
    assert_board_frame(synced, "state", 1, "finished")
    s1_again, reconnected = await Socket.open(game_id, p1, path=board_path(game_id))
    assert reconnected["board"] == synced["board"]
    for sock in (s0, s1, s1_again, watcher, bot):
        await sock.close()


async def test_a_board_mode_socket_behind_the_database_gets_its_board_by_itself(make_player):
    """The catch-up of games/resync.py sends a board-mode socket a board frame."""
    from accounts import broadcast
    from games import resync, services

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s1, _ = await Socket.open(game_id, p1, path=board_path(game_id))

    def unannounced() -> None:
        with broadcast.collecting():  # the broadcast goes nowhere
            services.submit_move(game_id=game_id, user=p0, ply=0, move={"cell": 5})

    await database_sync_to_async(unannounced)()
    state = await s1.recv_type("state", timeout=2 * resync.CHECK_SECONDS + 1)
    assert "Your move." in assert_board_frame(state, "state", 1, "active")
    await s1.close()


async def test_an_observer_who_takes_the_open_seat_gets_that_seats_boards(make_player):
    from games import services

    p0, p1 = await players(make_player)
    game = await database_sync_to_async(services.create_game)(creator=p0, variant="classic")
    watcher, state = await Socket.open(game.pk, p1, path=board_path(game.pk))
    assert "(you)" not in assert_board_frame(state, "state", 0, "open")
    await database_sync_to_async(services.accept_challenge)(game_id=game.pk, user=p1)
    board = assert_board_frame(await watcher.recv_type("update"), "update", 0, "active")
    assert "(you)" in board
    await watcher.close()


async def test_a_seats_board_with_its_secret_plan_never_reaches_the_other_seat_or_an_observer(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1, variant="tactic-toe")
    s0, _ = await Socket.open(game_id, p0, path=board_path(game_id))
    s1, _ = await Socket.open(game_id, p1, path=board_path(game_id))
    watcher, _ = await Socket.open(game_id, path=board_path(game_id))
    await s0.send({"type": "move", "ply": 0, "move": {"plan": [1, 3, 8]}})
    await s0.recv_type("ack")
    own = assert_board_frame(await s0.recv_type("update"), "update", 1, "active")
    assert "Your plan <strong>1, 3, 8</strong>" in own
    for sock in (s1, watcher):
        board = assert_board_frame(await sock.recv_type("update"), "update", 1, "active")
        assert "secret until the reveal" in board
        await sock.send({"type": "sync"})
        board = assert_board_frame(await sock.recv_type("state"), "state", 1, "active")
        assert "secret until the reveal" in board
        assert not any("1, 3, 8" in frame.get("board", "") for frame in sock.seen)
    for sock in (s0, s1, watcher):
        await sock.close()


# -- secret moves ---------------------------------------------------------------------


def _entry(frame: dict[str, Any], ply: int) -> dict[str, Any]:
    return next(m for m in frame["game"]["moves"] if m["ply"] == ply)


async def test_a_tactic_toe_round_keeps_each_plan_secret_until_both_are_in(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1, variant="tactic-toe")
    s0, _ = await Socket.open(game_id, p0)
    s1, _ = await Socket.open(game_id, p1)
    watcher, _ = await Socket.open(game_id)
    plan0, plan1 = [1, 3, 8], [2, 7, 9]

    await s0.send({"type": "move", "ply": 0, "move": {"plan": plan0}})
    assert await s0.recv_type("ack") == {"type": "ack", "ply": 1}
    own = await s0.recv_type("update")
    assert own["view"]["your_plan"] == plan0 and _entry(own, 1)["move"] == {"plan": plan0}
    committed = {}
    for sock in (s1, watcher):
        update = await sock.recv_type("update")
        assert update["ply"] == 1 and update["view"]["submitted"] == [True, False]
        hidden = _entry(update, 1)
        assert "move" not in hidden and "nonce" not in hidden and len(hidden["commitment"]) == 64
        committed[id(sock)] = hidden["commitment"]
    # A seat that has written waits: a second plan is the engine's refusal.
    await s0.send({"type": "move", "ply": 1, "move": {"plan": [2, 4, 6]}})
    assert (await s0.recv_type("error"))["code"] == "already-submitted"
    # Nothing the opponent or an observer received so far holds the plan.
    for sock in (s1, watcher):
        assert not contains(sock.seen, plan0) and not contains(sock.seen, {"plan": plan0})

    await s1.send({"type": "move", "ply": 1, "move": {"plan": plan1}})
    assert (await s1.recv_type("ack"))["ply"] == 2
    for sock in (s0, s1, watcher):
        update = await sock.recv_type("update")
        assert update["ply"] == 2 and update["view"]["round"] == 2
        assert update["view"]["rounds"][0]["plans"] == [plan0, plan1]
        for ply, plan in ((1, plan0), (2, plan1)):
            entry = _entry(update, ply)
            assert entry["move"] == {"plan": plan} and verify_commitment(entry)
        if sock is not s0:
            assert _entry(update, 1)["commitment"] == committed[id(sock)]  # the one published before
    for sock in (s0, s1, watcher):
        await sock.close()


async def test_rock_paper_scissors_decider_throws_stay_secret_and_every_commitment_verifies(make_player):
    from games import rule_sets, services
    from games.models import Game

    p0, p1 = await players(make_player)
    rules = await database_sync_to_async(rule_sets.create_rule_set)(
        name="Decided by a throw", variant="classic", decider="rock-paper-scissors"
    )
    decider = await database_sync_to_async(services.create_game)(creator=p0, rule_set=rules, opponent=p1)
    decider = await database_sync_to_async(services.accept_challenge)(game_id=decider.pk, user=p1)
    assert decider.variant == "rock-paper-scissors" and decider.status == "active"
    s0, _ = await Socket.open(decider.pk, p0)
    s1, _ = await Socket.open(decider.pk, p1)
    watcher, _ = await Socket.open(decider.pk)
    seen_commitments: dict[int, str] = {}

    async def throw_pair(ply: int, first: str, second: str) -> dict[str, Any]:
        await s0.send({"type": "move", "ply": ply, "move": {"throw": first}})
        await s0.recv_type("ack")
        assert (await s0.recv_type("update"))["view"]["my_throw"] == first
        for sock in (s1, watcher):
            update = await sock.recv_type("update")
            entry = _entry(update, ply + 1)
            assert "move" not in entry and "nonce" not in entry
            seen_commitments[ply + 1] = entry["commitment"]
            # The throw appears nowhere in anything received since the last reveal.
            since = sock.seen[sock.reveal_at :]
            assert not contains(since, first) and not contains(since, {"throw": first})
        await s1.send({"type": "move", "ply": ply + 1, "move": {"throw": second}})
        await s1.recv_type("ack")
        for sock in (s0, s1, watcher):
            revealed = await sock.recv_type("update")
            sock.reveal_at = len(sock.seen)
            assert revealed["view"]["history"][-1] == [first, second]
        return revealed

    await throw_pair(0, "rock", "rock")  # a tie: thrown again
    final = await throw_pair(2, "paper", "rock")
    assert final["game"]["status"] == "finished" and final["game"]["result"]["winner"] == 0
    moves = final["game"]["moves"]
    assert len(moves) == 4 and all(verify_commitment(m) for m in moves)
    # The first throw of each pair was committed before the second was made.
    assert {m["ply"]: m["commitment"] for m in moves if m["ply"] in seen_commitments} == seen_commitments
    # The winner of the decider is Player One of the game it decided.
    game = await database_sync_to_async(
        lambda: (
            Game.objects.filter(match_id=decider.match_id, number_in_match=2).prefetch_related("seats").get()
        )
    )()
    seats = {
        seat.number: seat.user_id for seat in await database_sync_to_async(lambda: list(game.seats.all()))()
    }
    assert seats == {0: p0.pk, 1: p1.pk} and game.variant == "classic"
    for sock in (s0, s1, watcher):
        await sock.close()


# -- bad input ------------------------------------------------------------------------

KNOWN_TYPES = {"move", "sync", "ping", "resign", "claim-timeout", "note"}
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def bad_frames(*, seat0_state: Any, foreign_move: dict[str, Any]) -> st.SearchStrategy:
    """(socket, frame, expected code) for seat 0 of a classic game at ply 0, where any
    *legal* move would change the game: every frame here must be refused."""
    from games.rules import RuleError, get_variant

    classic = get_variant("classic")

    def engine_code(move: Any) -> str | None:
        try:
            classic.apply(seat0_state, 0, move)
        except RuleError as err:
            return err.code
        return None  # legal: not junk

    junk_moves = (
        st.one_of(
            json_values,
            st.fixed_dictionaries({"cell": json_values}),
            st.fixed_dictionaries({"cell": st.integers()}, optional={"mark": st.sampled_from(["X", "O"])}),
        )
        .map(lambda move: (move, engine_code(move)))
        .filter(lambda pair: pair[1] is not None)
    )
    text = st.text(max_size=40)
    return st.one_of(
        text.filter(_not_json).map(lambda t: ("own", t, "malformed-json")),
        json_values.filter(lambda v: not isinstance(v, dict)).map(
            lambda v: ("own", json.dumps(v), "malformed-frame")
        ),
        st.dictionaries(st.text(max_size=8), json_values, max_size=3).map(
            lambda d: (
                "own",
                json.dumps({**d, "type": d.get("type", None) if not isinstance(d.get("type"), str) else 1}),
                "malformed-frame",
            )
        ),
        text.filter(lambda t: t not in KNOWN_TYPES).map(
            lambda t: ("own", json.dumps({"type": t}), "unknown-type")
        ),
        json_values.filter(lambda p: isinstance(p, bool) or not isinstance(p, int)).map(
            lambda p: ("own", json.dumps({"type": "move", "ply": p, "move": {"cell": 5}}), "malformed-ply")
        ),
        st.integers()
        .filter(lambda p: p != 0)
        .map(lambda p: ("own", json.dumps({"type": "move", "ply": p, "move": {"cell": 5}}), "stale-ply")),
        junk_moves.map(
            lambda pair: ("own", json.dumps({"type": "move", "ply": 0, "move": pair[0]}), pair[1])
        ),
        st.integers(16 * 1024 + 1, 64 * 1024).map(
            lambda n: (
                "own",
                json.dumps({"type": "move", "ply": 0, "move": {"cell": 5}, "pad": "x" * n}),
                "frame-too-large",
            )
        ),
        st.binary(min_size=1, max_size=64).map(lambda b: ("own", b, "binary-frame")),
        json_values.filter(lambda t: not isinstance(t, str)).map(
            lambda t: ("own", json.dumps({"type": "note", "text": t}), "bad-note")
        ),
        st.just(("own", json.dumps({"type": "note", "text": "n" * 10_001}), "bad-note")),
        st.just(("own", json.dumps({"type": "claim-timeout"}), "no-time-out")),
        # Another game's socket, where this player has no seat: even its legal move is refused.
        st.sampled_from([{"type": "move", "ply": 0, "move": foreign_move}, {"type": "resign"},
                         {"type": "claim-timeout"}, {"type": "note", "text": "x"}]).map(
            lambda frame: ("foreign", json.dumps(frame), "not-a-player")
        ),
        # A field the frame does not take, even beside a legal move: refused, nothing played.
        st.tuples(
            st.sampled_from([{"type": "move", "ply": 0, "move": {"cell": 5}}, {"type": "resign"},
                             {"type": "sync"}, {"type": "note", "text": "x"}]),
            st.text(min_size=1, max_size=8).filter(lambda key: key not in ("type", "ply", "move", "text")),
            json_values,
        ).map(lambda t: ("own", json.dumps(t[0] | {t[1]: t[2]}), "unknown-field")),
    )


def test_bad_frames_each_get_an_error_change_nothing_and_leave_the_socket_usable(make_player):
    from games.models import Game
    from games.rules import get_variant

    p0, p1, p2 = make_player(), make_player(), make_player()
    game_id = started_game_sync(p0, p1)
    foreign_id = started_game_sync(p1, p2)  # p0 has no seat here
    game = Game.objects.get(pk=game_id)
    state = get_variant("classic").load(game.state)
    before = {gid: async_to_sync(db_snapshot)(gid) for gid in (game_id, foreign_id)}
    frames_strategy = bad_frames(seat0_state=state, foreign_move={"cell": 5})

    async def play(frames: list[tuple[str, Any, str]]) -> None:
        own, first = await Socket.open(game_id, p0)
        foreign, _ = await Socket.open(foreign_id, p0)
        assert first["type"] == "state" and first["game"]["you"] == 0
        for target, frame, code in frames:
            sock = own if target == "own" else foreign
            # Raw ASGI input: the communicator's helpers refuse an empty frame.
            key = "bytes" if isinstance(frame, bytes) else "text"
            await sock.ws.send_input({"type": "websocket.receive", key: frame})
            reply = await sock.recv_type("error")
            assert reply["code"] == code and reply["message"], (frame, reply)
            if code == "stale-ply":  # the protocol's answer: the current state follows
                assert (await sock.recv_type("state"))["ply"] == 0
        for sock in (own, foreign):
            await sock.send({"type": "sync"})  # still usable, still at the same ply
            assert (await sock.recv_type("state"))["ply"] == 0
            # One reply per frame and no broadcast (observer counts aside: the foreign
            # socket itself is counted as an observer).
            assert [f for f in await sock.drain(0.05) if f["type"] != "observers"] == []
            await sock.close()

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(frames=st.lists(frames_strategy, min_size=1, max_size=5))
    def check(frames: list[tuple[str, Any, str]]) -> None:
        async_to_sync(play)(frames)
        for gid, snapshot in before.items():
            assert async_to_sync(db_snapshot)(gid) == snapshot

    check()


# -- the origin check for bots (config.routing.browser_origin_validator) ---------------


async def test_the_origin_check_lets_bots_without_origin_in_and_keeps_foreign_pages_out(make_player, settings):
    """A page is let in from this very site only (scheme, host and port, as Django's CSRF
    check has it) or from a trusted origin: a page on another port of the same host gets
    the player's session cookie, and Channels' own check let it in (host names only)."""
    from channels.routing import URLRouter

    from accounts.realtime import WebsocketAuthMiddleware
    from config.routing import browser_origin_validator, websocket_urlpatterns

    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # as in production
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org", "https://*.example.net"]
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    stack = browser_origin_validator(WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns), run=database.run))
    token = (b"authorization", f"Token {await token_for(p0)}".encode())
    outcomes = {}
    for label, headers in {
        "bot, no origin": [token],
        "own page": [token, HOST, ORIGIN],
        "own page behind a TLS proxy": [token, (b"host", b"127.0.0.1:8000"), (b"x-forwarded-proto", b"https"),
                                        (b"origin", b"https://127.0.0.1:8000")],
        "foreign page": [token, HOST, (b"origin", b"http://evil.example")],
        "same host, another port": [token, HOST, (b"origin", b"http://127.0.0.1:8001")],
        "same host and port, https": [token, HOST, (b"origin", b"https://127.0.0.1:8000")],
        "a host not allowed": [token, (b"host", b"evil.example"), (b"origin", b"http://evil.example")],
        "a trusted origin": [token, HOST, (b"origin", b"https://play.example.org")],
        "under a trusted pattern": [token, HOST, (b"origin", b"https://club.example.net")],
        "a pattern's other scheme": [token, HOST, (b"origin", b"http://club.example.net")],
    }.items():
        communicator = WebsocketCommunicator(stack, f"/ws/games/{game_id}/", headers=headers)
        connected, _ = await communicator.connect()
        outcomes[label] = connected
        if connected:
            assert (await communicator.receive_json_from())["game"]["you"] == 0
            await communicator.disconnect()
    assert outcomes == {
        "bot, no origin": True, "own page": True, "own page behind a TLS proxy": True, "foreign page": False,
        "same host, another port": False, "same host and port, https": False, "a host not allowed": False,
        "a trusted origin": True, "under a trusted pattern": True, "a pattern's other scheme": False,
    }


async def test_the_socket_user_is_looked_up_where_the_middleware_is_told_to(make_player):
    """config/asgi.py hands the lookups to the database worker processes when there are
    some: the middleware runs them only through the ``run`` it is given."""
    from channels.routing import URLRouter

    from accounts.realtime import WebsocketAuthMiddleware
    from config.routing import websocket_urlpatterns

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    looked_up = []

    async def run(func, **kwargs):
        looked_up.append((func.__name__, sorted(kwargs)))
        return await database.run(func, **kwargs)

    stack = WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns), run=run)
    headers = [(b"authorization", f"Token {await token_for(p1)}".encode())]
    communicator = WebsocketCommunicator(stack, f"/ws/games/{game_id}/", headers=headers)
    assert (await communicator.connect())[0]
    assert (await communicator.receive_json_from())["game"]["you"] == 1
    await communicator.disconnect()
    anonymous = WebsocketCommunicator(stack, f"/ws/games/{game_id}/")  # no token, no cookie: no lookup
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_json_from())["game"]["you"] is None
    await anonymous.disconnect()
    bad = WebsocketCommunicator(stack, f"/ws/games/{game_id}/", headers=[(b"authorization", b"Token not-a-real-token")])
    assert (await bad.connect())[0]
    assert (await bad.receive_json_from())["code"] == "bad-token"
    assert looked_up == [("_user_for_token", ["key"]), ("_user_for_token", ["key"])]


# -- the hot path's cost ----------------------------------------------------------------

DML = ("SELECT", "INSERT", "UPDATE", "DELETE")


def statements(captured: list[dict[str, Any]]) -> list[str]:
    """The SQL statements run, without transaction control (SQLite logs BEGIN and
    COMMIT, PostgreSQL does not): the same count on both runtimes."""
    return [q["sql"] for q in captured if q["sql"].lstrip().upper().startswith(DML)]


@pytest.mark.parametrize("clock", ["none", "per-game"])
def test_a_move_is_five_statements_and_its_broadcast_reads_nothing(make_player, clock):
    """Lock the game row, read its seats and its move log, insert the move, update the
    game, and under a game clock charge the mover's seat; the update everyone receives is
    built from what is in hand (Zulip's rule: count the queries on hot paths)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import rule_sets, services
    from games.models import Game

    p0, p1 = make_player(), make_player()
    rules = rule_sets.create_rule_set(name="No clock", variant="classic") if clock == "none" else None
    game_id = started_game_sync(p0, p1, **({"rule_set": rules, "variant": None} if rules else {}))
    game = Game.objects.select_related("rule_set").get(pk=game_id)
    assert bool(game.rule_set.seconds_per_game) == (clock == "per-game")  # standard classic: 3 min per game
    services.submit_move(game_id=game_id, user=p0, ply=0, move={"cell": 5})
    with CaptureQueriesContext(connection) as ctx:  # on_commit (the broadcast) runs inside
        services.submit_move(game_id=game_id, user=p1, ply=1, move={"cell": 1})
    run = statements(ctx.captured_queries)
    if clock == "per-game":
        charges = [sql for sql in run if sql.startswith('UPDATE "games_seat"')]
        assert len(charges) == 1 and '"clock_ms"' in charges[0], run
        run.remove(charges[0])
    assert len(run) == 5, run
    lock, seats, moves, insert, update = run
    assert '"games_game"' in lock and (not connection.features.has_select_for_update or "FOR UPDATE" in lock)
    # Only the game row is locked: every game of a house-rule set shares its RuleSet row.
    # (games/sql.py: the games table is "g" there, the rule set "r".)
    assert '"games_game" g' in lock and '"games_ruleset" r' in lock
    assert not connection.features.has_select_for_update_of or lock.endswith("FOR UPDATE OF g")
    assert '"games_seat"' in seats and '"games_move"' in moves
    assert insert.startswith('INSERT INTO "games_move"') and update.startswith('UPDATE "games_game"')


def test_a_finished_games_three_boards_read_what_they_share_once(make_player):
    """A game's end renders a rating line and a rematch offer on its boards: read once
    for the three viewer kinds (games.boards.shared_parts), nothing more per viewer."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import boards, selectors, services, sql

    p0, p1 = make_player(), make_player()
    game_id = started_game_sync(p0, p1)
    services.resign(game_id=game_id, user=p0)
    game, moves = selectors.load_game(game_id), sql.moves(game_id)
    with CaptureQueriesContext(connection) as shared:
        boards.shared_parts(game)
    with CaptureQueriesContext(connection) as broadcast:
        message = boards.update_message_for(game, moves)
    assert len(statements(shared.captured_queries)) >= 1
    assert statements(broadcast.captured_queries) == statements(shared.captured_queries)
    assert all('id="rematch"' in json.loads(message["boards"][key])["board"] for key in ("0", "1"))
    assert 'id="rematch"' not in json.loads(message["boards"]["observer"])["board"]


def test_a_connect_is_one_trip_to_the_database(make_player):
    """A player's socket opening: the game, its seats, its moves, the observer count and
    the player's note, in one call on one pooled connection."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.consumers import _open

    p0, p1 = make_player(), make_player()
    game_id = started_game_sync(p0, p1)
    with CaptureQueriesContext(connection) as ctx:
        state, refusal = _open(game_id=game_id, user=p0, channel_name="test.channel!player")
    assert refusal is None and state.frame["type"] == "state" and state.frame["game"]["you"] == 0
    assert len(statements(ctx.captured_queries)) == 5


# -- observer rows left by a crashed server ---------------------------------------------


async def test_the_sweep_drops_rows_whose_socket_is_gone_and_keeps_live_ones(make_player):
    from django.utils import timezone

    from games import observing
    from games.models import Observer

    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    s0, _ = await Socket.open(game_id, p0)
    watcher, state = await Socket.open(game_id)
    assert state["observers"] == 1
    assert (await s0.recv_type("observers"))["count"] == 1

    def crash_leftovers() -> None:
        # A server that died with a socket open never ran its disconnect: its row stays.
        Observer.objects.create(game_id=game_id, channel_name="specific.dead-process!gone")
        # Old enough to be swept, the live row too (it must survive on its own merit).
        Observer.objects.update(joined_at=timezone.now() - timedelta(minutes=5))

    await database_sync_to_async(crash_leftovers)()
    assert await observer_rows(game_id) == 2
    swept = await database_sync_to_async(observing.sweep_stale_observers)()
    assert swept == 1 and await observer_rows(game_id) == 1
    names = await database_sync_to_async(lambda: list(Observer.objects.values_list("channel_name", flat=True)))()
    assert names != ["specific.dead-process!gone"]
    # The game's sockets hear the corrected count.
    assert await s0.recv_type("observers") == {"type": "observers", "count": 1}
    # Nothing left to sweep: a second run changes nothing.
    assert await database_sync_to_async(observing.sweep_stale_observers)() == 0
    for sock in (s0, watcher):
        await sock.close()
    assert await observer_rows(game_id) == 0


async def test_an_update_older_than_the_players_ack_is_not_sent_after_it(make_player, monkeypatch):
    """A bot was sent ``ack`` ply 1, then the game's start ``update`` (ply 0), which had
    been on its way through the layer: its board went a move back (bot author's probe).
    The update for the acked ply itself still goes out, and resync still waits for it."""
    from games import consumers

    p0, _ = await players(make_player)
    consumer = consumers.GameConsumer()
    consumer.game_id, consumer.user, consumer.seat, consumer.board_mode = 1, p0, 0, False
    consumer.last_ply, consumer.last_status, consumer.acked_ply = 0, "active", -1
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:  # what the server would write to the socket
        sent.append(json.loads(message["text"]))

    async def stored(service: Any, **kwargs: Any) -> int:
        return 1  # the move made ply 1

    consumer.base_send = send
    monkeypatch.setattr(consumers.database, "run", stored)

    def update(ply: int) -> dict[str, Any]:
        frame = json.dumps({"type": "update", "ply": ply})
        return {"type": "game.update", "ply": ply, "status": "active",
                "frames": {"0": frame, "1": frame, "observer": frame}}

    await consumer.on_move({"type": "move", "ply": 0, "move": {"cell": 5}})
    await consumer.game_update(update(0))  # the start, overtaken by the ack
    await consumer.game_update(update(1))  # the move's own
    assert sent == [{"type": "ack", "ply": 1}, {"type": "update", "ply": 1}]
    assert consumer.seen_version() == consumers.resync.version(1, "active")
