"""The age gate holds (issue #15, item 2): a refused or guardian-pending sign-up is not
turned into an active account by re-sending other facts, on the page or the API; a
guardian's address is not the player's own; usernames follow one rule everywhere.

Every refusal is checked in the database: no account was made, or none is active.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AgeScreenAnswer, User
from tests.factories import SignupFactory
from tests.support import years_ago

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/accounts/signup/"
PAGE = "/accounts/signup/"
BAD_NAMES = ['kid<script>', 'a"b', "o'neil", "x/y", "<>\"'/", ".."]


def facts(**overrides):
    """A 15-year-old's sign-up from Germany (below its age of digital consent)."""
    return SignupFactory(**{"username": "kid", "email": "kid@example.com",
                            "date_of_birth": years_ago(15).isoformat(), "country": "DE", **overrides})


def adult(**overrides):
    return facts(date_of_birth="1990-05-17", **overrides)


def active_accounts() -> list[str]:
    return list(User.objects.filter(is_active=True).values_list("username", flat=True))


def api_client(address: str = "203.0.113.7", agent: str = "curl/8.5") -> APIClient:
    return APIClient(REMOTE_ADDR=address, HTTP_USER_AGENT=agent)


class TestApi:
    def test_refused_request_resent_with_a_1990_birth_date_stays_refused(self):
        client = api_client()
        first = client.post(API, facts(), format="json")
        assert first.status_code == 400 and first.json()["code"] == "guardian-consent-required"
        again = client.post(API, adult(), format="json")
        assert again.status_code == 400, again.json()
        assert again.json()["code"] == "guardian-consent-required"
        assert "that answer is kept until" in again.json()["message"]
        assert not User.objects.exists()

    def test_a_taken_name_is_said_first_and_the_answer_is_remembered_all_the_same(self, make_player):
        make_player(username="taken")
        client = api_client()
        first = client.post(API, facts(username="taken"), format="json")
        assert first.status_code == 400 and first.json()["code"] == "username-taken"
        again = client.post(API, adult(username="fresh", email="fresh@example.com"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert list(User.objects.values_list("username", flat=True)) == ["taken"]

    def test_refused_request_resent_with_country_us_stays_refused(self):
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        again = client.post(API, facts(country="US"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert not User.objects.exists()

    def test_new_names_from_the_same_client_stay_refused(self):
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        again = client.post(API, adult(username="grownup", email="grownup@example.com"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert not User.objects.exists()

    def test_the_same_name_from_another_client_stays_refused(self):
        assert api_client().post(API, facts(), format="json").status_code == 400
        other = api_client(address="198.51.100.9", agent="Mozilla/5.0")
        again = other.post(API, adult(email="other@example.com"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert not User.objects.exists()

    def test_guardian_pending_sign_up_cannot_be_followed_by_an_adult_one(self):
        client = api_client()
        pending = client.post(
            API, facts(guardian_name="Greta", guardian_email="greta@example.com"), format="json"
        )
        assert pending.status_code == 201 and pending.json()["needs_guardian_consent"] is True
        again = client.post(API, adult(username="grownup", email="grownup@example.com"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert list(User.objects.values_list("username", "is_active")) == [("kid", False)]

    def test_the_first_answer_stands_for_a_guardian_pending_account_too(self):
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        pending = client.post(
            API, adult(guardian_name="Greta", guardian_email="greta@example.com"), format="json"
        )
        assert pending.status_code == 201 and pending.json()["needs_guardian_consent"] is True
        assert pending.json()["date_of_birth"] == years_ago(15).isoformat()
        assert active_accounts() == []

    @pytest.mark.parametrize(
        ("email", "guardian_email"),
        [
            ("kid@example.com", "kid@example.com"),
            ("kid@example.com", " KID@Example.COM"),
            ("kid@example.com", "kid+mum@example.com"),
            ("kid@example.com", '"kid"@example.com'),  # quoting: the same mailbox
            ("kid@bücher.example", "kid@xn--bcher-kva.example"),  # one domain, two spellings
        ],
    )
    def test_guardian_email_equal_to_the_players_is_refused(self, email, guardian_email):
        response = api_client().post(
            API, facts(email=email, guardian_name="Me Myself", guardian_email=guardian_email.strip()), format="json"
        )
        assert response.status_code == 400 and response.json()["code"] == "guardian-email-is-players"
        assert not User.objects.exists()

    def test_an_adult_elsewhere_is_not_held_by_someone_elses_answer(self):
        assert api_client().post(API, facts(), format="json").status_code == 400
        other = api_client(address="198.51.100.9", agent="Mozilla/5.0")
        response = other.post(API, adult(username="parent", email="parent@example.com"), format="json")
        assert response.status_code == 201 and response.json()["needs_guardian_consent"] is False
        assert active_accounts() == ["parent"]

    def test_a_younger_answer_is_taken_as_given(self):
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        response = client.post(
            API,
            facts(date_of_birth=years_ago(10).isoformat(), guardian_name="Greta", guardian_email="greta@x.org"),
            format="json",
        )
        assert response.status_code == 201 and response.json()["date_of_birth"] == years_ago(10).isoformat()

    def test_the_device_is_forgotten_after_its_time(self, settings):
        settings.AGE_SCREEN_SECONDS = {**settings.AGE_SCREEN_SECONDS, "device": 60}
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        AgeScreenAnswer.objects.filter(kind="device").update(expires_at=timezone.now() - timedelta(seconds=1))
        response = client.post(API, adult(username="parent", email="parent@example.com"), format="json")
        assert response.status_code == 201
        assert active_accounts() == ["parent"]
        assert not AgeScreenAnswer.objects.filter(expires_at__lte=timezone.now()).exists()  # purged

    def test_no_address_or_name_is_stored_in_clear(self):
        api_client().post(API, facts(), format="json")
        stored = " ".join(AgeScreenAnswer.objects.values_list("key", flat=True))
        assert {"session", "browser"}.isdisjoint(AgeScreenAnswer.objects.values_list("kind", flat=True))
        assert "203.0.113.7" not in stored and "kid" not in stored


class TestTheRefusalSaysUntilWhenAndWhatToDo:
    """A mistyped year (2018, then 1995) was refused with no end in sight and a route
    ("your club's staff") that a newcomer in no club does not have."""

    def test_the_api_says_the_day_the_answer_is_forgotten_and_whom_to_write_to(self, settings):
        settings.CONTACT_EMAIL = "help@club.example"
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        message = client.post(API, adult(), format="json").json()["message"]
        # The username's and e-mail's keys are the longest-kept of the API's (30 days).
        until = timezone.localtime(timezone.now() + timedelta(seconds=settings.AGE_SCREEN_SECONDS["email"]))
        assert f"that answer is kept until {until.day} {until:%B %Y}:" in message
        assert "help@club.example" in message and "their name and e-mail with the sign-up" in message
        assert "your club's staff" not in message

    def test_within_the_day_it_says_how_long_in_minutes_and_the_time(self):
        from accounts import age, services

        now = timezone.now()
        decision = age.service_access(years_ago(15), "DE", timezone.localdate())
        screened = services.ScreenedAnswer(years_ago(15), "DE", decision, True, now + timedelta(minutes=40))
        local = timezone.localtime(now + timedelta(minutes=40))
        assert f"kept until about 40 minutes from now ({local:%H:%M} UTC):" in services.consent_reason(screened, now)
        screened = services.ScreenedAnswer(years_ago(15), "DE", decision, True, now + timedelta(hours=5))
        assert "kept until about 5 hours from now" in services.consent_reason(screened, now)

    def test_another_country_is_said_to_be_held_too(self):
        """A 15-year-old refused in Germany (16) tried again as living in the UK (13), the
        same date, and read "a different date is not taken": they had changed the country."""
        client = api_client()
        assert client.post(API, facts(), format="json").status_code == 400
        again = client.post(API, facts(country="GB"), format="json")
        assert again.status_code == 400 and again.json()["code"] == "guardian-consent-required"
        assert "a different date of birth or country is not taken before then" in again.json()["message"]

    def test_a_first_answer_says_nothing_of_an_earlier_one(self):
        message = api_client().post(API, facts(), format="json").json()["message"]
        assert "earlier sign-up" not in message and "kept until" not in message


class TestPage:
    def test_deleting_the_cookie_does_not_let_an_adult_date_through(self, client):
        response = client.post(PAGE, facts())
        assert "guardian_email" in response.content.decode()
        assert "ttt_age_gate" in response.cookies
        del client.cookies["ttt_age_gate"]
        response = client.post(PAGE, adult())
        page = response.content.decode()
        assert response.status_code == 200 and "guardian_email" in page and "that answer is kept until" in page
        assert not User.objects.exists()

    def test_clearing_every_cookie_does_not_let_an_adult_date_through(self, client):
        client.post(PAGE, facts(), HTTP_USER_AGENT="Firefox/140")
        client.cookies.clear()
        response = client.post(
            PAGE, adult(username="grownup", email="grown@example.com"), HTTP_USER_AGENT="Firefox/140"
        )
        assert "guardian_email" in response.content.decode()
        assert not User.objects.exists()

    def test_guardian_fields_on_the_first_submit_then_an_adult_sign_up_stays_closed(self, client):
        response = client.post(PAGE, facts(guardian_name="Greta", guardian_email="greta@example.com"))
        assert response.status_code == 302 and "ttt_age_gate" in response.cookies  # set on the first submit too
        assert "e-mailed" in client.get(response.url).content.decode()
        del client.cookies["ttt_age_gate"]
        response = client.post(PAGE, adult(username="grownup", email="grown@example.com"))
        assert "guardian_email" in response.content.decode()
        assert list(User.objects.values_list("username", "is_active")) == [("kid", False)]

    def test_guardian_email_equal_to_the_players_is_refused(self, client):
        response = client.post(PAGE, facts(guardian_name="Me", guardian_email="KID@example.com"))
        page = response.content.decode()
        assert "must be their own" in page and "guardian_email" in page
        assert not User.objects.exists()

    def test_the_cookie_is_secure_on_https_and_holds_no_date(self, client):
        response = client.post(PAGE, facts(), secure=True)
        cookie = response.cookies["ttt_age_gate"]
        assert cookie["secure"] and cookie["httponly"]
        assert years_ago(15).isoformat() not in cookie.value and "DE" not in cookie.value.split(":")[0]


class TestUsernames:
    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_page_refuses(self, client, name):
        response = client.post(PAGE, adult(username=name))
        assert response.status_code == 200 and "valid username" in response.content.decode()
        assert not User.objects.exists()

    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_api_refuses(self, name):
        response = api_client().post(API, adult(username=name), format="json")
        assert response.status_code == 400 and "username" in response.json().get("fields", {})
        assert not User.objects.exists()

    @pytest.mark.parametrize("name", BAD_NAMES)
    def test_admin_refuses(self, client, make_player, name):
        boss = make_player(username="boss")
        User.objects.filter(pk=boss.pk).update(is_staff=True, is_superuser=True)
        client.force_login(User.objects.get(pk=boss.pk))
        response = client.post(
            reverse("admin:accounts_user_add"),
            {"username": name, "password1": "a-long-Passw0rd!", "password2": "a-long-Passw0rd!",
             "usable_password": "true"},
        )
        assert response.status_code == 200 and "valid username" in response.content.decode()
        assert list(User.objects.values_list("username", flat=True)) == ["boss"]

    def test_ordinary_names_still_pass_everywhere(self, client):
        assert client.post(PAGE, adult(username="José.M-1")).status_code == 302
        response = api_client().post(API, adult(username="ann_2@club", email="ann@example.com"), format="json")
        assert response.status_code == 201
        assert sorted(active_accounts()) == ["José.M-1", "ann_2@club"]


class TestConsentLinks:
    OLD_KEY = "dev-only-secret-key-change-me-in-production-0123456789"  # once committed in base.py

    def test_a_link_forged_with_the_repositorys_old_key_opens_nothing(self, client, make_player):
        from django.core import signing

        from accounts.services import CONSENT_SALT

        kid = make_player(username="kid14", born=years_ago(14), country="DE", open_account=False)
        assert not kid.is_active
        forged = signing.dumps({"consent": kid.guardian_consent.pk}, key=self.OLD_KEY, salt=CONSENT_SALT)
        assert client.get(reverse("accounts:guardian-consent", args=[forged])).status_code == 400
        assert client.post(reverse("accounts:guardian-consent", args=[forged])).status_code == 400
        kid.refresh_from_db()
        assert not kid.is_active and kid.guardian_consent.granted_at is None


class TestCountryChange:
    """A player's country after sign-up: a move to a country whose consent age they are
    under needs a guardian's consent they already have (the age gate's last door)."""

    def make_teen(self, make_player, **extra):
        return make_player(username="emily", born=years_ago(15), country="GB", open_account=False, **extra)

    def test_a_teen_cannot_move_to_a_country_that_needs_consent_by_api_or_page(self, make_player):
        from accounts.models import Profile

        emily = self.make_teen(make_player)
        api = api_client()
        api.force_authenticate(emily)
        response = api.patch("/api/v1/accounts/me/", {"country": "DE"}, format="json")
        assert response.status_code == 400 and response.json()["code"] == "country-needs-consent"
        page = Client()
        page.force_login(emily)
        response = page.post("/accounts/profile/", {"display_name": "Emily", "country": "DE"})
        assert "need a parent" in response.content.decode()
        assert Profile.objects.get(user=emily).country.code == "GB"

    def test_with_a_guardians_consent_or_to_a_country_that_needs_none_the_change_stands(self, make_player):
        from accounts.models import GuardianConsent, Profile

        emily = self.make_teen(make_player)
        api = api_client()
        api.force_authenticate(emily)
        assert api.patch("/api/v1/accounts/me/", {"country": "US"}, format="json").status_code == 200
        GuardianConsent.objects.create(user=emily, guardian_name="Mum", guardian_email="mum@example.com",
                                       granted_at=timezone.now())
        assert api.patch("/api/v1/accounts/me/", {"country": "DE"}, format="json").status_code == 200
        assert Profile.objects.get(user=emily).country.code == "DE"


class TestSharedDevice:
    """A parent signing up after their child on the family's computer or a club's tablet
    (an outside tester): the device key (address and browser name, an hour) is the one
    strangers share. It holds a child's retry on that device for its hour, but marks no
    one's browser, session or names, and the child's guardian consenting frees it."""

    AGENT = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131"

    def browser(self, agent: str = AGENT) -> Client:
        return Client(HTTP_USER_AGENT=agent)

    def child_signs_up(self, **extra) -> User:
        child = facts(username="tom", email="", date_of_birth="2016-06-01", country="GB",
                      guardian_name="Dana", guardian_email="dana@example.com", **extra)
        assert "e-mailed Dana" in self.browser().post(PAGE, child, follow=True).content.decode()
        return User.objects.get(username="tom")

    def consent(self, user: User) -> None:
        from accounts.services import consent_token

        url = reverse("accounts:guardian-consent", args=[consent_token(user.guardian_consent)])
        assert self.browser("Guardian's phone").post(url, {"answer": "consent"}).status_code == 200

    def parent(self, client: Client, username: str = "dana"):
        return client.post(PAGE, adult(username=username, email=f"{username}@example.com", country="GB"))

    def test_after_the_guardian_consents_an_adult_on_the_same_computer_signs_up(self):
        self.consent(self.child_signs_up())
        response = self.parent(self.browser())
        assert response.status_code == 302, response.content.decode()
        assert sorted(active_accounts()) == ["dana", "tom"]

    def test_before_consent_the_adult_is_told_the_true_time_and_their_browser_is_not_marked(self):
        self.child_signs_up()
        remembered = set(AgeScreenAnswer.objects.values_list("key", "expires_at"))
        adults_browser = self.browser()
        page = self.parent(adults_browser).content.decode()
        device_until = AgeScreenAnswer.objects.get(kind="device").expires_at
        local = timezone.localtime(device_until)
        assert "guardian_email" in page and "An earlier sign-up on this device" in page
        assert f"minutes from now ({local:%H:%M} UTC)" in page and f"{local.year + 1}" not in page
        assert "someone else" in page
        # Nothing of the adult's attempt is remembered: the same browser (cookie and
        # session) under another browser name is a new device, and is let in.
        assert set(AgeScreenAnswer.objects.values_list("key", "expires_at")) == remembered
        response = adults_browser.post(
            PAGE, adult(username="dana2", email="dana2@example.com", country="GB"),
            HTTP_USER_AGENT="Mozilla/5.0 Firefox/140")
        assert response.status_code == 302, response.content.decode()
        assert active_accounts() == ["dana2"]

    def test_a_refused_child_on_the_device_keeps_it_held_when_another_childs_guardian_consents(self):
        tom = self.child_signs_up()
        assert "guardian_email" in self.browser().post(
            PAGE, facts(username="amy", email="", date_of_birth="2015-02-02", country="GB")).content.decode()
        self.consent(tom)
        page = self.parent(self.browser(), username="amy2").content.decode()
        assert "guardian_email" in page
        assert active_accounts() == ["tom"]

    def test_the_childs_own_browser_still_refuses_an_adult_date_after_consent(self):
        child_browser = self.browser()
        child = facts(username="tom", email="", date_of_birth="2016-06-01", country="GB",
                      guardian_name="Dana", guardian_email="dana@example.com")
        child_browser.post(PAGE, child)
        self.consent(User.objects.get(username="tom"))
        page = self.parent(child_browser, username="tom_adult").content.decode()
        assert "guardian_email" in page and "this browser" in page
        assert active_accounts() == ["tom"]
