"""Abuse limits over HTTP, from the outside: the failed-login lockout (page, API, admin)
and the API's throttles (writes per user and per address, sign-up and log-in per
address), each refusal a 429 with Retry-After; the API's in the one error shape."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.db.models import F
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PASSWORD
from tests.support import own_abuse_counts, token_client

PAGE = "/accounts/login/"
API = "/api/v1/accounts/login/"
ADMIN = "/admin/login/"
LOCKED = "Too many failed log-ins; try again in 15 minutes."


@pytest.fixture(autouse=True)
def fresh_limits(settings):
    """Counts of this test's own (the cache outlives a test; on Redis it is shared), the
    production defaults for the lockout, and low API rates to reach."""
    own_abuse_counts(settings, "limits")
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "user-write": "3/min",
            "anon-write": "100/min",
            "login": "100/min",
            "signup": "2/hour",
        },
    }


def page_login(username: str, password: str, ip: str = "10.0.0.1", path: str = PAGE):
    client = Client(REMOTE_ADDR=ip)
    return client, client.post(path, {"username": username, "password": password})


def api_login(username: str, password: str, ip: str = "10.0.0.1", **headers):
    return APIClient(REMOTE_ADDR=ip).post(
        API, {"username": username, "password": password}, format="json", **headers
    )


def assert_signed_in(client: Client, user) -> None:
    assert int(client.session["_auth_user_id"]) == user.pk


def assert_locked_page(response) -> None:
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert 0 < int(response["Retry-After"]) <= 15 * 60


def assert_locked_api(response) -> None:
    assert response.status_code == 429
    assert response.json() == {"code": "locked-out", "message": LOCKED}
    assert 0 < int(response["Retry-After"]) <= 15 * 60


def expire_attempts() -> None:
    """As if the cool-off had passed since every failure."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))


# -- failed-login lockout ----------------------------------------------------------------


def test_page_wrong_passwords_lock_the_account_even_against_the_right_one(alice, make_player):
    for _ in range(4):
        _, response = page_login("alice", "wrong")
        assert response.status_code == 200 and "correct username and password" in response.content.decode()
    _, response = page_login("alice", "wrong")  # the fifth
    assert_locked_page(response)
    client, response = page_login("alice", PASSWORD)
    assert_locked_page(response)
    assert "_auth_user_id" not in client.session

    # The same guesser's address is not locked for other accounts, nor is alice from her own.
    bob = make_player(username="bob")
    client, response = page_login("bob", PASSWORD)
    assert response.status_code == 302
    assert_signed_in(client, bob)
    client, response = page_login("alice", PASSWORD, ip="10.0.0.2")
    assert response.status_code == 302
    assert_signed_in(client, alice)


def test_page_lockout_ends_after_the_cool_off(alice):
    for _ in range(5):
        page_login("alice", "wrong")
    assert_locked_page(page_login("alice", PASSWORD)[1])
    # A try during the lockout does not restart it.
    assert AccessAttempt.objects.get().failures_since_start == 5
    expire_attempts()
    client, response = page_login("alice", PASSWORD)
    assert response.status_code == 302
    assert_signed_in(client, alice)


def test_a_success_before_the_limit_starts_the_count_again(alice):
    for _ in range(4):
        page_login("alice", "wrong")
    assert page_login("alice", PASSWORD)[1].status_code == 302
    for _ in range(4):
        assert page_login("alice", "wrong")[1].status_code == 200


def test_api_wrong_passwords_lock_the_account_in_the_error_shape(alice):
    for _ in range(4):
        response = api_login("alice", "wrong")
        assert response.status_code == 400 and response.json()["code"] == "invalid-credentials"
    assert_locked_api(api_login("alice", "wrong"))
    assert_locked_api(api_login("alice", PASSWORD))
    assert "token" in api_login("alice", PASSWORD, ip="10.0.0.2").json()  # her own address
    expire_attempts()
    assert "token" in api_login("alice", PASSWORD).json()


def test_page_and_api_count_together(alice):
    for _ in range(3):
        page_login("alice", "wrong")
    api_login("alice", "wrong")
    assert_locked_api(api_login("alice", "wrong"))
    assert_locked_page(page_login("alice", PASSWORD)[1])


def test_a_forged_forwarded_for_header_does_not_dodge_the_lockout(alice):
    for n in range(5):
        api_login("alice", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert_locked_api(api_login("alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99"))


def test_admin_login_is_locked_too(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    for _ in range(4):
        assert page_login("alice", "wrong", path=ADMIN)[1].status_code == 200
    assert_locked_page(page_login("alice", "wrong", path=ADMIN)[1])
    client, response = page_login("alice", PASSWORD, path=ADMIN)
    assert_locked_page(response)
    assert "_auth_user_id" not in client.session


# -- API throttles ------------------------------------------------------------------------


def assert_throttled(response) -> None:
    assert response.status_code == 429
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == "throttled"
    wait = int(response["Retry-After"])
    assert 0 < wait <= 60 * 60 and f"{wait} second" in body["message"]


def test_a_users_writes_are_throttled_and_reads_are_not(alice, make_player):
    from games.models import Game

    client = token_client(alice, REMOTE_ADDR="10.0.0.1")
    for _ in range(3):
        assert client.post("/api/v1/games/", {"variant": "classic"}, format="json").status_code == 201
    assert_throttled(client.post("/api/v1/games/", {"variant": "classic"}, format="json"))
    assert_throttled(client.post("/api/v1/rule-sets/", {}, format="json"))  # every write, one count
    assert Game.objects.count() == 3
    for _ in range(10):
        assert client.get("/api/v1/games/").status_code == 200
    # Per user, wherever they come from; another user on the same address is not held up.
    bob = make_player(username="bob")
    assert_throttled(token_client(alice, REMOTE_ADDR="10.0.0.9").post("/api/v1/games/", {}, format="json"))
    bob_client = token_client(bob, REMOTE_ADDR="10.0.0.1")
    assert bob_client.post("/api/v1/games/", {"variant": "classic"}, format="json").status_code == 201


SIGNUP_BODY = {"username": "x", "password": PASSWORD, "date_of_birth": "not a date", "country": "GB"}
_made = iter(range(10**6))


def api_signup(ip: str, *, refused: bool = False, **headers):
    """An anonymous API sign-up from ``ip``: one made (201, counted), or one refused (400:
    a bad date; not counted in the sign-up limit)."""
    body = SIGNUP_BODY if refused else {"username": f"joiner{next(_made)}", "password": PASSWORD,
                                          "date_of_birth": "1990-01-01", "country": "GB"}
    return APIClient(REMOTE_ADDR=ip, **headers).post("/api/v1/accounts/signup/", body, format="json")


@pytest.mark.django_db
def test_anonymous_sign_up_is_throttled_per_address():
    for _ in range(2):
        assert api_signup("10.0.0.1").status_code == 201
    assert_throttled(api_signup("10.0.0.1"))
    # Not dodged by claiming another address; another real address is not held up.
    assert_throttled(api_signup("10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7"))
    assert api_signup("10.0.0.2").status_code == 201


@pytest.mark.django_db
def test_refused_sign_ups_are_not_counted_the_ones_made_are():
    """A walkthrough's club room was shut out for an hour by its typos: the limit counts
    the accounts made, on the page and the API alike."""
    for _ in range(5):
        assert api_signup("10.0.0.4", refused=True).status_code == 400
        page = Client(REMOTE_ADDR="10.0.0.4").post("/accounts/signup/", {"username": "kid"})
        assert page.status_code == 200 and "Too many tries" not in page.content.decode()
    assert api_signup("10.0.0.4").status_code == 201
    assert api_signup("10.0.0.4").status_code == 201
    assert_throttled(api_signup("10.0.0.4"))
    assert_throttled(api_signup("10.0.0.4", refused=True))  # over the limit, a refusal is still told so


def test_api_log_in_is_throttled_per_address_across_usernames(settings, alice):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login": "3/min"},
    }
    for name in ("nobody1", "nobody2", "nobody3"):  # spraying: one guess per account
        assert api_login(name, "wrong").status_code == 400
    assert_throttled(api_login("alice", PASSWORD))
    assert "token" in api_login("alice", PASSWORD, ip="10.0.0.2").json()


def test_a_club_room_signing_in_behind_one_address_is_not_held_up(settings, make_player):
    """The log-in doors count failed log-ins only: a walkthrough's club evening, ten
    members signing in within a minute from one Wi-Fi, was shut out at the tenth."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        # The signed-out writes' limit as low: a success counts towards neither (the
        # attacker probe's find: the 31st API log-in of a minute was refused by it).
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login": "3/min",
                                   "anon-write": "3/min"},
    }
    members = [make_player(username=f"member{n}") for n in range(7)]
    for member in members[:3]:  # on the page
        client, response = page_login(member.username, PASSWORD)
        assert response.status_code == 302
        assert_signed_in(client, member)
    for member in members[3:]:  # and through the API, the same count: four, past both limits
        assert "token" in api_login(member.username, PASSWORD).json()
    for name in ("nobody1", "nobody2", "nobody3"):  # failures still count, as before
        assert page_login(name, "wrong")[1].status_code == 200
    assert_throttled(api_login(members[0].username, PASSWORD))


@pytest.mark.django_db
def test_behind_a_proxy_the_forwarded_address_counts(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    def signup(client_ip: str):
        return api_signup("10.9.9.9", HTTP_X_FORWARDED_FOR=f"203.0.113.5, {client_ip}")

    for _ in range(2):
        assert signup("192.0.2.1").status_code == 201
    assert_throttled(signup("192.0.2.1"))
    assert signup("192.0.2.2").status_code == 201  # another client behind the same proxy


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_under_asgi_as_served(make_player):
    """Production serves over ASGI, where django-axes' middleware takes its async path."""
    from asgiref.sync import sync_to_async
    from django.db import connections
    from django.test import AsyncClient

    await sync_to_async(make_player)(username="alice")
    for _ in range(5):
        response = await AsyncClient().post(PAGE, {"username": "alice", "password": "wrong"})
    assert_locked_page(response)
    assert_locked_page(await AsyncClient().post(PAGE, {"username": "alice", "password": PASSWORD}))
    # The requests ran in asgiref's thread for sync code: close its connection there, or
    # PostgreSQL cannot drop the test database at the end of the run.
    await sync_to_async(connections.close_all)()


def test_counts_are_kept_where_every_server_process_sees_them(alice):
    """With Redis, in Redis (several processes, one count); embedded, in the one process."""
    import os

    from django.core.cache import cache

    backend = django_settings.CACHES["default"]["BACKEND"]
    if os.environ.get("REDIS_URL"):
        assert backend == "django.core.cache.backends.redis.RedisCache"
    else:
        assert backend == "django.core.cache.backends.locmem.LocMemCache"
    token_client(alice, REMOTE_ADDR="10.0.0.1").post("/api/v1/games/", {"variant": "classic"}, format="json")
    assert len(cache.get(f"throttle_user-write_{alice.pk}")) == 1


@pytest.mark.django_db
def test_the_pages_share_the_apis_per_address_counts(settings, alice):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login": "3/min"},
    }
    for name in ("nobody1", "nobody2"):
        assert page_login(name, "wrong")[1].status_code == 200
    assert api_login("nobody3", "wrong").status_code == 400
    client, response = page_login("alice", PASSWORD)
    assert response.status_code == 429 and "Too many tries from your address" in response.content.decode()
    assert int(response["Retry-After"]) > 0 and "_auth_user_id" not in client.session
    assert Client(REMOTE_ADDR="10.0.0.1").get(PAGE).status_code == 200  # the form itself still shows
    assert page_login("alice", PASSWORD, ip="10.0.0.2")[1].status_code == 302

    for _ in range(2):
        assert api_signup("10.0.0.3").status_code == 201
    response = Client(REMOTE_ADDR="10.0.0.3").post("/accounts/signup/", {"username": "kid"})
    assert response.status_code == 429 and "Too many tries" in response.content.decode()


def test_a_username_too_long_to_record_is_refused_not_a_server_error():
    # On PostgreSQL the failure's record (255 characters) would overflow: a 500.
    response = api_login("u" * 300, "wrong")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
