"""A socket whose handshake is never answered (a server process hung behind the port,
found by a chaos probe: SIGSTOP, and the page said "Reconnecting…" for good, since a
browser has no handshake timeout) is given up after 10 s and opened again
(static/js/site.js ``openSocket``, which every page's socket goes through). The browser's
WebSocket is replaced by one that never connects and the page's clock is Playwright's,
so the test waits for nothing; the page is a stand-in served by a route."""

from __future__ import annotations

from tests.browser.support import BROWSER_MARKS, chromium
from tests.processes import ROOT

pytestmark = BROWSER_MARKS

PAGE = """<!doctype html><html><body>
<footer><span id="live-status" data-socket="/ws/notifications/">Connecting…</span></footer>
<script src="/static/js/site.js"></script></body></html>"""

# A WebSocket that stays CONNECTING until closed; close() fires "close" (code 1006) as a
# browser's does when it gives up a handshake.
HUNG_SOCKET = """
window.opened = [];
class HungSocket {
  constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; window.opened.push(this); }
  addEventListener(type, listener) { (this.listeners[type] = this.listeners[type] || []).push(listener); }
  send() { throw new Error("not open"); }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    const event = { code: 1006 };
    (this.listeners.close || []).forEach((listener) => listener(event));
    if (this.onclose) this.onclose(event);
  }
}
HungSocket.CONNECTING = 0; HungSocket.OPEN = 1; HungSocket.CLOSING = 2; HungSocket.CLOSED = 3;
window.WebSocket = HungSocket;
"""


def test_a_handshake_nobody_answers_is_given_up_and_tried_again():
    site_js = (ROOT / "static" / "js" / "site.js").read_text()
    with chromium() as browser:
        page = browser.new_page()
        page.add_init_script(HUNG_SOCKET)
        page.clock.install()
        page.route("http://hung.test/", lambda route: route.fulfill(body=PAGE, content_type="text/html; charset=utf-8"))
        page.route("http://hung.test/static/js/site.js",
                   lambda route: route.fulfill(body=site_js, content_type="text/javascript; charset=utf-8"))
        page.goto("http://hung.test/")
        assert page.evaluate("window.opened.map((s) => [s.url, s.readyState])") == [
            ["ws://hung.test/ws/notifications/", 0]]
        page.clock.run_for(9_000)
        assert page.evaluate("window.opened.length") == 1  # still waiting on its handshake
        page.clock.run_for(2_000)
        assert page.evaluate("window.opened[0].readyState") == 3  # given up at 10 s
        assert page.locator("#live-status").inner_text() == "Reconnecting…"
        page.clock.run_for(1_500)  # the first retry comes after 1 s
        assert page.evaluate("window.opened.length") == 2
        page.close()
