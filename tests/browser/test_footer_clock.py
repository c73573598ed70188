"""The footer's "server checked in" time (static/js/site.js) in a real browser set to New
York and US English: written in UTC on the 24-hour clock ("17:05:09 UTC"), as every time
on the site is ("D j M Y, H:i UTC"), not the browser's local 12-hour time ("12:05:09 PM"),
found by an outside walkthrough. The page and the notifications socket are stand-ins
(Playwright's routes), so no platform is started: the heartbeat frame is
docs/protocol.md's."""

from __future__ import annotations

from tests.browser.support import BROWSER_MARKS, chromium
from tests.processes import ROOT

pytestmark = BROWSER_MARKS

PAGE = """<!doctype html><html><body>
<footer><span id="live-status" data-socket="/ws/notifications/">Connecting…</span></footer>
<script src="/static/js/site.js"></script></body></html>"""


def test_the_footer_says_the_heartbeat_in_utc_on_the_24_hour_clock():
    from playwright.sync_api import expect

    site_js = (ROOT / "static" / "js" / "site.js").read_text()
    with chromium() as browser:
        context = browser.new_context(timezone_id="America/New_York", locale="en-US")
        page = context.new_page()
        page.route("http://footer.test/", lambda route: route.fulfill(body=PAGE, content_type="text/html; charset=utf-8"))
        page.route("http://footer.test/static/js/site.js",
                   lambda route: route.fulfill(body=site_js, content_type="text/javascript; charset=utf-8"))
        page.route_web_socket(
            "ws://footer.test/ws/notifications/",
            lambda ws: ws.send('{"type": "heartbeat", "at": "2026-11-30T17:05:09+00:00"}'),
        )
        page.goto("http://footer.test/")
        expect(page.locator("#live-status")).to_have_text("Live · server checked in 17:05:09 UTC")
        context.close()


def test_the_footer_says_live_updates_are_late_once_heartbeats_stop_and_live_when_one_comes():
    """Redis away, the worker or beat dead: the notifications socket stays open and the
    heartbeat stops. The footer said "Live · server checked in 17:05:09 UTC" for good (a
    chaos probe, Redis killed mid-game): after 2.5 heartbeats missed it says the live
    updates are late, and the next heartbeat puts it right."""
    from playwright.sync_api import expect

    site_js = (ROOT / "static" / "js" / "site.js").read_text()
    sockets = []

    def first_beat(ws):
        sockets.append(ws)
        ws.send('{"type": "heartbeat", "at": "2026-11-30T17:05:09+00:00", "every": 1}')

    with chromium() as browser:
        page = browser.new_page()
        page.route("http://footer.test/", lambda route: route.fulfill(body=PAGE, content_type="text/html; charset=utf-8"))
        page.route("http://footer.test/static/js/site.js",
                   lambda route: route.fulfill(body=site_js, content_type="text/javascript; charset=utf-8"))
        page.route_web_socket("ws://footer.test/ws/notifications/", first_beat)
        page.goto("http://footer.test/")
        status = page.locator("#live-status")
        expect(status).to_have_text("Live · server checked in 17:05:09 UTC")
        expect(status).to_have_text("Live updates are late: the server last checked in at 17:05:09 UTC", timeout=6000)
        expect(status).to_have_class("offline")
        sockets[0].send('{"type": "heartbeat", "at": "2026-11-30T17:05:20+00:00", "every": 1}')
        expect(status).to_have_text("Live · server checked in 17:05:20 UTC")
        expect(status).to_have_class("live")
