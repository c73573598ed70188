"""A username in any case: "sam" signs in as "Sam" or "SAM" on the page and the API,
their failed log-ins are one count however the name is typed (so a lockout cannot be
sidestepped by changing case), and no second account differs from one only by case
(sign-up, page and API, and the database itself). docs/accounts.md, "Names";
docs/security.md, "Abuse limits"."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.errors import ServiceError
from accounts.models import User
from tests.factories import PASSWORD
from tests.factories import SignupFactory as signup_data
from tests.support import form_fields, own_abuse_counts, years_ago

PAGE = "/accounts/login/"
API = "/api/v1/accounts/login/"
LOCKED = "Too many failed log-ins; try again in 15 minutes."


@pytest.fixture(autouse=True)
def fresh_limits(settings):
    own_abuse_counts(settings, "username-case")


@pytest.fixture
def sam(make_player):
    return make_player(username="sam")


def page_login(username: str, password: str, ip: str = "10.0.0.1"):
    client = Client(REMOTE_ADDR=ip)
    return client, client.post(PAGE, {"username": username, "password": password})


def api_login(username: str, password: str, ip: str = "10.0.0.1"):
    return APIClient(REMOTE_ADDR=ip).post(API, {"username": username, "password": password}, format="json")


# -- signing in ---------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["sam", "Sam", "SAM", "sAm"])
def test_the_page_signs_in_whatever_the_case_typed(sam, typed):
    client, response = page_login(typed, PASSWORD)
    assert response.status_code == 302, response.content.decode()
    assert int(client.session["_auth_user_id"]) == sam.pk


@pytest.mark.parametrize("typed", ["Sam", "SAM"])
def test_the_api_gives_the_token_whatever_the_case_typed(sam, typed):
    response = api_login(typed, PASSWORD)
    assert response.status_code == 200, response.json()
    token = response.json()["token"]
    me = APIClient().get("/api/v1/accounts/me/", HTTP_AUTHORIZATION=f"Token {token}").json()
    assert me["username"] == "sam"


def test_a_stored_name_with_capitals_signs_in_in_lower_case(make_player):
    olga = make_player(username="Olga")
    client, response = page_login("olga", PASSWORD)
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == olga.pk
    assert "token" in api_login("OLGA", PASSWORD).json()


def test_a_wrong_password_in_another_case_is_still_wrong(sam):
    _, response = page_login("Sam", "wrong-password")
    assert response.status_code == 200 and "correct username and password" in response.content.decode()
    body = api_login("SAM", "wrong-password").json()
    assert body["code"] == "invalid-credentials"


# -- the lockout counts one user whatever the case ----------------------------------------


def test_failures_in_every_case_are_one_count_and_lock_every_case(sam):
    for typed in ("sam", "Sam", "SAM", "sAM"):
        assert page_login(typed, "wrong")[1].status_code == 200
    assert api_login("SaM", "wrong").status_code == 429  # the fifth, in a fifth spelling
    assert AccessAttempt.objects.count() == 1
    assert AccessAttempt.objects.get().failures_since_start == 5
    for typed in ("sam", "Sam", "SAM", "sAm"):
        client, response = page_login(typed, PASSWORD)
        assert response.status_code == 429 and LOCKED in response.content.decode()
        assert "_auth_user_id" not in client.session
        response = api_login(typed, PASSWORD)
        assert response.status_code == 429 and response.json()["code"] == "locked-out"
    # From the player's own address, in any case, they still get in.
    assert page_login("Sam", PASSWORD, ip="10.0.0.2")[1].status_code == 302


def test_a_success_in_another_case_starts_the_count_again(sam):
    for _ in range(4):
        page_login("SAM", "wrong")
    assert page_login("sam", PASSWORD)[1].status_code == 302
    for _ in range(4):
        assert page_login("Sam", "wrong")[1].status_code == 200


def test_a_new_password_lifts_a_lockout_made_in_another_case(sam):
    for _ in range(5):
        api_login("SAM", "wrong")
    assert api_login("sam", PASSWORD).status_code == 429
    services.password_changed(user=sam)
    assert "token" in api_login("Sam", PASSWORD).json()


# -- no two usernames differ only by case -------------------------------------------------


def test_the_api_refuses_a_username_differing_only_by_case(sam):
    response = APIClient(REMOTE_ADDR="10.0.0.5").post(
        "/api/v1/accounts/signup/", signup_data(username="Sam"), format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "username-taken"
    assert "any case" in body["message"] and "sam" in body["message"]
    assert list(User.objects.values_list("username", flat=True)) == ["sam"]


def test_the_page_refuses_a_username_differing_only_by_case(sam):
    response = Client(REMOTE_ADDR="10.0.0.6").post("/accounts/signup/", signup_data(username="SAM"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "That username is taken" in page and "any case" in page
    assert list(User.objects.values_list("username", flat=True)) == ["sam"]


def test_the_very_same_name_is_told_plainly(sam):
    with pytest.raises(ServiceError) as err:
        services.register_player(username="sam", password="a-long-Passw0rd!", date_of_birth=years_ago(30),
                                 country="GB")
    assert err.value.code == "username-taken"
    assert err.value.message == "That username is taken; please choose another."


@pytest.mark.django_db(transaction=True)
def test_the_database_holds_one_name_in_any_case(sam):
    # Two sign-ups at the same instant both pass the service's check; the database
    # takes one of them (a unique index on the name in lower case).
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="SAM", password=PASSWORD)
    assert User.objects.count() == 1


def test_the_admin_refuses_a_name_differing_only_by_case_on_add_and_rename(client, sam, make_player):
    boss = make_player(username="boss")
    User.objects.filter(pk=boss.pk).update(is_staff=True, is_superuser=True)
    client.force_login(User.objects.get(pk=boss.pk))
    response = client.post(
        "/admin/accounts/user/add/",
        {"username": "Sam", "password1": "a-long-Passw0rd!", "password2": "a-long-Passw0rd!",
         "usable_password": "true"},
    )
    assert response.status_code == 200 and "already exists" in response.content.decode()
    # Renaming boss to "SAM": the change form says so (the database's rule, checked by the form).
    page = client.get(f"/admin/accounts/user/{boss.pk}/change/").content.decode()
    assert "SAM" not in page
    form = form_fields(page)
    form["username"] = "SAM"
    response = client.post(f"/admin/accounts/user/{boss.pk}/change/", form)
    assert response.status_code == 200, response.status_code
    assert "in some other case, already exists" in response.content.decode()
    assert sorted(User.objects.values_list("username", flat=True)) == ["boss", "sam"]
