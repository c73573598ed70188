"""Idempotency-Key on the writes a client retries after a timeout (accounts/idempotency.py):
creating a game, accepting a challenge, a REST move."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts import idempotency
from accounts.models import IdempotencyKey
from games.models import Game, Move
from tests.support import at_once
from tests.support import token_client as client_for

GAMES = "/api/v1/games/"


def create(client, key, **body):
    return client.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db
class TestRetries:
    def test_a_retried_create_makes_one_game_and_replays_the_first_answer(self, alice):
        client = client_for(alice)
        first = create(client, "k-1", variant="classic", ai_level="random")
        again = create(client, "k-1", variant="classic", ai_level="random")
        assert first.status_code == again.status_code == 201
        assert again.json() == first.json()
        assert again["Idempotent-Replayed"] == "true"
        assert "Idempotent-Replayed" not in first
        assert Game.objects.count() == 1

    def test_without_a_key_each_request_is_its_own(self, alice):
        client = client_for(alice)
        for _ in range(2):
            assert client.post(GAMES, {"variant": "classic", "ai_level": "random"}, format="json").status_code == 201
        assert Game.objects.count() == 2

    def test_the_same_key_with_another_body_is_refused_and_changes_nothing(self, alice):
        client = client_for(alice)
        assert create(client, "k-2", variant="classic", ai_level="random").status_code == 201
        reused = create(client, "k-2", variant="classic", ai_level="strong")
        assert reused.status_code == 422
        assert reused.json()["code"] == "idempotency-key-reused"
        assert Game.objects.count() == 1

    def test_keys_are_per_user(self, alice, bob):
        assert create(client_for(alice), "shared", variant="classic", ai_level="random").status_code == 201
        theirs = create(client_for(bob), "shared", variant="classic", ai_level="random")
        assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs
        assert Game.objects.count() == 2

    def test_a_refusal_is_replayed_too(self, alice):
        client = client_for(alice)
        first = create(client, "k-3", variant="no-such-variant")
        again = create(client, "k-3", variant="no-such-variant")
        assert first.status_code == again.status_code == 400
        assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"

    def test_a_refusal_echoing_a_nul_is_answered_not_kept(self, alice):
        # PostgreSQL's JSON holds no NUL: storing this answer was a 500 (a fuzzer, 2026-11-30).
        client = client_for(alice)
        body = {"variant": "classic", "ai_level": "random", "ratd\x00": True}
        for _ in range(2):
            response = client.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="k-nul")
            assert response.status_code == 400 and response.json()["code"] == "unknown-field"
            assert "Idempotent-Replayed" not in response
        assert not IdempotencyKey.objects.exists() and Game.objects.count() == 0

    def test_a_bad_key_is_a_clear_error(self, alice):
        response = create(client_for(alice), "x" * 256, variant="classic", ai_level="random")
        assert response.status_code == 400 and response.json()["code"] == "bad-idempotency-key"
        assert Game.objects.count() == 0

    def test_an_accept_and_a_move_retried_happen_once(self, alice, bob):
        game_id = create(client_for(alice), "c", variant="classic", opponent="bob").json()["id"]
        bobs = client_for(bob)
        accepted = [bobs.post(f"{GAMES}{game_id}/accept/", HTTP_IDEMPOTENCY_KEY="a") for _ in range(2)]
        assert [r.status_code for r in accepted] == [200, 200]
        assert accepted[1]["Idempotent-Replayed"] == "true"
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.ACTIVE
        alices_seat = game.seats.get(user=alice).number
        mover = alice if alices_seat in game.to_move else bob
        move = {"ply": 0, "move": {"cell": 5}}
        moves = [client_for(mover).post(f"{GAMES}{game_id}/moves/", move, format="json", HTTP_IDEMPOTENCY_KEY="m")
                 for _ in range(2)]
        assert [r.status_code for r in moves] == [201, 201]
        assert moves[1].json() == moves[0].json()
        assert Move.objects.filter(game_id=game_id).count() == 1

    def test_a_claim_left_by_a_dead_request_is_taken_over_at_once(self, alice):
        """A row as a server killed mid-request leaves it: claimed a moment ago, never
        answered, held by no transaction (it rolled back with its connection). The
        retry does the work now; it used to answer 409 for 30 s (a chaos probe)."""
        IdempotencyKey.objects.create(user=alice, key="dead", fingerprint=_fingerprint_of_create(alice),
                                      claimed_at=timezone.now())
        response = create(client_for(alice), "dead", variant="classic", ai_level="random")
        assert response.status_code == 201 and "Idempotent-Replayed" not in response
        assert Game.objects.count() == 1
        again = create(client_for(alice), "dead", variant="classic", ai_level="random")
        assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
        assert again.json() == response.json() and Game.objects.count() == 1

    def test_keys_expire_after_a_day(self, alice):
        assert create(client_for(alice), "old", variant="classic", ai_level="random").status_code == 201
        IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=idempotency.IDEMPOTENCY_KEY_HOURS, seconds=1))
        assert idempotency.expire() == 1
        assert create(client_for(alice), "old", variant="classic", ai_level="random").status_code == 201
        assert Game.objects.count() == 2


def _fingerprint_of_create(user):
    """The fingerprint the create request below has: taken from a real request's row."""
    client = client_for(user)
    with transaction.atomic():
        create(client, "probe", variant="classic", ai_level="random")
        fingerprint = IdempotencyKey.objects.get(key="probe").fingerprint
        transaction.set_rollback(True)
    return fingerprint


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_one_key_make_one_game(alice):
    """Both at once (two threads, two connections): one game; the other request is
    answered 409 (still running) or with the replay, never a second game."""
    alice_id = alice.pk
    statuses = []
    lock = threading.Lock()

    def post():
        from accounts.models import User

        response = create(client_for(User.objects.get(pk=alice_id)), "race", variant="classic", ai_level="random")
        with lock:
            statuses.append(response.status_code)
        return response.status_code

    results, errors = at_once(post, post)
    assert not errors, errors
    assert Game.objects.count() == 1
    assert sorted(results)[0] == 201 and sorted(results)[1] in (201, 409)
    if connection.vendor == "postgresql":
        assert IdempotencyKey.objects.get(key="race").status_code == 201


#: A request of another server, stopped inside its work: it holds its claim's row locked
#: (as ``idempotent`` does from its work's first statement to its commit) until killed.
HOLDER = """
import sys, psycopg
with psycopg.connect(sys.argv[1]) as db:
    db.execute("SELECT 1 FROM accounts_idempotencykey WHERE id = %s FOR UPDATE", (int(sys.argv[2]),))
    print(db.execute("SELECT pg_backend_pid()").fetchone()[0], flush=True)
    sys.stdin.read()
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_waits_for_a_live_request_and_takes_over_once_its_server_is_killed(alice):
    """While the first request's server lives, its key answers 409; once the server is
    killed (its transaction rolled back by PostgreSQL), the retry does the work at once,
    once."""
    row = IdempotencyKey.objects.create(user=alice, key="m", fingerprint=_fingerprint_of_create(alice),
                                        claimed_at=timezone.now())
    params = connection.get_connection_params()
    dsn = " ".join(f"{name}={params[name]}" for name in ("dbname", "user", "host", "port", "password")
                   if params.get(name))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, dsn, str(row.pk)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        backend = int(holder.stdout.readline())
        busy = create(client_for(alice), "m", variant="classic", ai_level="random")
        assert busy.status_code == 409 and busy.json()["code"] == "idempotency-key-in-progress"
        assert Game.objects.count() == 0
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    with connection.cursor() as cursor:  # PostgreSQL ends the dead client's backend as it reads EOF
        while True:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend])
            if not cursor.fetchone()[0]:
                break
    retried = create(client_for(alice), "m", variant="classic", ai_level="random")
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried
    assert Game.objects.count() == 1
    replayed = create(client_for(alice), "m", variant="classic", ai_level="random")
    assert replayed.status_code == 201 and replayed["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1
