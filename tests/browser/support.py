"""What the browser tests share: Debian's Chromium, a platform started as real
processes (runplatform on the embedded default; uvicorn, a Celery worker and beat on
PostgreSQL + Redis), signing in, screenshots (test-artifacts/screenshots/)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = ROOT / "test-artifacts" / "screenshots"
PASSWORD = "tictactoe-demo"  # the demo players' (league/management/commands/seed_demo.py)
PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 860}
TIMEOUT_MS = 15_000

#: Every browser test module starts with these marks.
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]


@contextmanager
def platform_with_world(tmp_path: Path, world: str, *, timeout: int = 300) -> Iterator[tuple[str, dict[str, Any]]]:
    """The platform as real processes on a scratch database, after ``world`` (a script for
    ``manage.py shell -c`` printing JSON on its last line) has made what the test needs
    in it: (the platform's base URL, that JSON)."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c", world], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=timeout)
        assert made.returncode == 0, made.stderr[-3000:]
        made_world = json.loads(made.stdout.strip().splitlines()[-1])
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            yield f"http://127.0.0.1:{port}", made_world


@contextmanager
def chromium() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def signed_in_pages(browser: Any, base_url: str) -> Iterator[Callable[..., Any]]:
    """``open_as(username, viewport)``: a page in a context of its own, signed in as
    that demo player; every context is closed at the end."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts = []

    def open_as(username: str, viewport: dict = LAPTOP, **options: Any) -> Any:
        """``options`` go to the context (``has_touch=True, is_mobile=True`` for a phone)."""
        context = browser.new_context(viewport=viewport, base_url=base_url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        sign_in(page, username)
        return page

    try:
        yield open_as
    finally:
        for context in contexts:
            context.close()


def sign_in(page: Any, username: str) -> None:
    """Sign in through the log-in form, as a person does (the page's context has the server as base URL)."""
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def scroll_to(page: Any, selector: str) -> None:
    """Scroll ``selector`` into view in one script step. On a game page the socket swaps
    the board in anew at any moment, and Playwright's scroll_into_view_if_needed fails
    when the element it found is replaced while it waits for it to be stable."""
    page.wait_for_selector(selector, state="attached")
    page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'center'})", selector)


def wait_live(*pages: Any) -> None:
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#connection")).to_have_text("Live")


def expect_refusal_beside(page: Any, control: str, words: str) -> None:
    """A refused move's reason is on screen just under ``control`` (the board or the
    button used), where the player is looking, and announced (role=alert): not at the
    top of the page, out of sight."""
    from playwright.sync_api import expect

    line = page.locator("#game-errors")
    expect(line).to_contain_text(words)
    expect(line).to_have_attribute("role", "alert")
    box, used = line.bounding_box(), page.locator(control).bounding_box()
    assert box is not None and used is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"] + 1, box  # sub-pixel
    assert used["y"] + used["height"] <= box["y"] <= used["y"] + used["height"] + 200, (box, used)


def wait_section_current(*pages: Any) -> None:
    """Each section page follows its socket and has caught up (its first refresh landed:
    static/js/section-live.js), so no refresh is about to replace what a test measures."""
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#section-connection")).to_have_text("Live")
