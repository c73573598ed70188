"""Controls and marks that must work on a phone (390 px) as well as at 1280 px, in a
real Chromium: Tic Tac Two's Shift and topple arrows are solid, visible, 44 px tap
targets; Nine-Square's strokes are thick enough to see; a Nine-Square open challenge
shows no die; the guardian's two answers are apart, each a full tap target. Nothing
scrolls sideways. Screenshots go to test-artifacts/screenshots/ (phone-controls-*)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.support import BROWSER_MARKS, SHOTS, platform_with_world, scroll_to, signed_in_pages

pytestmark = BROWSER_MARKS

WIDTHS = [390, 1280]
TAP = 44  # px: the smallest side of a tap target on a phone
SOLID = "rgb(194, 65, 12)"  # the arrows' fill (white glyph on it)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    """The platform on a scratch database with the demo club and phone_controls_world's
    games and consent link; (its address, what was made)."""
    with platform_with_world(tmp_path_factory.mktemp("phone-controls"),
                             "from tests.browser.phone_controls_world import build; build()", timeout=600) as made:
        yield made


def fits(page) -> None:
    """No sideways scroll; else the message names what sticks out past the right edge."""
    sticking_out = page.evaluate(
        """() => document.documentElement.scrollWidth <= window.innerWidth ? [] :
            [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 8).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`
                                  + ` "${(e.textContent || '').trim().slice(0, 60)}"`)"""
    )
    assert not sticking_out, (page.url, page.evaluate("document.documentElement.scrollWidth"), sticking_out)


def open_live(page, path: str) -> None:
    """The game page, live, with the board its socket's state frame pushed already shown:
    that frame replaces the board, and a board measured or photographed before it came
    was gone from the page under a loaded machine ("Element is not attached")."""
    from playwright.sync_api import expect

    frames: list[str] = []

    def socket_opened(socket) -> None:
        if "/ws/games/" in socket.url:
            socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", socket_opened)
    page.goto(path)
    expect(page.locator("#connection")).to_have_text("Live")
    for _ in range(100):
        if any('"type": "state"' in frame or '"type":"state"' in frame for frame in frames):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"no state frame within 10 s on {path}")
    page.remove_listener("websocket", socket_opened)
    page.wait_for_load_state("networkidle")


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map(el => {
            const r = el.getBoundingClientRect(), style = getComputedStyle(el);
            return {id: el.id || el.getAttribute('aria-label'), left: r.left, right: r.right, top: r.top,
                    bottom: r.bottom, width: r.width, height: r.height, background: style.backgroundColor,
                    color: style.color, shown: style.display !== 'none' && style.visibility !== 'hidden'};
        })""",
        selector,
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_tic_tac_two_arrows_are_solid_44_px_tap_targets(world, browser, width):
    from playwright.sync_api import expect

    base_url, made = world
    with signed_in_pages(browser, base_url) as open_as:
        page = open_as("sam", {"width": width, "height": 860})
        open_live(page, f"/play/{made['tic_tac_two'][WIDTHS.index(width)]}/")
        expect(page.locator("#turn-status")).to_contain_text("Your move")

        # Shift: sixteen arrows round the grid, each at least 44 x 44, inside the window.
        page.click("#use-shift")
        arrows = boxes(page, ".t2-shift-target")
        assert len(arrows) == 16, arrows
        for arrow in arrows:
            assert arrow["shown"] and arrow["width"] >= TAP and arrow["height"] >= TAP, arrow
            assert arrow["left"] >= 0 and arrow["right"] <= width, arrow
            assert arrow["background"] == SOLID and arrow["color"] == "rgb(255, 255, 255)", arrow
        fits(page)
        page.screenshot(path=str(SHOTS / f"phone-controls-shift-{width}.png"), full_page=True)
        page.locator(".t2-stage").screenshot(path=str(SHOTS / f"phone-controls-shift-grid-{width}.png"))
        # The arrows are the grid's own: a tap on one plays that Shift (row 1's X moves on).
        page.click("#shift-row-1-right")
        expect(page.locator("#sq-2")).to_have_attribute("aria-label", re.compile(r"^Square 2, X"))

        # Topple (not a special action: still open after the Shift), X's Wall right of 6.
        scroll_to(page, ".t2-field")
        page.click("#use-topple")
        # Each topple arrow: a solid face beside the Wall, and a tap area 44 px deep into
        # the square it falls onto, as long as the square.
        reach = page.evaluate(
            """() => [...document.querySelectorAll('.t2-topple-target')].map(t => {
                const r = t.getBoundingClientRect(), after = t.classList.contains('toward-after');
                const vertical = t.classList.contains('v');
                const at = (depth, along) => {
                    const x = vertical ? (after ? r.left + depth : r.right - depth) : r.left + along;
                    const y = vertical ? r.top + along : (after ? r.top + depth : r.bottom - depth);
                    return document.elementFromPoint(x, y) === t;
                };
                const long = vertical ? r.height : r.width;
                return {label: t.getAttribute('aria-label'), long,
                        background: getComputedStyle(t).backgroundColor,
                        hits: [1, 22, 43].map(d => [2, long / 2, long - 2].every(a => at(d, a)))};
            })"""
        )
        assert reach, "no topple arrows"
        for target in reach:
            assert target["background"] == SOLID and target["long"] >= TAP, target
            assert all(target["hits"]), target
        fits(page)
        page.locator(".t2-stage").screenshot(path=str(SHOTS / f"phone-controls-topple-grid-{width}.png"))


@pytest.mark.parametrize("width", WIDTHS)
def test_nine_square_open_challenge_shows_no_die_and_strokes_show(world, browser, width):
    from playwright.sync_api import expect

    base_url, made = world
    with signed_in_pages(browser, base_url) as open_as:
        page = open_as("mei", {"width": width, "height": 860})  # who could accept it
        open_live(page, f"/play/{made['nine_open']}/")
        expect(page.locator("#die-pending")).to_be_visible()
        expect(page.locator("#die-pending")).to_contain_text("the first roll comes when the game starts")
        expect(page.locator("#board .die")).to_have_count(0)
        fits(page)
        page.screenshot(path=str(SHOTS / f"phone-controls-nine-open-{width}.png"), full_page=True)

        open_live(page, f"/play/{made['nine_finished']}/")
        drawn = page.evaluate(
            """() => [...document.querySelectorAll('.nine .strikes line')].map(l => {
                const style = getComputedStyle(l), svg = l.closest('svg');
                return {across: svg.classList.contains('board-strikes'),
                        px: parseFloat(style.strokeWidth) * l.getScreenCTM().a,
                        opacity: parseFloat(style.opacity), blend: getComputedStyle(svg).mixBlendMode};
            })"""
        )
        assert any(not d["across"] for d in drawn), drawn
        for line in drawn:
            # A line of three: 6 px or more, full colour; a line of boards: 8 px or more, 60 % or more.
            assert line["px"] >= (8 if line["across"] else 6) and line["opacity"] >= 0.6, line
            assert line["blend"] == "multiply", line  # the letters under a stroke still show
        marks = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.nine .square')).fontSize)")
        assert marks >= 18, marks
        fits(page)
        page.locator(".nine").screenshot(path=str(SHOTS / f"phone-controls-nine-strokes-{width}.png"))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_guardians_answers_are_apart_and_full_tap_targets(world, browser, width):
    base_url, made = world
    context = browser.new_context(viewport={"width": width, "height": 860}, base_url=base_url)
    try:
        page = context.new_page()
        page.goto(made["consent"])
        yes, no = boxes(page, ".consent-answer button")
        for button in (yes, no):
            assert button["height"] >= TAP and button["left"] >= 0 and button["right"] <= width, button
        if width < 600:
            # One under the other, each the full width, with room between them.
            assert no["top"] - yes["bottom"] >= 12, (yes, no)
            assert yes["width"] == no["width"] and yes["width"] >= width - 40, (yes, no)
        else:
            # Side by side where they fit, apart.
            assert abs(yes["top"] - no["top"]) < 1 and no["left"] - yes["right"] >= 12, (yes, no)
        note = page.locator("#decline-note")
        assert page.locator("button[value=decline]").get_attribute("aria-describedby") == "decline-note"
        assert note.bounding_box()["y"] >= no["bottom"]  # the note sits under its button
        fits(page)
        page.screenshot(path=str(SHOTS / f"phone-controls-consent-{width}.png"), full_page=True)
    finally:
        context.close()


#: Disclosures that are controls of their own, on pages every player meets: the game's
#: proof of fairness and Rules panel, a section's rounds, the section form's groups.
SUMMARIES = [
    ("mei", "/play/{nine_finished}/", ["#fairness > summary", "#rules-panel > summary"]),
    ("mei", "/clubs/demo-noughts-crosses-club/demo-open/open/", ["details.round > summary"]),
    ("organiser", "/clubs/demo-noughts-crosses-club/demo-open/new-section/", ["details.form-group > summary"]),
]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_disclosures_summary_is_a_44_px_tap_target_on_a_phone(world, browser, width):
    """A newcomer's walkthrough measured "How do we know the game was fair?" 20 px high at
    390 px, the Rules panel's and a round's summary 24, the section form's groups 34: too
    small for a finger. On a phone each is 44 px or more, its words on one line in the
    middle; a laptop keeps them as text."""
    base_url, made = world
    with signed_in_pages(browser, base_url) as open_as:
        for username, path, selectors in SUMMARIES:
            page = open_as(username, {"width": width, "height": 860})
            page.goto(path.format(**made))
            for selector in selectors:
                found = boxes(page, selector)
                assert found and all(box["shown"] for box in found), (path, selector)
                for box in found:
                    if width < 600:
                        assert box["height"] >= TAP, (path, selector, box)
                    else:
                        assert box["height"] < TAP, (path, selector, box)
            fits(page)
