"""A section's tables on a 390 px phone, in a real browser against the running platform
(tests/browser/support.py), as an outside walkthrough read them: the crosstable, the
standings and the rounds showed only the number and the player, the rest off-screen in
the inner scroll box behind a faint shadow, long names not wrapping. Now the points are
in view (a standings table's right after the player, the crosstable's at the box's
right edge), names wrap, the number and the player stay put while the rest scrolls
under them, a "Scroll sideways for more" line says there is more (only while there is),
and a round's boards fit the screen two lines each. The page itself never scrolls
sideways. A Swiss has a crosstable by round too, and what a finger taps (a board's
link and "Why?", Withdraw) is 44 px tall on a phone (a later walkthrough measured
65×20). Screenshots at 1280 and 390 px (test-artifacts/screenshots/)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.support import (
    BROWSER_MARKS,
    LAPTOP,
    chromium,
    platform_with_world,
    shoot,
    signed_in_pages,
    wait_section_current,
)

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}

#: An odd round robin (five players, long names) and a Swiss ranked by wins among its
#: tie-breaks, both played to the end in the demo club, in the server's database; and a
#: knockout under way (its round 1 in play), for the tap targets.
WORLD = """
import json
from datetime import date
from django.utils import timezone
from accounts import services as account_services
from league.competitions.notices import section_url
from league.models import Club
from tests.factories import section_with
from tests.league.support import eager_tasks, play_out
club = Club.objects.get(slug="demo-noughts-crosses-club")
names = ["Hana Sato", "Björn Ek", "Maximiliana Bartholomew-Featherstonehaugh", "Oluwaseun Adebayo-Williams",
         "Li Wei", "Pia Nieminen", "Tomás Ó Briain", "Zara Khan"]
people = [account_services.register_player(
    username=f"tables{i}", password="tictactoe-demo", email=f"tables{i}@example.com", display_name=name,
    date_of_birth=date(1990, 1, 1 + i), country="GB", today=timezone.localdate()).user for i, name in enumerate(names)]
with eager_tasks():
    odd = section_with(people[:5], format="round-robin", club=club, tournament="Phone tables")
    swiss = section_with(people, format="swiss", rounds=3, club=club, tournament="Phone tables swiss",
                         tiebreaks=["buchholz-cut1", "sonneborn-berger", "wins"])
    play_out([odd.pk, swiss.pk])
    taps = section_with(people[:4], format="single-elimination", club=club, tournament="Phone taps")
print(json.dumps({"odd": section_url(odd), "swiss": section_url(swiss), "taps": section_url(taps)}))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    """The platform as real processes, and the world made in its database."""
    with platform_with_world(tmp_path_factory.mktemp("section-tables"), WORLD, timeout=300) as made:
        yield made


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with chromium() as launched:
        yield launched


def page_at(browser, base_url: str, viewport: dict):
    context = browser.new_context(viewport=viewport, base_url=base_url)
    context.set_default_timeout(15_000)
    return context, context.new_page()


def page_fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def in_view(locator, width: int) -> bool:
    """The element is wholly within the screen's width."""
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def scroll_box(page, table: str):
    return page.locator(f"div.table-scroll:has(> table.{table})").first


def test_the_crosstable_standings_and_rounds_show_their_key_columns_on_a_phone(platform, browser):
    from playwright.sync_api import expect

    base_url, world = platform
    context, phone = page_at(browser, base_url, PHONE_390)
    try:
        phone.goto(world["odd"])
        assert page_fits(phone)

        # The crosstable: every row's points in view, at the box's right edge, with the bye column scrolling under it.
        crosstable = phone.locator("table.crosstable")
        rows = crosstable.locator("tbody tr")
        expect(rows).to_have_count(5)
        for index in range(5):
            assert in_view(rows.nth(index).locator("td.total"), 390), f"row {index + 1}'s points are off-screen"
        box = scroll_box(phone, "crosstable")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # there is more to the side...
        cue = box.locator(".scroll-cue")
        expect(cue).to_be_visible()  # ...and the page says so in words
        expect(cue).to_have_text("Scroll sideways for more →")
        # A long name wraps inside its cell rather than widening the column.
        long_name = crosstable.locator("td.name", has_text="Featherstonehaugh")
        assert long_name.evaluate("c => c.scrollWidth <= c.clientWidth && c.getBoundingClientRect().height > 40")
        # Scrolled sideways: the number and the player stay where they were, the points too.
        before = [rows.first.locator(cell).bounding_box()["x"] for cell in ("th.num", "td.name", "td.total")]
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        phone.wait_for_timeout(100)
        after = [rows.first.locator(cell).bounding_box()["x"] for cell in ("th.num", "td.name", "td.total")]
        assert after[:2] == before[:2]
        expect(rows.first.locator("td.bye")).to_contain_text("(R")
        assert in_view(rows.first.locator("td.bye"), 390)
        box.evaluate("b => { b.scrollLeft = 0; }")
        shoot(phone, "section-tables-crosstable-phone")

        # The standings: number, player and points in view and kept there while the tie-breaks scroll.
        standings = phone.locator("table.standings")
        first = standings.locator("tbody tr").first
        for cell in ("td.num", "td.name", "td.total"):
            assert in_view(first.locator(cell), 390), cell
        expect(scroll_box(phone, "standings").locator(".scroll-cue")).to_be_visible()
        expect(phone.locator("#st-key")).to_be_visible()  # the headings in words, for a touch screen

        # A round's boards fit: both players, the result and the game link on the screen.
        board_rows = phone.locator("details.round[open] table.boards tbody tr:not(.why)")
        assert board_rows.count() >= 2
        for index in range(board_rows.count()):
            for column in range(1, 6):
                assert in_view(board_rows.nth(index).locator(f"td:nth-child({column})"), 390), (index, column)
        assert scroll_box(phone, "boards").evaluate("b => b.scrollWidth <= b.clientWidth")
        expect(phone.locator("details.round[open] .scroll-cue")).to_be_hidden()  # nothing to scroll: no cue
        expect(phone.locator("details.round[open] table.boards a").first).to_have_text("replay")
        shoot(phone, "section-tables-rounds-phone")

        phone.goto(world["swiss"])
        assert page_fits(phone)
        for cell in ("td.num", "td.name", "td.total"):
            assert in_view(phone.locator("table.standings tbody tr").first.locator(cell), 390), cell
        shoot(phone, "section-tables-swiss-phone")
    finally:
        context.close()


def test_on_a_laptop_the_tables_fit_and_no_cue_shows(platform, browser):
    from playwright.sync_api import expect

    base_url, world = platform
    context, laptop = page_at(browser, base_url, LAPTOP)
    try:
        for section in ("odd", "swiss"):
            laptop.goto(world[section])
            assert page_fits(laptop)
            cues = laptop.locator(".scroll-cue")
            for index in range(cues.count()):
                expect(cues.nth(index)).to_be_hidden()
            shoot(laptop, f"section-tables-{section}-laptop")
    finally:
        context.close()


def test_a_swiss_crosstable_by_round_fits_a_phone_with_its_points_in_view(platform, browser):
    from playwright.sync_api import expect

    base_url, world = platform
    context, phone = page_at(browser, base_url, PHONE_390)
    try:
        phone.goto(world["swiss"])
        assert page_fits(phone)
        crosstable = phone.locator("table.crosstable.by-round")
        expect(crosstable.locator("thead th")).to_have_text(["Rk.", "SNo", "Player", "R1", "R2", "R3", "Points"])
        rows = crosstable.locator("tbody tr")
        expect(rows).to_have_count(8)
        for index in range(8):
            assert in_view(rows.nth(index).locator("td.total"), 390), f"row {index + 1}'s points are off-screen"
            assert in_view(rows.nth(index).locator("td.name"), 390)
        shown = rows.first.locator("td.cell > span[aria-hidden='true']").first  # (the words are for screen readers)
        expect(shown).to_have_text(re.compile(r"^[1-8][FS] (1|½|0|\+|-)$"))  # the opponent's SNo (seed)
        phone.locator("#ct-heading").scroll_into_view_if_needed()
        shoot(phone, "section-tables-swiss-crosstable-phone")
    finally:
        context.close()


def _heights(page, selector: str) -> list[float]:
    return page.locator(selector).evaluate_all("els => els.filter(e => e.offsetParent).map("
                                               "e => e.getBoundingClientRect().height)")


def test_what_a_finger_taps_is_44_px_tall_on_a_phone_and_stays_text_on_a_laptop(platform, browser):
    base_url, world = platform
    with signed_in_pages(browser, base_url) as open_as:
        phone, laptop = open_as("organiser", PHONE_390), open_as("organiser")
        for page in (phone, laptop):
            page.goto(world["swiss"])  # finished: replay links and each board's "Why?"
        for selector in ("table.boards td a", "table.boards tr.why summary"):
            assert _heights(phone, selector) and min(_heights(phone, selector)) >= 44, selector
            assert max(_heights(laptop, selector)) < 30, selector  # a laptop's rows keep their height
        shoot(phone, "section-tables-taps-phone")

        for page in (phone, laptop):
            page.goto(world["taps"])  # under way: Withdraw beside each entrant, watch links
        wait_section_current(phone, laptop)  # its first live refresh replaces what is measured (a CI run's flake)
        assert page_fits(phone)
        for selector in (".withdraw-player button", "table.boards td a"):
            assert len(_heights(phone, selector)) >= 2 and min(_heights(phone, selector)) >= 44, selector
            assert max(_heights(laptop, selector)) < 30, selector

        player = open_as("tables0", PHONE_390)  # Hana Sato, playing in it
        player.goto(world["taps"])
        assert min(_heights(player, ".entry-box button")) >= 44
        assert player.locator("table.boards td a", has_text="play").count() == 1
        shoot(player, "section-tables-taps-player-phone")
