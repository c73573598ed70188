"""Pairings that explain themselves, in a real browser: the organiser previews round 1
of a Swiss before it starts (each board with its "Why?"), publishes it, and every board
of the round on the section page opens a "Why?" with the pairing's reasons. Screenshots
at 1280 and 390 px go to /tmp/explain-*.png and test-artifacts/screenshots/."""

from __future__ import annotations

import re

from tests.browser.support import BROWSER_MARKS, LAPTOP, shoot

pytestmark = BROWSER_MARKS

ENTRANTS = ["sam", "mei", "kofi", "lucia", "organiser"]
PHONE_390 = {"width": 390, "height": 844}


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def first_cells(rows) -> list[str]:
    """Board, first and second of each row, from the cells' text: the live part may be
    swapped in as it is read (the section socket's update), and a row's rendered
    innerText is only tab-separated while it is laid out."""
    return rows.evaluate_all(
        "rows => rows.map(row => [...row.cells].slice(0, 3).map(cell => cell.textContent.replace(/\\s+/g, ' ').trim()).join(' '))")


def test_organiser_previews_publishes_and_players_read_why(sign_in):
    from playwright.sync_api import expect

    organiser = sign_in("organiser", LAPTOP)
    organiser.goto("/clubs/demo-noughts-crosses-club/new-tournament/")
    organiser.fill("input[name=name]", "Reasons cup")
    organiser.fill("input[name=starts_at]", "2030-06-01T10:00")
    organiser.click("button:has-text('Create the tournament')")
    organiser.fill("input[name=name]", "Swiss")
    organiser.select_option("select[name=format]", "swiss")
    organiser.fill("input[name=rounds]", "3")
    organiser.click("button:has-text('Create the section')")
    expect(organiser.locator(".message")).to_contain_text("Section Swiss is created")
    section_url = organiser.url + "swiss/"
    for username in ENTRANTS:
        page = organiser if username == "organiser" else sign_in(username, LAPTOP)
        page.goto(section_url)
        page.click("button:has-text('Register')")
        expect(page.locator(".message")).to_contain_text("You are entered in Swiss")

    # The preview: three boards (one a bye), each with its reasons; nothing started.
    organiser.goto(section_url)
    organiser.click("text=preview round 1 pairings")
    expect(organiser.locator("h1")).to_have_text("Preview round 1 pairings")
    expect(organiser.locator("table.preview tr.why")).to_have_count(3)
    expect(organiser.locator("table.preview li[data-code=bye]")).to_contain_text("has the bye: lowest ranked")
    expect(organiser.locator("table.preview li[data-code=first-move]").first).to_contain_text("moves first")
    assert fits(organiser)
    shoot(organiser, "round-preview-laptop")
    organiser.screenshot(path="/tmp/explain-preview-1280.png", full_page=True)
    phone = sign_in("organiser", PHONE_390)
    phone.goto(organiser.url)
    expect(phone.locator("table.preview tr.why")).to_have_count(3)
    assert fits(phone)
    phone.screenshot(path="/tmp/explain-preview-390.png", full_page=True)
    previewed = first_cells(organiser.locator("table.preview tbody tr:not(.why)"))
    assert len(previewed) == 3 and all(previewed)

    # Publish: the round starts with exactly the previewed boards.
    organiser.click("button:has-text('Publish now')")
    expect(organiser.locator(".message")).to_contain_text("Round 1 is published")
    rows = organiser.locator("table.boards tbody tr:not(.why)")
    expect(rows).to_have_count(3)
    published = [re.sub(r" \d+:\d\d( to first move)?", "", text) for text in first_cells(rows)]  # clocks aside
    assert previewed == published

    # A player opens "Why?" on the section page, on a phone.
    mei = sign_in("mei", PHONE_390)
    mei.goto(section_url)
    why = mei.locator("table.boards tr.why details").first
    expect(why.locator("li").first).not_to_be_visible()
    why.locator("summary").click()
    expect(why.locator("li").first).to_be_visible()
    expect(why.locator("li[data-code=score-group]")).to_have_text("Both on 0 points.")
    mei.wait_for_timeout(6_000)  # the live part refreshes every 5 s: an open "Why?" stays open
    expect(why.locator("li").first).to_be_visible()
    assert fits(mei)
    mei.screenshot(path="/tmp/explain-why-390.png", full_page=True)
    organiser.goto(section_url)
    organiser.locator("table.boards tr.why summary").first.click()
    organiser.screenshot(path="/tmp/explain-why-1280.png", full_page=True)
    shoot(mei, "pairing-why-phone")
