"""The sign-up age gate in a real browser (Debian's chromium, Playwright) against a real
running platform (issue #15, item 2): a 15-year-old from Germany is asked for a
guardian; with the age-gate cookie cleared, an adult date is refused too; the account
made with a guardian's details stays closed; and consent links signed with the key once
committed to the repository open nothing on the demo."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import date

from django.core import signing

from accounts.services import CONSENT_SALT
from tests.browser.support import BROWSER_MARKS, LAPTOP, TIMEOUT_MS, shoot

pytestmark = BROWSER_MARKS

OLD_KEY = "dev-only-secret-key-change-me-in-production-0123456789"


def fifteen_years_ago() -> str:
    today = date.today()
    return date(today.year - 15, today.month, min(today.day, 28)).isoformat()


def fill_signup(page, born: str, country: str) -> None:
    page.fill("input[name=username]", "teen_de")
    page.fill("input[name=email]", "teen@example.com")
    page.fill("input[name=password]", "a-long-Passw0rd!")
    page.fill("input[name=date_of_birth]", born)
    page.select_option("select[name=country]", country)


def status_of(url: str, data: dict | None = None) -> int:
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_refused_teen_cannot_clear_the_cookie_and_sign_up_as_an_adult(server, browser):
    context = browser.new_context(viewport=LAPTOP, base_url=server)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto("/accounts/signup/")
        fill_signup(page, fifteen_years_ago(), "DE")
        page.click("form button[type=submit]")
        page.wait_for_selector("input[name=guardian_email]")
        assert "guardian" in page.inner_text("[role=alert]").lower()
        shoot(page, "signup-guardian-asked")

        assert any(c["name"] == "ttt_age_gate" for c in context.cookies())
        context.clear_cookies(name="ttt_age_gate")
        page.goto("/accounts/signup/")
        fill_signup(page, "1990-05-17", "GB")
        page.click("form button[type=submit]")
        page.wait_for_selector("input[name=guardian_email]")
        assert "that answer is kept until" in page.inner_text("[role=alert]")
        shoot(page, "signup-adult-date-refused")
        # No account, so no log-in.
        login = {"username": "teen_de", "password": "a-long-Passw0rd!"}
        assert status_of(f"{server}/api/v1/accounts/login/", login) == 400

        # With a guardian's details the account is made, closed until they consent.
        page.fill("input[name=password]", "a-long-Passw0rd!")
        page.fill("input[name=guardian_name]", "Greta")
        page.fill("input[name=guardian_email]", "greta@example.com")
        page.click("form button[type=submit]")
        page.wait_for_selector("text=Almost there")
        assert status_of(f"{server}/api/v1/accounts/login/", login) == 400
    finally:
        context.close()

    # The demo's guardians' consents (seed_demo) and this one: none opens from a link
    # signed with the key that was once in the repository.
    for pk in range(1, 12):
        forged = signing.dumps({"consent": pk}, key=OLD_KEY, salt=CONSENT_SALT)
        assert status_of(f"{server}/accounts/consent/{forged}/") == 400
