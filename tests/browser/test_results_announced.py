"""Results announced, in a real browser against the running platform: a finished
section's page shows its podium and prizes, its shareable results page shows the same
with the results image and the link-card tags, and an entrant signed in finds the
notice of their place in the inbox. Screenshots at a laptop's and a phone's width."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from PIL import Image

from tests.browser.support import BROWSER_MARKS, SHOTS, chromium, shoot, signed_in_pages
from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}

# A four-player knockout with a third-place match and a prize, played to its end as
# the workers would (Celery eager in this process).
FINISH = """
import json
from accounts.models import User
from league import competitions
from league.models import Standing
from tests.factories import section_with
from tests.league.support import eager_tasks, run_decided
users = [User.objects.get(username=name) for name in ("sam", "mei", "kofi", "lucia")]
with eager_tasks():
    section = section_with(users, format="single-elimination", placements="third", start=False, tournament="Podium cup")
    competitions.add_prize(section=section, label="Winner's cup", value="a silver cup")
    competitions.start_round(section_id=section.pk, number=1, force=True)
    run_decided(section)
section.refresh_from_db()
assert section.status == "finished", section.status
t = section.tournament
table = {s.rank: s.user.name for s in Standing.objects.filter(section=section).select_related("user__profile")}
print(json.dumps({"section": f"/clubs/{t.club.slug}/{t.slug}/{section.slug}/", "first": table[1], "second": table[2]}))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    tmp_path = tmp_path_factory.mktemp("results-browser")
    port = free_port()
    with scratch_database(tmp_path) as env, running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
        wait_for_port(port, process=processes[0])
        yield f"http://127.0.0.1:{port}", env


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_finished_section_shows_its_podium_and_tells_its_players(platform):
    from playwright.sync_api import expect

    base_url, env = platform
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", FINISH], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    world = json.loads(done.stdout.strip().splitlines()[-1])
    section_path, results_path = world["section"], world["section"] + "results/"

    with chromium() as browser:
        # A visitor, signed out: the section page and the results page.
        for label, viewport in (("laptop", LAPTOP), ("phone", PHONE_390)):
            context = browser.new_context(viewport=viewport, base_url=base_url)
            page = context.new_page()
            page.goto(section_path)
            podium = page.locator(".podium-card")
            expect(podium).to_be_visible()
            expect(podium.locator(".podium-1")).to_contain_text(world["first"])
            expect(podium.locator(".podium-2")).to_contain_text(world["second"])
            expect(podium.locator(".podium-3 .podium-player")).to_have_count(1)  # the third-place match was played
            expect(podium.locator(".podium-3")).to_contain_text("won the third-place match")
            # 1st stands highest at every width: on a phone the 3rd step, its words the longest,
            # stood taller than the 1st (and broke "Eliminated" mid-word); there it is one row a place.
            tops = [podium.locator(f".podium-{n}").bounding_box()["y"] for n in (1, 2, 3)]
            assert tops[0] < tops[1] and tops[0] < tops[2], (label, tops)
            if label == "phone":
                assert tops[0] < tops[1] < tops[2], tops
            expect(podium.locator(".podium-prizes")).to_contain_text(f"Winner's cup (a silver cup) · 1st place: {world['first']}")
            assert fits(page)
            shoot(page, f"results-section-{label}")

            podium.get_by_role("link", name="The results page to share").click()
            page.wait_for_url(f"**{results_path}")
            expect(page.locator("h1")).to_contain_text("results")
            expect(page.locator(".podium-1")).to_contain_text(world["first"])
            expect(page.locator("table.standings tbody tr")).to_have_count(4)
            image = page.locator("img.results-image")
            expect(image).to_be_visible()
            assert image.evaluate("img => img.naturalWidth") == 1200  # the PNG loaded, at its size
            og_image = page.locator('meta[property="og:image"]').get_attribute("content")
            assert og_image is not None and og_image.endswith(results_path.rstrip("/") + ".png")
            card = page.locator('meta[property="og:description"]').get_attribute("content") or ""
            assert card.startswith(f"Podium cup, Open: {world['first']} won. 1st: {world['first']}; "
                                   f"2nd: {world['second']}; 3rd: "), card
            assert fits(page)
            shoot(page, f"results-page-{label}")
            if label == "laptop":
                png = page.request.get(og_image)
                assert png.ok and png.headers["content-type"] == "image/png"
                card_image = Image.open(io.BytesIO(png.body()))
                assert (card_image.format, card_image.size) == ("PNG", (1200, 630))
                (SHOTS / "results-card.png").write_bytes(png.body())
            context.close()

        # An entrant signed in: the notice of the result is in the inbox.
        with signed_in_pages(browser, base_url) as open_as:
            for label, viewport in (("laptop", LAPTOP), ("phone", PHONE_390)):
                mei = open_as("mei", viewport)
                mei.goto("/accounts/notices/")
                notice = mei.locator(".notice-item", has_text="Podium cup: Open is over")
                expect(notice).to_be_visible()
                expect(notice).to_contain_text(f"{world['first']} won")
                expect(notice).to_contain_text("You placed" if world["first"] != "Mei" else "Congratulations")
                assert fits(mei)
                shoot(mei, f"results-notice-{label}")
