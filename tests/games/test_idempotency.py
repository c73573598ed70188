"""Idempotency-Key on the writes a client retries after a timeout (accounts/idempotency.py):
creating a game, accepting a challenge, a REST move."""

from __future__ import annotations

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

    def test_a_key_in_progress_answers_409(self, alice):
        IdempotencyKey.objects.create(user=alice, key="busy", fingerprint=_fingerprint_of_create(alice),
                                      claimed_at=timezone.now())
        response = create(client_for(alice), "busy", variant="classic", ai_level="random")
        assert response.status_code == 409 and response.json()["code"] == "idempotency-key-in-progress"
        assert Game.objects.count() == 0

    def test_a_claim_whose_request_died_is_taken_over(self, alice):
        IdempotencyKey.objects.create(user=alice, key="dead", fingerprint=_fingerprint_of_create(alice),
                                      claimed_at=timezone.now() - timedelta(seconds=idempotency.ABANDONED_SECONDS + 1))
        response = create(client_for(alice), "dead", variant="classic", ai_level="random")
        assert response.status_code == 201
        assert Game.objects.count() == 1

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
