"""The heartbeat late, then back (static/js/site.js), as a section page hears it
(static/js/section-live.js): with Redis away its socket stays open and hears nothing, so
the page said "Live" and stayed stale after Redis came back (a chaos probe: a withdrawal
made during the outage was still shown as an entry 40 s after). Now it polls while the
heartbeat is late and fetches its live part once more when it is back. The page and its
sockets are stand-ins (Playwright's routes), and htmx a stand-in that counts the fetches,
so no platform is started; the frames are docs/protocol.md's."""

from __future__ import annotations

import time

from tests.browser.support import BROWSER_MARKS, chromium
from tests.processes import ROOT

pytestmark = BROWSER_MARKS

PAGE = """<!doctype html><html><body>
<p id="section-connection" hidden></p>
<div id="section-live" data-socket="/ws/sections/4/" data-poll="1"></div>
<footer><span id="live-status" data-socket="/ws/notifications/">Connecting…</span></footer>
<script>
  window.fetches = 0;  // htmx's fetch of the live part, swapped in at once
  window.htmx = {trigger(elt) {
    window.fetches += 1;
    document.body.dispatchEvent(new CustomEvent("htmx:beforeSwap", {detail: {elt: elt, shouldSwap: true}}));
  }};
</script>
<script src="/static/js/site.js"></script><script src="/static/js/section-live.js"></script></body></html>"""


def test_a_section_page_polls_while_the_heartbeat_is_late_and_fetches_again_when_it_is_back():
    from playwright.sync_api import expect

    scripts = {name: (ROOT / "static" / "js" / name).read_text() for name in ("site.js", "section-live.js")}
    notifications = []

    def beat_once(ws):
        notifications.append(ws)
        ws.send('{"type": "heartbeat", "at": "2026-11-30T17:05:09+00:00", "every": 2}')

    with chromium() as browser:
        page = browser.new_page()
        page.route("http://section.test/", lambda route: route.fulfill(body=PAGE, content_type="text/html; charset=utf-8"))
        def serve(text):
            return lambda route: route.fulfill(body=text, content_type="text/javascript; charset=utf-8")

        for name, text in scripts.items():
            page.route(f"http://section.test/static/js/{name}", serve(text))
        page.route_web_socket("ws://section.test/ws/notifications/", beat_once)
        page.route_web_socket("ws://section.test/ws/sections/4/",
                              lambda ws: ws.send('{"type": "following", "section": 4}'))
        page.goto("http://section.test/")
        status = page.locator("#section-connection")
        expect(status).to_have_text("Live")
        assert page.evaluate("window.fetches") == 1  # the catch-up on joining
        # No heartbeat for 2.5 of them (5 s): Redis is away, the socket hears nothing.
        expect(status).to_have_text("Live updates are late: meanwhile this page refreshes every 1 seconds.",
                                    timeout=8000)
        page.wait_for_function("window.fetches >= 3", timeout=5000)  # polled
        notifications[0].send('{"type": "heartbeat", "at": "2026-11-30T17:05:20+00:00", "every": 2}')
        expect(status).to_have_text("Live")  # fetched once more, and live again
        fetched = page.evaluate("window.fetches")
        time.sleep(2)
        assert page.evaluate("window.fetches") == fetched  # no more polling


BADGE_PAGE = """<!doctype html><html><body>
<a href="/accounts/notices/">Notices <span class="badge unread-badge" data-unread="1">1</span></a>
<footer><span id="live-status" data-socket="/ws/notifications/">Connecting…</span></footer>
<script src="/static/js/site.js"></script></body></html>"""


def test_the_unread_count_is_read_again_when_the_heartbeat_is_back():
    """A notice stored during the outage (a challenge made over REST) was pushed to nobody,
    and the navigation's count stayed as it was after Redis came back."""
    from playwright.sync_api import expect

    site_js = (ROOT / "static" / "js" / "site.js").read_text()
    notifications = []

    def beat_once(ws):
        notifications.append(ws)
        ws.send('{"type": "heartbeat", "at": "2026-11-30T17:05:09+00:00", "every": 1}')

    with chromium() as browser:
        page = browser.new_page()
        page.route("http://badge.test/", lambda route: route.fulfill(body=BADGE_PAGE, content_type="text/html; charset=utf-8"))
        page.route("http://badge.test/static/js/site.js",
                   lambda route: route.fulfill(body=site_js, content_type="text/javascript; charset=utf-8"))
        page.route("http://badge.test/api/v1/accounts/notices/unread-count/",
                   lambda route: route.fulfill(body='{"unread": 3}', content_type="application/json"))
        page.route_web_socket("ws://badge.test/ws/notifications/", beat_once)
        page.goto("http://badge.test/")
        badge = page.locator(".unread-badge")
        expect(page.locator("#live-status")).to_have_text("Live updates are late: the server last checked in at "
                                                           "17:05:09 UTC", timeout=6000)
        expect(badge).to_have_text("1")
        notifications[0].send('{"type": "heartbeat", "at": "2026-11-30T17:05:20+00:00", "every": 1}')
        expect(badge).to_have_text("3", timeout=5000)
