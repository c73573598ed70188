"""Each variant's finished board, on the game page and the replay, at 1280 and 390 px, in
a real Chromium (tests/browser/support.py): the result is said in words, the moves list
shows its last entry whole (it scrolls in its own box and follows the latest move; the
replay's, the current step) and nothing scrolls sideways. With KEEP_SCREENSHOTS set to a
directory, the board area of each is saved there (docs/screenshots/README.md)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.support import BROWSER_MARKS, platform_with_world, signed_in_pages
from tests.browser.variant_boards_world import VARIANTS

pytestmark = BROWSER_MARKS

WIDTHS = {"1280": 1280, "390": 390}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    """The platform on a scratch database with the demo club and one finished game of each
    variant; (its address, variant -> {game, result, moves})."""
    with platform_with_world(tmp_path_factory.mktemp("variant-boards"),
                             "from tests.browser.variant_boards_world import build; build()", timeout=600) as made:
        yield made


def _fits(page) -> dict:
    """The moves list's scrolling box against its last (or current) entry's, the entries it
    cuts, and the page's width."""
    return page.evaluate("""() => {
        const list = document.getElementById('move-list');
        const item = list.querySelector('li.current') || list.lastElementChild;
        const scroller = list.closest('.move-scroll');
        // The box inside its border: what shows of the entries.
        const outer = scroller.getBoundingClientRect(), entry = item.getBoundingClientRect();
        const top = outer.top + scroller.clientTop;
        const box = {top, bottom: top + scroller.clientHeight};
        // Entries showing only in part: the box shows whole entries.
        const cut = [...list.children].filter(li => {
            const r = li.getBoundingClientRect();
            return r.bottom > box.top + 1 && r.top < box.bottom - 1 && (r.top < box.top - 1 || r.bottom > box.bottom + 1);
        }).map(li => li.textContent.replace(/\\s+/g, ' ').trim().slice(0, 40));
        return {list: [box.top, box.bottom], entry: [entry.top, entry.bottom], cut,
                entryText: item.textContent.replace(/\\s+/g, ' ').trim(),
                scrolls: scroller.scrollHeight > scroller.clientHeight,
                scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
    }""")


@pytest.mark.parametrize("variant", VARIANTS)
def test_finished_board_in_words_with_its_last_move_in_view(world, browser, variant):
    from playwright.sync_api import expect

    base_url, games = world
    game = games[variant]
    keep = os.environ.get("KEEP_SCREENSHOTS")
    with signed_in_pages(browser, base_url) as open_as:
        for width_name, width in WIDTHS.items():
            page = open_as("sam", {"width": width, "height": 860})
            # The game page says the result on the board's status line; the replay once,
            # in its head (its status line follows the step shown).
            for kind, path, area, said in (
                ("game", f"/play/{game['game']}/", "#board-host", "#turn-status"),
                ("replay", f"/play/{game['game']}/replay/", "#replay-page", ".game-head"),
            ):
                page.goto(path)
                expect(page.locator(said)).to_contain_text(game["result"])
                if kind == "game":
                    # Once live, the socket's first frame swaps the board in again: look after it.
                    expect(page.locator("#connection")).to_have_text("Live")
                    page.wait_for_load_state("networkidle")
                fit = _fits(page)
                _check(fit, variant, kind, width, game["moves"])
                if keep:
                    Path(keep).mkdir(parents=True, exist_ok=True)
                    page.locator(area).screenshot(path=str(Path(keep) / f"{variant}-{kind}-{width_name}.png"))
            # A step in the middle of the replay: its entry is the one in view.
            middle = max(1, game["moves"] // 2)
            page.goto(f"/play/{game['game']}/replay/?step={middle}")
            expect(page.locator("#turn-status")).to_contain_text(re.compile(rf"Move {middle}(, [^:]+)?:"))
            _check(_fits(page), variant, "replay step", width, middle)
            # Stepping (htmx swaps the step in) keeps following: End goes to the last move.
            page.keyboard.press("End")
            expect(page.locator("#turn-status")).to_contain_text(re.compile(rf"Move {game['moves']}(, [^:]+)?:"))
            expect(page.locator("#turn-status")).to_contain_text("Game over")
            _check(_fits(page), variant, "replay after End", width, game["moves"])


def _check(fit: dict, variant: str, kind: str, width: int, number: int) -> None:
    """The entry of move ``number`` (the latest, or the replay's current step) wholly in the
    list's box, no entry cut by it, and no sideways scroll."""
    where = f"{variant} {kind} at {width}"
    assert fit["list"][0] - 1 <= fit["entry"][0] and fit["entry"][1] <= fit["list"][1] + 1, (
        f"{where}: the entry in view ({fit['entryText']}) is not wholly in the list's box: {fit}")
    assert fit["entryText"].startswith(f"{number}."), fit
    assert not fit["cut"], f"{where}: entries cut by the list's box: {fit}"
    assert fit["scrollWidth"] <= fit["innerWidth"], f"{where} scrolls sideways: {fit}"


_NUMBERS = """() => [...document.querySelectorAll('#board .grid')].map(grid => [...grid.querySelectorAll('.square')].map(sq => {
    const before = getComputedStyle(sq, '::before'), box = sq.getBoundingClientRect();
    return {content: before.content, size: parseFloat(before.fontSize), right: parseFloat(before.right),
            bottom: parseFloat(before.bottom), width: parseFloat(before.width) || 0,
            height: parseFloat(before.height) || 0, square: [box.width, box.height]};
}))"""


#: The rule sets played on squares (rock-paper-scissors, the decider, has none).
ON_SQUARES = [v for v in VARIANTS if v != "rock-paper-scissors"]


@pytest.mark.parametrize("variant", ON_SQUARES)
def test_a_real_board_numbers_its_squares_in_a_corner(world, browser, variant):
    """The game's words name squares by number (plans, "square 14", the moves list): every
    square of a real board shows its number (static/css/game.css, the lessons' one rule),
    readable (9 px at least), small against its square, in the bottom right corner."""
    from playwright.sync_api import expect

    base_url, games = world
    with signed_in_pages(browser, base_url) as open_as:
        for width in WIDTHS.values():
            page = open_as("sam", {"width": width, "height": 860})
            page.goto(f"/play/{games[variant]['game']}/")
            expect(page.locator("#connection")).to_have_text("Live")
            grids = page.evaluate(_NUMBERS)
            assert grids and all(grids), variant
            for squares in grids:
                for sq in squares:
                    where = f"{variant} at {width}: {sq}"
                    assert sq["content"] == 'counter(square-number) / ""', where
                    assert sq["size"] >= 9, where
                    assert sq["width"] > 3 and sq["height"] > 5, where
                    assert sq["width"] < sq["square"][0] / 2 and sq["height"] < sq["square"][1] / 2, where
                    assert sq["right"] <= 5 and sq["bottom"] <= 5, where
