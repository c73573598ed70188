"""T-Tic-T-Tac-Toe's tags on a 390 px phone, in the lesson's own positions: the snipped
curtain's "snipped, move 10" stays inside the board (it spilled over the left frame), and
the Checkpoint Charlie of X's wall around 18 is on top of O's wall under 17 and 18 (the
later bar hid it)."""

from __future__ import annotations

import pytest

from games.lessons import BY_SLUG
from tests.browser.support import BROWSER_MARKS, SHOTS
from tests.browser.test_lessons import play, start, wait_for_step

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}


def _topmost_is(page, selector: str) -> bool:
    """Whether the element's centre shows the element itself (nothing drawn over it)."""
    return page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            el.scrollIntoView({block: 'center'});
            const r = el.getBoundingClientRect();
            // The drawing takes no clicks (pointer-events: none), which elementFromPoint skips.
            const drawn = document.querySelectorAll('.ttt-drawn, .ttt-drawn *');
            drawn.forEach((d) => { d.style.pointerEvents = 'auto'; });
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            drawn.forEach((d) => { d.style.pointerEvents = ''; });
            return top === el || el.contains(top);
        }""",
        selector,
    )


@pytest.mark.parametrize("viewport", [PHONE_390], ids=["390"])
def test_tttt_tags_stay_inside_the_board_and_above_other_bars(sign_in, viewport):
    page = sign_in("mei", viewport)
    lesson = BY_SLUG["t-tic-t-tac-toe"]
    start(page, lesson.slug)
    for number, step in enumerate(lesson.steps[:6], 1):
        wait_for_step(page, number, len(lesson.steps))
        if number == 6:  # the coach snipped the curtain on move 10
            board = page.locator(".ttt-grid").bounding_box()
            tag = page.locator(".ttt-ghost.last .ttt-tag")
            assert tag.inner_text() == "snipped, move 10"
            box = tag.bounding_box()
            assert box["x"] >= board["x"] and box["x"] + box["width"] <= board["x"] + board["width"], (box, board)
            page.locator("#board").screenshot(path=str(SHOTS / "tttt-lesson-snipped-390.png"))
        play(page, lesson.variant, step.move)
    wait_for_step(page, 7, len(lesson.steps))  # the coach's wall under 17 and 18, move 12
    assert page.locator(".ttt-blockage .ttt-cc").count() == 1
    assert _topmost_is(page, ".ttt-blockage .ttt-cc"), "the Checkpoint Charlie is hidden under another bar"
    page.locator("#board").screenshot(path=str(SHOTS / "tttt-lesson-checkpoint-390.png"))
