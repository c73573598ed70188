"""The Content-Security-Policy in a real browser (docs/security.md, "Headers and
assets"): the main pages, a live game over its websocket, htmx swaps, the admin and
Swagger UI at /api/docs/ run with zero policy violations, and no request leaves the
platform's own host (Swagger UI comes from our static files, not a CDN)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, PASSWORD, TIMEOUT_MS, shoot

pytestmark = BROWSER_MARKS

#: Records every violation the page sees, from before its first script runs.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


class Watcher:
    """One browser context: its violations (events and console reports), and every host
    a request or websocket went to."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.context = browser.new_context(viewport=LAPTOP, base_url=base_url)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.add_init_script(LISTEN)
        self.hosts: set[str] = set()
        self.console: list[str] = []
        self.context.on("request", lambda request: self.hosts.add(urlsplit(request.url).hostname or request.url))
        self.page = self.context.new_page()
        self.page.on("websocket", lambda socket: self.hosts.add(urlsplit(socket.url).hostname))
        self.page.on("console", self._console)
        self.seen: list[str] = []

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def check(self, where: str) -> None:
        """No violation on the page as it is now (call before leaving it)."""
        violations = self.page.evaluate("window.__csp || []")
        assert violations == [] and self.console == [], f"{where}: {violations} {self.console}"
        self.seen.append(where)

    def visit(self, path: str) -> None:
        response = self.page.goto(path)
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), path
        self.page.wait_for_load_state("networkidle")
        self.check(path)

    def sign_in(self, username: str) -> None:
        self.page.goto("/accounts/login/")
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("form button[type=submit]")
        self.page.wait_for_url(lambda url: "/accounts/login/" not in url)
        self.check("log-in")


@pytest.fixture
def watch(browser, server) -> Iterator[Any]:
    watchers: list[Watcher] = []

    def make() -> Watcher:
        watchers.append(Watcher(browser, server))
        return watchers[-1]

    yield make
    for watcher in watchers:
        assert watcher.hosts <= {"127.0.0.1"}, f"requests left the platform: {watcher.hosts}"
        watcher.context.close()


def test_public_pages_and_api_docs_pass_the_policy_offline(watch):
    from playwright.sync_api import expect

    visitor = watch()
    for path in ("/", "/play/", "/clubs/", "/ratings/", "/accounts/signup/", "/accounts/login/"):
        visitor.visit(path)

    # Swagger UI, drawn from our own files, with the schema loaded and an operation open.
    visitor.page.goto("/api/docs/")
    expect(visitor.page.locator(".swagger-ui .info .title")).to_contain_text("Tic Tac Toe League API")
    visitor.page.locator(".opblock-summary").first.click()
    expect(visitor.page.locator(".opblock-body").first).to_be_visible()
    visitor.page.wait_for_load_state("networkidle")
    visitor.check("/api/docs/")
    shoot(visitor.page, "api-docs-offline")

    # The control: an inline script is refused and seen, so "no violation" means something.
    visitor.page.goto("/")
    visitor.page.evaluate("""() => { const s = document.createElement("script");
                                     s.textContent = "window.__ran = true"; document.body.append(s); }""")
    visitor.page.wait_for_function("window.__csp.length === 1")
    assert visitor.page.evaluate("window.__ran === undefined")
    visitor.page.evaluate("window.__csp = []")
    visitor.console.clear()


def test_a_player_pages_live_game_and_htmx_pass_the_policy(watch):
    from playwright.sync_api import expect

    sam = watch()
    sam.sign_in("sam")
    page = sam.page

    # The section page (its live part polls with htmx) and the private calendar link.
    page.goto("/clubs/")
    page.click("text=Demo Noughts & Crosses Club")
    page.click("text=Demo Open")
    page.click("a:has-text('Open')")
    expect(page.locator("h1")).to_contain_text("Open")
    sam.check("section")
    page.click("text=my rounds in a calendar app")
    page.click("button:has-text('Make my calendar link')")
    expect(page.locator(".calendar-url")).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/clubs/calendar/[\w-]{32}\.ics$"))
    sam.check("calendar link")

    # The profile form saves through htmx (a swap, htmx's indicator classes).
    page.goto("/accounts/profile/")
    page.fill("input[name=display_name]", "Sam the CSP tester")
    page.click("#profile-card button[type=submit]")
    expect(page.locator("#profile-card .saved")).to_be_visible()
    sam.check("profile (htmx)")

    # A live game against the computer: the board over its websocket, a move and a reply.
    page.goto("/play/")
    page.check("input[name=opponent][value=ai]")
    page.select_option("#id_seat", "0")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    expect(page.locator("#connection")).to_have_text("Live")
    page.locator("#board .square").first.click()
    expect(page.locator("#board .square[aria-label*=', X']").first).to_be_visible()
    page.wait_for_timeout(1500)  # the computer's reply arrives over the socket
    sam.check("live game")
    expect(page.locator("#live-status")).to_contain_text("Live")  # the notices socket, too
    shoot(page, "csp-live-game")
    # Resigning ends it over the socket; then the replay page (game.js again).
    page.click("details.resign summary")
    page.click("#resign")
    expect(page.locator("a[href$='/replay/']").first).to_be_visible()
    sam.check("game over")
    sam.visit(page.url + "replay/")
    sam.visit("/ratings/player/sam/")


def test_the_admin_passes_the_policy(watch):
    from playwright.sync_api import expect

    admin = watch()
    admin.sign_in("admin")
    admin.visit("/admin/")
    links = admin.page.eval_on_selector_all(
        "#content-main a[href^='/admin/']", "links => [...new Set(links.map(a => a.getAttribute('href')))]")
    assert len(links) > 10
    for link in links:
        admin.visit(link)
        # A change list: its first object's change form too (inlines, widgets, actions).
        first = admin.page.locator("#result_list tbody th a").first
        if link.endswith("/") and not link.endswith("/add/") and first.count():
            admin.visit(first.get_attribute("href"))
    # The house-rules form previews the rules through htmx as it is filled in.
    admin.page.goto("/admin/games/ruleset/add/")
    admin.page.wait_for_load_state("networkidle")
    expect(admin.page.locator("#rules-preview")).not_to_be_empty()
    admin.check("rule set form (htmx)")
    # Choosing another variant reloads the form with its options (a script file now,
    # not the inline onchange handler the policy refused).
    admin.page.select_option("#id_variant", "tic-tac-two")
    admin.page.wait_for_url(re.compile(r".*/admin/games/ruleset/add/\?variant=tic-tac-two$"))
    admin.page.wait_for_load_state("networkidle")
    admin.check("rule set form, another variant")
