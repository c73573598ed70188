"""Sign-up with the age gate, guardian consent and profiles: pages and API."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core import mail
from django.urls import reverse

from accounts import services
from accounts.errors import ServiceError
from accounts.models import GuardianConsent, User
from tests.factories import SignupFactory as signup_data
from tests.support import years_ago

pytestmark = pytest.mark.django_db(transaction=True)


class TestSignupPage:
    def test_date_of_birth_is_asked_neutrally(self, client):
        page = client.get(reverse("accounts:signup")).content.decode()
        assert "Date of birth" in page
        assert not re.search(r"\b(13|16|under|at least)\b", page, re.I)

    def test_adult_signs_up_and_is_logged_in(self, client):
        response = client.post(reverse("accounts:signup"), signup_data())
        assert response.status_code == 302
        user = User.objects.get(username="newplayer")
        assert user.is_active and user.profile.country.code == "GB"
        assert client.get(reverse("accounts:profile")).status_code == 200

    def test_fifteen_year_old_from_the_uk_is_accepted(self, client):
        client.post(reverse("accounts:signup"), signup_data(date_of_birth=years_ago(15).isoformat()))
        assert User.objects.get(username="newplayer").is_active

    def test_fifteen_year_old_from_germany_is_sent_to_guardian_consent(self, client):
        response = client.post(
            reverse("accounts:signup"), signup_data(date_of_birth=years_ago(15).isoformat(), country="DE")
        )
        page = response.content.decode()
        assert "guardian" in page.lower() and "guardian_email" in page
        assert not User.objects.filter(username="newplayer").exists()

    def test_a_refused_browser_cannot_enter_another_date(self, client):
        client.post(reverse("accounts:signup"), signup_data(date_of_birth=years_ago(15).isoformat(), country="DE"))
        # The same browser now claims to be 30: the first date stands.
        response = client.post(reverse("accounts:signup"), signup_data(date_of_birth=years_ago(30).isoformat()))
        assert "guardian_email" in response.content.decode()
        assert not User.objects.filter(username="newplayer").exists()

    def test_guardian_consent_opens_the_account(self, client):
        client.post(reverse("accounts:signup"), signup_data(date_of_birth=years_ago(15).isoformat(), country="DE"))
        response = client.post(
            reverse("accounts:signup"),
            signup_data(
                date_of_birth=years_ago(15).isoformat(),
                country="DE",
                guardian_name="Greta",
                guardian_email="greta@example.com",
            ),
            follow=True,
        )
        assert "e-mailed" in response.content.decode()
        user = User.objects.get(username="newplayer")
        assert not user.is_active
        assert len(mail.outbox) == 1 and mail.outbox[0].to == ["greta@example.com"]
        link = re.search(r"http://testserver(/accounts/consent/\S+/)", mail.outbox[0].body).group(1)
        assert "I give my consent" in client.get(link).content.decode()
        assert not User.objects.get(pk=user.pk).is_active  # looking is not consenting
        client.post(link, {"answer": "consent"})
        assert User.objects.get(pk=user.pk).is_active
        assert GuardianConsent.objects.get(user=user).is_granted

    def test_a_forged_consent_link_changes_nothing(self, client):
        response = client.post(reverse("accounts:guardian-consent", args=["forged:token"]))
        assert response.status_code == 400

    def test_profile_update_with_htmx_returns_the_partial(self, client, make_player):
        user = make_player()
        client.force_login(user)
        response = client.post(
            reverse("accounts:profile"), {"display_name": "Renamed", "country": "FR"}, HTTP_HX_REQUEST="true"
        )
        body = response.content.decode()
        assert 'id="profile-card"' in body and "<html" not in body
        user.profile.refresh_from_db()
        assert user.profile.display_name == "Renamed" and user.profile.country.code == "FR"


class TestServices:
    def test_without_guardian_details_a_minor_is_refused(self, db):
        with pytest.raises(ServiceError) as err:
            services.register_player(
                username="kid", password="a-long-Passw0rd!", date_of_birth=years_ago(15), country="DE"
            )
        assert err.value.code == "guardian-consent-required"
        assert not User.objects.exists()

    def test_future_birth_date_is_refused_with_a_clear_error(self, db):
        with pytest.raises(ServiceError) as err:
            services.register_player(
                username="x", password="a-long-Passw0rd!", date_of_birth=date(2999, 1, 1), country="GB"
            )
        assert err.value.code == "invalid-date-of-birth"

    def test_weak_password_changes_nothing(self, db):
        with pytest.raises(ServiceError) as err:
            services.register_player(username="x", password="123", date_of_birth=years_ago(30), country="GB")
        assert err.value.code == "weak-password"
        assert not User.objects.exists()

    def test_taken_username_is_refused(self, make_player):
        make_player(username="taken")
        with pytest.raises(ServiceError) as err:
            services.register_player(
                username="TAKEN", password="a-long-Passw0rd!", date_of_birth=years_ago(30), country="GB"
            )
        assert err.value.code == "username-taken"

    def test_three_year_old_cannot_be_entered_in_play(self, make_player):
        toddler = make_player(born=years_ago(3), country="GB")
        decision = services.play_eligibility(user=toddler)
        assert not decision.allowed and "too young" in decision.reason

    def test_105_year_old_can_be_entered_in_play(self, make_player):
        assert services.play_eligibility(user=make_player(born=years_ago(105))).allowed


class TestApi:
    def test_signup_login_me_logout(self, client):
        response = client.post("/api/v1/accounts/signup/", signup_data(), content_type="application/json")
        assert response.status_code == 201, response.json()
        assert response.json()["needs_guardian_consent"] is False
        token = client.post(
            "/api/v1/accounts/login/",
            {"username": "newplayer", "password": "a-long-Passw0rd!"},
            content_type="application/json",
        ).json()["token"]
        auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
        me = client.get("/api/v1/accounts/me/", **auth).json()
        assert me["username"] == "newplayer" and me["can_play"] is True
        patched = client.patch(
            "/api/v1/accounts/me/", {"display_name": "API Name"}, content_type="application/json", **auth
        )
        assert patched.json()["display_name"] == "API Name"
        # A form's blank is a blank given, refused as JSON's "" is (it was ignored: 200).
        blank = client.patch("/api/v1/accounts/me/", "display_name=",
                             content_type="application/x-www-form-urlencoded", **auth)
        assert blank.status_code == 400 and blank.json()["fields"] == {"display_name": ["This field may not be blank."]}
        assert client.get("/api/v1/accounts/me/", **auth).json()["display_name"] == "API Name"
        number = client.patch("/api/v1/accounts/me/", {"display_name": 0}, content_type="application/json", **auth)
        assert number.status_code == 400 and number.json()["fields"] == {"display_name": ["Not a valid string."]}
        assert client.post("/api/v1/accounts/logout/", **auth).status_code == 204
        assert client.get("/api/v1/accounts/me/", **auth).status_code == 401

    def test_minor_without_guardian_gets_the_one_error_shape(self, client):
        response = client.post(
            "/api/v1/accounts/signup/",
            signup_data(date_of_birth=years_ago(15).isoformat(), country="DE"),
            content_type="application/json",
        )
        assert response.status_code == 400
        assert response.json()["code"] == "guardian-consent-required"
        assert "guardian" in response.json()["message"]

    def test_malformed_input_gets_the_one_error_shape(self, client):
        response = client.post("/api/v1/accounts/signup/", {"username": "x"}, content_type="application/json")
        body = response.json()
        assert response.status_code == 400 and body["code"] == "invalid" and body["message"]
        assert "password" in body["fields"]

    def test_wrong_password_is_refused(self, client, make_player):
        make_player(username="someone")
        response = client.post(
            "/api/v1/accounts/login/", {"username": "someone", "password": "nope"}, content_type="application/json"
        )
        assert response.status_code == 400 and response.json()["code"] == "invalid-credentials"

    def test_unauthenticated_me_uses_the_error_shape(self, client):
        body = client.get("/api/v1/accounts/me/").json()
        assert body["code"] == "not_authenticated" and body["message"]
