"""Passwords and the account's e-mail from the outside, over HTTP: the forgotten-password
link (by username or e-mail, to the guardian too for a child), setting a new password
from it, changing it signed in, and changing the e-mail address (docs/accounts.md,
"Password and e-mail")."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts import dispatch, passwords, services
from accounts.models import GuardianConsent, User
from tests.factories import PASSWORD
from tests.league.support import eager_tasks
from tests.support import years_ago

NEW_PASSWORD = "another-Long-passw0rd"
RESET = "/accounts/password/reset/"
SENT = "/accounts/password/reset/sent/"
LINK = re.compile(r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)")


def ask_reset(client: Client, given: str):
    return client.post(RESET, {"email": given})


def link_in(message: mail.EmailMessage) -> str:
    found = LINK.search(str(message.body))
    assert found, message.body
    return found.group(1)


def set_new_password(client: Client, link: str, password: str = NEW_PASSWORD, again: str | None = None):
    """Open the link (Django moves the token into the session and redirects to a
    ``set-password`` address), then post the form there."""
    opened = client.get(link)
    assert opened.status_code == 302, opened.status_code
    form_url = opened["Location"]
    assert "Set a new password" in client.get(form_url).content.decode()
    return client.post(form_url, {"new_password1": password, "new_password2": again or password})


def can_log_in(username: str, password: str) -> bool:
    client = Client()
    client.post(reverse("accounts:login"), {"username": username, "password": password})
    return "_auth_user_id" in client.session


@pytest.fixture(autouse=True)
def worker():
    """The mail task runs as a worker would run it, in the request's thread."""
    with eager_tasks():
        yield


class UnreachableMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):  # type: ignore[no-untyped-def]
        raise ConnectionRefusedError("the SMTP server is down")


@pytest.fixture
def adult(make_player):
    return make_player(username="ada", email="ada@example.com")


@pytest.fixture
def child(make_player):
    """A 12-year-old in Germany whose guardian consented; no e-mail address of her own."""
    user = make_player(username="kim", born=years_ago(12), country="DE", guardian_email="parent@example.com",
                       open_account=False)
    services.grant_guardian_consent(token=services.consent_token(GuardianConsent.objects.get(user=user)))
    mail.outbox.clear()
    return User.objects.get(pk=user.pk)


class TestForgottenPassword:
    def test_by_username_the_link_sets_a_new_password(self, client, adult):
        response = ask_reset(client, "ADA")  # usernames match whatever the case
        assert response.status_code == 302 and response["Location"] == SENT
        assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.com"]
        assert "ada" in mail.outbox[0].subject
        done = set_new_password(Client(), link_in(mail.outbox[0]))
        assert done.status_code == 302 and done["Location"] == reverse("accounts:password-reset-complete")
        assert can_log_in("ada", NEW_PASSWORD)
        assert not can_log_in("ada", PASSWORD)

    def test_by_e_mail_address(self, client, adult):
        ask_reset(client, "Ada@Example.com")
        assert [m.to for m in mail.outbox] == [["ada@example.com"]]

    def test_a_child_s_link_goes_to_the_guardian(self, client, child):
        ask_reset(client, "kim")
        assert [m.to for m in mail.outbox] == [["parent@example.com"]]
        assert "parent or guardian" in mail.outbox[0].body
        set_new_password(Client(), link_in(mail.outbox[0]))
        assert can_log_in("kim", NEW_PASSWORD)

    def test_a_child_with_her_own_address_and_the_guardian_both_get_it(self, client, child):
        User.objects.filter(pk=child.pk).update(email="kim@example.com")
        ask_reset(client, "kim@example.com")
        assert sorted(m.to[0] for m in mail.outbox) == ["kim@example.com", "parent@example.com"]
        guardian_mail = next(m for m in mail.outbox if m.to == ["parent@example.com"])
        own_mail = next(m for m in mail.outbox if m.to == ["kim@example.com"])
        assert "parent or guardian" in guardian_mail.body and "parent or guardian" not in own_mail.body

    def test_the_answer_is_the_same_whether_or_not_an_account_matches(self, client, adult, make_player):
        make_player(username="nomail")  # an account with no address: nowhere to send
        answers = [ask_reset(Client(), given) for given in ("ada", "nobody-here", "nobody@example.com", "nomail")]
        assert {(a.status_code, a["Location"]) for a in answers} == {(302, SENT)}
        assert [m.to for m in mail.outbox] == [["ada@example.com"]]

    def test_an_account_awaiting_consent_gets_no_link(self, client, make_player):
        make_player(username="waiting", born=years_ago(12), country="DE", guardian_email="parent@example.com",
                    open_account=False)
        mail.outbox.clear()
        ask_reset(client, "waiting")
        assert mail.outbox == []

    def test_a_link_works_once(self, client, adult):
        ask_reset(client, "ada")
        link = link_in(mail.outbox[0])
        set_new_password(Client(), link)
        again = Client().get(link, follow=True)
        assert "This link does not work" in again.content.decode()
        assert can_log_in("ada", NEW_PASSWORD)

    def test_a_forged_or_expired_link_changes_nothing(self, client, adult, settings):
        forged = reverse("accounts:password-reset-confirm", args=["MQ", "abc-123"])
        page = client.get(forged, follow=True)
        assert page.status_code == 200 and "This link does not work" in page.content.decode()
        ask_reset(client, "ada")
        settings.PASSWORD_RESET_TIMEOUT = -1  # every link issued is now past its day
        expired = Client().get(link_in(mail.outbox[0]), follow=True)
        assert "This link does not work" in expired.content.decode()
        assert can_log_in("ada", PASSWORD)

    def test_a_weak_or_mismatched_new_password_is_refused_and_changes_nothing(self, client, adult):
        ask_reset(client, "ada")
        link = link_in(mail.outbox[0])
        browser = Client()
        weak = set_new_password(browser, link, password="12345678")
        assert weak.status_code == 200 and "too common" in weak.content.decode()
        form_url = weak.wsgi_request.path  # the set-password address the token moved to
        mismatch = browser.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"})
        assert mismatch.status_code == 200 and "password fields didn" in mismatch.content.decode()
        assert can_log_in("ada", PASSWORD)

    def test_a_reset_signs_out_api_tokens_and_lifts_a_lockout(self, client, adult, settings):
        settings.AXES_FAILURE_LIMIT = 5
        settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
        Token.objects.create(user=adult)
        for _ in range(5):
            Client().post(reverse("accounts:login"), {"username": "ada", "password": "wrong-guess"})
        assert AccessAttempt.objects.filter(username="ada").exists()
        assert not can_log_in("ada", PASSWORD)  # locked out, the right password too
        ask_reset(client, "ada")
        set_new_password(Client(), link_in(mail.outbox[0]))
        assert not Token.objects.filter(user=adult).exists()
        assert not AccessAttempt.objects.filter(username="ada").exists()
        assert can_log_in("ada", NEW_PASSWORD)

    def test_requests_are_limited_per_address(self, adult, settings):
        default = django_settings.CACHES["default"]
        settings.CACHES = {"default": {**default, "KEY_PREFIX": f"reset-{uuid.uuid4().hex}"}}
        settings.REST_FRAMEWORK = {
            **django_settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                       "password-reset": "2/hour"},
        }
        browser = Client(REMOTE_ADDR="10.9.9.9")
        assert [ask_reset(browser, "ada").status_code for _ in range(2)] == [302, 302]
        limited = ask_reset(browser, "ada")
        assert limited.status_code == 429 and "Too many tries" in limited.content.decode()
        assert len(mail.outbox) == 2
        assert ask_reset(Client(REMOTE_ADDR="10.9.9.10"), "ada").status_code == 302

    def test_with_the_mail_server_down_the_page_answers_and_the_failure_is_logged(self, client, adult,
                                                                                  settings, caplog):
        settings.EMAIL_BACKEND = f"{__name__}.UnreachableMailServer"
        response = ask_reset(client, "ada")
        assert response.status_code == 302 and response["Location"] == SENT
        assert "password-reset mail for user" in caplog.text and "not sent" in caplog.text

    def test_a_guardian_may_give_their_own_address(self, client, child):
        ask_reset(client, "Parent@Example.com")
        assert [m.to for m in mail.outbox] == [["parent@example.com"]]
        assert '"kim"' in mail.outbox[0].body and "parent or guardian" in mail.outbox[0].body

    def test_one_mail_per_mailbox_whatever_the_case(self, client, child):
        GuardianConsent.objects.filter(user=child).update(guardian_email="Parent@Example.com")
        User.objects.filter(pk=child.pk).update(email="kim@example.com")
        ask_reset(client, "kim")
        assert sorted(m.to[0] for m in mail.outbox) == ["Parent@Example.com", "kim@example.com"]

    def test_the_page_only_queues_the_mail(self, client, adult, monkeypatch):
        """The lookup and the mail are the task's: a request for an account and one for
        nobody do the same work, so their timing tells nothing."""
        queued = []
        monkeypatch.setattr(dispatch, "enqueue", lambda name, *args, **kw: queued.append((name, args)) or True)
        ask_reset(client, "ada")
        ask_reset(client, "nobody-at-all")
        assert mail.outbox == []
        assert queued == [(passwords.SEND_TASK, ("ada", "testserver", False)),
                          (passwords.SEND_TASK, ("nobody-at-all", "testserver", False))]

    def test_with_the_broker_down_the_mail_is_sent_from_the_request(self, client, adult, monkeypatch):
        monkeypatch.setattr(dispatch, "enqueue", lambda *args, **kw: False)
        ask_reset(client, "ada")
        assert [m.to for m in mail.outbox] == [["ada@example.com"]]

    def test_the_log_in_page_links_to_it(self, client):
        assert RESET in client.get(reverse("accounts:login")).content.decode()


class TestChangePassword:
    def test_signed_in_the_password_changes_and_this_browser_stays_signed_in(self, client, adult):
        client.force_login(adult)
        other = Client()
        other.force_login(adult)
        Token.objects.create(user=adult)
        response = client.post(reverse("accounts:password-change"), {
            "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert response.status_code == 302 and response["Location"] == reverse("accounts:profile")
        assert client.get(reverse("accounts:profile")).status_code == 200
        assert other.get(reverse("accounts:profile")).status_code == 302  # signed out elsewhere
        assert not Token.objects.filter(user=adult).exists()
        assert can_log_in("ada", NEW_PASSWORD)

    def test_the_wrong_current_password_changes_nothing(self, client, adult):
        client.force_login(adult)
        token = Token.objects.create(user=adult)
        response = client.post(reverse("accounts:password-change"), {
            "old_password": "not-it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert response.status_code == 200 and "not your current password" in response.content.decode()
        assert Token.objects.filter(key=token.key).exists()
        assert can_log_in("ada", PASSWORD)

    def test_guessing_the_old_password_locks_out_as_log_in_guesses_do(self, client, adult, settings):
        settings.AXES_FAILURE_LIMIT = 5
        settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
        client.force_login(adult)
        for n in range(4):
            wrong = client.post(reverse("accounts:password-change"), {
                "old_password": f"guess-{n}", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
            assert wrong.status_code == 200
        locked = client.post(reverse("accounts:password-change"), {
            "old_password": "guess-5", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert locked.status_code == 429
        right = client.post(reverse("accounts:password-change"), {
            "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert right.status_code == 429  # locked: not even the right one is checked
        assert User.objects.get(pk=adult.pk).check_password(PASSWORD)

    def test_spaces_around_a_password_are_part_of_it(self, client, adult):
        spaced = "  " + NEW_PASSWORD + "  "
        client.force_login(adult)
        client.post(reverse("accounts:password-change"), {
            "old_password": PASSWORD, "new_password1": spaced, "new_password2": spaced})
        assert can_log_in("ada", spaced) and not can_log_in("ada", NEW_PASSWORD)
        api = Client().post("/api/v1/accounts/login/", {"username": "ada", "password": spaced},
                            content_type="application/json")
        assert api.status_code == 200, api.content
        kept = client.post(reverse("accounts:email-address"), {"email": "ada2@example.com", "password": spaced})
        assert kept.status_code == 302
        trimmed = client.post(reverse("accounts:email-address"), {"email": "ada3@example.com",
                                                                   "password": NEW_PASSWORD})
        assert trimmed.status_code == 400

    def test_signed_out_it_asks_to_log_in(self, client):
        response = client.get(reverse("accounts:password-change"))
        assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login"))


class TestEmailAddress:
    def test_set_with_the_current_password_and_used_for_resets(self, client, make_player):
        user = make_player(username="noaddress")
        client.force_login(user)
        response = client.post(reverse("accounts:email-address"), {"email": "new@example.com", "password": PASSWORD})
        assert response.status_code == 302
        assert User.objects.get(pk=user.pk).email == "new@example.com"
        ask_reset(Client(), "noaddress")
        assert [m.to for m in mail.outbox] == [["new@example.com"]]

    def test_the_wrong_password_or_a_bad_address_changes_nothing(self, client, adult):
        client.force_login(adult)
        wrong = client.post(reverse("accounts:email-address"), {"email": "evil@example.com", "password": "nope"})
        assert wrong.status_code == 400 and "not your current password" in wrong.content.decode()
        junk = client.post(reverse("accounts:email-address"), {"email": "not an address", "password": PASSWORD})
        assert junk.status_code == 400 and "valid email" in junk.content.decode()
        assert User.objects.get(pk=adult.pk).email == "ada@example.com"

    def test_guessing_the_password_here_locks_out_too(self, client, adult, settings):
        settings.AXES_FAILURE_LIMIT = 5
        settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
        client.force_login(adult)
        answers = [client.post(reverse("accounts:email-address"), {"email": "evil@example.com",
                                                                     "password": f"guess-{n}"}).status_code
                   for n in range(6)]
        assert answers == [400, 400, 400, 400, 429, 429]
        right = client.post(reverse("accounts:email-address"), {"email": "evil@example.com", "password": PASSWORD})
        assert right.status_code == 429
        assert User.objects.get(pk=adult.pk).email == "ada@example.com"
        assert not can_log_in("ada", PASSWORD)  # the same lock-out as the log-in page's

    def test_the_old_address_is_told(self, client, adult, django_capture_on_commit_callbacks):
        client.force_login(adult)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("accounts:email-address"), {"email": "new@example.com", "password": PASSWORD})
        assert [m.to for m in mail.outbox] == [["ada@example.com"]]
        assert "changed to new@example.com" in mail.outbox[0].body

    def test_a_child_may_not_take_the_guardian_s_address(self, client, child):
        client.force_login(child)
        refused = client.post(reverse("accounts:email-address"), {"email": "PARENT@example.com",
                                                                   "password": PASSWORD})
        assert refused.status_code == 400 and "guardian" in refused.content.decode()
        assert User.objects.get(pk=child.pk).email == ""

    def test_removed_when_left_empty(self, client, adult):
        client.force_login(adult)
        client.post(reverse("accounts:email-address"), {"email": "", "password": PASSWORD})
        assert User.objects.get(pk=adult.pk).email == ""

    def test_the_profile_page_offers_both(self, client, adult):
        client.force_login(adult)
        page = client.get(reverse("accounts:profile")).content.decode()
        assert reverse("accounts:password-change") in page and reverse("accounts:email-address") in page
        assert 'value="ada@example.com"' in page
