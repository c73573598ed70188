"""Every guided lesson played to its end in a real browser, on the real game page (its
board, its socket, the coach's replies from the Celery worker), as a demo player: the
steps shown one after the other, a move off the lesson refused with its hint, "Lesson
complete" at the end and the progress on /learn/. Plain placements are clicks on the
board's squares; special actions are the action list's options (the board's own aiming
is another test's). Screenshots: /tmp/shots-lessons/ (1280 and 390 px wide)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.lessons import BY_SLUG, LESSONS, next_lesson, same_move
from tests.browser.support import BROWSER_MARKS, LAPTOP, expect_refusal_beside, scroll_to, wait_live

pytestmark = BROWSER_MARKS

SHOTS = Path("/tmp/shots-lessons")
PHONE_390 = {"width": 390, "height": 844}


def shot(page, name: str, *, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def start(page, slug: str) -> None:
    page.goto("/learn/")
    page.locator(f"#lesson-{slug} form button").first.click()
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    wait_live(page)


def wait_for_step(page, number: int, total: int) -> None:
    """The board (and its lesson panel) shows step ``number`` and the learner's turn."""
    page.wait_for_function(
        """([text]) => {
            const board = document.querySelector('#board');
            const count = document.querySelector('#lesson-panel .lesson-count');
            return board && board.dataset.myTurn === '1' && count && count.textContent.trim() === text;
        }""",
        arg=[f"Step {number} of {total}"],
    )


def play(page, variant: str, move: dict) -> None:
    """Play ``move`` as a person would: squares on the board, else the action list."""
    if variant == "classic":
        page.locator(f"#sq-{move['cell']}").click()
    elif variant == "tactic-toe":
        for cell in move["plan"]:
            page.locator(f"#sq-{cell}").click()
        page.locator("#plan-submit").click()
    elif variant == "nine-square":
        for board, cell in move["marks"]:
            page.locator(f"#sq-{board}-{cell}").click()
        page.locator("#marks-submit").click()
    elif move.get("action") == "place" or move.get("type") == "write":
        page.locator(f"#sq-{move.get('square') or move.get('cell')}").click()
    else:
        values = page.eval_on_selector_all("#action-select option", "options => options.map(o => o.value)")
        value = next(v for v in values if same_move(json.loads(v), move))
        page.select_option("#action-select", value)
        page.locator("#action-form button[type=submit]").click()


def play_lesson(page, slug: str, *, shots: str = "") -> None:
    from playwright.sync_api import expect

    lesson = BY_SLUG[slug]
    total = len(lesson.steps)
    start(page, slug)
    for number, step in enumerate(lesson.steps, 1):
        wait_for_step(page, number, total)
        expect(page.locator("#lesson-instruction")).to_have_text(step.instruction)
        if shots and number == 3:
            shot(page, shots)
        play(page, lesson.variant, step.move)
    panel = page.locator("#lesson-panel")
    expect(panel).to_contain_text("Lesson complete")
    expect(page.locator("#game-errors")).to_have_text("")  # no move went astray on the way
    expect(panel.locator(".lesson-steps li.done")).to_have_count(total)


def test_every_lesson_to_its_end(sign_in):
    from playwright.sync_api import expect

    page = sign_in("edith", LAPTOP)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/learn/")
    for lesson in LESSONS:
        expect(page.locator(f"#lesson-{lesson.slug} .lesson-state")).to_have_text("Not started")
    shot(page, "learn-index-1280", full=True)

    finished: set[str] = set()
    for lesson in LESSONS:
        play_lesson(page, lesson.slug, shots=f"lesson-{lesson.slug}-in-progress-1280")
        finished.add(lesson.slug)
        # The next lesson offered is the first not finished; after the last, none is left.
        after = next_lesson(lesson.slug, finished)
        if after is not None:
            expect(page.locator(".lesson-next button")).to_have_text(f"Next lesson: {after.title}")
        else:
            expect(page.locator("#lesson-all-done")).to_have_text("✓ All lessons done.")
            expect(page.locator(".lesson-next button")).to_have_count(0)
            expect(page.locator(".lesson-next a.button")).to_have_text(re.compile("^Play a real game of "))
        shot(page, f"lesson-{lesson.slug}-complete-1280", full=True)

    page.goto("/learn/")
    for lesson in LESSONS:
        row = page.locator(f"#lesson-{lesson.slug}")
        expect(row.locator(".lesson-state")).to_have_text("✓ Done")
        # Nine-Square's game plays on after its lesson: it is continued, the others replayed.
        expect(row.locator("button").first).to_have_text("Continue" if lesson.slug == "nine-square" else "Replay")
    shot(page, "learn-index-done-1280", full=True)


def test_a_lesson_on_a_phone_refuses_a_move_off_the_lesson_with_its_hint(sign_in):
    from playwright.sync_api import expect

    page = sign_in("lucia", PHONE_390)
    lesson = BY_SLUG["classic"]
    start(page, "classic")
    wait_for_step(page, 1, 4)
    # The instruction is on the first screen, next to the board, not below everything.
    box = page.locator("#lesson-instruction").bounding_box()
    assert box is not None and box["y"] < PHONE_390["height"], box
    page.locator("#sq-1").click()  # not the centre
    expect_refusal_beside(page, "#board .grid", lesson.steps[0].hint)
    expect(page.locator("#sq-1")).to_have_text("")
    play(page, "classic", lesson.steps[0].move)
    wait_for_step(page, 2, 4)
    expect(page.locator("#lesson-panel .lesson-steps li.done")).to_have_count(1)
    shot(page, "lesson-classic-in-progress-390")
    shot(page, "lesson-classic-in-progress-390-full", full=True)
    # Leaving and coming back resumes the same game at the same step.
    url = page.url
    start(page, "classic")
    assert page.url == url
    wait_for_step(page, 2, 4)


def test_on_a_touch_phone_the_page_stays_on_the_board_after_each_move(sign_in):
    """Each update swaps the board in anew; the page must not scroll away from it (the
    browser's scroll anchoring once threw a 390 px phone to the page's bottom)."""
    page = sign_in("mei", PHONE_390, has_touch=True, is_mobile=True)
    lesson = BY_SLUG["tic-tac-two-wall"]
    start(page, lesson.slug)
    total = len(lesson.steps)
    wait_for_step(page, 1, total)
    scroll_to(page, "#sq-5")
    page.evaluate("window.scrollBy(0, 200)")
    before = page.evaluate("window.scrollY")
    page.locator("#sq-5").tap()
    wait_for_step(page, 2, total)
    page.wait_for_timeout(500)  # the coach's reply and its render have landed
    after = page.evaluate("window.scrollY")
    assert abs(after - before) < 40, (before, after)
    box = page.locator("#sq-5").bounding_box()
    assert box is not None and 0 <= box["y"] <= PHONE_390["height"] - box["height"], box


#: One lesson of each variant (docs/lessons.md, "Square numbers").
ONE_LESSON_PER_VARIANT = ("classic", "tactic-toe", "nine-square", "t-tic-t-tac-toe", "tic-tac-two")

_NUMBERS = """() => [...document.querySelectorAll('#board .grid')].map(grid => [...grid.querySelectorAll('.square')].map(sq => {
    const before = getComputedStyle(sq, '::before');
    return {id: sq.id, label: sq.getAttribute('aria-label'), content: before.content,
            width: parseFloat(before.width) || 0, height: parseFloat(before.height) || 0,
            reset: getComputedStyle(grid).counterReset};
}))"""


def _screenshot_board(page, path) -> None:
    """A picture of the board for a person to look at (not an assertion). The socket's
    state frame may swap the board in while the picture is taken, which detaches the
    element: take it again from the board now shown."""
    from playwright.sync_api import Error

    for attempt in range(3):
        try:
            page.locator("#board").screenshot(path=str(path))
            return
        except Error as error:
            if "not attached" not in str(error) or attempt == 2:
                raise


def test_a_lesson_board_shows_each_squares_number_in_its_corner(sign_in):
    """The steps name squares by number ("square 7"): every square of the learner's board
    shows its number, counted in the squares' order, which is their numbering (row by
    row; per small board in Nine-Square), for the eye only (the label already says it);
    a board without the lesson panel (a real game) shows them alike."""
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, name in ((LAPTOP, "1280"), (PHONE_390, "390")):
        page = sign_in("kofi" if name == "1280" else "sam", viewport)
        for slug in ONE_LESSON_PER_VARIANT:
            start(page, slug)
            expect(page.locator("#lesson-panel .lesson-count")).to_have_text(re.compile(r"Step 1 of \d+"))
            assert "number in its corner" in BY_SLUG[slug].steps[0].instruction
            grids = page.evaluate(_NUMBERS)
            assert grids and all(grids), slug
            for number_of_board, squares in enumerate(grids, 1):
                prefix = f"sq-{number_of_board}-" if slug == "nine-square" else "sq-"
                assert [sq["id"] for sq in squares] == [f"{prefix}{n}" for n in range(1, len(squares) + 1)], slug
                for sq in squares:
                    assert sq["reset"].startswith("square-number"), (slug, sq)
                    # Shown (a box of its own), and out of the accessible name.
                    assert sq["content"] == 'counter(square-number) / ""', (slug, sq)
                    assert sq["width"] > 3 and 5 < sq["height"] < 20, (slug, sq)
                # Two digits are wider than one: the counter has counted.
                if len(squares) >= 10:
                    assert squares[9]["width"] > squares[8]["width"] * 1.5, (slug, squares[8], squares[9])
            square = page.locator("#board .grid .square").nth(4)
            expect(square).to_have_accessible_name(square.get_attribute("aria-label") or "")
            _screenshot_board(page, SHOTS / f"lesson-{slug}-numbers-{name}.png")
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        # A real game's board numbers its squares the same way (static/css/game.css): the
        # numbers do not hang on the lesson panel.
        page.evaluate("document.querySelector('#lesson-panel').remove()")
        assert {sq["content"] for grid in page.evaluate(_NUMBERS) for sq in grid} == {'counter(square-number) / ""'}


#: A move off each lesson, at its first step the board itself plays (a square, a plan,
#: marks), and the control it is made with: (slug, step number, the wrong move, control).
OFF_LESSON = (
    ("tic-tac-two", 4, {"action": "place", "square": 1}, "#board .grid"),
    ("t-tic-t-tac-toe", 1, {"action": "place", "square": 1}, "#board .grid"),
    ("tactic-toe", 1, {"plan": [1, 3, 7]}, "#plan-submit"),
    ("nine-square", 1, {"marks": [[7, 1], [7, 2], [7, 6]]}, "#board .nine"),
)


def test_a_move_off_the_lesson_is_refused_right_under_the_board_in_every_variant(sign_in):
    """The refusal is said where the player is looking: under the board (and its action
    list), not under the cards, notes and legends that follow it (Tic Tac Two's was 430 px
    below its grid at 1280 px, T-Tic-T-Tac-Toe's 400, Nine-Square's 240)."""
    for viewport, name in ((LAPTOP, "1280"), (PHONE_390, "390")):
        page = sign_in("kofi" if name == "1280" else "sam", viewport)
        for slug, spoil, wrong, control in OFF_LESSON:
            lesson = BY_SLUG[slug]
            total = len(lesson.steps)
            start(page, slug)
            for number, step in enumerate(lesson.steps[: spoil - 1], 1):
                wait_for_step(page, number, total)
                play(page, lesson.variant, step.move)
            wait_for_step(page, spoil, total)
            assert not same_move(wrong, lesson.steps[spoil - 1].move), slug
            play(page, lesson.variant, wrong)
            expect_refusal_beside(page, control, lesson.steps[spoil - 1].hint)
            shot(page, f"lesson-{slug}-refused-{name}")
            page.evaluate("document.getElementById('game-errors').textContent = ''")


def test_on_a_phone_each_tic_tac_two_hand_keeps_its_cards_beside_its_letter(sign_in):
    """"Special actions held": a hand too long for one line wraps its cards beside its
    letter, not the whole list under it, away from the letter it belongs to (390 px, at
    the end of the Dibs lesson X holds "Shift · used", "Dibs Space · used" and
    "Intersect Space · used")."""
    from playwright.sync_api import expect

    page = sign_in("sam", PHONE_390)
    lesson = BY_SLUG["tic-tac-two-dibs-intersect-shift"]
    start(page, lesson.slug)
    for number, step in enumerate(lesson.steps, 1):
        wait_for_step(page, number, len(lesson.steps))
        play(page, lesson.variant, step.move)
    expect(page.locator("#lesson-panel")).to_contain_text("Lesson complete")
    hands = page.evaluate("""() => [...document.querySelectorAll('.t2-hand')].map(hand => {
        const letter = hand.querySelector('h3').getBoundingClientRect();
        const chip = hand.querySelector('.t2-chip').getBoundingClientRect();
        const chips = hand.querySelector('.t2-chips').getBoundingClientRect();
        return {text: hand.innerText, letter: [letter.top, letter.bottom, letter.right],
                chip: [chip.top, chip.left], chips_bottom: chips.bottom};
    })""")
    assert len(hands) == 2 and any(h["chips_bottom"] - h["chip"][0] > 40 for h in hands), hands  # one wraps
    for hand in hands:
        assert hand["chip"][0] < hand["letter"][1], hand  # the first card on the letter's line
        assert hand["chip"][1] > hand["letter"][2], hand  # and beside it
    shot(page, "lesson-tic-tac-two-hands-390", full=True)
