"""A player's game page claims a time-out the server has not flagged (static/js/game.js):
with beat killed, a game whose clock ran out sat at 0:00 on both pages, "Your move." on
one and "Waiting for Mei to move." on the other, for as long as beat was down (a chaos
probe). The page and its socket are stand-ins (Playwright's routes): a board whose
running clock ran out 10 s ago; the socket records what the page sends and refuses the
claim as a server whose check came first would."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.browser.support import BROWSER_MARKS, chromium
from tests.processes import ROOT

pytestmark = BROWSER_MARKS


def page_html(seat: str) -> str:
    ran_out = (datetime.now(UTC) - timedelta(seconds=10)).isoformat()
    return f"""<!doctype html><html><body>
<div id="game-page" data-game-id="7" data-socket="/ws/games/7/?board=html" data-seat="{seat}">
<span id="connection">Connecting…</span>
<div id="board" data-ply="1" data-status="active">
  <span class="clock running" data-deadline="{ran_out}" data-clock-ms="0">0:00</span></div>
<p id="game-errors" role="alert"></p></div>
<footer><span id="live-status" data-socket="/ws/notifications/">Connecting…</span></footer>
<script src="/static/js/site.js"></script><script src="/static/js/game.js"></script></body></html>"""


def frames_sent(seat: str) -> tuple[list[dict], str]:
    """What the page sent on its game socket in 4 s, and its error line after."""
    scripts = {name: (ROOT / "static" / "js" / name).read_text() for name in ("site.js", "game.js")}
    sent: list[dict] = []

    def game_socket(ws):
        def on_message(message):
            frame = json.loads(message)
            sent.append(frame)
            if frame["type"] == "claim-timeout":  # flagged meanwhile by the server's check
                ws.send('{"type": "error", "code": "game-over", "message": "The game is over."}')
        ws.on_message(on_message)

    def serve(text):
        return lambda route: route.fulfill(body=text, content_type="text/javascript; charset=utf-8")

    with chromium() as browser:
        page = browser.new_page()
        page.route("http://game.test/", lambda route: route.fulfill(body=page_html(seat),
                                                                   content_type="text/html; charset=utf-8"))
        for name, text in scripts.items():
            page.route(f"http://game.test/static/js/{name}", serve(text))
        page.route_web_socket("ws://game.test/ws/games/7/?board=html", game_socket)
        page.route_web_socket("ws://game.test/ws/notifications/", lambda ws: None)
        page.goto("http://game.test/")
        page.wait_for_timeout(4000)
        return sent, page.locator("#game-errors").inner_text()


def test_a_players_page_claims_a_time_out_the_server_has_not_flagged_once_and_quietly():
    sent, errors = frames_sent("1")
    assert [frame["type"] for frame in sent] == ["claim-timeout"]  # once, not at every tick
    assert errors == ""  # the server's check was first: nothing for the player to read


def test_an_observers_page_claims_nothing():
    sent, _ = frames_sent("")
    assert sent == []
