"""A new player's way in, as a browser walkthrough found it: logging in before the
guardian consents (page and API, lockout counts), the child's sign-up form sent back
with an error, the guardian saying no, and the first page after an adult's sign-up."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail, signing
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import AgeScreenAnswer, GuardianConsent, User
from tests.factories import PASSWORD
from tests.factories import SignupFactory as signup_data
from tests.support import own_abuse_counts, years_ago

pytestmark = pytest.mark.django_db(transaction=True)

LOGIN = "/accounts/login/"
API_LOGIN = "/api/v1/accounts/login/"
SIGNUP = "/accounts/signup/"
GENERIC = "Please enter a correct username and password"
WAITING = "Your account is waiting for your parent&#x27;s or guardian&#x27;s consent"


@pytest.fixture(autouse=True)
def fresh_limits(settings):
    own_abuse_counts(settings, "consent-ux")


@pytest.fixture
def kid(make_player):
    """Ten, in Britain: signed up, waiting for Guardian's consent."""
    return make_player(username="kid", born=years_ago(10), country="GB", open_account=False)


def page_login(username: str, password: str, ip: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=ip).post(LOGIN, {"username": username, "password": password})


def api_login(username: str, password: str, ip: str = "10.0.0.1"):
    return APIClient(REMOTE_ADDR=ip).post(API_LOGIN, {"username": username, "password": password}, format="json")


def failures() -> int:
    return sum(AccessAttempt.objects.values_list("failures_since_start", flat=True))


# -- 1. logging in before the guardian consents ---------------------------------------------


class TestLoginAwaitingConsent:
    def test_the_right_password_says_the_account_waits_for_the_guardian(self, kid):
        response = page_login("kid", PASSWORD)
        page = response.content.decode()
        assert response.status_code == 200
        assert WAITING in page and GENERIC not in page
        sent = timezone.localtime(kid.guardian_consent.requested_at)
        assert f"we e-mailed Guardian a link on {sent.day} {sent:%B %Y}" in page
        assert "_auth_user_id" not in Client().session  # not signed in
        assert failures() == 0  # the right password is no failed log-in

    def test_a_wrong_password_reveals_nothing_and_counts(self, kid, make_player):
        kid_page = page_login("kid", "wrong-password").content.decode()
        nobody_page = page_login("nobody", "wrong-password").content.decode()
        for page in (kid_page, nobody_page):
            assert GENERIC in page and "guardian" not in page.lower()
        assert failures() == 2

    def test_the_right_password_many_times_never_locks_the_account(self, kid):
        for _ in range(7):
            response = page_login("kid", PASSWORD)
            assert response.status_code == 200 and WAITING in response.content.decode()
        assert failures() == 0

    def test_the_lockout_still_holds_and_checks_no_password(self, kid):
        for _ in range(5):
            page_login("kid", "wrong-password")
        response = page_login("kid", PASSWORD)
        assert response.status_code == 429 and "guardian" not in response.content.decode().lower()
        api = api_login("kid", PASSWORD)
        assert api.status_code == 429 and api.json()["code"] == "locked-out"

    def test_a_deactivated_account_keeps_the_generic_message(self, make_player):
        user = make_player(username="gone")
        User.objects.filter(pk=user.pk).update(is_active=False)
        page = page_login("gone", PASSWORD).content.decode()
        assert GENERIC in page and "guardian" not in page.lower()
        assert api_login("gone", PASSWORD).json()["code"] == "invalid-credentials"

    def test_a_withdrawn_consent_keeps_the_generic_message(self, kid):
        services.withdraw_guardian_consent(consent=kid.guardian_consent)
        assert GENERIC in page_login("kid", PASSWORD).content.decode()

    def test_api_says_awaiting_consent_for_the_right_password_only(self, kid):
        response = api_login("kid", PASSWORD)
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "awaiting-consent" and "we e-mailed Guardian a link on" in body["message"]
        assert api_login("kid", "wrong-password").json() == {
            "code": "invalid-credentials", "message": "Wrong username or password."}
        assert failures() == 1  # the wrong one only

    def test_an_expired_link_says_whom_to_write_to(self, kid, settings):
        settings.CONTACT_EMAIL = "help@club.example"
        GuardianConsent.objects.filter(user=kid).update(requested_at=timezone.now() - timedelta(days=20))
        page = page_login("kid", PASSWORD).content.decode()
        assert "That link stopped working" in page and "help@club.example" in page

    def test_the_admin_log_in_answers_as_before(self, kid):
        response = Client(REMOTE_ADDR="10.0.0.9").post("/admin/login/", {"username": "kid", "password": PASSWORD})
        assert response.status_code == 200  # a refusal, not a server error


# -- 2. the child's sign-up form sent back with an error -----------------------------------


def child(**overrides):
    return signup_data(username="kid", email="kid@example.com",
                       date_of_birth=years_ago(15).isoformat(), country="DE", **overrides)


class TestChildSignupForm:
    def test_the_guardian_section_says_to_type_the_password_again(self, client):
        page = client.post(SIGNUP, child()).content.decode()
        assert 'name="guardian_email"' in page
        assert "Type your password again." in page
        assert PASSWORD not in page  # never sent back

    def test_an_error_keeps_the_guardian_section_and_what_was_typed(self, client):
        client.post(SIGNUP, child())
        response = client.post(SIGNUP, child(password="", guardian_name="Greta Example",
                                              guardian_email="greta@example.com"))
        page = response.content.decode()
        assert "This field is required." in page  # the password
        assert 'value="Greta Example"' in page and 'value="greta@example.com"' in page
        assert "Ask for consent" in page
        # Typed again, the consent is asked for with what was kept.
        response = client.post(SIGNUP, child(guardian_name="Greta Example", guardian_email="greta@example.com"),
                               follow=True)
        assert "e-mailed" in response.content.decode()
        assert GuardianConsent.objects.get(user__username="kid").guardian_email == "greta@example.com"

    def test_a_date_that_needs_a_guardian_shows_the_section_even_with_another_error(self, client):
        response = client.post(SIGNUP, child(password=""))
        page = response.content.decode()
        assert 'name="guardian_email"' in page and "This field is required." in page
        # ... and that answer is remembered, as a complete sign-up's is (the age gate).
        assert AgeScreenAnswer.objects.filter(kind="username").exists()
        response = client.post(SIGNUP, signup_data(username="kid", email="kid@example.com"))  # now "30"
        assert 'name="guardian_email"' in response.content.decode()
        assert not User.objects.exists()

    def test_an_adults_form_with_an_error_shows_no_guardian_section(self, client):
        page = client.post(SIGNUP, signup_data(password="")).content.decode()
        assert 'name="guardian_email"' not in page and "Type your password again." in page


# -- 3. the guardian says no --------------------------------------------------------------


def consent_link(client) -> str:
    client.post(SIGNUP, child(guardian_name="Greta", guardian_email="greta@example.com"))
    found = re.search(r"http://testserver(/accounts/consent/\S+/)", str(mail.outbox[-1].body))
    assert found is not None
    return found.group(1)


class TestGuardianDeclines:
    def test_the_page_offers_both_answers_and_a_true_way_to_withdraw(self, client, settings):
        settings.CONTACT_EMAIL = "help@club.example"
        page = client.get(consent_link(client)).content.decode()
        assert "I give my consent" in page and "I do not consent" in page
        assert "writing to the club" not in page and "mailto:help@club.example" in page

    def test_no_deletes_the_pending_account(self, client):
        link = consent_link(client)
        response = client.post(link, {"answer": "decline"})
        assert response.status_code == 200 and "has been deleted" in response.content.decode()
        assert not User.objects.filter(username="kid").exists()
        assert not GuardianConsent.objects.exists()
        assert client.post(link, {"answer": "consent"}).status_code == 400  # nothing left to open
        assert GENERIC in page_login("kid", PASSWORD).content.decode()

    def test_the_age_screen_remembers_the_answer_after_the_account_is_gone(self, client):
        client.post(consent_link(client), {"answer": "decline"})
        other = Client(REMOTE_ADDR="10.9.9.9", HTTP_USER_AGENT="Other/1")
        response = other.post(SIGNUP, signup_data(username="kid", email="kid@example.com"))  # now "30"
        assert 'name="guardian_email"' in response.content.decode()
        assert not User.objects.exists()

    def test_no_after_yes_deletes_nothing(self, client):
        link = consent_link(client)
        client.post(link, {"answer": "consent"})
        response = client.post(link, {"answer": "decline"})
        assert response.status_code == 400 and "already gave your consent" in response.content.decode()
        assert User.objects.get(username="kid").is_active

    @pytest.mark.parametrize("answer", [None, "", "maybe", "yes"])
    def test_only_the_consent_button_consents(self, client, answer):
        """Found by an outside probe: any answer but "decline" opened the account."""
        link = consent_link(client)
        response = client.post(link, {} if answer is None else {"answer": answer})
        assert response.status_code == 400
        assert "Choose one of the two buttons" in response.content.decode()
        assert not User.objects.get(username="kid").is_active
        assert not GuardianConsent.objects.get().is_granted

    def test_withdrawing_closes_the_account(self, client):
        link = consent_link(client)
        client.post(link, {"answer": "consent"})
        consent = GuardianConsent.objects.get()
        services.withdraw_guardian_consent(consent=consent)
        assert not User.objects.get(username="kid").is_active
        assert client.post(link, {"answer": "consent"}).status_code == 400  # the link opens nothing again


# -- 4. the first page after an adult's sign-up ----------------------------------------------


def test_the_welcome_offers_a_lesson_and_a_game(client):
    response = client.post(SIGNUP, signup_data(display_name="<b>Sam</b>"), follow=True)
    page = response.content.decode()
    assert "Welcome, &lt;b&gt;Sam&lt;/b&gt;!" in page  # the name is escaped, the links are not
    assert '<a href="/learn/">Take a first lesson</a>' in page
    assert '<a href="/play/">Play a game</a>' in page


class TestAUsedLink:
    """A used consent link opened again showed the whole form, both buttons and "the
    account, which has not been opened, is deleted at once" beside an open account (an
    outside tester): it says what was answered, and when, with no form."""

    def test_after_yes_it_says_consent_was_given_and_when(self, client, settings):
        settings.CONTACT_EMAIL = "help@club.example"
        link = consent_link(client)
        client.post(link, {"answer": "consent"})
        response = client.get(link)
        page = response.content.decode()
        given = timezone.localtime(GuardianConsent.objects.get().granted_at)
        assert response.status_code == 200
        assert f"Greta gave their consent on {given.day} {given:%B %Y}" in page and "account is open" in page
        assert "<form" not in page.split("<main", 1)[-1] and "I do not consent" not in page
        assert "has not been opened" not in page and "mailto:help@club.example" in page

    def test_after_a_withdrawal_it_says_the_account_is_closed_and_when(self, client):
        link = consent_link(client)
        client.post(link, {"answer": "consent"})
        services.withdraw_guardian_consent(consent=GuardianConsent.objects.get())
        page = client.get(link).content.decode()
        assert "was withdrawn on" in page and "account is closed" in page
        assert "I give my consent" not in page

    def test_after_no_it_says_the_account_was_deleted(self, client):
        link = consent_link(client)
        client.post(link, {"answer": "decline"})
        response = client.get(link)
        page = response.content.decode()
        assert response.status_code == 400 and "has been deleted, with everything it held" in page
        assert "I give my consent" not in page


class TestTheChildsWayIn:
    """The child's sign-up was a surprise, then a dead end (an outside tester): the form
    never said a guardian step may come, and "Almost there" had no link at all."""

    def test_the_form_says_a_guardian_step_may_come_without_naming_an_age(self, client):
        page = client.get(SIGNUP).content.decode()
        assert "the next step asks for their name and e-mail" in page
        assert 'aria-describedby="id_date_of_birth_helptext"' in page  # read with the date box

    def test_the_password_box_sent_back_says_why_it_is_empty(self, client):
        page = client.post(SIGNUP, child()).content.decode()
        assert "where the next person on this device could read it" in page

    def test_almost_there_offers_a_way_forward(self, client):
        sent = client.post(SIGNUP, child(guardian_name="Greta", guardian_email="greta@example.com"))
        # Post/redirect/get: a refresh of the page shows it again, never sends the form again.
        assert sent.status_code == 302 and sent.url == "/accounts/signup/sent/"
        page = client.get(sent.url).content.decode()
        assert "Almost there" in client.get(sent.url).content.decode()  # refreshed
        expires = timezone.localtime(services.consent_link_expires(GuardianConsent.objects.get()))
        assert "Almost there" in page and f"the link works until {expires.day} {expires:%B %Y}" in page
        main = page.split('<main id="main"', 1)[1].split("</main>", 1)[0]
        for href in ('href="/rules/"', 'href="/learn/"', 'href="/"', 'href="/accounts/login/"'):
            assert href in main


def test_almost_there_without_a_sign_up_goes_to_the_sign_up(client):
    assert client.get("/accounts/signup/sent/").url == SIGNUP


@pytest.mark.django_db
@pytest.mark.parametrize("payload", [{"consent": "x"}, {"consent": [1]}, {"consent": None}, {"consent": True}, ["x"]])
def test_a_signed_link_naming_no_consent_is_refused_in_words(client, payload):
    """A link signed right but holding no consent id answered 500 for text, and for null
    that the account had been deleted (rules probe)."""
    token = signing.dumps(payload, salt=services.CONSENT_SALT)
    response = client.get(f"/accounts/consent/{token}/")
    assert response.status_code == 400
    assert "not valid or has expired" in response.content.decode()
