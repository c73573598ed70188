"""The guardian step when the age answer is held by the device alone (a shared computer,
docs/accounts.md): the reader is most likely the next person on it, a parent after their
child or a club's next member, who typed an adult's date. The page spoke to them as the
child ("Enter your parent's or guardian's details"); it now says what holds the device,
what frees it (the guardian's consent, when that sign-up awaits one) and keeps the
guardian route for a date that was theirs. A child's own guardian step is unchanged."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from tests.accounts.test_age_gate import PAGE, adult, facts

pytestmark = pytest.mark.django_db(transaction=True)

AGENT = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131"
TO_THE_CHILD = "Enter your parent's or guardian's details"


def browser() -> Client:
    return Client(HTTP_USER_AGENT=AGENT)  # a new cookie and session: the device alone is shared


def notice(page: str) -> str:
    """The guardian step's words, tags dropped."""
    start = page.index('<div class="notice" role="alert">')
    block = page[start:page.index("</div>", start)]
    return " ".join(unescape(block).replace("<p>", " ").replace("</p>", " ").replace("<br>", " ").split())


def parent_signs_up() -> str:
    return browser().post(PAGE, adult(username="dana", email="dana@example.com", country="GB")).content.decode()


def test_a_parent_after_their_childs_pending_sign_up_is_told_what_frees_the_device():
    child = facts(username="tom", email="", date_of_birth="2016-06-01", country="GB",
                  guardian_name="Dana", guardian_email="dana@example.com")
    assert "e-mailed Dana" in browser().post(PAGE, child, follow=True).content.decode()

    page = parent_signs_up()
    words = notice(page)
    assert TO_THE_CHILD not in page
    assert "An earlier sign-up on this device" in words and "Nothing of yours is kept." in words
    assert ("If that was your child's sign-up and you are the parent or guardian we e-mailed: give your consent "
            "with the link in that e-mail. That frees this device at once, and you can then sign up here.") in words
    assert "If the earlier date was yours and a mistake" in words
    # The guardian route stays, for a date that was theirs, and says so above its fields.
    assert "guardian_email" in page and "Only if the earlier date was yours: your parent's or guardian's details." in page
    assert page.count("<p>", page.index('role="alert"'), page.index("</div>", page.index('role="alert"'))) == 3


def test_a_refused_childs_device_without_a_guardian_says_to_wait_and_not_to_give_consent():
    # The child gave no guardian's details: nothing is waiting, nothing to consent to.
    assert "guardian_email" in browser().post(
        PAGE, facts(username="amy", email="", date_of_birth="2015-02-02", country="GB")).content.decode()
    page = parent_signs_up()
    words = notice(page)
    assert TO_THE_CHILD not in page and "we e-mailed" not in words
    assert "If that was someone else's sign-up, at home or at a club, sign up again after that time." in words


def test_the_childs_own_guardian_step_still_speaks_to_the_child():
    page = browser().post(PAGE, facts(username="amy", email="", date_of_birth="2015-02-02",
                                      country="GB")).content.decode()
    assert TO_THE_CHILD in page and "An earlier sign-up on this device" not in page
    assert "Only if the earlier date was yours" not in page
