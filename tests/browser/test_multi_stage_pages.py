"""A two-stage championship in a real browser: the organiser makes the groups and the
knockout that follows them with the section form; everyone sees where each stage
stands ("Stage 2 of 2 (...): ..."), each group's table, and the later stage refusing
registrations in words. Screenshots at 1280 and 390 px: /tmp/stages-*.png."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.support import BROWSER_MARKS, LAPTOP, platform_with_world, signed_in_pages

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def championship(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """The platform with the demo club and every_page_world's two-stage championship
    (groups played, winners carried over); (its address, the paths by name)."""
    with platform_with_world(tmp_path_factory.mktemp("stages"),
                             "from tests.browser.every_page_world import build_stages_only; build_stages_only()", timeout=600) as made:
        yield made


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_organiser_makes_a_knockout_after_the_groups_with_the_section_form(browser, championship):
    from playwright.sync_api import expect

    server, _ = championship
    with signed_in_pages(browser, server) as open_as:
        organiser = open_as("organiser")
        organiser.goto("/clubs/demo-noughts-crosses-club/new-tournament/")
        organiser.fill("input[name=name]", "Spring championship")
        organiser.fill("input[name=starts_at]", "2030-06-01T10:00")
        organiser.click("button:has-text('Create the tournament')")
        organiser.fill("input[name=name]", "Groups")
        organiser.select_option("select[name=format]", "round-robin")
        organiser.fill("input[name=groups]", "4")
        organiser.click("button:has-text('Create the section')")
        expect(organiser.locator(".message")).to_contain_text("Section Groups is created")
        organiser.click("text=Add a section")
        organiser.fill("input[name=name]", "Knockout")
        organiser.select_option("select[name=format]", "single-elimination")
        organiser.select_option("select[name=previous_stage]", label="Spring championship: Groups")
        organiser.fill("input[name=advance]", "2")
        organiser.click("button:has-text('Create the section')")
        expect(organiser.locator(".message")).to_contain_text("Section Knockout is created")
        cards = organiser.locator(".section-grid article")
        expect(cards).to_have_count(2)
        expect(cards.nth(0)).to_contain_text("Stage 1 of 2: the top 2 of each group go through to Knockout")
        expect(cards.nth(1)).to_contain_text("Stage 2 of 2 (single elimination): the top 2 of each group of Groups play here")
        organiser.screenshot(path="/tmp/stages-organiser-tournament-1280.png", full_page=True)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE_390], ids=["1280", "390"])
def test_everyone_follows_the_stages(browser, championship, viewport):
    from playwright.sync_api import expect

    server, paths = championship
    width = viewport["width"]
    with signed_in_pages(browser, server) as open_as:
        page = open_as("sam", viewport)
        page.goto(paths["tournament-stages"])
        expect(page.locator(".stage-line").first).to_contain_text("Stage 1 of 2")
        assert _fits(page)
        page.screenshot(path=f"/tmp/stages-tournament-{width}.png", full_page=True)

        page.goto(paths["stage-groups"])
        expect(page.locator(".stage-line")).to_contain_text("Next stage: Knockout")
        expect(page.locator("h2", has_text="Group A (final)")).to_have_count(1)
        expect(page.locator("h2", has_text="Group B (final)")).to_have_count(1)
        assert _fits(page)
        page.screenshot(path=f"/tmp/stages-groups-{width}.png", full_page=True)

        page.click(".stage-line >> text=Knockout")
        expect(page.locator(".stage-line")).to_contain_text("Stage 2 of 2 (single elimination): the winner of each group of Groups plays here")
        expect(page.locator(".entry-box [role=note]")).to_contain_text("This is a later stage")
        expect(page.locator("button:has-text('Register')")).to_have_count(0)
        expect(page.get_by_role("region", name="Players (2)")).to_contain_text("checked in")  # carried over
        assert _fits(page)
        page.screenshot(path=f"/tmp/stages-knockout-{width}.png", full_page=True)
