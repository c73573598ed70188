"""No page scrolls sideways, on a phone (360, 390 and 430 px wide) as on a laptop
(1280 px): every page of the platform, signed out, as a player, as an organiser and as
the admin, in a real Chromium against the running platform (tests/browser/support.py).
Wide tables and brackets scroll in their own box; the page itself never does, not even
for the longest name a player can have (every_page_world.LONG: 60 letters, one word, in
the lobby, a game, every section's tables, notices, a profile). Every page also has a
title of its own. Screenshots go to test-artifacts/screenshots/fit/.

A new page is one line in PAGES below."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.browser.every_page_world import LONG
from tests.browser.support import BROWSER_MARKS, SHOTS, TIMEOUT_MS, signed_in_pages
from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = BROWSER_MARKS

WIDTHS = {"phone-360": 360, "phone-390": 390, "phone-430": 430, "laptop": 1280}
CLUB = "/clubs/demo-noughts-crosses-club/"
SERVER_ERROR = "/__server-error__/"  # answered in the browser with the platform's 500 page (below)

#: Every page, once: who looks at it (None: signed out; else a demo player), and where.
#: A name in braces is a page of every_page_world.py's (games, sections, the season).
PAGES: list[tuple[str | None, str]] = [
    (None, "/"),
    (None, "/accounts/signup/"),
    (None, "/accounts/login/"),
    (None, "{consent}"),
    (None, "/clubs/"),
    (None, CLUB),
    (None, CLUB + "demo-open/"),
    (None, "/play/"),
    (None, "/rules/"),
    (None, "/rules/classic/"),
    (None, "/rules/t-tic-t-tac-toe/"),
    (None, "/rules/tactic-toe/"),
    (None, "/rules/tic-tac-two/"),
    (None, "/rules/nine-square/"),
    (None, "/rules/rock-paper-scissors/"),
    (None, "/learn/"),
    (None, "/ratings/"),
    (None, "/api/docs/"),
    (None, "/no-such-page/"),
    (None, SERVER_ERROR),
    ("sam", "/"),
    ("sam", "/play/"),
    ("sam", "{game-classic}"),
    ("sam", "{game-t-tic-t-tac-toe}"),
    ("sam", "{game-tactic-toe}"),
    ("sam", "{game-tic-tac-two}"),
    ("sam", "{game-nine-square}"),
    ("sam", "{game-long-name}"),  # a player with a 60-letter name, one word
    ("sam", "{game-rock-paper-scissors-decided}"),
    ("sam", "/learn/"),
    ("sam", "{lesson-t-tic-t-tac-toe}"),
    ("sam", "{replay}"),
    ("sam", "/clubs/"),
    ("sam", CLUB),
    ("sam", CLUB + "demo-open/"),
    ("sam", CLUB + "demo-open/open/"),
    ("sam", CLUB + "demo-open/under-16/"),
    ("sam", "{tournament-started}"),
    ("sam", "{section-single-elimination}"),
    ("sam", "{section-double-elimination}"),
    ("sam", "{section-round-robin}"),
    ("sam", "{section-swiss}"),
    ("sam", "{section-arena}"),
    (None, "{section-finished}"),
    (None, "{results-finished}"),
    ("sam", "{results-finished}"),
    ("sam", "{tournament-stages}"),
    ("sam", "{stage-groups}"),
    ("sam", "{stage-knockout}"),
    ("sam", "{season}"),
    ("organiser", "{league}"),
    ("sam", "/ratings/"),
    ("sam", "/ratings/nine-square/"),  # a tab with nobody rated yet
    ("sam", "/ratings/player/sam/"),
    ("sam", "/ratings/player/mei/"),
    ("sam", "{player-long-name}"),
    ("sam", "/ratings/tic-tac-two/"),
    ("sam", "/ratings/club/demo-noughts-crosses-club/"),
    ("sam", "/players/?q=m"),
    ("sam", "/accounts/profile/"),
    ("sam", "/accounts/notices/"),
    ("sam", "/clubs/calendar/"),
    ("sam", "/no-such-page/"),
    (LONG, "/play/"),
    (LONG, "/accounts/profile/"),
    (LONG, "/accounts/notices/"),
    ("organiser", CLUB),
    ("organiser", CLUB + "new-tournament/"),
    ("organiser", CLUB + "demo-open/"),
    ("organiser", CLUB + "demo-open/new-section/"),
    ("organiser", CLUB + "demo-open/open/"),  # the section page with the organiser's buttons
    ("organiser", "{section-swiss}"),
    ("organiser", "{round-preview}"),
    ("admin", "/admin/"),
    ("admin", "/admin/games/game/"),
    ("admin", "/admin/accounts/user/"),
]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """The platform on a scratch database with the demo club and every_page_world's
    pages; (its address, the world's paths by name)."""
    tmp_path = tmp_path_factory.mktemp("every-page")
    port = free_port()
    with scratch_database(tmp_path) as env:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", "from tests.browser.every_page_world import build; build()"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True)
        paths = json.loads(made.stdout.strip().splitlines()[-1])
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            yield f"http://127.0.0.1:{port}", paths


def _server_error_page() -> str:
    """The page a 500 answers with, from the handler itself (it needs no database)."""
    from django.test import RequestFactory

    from config.api import handler500

    return handler500(RequestFactory().get("/play/")).content.decode()


def _overflow(page) -> dict:
    """How wide the page is against the window, and the widest elements that stick out
    (the deepest ones: their parents stick out only because of them)."""
    return page.evaluate("""() => {
        const width = window.innerWidth;
        const out = [...document.querySelectorAll('body *')]
          .filter(el => el.getBoundingClientRect().right > width + 1);
        const deepest = out.filter(el => !out.some(other => other !== el && el.contains(other)));
        const culprits = deepest
          .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
          .slice(0, 5)
          .map(el => `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}`
                     + `${el.classList.length ? '.' + [...el.classList].join('.') : ''}> right edge at `
                     + `${Math.round(el.getBoundingClientRect().right)} px`);
        return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, culprits};
    }""")


def _shot_name(who: str | None, width_name: str, path: str) -> str:
    slug = path.strip("/").replace("/", "_")[:80] or "home"
    return f"{(who or 'out')[:16]}-{width_name}-{slug}"


def test_no_page_scrolls_sideways(browser, world):
    """Each page is loaded once and looked at in every width (the window resized: the
    layout is CSS media queries, and the one script that minds the size listens for
    resizes; a load per width took 210 s, this 70 s)."""
    server, paths = world
    shots = SHOTS / "fit"
    shots.mkdir(parents=True, exist_ok=True)
    first = {"width": next(iter(WIDTHS.values())), "height": 800}
    error_page = _server_error_page()
    failures, titles = [], {}

    with signed_in_pages(browser, server) as open_as:
        pages = {}
        for who, template in PAGES:
            if who not in pages:
                if who is None:
                    context = browser.new_context(viewport=first, base_url=server)
                    context.set_default_timeout(TIMEOUT_MS)
                    pages[who] = context.new_page()
                else:
                    pages[who] = open_as(who, first)
                pages[who].route("**" + SERVER_ERROR, lambda route: route.fulfill(
                    status=500, body=error_page, content_type="text/html; charset=utf-8"))
            page = pages[who]
            path = paths[template.strip("{}")] if template.startswith("{") else template
            page.set_viewport_size(first)
            page.goto(path)
            page.wait_for_load_state("networkidle")
            for width_name, width in WIDTHS.items():
                page.set_viewport_size({"width": width, "height": 800})
                page.screenshot(path=str(shots / f"{_shot_name(who, width_name, template)}.png"), full_page=True)
                fit = _overflow(page)
                if fit["scrollWidth"] > fit["innerWidth"]:
                    failures.append(f"{width_name}: {template} ({(who or 'signed out')[:16]}) is {fit['scrollWidth']} px "
                                    f"wide in {fit['innerWidth']}: " + "; ".join(fit["culprits"]))
            titles.setdefault(page.title(), []).append(template)
        pages[None].context.close()  # the signed-in ones close with signed_in_pages

    assert not failures, "\n".join(failures)
    shared = {title: where for title, where in titles.items() if len(set(where)) > 1 and "Page not found" not in title}
    assert not shared, f"pages that share a title: {shared}"
    assert all(title.strip() and title != "Tic Tac Toe League" for title in titles), titles


def test_the_menu_folds_behind_a_button_on_a_phone(browser, world):
    """390 px: the menu is one "Menu" button beside the site's name, carrying the unread
    count; it opens to full-width items at least 44 px tall that work. 1280 px: no
    button, every item in the bar."""
    from playwright.sync_api import expect

    server, _ = world
    with signed_in_pages(browser, server) as open_as:
        phone = open_as("sam", {"width": 390, "height": 800})
        phone.goto("/clubs/")
        toggle = phone.locator(".nav-toggle")
        expect(toggle).to_be_visible()
        expect(phone.locator("#nav-menu")).to_be_hidden()
        expect(toggle.locator(".unread-badge")).to_be_visible()  # the sections' pairing notices
        assert phone.locator(".brand").bounding_box()["y"] == pytest.approx(toggle.bounding_box()["y"], abs=12)
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        items = phone.locator("#nav-menu > li > a, #nav-menu > li .link-button")
        for index in range(items.count()):
            box = items.nth(index).bounding_box()
            assert box["height"] >= 44 and box["width"] >= 300, (items.nth(index).inner_text(), box)
        expect(phone.locator('#nav-menu a[href="/clubs/"]')).to_have_attribute("aria-current", "page")
        phone.screenshot(path=str(SHOTS / "fit" / "menu-open-phone-390.png"))
        phone.keyboard.press("Escape")
        expect(phone.locator("#nav-menu")).to_be_hidden()
        toggle.click()
        phone.locator("#nav-menu >> text=Ratings").click()
        phone.wait_for_url("**/ratings/")

        laptop = open_as("sam", {"width": 1280, "height": 800})
        expect(laptop.locator(".nav-toggle")).to_be_hidden()
        expect(laptop.locator("#nav-menu").get_by_role("link", name="Play", exact=True)).to_be_visible()

        # The longest name in the menu, opened on the narrowest phone and in the laptop's bar: one line, cut short,
        # whole in the link's title; the page no wider. A 40-letter name is whole at 1280 px, its bar widened for
        # it (a walkthrough saw "Samantha Alexa…" with 100 px unused each side); at 390 px it fits, opened.
        forty = "Samantha Alexandra Montgomery-Fitzwillia"
        for width, name in ((360, LONG[:60]), (1280, LONG[:60]), (1280, forty), (390, forty)):
            page = open_as(LONG, {"width": width, "height": 800})
            page.goto("/play/")
            if width < 600:
                page.locator(".nav-toggle").click()
            me = page.locator("#nav-menu .nav-me")
            expect(me).to_be_visible()
            expect(page.locator("#nav-menu a[href='/accounts/profile/']")).to_have_attribute("title", LONG[:60])
            me.evaluate("(link, name) => { link.textContent = name; }", name)  # as the menu shows a name that long
            box = me.bounding_box()
            assert box and box["height"] <= 48 and box["x"] + box["width"] <= width, box
            if width != 390:  # at 390 px the forty letters fill the line to a pixel: whole or cut, it fits
                whole = me.evaluate("link => link.scrollWidth <= link.clientWidth")
                assert whole is (name == forty), (width, name, box)  # cut short only where there is no room
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
            if width > 600:  # one line: the name gives way, not the bar ("Olivia Organiser" made it two)
                header = page.locator(".site-header").bounding_box()
                assert header and header["height"] <= 56, header
            page.screenshot(path=str(SHOTS / "fit" / f"menu-name-{len(name)}-{width}.png"))


#: A live notice's banner as static/js/site.js draws it, with its two links.
LIVE_NOTICE = """() => { const p = document.createElement("p"); p.className = "message notice-live";
  p.textContent = "You were paired. "; const form = document.createElement("form"); form.className = "inline-form";
  const open = document.createElement("button"); open.className = "link-button"; open.textContent = "Open";
  form.append(open); const close = document.createElement("button"); close.type = "button";
  close.className = "link-button"; close.textContent = "Dismiss"; p.append(form, " ", close);
  document.getElementById("notices").append(p); }"""


def test_form_controls_are_44_px_tap_targets_on_a_phone(browser, world):
    """390 px, the profile: inputs were 42 px tall, selects 39, buttons 42, checkboxes
    13x13, a live notice's Open and Dismiss 24, the site's name 26 (a walkthrough). Each
    is at least 44 px tall now (a checkbox: its row, the label); at 1280 px the fields
    stay as they were."""
    server, _ = world
    with signed_in_pages(browser, server) as open_as:
        for width in (390, 1280):
            page = open_as("sam", {"width": width, "height": 800})
            page.goto("/accounts/profile/")
            page.evaluate(LIVE_NOTICE)
            heights = page.evaluate("""() => [...document.querySelectorAll(
                "main input:not([type=hidden]):not([type=checkbox]), main select, main form button, .notice-live .link-button, "
                + ".brand, main label:has(input[type=checkbox])")].map(el => [el.outerHTML.slice(0, 60),
                el.getBoundingClientRect().height])""")
            assert len(heights) > 15, heights
            if width == 390:
                assert all(height >= 44 for _, height in heights), [h for h in heights if h[1] < 44]
            else:
                assert max(height for html, height in heights if html.startswith("<select")) < 44
            page.screenshot(path=str(SHOTS / "fit" / f"profile-controls-{width}.png"), full_page=True)


def test_the_tic_tac_two_board_is_as_wide_as_the_classic_one(browser, world):
    """At 390 px the classic board takes the whole width (358 px); Tic Tac Two's took 262,
    its room for the Shift arrows kept all the time. Now it takes the same width, its
    squares square, and makes that room only while the arrows show. At 1280 px both are
    24rem (408 px), the room beside the grid to spare."""
    server, paths = world
    with signed_in_pages(browser, server) as open_as:
        for width, expected in ((390, 358), (1280, 24 * 17)):  # 24rem: the root's 17 px above 600 px
            page = open_as("sam", {"width": width, "height": 860})
            sizes = {}
            for variant, grid in (("classic", "#board .grid-3"), ("tic-tac-two", "#board .t2-field .grid")):
                page.goto(paths[f"game-{variant}"])
                page.wait_for_load_state("networkidle")
                box = page.locator(grid).bounding_box()
                assert box is not None, variant
                sizes[variant] = box
                square = page.locator(f"{grid} .square").first.bounding_box()
                assert square and abs(square["width"] - square["height"]) <= 1, (variant, square)
            page.locator(".t2-stage").screenshot(path=str(SHOTS / "fit" / f"tic-tac-two-grid-{width}.png"))
            for variant, box in sizes.items():
                assert abs(box["width"] - expected) <= 1 and abs(box["height"] - expected) <= 1, (width, variant, box)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_organisers_entry_answers_where_they_look(browser, world):
    """The organiser's "Enter a player" refused: the page opens at the form, the refusal
    in it, in view, on a phone as on a laptop (it used to open at the players list below,
    the refusal at the top of the page, off the screen)."""
    from playwright.sync_api import expect

    server, _ = world
    with signed_in_pages(browser, server) as open_as:
        for width in (390, 1280):
            page = open_as("organiser", {"width": width, "height": 800})
            page.goto(CLUB + "demo-open/open/")
            page.fill("#id_enter_username", "nobody-at-all")
            page.click("#enter-player button[value=enter]")
            page.wait_for_url("**#enter-player")
            refusal = page.locator("#enter-player .message.error")
            expect(refusal).to_contain_text("nobody-at-all is not a member of Demo Noughts & Crosses Club")
            expect(refusal).to_be_in_viewport()
            expect(page.locator("#id_enter_username")).to_be_in_viewport()
            expect(page.locator(".messages .message")).to_have_count(0)  # not said again at the top
            page.screenshot(path=str(SHOTS / "fit" / f"enter-player-refused-{width}.png"))
