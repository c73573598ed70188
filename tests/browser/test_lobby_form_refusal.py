"""The lobby's "New game" form refused (a challenge to a player who does not exist, or
to a child one may not reach) says why where the player is looking, at 1280 and 390 px.
An outside walkthrough clicked "Create game" and was carried to the bottom of the page,
the reason 1,700 px above, out of sight: the form is swapped whole (htmx, outerHTML),
and Chromium's scroll anchoring, anchored inside the old form, followed the new one's
insertion down the page."""

from __future__ import annotations

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, PHONE

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_a_refused_challenge_says_why_in_view(sign_in, viewport):
    from playwright.sync_api import expect

    page = sign_in("sam", viewport)
    page.goto("/play/")
    page.check("input[name=opponent][value=user]")
    page.fill("input[name=username]", "nobody-of-that-name")
    page.click("#create-form button[type=submit]")
    reason = page.locator("#create-form [role=alert]")
    expect(reason).to_contain_text("nobody-of-that-name")
    expect(reason).to_be_in_viewport()
