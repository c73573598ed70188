"""A game whose observer cap is reached (the socket closed with 4429 after an
``observers-full`` error frame, docs/protocol.md): the page keeps the reason in view,
says it tries again, tries again every 15 to 30 s (not every second), never shows
"Reconnecting…" in red, and keeps the board; once a place is free it is live. The
socket is played by the test (Playwright's route_web_socket) on a fake clock."""

from __future__ import annotations

import json
import re

from tests.browser.support import BROWSER_MARKS, PHONE, shoot

pytestmark = BROWSER_MARKS

FULL = "This game has its most observers (2) watching; try again later."


def a_finished_game(page) -> str:
    """One of the demo's rated games (Kofi played none of them: an observer)."""
    page.goto("/ratings/player/sam/")
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    return next(h for h in hrefs if re.fullmatch(r"/play/\d+/", h))


def advance(page, ms: int) -> None:
    """Run the page's clock ``ms`` on, half a second at a time with a real moment between:
    a socket's handshake (routed here) completes in real time, so a single jump would fire
    the page's 10 s handshake limit (site.js openSocket) before the handshake could end."""
    for _ in range(ms // 500):
        page.clock.run_for(500)
        page.wait_for_timeout(10)
    page.wait_for_timeout(300)


def test_a_full_game_waits_gently_with_its_reason_in_view(sign_in):
    from playwright.sync_api import expect

    page = sign_in("kofi", PHONE)
    game = a_finished_game(page)
    tries = []
    let_in = []

    def socket(ws):
        tries.append(ws.url)
        if let_in:
            ws.send(json.dumps({"type": "state", "ply": 0, "status": "finished", "observers": 2}))
            return
        ws.send(json.dumps({"type": "error", "code": "observers-full", "message": FULL}))
        ws.close(code=4429, reason="observers-full")

    page.clock.install()
    page.route_web_socket(re.compile(r"/ws/games/"), socket)
    page.goto(game)
    errors, connection = page.locator("#game-errors"), page.locator("#connection")
    expect(errors).to_contain_text(FULL)
    expect(errors).to_contain_text("tries again by itself")
    expect(connection).to_have_text("Waiting for a place to watch")
    expect(page.locator("#observers")).to_be_hidden()  # not "0 watching" beside it
    expect(page.locator("#board")).to_be_visible()
    assert page.locator("#connection").evaluate("e => getComputedStyle(e, '::before').color") != "rgb(176, 0, 32)"  # not var(--danger)
    shoot(page, "game-observers-full-phone")

    advance(page, 14_000)
    assert len(tries) == 1, f"{len(tries)} tries in 14 s: no retry comes before 15 s"
    advance(page, 46_000)  # a minute in all
    assert 2 <= len(tries) <= 4, f"{len(tries)} tries in a minute"
    expect(errors).to_contain_text(FULL)  # still there after the retries
    expect(connection).not_to_have_text(re.compile("Reconnecting"))

    let_in.append(True)
    advance(page, 31_000)
    expect(connection).to_have_text("Live")
    expect(errors).to_be_hidden()
    expect(page.locator("#observers")).to_be_visible()
