"""The section page follows the event in a real browser, against the running platform
(tests/browser/support.py): a result recorded while the page is open appears without a
reload (the section's socket says so, htmx fetches the live part), and the buttons go as
the state moves (Register and Start now once the section starts, Open registration while
registration is open). Screenshots at 1280 and 390 px (test-artifacts/screenshots/)."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser.support import BROWSER_MARKS, chromium, platform_with_world, shoot, signed_in_pages

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}
DEMO_OPEN = "/clubs/demo-noughts-crosses-club/demo-open/"

#: Three events of the demo club, made in the server's database through the services: a
#: Swiss in play (Sam, Mei, Kofi, Lucía), a Swiss taking entries (Sam, Mei), and one
#: with nobody entered yet (the organiser deletes it).
WORLD = """
import json
from django.utils import timezone
from rest_framework.authtoken.models import Token
from accounts.models import User
from league.competitions.notices import section_url
from league.models import Club, Pairing
from tests.factories import section_with
club = Club.objects.get(slug="demo-noughts-crosses-club")
users = {u.username: u for u in User.objects.filter(username__in=["sam", "mei", "kofi", "lucia"])}
running = section_with([users[n] for n in ("sam", "mei", "kofi", "lucia")], format="swiss", rounds=2, club=club,
                       tournament="Live cup")
boards = [Pairing.objects.select_related("second").get(section=running, round__number=1, board=n) for n in (1, 2)]
waiting = section_with([users["sam"], users["mei"]], format="swiss", rounds=1, club=club, start=False,
                       starts_in=3600, tournament="Button cup")
doomed = section_with([], format="swiss", rounds=1, club=club, start=False, starts_in=3600, tournament="Gone cup")
organiser = User.objects.get(username="organiser")
print(json.dumps({
    "doomed": section_url(doomed),
    "doomed_id": doomed.pk,
    "organiser_token": Token.objects.get_or_create(user=organiser)[0].key,
    "running": section_url(running),
    "boards": [{"game": b.game_id, "token": Token.objects.get_or_create(user=b.second)[0].key} for b in boards],
    "waiting": section_url(waiting),
    "waiting_tournament": section_url(waiting).rsplit("/", 2)[0] + "/",
}))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory) -> Iterator[tuple[str, dict]]:
    """The platform as real processes, and the world made in its database."""
    with platform_with_world(tmp_path_factory.mktemp("section-live"), WORLD, timeout=120) as made:
        yield made


def resign(base_url: str, game_id: int, token: str) -> None:
    """The loser resigns through the API (games.services.resign in the server; its
    result is recorded by league's task and broadcast to the section's group)."""
    request = urllib.request.Request(f"{base_url}/api/v1/games/{game_id}/resign/", data=b"{}", method="POST",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=15) as answer:
        assert answer.status == 200


def round_one(page):
    """Round 1's boards (the rounds are listed latest first: round 2 may have begun)."""
    return page.locator("#section-live details.round").filter(
        has=page.locator("summary", has_text="Round 1 ·")).locator("table.boards")


def boards_of(table):
    """A table's board rows (not the rows explaining a pairing, where shown)."""
    return table.locator("tbody tr:not(.why)")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_result_appears_on_the_open_section_page_without_a_reload(platform):
    from playwright.sync_api import expect

    base_url, world = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        edith = open_as("edith")  # watching, not playing
        phone = open_as("kofi", PHONE_390)
        for page in (edith, phone):
            page.goto(world["running"])
            expect(page.locator("#section-connection")).to_have_text("Live")
        board = boards_of(round_one(edith)).first
        expect(board).to_contain_text("in play")
        edith.evaluate("window.stillTheSamePage = true")  # gone if the page reloads

        resign(base_url, world["boards"][0]["game"], world["boards"][0]["token"])

        expect(board).to_contain_text("won", timeout=15_000)
        expect(board).not_to_contain_text("in play")
        assert edith.evaluate("window.stillTheSamePage === true")
        expect(boards_of(round_one(phone)).first).to_contain_text("won", timeout=15_000)
        assert fits(phone)
        shoot(edith, "section-live-laptop")
        shoot(phone, "section-live-phone")


def test_buttons_go_as_the_state_moves(platform):
    from playwright.sync_api import expect

    base_url, world = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        kofi = open_as("kofi")
        kofi.goto(world["waiting"])
        expect(kofi.locator("#section-connection")).to_have_text("Live")
        register = kofi.locator("#section-live button", has_text="Register")
        expect(register).to_be_visible()

        organiser = open_as("organiser")
        organiser.goto(world["waiting_tournament"])
        buttons = organiser.locator(".organiser button")
        # Registration is open: no "Open registration"; closing it brings it back.
        expect(buttons).to_have_text(["Close registration", "Start now"])
        organiser.click("button:has-text('Close registration')")
        expect(organiser.locator(".message")).to_contain_text("Registration is closed.")
        expect(buttons).to_have_text(["Open registration now", "Start now"])
        organiser.click("button:has-text('Open registration now')")
        expect(organiser.locator(".message")).to_contain_text("Registration is open.")
        expect(buttons).to_have_text(["Close registration", "Start now"])
        shoot(organiser, "tournament-organiser-buttons-laptop")

        # The section page's own Start button: there, and gone once it has started.
        organiser.goto(world["waiting"])
        start = organiser.locator("button", has_text="Start this section now")
        expect(start).to_be_visible()
        kofi.evaluate("window.stillTheSamePage = true")
        organiser.once("dialog", lambda dialog: dialog.accept())  # "Start ... now: ... Start?"
        start.click()
        expect(organiser.locator(".message")).to_contain_text("has started")
        expect(start).to_have_count(0)
        # Kofi's open page loses Register without a reload, and says why.
        expect(register).to_have_count(0, timeout=15_000)
        expect(kofi.locator("#section-live")).to_contain_text("Registration is closed: this section is under way.")
        expect(kofi.locator("#section-status")).to_have_text("In play")
        assert kofi.evaluate("window.stillTheSamePage === true")
        organiser.goto(world["waiting_tournament"])
        expect(buttons).to_have_count(0)
        expect(organiser.locator(".organiser")).to_contain_text("Every section has already started")
        shoot(kofi, "section-after-start-laptop")


def test_the_section_form_shows_the_chosen_formats_settings(platform):
    from playwright.sync_api import expect

    base_url, _ = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        for viewport, name in (({"width": 1280, "height": 860}, "laptop"), (PHONE_390, "phone")):
            organiser = open_as("organiser", viewport)
            organiser.goto(DEMO_OPEN + "new-section/")  # not the Button cup: its sections are another test's
            legend = organiser.locator("#format-settings legend")
            expect(legend).to_have_text("Single elimination settings")
            expect(organiser.locator("input[name=rounds]")).to_have_count(0)  # a Swiss's, not shown
            organiser.select_option("select[name=format]", "swiss")
            expect(legend).to_have_text("Swiss settings")
            expect(organiser.locator("input[name=rounds]")).to_be_visible()
            expect(organiser.locator("input[name=arena_duration]")).to_have_count(0)
            # The common settings are folded away until opened.
            expect(organiser.locator("select[name=age_under]")).to_be_hidden()
            assert fits(organiser)
            shoot(organiser, f"section-form-{name}")
        # An arena: its minutes, then created.
        organiser.fill("input[name=name]", "Blitz arena")
        organiser.select_option("select[name=format]", "arena")
        expect(legend).to_have_text("Arena settings")
        organiser.fill("input[name=arena_duration]", "30")
        organiser.click("button:has-text('Create the section')")
        expect(organiser.locator(".message")).to_contain_text("Section Blitz arena is created")


def test_while_the_socket_is_down_the_page_polls(platform):
    """The fallback: a page whose section socket cannot connect says so, and still shows
    the result within a few polls."""
    from playwright.sync_api import expect

    base_url, world = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        page = open_as("edith")
        page.route_web_socket("**/ws/sections/**", lambda socket: socket.close())  # the socket is down
        page.goto(world["running"])
        expect(page.locator("#section-connection")).to_contain_text("Reconnecting")
        board = boards_of(round_one(page)).nth(1)
        expect(board).to_contain_text("in play")
        page.evaluate("window.stillTheSamePage = true")
        resign(base_url, world["boards"][1]["game"], world["boards"][1]["token"])
        expect(board).to_contain_text("won", timeout=20_000)
        assert page.evaluate("window.stillTheSamePage === true")


def test_a_refresh_waits_until_a_press_ends(platform):
    """The live part is never swapped between a button's mousedown and mouseup (the
    click would be lost: seen once, a Register that did nothing): a refresh that
    arrives under a press is dropped and fetched again after the release."""
    from playwright.sync_api import expect

    base_url, world = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        page = open_as("edith")
        page.goto(world["running"])
        expect(page.locator("#section-connection")).to_have_text("Live")
        page.wait_for_load_state("networkidle")  # the connect's own refresh has landed
        mark = "document.getElementById('section-live').dataset.mark"
        page.evaluate(f"{mark} = 'before'")
        page.mouse.move(5, 5)
        page.mouse.down()
        with page.expect_response(lambda response: response.url.startswith(base_url + world["running"])):
            page.evaluate("htmx.trigger(document.getElementById('section-live'), 'section-update')")
        page.wait_for_timeout(300)  # htmx would have swapped by now
        assert page.evaluate(mark) == "before", "the live part was swapped under the press"
        page.mouse.up()
        expect(page.locator("#section-live[data-mark]")).to_have_count(0, timeout=5_000)  # fetched again
        expect(page.locator("#section-live")).to_contain_text("Round 1")


def test_an_open_page_is_told_its_section_was_deleted(platform):
    """The organiser deletes a section (through the API) while two pages show it: the one
    following the socket says so at once, with a link to the tournament; the one whose
    socket is down finds out at its next poll (a 404)."""
    from playwright.sync_api import expect

    base_url, world = platform
    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        live = open_as("kofi")
        live.goto(world["doomed"])
        expect(live.locator("#section-connection")).to_have_text("Live")
        polling = open_as("edith", PHONE_390)
        polling.route_web_socket("**/ws/sections/**", lambda socket: socket.close())
        polling.goto(world["doomed"])
        expect(polling.locator("#section-connection")).to_contain_text("Reconnecting")
        request = urllib.request.Request(f"{base_url}/api/v1/sections/{world['doomed_id']}/", method="DELETE",
                                         headers={"Authorization": f"Token {world['organiser_token']}"})
        with urllib.request.urlopen(request, timeout=15) as answer:
            assert answer.status == 204
        note = live.locator("#main [role=alert]")
        expect(note).to_have_text("The organisers deleted this section. Back to the tournament")
        live.click("text=Back to the tournament")
        expect(live.locator("h1")).to_contain_text("Gone cup")
        expect(polling.locator("#main [role=alert]")).to_have_text(
            "The organisers deleted this section. Back to the tournament", timeout=20_000)
        assert fits(polling)
        shoot(polling, "section-deleted-phone")
