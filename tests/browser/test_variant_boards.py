"""Each variant's finished board, on the game page and the replay, at 1280 and 390 px, in
a real Chromium (tests/browser/support.py): the result is said in words, the moves list
shows its last entry whole (it scrolls in its own box and follows the latest move; the
replay's, the current step) and nothing scrolls sideways. With KEEP_SCREENSHOTS set to a
directory, the board area of each is saved there (docs/screenshots/README.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.support import BROWSER_MARKS, signed_in_pages
from tests.browser.variant_boards_world import VARIANTS
from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = BROWSER_MARKS

WIDTHS = {"1280": 1280, "390": 390}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    """The platform on a scratch database with the demo club and one finished game of each
    variant; (its address, variant -> {game, result, moves})."""
    tmp_path = tmp_path_factory.mktemp("variant-boards")
    port = free_port()
    with scratch_database(tmp_path) as env:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from tests.browser.variant_boards_world import build; build()"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True)
        games = json.loads(made.stdout.strip().splitlines()[-1])
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            yield f"http://127.0.0.1:{port}", games


def _fits(page) -> dict:
    """The moves list's box against its last (or current) entry's, and the page's width."""
    return page.evaluate("""() => {
        const list = document.getElementById('move-list');
        const item = list.querySelector('li.current') || list.lastElementChild;
        const box = list.getBoundingClientRect(), entry = item.getBoundingClientRect();
        return {list: [box.top, box.bottom], entry: [entry.top, entry.bottom],
                entryText: item.textContent.replace(/\\s+/g, ' ').trim(),
                scrolls: list.scrollHeight > list.clientHeight,
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
            for kind, path, area in (
                ("game", f"/play/{game['game']}/", "#board-host"),
                ("replay", f"/play/{game['game']}/replay/", "#replay-page"),
            ):
                page.goto(path)
                expect(page.locator("#turn-status")).to_contain_text(game["result"])
                if kind == "game":
                    # Once live, the socket's first frame swaps the board in again: look after it.
                    expect(page.locator("#connection")).to_have_text("Live")
                    page.wait_for_load_state("networkidle")
                fit = _fits(page)
                assert fit["list"][0] - 1 <= fit["entry"][0] and fit["entry"][1] <= fit["list"][1] + 1, (
                    f"{variant} {kind} at {width}: the last entry ({fit['entryText']}) is not wholly in view: {fit}")
                assert fit["entryText"].startswith(f"{game['moves']}."), fit
                assert fit["scrollWidth"] <= fit["innerWidth"], f"{variant} {kind} at {width} scrolls sideways: {fit}"
                if keep:
                    Path(keep).mkdir(parents=True, exist_ok=True)
                    page.locator(area).screenshot(path=str(Path(keep) / f"{variant}-{kind}-{width_name}.png"))
