"""The rating pages in a real browser at a laptop's and a phone's width (issue #18):
the leaderboard's variant tabs, the demo club's list, a player page whose chart shows a
game's date, rating and change on hover, and a finished rated game that explains its
rating change. No page scrolls sideways. Screenshots: test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, SHOTS, shoot

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE_390], ids=["laptop", "phone"])
def test_rating_pages_read_and_fit(sign_in, viewport):
    from playwright.sync_api import expect

    size = "laptop" if viewport is LAPTOP else "phone"
    page = sign_in("lucia", viewport)

    # The league's lists: a tab per variant, each fits; an empty one says so in words.
    page.goto("/ratings/")
    tabs = page.locator(".rating-tabs a")
    names = [name.strip() for name in tabs.all_inner_texts()]
    assert len(names) >= 5, names
    for name in names:
        page.locator(".rating-tabs a", has_text=re.compile(f"^{re.escape(name)}$")).click()
        expect(page.locator(".rating-tabs a[aria-current=page]")).to_have_text(name)
        expect(page.locator("#board-heading")).to_have_text(name)
        assert fits(page), name
        if name == "Nine-Square":
            expect(page.locator(".empty-list")).to_contain_text("No rated Nine-Square games")
    page.locator(".rating-tabs a", has_text="Tic Tac Two").click()  # eight games: some still provisional
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(5)
    expect(page.locator("table.leaderboard .provisional-mark").first).to_have_attribute("title", re.compile("Provisional"))
    assert fits(page)
    shoot(page, f"ratings-leaderboard-{size}")

    # The demo club's own list, from the club page.
    page.goto("/clubs/demo-noughts-crosses-club/")
    page.click("text=The club's rating list")
    expect(page.locator("h1")).to_have_text("Demo Noughts & Crosses Club: ratings")
    page.locator(".rating-tabs a", has_text="Tic Tac Two").click()
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(5)
    assert fits(page)
    shoot(page, f"ratings-club-{size}")

    # Lucía's page: the chart's points tell their game on hover.
    page.locator("table.leaderboard a", has_text="Lucía").click()
    expect(page.locator(".rating-tabs a[aria-current=page]")).to_have_text("Tic Tac Two")
    page.locator(".rating-tabs a", has_text="Tactic-Toe").click()
    chart = page.locator(".rating-section").first.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    point = chart.locator("a.chart-point").last
    title = point.locator("title").text_content()
    assert re.match(r"\d{1,2} \w{3} \d{4}: rating \d+ → \d+ \([+−±]\d+\) after game #\d+, won against Mei",
                    title), title
    tip = point.locator(".tip")
    expect(tip).to_be_hidden()
    point.locator(".hit").hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("vs Mei")
    chart.screenshot(path=str(SHOTS / f"ratings-chart-hover-{size}.png"))
    assert chart.locator("a.chart-point.is-provisional").count() >= 4  # the first games: the estimate
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert fits(page)
    shoot(page, f"ratings-player-{size}")

    # The newest game, finished and rated: its page explains the change with K and the expected score.
    latest = page.locator(".rating-section").first.locator(".rating-change").first
    expect(latest).to_contain_text(re.compile(r"K = 40, expected score 0\.\d\d against Mei"))
    latest.locator("a", has_text="Game #").click()
    note = page.locator(".game-rating-note")
    # The move in figures, its sign shown, then why (the figures not said twice).
    expect(note).to_contain_text(re.compile(r"\d+ → \d+ \(\+\d+\)\s*K = 40, expected score 0\.\d\d against Mei"))
    expect(note).not_to_contain_text(re.compile(r"Rating \d"))
    assert fits(page)
    shoot(page, f"ratings-game-{size}")
