"""Tic Tac Two on the board, in a real browser: the draft taken as cards, then every
special action (Double, Wall, Shift, Swap, Intersect Space, Dibs Space) and a Wall
topple aimed by clicking the board, never the dropdown, each one's effect checked on
both players' boards after the socket update. Mei (O) plays on a 390 px phone and
makes her Swap with the keyboard alone. Screenshots at 1280 and 390 px go to
test-artifacts/screenshots/ (tic-tac-two-*)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, shoot, wait_live
from tests.browser.test_live_play import accept_from_lobby, arrow_to, challenge, expect_square, focused

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}


def my_move(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#turn-status")).to_contain_text("Your move")


def shoot_grid(page, name: str) -> None:
    """A close-up of the grid with its targets (beside the full-page shots)."""
    from tests.browser.support import SHOTS

    page.locator(".t2-stage").screenshot(path=str(SHOTS / f"{name}.png"))


def fits(page) -> None:
    """No sideways scroll: the page is no wider than the window."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_every_tic_tac_two_action_by_clicking_the_board(sign_in):
    from playwright.sync_api import expect

    sam, mei = sign_in("sam", LAPTOP), sign_in("mei", PHONE_390)
    script_errors: list[str] = []
    for page in (sam, mei):
        page.on("pageerror", lambda error: script_errors.append(str(error)))
    # Mei's game socket passes through the test, which can speak to the server for her.
    mei_sockets: list[Any] = []
    mei.route_web_socket(re.compile(r"/ws/games/\d+/"), lambda ws: mei_sockets.append(ws.connect_to_server()))
    url = challenge(sam, "tic-tac-two", "mei")  # Sam is Player One: X
    accept_from_lobby(mei, url)
    wait_live(sam, mei)

    # The draft: O takes the first card. Each card says what its action does.
    my_move(mei)
    expect(mei.locator("#card-swap")).to_contain_text("Exchange two touching squares")
    shoot(mei, "tic-tac-two-draft-390")
    fits(mei)
    shoot(sam, "tic-tac-two-draft-1280")
    for page, action in [(mei, "wall"), (sam, "double"), (mei, "swap"), (sam, "shift"), (mei, "dibs")]:
        my_move(page)
        page.click(f"#card-{action} button")
        letter = "O" if page is mei else "X"
        for viewer in (sam, mei):  # the card is now held, and nobody may take it again
            expect(viewer.locator(f"#card-{action} .t2-holder")).to_have_text(f"Held by {letter}")
            expect(viewer.locator(f"#card-{action} button")).to_have_count(0)
    shoot(sam, "tic-tac-two-draft-last-card-1280")
    sam.click("#card-intersect button")  # the last card ends the draft
    for viewer in (sam, mei):
        expect(viewer.locator(".t2-cards")).to_have_count(0)
    shoot(sam, "tic-tac-two-after-draft-1280")
    expect(sam.locator(".t2-hands")).to_contain_text("Double")

    # First turns: letters only, no actions offered yet.
    my_move(sam)
    expect(sam.locator(".t2-tool")).to_have_count(0)
    sam.click("#sq-1")
    expect_square(mei, 1, "X")
    my_move(mei)
    mei.click("#sq-16")
    expect_square(sam, 16, "O")

    # Double: choose it, then the square of the extra letter; then the turn's letter.
    my_move(sam)
    expect(sam.locator("#t2-cancel")).to_be_hidden()  # nothing chosen yet: nothing to cancel
    sam.click("#use-double")
    expect(sam.locator("#t2-cancel")).to_be_visible()
    expect(sam.locator("#sq-1")).to_have_attribute("aria-disabled", "true")  # taken: not offered
    sam.click("#sq-5")
    for page in (sam, mei):
        expect_square(page, 5, "X")
    expect(sam.locator("#use-shift")).to_have_count(0)  # one action per turn
    sam.click("#sq-9")
    expect_square(mei, 9, "X")

    # Wall: on the phone, the border between 9 and 13 (a hit area on the line).
    my_move(mei)
    mei.click("#use-wall")
    target = mei.locator("#put-wall-9-bottom")
    box = target.bounding_box()
    assert box and min(box["width"], box["height"]) >= 24, box
    target.hover()  # hover draws the Wall that would stand there
    assert target.evaluate("el => getComputedStyle(el, '::after').backgroundColor") == "rgb(194, 65, 12)"
    shoot(mei, "tic-tac-two-aiming-wall-390")
    shoot_grid(mei, "tic-tac-two-grid-aiming-wall-390")
    fits(mei)
    target.click()
    for page in (sam, mei):
        expect(page.locator("#wall-9-bottom")).to_have_count(1)
    mei.click("#sq-2")
    expect_square(sam, 2, "O")

    # Shift: the arrow at the right end of row 3 pushes it right (X on 9 moves to 10).
    my_move(sam)
    sam.click("#use-shift")
    sam.hover("#shift-row-3-right")
    expect(sam.locator("#sq-9")).to_have_class(re.compile(r"\bt2-preview\b"))
    shoot_grid(sam, "tic-tac-two-grid-aiming-shift-1280")
    sam.click("#shift-row-3-right")
    for page in (sam, mei):
        expect_square(page, 10, "X")
        expect_square(page, 9, "empty")
        expect(page.locator("#shifted-row-3")).to_have_count(1)
        expect(page.locator("#sq-11")).to_have_class(re.compile(r"\bt2-shifted\b"))
    shoot(sam, "tic-tac-two-after-shift-1280")
    sam.click("#sq-3")
    expect_square(mei, 3, "X")
    expect(mei.locator("#shifted-row-3")).to_have_count(1)  # the whole turn stays marked

    # Swap by keyboard alone: the action's button, then two squares with the arrows and
    # Enter; Escape backs out of a first pick.
    my_move(mei)
    mei.locator("#use-swap").focus()
    mei.keyboard.press("Enter")
    assert focused(mei).startswith("sq-")
    arrow_to(mei, "sq-2")
    mei.keyboard.press("Enter")
    expect(mei.locator("#sq-2")).to_have_class(re.compile(r"\bt2-first\b"))
    expect(mei.locator("#sq-16")).to_have_attribute("aria-disabled", "true")  # not next to 2
    shoot_grid(mei, "tic-tac-two-grid-swap-first-pick-390")
    # A re-render of the same position (the state a sync or a catch-up brings) keeps the choice.
    mei.evaluate("document.getElementById('board').dataset.old = '1'")
    mei_sockets[-1].send('{"type": "sync"}')
    expect(mei.locator("#board[data-old]")).to_have_count(0)  # a new board was swapped in
    expect(mei.locator("#use-swap")).to_have_attribute("aria-pressed", "true")
    expect(mei.locator("#sq-2")).to_have_class(re.compile(r"\bt2-first\b"))
    mei.locator("#sq-2").focus()
    mei.keyboard.press("Escape")
    expect(mei.locator("#sq-2")).not_to_have_class(re.compile(r"\bt2-first\b"))
    mei.locator("#sq-2").focus()
    mei.keyboard.press("Enter")
    arrow_to(mei, "sq-3")
    mei.keyboard.press("Enter")
    for page in (sam, mei):
        expect_square(page, 2, "X")
        expect_square(page, 3, "O")
        expect(page.locator("#sq-3")).to_have_class(re.compile(r"\bt2-swapped\b"))
    mei.click("#sq-4")
    expect_square(sam, 4, "O")

    # Intersect Space on O's 3, then X writes there too: both share it.
    my_move(sam)
    sam.click("#use-intersect")
    sam.click("#sq-3")
    expect(mei.locator("#sq-3")).to_have_attribute("aria-label", re.compile("Intersect Space"))
    sam.click("#sq-3")
    expect_square(mei, 3, "XO")

    # Dibs Space on 6, then O writes elsewhere: the reservation stays drawn.
    my_move(mei)
    mei.click("#use-dibs")
    mei.click("#sq-6")
    for page in (sam, mei):
        expect(page.locator("#sq-6")).to_have_attribute("aria-label", re.compile("O's Dibs Space"))
        expect(page.locator("#sq-6 .t2-dibs")).to_have_text("dibs O")
    mei.click("#sq-7")
    expect_square(sam, 7, "O")

    my_move(sam)
    expect(sam.locator(".t2-tool")).to_have_count(0)  # all three of X's actions are used
    sam.click("#sq-13")
    expect_square(mei, 13, "X")

    # Topple: O's Wall falls onto 13 and erases the X; it stays drawn, dashed, with a note.
    my_move(mei)
    mei.click("#use-topple")
    shoot_grid(mei, "tic-tac-two-grid-aiming-topple-390")
    mei.click(".t2-topple-target[aria-label*='onto square 13']")
    for page in (sam, mei):
        expect_square(page, 13, "empty")
        expect(page.locator("#wall-9-bottom")).to_have_count(0)
        expect(page.locator("#fallen-9-bottom")).to_have_count(1)
        expect(page.locator(".t2-notes")).to_contain_text("fell onto square 13, erasing its X")
    shoot(mei, "tic-tac-two-after-topple-390")
    shoot_grid(mei, "tic-tac-two-grid-after-topple-390")
    shoot(sam, "tic-tac-two-after-topple-1280")
    fits(mei)
    mei.click("#sq-13")
    expect_square(sam, 13, "O")
    expect(sam.locator(".t2-hands")).to_contain_text("used")
    assert script_errors == []


@pytest.fixture(autouse=True)
def _copy_shots():
    """Also leave this module's screenshots in /tmp/shots-two/ for a look."""
    yield
    import shutil
    from pathlib import Path

    from tests.browser.support import SHOTS

    out = Path("/tmp/shots-two")
    out.mkdir(exist_ok=True)
    for shot in SHOTS.glob("tic-tac-two-*.png"):
        shutil.copy(shot, out / shot.name)
