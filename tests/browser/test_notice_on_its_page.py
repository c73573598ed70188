"""A notice about the page the player is on (a newcomer's walkthrough): Sam waits on
his challenge's game page; Mei accepts it. The toast "Mei accepted your challenge ..."
showed there with an "Open" button to the very page Sam was on. On the page a notice
is about, the toast says it without that button, and the notice is marked read (Sam
has seen it where it happened): the unread count does not grow, and the inbox lists
it read (docs/game-page.md). Elsewhere the toast still offers "Open". In a real
Chromium at 1280 and 390 px; screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import BROWSER_MARKS, shoot, wait_live
from tests.browser.test_live_play import accept_from_lobby, challenge

pytestmark = BROWSER_MARKS

WIDTHS = {"1280": {"width": 1280, "height": 860}, "390": {"width": 390, "height": 844}}


def unread(page) -> int:
    badge = page.locator("#unread-count")
    return int(badge.get_attribute("data-unread") or badge.inner_text() or 0)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_notice_about_this_page_shows_without_a_link_to_it(sign_in, width):
    from playwright.sync_api import expect

    sam, mei = sign_in("sam", WIDTHS[width]), sign_in("mei", WIDTHS["1280"])
    url = challenge(sam, "classic", "mei")
    expect(sam.locator("#live-status")).to_contain_text("Live")
    before = unread(sam)
    accept_from_lobby(mei, url)
    wait_live(sam)
    toast = sam.locator(".notice-live", has_text="accepted your challenge")
    expect(toast).to_be_visible()
    shoot(sam, f"notice-on-its-page-{width}")
    expect(toast.locator("form, a")).to_have_count(0)  # no "Open" to the page it is on
    expect(toast.get_by_role("button", name="Dismiss this notice")).to_be_visible()
    # Seen where it happened: read, so the count is what it was before it came.
    expect(sam.locator("#unread-count")).to_have_attribute("data-unread", str(before))
    sam.goto("/accounts/notices/")
    expect(sam.locator(".notice-item", has_text="accepted your challenge").first).to_have_class(
        re.compile(r"\bis-read\b"))


def test_a_notice_about_another_page_still_offers_to_open_it(sign_in):
    from playwright.sync_api import expect

    sam, mei = sign_in("sam"), sign_in("mei")
    url = challenge(sam, "classic", "mei")
    sam.goto("/clubs/")
    expect(sam.locator("#live-status")).to_contain_text("Live")
    accept_from_lobby(mei, url)
    toast = sam.locator(".notice-live", has_text="accepted your challenge")
    expect(toast.get_by_role("button", name="Open")).to_be_visible()
