"""Notices in a real browser against the running platform (tests/browser/support.py):
a player whose page is closed is paired in a tournament; when they open any page later
the navigation shows the unread count, the inbox shows the notice with its link, and
following it goes to the game and marks it read. Marking all read on one tab clears
the count on another tab live. Screenshots at a laptop's and a phone's width."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.browser.support import BROWSER_MARKS, chromium, shoot, signed_in_pages
from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}

PAIR = """
import json
from accounts.models import User
from league import competitions
from league.models import Pairing
from tests.factories import section_with
users = [User.objects.get(username=name) for name in ("sam", "mei")]
section = section_with(users, format="swiss", rounds=1, start=False, tournament="Inbox cup")
competitions.start_round(section_id=section.pk, number=1, force=True)
print(json.dumps({"game": Pairing.objects.get(section=section).game_id}))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """The platform as real processes, and the environment to reach its database."""
    tmp_path = tmp_path_factory.mktemp("notices-browser")
    port = free_port()
    with scratch_database(tmp_path) as env, running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
        wait_for_port(port, process=processes[0])
        yield f"http://127.0.0.1:{port}", env


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_player_away_when_paired_finds_the_notice_on_any_page_later(platform):
    from playwright.sync_api import expect

    base_url, env = platform
    # Sam has no page open: the round is paired as beat's task would pair it.
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", PAIR], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    game_id = json.loads(done.stdout.strip().splitlines()[-1])["game"]

    with chromium() as browser, signed_in_pages(browser, base_url) as open_as:
        sam = open_as("sam")
        sam.goto("/clubs/")  # any page
        badge = sam.locator("#unread-count")
        expect(badge).to_be_visible()
        unread = int(badge.inner_text())
        assert unread >= 1
        sam.click("nav >> a.nav-inbox")
        expect(sam.locator("h1")).to_have_text("Notices")
        notice = sam.locator(".notice-item.is-unread", has_text="Inbox cup")
        expect(notice).to_contain_text("your game is ready")
        assert fits(sam)
        shoot(sam, "notices-laptop")

        notice.locator("button.notice-open").click()
        sam.wait_for_url(f"**/play/{game_id}/")
        if unread > 1:
            expect(sam.locator("#unread-count")).to_have_text(str(unread - 1))
        else:
            expect(sam.locator("#unread-count")).to_be_hidden()
        sam.goto("/accounts/notices/")
        expect(sam.locator(".notice-item", has_text="Inbox cup")).to_have_class("notice-item is-read")

        # Mei has two tabs; marking all read on one clears the count on the other, live.
        mei = open_as("mei", PHONE_390)
        mei.goto("/accounts/notices/")
        expect(mei.locator(".notice-item.is-unread", has_text="Inbox cup")).to_be_visible()
        assert fits(mei)
        shoot(mei, "notices-phone")
        other = mei.context.new_page()
        other.goto("/clubs/")
        expect(other.locator("#live-status")).to_contain_text("Live")
        # On a phone the count shows on the folded menu's button (templates/base.html).
        expect(other.locator(".nav-toggle .unread-badge")).to_be_visible()
        mei.click("button:has-text('Mark all read')")
        expect(mei.locator(".notice-item.is-unread")).to_have_count(0)
        expect(other.locator(".nav-toggle .unread-badge")).to_be_hidden()
        mei.goto("/accounts/profile/")
        assert fits(mei)
        shoot(mei, "notices-profile-phone")
