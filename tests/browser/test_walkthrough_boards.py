"""What a newcomer's walkthrough found on two boards, in a real Chromium at 1280 and
390 px (tests/browser/support.py), on the games tests/browser/walkthrough_boards_world.py
makes:

- Nine-Square: "Submit marks" sat in the die's panel above the nine boards, so on a
  phone a square picked on a lower board left it off-screen. It now sits under the
  boards and stays at the bottom of the window while the boards are in view.
- Tic Tac Two: a used card's strike-through crossed its "· used" label too; only the
  card's name is struck.

Screenshots go to test-artifacts/screenshots/ (walkthrough-*)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.support import BROWSER_MARKS, platform_with_world, shoot, signed_in_pages, wait_live

pytestmark = BROWSER_MARKS

WIDTHS = {"1280": {"width": 1280, "height": 860}, "390": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    with platform_with_world(tmp_path_factory.mktemp("walkthrough-boards"),
                             "from tests.browser.walkthrough_boards_world import build; build()") as made:
        yield made


def _in_window_and_on_top(page, selector: str) -> dict:
    """Where ``selector`` is in the window (without scrolling to it) and whether a tap at
    its centre reaches it (nothing covers it)."""
    return page.evaluate("""(selector) => {
        const el = document.querySelector(selector), r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {top: r.top, bottom: r.bottom, height: window.innerHeight,
                onTop: !!hit && (hit === el || el.contains(hit))};
    }""", selector)


@pytest.mark.parametrize("width", WIDTHS)
def test_nine_square_submit_is_in_reach_after_picking_on_the_lowest_board(world, browser, width):
    from playwright.sync_api import expect

    base_url, games = world
    nine = games["nine"][width]
    with signed_in_pages(browser, base_url) as open_as:
        page = open_as(nine["to_move"], WIDTHS[width])
        page.goto(f"/play/{nine['game']}/")
        wait_live(page)
        expect(page.locator("#turn-status")).to_contain_text("Your move")
        need = int(page.locator("#marks-panel").get_attribute("data-need"))
        squares = [f"#sq-9-{cell}" for cell in (9, 8, 7, 6, 5, 4)][:need]
        for square in squares:  # a click scrolls the lowest board into view, as a thumb does
            page.click(square)
        expect(page.locator("#marks-output")).to_have_text(f"{need} of {need} chosen")
        expect(page.locator("#marks-submit")).to_be_enabled()
        shoot(page, f"walkthrough-nine-square-picked-{width}")
        where = _in_window_and_on_top(page, "#marks-submit")
        assert where["top"] >= 0 and where["bottom"] <= where["height"] + 1, where  # in the window, unscrolled
        assert where["onTop"], where  # nothing (a board, the header) covers it
        # Back at the top of the page the panel's die and count show, and the button is in reach still.
        page.evaluate("window.scrollTo(0, 0)")
        where = _in_window_and_on_top(page, "#marks-submit")
        assert where["top"] >= 0 and where["bottom"] <= where["height"] + 1 and where["onTop"], where
        shoot(page, f"walkthrough-nine-square-top-{width}")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.locator("#marks-submit").click(no_wait_after=True, timeout=2000)  # no scrolling needed
        expect(page.locator("#sq-9-9")).not_to_have_text("")
        # The turn passed: no control left to submit with.
        expect(page.locator("#marks-submit")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", WIDTHS)
def test_tic_tac_two_strikes_a_used_cards_name_not_its_used_label(world, browser, width):
    base_url, games = world
    with signed_in_pages(browser, base_url) as open_as:
        page = open_as("sam", WIDTHS[width])
        page.goto(f"/play/{games['two']['game']}/")
        chips = page.evaluate("""() => [...document.querySelectorAll('.t2-chip.used')].map(chip => {
            const struck = el => getComputedStyle(el).textDecorationLine.includes('line-through');
            const label = [...chip.querySelectorAll('span')].find(s => s.textContent.includes('used'));
            const chain = [];
            for (let el = label; el; el = el.parentElement) {
                const style = getComputedStyle(el);
                // An inline box's line is drawn across its inline children: its own and its
                // ancestors' count, up to a block (or inline-block), which stops it.
                chain.push(struck(el));
                if (el === chip || !style.display.startsWith('inline') || style.display === 'inline-block') break;
            }
            const name = chip.querySelector('.t2-chip-name');
            return {text: chip.textContent.trim(), labelStruck: chain.some(Boolean),
                    nameStruck: !!name && struck(name) && !name.textContent.includes('used')};
        })""")
        shoot(page, f"walkthrough-tic-tac-two-used-{width}")
        assert chips, "the world's game used no card"
        for chip in chips:
            assert chip["nameStruck"] and not chip["labelStruck"], chip
