"""The clocks in a real browser: every variant's game page shows both seats' clocks and
its time control, the running clock counts down, at 1280 and 390 px; the lobby's filter
keeps its choice in the address. Screenshots: test-artifacts/screenshots/clock-*.png."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, shoot, wait_live
from tests.browser.test_live_play import accept_from_lobby, challenge

pytestmark = BROWSER_MARKS

NARROW = {"width": 390, "height": 844}
LABELS = {
    "classic": "3 min per game",
    "t-tic-t-tac-toe": "10 min per game",
    "nine-square": "1 min per move",
    "tactic-toe": "2 min per move",
    "tic-tac-two": "1 min per move",
}


def seconds(face: str) -> int:
    minutes, secs = face.split(":")
    return int(minutes) * 60 + int(secs)


@pytest.mark.parametrize("variant", list(LABELS))
def test_each_variant_shows_its_clocks_counting_down(sign_in, variant):
    from playwright.sync_api import expect

    sam, mei = sign_in("sam", LAPTOP), sign_in("mei", NARROW)
    url = challenge(sam, variant, "mei")
    accept_from_lobby(mei, url)
    sam.goto(url)
    wait_live(sam, mei)
    for page in (sam, mei):
        expect(page.locator(".game-head .time-control")).to_have_text(LABELS[variant])
        expect(page.locator("#board .clock")).to_have_count(2)
        running = page.locator("#board .clock.running")
        expect(running.first).to_have_text(re.compile(r"^\d+:\d\d$"))
        before = seconds(running.first.inner_text())
        page.wait_for_timeout(2200)
        after = seconds(running.first.inner_text())
        assert 1 <= before - after <= 4, (variant, before, after)
        # Nothing is wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if variant == "tactic-toe":
        expect(sam.locator("#board .clock.running")).to_have_count(2)  # both plan at once
    shoot(sam, f"clock-{variant}-1280")
    shoot(mei, f"clock-{variant}-390")


def test_the_lobby_filter_keeps_its_choice_in_the_address(sign_in):
    from playwright.sync_api import expect

    for name, viewport in (("kofi", LAPTOP), ("edith", NARROW)):
        page = sign_in(name, viewport)
        page.goto("/play/")
        page.select_option("#filter-variant", "tactic-toe")
        page.wait_for_url(re.compile(r".*variant=tactic-toe.*"))
        page.select_option("#filter-pace", "long")
        page.wait_for_url(re.compile(r".*pace=long.*"))
        expect(page.locator("#lobby-lists")).to_have_attribute("hx-get", re.compile(r"variant=tactic-toe.*pace=long"))
        for line in page.locator("#lobby-lists .game-list li:not(.muted)").all_inner_texts():
            assert "Tactic-Toe" in line and "2 min per move" in line, line
        page.reload()
        expect(page.locator("#filter-variant")).to_have_value("tactic-toe")
        expect(page.locator("#filter-pace")).to_have_value("long")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, f"clock-lobby-filter-{viewport['width']}")
