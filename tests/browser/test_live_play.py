"""Live play in a real browser: two players and an observer, in three browser contexts,
against a real running platform (runplatform on the embedded default; uvicorn, a Celery
worker and beat on PostgreSQL + Redis). Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, PHONE, expect_refusal_beside, shoot, wait_live

pytestmark = BROWSER_MARKS


@pytest.fixture
def people(sign_in):
    """Sam (Player One) and Mei (Player Two) on laptops, Kofi watching on a phone."""
    return {name: sign_in(name, viewport) for name, viewport in (("sam", LAPTOP), ("mei", LAPTOP), ("kofi", PHONE))}


def square(page, n: int | str):
    return page.locator(f"#sq-{n}")


def focused(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def enter_board(page) -> None:
    """Focus the board's one tab stop (a roving tabindex), as Tab would."""
    from playwright.sync_api import expect

    stop = page.locator("#board .square[tabindex='0']")
    expect(stop).to_have_count(1)
    stop.focus()


def arrow_to(page, target: str) -> None:
    """Walk the keyboard focus from the focused square to square ``target`` (an id)
    with the arrow keys alone."""
    for _ in range(40):
        here = focused(page)
        if here == target:
            return
        a, b = page.locator(f"#{here}").bounding_box(), page.locator(f"#{target}").bounding_box()
        dx = (b["x"] + b["width"] / 2) - (a["x"] + a["width"] / 2)
        dy = (b["y"] + b["height"] / 2) - (a["y"] + a["height"] / 2)
        if abs(dx) > a["width"] / 2:
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrow keys never reached {target}; stuck on {focused(page)}")


def walk_every_square(page) -> None:
    """From the first square (Home), snake through the board with the arrows alone
    (right to the row's end, down, left, down, ...): every square, playable or not,
    must be reached."""
    enter_board(page)
    page.keyboard.press("Home")
    seen = {focused(page)}
    across = "ArrowRight"
    while True:
        while True:
            before = focused(page)
            page.keyboard.press(across)
            if focused(page) == before:
                break
            seen.add(focused(page))
        before = focused(page)
        page.keyboard.press("ArrowDown")
        if focused(page) == before:
            break
        seen.add(focused(page))
        across = "ArrowLeft" if across == "ArrowRight" else "ArrowRight"
    everything = set(page.eval_on_selector_all("#board .square", "squares => squares.map(s => s.id)"))
    assert len(everything) >= 9 and seen == everything, sorted(everything - seen)
    page.keyboard.press("End")
    assert focused(page) == page.eval_on_selector_all("#board .square", "s => s[s.length - 1].id")


def expect_square(page, n: int, text: str) -> None:
    from playwright.sync_api import expect

    expect(square(page, n)).to_have_attribute("aria-label", re.compile(rf"^Square {n}, {text}"))


def challenge(page, variant: str, opponent: str) -> str:
    """Create a game from the lobby's form (htmx post); return the game page's URL."""
    page.goto("/play/")
    page.select_option("#id_variant", variant)
    page.check("input[name=opponent][value=user]")
    page.fill("input[name=username]", opponent)
    page.select_option("#id_seat", "0")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    return page.url


def accept_from_lobby(page, url: str) -> None:
    found = re.search(r"/play/(\d+)/", url)
    assert found is not None
    game_id = found.group(1)
    page.goto("/play/")
    page.click(f"button[aria-label='Accept game {game_id}']")
    page.wait_for_url(re.compile(rf".*/play/{game_id}/$"))


def test_a_full_classic_game_with_an_observer(people):
    from playwright.sync_api import expect

    sam, mei, kofi = people["sam"], people["mei"], people["kofi"]
    # The boards come over the socket, rendered: the pages never ask for one over HTTP.
    board_requests: list[str] = []
    for page in (sam, mei, kofi):
        page.on("request", lambda request: board_requests.append(request.url) if "/board/" in request.url else None)
    url = challenge(sam, "classic", "mei")
    expect(sam.locator("#turn-status")).to_contain_text("Waiting for Mei to accept")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    expect(sam.locator("#observer-count")).to_have_text("1")
    expect(sam.locator("#turn-status")).to_contain_text("Your move")
    shoot(sam, "classic-start-laptop")

    # Private notes (an htmx form): saved for Sam, shown to nobody else.
    sam.fill("#note-text", "Mei likes corners")
    sam.click("#notes-title + form button[type=submit]")
    expect(sam.locator("#note-status")).to_have_text("Saved.")
    for viewer in (mei, kofi):
        viewer.reload()
        expect(viewer.locator("body")).not_to_contain_text("Mei likes corners")
    wait_live(mei, kofi)

    # Sam uses the mouse, Mei the keyboard alone: into the board, the arrows to the
    # square (over squares already taken), then Enter or Space.
    walk_every_square(mei)
    for ply, (page, cell) in enumerate(
        [(sam, 5), (mei, 1), (sam, 3), (mei, 7), (sam, 4), (mei, 6), (sam, 8), (mei, 2), (sam, 9)]
    ):
        # The page to move has its board enabled once the last move reached it.
        expect(square(page, cell)).to_be_enabled()
        if page is sam:
            square(page, cell).click()
        else:
            if not focused(page).startswith("sq-"):
                enter_board(page)
            arrow_to(page, f"sq-{cell}")
            page.keyboard.press("Enter" if ply % 4 == 1 else "Space")
        mark = "X" if page is sam else "O"
        for viewer in (sam, mei, kofi):
            expect_square(viewer, cell, mark)
        if ply == 3:
            shoot(kofi, "classic-midgame-phone-observer")
            # Squares already taken are not offered to the player whose turn it is.
            expect(square(sam, 5)).to_be_disabled()

    for viewer in (sam, mei, kofi):
        expect(viewer.locator("#turn-status")).to_contain_text("Game over: Draw: the grid is full and nobody has three in a row.")
    seed = kofi.locator("#seed")
    expect(seed).to_have_text(re.compile(r"^[0-9a-f]{32}$"))
    expect(kofi.locator("#move-list li")).to_have_count(9)
    shoot(sam, "classic-finished-laptop")
    shoot(kofi, "classic-finished-phone-observer")
    assert board_requests == []

    # The replay, stepped with the keyboard's arrows.
    kofi.goto(url + "replay/?step=0")
    expect(kofi.locator("#replay-position")).to_have_text("Move 0 of 9")
    kofi.keyboard.press("ArrowRight")
    expect(kofi.locator("#replay-position")).to_have_text("Move 1 of 9")
    expect_square(kofi, 5, "X")
    kofi.keyboard.press("End")
    expect(kofi.locator("#replay-position")).to_have_text("Move 9 of 9")
    kofi.keyboard.press("ArrowLeft")
    expect(kofi.locator("#replay-position")).to_have_text("Move 8 of 9")
    # Keys pressed faster than the steps load are taken in order, none lost.
    for key in ("Home", "ArrowRight", "ArrowRight", "End", "ArrowLeft", "ArrowLeft"):
        kofi.keyboard.press(key)
    expect(kofi.locator("#replay-position")).to_have_text("Move 7 of 9")
    expect_square(kofi, 9, "empty")
    # On the phone the four steps share one row, under the position (Prev and Next were
    # on two rows, the position between them).
    steps = [kofi.locator(f"#replay-{name}").bounding_box() for name in ("first", "prev", "next", "last")]
    position = kofi.locator("#replay-position").bounding_box()
    assert position is not None and all(steps), (position, steps)
    assert len({round(box["y"]) for box in steps}) == 1, steps
    assert position["y"] + position["height"] <= steps[0]["y"], (position, steps)
    shoot(kofi, "classic-replay-phone")


def test_a_tactic_toe_round_keeps_plans_secret_until_the_reveal(people):
    from playwright.sync_api import expect

    sam, mei, kofi = people["sam"], people["mei"], people["kofi"]
    url = challenge(sam, "tactic-toe", "mei")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    expect(sam.locator("#plan-panel")).to_contain_text("not the centre (5)")
    expect(square(sam, 5)).to_be_disabled()

    # A plan round 1 refuses (a line) is explained under Submit, where Sam is looking.
    for cell in (1, 2, 3):
        square(sam, cell).click()
    sam.click("#plan-submit")
    expect_refusal_beside(sam, "#plan-submit", "In round 1 you can't choose a three-in-a-row win")
    sam.click("#plan-clear")
    # Sam writes the text's worked example 2, 3, 7 with the mouse.
    for cell in (2, 3, 7):
        square(sam, cell).click()
    expect(sam.locator("#plan-output")).to_have_text("2, 3, 7")
    shoot(sam, "tactic-plan-laptop")
    sam.click("#plan-submit")
    expect(sam.locator("#plan-panel")).to_contain_text("Your plan 2, 3, 7 is in")
    # Mei and the observer see that a plan is in, never which.
    for viewer in (mei, kofi):
        expect(viewer.locator("#move-list")).to_contain_text("secret until the reveal")
        expect(viewer.locator("#plan-panel")).not_to_contain_text("2, 3, 7")
    shoot(kofi, "tactic-secret-phone-observer")

    # Mei plans 2, 7, 1 with the keyboard, changing her mind once; the centre, not
    # allowed this round, is still reached by the arrows and refuses the key.
    walk_every_square(mei)
    enter_board(mei)
    for cell in (2, 7, 9):
        arrow_to(mei, f"sq-{cell}")
        mei.keyboard.press("Enter")
    mei.keyboard.press("Enter")  # unpick 9
    arrow_to(mei, "sq-5")
    mei.keyboard.press("Space")  # refused: not the centre in round 1
    arrow_to(mei, "sq-1")
    mei.keyboard.press("Space")
    expect(mei.locator("#plan-output")).to_have_text("2, 7, 1")
    mei.locator("#plan-submit").focus()
    mei.keyboard.press("Enter")

    # The reveal, as the text resolves it: 2 bounces, X gets 3, O gets 7, then O gets 1.
    for viewer in (sam, mei, kofi):
        expect(viewer.locator("#plan-panel")).to_contain_text("Round 1 revealed")
        expect_square(viewer, 2, "empty")
        expect_square(viewer, 3, "X")
        expect_square(viewer, 7, "O")
        expect_square(viewer, 1, "O")
        expect(viewer.locator("#plan-panel h2")).to_have_text("Round 2 of 3")
    # The proof is folded away under its plain question (#fairness), the keys in it.
    expect(kofi.locator("#move-list")).not_to_contain_text("nonce")
    expect(kofi.locator("#fairness")).to_contain_text("nonce")
    # Round 2 lets the centre in and keeps the round-1 squares out.
    expect(square(sam, 5)).to_be_enabled()
    expect(square(sam, 2)).to_be_disabled()
    shoot(kofi, "tactic-revealed-phone-observer")
    shoot(mei, "tactic-revealed-laptop")

    # An illegal action is explained in the live region: a stale ply.
    sam.evaluate("document.getElementById('board').dataset.ply = '0'")
    for cell in (5, 4, 6):
        square(sam, cell).click()
    sam.click("#plan-submit")
    expect(sam.locator("#game-errors")).not_to_be_empty()


def to_move(*pages):
    """The page whose board says it is that player's turn (and the other)."""
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#board")).to_have_attribute("data-status", "active")
    first = next(p for p in pages if p.locator("#board").get_attribute("data-my-turn") == "1")
    return first, next(p for p in pages if p is not first)


def expect_moves(count: int, *pages) -> None:
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#move-list li:not(.muted)")).to_have_count(count)


def test_the_other_variants_take_moves_from_their_own_controls(people):
    """One or two moves in each remaining variant, through the page's own pickers."""
    from playwright.sync_api import expect

    sam, mei, kofi = people["sam"], people["mei"], people["kofi"]

    # Nine-Square: pick exactly the die's number of squares, then submit.
    url = challenge(sam, "nine-square", "mei")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    mover, other = to_move(sam, mei)
    need = int(mover.locator("#marks-panel").get_attribute("data-need"))
    expect(mover.locator("#marks-submit")).to_be_disabled()
    walk_every_square(mover)  # all 81 squares of the nine boards
    # The first mark with the arrow keys and Space, the others with the mouse.
    arrow_to(mover, "sq-1-1")
    mover.keyboard.press("Space")
    for n in range(2, need + 1):
        mover.locator(f"#sq-{n}-{n}").click()
    expect(mover.locator("#marks-output")).to_have_text(f"{need} of {need} chosen")
    shoot(mover, "nine-square-picked-laptop")
    mover.click("#marks-submit")
    expect_moves(1, sam, mei, kofi)
    expect(kofi.locator("#sq-1-1")).not_to_have_text("")
    shoot(kofi, "nine-square-phone-observer")

    # T-Tic-T-Tac-Toe: a square by click, then an action from the list.
    url = challenge(sam, "t-tic-t-tac-toe", "mei")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    mover, other = to_move(sam, mei)
    walk_every_square(mover)  # the 5 by 5 board
    arrow_to(mover, "sq-1")
    mover.keyboard.press("Enter")
    expect_moves(1, sam, mei, kofi)
    expect(other.locator("#action-select")).to_be_enabled()
    other.select_option("#action-select", label="place on square 25")
    other.click("#action-form button[type=submit]")
    expect_moves(2, sam, mei, kofi)
    expect(kofi.locator("#sq-25")).to_have_attribute("aria-label", re.compile(r"^Square 25, [XO]"))
    # A mark in the right-hand column must not widen the 5 by 5 board past a phone's width,
    # neither for an observer nor for a player (whose squares are buttons).
    assert kofi.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    other.set_viewport_size(PHONE)
    assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    other.set_viewport_size(LAPTOP)
    shoot(kofi, "ttt5-phone-observer")
    shoot(sam, "ttt5-laptop")

    # Tic Tac Two: the draft, from the action list.
    url = challenge(sam, "tic-tac-two", "mei")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    mover, other = to_move(sam, mei)
    walk_every_square(mover)  # the 4 by 4 board, none playable during the draft
    mover.select_option("#action-select", label="pick Swap")
    mover.click("#action-form button[type=submit]")
    expect_moves(1, sam, mei, kofi)
    expect(kofi.locator("#move-list")).to_contain_text("pick Swap")
    # A pick already taken is no longer offered.
    expect(other.locator("#action-select option", has_text="pick Swap")).to_have_count(0)
    shoot(other, "tic-tac-two-draft-laptop")
    # Resigning, behind a disclosure so it is never one stray click.
    other.click("details.resign summary")
    other.click("#resign")
    for viewer in (sam, mei, kofi):
        expect(viewer.locator("#turn-status")).to_contain_text("Game over")
    expect(mover.locator("#turn-status")).to_contain_text(("Sam" if mover is sam else "Mei") + " (")

    # Rock-paper-scissors: both throw; the throws show once both are in.
    url = challenge(sam, "rock-paper-scissors", "mei")
    accept_from_lobby(mei, url)
    kofi.goto(url)
    wait_live(sam, mei, kofi)
    sam.click("#throw-rock")
    expect(sam.locator(".throws")).to_contain_text("Your throw: rock")
    expect(kofi.locator(".throws")).not_to_contain_text("rock")
    mei.click("#throw-scissors")
    for viewer in (sam, mei, kofi):
        expect(viewer.locator("#turn-status")).to_contain_text("Game over: Sam wins: rock pummels scissors.")
    shoot(kofi, "rps-finished-phone-observer")


def test_the_lobby_on_a_phone_and_a_laptop(people):
    from playwright.sync_api import expect

    for name, page in (("laptop", people["sam"]), ("phone", people["kofi"])):
        page.goto("/play/")
        expect(page.locator("#create-form")).to_be_visible()
        expect(page.locator("#finished-title")).to_be_visible()
        if name == "phone":
            # A finger's target, 44 px tall: the radios' labels and "Rated" were 24 and 18 px.
            for target in ("label:has(input[value=user])", "label:has(input[value=ai])", "label:has(input[name=rated])"):
                box = page.locator(target).bounding_box()
                assert box is not None and box["height"] >= 44, (target, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        shoot(page, f"lobby-{name}")


def test_a_move_a_hung_server_never_answers_is_checked_on_a_new_socket(people):
    """A server that hangs never closes its sockets (an outside probe stopped one: the
    page said "Live" with the move unconfirmed for as long as it was stopped). Here
    Sam's socket goes silent after a move: the page opens a new one within seconds, and
    its state says whether the move counted; a move that never reached the server is
    called so, and can be played again."""
    from playwright.sync_api import expect

    sam, mei = people["sam"], people["mei"]
    url = challenge(sam, "classic", "mei")
    accept_from_lobby(mei, url)
    silenced = {"socket": 0, "drop_move": False, "silent": False}
    opened = []

    def route(ws):  # Sam's game socket, through Playwright; the one numbered "socket" goes silent
        opened.append(ws)
        number, server = len(opened), ws.connect_to_server()

        def from_page(message):
            victim = number == silenced["socket"]
            if victim and '"move"' in str(message):
                silenced["silent"] = True
                if silenced["drop_move"]:
                    return  # lost on the way: the server never hears of it
            server.send(message)

        def from_server(message):
            if not (number == silenced["socket"] and silenced["silent"]):
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    sam.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    sam.reload()
    wait_live(sam, mei)
    errors = sam.locator("#game-errors")

    # The move is stored, but its answers never come back on that socket.
    silenced.update(socket=len(opened), drop_move=False, silent=False)
    square(sam, 5).click()
    expect_square(mei, 5, "X")
    for _ in range(100):  # within MOVE_WAIT (5 s) and a reconnect, a second socket
        if len(opened) == 2:
            break
        sam.wait_for_timeout(100)
    assert len(opened) == 2
    expect_square(sam, 5, "X")  # shown from the new socket's state: it counted, nothing to say
    expect(errors).to_have_text("")
    expect(sam.locator("#connection")).to_have_text("Live")

    # Mei replies; Sam's next move is lost on the way: the new socket's state says so.
    square(mei, 1).click()
    expect_square(sam, 1, "O")
    silenced.update(socket=len(opened), drop_move=True, silent=False)
    square(sam, 3).click()
    expect(errors).to_have_text("Your last move did not reach the server: please play it again.", timeout=15_000)
    expect_square(mei, 3, "empty")
    square(sam, 3).click()  # played again, on a socket that answers
    expect_square(mei, 3, "X")
    assert len(opened) == 3
