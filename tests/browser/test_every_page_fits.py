"""No page scrolls sideways, on a phone (360 and 390 px wide) as on a laptop (1280 px):
every main page of the platform, signed in and out, in a real Chromium against the
running platform (tests/browser/support.py). Wide tables and brackets scroll in their
own box; the page itself never does. Screenshots go to test-artifacts/screenshots/fit/."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.support import BROWSER_MARKS, SHOTS, TIMEOUT_MS, signed_in_pages

pytestmark = BROWSER_MARKS

WIDTHS = {"phone-360": 360, "phone-390": 390, "laptop": 1280}
CLUB = "/clubs/demo-noughts-crosses-club/"
SIGNED_OUT = ["/", "/accounts/signup/", "/accounts/login/", "/clubs/", "/no-such-page/"]
SIGNED_IN = [
    "/", "/play/", "{game}", "{replay}", "/clubs/", CLUB, CLUB + "demo-open/", CLUB + "demo-open/open/",
    "/ratings/", "/ratings/classic/", "/ratings/player/sam/", "/accounts/profile/", "/clubs/calendar/",
    "/no-such-page/",
]
ORGANISER = [CLUB + "new-tournament/", CLUB + "demo-open/new-section/"]  # the forms with checkboxes


def _api(server: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


@pytest.fixture(scope="module")
def games(server) -> dict[str, str]:
    """Two games between Sam and Mei through the API: one in play after a move, one
    resigned (so it has a replay)."""
    tokens = {name: _api(server, "/api/v1/accounts/login/", {"username": name, "password": "tictactoe-demo"})["token"]
              for name in ("sam", "mei")}
    made = []
    for _ in range(2):
        game = _api(server, "/api/v1/games/", {"variant": "classic", "opponent": "mei"}, tokens["sam"])
        game = _api(server, f"/api/v1/games/{game['id']}/accept/", {}, tokens["mei"])
        made.append(game)
    playing, finished = made
    for name in ("sam", "mei"):
        try:
            _api(server, f"/api/v1/games/{playing['id']}/moves/", {"ply": 0, "move": {"cell": 5}}, tokens[name])
            break
        except urllib.error.HTTPError:  # not this player's move
            continue
    _api(server, f"/api/v1/games/{finished['id']}/resign/", {}, tokens["sam"])
    return {"{game}": f"/play/{playing['id']}/", "{replay}": f"/play/{finished['id']}/replay/"}


def _overflow(page) -> dict:
    """How wide the page is against the window, and the widest elements that stick out."""
    return page.evaluate("""() => {
        const width = window.innerWidth;
        const culprits = [...document.querySelectorAll('body *')]
          .filter(el => el.getBoundingClientRect().right > width + 1)
          .slice(0, 5)
          .map(el => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
        return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, culprits};
    }""")


def _check(page, paths: list[str], label: str, width_name: str, shots) -> list[str]:
    failures = []
    for path in paths:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        name = f"{label}-{width_name}-{path.strip('/').replace('/', '_') or 'home'}"
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        fit = _overflow(page)
        if fit["scrollWidth"] > fit["innerWidth"]:
            failures.append(f"{path} at {width_name}: {fit}")
    return failures


@pytest.mark.parametrize("width_name", WIDTHS)
def test_no_page_scrolls_sideways(browser, server, games, width_name):
    shots = SHOTS / "fit"
    shots.mkdir(parents=True, exist_ok=True)
    viewport = {"width": WIDTHS[width_name], "height": 800}
    failures = []

    context = browser.new_context(viewport=viewport, base_url=server)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        failures += _check(context.new_page(), SIGNED_OUT, "out", width_name, shots)
    finally:
        context.close()

    with signed_in_pages(browser, server) as open_as:
        page = open_as("sam", viewport)
        paths = [games.get(path, path) for path in SIGNED_IN]
        failures += _check(page, paths, "sam", width_name, shots)
        failures += _check(open_as("organiser", viewport), ORGANISER, "organiser", width_name, shots)

    assert not failures, "\n".join(failures)
