"""T-Tic-T-Tac-Toe's actions played on the board itself, never from the list of moves:
an Iron Curtain (by the keyboard alone), a Berlin Wall of two picked sides, a super, a
Checkpoint Charlie and a destruction (by the mouse or a tap), each seen by both players
after the socket's update. Sam plays on a laptop, Mei on a 390 px phone."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, PASSWORD, SHOTS, TIMEOUT_MS, wait_live
from tests.browser.test_live_play import accept_from_lobby, challenge, expect_moves, focused

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}


@pytest.fixture
def players(sign_in, browser, server):
    """Sam on a laptop with a mouse; Mei on a 390 px touch screen."""
    context = browser.new_context(viewport=PHONE_390, has_touch=True, base_url=server)
    context.set_default_timeout(TIMEOUT_MS)
    mei = context.new_page()
    mei.goto("/accounts/login/")
    mei.fill("input[name=username]", "mei")
    mei.fill("input[name=password]", PASSWORD)
    mei.click("form button[type=submit]")
    mei.wait_for_url(lambda url: "/accounts/login/" not in url)
    yield sign_in("sam", LAPTOP), mei
    context.close()


def shoot(page, name: str) -> None:
    """The whole page, and the board with its tools close up (to look at them)."""
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    top = page.locator("#turn-status").bounding_box()
    bottom = page.locator(".ttt-legend").bounding_box()
    width = page.viewport_size["width"]
    scrolled = page.evaluate("window.scrollY")  # boxes are in the viewport, the clip in the page
    clip = {"x": 0, "y": top["y"] + scrolled, "width": width, "height": bottom["y"] + bottom["height"] - top["y"]}
    page.screenshot(path=str(SHOTS / f"{name}-board.png"), full_page=True, clip=clip)


def fits(page) -> bool:
    """No sideways scrolling: nothing on the page is wider than the window."""
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll('body *'))
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
              .map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))
              .filter((x) => !x.startsWith("DIV.board") && !x.startsWith("UL.players") && !x.startsWith("LI.player"))
              .filter((x) => !x.startsWith("SPAN.clock") && !x.startsWith("P.") && !x.includes("ttt-tool"))
              .slice(0, 12)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), wide
    return True


def test_every_action_is_played_on_the_board(players):
    from playwright.sync_api import expect

    sam, mei = players
    url = challenge(sam, "t-tic-t-tac-toe", "mei")  # Sam is Player One: X, first
    accept_from_lobby(mei, url)
    wait_live(sam, mei)
    both = (sam, mei)
    expect(sam.locator("#board")).to_have_attribute("data-my-turn", "1")
    # Move 1 must be a letter: Place is the only tool, and the default.
    expect(sam.locator("#ttt-tools [data-tool]")).to_have_count(1)
    expect(sam.locator("#tool-place")).to_have_attribute("aria-pressed", "true")
    sam.click("#sq-1")
    expect_moves(1, *both)

    # Move 2, Mei by the keyboard alone: the Iron Curtain tool, the arrows among the
    # lines (the focused one drawn where the curtain would go), Enter.
    expect(mei.locator("#tool-curtain")).to_be_visible()
    assert [t.get_attribute("data-tool") for t in mei.locator("#ttt-tools [data-tool]").all()] == [
        "place", "curtain", "wall", "super", "checkpoint",
    ]  # nothing to destroy yet: the centre wall is still impregnable
    mei.locator("#tool-curtain").focus()
    mei.keyboard.press("Enter")
    expect(mei.locator("#ttt-board")).to_have_attribute("data-tool", "curtain")
    expect(mei.locator("#sq-5")).to_have_attribute("aria-disabled", "true")  # squares are not the targets now
    start = mei.evaluate("document.activeElement.getAttribute('aria-label')")
    assert start == "Iron Curtain on the line between rows 1 and 2"
    mei.keyboard.press("ArrowDown")
    expect(mei.locator(":focus")).to_have_attribute("aria-label", "Iron Curtain on the line between rows 2 and 3")
    shoot(mei, "tttt-curtain-targets-390")
    assert fits(mei)
    mei.keyboard.press("Enter")
    expect_moves(2, *both)
    for page in both:
        expect(page.locator(".ttt-blockage.curtain.h.seat-1.protected")).to_have_count(1)
        expect(page.locator("#move-list")).to_contain_text("Iron Curtain on the line between rows 2 and 3")

    # Move 3, Sam: a straight Berlin Wall, one side then the side next to it.
    sam.click("#tool-wall")
    expect(sam.locator("#ttt-hint")).to_contain_text("a side on a line")
    sam.click("[data-segment='16|21']")
    expect(sam.locator("[data-segment='16|21']")).to_have_class(re.compile(r"\bpicked\b"))
    expect(sam.locator("[data-segment='17|22']")).to_have_class(re.compile(r"\bpartner\b"))
    expect(sam.locator("[data-segment='8|9']")).to_be_hidden()  # not next to the first pick
    expect(sam.locator("#ttt-hint")).to_contain_text("Now pick the side next to it")
    sam.hover("[data-segment='17|22']")
    shoot(sam, "tttt-wall-first-pick-1280")
    sam.click("[data-segment='17|22']")
    expect_moves(3, *both)
    for page in both:
        expect(page.locator(".ttt-blockage.wall.h.seat-0")).to_have_count(1)
        expect(page.locator("#move-list")).to_contain_text("Berlin Wall separating squares 16, 17 from 21, 22")
    expect(sam.locator("#ttt-tools")).to_have_count(0)  # not Sam's turn: no tools

    # Move 4, Mei: a letter, tapped.
    mei.tap("#sq-7")
    expect_moves(4, *both)

    # Move 5, Sam: a super on 7, 8, 12, 13; hovering its centre shows what it gooshes.
    sam.click("#tool-super")
    centre = sam.locator(".ttt-target.point[data-range='7 8 12 13']")
    centre.hover()
    expect(sam.locator("#sq-7")).to_have_class(re.compile(r"\bwould-goosh\b"))
    expect(sam.locator(".ttt-target.point[data-range='7 8 12 13'] + .ttt-range")).to_be_visible()
    shoot(sam, "tttt-super-preview-1280")
    centre.click()
    expect_moves(5, *both)
    for page in both:
        expect(page.locator("#sq-7")).to_have_attribute("aria-label", re.compile(r"^Square 7, empty, gooshed"))
        expect(page.locator("#sq-7")).to_have_class(re.compile(r"\bgooshed\b"))
        expect(page.locator(".ttt-super-played.last")).to_have_count(1)
        expect(page.locator("#ttt-last")).to_contain_text("super on squares 7, 8, 12, 13: gooshed 7")

    # Move 6, Mei: a Checkpoint Charlie on Sam's wall, picked on the board by touch: the
    # first tap shows it (a finger has no hover), the second plays it.
    mei.tap("#tool-checkpoint")
    target = mei.locator(".ttt-layer[data-layer='checkpoint'] .ttt-target[data-move*='16|21']")
    expect(target).to_be_visible()
    # Said before the first tap: a touch screen (hover: none) cannot hover to see a target.
    expect(mei.locator("#ttt-hint")).to_contain_text("tap a target once to see it")
    assert fits(mei)
    target.tap()
    expect(target).to_have_class(re.compile(r"\barmed\b"))
    expect(mei.locator("#ttt-hint")).to_contain_text("tap it again to play it")
    shoot(mei, "tttt-checkpoint-armed-390")
    expect_moves(5, *both)
    target.tap()
    expect_moves(6, *both)
    for page in both:
        expect(page.locator(".ttt-blockage.wall.h .ttt-cc")).to_have_count(1)
    # The gooshed mark lasts until the next move; the super stays drawn.
    expect(sam.locator("#sq-7")).not_to_have_class(re.compile(r"\bgooshed\b"))
    expect(sam.locator(".ttt-super-played")).to_have_count(1)

    # Move 7, Sam: Ronald Reagan tears down the board drawer's wall around 13.
    sam.click("#tool-destroy")
    targets = sam.locator(".ttt-layer[data-layer='destroy'] .ttt-target")
    # The curtain (its two full turns over) and the centre wall; Sam's wall is protected.
    expect(targets).to_have_count(2)
    sam.click(".ttt-layer[data-layer='destroy'] .ttt-target[data-move*='around']")
    expect_moves(7, *both)
    for page in both:
        expect(page.locator(".ttt-blockage.box")).to_have_count(0)
        expect(page.locator(".ttt-ghost.box.last")).to_have_count(1)
        expect(page.locator(".features")).to_contain_text("torn down by Ronald Reagan on move 7")
    shoot(sam, "tttt-after-destroy-1280")
    assert fits(mei)
    shoot(mei, "tttt-after-destroy-390")

    # Esc drops back to placing a letter; the tool choice survives the other side's update.
    mei.tap("#tool-wall")
    expect(mei.locator("#ttt-board")).to_have_attribute("data-tool", "wall")
    mei.locator(".ttt-layer[data-layer='wall'] .ttt-target.seg").first.focus()
    assert focused(mei) == ""  # targets carry no id: focus is on a target, not a square
    mei.keyboard.press("Escape")
    expect(mei.locator("#ttt-board")).to_have_attribute("data-tool", "place")
    expect(mei.locator("#sq-5")).not_to_have_attribute("aria-disabled", "true")

    # Move 8, Mei by the keyboard: a straight wall, both sides picked with Enter and the
    # arrow between them (after the first pick only its partners are left to go to).
    mei.locator("#tool-wall").focus()
    mei.keyboard.press("Enter")
    mei.locator("[data-segment='4|9']").focus()
    mei.keyboard.press("Enter")
    expect(mei.locator("[data-segment='4|9']")).to_have_class(re.compile(r"\bpicked\b"))
    mei.keyboard.press("ArrowRight")
    expect(mei.locator(":focus")).to_have_attribute("data-segment", "5|10")
    mei.keyboard.press("Enter")
    expect_moves(8, *both)
    for page in both:
        expect(page.locator(".ttt-blockage.wall.h.seat-1")).to_have_count(1)
        expect(page.locator("#move-list")).to_contain_text("Berlin Wall separating squares 4, 5 from 9, 10")

    # The replay (once the game is over) draws each step's board the same way: at move 5,
    # the super and what it gooshed.
    mei.click("details.resign summary")
    mei.click("#resign")
    expect(sam.locator("#turn-status")).to_contain_text("Game over")
    sam.goto(url + "replay/?step=5")
    expect(sam.locator("#sq-7")).to_have_class(re.compile(r"\bgooshed\b"))
    expect(sam.locator(".ttt-super-played.last")).to_have_count(1)
    expect(sam.locator(".ttt-blockage.box.drawer")).to_have_count(1)  # not yet torn down
    expect(sam.locator("#ttt-tools")).to_have_count(0)
    sam.screenshot(path=str(SHOTS / "tttt-replay-step-5-1280.png"), full_page=True)
